"""Fault injection: make chosen tool calls fail or slow down, reproducibly.

A plan is a list of rules. A rule picks calls of one tool (or `*` for every
tool) either by their number (`calls: [1, 3]`, counting from 1 per tool) or
by a probability drawn from the episode seed, and turns them into an error
result or adds latency. The same seed and the same calls draw the same
faults.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class FaultRule(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tool: str = Field("*", description="Tool name, or '*' for every tool.")
    kind: Literal["error", "latency"] = "error"
    calls: list[int] | None = Field(None, description="Which calls of the tool to hit, counting from 1.")
    probability: float = Field(0.0, ge=0.0, le=1.0, description="Chance of hitting a call when `calls` is not set.")
    message: str = "The service is temporarily unavailable (HTTP 503). Please retry."
    latency_ms: int = Field(0, ge=0, le=60_000)

    @model_validator(mode="after")
    def _says_which_calls(self) -> FaultRule:
        if self.calls is None and self.probability == 0.0:
            raise ValueError("a fault rule needs `calls` (call numbers) or a `probability` above 0")
        if self.calls is not None and any(n < 1 for n in self.calls):
            raise ValueError("call numbers in `calls` count from 1")
        return self


class FaultPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: list[FaultRule] = Field(default_factory=list)

    def draw(self, tool: str, call_number: int, rng_seed: int) -> FaultRule | None:
        """The first rule that hits call `call_number` of `tool`, if any."""
        for index, rule in enumerate(self.rules):
            if rule.tool not in ("*", tool):
                continue
            if rule.calls is not None:
                if call_number in rule.calls:
                    return rule
            elif _uniform(rng_seed, index, tool, call_number) < rule.probability:
                return rule
        return None


def _uniform(*parts: object) -> float:
    digest = hashlib.blake2s("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64
