"""A zone declared for the times of a text by its abbreviation ("All times are local (CEST)", "All times CET",
"All times below are in IST:"), read like a declared place ("all times Berlin time"); and the date a time takes when
one is written right before it ("miércoles 22 de abril a las 10:00 — el jueves no le iba")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/London", now=datetime(2026, 4, 1, 8, tzinfo=UTC))


@pytest.mark.parametrize(
    ("declared", "at"),
    [
        ("All times are local (CEST), one hour ahead of London.", "2026-04-21T08:30:00+02:00"),
        ("All times CEST.", "2026-04-21T08:30:00+02:00"),
        ("All times below are in IST:", "2026-04-21T08:30:00+05:30"),
        ("All times are local — EDT.", "2026-04-21T08:30:00-04:00"),
        ("All times Tokyo time.", "2026-04-21T08:30:00+09:00"),
    ],
)
def test_a_declared_zone_is_the_zone_of_the_times_without_one(declared: str, at: str) -> None:
    text = f"Roadshow plan. {declared}\n\nTuesday 21 April\n08:30 | Breakfast | Paradeplatz\n11:00 | Pictet | Bahnhofstrasse"
    assert holds(text, {"mentions_time": {"at": at, "claimed": True}}, CTX)
    assert not holds(text, {"mentions_time": {"at": "2026-04-21T08:30:00+01:00", "claimed": True}}, CTX)


@pytest.mark.parametrize(
    "text",
    [
        "Quedamos el miércoles 22 de abril a las 10:00 — el jueves no le iba a Rafael.",
        "On se voit mercredi 22 avril à 10:00 — jeudi ne convenait pas.",
        "Let's do Wednesday 22 April at 10:00 BST - Thursday 23 April was full.",
        "Wir treffen uns am Mittwoch, 22. April um 10:00 – Donnerstag passte Rafael nicht.",
    ],
)
def test_a_time_takes_the_date_written_right_before_it(text: str) -> None:
    assert holds(text, {"mentions_time": {"at": "2026-04-22T10:00:00+01:00", "claimed": True}}, CTX)


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("The demo is next Tuesday (the 21st) at 3pm — Monday's a bank holiday.", "2026-04-21T15:00:00+01:00"),
        (
            "Booked the dinner on Tue 21 Apr for six of us. 19:30, they need numbers by Friday.",
            "2026-04-21T19:30:00+01:00",
        ),
        ("Kickoff call 10:00 on Tuesday 21 April; slides due Friday 17 April.", "2026-04-21T10:00:00+01:00"),
        (
            "Welcome!\n\n- Date: Tuesday 21 April (Monday the 20th is a holiday)\n- Arrive: 9:00 am\n",
            "2026-04-21T09:00:00+01:00",
        ),
    ],
)
def test_a_time_takes_the_day_it_belongs_to_in_its_sentence_or_before_it(text: str, at: str) -> None:
    assert holds(text, {"mentions_time": {"at": at, "claimed": True}}, CTX)


@pytest.mark.parametrize("dash", [" — ", " – ", " - ", " to "])
def test_a_time_in_another_zone_after_a_dash_is_a_conversion_not_a_range_end(dash: str) -> None:
    text = f"Planning call: Wednesday 22 April, 11:00 Berlin{dash}12:00 in Kyiv, 13:00 in Tbilisi."
    people = {"mentions_time": {"at": "2026-04-22T11:00:00+02:00", "claimed": True}}
    assert holds(text, people, CTX)
    slot = {"mentions_time": {"at": "2026-04-22T11:00:00+02:00", "end": "2026-04-22T12:00:00+02:00", "claimed": True}}
    assert not holds(text, slot, CTX)  # 12:00 in Kyiv is 11:00 in Berlin: no end is given
    assert holds("Wednesday 22 April, 11:00 – 12:00 CEST.", slot, CTX)
