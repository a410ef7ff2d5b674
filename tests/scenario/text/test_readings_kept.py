"""Readings of a text are kept per text (`clean.per_text`): the same mail read by many checks is parsed once, and
what a caller does with a reading never changes the next one."""

from __future__ import annotations

from datetime import UTC, datetime

from orchestrator.scenario.text import clean
from orchestrator.scenario.text.instants import check_time, read_dates
from orchestrator.scenario.text.phrases import says

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_a_reading_changed_by_its_caller_is_read_again_unchanged() -> None:
    text = "We meet on 5 March or 6 March at 15:30."
    first = read_dates(text, "UTC", NOW)
    first[0].append("not a date")  # a caller that edits what it got back
    first.clear()
    assert [len(d) for d in read_dates(text, "UTC", NOW)] == [1, 1]


def test_a_long_text_is_read_each_time_and_the_same_as_a_short_one() -> None:
    filler = "Nothing to see here. " * (clean.CACHED_TEXT // 20)
    for text in (f"Booked Motel One for Thursday 5 March at 15:30. {filler}", "Booked Motel One, 5 March 15:30."):
        for _ in range(2):
            assert says(text, "Motel One") and not says("not Motel One", "Motel One")
            assert check_time(text, datetime(2026, 3, 5, 15, 30, tzinfo=UTC), "UTC", NOW).holds
