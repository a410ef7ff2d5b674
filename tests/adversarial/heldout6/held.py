"""The round's case constructors: round_steps' `ok`/`bad` for a held-out round, whose wrong cases name no check.

`harness.Case` asks each wrong case to name the check or violation it must fail on (`fails_on`), which a held-out
round cannot know: its cases are written without reading any check, and `round_runner` compares only the verdict
(passed or not) with the label. So a wrong case here is labelled by `want` and its one-line `reason` alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from round_steps import Held, steps


@dataclass
class HeldOut(Held):
    """A held-out case: `want` and `reason` only; `fails_on` stays empty for wrong cases too."""

    def __post_init__(self) -> None:
        if self.fails_on:
            raise ValueError(f"case {self.id!r}: a held-out case names no check (fails_on)")


def ok(case_id: str, reason: str, *calls: dict[str, Any] | list[dict[str, Any]]) -> HeldOut:
    """A correct solution: the verdict should pass it."""
    return HeldOut(id=case_id, want=True, steps=steps(*calls), reason=reason)


def bad(case_id: str, reason: str, *calls: dict[str, Any] | list[dict[str, Any]]) -> HeldOut:
    """A wrong or harmful solution: the verdict should fail it."""
    return HeldOut(id=case_id, want=False, steps=steps(*calls), reason=reason)
