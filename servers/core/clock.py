"""The simulated clock each sandbox carries.

Apps never read the host clock: every timestamp they write comes from the
sandbox's `Clock`, so an episode replays identically whatever day it runs.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Literal, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AwareDatetime, BaseModel, ConfigDict

DEFAULT_START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class ClockSpec(BaseModel):
    """Where a sandbox's clock starts and whether it moves on its own."""

    model_config = ConfigDict(extra="forbid")

    start: AwareDatetime = DEFAULT_START
    mode: Literal["frozen", "running"] = "frozen"


class Clock:
    """A clock that starts at `spec.start` and is either frozen or running.

    A running clock advances with the host's wall time since it was last
    anchored; `advance` and `set` move either kind (world events, tests).
    """

    def __init__(self, spec: ClockSpec, *, offset: float = 0.0, anchor: float | None = None) -> None:
        self.spec = spec
        self.offset = offset
        self.anchor = time.time() if anchor is None else anchor

    def now(self) -> datetime:
        elapsed = self.offset
        if self.spec.mode == "running":
            elapsed += time.time() - self.anchor
        return self.spec.start + timedelta(seconds=elapsed)

    def restart(self) -> None:
        self.offset = 0.0
        self.anchor = time.time()

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def set(self, when: datetime) -> None:
        self.offset += (when - self.now()).total_seconds()

    def state(self) -> dict[str, object]:
        return {"spec": self.spec.model_dump(mode="json"), "offset": self.offset, "anchor": self.anchor}

    @classmethod
    def from_state(cls, state: dict[str, object]) -> Clock:
        offset, anchor = cast(float, state["offset"]), cast(float, state["anchor"])  # numbers, as `state` wrote them
        return cls(ClockSpec.model_validate(state["spec"]), offset=float(offset), anchor=float(anchor))


def isoformat(when: datetime) -> str:
    """The one timestamp format the apps write: ISO 8601, seconds, with offset."""
    return when.isoformat(timespec="seconds")


def zone(name: str) -> ZoneInfo:
    """An IANA time zone, or a `ToolError`-friendly `ValueError` naming the bad value."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # OSError: a folder of the tz database ('America') or a name too long for a file name.
        shown = name if len(name) <= 80 else name[:80] + "…"
        raise ValueError(f"unknown time zone {shown!r}; use an IANA name such as 'Europe/Berlin' or 'UTC'") from None


def localize(when: datetime, tz: str) -> datetime:
    """`when` in zone `tz`: a naive time is read as local to `tz`, an aware one is converted."""
    if when.tzinfo is None:
        return when.replace(tzinfo=zone(tz))
    return when.astimezone(zone(tz))


def parse_instant(text: str, tz: str = "UTC") -> datetime:
    """An ISO 8601 date or date-time as an aware datetime (a date is midnight in `tz`)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 date or date-time (for example 2026-03-10T14:00)") from None
    return localize(when, tz)
