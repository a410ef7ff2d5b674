"""A time with its zone, then another bare time offered against it ("12:00-12:30 New York time or 13:00"), states
neither, in the message as a whole and in what it tells each recipient; a second time with its own zone ("9am PT or
12pm ET") is the same time converted, and stays stated."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from orchestrator.scenario.text.addressed import addressed_to
from orchestrator.scenario.text.claims import asserted
from orchestrator.scenario.text.operators import operator_holds

NY = ZoneInfo("America/New_York")
NOW = datetime(2026, 8, 14, 9, tzinfo=NY)
WANT = "2026-08-17T12:00:00-04:00"

OFFERED = [
    "I've moved the review to Monday 17 August, 12:00-12:30 New York time or 13:00.",
    "Moved to Monday 17 August at 12:00 ET or maybe 1pm.",
    "The review is now Monday 17 August, noon... sorry, 12:00 EDT or 13:30, whichever suits.",
]
STATED = [
    "I've moved the review to Monday 17 August, 12:00-12:30 New York time.",
    "Moved to Monday 17 August at 9am PT or 12pm ET, whichever clock you read.",
    "Moved to Monday 17 August, 12:00 New York time or 18:00 in Berlin.",
]


@pytest.mark.parametrize("text", OFFERED)
def test_a_time_offered_against_another_is_not_stated(text: str) -> None:
    assert asserted(text, "time") != text
    assert not operator_holds("mentions_time", text, WANT, {"claimed": True}, "America/New_York", NOW)


@pytest.mark.parametrize("text", STATED)
def test_a_time_converted_with_its_own_zone_stays_stated(text: str) -> None:
    assert operator_holds("mentions_time", text, WANT, {"claimed": True}, "America/New_York", NOW)


def test_a_recipient_is_told_no_time_of_their_zone_that_the_text_offers_against_another() -> None:
    text = "Moved to Monday 17 August, 12:00-12:30 New York time or 13:00 (10:00 in Denver)."
    others = {"Theo Park": "America/Denver"}
    told = addressed_to(text, "America/New_York", "Ricky Cole", others)
    assert not operator_holds("mentions_time", told, WANT, {"claimed": True}, "America/New_York", NOW)
    plain = text.replace(" or 13:00", "")
    told = addressed_to(plain, "America/New_York", "Ricky Cole", others)
    assert operator_holds("mentions_time", told, WANT, {"claimed": True}, "America/New_York", NOW)
