"""A suite's episode slots: `--parallel` episodes at once in total, shared by the scenarios in progress.

Each scenario waits for a slot with one episode at a time (`SuiteSlots.share`). A free slot goes to the waiting
scenario whose episodes take longest (`Share.expected_s`): one never started first, then the longest by the time
its episodes held their slots (or, while none has ended, by how long the oldest running one has held it), first
come first served among equals. While another scenario waits, one holds at most `cap` slots, half of them by
default.

Why longest first: a suite ends when its last episode does. A scenario whose episodes wait (a retry-after
honoured, a slow model) and starts its last episodes late ends the suite alone with the cores idle; started first,
its waits overlap the other scenarios' work. Why the cap: waiting episodes use no core, so a scenario holding
every slot would leave the cores idle instead.

May import nothing of `orchestrator`.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

import anyio

RECENT = 5
"""The latest slot holds of a scenario that its expected time is the mean of."""


class Share:
    """One scenario's way to the suite's slots: `acquire` and `release` as an `anyio.Semaphore`'s, for one episode
    each. `on_first` is called when the scenario's first episode gets its slot."""

    def __init__(self, slots: SuiteSlots, on_first: Callable[[], None]) -> None:
        self._slots = slots
        self._on_first: Callable[[], None] | None = on_first
        self._running: deque[float] = deque()  # when each running episode got its slot, oldest first
        self._held: deque[float] = deque(maxlen=RECENT)
        self._granted: anyio.Event | None = None

    @property
    def holding(self) -> int:
        """Slots this scenario holds now."""
        return len(self._running)

    @property
    def started(self) -> bool:
        """Whether one of this scenario's episodes got a slot."""
        return self._on_first is None

    def expected_s(self, now: float) -> float:
        """How long this scenario's episodes are expected to hold a slot: infinite before its first one started."""
        if not self._held and not self._running:
            return math.inf if not self.started else 0.0
        recent = sum(self._held) / len(self._held) if self._held else 0.0
        return max(recent, now - self._running[0] if self._running else 0.0)

    async def acquire(self) -> None:
        """Wait for a slot for one episode of this scenario (one waits at a time)."""
        assert self._granted is None, "one episode of a scenario waits for a slot at a time"
        granted = self._granted = anyio.Event()
        self._slots.queue(self)
        try:
            await granted.wait()
        except BaseException:
            if granted.is_set():  # granted as the wait was cancelled: the slot goes back, no episode having held it
                self._running.pop()
                self._slots.freed()
            else:
                self._slots.unqueue(self)
            raise
        finally:
            self._granted = None
        if self._on_first is not None:
            first, self._on_first = self._on_first, None
            first()

    def release(self) -> None:
        """An episode of this scenario ended: its slot is free."""
        now = time.perf_counter()
        self._held.append(now - self._running.popleft())  # the oldest: close enough for a mean of similar episodes
        self._slots.freed()

    def _grant(self, now: float) -> None:
        assert self._granted is not None
        self._running.append(now)
        self._granted.set()


class SuiteSlots:
    """`size` episode slots shared by a suite's scenarios (see the module docstring); `cap`: most one holds."""

    def __init__(self, size: int, cap: int | None = None) -> None:
        self.size = max(1, size)
        self.cap = max(1, cap if cap is not None else math.ceil(self.size / 2))
        self.free = self.size
        self._waiting: dict[Share, int] = {}
        self._arrivals = 0

    def share(self, on_first: Callable[[], None] = lambda: None) -> Share:
        """A new scenario's share of the slots."""
        return Share(self, on_first)

    def queue(self, share: Share) -> None:
        """`share` waits for a slot (`Share.acquire`): granted now if one is free and it may take it, else later."""
        self._arrivals += 1
        self._waiting[share] = self._arrivals
        self._dispatch()

    def unqueue(self, share: Share) -> None:
        """`share` no longer waits (its wait was cancelled before a slot was granted)."""
        self._waiting.pop(share, None)

    def freed(self) -> None:
        """A slot is free again (`Share.release`, or a grant given back): the next waiting scenario gets it."""
        self.free += 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Give free slots to the waiting scenarios, longest expected first, none above the cap."""
        now = time.perf_counter()
        while self.free and self._waiting:
            # at the cap a scenario waits while another one does; alone, it takes what is free
            eligible = [(s, at) for s, at in self._waiting.items() if s.holding < self.cap] or self._waiting.items()
            share, _ = min(eligible, key=lambda item: (-item[0].expected_s(now), item[1]))
            del self._waiting[share]
            self.free -= 1
            share._grant(now)
