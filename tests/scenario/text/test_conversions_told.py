"""What a message tells each recipient about a time it converts into their zone: a conversion that falls on another
day there is that day ("Friday 18 September, 08:00 Auckland (16:00 in New York)" is Thursday in New York), and a
hedge or undercut of a clause governs the conversions in brackets inside it ("I'm proposing ... (15:30 for you,
Rohan) - not confirmed yet" tells Rohan no time)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.claims import asserted
from orchestrator.scenario.text.times import find_times
from orchestrator.verify.told import _text

CTX = Context({}, {}, timezone="Europe/London", now=datetime(2026, 8, 1, 8, tzinfo=UTC))


def tells(body: str, name: str, people: dict[str, str], at: str) -> bool:
    others = {n: z for n, z in people.items() if n != name}
    said = _text({"subject": "New time", "body": body}, people[name], name, others)
    return holds(said, {"mentions_time": {"at": at, "claimed": True}}, CTX)


# (the time as written, its conversion right and wrong, the instant, the zones of the two people)
CROSSING = [
    (  # Auckland to New York: the evening before
        "Friday 18 September, 08:00-08:30 Auckland time",
        (" (16:00 in New York)", " (17:00 in New York)"),
        "2026-09-18T08:00:00+12:00",
        ("Pacific/Auckland", "America/New_York"),
    ),
    (  # Tokyo to Los Angeles: the evening before
        "Wednesday 4 November at 10:00 Tokyo time",
        (" / 17:00 Los Angeles", " / 18:00 Los Angeles"),
        "2026-11-04T10:00:00+09:00",
        ("Asia/Tokyo", "America/Los_Angeles"),
    ),
    (  # Los Angeles to Tokyo: the morning after
        "Tuesday 3 November, 5pm PT",
        (" (10am JST)", " (11am JST)"),
        "2026-11-04T10:00:00+09:00",
        ("America/Los_Angeles", "Asia/Tokyo"),
    ),
    (  # Sydney to London: the night before
        "Monday 5 October, 09:00 Sydney",
        (", which is 23:00 London", ", which is 22:00 London"),
        "2026-10-05T09:00:00+11:00",
        ("Australia/Sydney", "Europe/London"),
    ),
    (  # London to Sydney: the morning after
        "Sunday 4 October at 23:00 London time",
        (" — 09:00 in Sydney", " — 10:00 in Sydney"),
        "2026-10-05T09:00:00+11:00",
        ("Europe/London", "Australia/Sydney"),
    ),
]


@pytest.mark.parametrize(("written", "conversions", "at", "zones"), CROSSING)
def test_a_conversion_that_falls_on_another_day_is_that_day_for_its_recipient(
    written: str, conversions: tuple[str, str], at: str, zones: tuple[str, str]
) -> None:
    right, wrong = conversions
    people = {"Aroha Ngata": zones[0], "Dana Cole": zones[1], "Maya Roth": zones[1]}
    for opening in ("Hi all,\n\n", "Hi Aroha, Dana and Maya,\n\n"):
        body = f"{opening}I've moved the walkthrough to {written}{right}. It's the only time that works for all of us."
        bad = f"{opening}I've moved the walkthrough to {written}{wrong}. It's the only time that works for all of us."
        for name in people:
            assert tells(body, name, people, at), (name, body)
        assert not tells(bad, "Dana Cole", people, at)
        assert not tells(bad, "Maya Roth", people, at)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Friday 18 September, 08:00 Auckland (16:00 in New York).", date(2026, 9, 17)),
        ("08:00 Auckland on Friday 18 September (16:00 in New York).", date(2026, 9, 17)),
        ("Sunday 4 October at 23:00 London time / 09:00 Sydney.", date(2026, 10, 5)),
        ("Tuesday 3 November, 17:00 PT (10:00-11:00 JST).", date(2026, 11, 4)),
        ("Friday 18 September, 08:00 Auckland (17:00 in New York).", date(2026, 9, 17)),  # wrong, on the day it meant
        ("Tuesday 3 November 10:00 London, which is 21:00 Sydney.", date(2026, 11, 3)),  # the same day there
    ],
)
def test_a_conversion_takes_its_date_from_the_instant_it_converts(text: str, day: date) -> None:
    converted = find_times(text, date(2026, 8, 1))[-1]
    assert converted.dates == [day]


@pytest.mark.parametrize(
    ("conversion", "passes"),
    [
        ("(Thursday 17 September, 16:00 in New York)", True),
        ("(16:00 in New York on Thursday 17 September)", True),
        ("(Friday 18 September, 16:00 in New York)", False),  # a date written for the conversion stands, wrong too
        ("(16:00 New York, Friday 18 September)", False),
    ],
)
def test_a_date_written_on_the_conversion_stands(conversion: str, passes: bool) -> None:
    people = {"Aroha Ngata": "Pacific/Auckland", "Dana Cole": "America/New_York"}
    body = f"Hi all,\n\nthe walkthrough is now Friday 18 September, 08:00 Auckland time {conversion}.\n\nJustin"
    assert tells(body, "Dana Cole", people, "2026-09-18T08:00:00+12:00") == passes


PEOPLE = {"Anil Rao": "Asia/Kolkata", "Sam Lee": "Europe/London", "Leila Nasser": "Asia/Dubai"}
AT = "2026-08-13T14:00:00+00:00"  # Thursday 13 August, 14:00 UTC: 19:30 in Kolkata, 18:00 in Dubai


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm proposing Thursday 13 August, 14:00 UTC (19:30 for you, Anil) - not confirmed yet.",
        "I'm proposing Thursday 13 August, 14:00 UTC (19:30 for you, Anil).",
        "Tentatively Thursday 13 August at 14:00 UTC (19:30 your time, Anil).",
        "We might do Thursday 13 August at 14:00 UTC (Anil: 19:30 for you), if the room is free.",
        "Thursday 13 August 14:00 UTC (19:30 for you, Anil) is still TBC.",
        "Hoping for Thu 13 Aug 14:00 UTC (Anil, that's 19:30 for you).",
    ],
)
def test_a_hedge_governs_the_conversion_in_brackets_given_to_a_recipient(sentence: str) -> None:
    body = f"Hi Anil, hi Sam,\n\n{sentence}\n\nBest"
    assert not tells(body, "Anil Rao", PEOPLE, AT)
    assert not tells(body, "Sam Lee", PEOPLE, AT)


@pytest.mark.parametrize(
    "sentence",
    [
        "Confirmed: Thursday 13 August, 14:00 UTC (19:30 for you, Anil).",
        "Booked for Thursday 13 August at 14:00 UTC (19:30 your time, Anil). The agenda might still change.",
        "Thursday 13 August, 14:00 UTC is locked in (Anil: 19:30 for you; Leila: 18:00 for you).",
    ],
)
def test_a_confirmed_time_is_told_with_its_conversion_in_brackets(sentence: str) -> None:
    body = f"Hi Anil, hi Sam,\n\n{sentence}\n\nBest"
    assert tells(body, "Anil Rao", PEOPLE, AT)
    assert tells(body, "Sam Lee", PEOPLE, AT)
    wrong = body.replace("19:30", "20:30")
    assert not tells(wrong, "Anil Rao", PEOPLE, AT)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm proposing Thursday 14:00 UTC (19:30 IST) for the review.",
        "We could maybe do Thursday 14:00 UTC (19:30 IST; 18:00 in Dubai), then lunch.",
        "If the room is free, Thursday 14:00 UTC (19:30 IST).",
    ],
)
def test_a_hedged_clause_takes_its_brackets_with_it(sentence: str) -> None:
    kept = asserted(sentence, "time")
    assert "19:30" not in kept and "14:00" not in kept


@pytest.mark.parametrize(
    ("text", "today"),
    [  # read on a day of another season than the message's: the offsets between the zones differ by an hour
        ("Our sync moves to 11:30-12:00 Nairobi (half past ten in Zurich) on Thursday.", date(2026, 12, 7)),
        ("The review is now 16:00 Tokyo time (9am in Berlin) on Wednesday.", date(2026, 12, 1)),
        ("New slot: 10:00 New York (a quarter past three in London), Friday.", date(2026, 3, 10)),
        ("We meet at 14:00 Dubai (half past eleven in Paris) on Monday 2 November.", date(2026, 8, 3)),
    ],
)
def test_a_conversion_read_on_other_offsets_keeps_the_nearest_reading_on_its_day(text: str, today: date) -> None:
    first, *_, converted = find_times(text, today)
    assert converted.dates == first.dates


@pytest.mark.parametrize(
    ("body", "name", "zone"),
    [
        ("our sync moves to 11:30-12:00 Nairobi (half past ten in Zurich) on Thursday.", "Geneviève Kägi", "Zurich"),
        ("the sync is now 11:30 EAT (09:30 in Lisbon) on Thursday 8 October.", "Inês Duarte", "Lisbon"),
        ("we moved it to 11:30 Nairobi time, i.e. 09:30 in Lisbon, Thursday.", "Inês Duarte", "Lisbon"),
    ],
)
def test_a_conversion_with_its_date_written_after_it_is_told_on_that_date(body: str, name: str, zone: str) -> None:
    zones = {"Zurich": "Europe/Zurich", "Lisbon": "Europe/Lisbon"}
    people = {name: zones[zone], "Caroline Chelangat": "Africa/Nairobi", "Aiko Sato": "Asia/Tokyo"}
    ctx = Context({}, {}, timezone="Africa/Nairobi", now=datetime(2026, 10, 6, 8, tzinfo=UTC))
    others = {n: z for n, z in people.items() if n != name}
    said = _text({"subject": "Sync moved", "body": f"Hi all,\n\n{body}\n\nCaroline"}, people[name], name, others)
    assert holds(said, {"mentions_time": {"at": "2026-10-08T11:30:00+03:00", "claimed": True}}, ctx), said
    assert "2026-" not in said  # never the machine's day
