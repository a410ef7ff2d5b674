"""A time given as the reason for a move is said of something else, not a competing time for the moved meeting."""

from __future__ import annotations

from datetime import date

import pytest

from orchestrator.scenario.text.times import find_times

TODAY = date(2026, 5, 8)


def stated(text: str) -> list[str]:
    return [m.text for m in find_times(text, TODAY) if not m.set_aside and not m.range_end]


@pytest.mark.parametrize(
    "text",
    [
        "the Postmortem review now takes Monday 11 May 10:00-11:30, so I've moved our walkthrough to Monday 11 May, "
        "15:00-15:30.",
        "The board call landed on 10:00, which is why we moved the walkthrough to 15:00.",
        "I moved the walkthrough to 15:00 because the review now takes 10:00-11:30.",
        "Moved our walkthrough to 15:00 since the review took the 10:00 slot.",
    ],
)
def test_the_reason_for_a_move_states_no_time_of_the_moved_meeting(text: str) -> None:
    assert stated(text) == ["15:00"]


@pytest.mark.parametrize(
    "text",
    [
        "Options: 10:00 or 15:00, so pick one and I'll book it.",  # no move: both stay
        "The walkthrough is at 10:00, and the review at 15:00.",
    ],
)
def test_times_with_no_move_after_them_still_compete(text: str) -> None:
    assert len(stated(text)) == 2


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("now runs from three to half past three in the afternoon", "15:00", "15:30"),
        ("we meet from nine until a quarter to ten in the morning", "09:00", "09:45"),
        ("between two and half past two pm", "14:00", "14:30"),
    ],
)
def test_a_range_in_words_states_its_start_as_well_as_its_end(text: str, start: str, end: str) -> None:
    found = find_times(text, TODAY)
    starts = [m for m in found if not m.range_end and not m.set_aside]
    ends = [m for m in found if m.range_end]
    assert [t.strftime("%H:%M") for m in starts for t in m.times] == [start]
    assert [t.strftime("%H:%M") for m in ends for t in m.times] == [end]


def test_a_number_word_before_a_dash_is_no_range_start() -> None:
    assert [m.text for m in find_times("Table for two - half past seven", TODAY)] == ["half past seven"]
