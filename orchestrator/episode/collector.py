"""The cyclic garbage collector set for work that plays many episodes in one process (a run, a suite, a prover).

May import nothing of the orchestrator.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

RUN_GC_THRESHOLD = 10_000
"""Allocations between the collector's young-generation passes while a run goes on (Python's default is 700)."""

_collector_depth = 0


@contextlib.contextmanager
def collector_for_episodes() -> Iterator[None]:
    """The cyclic garbage collector set for a run of many episodes, and set back after it: what was made before the
    run (modules, loaded scenarios, built apps) is frozen out of its passes, and its young generation is collected
    every `RUN_GC_THRESHOLD` allocations instead of every 700. An episode makes and drops many short-lived objects
    (tool results, rows, trace entries); at the default the collector ran about 35 times per episode and took about
    a tenth of an in-process episode's CPU. Nested runs (a suite's scenarios) share the outermost one's setting."""
    global _collector_depth
    _collector_depth += 1
    if _collector_depth > 1:
        try:
            yield
        finally:
            _collector_depth -= 1
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(RUN_GC_THRESHOLD, thresholds[1], thresholds[2])
    try:
        yield
    finally:
        _collector_depth -= 1
        gc.set_threshold(*thresholds)
        gc.unfreeze()
