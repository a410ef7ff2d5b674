"""The episode's one clock: every app of an episode reads the same time.

The gateway owns it. Each tool call is made at `now` (sent to the app in the
call's `_meta`, so no extra round trip), then the clock moves on by the
call's step (`world.clock`); `world__wait` moves it further, within bounds.
Nothing the agent sends can set it: the gateway builds each call's `_meta`
itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from orchestrator.scenario.worldspec import ClockSteps, WaitSpec


class WaitRefused(ValueError):
    """A wait past the scenario's bounds."""


class Timeline:
    """The episode's one clock: it starts at the scenario's start and moves with tool calls and waits."""

    def __init__(self, start: datetime, steps: ClockSteps | None = None, wait: WaitSpec | None = None) -> None:
        self.start = start
        self.now = start
        self.steps = steps
        self.wait_spec = wait or WaitSpec()
        self.waited = 0.0
        """Seconds spent in `world__wait` so far."""

    def iso(self) -> str:
        return self.now.isoformat(timespec="seconds")

    def step(self, tool: str) -> float:
        """Move on by what `tool` takes; returns the seconds moved."""
        seconds = self.steps.step(tool) if self.steps else 0.0
        if seconds:
            self.now += timedelta(seconds=seconds)
        return seconds

    def move_to(self, when: datetime) -> None:
        """Forward to `when` (never back)."""
        if when > self.now:
            self.now = when

    def wait_bound(self) -> float:
        """The longest the next wait may be, in seconds."""
        return max(0.0, min(self.wait_spec.max, self.wait_spec.total - self.waited))

    def wait(self, seconds: float) -> float:
        """Wait `seconds` (refused past the bounds); returns the seconds waited."""
        if not seconds > 0:
            raise WaitRefused("wait for a positive number of minutes")
        bound = self.wait_bound()
        if bound <= 0:
            raise WaitRefused(
                f"this task allows at most {self.wait_spec.total / 60:g} minutes of waiting in all, all used"
            )
        if seconds > bound + 1e-6:
            raise WaitRefused(f"one wait may last at most {bound / 60:g} minutes here")
        self.waited += seconds
        self.now += timedelta(seconds=seconds)
        return seconds
