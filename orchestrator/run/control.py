"""What stops a run: its errors (`ErrorWatch`: fail-fast, `--fail-on-error`), a signal (`watch_signals`), and the
`Interrupt` every running episode's agent listens to.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import anyio

from orchestrator.record import is_errored
from orchestrator.verify.results import Result

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

FAIL_FAST_WAVE = 3
"""Fail-fast judges at most this many first episodes (fewer when fewer run at once: the first wave)."""


@dataclass
class ErrorWatch:
    """Decides when a run stops for its errors, episode by episode as they end (`observe`), one for a whole suite.

    Fail-fast (`fail_fast`): the first episodes to end, as many as run at once (`wave`, at most `FAIL_FAST_WAVE`),
    all errored (`error`, `agent_error`) for the same reason, and more are planned: an unreachable model endpoint or
    an agent command that does not exist would fail every other episode the same way. `fail_on_error`: N (1 or more)
    errored episodes, or a share (below 1) of the `planned` ones. Episodes the run itself stopped (`interrupted`)
    do not count."""

    planned: int
    wave: int = 1
    fail_fast: bool = True
    fail_on_error: float | None = None
    errored: int = 0
    first: list[str | None] = field(default_factory=list)
    """The first episodes' errored reasons (None: scored), up to the wave's size."""

    def observe(self, result: Result) -> str | None:
        """Count an episode that ended; why the run should stop now, or None."""
        if result.status == "interrupted":
            return None
        errored = is_errored(result.status)
        reason = f"{result.status}: {result.error}" if errored else None
        self.errored += errored
        if errored and self.fail_on_error is not None:
            limit = self.fail_on_error if self.fail_on_error >= 1 else self.fail_on_error * self.planned
            if self.errored >= limit:
                return (
                    f"--fail-on-error {self.fail_on_error:g}: {self.errored} of {self.planned} episodes errored "
                    f"(the last {reason})"
                )
        size = max(1, min(self.wave, FAIL_FAST_WAVE, self.planned))
        if not self.fail_fast or len(self.first) >= size:
            return None
        self.first.append(reason)
        if len(self.first) == size < self.planned and reason and all(r == reason for r in self.first):
            many = f"the first {size} episodes all" if size > 1 else "the first episode"
            return f"fail-fast: {many} errored ({reason}); the rest were not run (--no-fail-fast runs them all)"
        return None

    def stop_if_due(self, result: Result, interrupt: Interrupt, notify: Callable[[str], None]) -> None:
        """`observe` an episode that ended, and stop the run through `interrupt` when it says to (once)."""
        if (why := self.observe(result)) and not interrupt.reason:
            notify(f"stopping: {why}")
            interrupt.stop(why)


class Interrupt:
    """Stops the agents of running episodes when the run is stopped, by a signal (`watch_signals`) or by its errors
    (`ErrorWatch`); they are then verified and recorded, and episodes not yet started are recorded `interrupted`."""

    def __init__(self) -> None:
        self.reason: str | None = None
        """What stopped the run: the signal's name, or a sentence (fail-fast, --fail-on-error); the first one kept."""
        self.signal: str | None = None
        """The signal that stopped the run (`SIGINT`, `SIGTERM`), when one did."""
        self._scopes: set[anyio.CancelScope] = set()

    def stop(self, reason: str, *, signal: str | None = None) -> None:
        """Stop every running agent and every episode not yet started, for `reason` (a `signal`'s name, or not)."""
        self.reason = self.reason or reason
        self.signal = self.signal or signal
        for scope in list(self._scopes):
            scope.cancel()

    @property
    def stopped(self) -> str | None:
        """Why the run stopped other than by a signal, if it did."""
        return self.reason if self.reason != self.signal else None

    @property
    def cause(self) -> str | None:
        """What stopped the run, in a word or two: the signal, `fail-fast` or `--fail-on-error N`."""
        return self.reason.split(":", 1)[0] if self.reason else None

    @contextlib.contextmanager
    def guard(self) -> Iterator[anyio.CancelScope]:
        """A scope cancelled by `stop` (at once when the run is already interrupted)."""
        scope = anyio.CancelScope()
        if self.reason:
            scope.cancel()
        self._scopes.add(scope)
        try:
            with scope:
                yield scope
        finally:
            self._scopes.discard(scope)


async def watch_signals(
    interrupt: Interrupt, hard_stop: anyio.CancelScope, notify: Callable[[str], None] = lambda _: None
) -> None:
    """SIGINT/SIGTERM: the first stops the agents (episodes are then verified and written), a second one
    stops everything. Handlers are installed whatever disposition the process inherited (even SIG_IGN)."""
    with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
        async for received in signals:
            name = signal.Signals(received).name
            if interrupt.signal is None:
                notify(f"{name}: stopping the agent, then verifying and writing results (again to stop at once)")
                interrupt.stop(name, signal=name)
            else:
                notify(f"{name}: stopping now")
                hard_stop.cancel()
                return
