"""A run sets the garbage collector for many short-lived objects and sets it back afterwards, also when nested (a
suite's scenarios) and when the run fails."""

from __future__ import annotations

import gc

import pytest

from orchestrator.episode.collector import RUN_GC_THRESHOLD, collector_for_episodes


def test_the_collector_is_set_for_a_run_and_set_back_after_it() -> None:
    before = gc.get_threshold()
    with collector_for_episodes():
        assert gc.get_threshold()[0] == RUN_GC_THRESHOLD and gc.get_freeze_count() > 0
        with collector_for_episodes():  # a scenario's run inside a suite's
            assert gc.get_threshold()[0] == RUN_GC_THRESHOLD
        assert gc.get_threshold()[0] == RUN_GC_THRESHOLD  # the inner run's end leaves the suite's setting
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), collector_for_episodes():
        raise RuntimeError("an episode failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
