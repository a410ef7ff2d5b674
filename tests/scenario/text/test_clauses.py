"""Claims by clause and by kind of fact; dates in their roles; counts and amounts as agents write them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 8, tzinfo=UTC))


def date(day: str, role: str | None = None) -> dict[str, object]:
    spec: dict[str, object] = {"date": day, "claimed": True}
    if role:
        spec["role"] = role
    return {"mentions_date": spec}


def test_a_caveat_about_something_else_leaves_the_date() -> None:
    text = "We fly out Tuesday 3 March and are back on Friday 6 March; flight times are still to be confirmed."
    assert holds(text, date("2026-03-06"), CTX)
    assert holds(text, date("2026-03-03"), CTX)
    assert not holds(text, {"mentions_time": {"at": "2026-03-06T10:00:00+01:00", "claimed": True}}, CTX)
    assert not holds("Back on Friday 6 March, not confirmed yet.", date("2026-03-06"), CTX)


def test_alternatives_of_another_kind_leave_the_fact() -> None:
    assert holds("We fly Tuesday 3 March (morning or afternoon flight, your choice).", date("2026-03-03"), CTX)
    assert holds("We'll be 4 or 5 people on Tuesday 3 March.", date("2026-03-03"), CTX)
    assert not holds("We'll be 4 or 5 people on Tuesday 3 March.", {"mentions_count": {"n": 4, "claimed": True}}, CTX)
    assert not holds("We fly Tuesday 3 March or Wednesday 4 March.", date("2026-03-03"), CTX)


def test_a_code_in_a_hedged_sentence_is_still_named() -> None:
    text = "PRJ-3310: we're aiming for go-live on 14 June, but nothing is final yet."
    assert holds(text, {"mentions_code": {"code": "PRJ-3310", "claimed": True}}, CTX)
    assert not holds(text, date("2026-06-14"), CTX)


@pytest.mark.parametrize(
    ("day", "role", "expected"),
    [
        ("2026-03-03", "holiday", True),
        ("2026-03-03", "travel-out", False),
        ("2026-03-04", "travel-out", True),
        ("2026-03-04", "holiday", False),
    ],
)
def test_a_dates_role_is_read_from_its_clause(day: str, role: str, expected: bool) -> None:
    text = "Sam has a public holiday on Tuesday 3 March, so we fly in on Wednesday 4 March."
    assert holds(text, date(day, role), CTX) is expected


def test_a_date_set_aside_is_not_stated() -> None:
    assert not holds("The review moves from Wednesday 4 March to Thursday 5 March.", date("2026-03-04"), CTX)
    assert holds("The review moves from Wednesday 4 March to Thursday 5 March.", date("2026-03-05"), CTX)
    assert not holds("It was meant to be 4 March but the trainer is ill; now 11 March.", date("2026-03-04"), CTX)
    assert not holds("The 12 March slot is cancelled with the carrier.", date("2026-03-12"), CTX)


def test_a_range_of_days_states_both_ends() -> None:
    assert holds("Offsite: Tue–Fri, 3–6 March.", date("2026-03-06"), CTX)


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("Price: $86.4k/yr", "86400", "USD"),
        ("Solar JV (€12M) approved", "12000000", "EUR"),
        ("NGN 4,850,000", "4850000", "NGN"),
    ],
)
def test_amounts_with_multipliers_and_more_currencies(text: str, value: str, currency: str) -> None:
    assert holds(text, {"mentions_amount": {"value": value, "currency": currency, "claimed": True}}, CTX)


def test_an_amount_set_aside_or_estimated_is_not_claimed() -> None:
    amount = {"mentions_amount": {"value": "94000", "currency": "USD", "claimed": True}}
    assert not holds("Price: $86.4k/yr (down from the $94k list price).", amount, CTX)
    assert not holds("Budget is roughly $94k.", amount, CTX)
    assert holds("Budget is roughly $94k.", {"mentions_amount": {"value": "94000", "currency": "USD"}}, CTX)


@pytest.mark.parametrize(
    "text", ["Cabin booked, four of us, 3 nights.", "Table for 4 at 19:00.", "A party of 4.", "We're 4 now."]
)
def test_counts_of_people_as_agents_write_them(text: str) -> None:
    assert holds(text, {"mentions_count": {"n": 4, "of": "people", "claimed": True}}, CTX)


def test_a_count_contradicted_or_estimated_is_not_claimed() -> None:
    rooms = {"mentions_count": {"n": 5, "of": "rooms", "claimed": True}}
    assert not holds("Booked 5 rooms. Correction: four rooms total.", rooms, CTX)
    assert not holds("About 5 rooms are left.", rooms, CTX)
    assert holds("Booked 5 rooms for the team.", rooms, CTX)


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("Sorry — the correct PNR is K9TWQ4, not K9TWQA.", "K9TWQA", False),
        ("Sorry — the correct PNR is K9TWQ4, not K9TWQA.", "K9TWQ4", True),
        ("Closing HD-4417 — dupe of HD-4410.", "HD-4410", False),
        ("Merged OPS-7710 into OPS-7702. Please track OPS-7702.", "OPS-7710", False),
        ("Merged OPS-7710 into OPS-7702. Please track OPS-7702.", "OPS-7702", True),
    ],
)
def test_a_code_set_aside_is_not_claimed(text: str, code: str, expected: bool) -> None:
    assert holds(text, {"mentions_code": {"code": code, "claimed": True}}, CTX) is expected


def test_people_counted_again_in_other_words_contradict() -> None:
    guests = {"mentions_count": {"n": 14, "of": ["guests", "people"], "claimed": True}}
    assert not holds("Dinner on Thursday for 14 guests. We'll need one long table for the 12 of us.", guests, CTX)
    assert holds("Dinner on Thursday for 14 guests. One long table, please.", guests, CTX)
