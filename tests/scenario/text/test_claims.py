"""What a text asserts (claims), and the readings built on it: says, mentions_count, mentions_code, same_set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.claims import asserted
from orchestrator.scenario.text.counts import check_count
from orchestrator.scenario.text.phrases import mentions_code, says

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 9, tzinfo=UTC))

STATED = [
    "Confirmed: Thursday, 14 people, let me know if anything changes.",
    "We're all set for Thursday, 14 guests - could you confirm?",
    "Could you book the table for Thursday for 14 people?",
    "I hope this helps: we are 14 on Thursday.",
    "Hope you're well! Dinner is on Thursday for 14.",
    "Update: 14 guests (not 12), and Thursday instead of Wednesday.",
    "Dinner for fourteen on Thursday 5 March.",
]
NOT_STATED = [
    "Hoping for Thursday, but no date yet. Probably 14 people.",
    "Wednesday or Thursday, 12 to 14 people; I'll let you know.",
    "Would Thursday for 14 people work for you?",
    "It might be Thursday with 14 people.",
    "Thursday with 14 people is not confirmed yet.",
    "Tentatively Thursday, 14 people.",
]


@pytest.mark.parametrize("text", STATED)
def test_a_stated_day_and_headcount_are_claims(text: str) -> None:
    fact = {"mentions_date": {"date": "2026-03-05", "claimed": True}, "mentions_count": {"n": 14, "claimed": True}}
    assert holds(text, fact, CTX), asserted(text)


@pytest.mark.parametrize("text", NOT_STATED)
def test_a_hedged_offered_or_asked_fact_is_not_claimed(text: str) -> None:
    fact = {"mentions_date": {"date": "2026-03-05", "claimed": True}, "mentions_count": {"n": 14, "claimed": True}}
    assert not holds(text, fact, CTX), asserted(text)
    unclaimed = {"mentions_count": 14}  # what a text reveals: a hedged figure is still said
    assert holds(text, unclaimed, CTX)


def test_says_matches_words_not_substrings_and_not_what_is_set_aside() -> None:
    assert says("We stay at the Motel-One, near the Factory.", "Motel One")
    assert says("Booked: motel one (Berlin)", "Motel One")
    assert not says("We will stay at Motel Oneida.", "Motel One")
    assert not says("We switched: not Motel One any more, the Hilton instead.", "Motel One")
    assert not says("Booked the Hilton instead of Motel One.", "Motel One")
    assert says("Please e-mail me the export.", "email")


def test_mentions_code_with_only_refuses_a_list_of_every_key() -> None:
    assert mentions_code("Filed as OPS-142.", "OPS-142")
    assert not mentions_code("Filed as OPS-1420.", "OPS-142")
    assert mentions_code("Filed as OPS-142 (see also DOC-3).", "OPS-142", only=True)
    assert not mentions_code("It is one of OPS-140, OPS-141, OPS-142.", "OPS-142", only=True)


def test_counts_in_digits_and_words_not_times_dates_codes_or_money() -> None:
    assert check_count("about thirty-four other companies are hit", 34)[0]
    assert check_count("a dozen people", 12)[0]
    assert not check_count("at 14:00 on 14 March, OPS-14, €14, 14%", 14)[0]
    assert check_count("34 other accounts", 34, ["accounts", "customers"])[0]
    assert not check_count("ships in 34 days", 34, ["accounts", "customers"])[0]


def test_same_set_wants_exactly_the_items() -> None:
    assert holds(["iOS", "bug"], {"same_set": ["bug", "ios"]}, CTX)
    assert not holds(["ios", "android", "web", "bug"], {"same_set": ["bug", "ios"]}, CTX)


def test_decimals_currency_alternatives_dozens_accents_and_weekdays() -> None:
    amount = {"mentions_amount": {"value": 360, "currency": "EUR", "claimed": True}}
    assert holds("Approved: EUR 360.00 for the monitor.", amount, CTX)
    assert not holds("Approved: EUR 360.00 (not confirmed yet).", amount, CTX)
    assert not holds("It is 360.00 EUR or 396.00 EUR.", amount, CTX)
    assert holds("Approved: EUR360.00.", amount, CTX)  # a code glued to its amount
    assert check_count("roughly three dozen other customers", 37, ["customers"], approx=0.25)[0]
    assert not check_count("in 3 other days", 3, ["others"])[0]
    assert holds("We meet at 12:00 your time (São Paulo).", {"mentions_time": "2026-03-05T10:00:00-05:00"}, CTX)
    fix_date = {"mentions_date": {"date": "2026-04-08", "strict": True}}
    assert holds("The fix is in the 8 April release (a Wednesday).", fix_date, CTX)
    assert not holds("The fix ships 8 April, or Thursday.", fix_date, CTX)


def test_your_time_is_read_in_the_recipients_zone() -> None:
    from orchestrator.verify.told import _text

    text = _text(
        {"subject": "New time", "body": "Hi Mitali, we're now on Fri 1 May at 09:00 your time (IST)."}, "Asia/Kolkata"
    )
    assert holds(text, {"mentions_time": "2026-05-01T13:30:00+10:00"}, CTX)
    assert not holds(text, {"mentions_time": "2026-05-01T09:00:00+10:00"}, CTX)


def test_a_time_that_did_not_work_and_the_end_of_a_range_are_no_conflict() -> None:
    nine_am_ny = {"mentions_time": "2026-03-05T10:00:00-05:00"}
    said = "Booked: Thu 5 March. Your 12:45 didn't work for everyone, so I picked 15:00-15:45 UTC (10:00 am New York)."
    assert holds(said, nine_am_ny, CTX)
    assert holds("Thursday 5 March at 10am EST (until 11am).", nine_am_ny, CTX)
    assert not holds("Thursday 5 March at 10am EST, or 11am.", nine_am_ny, CTX)


def test_a_list_line_is_no_range_end() -> None:
    timeline = (
        "# Postmortem: errors (22 March)\n\n## Timeline (Europe/Lisbon)\n- 09:48 errors start\n"
        "- 10:00 cause found: connection pool cut from 50 to 5\n- 10:13 resolved\n"
    )
    lisbon = Context({}, {}, timezone="Europe/Lisbon", now=datetime(2026, 3, 23, 9, tzinfo=UTC))
    assert holds(timeline, {"mentions_time": {"at": "2026-03-22T10:13:00+00:00", "strict": False}}, lisbon)


def test_the_numbers_of_a_street_are_no_alternatives() -> None:
    """A house-number range in an address ("Herrmannallee 1-9") states the address; "12 to 14 people" still offers two."""
    from orchestrator.scenario.text.claims import claim_notes

    assert claim_notes("- Thursday 13 August: offsite at Stiffel Forum, Herrmannallee 1-9, Berlin") == []
    assert claim_notes("We expect 12 to 14 people.") == ["We expect 12 to 14 people."]


def test_names_that_look_like_hedges_or_ranges_are_stated() -> None:
    """A venue named Hope, a street number range after a hyphenated street name: stated, as written; a hedge
    word capitalized to pass as a name, next to a day or a number, still hedges."""
    from orchestrator.scenario.text.claims import asserted

    stated = [
        "- Tuesday 29 September: offsite at Hope Forum, Flat 1, Evans Tunnel, London\n",
        "- Wednesday 1 July: offsite at Jacobi Jäckel Forum, Ursula-Schmidtke-Weg 96-85, Berlin\n",
        "Dinner with Bob Hope on Friday.",
    ]
    for text in stated:
        assert asserted(text) == text, text
    for text in ("We meet, Maybe Thursday.", "Meet on Thursday, Maybe 3 people.", "Hope to see you Thursday."):
        assert asserted(text).strip() == "", text
