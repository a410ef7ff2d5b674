"""Fault injection: make chosen tool calls fail like production services do, reproducibly.

A plan is a list of rules. A rule picks calls of one tool (or `*` for every
tool) either by their number (`calls: [1, 3]`, counting from 1 per tool) or
by a probability drawn from the episode seed; the first rule that hits a call
decides what happens to it. The same seed and the same calls draw the same
faults. The kinds:

- `error`: the call fails before the tool runs (nothing changes).
- `latency`: the call waits `latency_ms`, then runs normally.
- `timeout`: the call hangs for `latency_ms` (by default past the gateway's
  per-call deadline, `limits.call_deadline_s`) and then fails. The tool never
  runs: a timed-out call changes nothing, although the agent is told, as in
  production, that it cannot know whether it did.
- `rate_limit`: the call fails with an HTTP 429 naming when to retry
  (`retry_after_s`); every call the rule covers fails the same way until then.
- `unavailable`: the app goes down for `duration_s`: this call and every call
  to the app until then fail with an HTTP 503.
- `lost_reply`: the tool runs and its change is committed, but the agent gets
  an error instead of the result (the cause of duplicate side effects).
- `stale_read`: a read-only call sees the state as it was `delay_s` ago: rows
  other calls inserted, changed or deleted since then show their old values.
  Write tools are never hit by it.

Windows (`retry_after_s`, `duration_s`, `delay_s`) are seconds of sandbox
time; a window is over once that much sandbox time has passed or, as a frozen
clock never moves, that many seconds of real time. The state of open windows
lives in the sandbox (`FaultState`).
"""

from __future__ import annotations

import hashlib
import math
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FaultKind = Literal["error", "latency", "timeout", "rate_limit", "unavailable", "lost_reply", "stale_read"]
KINDS: tuple[str, ...] = FaultKind.__args__  # type: ignore[attr-defined]  # a Literal's names, read at run time

DEFAULT_TIMEOUT_HANG_MS = 2_000
"""How long a `timeout` fault hangs when neither the rule nor the scenario says (the scenario sets it past its deadline)."""

MESSAGES: dict[str, str] = {
    "error": "The service is temporarily unavailable (HTTP 503). Please retry.",
    "timeout": "The request timed out before the service answered; it may or may not have been applied.",
    "rate_limit": "Rate limit exceeded (HTTP 429 Too Many Requests). Retry after {retry_after} seconds (at {until}).",
    "unavailable": "The service is down for maintenance (HTTP 503 Service Unavailable). Retry after {retry_after} seconds (at {until}).",
    "lost_reply": "The connection was reset before the reply arrived (HTTP 502 Bad Gateway); the request may have been applied.",
}
"""What the agent reads for each kind, unless the rule gives its own `message` ({retry_after} and {until} are filled in)."""


class FaultRule(BaseModel):
    """One fault to inject: which tool and calls, what kind (error, latency, timeout …) and what the agent reads."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field("*", description="Tool name, or '*' for every tool.")
    kind: FaultKind = "error"
    calls: list[int] | None = Field(None, description="Which calls of the tool to hit, counting from 1.")
    probability: float = Field(0.0, ge=0.0, le=1.0, description="Chance of hitting a call when `calls` is not set.")
    message: str = Field(
        MESSAGES["error"], description="What the agent reads (kinds other than error have their own default)."
    )
    latency_ms: int = Field(
        0, ge=0, le=60_000, description="latency: the added wait; timeout: how long the call hangs."
    )
    retry_after_s: float = Field(2.0, gt=0, le=3600, description="rate_limit: seconds until calls are accepted again.")
    duration_s: float = Field(3.0, gt=0, le=3600, description="unavailable: seconds the app stays down.")
    delay_s: float = Field(5.0, gt=0, le=3600, description="stale_read: how old the state a hit read sees is.")
    salt: str | None = Field(
        None, max_length=200, description="Mixed into probability draws, so two plans with the same rules draw apart."
    )

    @model_validator(mode="after")
    def _says_which_calls(self) -> FaultRule:
        if self.calls is None and self.probability == 0.0:
            raise ValueError("a fault rule needs `calls` (call numbers) or a `probability` above 0")
        if self.calls is not None and any(n < 1 for n in self.calls):
            raise ValueError("call numbers in `calls` count from 1")
        if self.kind != "error" and "message" not in self.model_fields_set and self.kind in MESSAGES:
            self.message = MESSAGES[self.kind]
        return self

    def hang_s(self) -> float:
        """How long a `timeout` hangs, in seconds."""
        return (self.latency_ms or DEFAULT_TIMEOUT_HANG_MS) / 1000


class FaultPlan(BaseModel):
    """The faults a sandbox injects into its tool calls, drawn deterministically from the episode's seed."""

    model_config = ConfigDict(extra="forbid")

    rules: list[FaultRule] = Field(default_factory=list)

    def draw(self, tool: str, call_number: int, rng_seed: int, *, read_only: bool = True) -> FaultRule | None:
        """The first rule that hits call `call_number` of `tool`, if any (`stale_read` only hits read-only tools)."""
        return self.draw_indexed(tool, call_number, rng_seed, read_only=read_only)[1]

    def draw_indexed(
        self, tool: str, call_number: int, rng_seed: int, *, read_only: bool = True
    ) -> tuple[int, FaultRule | None]:
        for index, rule in enumerate(self.rules):
            if rule.tool not in ("*", tool) or (rule.kind == "stale_read" and not read_only):
                continue
            if rule.calls is not None:
                if call_number in rule.calls:
                    return index, rule
            elif _uniform(rng_seed, index, tool, call_number, *([rule.salt] if rule.salt else [])) < rule.probability:
                return index, rule
        return -1, None


def _uniform(*parts: object) -> float:
    digest = hashlib.blake2s("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


class Window(BaseModel):
    """A stretch that ends after `seconds` of sandbox time or of real time, whichever passes first."""

    clock: datetime
    wall: float
    seconds: float

    def until(self) -> datetime:
        return self.clock + timedelta(seconds=self.seconds)

    def left(self, clock: datetime, wall: float) -> float:
        """Seconds until the window is over (0 when it is)."""
        return max(0.0, min(self.seconds - (clock - self.clock).total_seconds(), self.seconds - (wall - self.wall)))


class FaultState(BaseModel):
    """Open windows of one sandbox: rate limits by rule index, and the app's downtime."""

    rate_limits: dict[int, Window] = Field(default_factory=dict)
    down: Window | None = None

    def open_rate_limit(self, plan: FaultPlan, tool: str, clock: datetime, wall: float) -> tuple[int, Window] | None:
        for index, window in self.rate_limits.items():
            if index < len(plan.rules) and plan.rules[index].tool in ("*", tool) and window.left(clock, wall) > 0:
                return index, window
        return None


def message_for(rule: FaultRule, window: Window | None, clock: datetime, wall: float) -> str:
    """The agent-visible text of a fault, with the time left in its window filled in."""
    if window is None:
        return rule.message
    left = window.left(clock, wall)
    try:
        # Rounded up to a tenth: waiting as long as the message says is always enough.
        return rule.message.format(
            retry_after=f"{max(math.ceil(left * 10 - 1e-6) / 10, 0.1):g}",
            until=window.until().isoformat(timespec="seconds"),
        )
    except (KeyError, IndexError, ValueError):
        return rule.message


def record(rule: FaultRule, **details: Any) -> dict[str, Any]:
    """The journal's `fault` column for a call the rule hit: the rule and what happened (`message` as shown)."""
    return rule.model_dump(mode="json") | details
