"""What a model agent is configured with: `ModelOptions`, the per-endpoint concurrency gate, price tables."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio


@dataclass
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cached_input: float | None = None

    def cost(self, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
        """US dollars for the tokens; cached input tokens (part of `input_tokens`) at the cached rate, if any."""
        cached_rate = self.input if self.cached_input is None else self.cached_input
        return (
            (input_tokens - cached_tokens) * self.input + cached_tokens * cached_rate + output_tokens * self.output
        ) / 1e6


def _price_of(value: Any, where: str) -> Price:
    if isinstance(value, list | tuple) and len(value) in (2, 3):
        value = dict(zip(("input", "output", "cached_input"), value, strict=False))
    if (
        not isinstance(value, dict)
        or not {"input", "output"} <= set(value)
        or set(value) - {"input", "output", "cached_input"}
    ):
        raise ValueError(
            f"{where}: expected {{input, output[, cached_input]}} in dollars per million tokens, got {value!r}"
        )
    try:
        return Price(**{k: float(v) for k, v in value.items()})
    except (TypeError, ValueError):
        raise ValueError(f"{where}: prices must be numbers, got {value!r}") from None


def parse_price(spec: str, model: str) -> Price:
    """`--price`: `INPUT,OUTPUT[,CACHED]` (dollars per million tokens) or a JSON/YAML file mapping model names
    to `{input, output, cached_input}` (the model's own entry, else `default`)."""
    path = Path(spec)
    if path.suffix.lower() in (".json", ".yaml", ".yml") or path.is_file():
        try:
            text = path.read_text()
        except OSError as exc:
            raise ValueError(f"--price {spec}: cannot read the price table ({exc.strerror})") from None
        try:
            import yaml

            table = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
        except ValueError as exc:
            raise ValueError(f"--price {spec}: not valid JSON/YAML ({exc})") from None
        if not isinstance(table, dict):
            raise ValueError(f"--price {spec}: expected a mapping of model names to prices")
        entry = table.get(model, table.get("default"))
        if entry is None:
            raise ValueError(
                f"--price {spec}: no entry for model {model!r} (and no 'default'); models listed: {', '.join(map(str, table))}"
            )
        return _price_of(entry, f"--price {spec}: {model}")
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) not in (2, 3):
        raise ValueError(
            f"--price {spec!r}: expected INPUT,OUTPUT[,CACHED] in dollars per million tokens, or a JSON/YAML file"
        )
    return _price_of(parts, f"--price {spec!r}")


@dataclass
class ModelOptions:
    """How a model agent asks its API: endpoint and key, turn and token limits, sampling, retries and timeouts,
    streaming, how much of a tool result it is shown, and the price table for `cost_usd`."""

    base_url: str | None = None
    api_key: str | None = None
    max_turns: int = 50
    max_tokens: int = 4096
    temperature: float | None = None
    seed: int | None = None
    parallel_tool_calls: bool = True
    request_timeout_s: float = 120.0
    max_retries: int = 5
    backoff_s: float = 1.0
    """First retry's wait when the API gives no Retry-After; doubles each retry (with jitter), at most `max_backoff_s`."""
    max_backoff_s: float = 60.0
    stream: bool = False
    max_result_chars: int = 20_000
    """A tool result longer than this is cut, with a marker saying how much was left out."""
    price: Price | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class EndpointGate:
    """At most `limit` requests in flight to one endpoint, across all the episodes of a run."""

    def __init__(self, limit: int = 4) -> None:
        self.limit = max(1, limit)
        self._semaphore: anyio.Semaphore | None = None
        self.in_flight = 0
        self.peak = 0

    async def __aenter__(self) -> None:
        if self._semaphore is None:  # made in the event loop that uses it
            self._semaphore = anyio.Semaphore(self.limit)
        await self._semaphore.acquire()
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    async def __aexit__(self, *exc: object) -> None:
        self.in_flight -= 1
        assert self._semaphore is not None
        self._semaphore.release()
