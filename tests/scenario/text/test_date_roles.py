"""The role of a date where its own words give none: the title of its block of labelled lines ("Design sprint
workshop⏎When: Wednesday 8 July"), "from" right before it ("runs in waves from Monday 1 June, ... no later than 31
July"), an arrival at a hotel stay (a traveller's day, not a delivery), and social events by their names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/Stockholm", now=datetime(2026, 6, 20, 8, tzinfo=UTC))


def dated(day: str, role: str) -> dict[str, object]:
    return {"mentions_date": {"date": day, "role": role, "claimed": True}}


@pytest.mark.parametrize(
    ("title", "role"),
    [
        ("### Design sprint workshop", "meeting"),
        ("## Quarterly board review", "meeting"),
        ("**Team offsite**", "event"),
        ("# Summer party", "event"),
        ("Flight to Lisbon", "travel"),
    ],
)
def test_a_labelled_line_takes_its_role_from_its_blocks_title(title: str, role: str) -> None:
    text = f"{title}\n\n**When:** Wednesday 8 July, 13:00–16:00\n**Where:** room Kastanj\n\nPlease bring the drafts."
    assert holds(text, dated("2026-07-08", role), CTX)
    assert not holds(text, dated("2026-07-08", "deadline"), CTX)


def test_a_title_that_is_a_sentence_gives_no_role() -> None:
    text = "Thanks for the notes on the meeting.\nWhen: Wednesday 8 July\nWhere: room Kastanj"
    assert not holds(text, dated("2026-07-08", "meeting"), CTX)


def test_from_right_before_a_date_starts_it_before_the_sentences_other_words() -> None:
    text = "The migration runs in waves from Monday 6 July, with the last wave no later than 31 July."
    assert holds(text, dated("2026-07-06", "start"), CTX)
    assert holds(text, dated("2026-07-31", "deadline"), CTX)
    assert not holds(text, dated("2026-07-06", "deadline"), CTX)
    text = "Het nieuwe tarief geldt vanaf 6 juli; bezwaar kan tot uiterlijk 31 juli."
    assert holds(text, dated("2026-07-06", "start"), CTX)


def test_an_arrival_for_a_stay_is_the_day_out() -> None:
    text = "Please amend reservation RSV-4410:\n\n- Arrival: Monday 13 July 2026\n- Departure: Thursday 16 July 2026\n"
    assert holds(text, dated("2026-07-13", "travel-out"), CTX)
    assert not holds(text, dated("2026-07-13", "delivery"), CTX)
    parcel = "Your parcel PKG-5521 is on its way.\n\n- Arrival: Monday 13 July 2026\n"
    assert holds(parcel, dated("2026-07-13", "delivery"), CTX)


@pytest.mark.parametrize("name", ["client mixer", "summer drinks", "team picnic", "happy hour", "hackathon"])
def test_social_events_by_their_names(name: str) -> None:
    text = f"RSVPs for the Jul 10 {name} so far: 14 confirmed. The caterer needs a final number by Friday Jul 3."
    assert holds(text, dated("2026-07-10", "event"), CTX)
    assert holds(text, dated("2026-07-03", "deadline"), CTX)


@pytest.mark.parametrize(
    ("text", "aside", "kept"),
    [
        ("Window: Fri 24 Jul. The earlier proposed window (Fri 17 Jul) is cancelled.", "2026-07-17", "2026-07-24"),
        ("The first slot (Tue 14 July) has been dropped; we go on Thu 16 July.", "2026-07-14", "2026-07-16"),
        (
            "Freeze from 2026-07-18 to 2026-08-04. (An earlier draft said 2026-07-20 — ignore that.)",
            "2026-07-20",
            "2026-07-18",
        ),
        (
            "Replacement ships Monday 13 July (the site said Friday 10 July — that was wrong).",
            "2026-07-10",
            "2026-07-13",
        ),
        ("Delivery is on 13 July; the 10 July in the quote was a typo.", "2026-07-10", "2026-07-13"),
    ],
)
def test_a_date_taken_back_or_cancelled_after_its_brackets_is_not_stated(text: str, aside: str, kept: str) -> None:
    assert not holds(text, {"mentions_date": {"date": aside, "claimed": True}}, CTX)
    assert holds(text, {"mentions_date": {"date": kept, "claimed": True}}, CTX)


@pytest.mark.parametrize(
    "text",
    [
        "I fly in on the 24th of June and back on the 26th.",
        "Flying out on the 24th of June and then back on the 26th of June.",
        "I fly out on Wednesday 24 June, back on the 26th.",
    ],
)
def test_a_role_word_that_opens_the_next_part_of_a_list_is_that_parts(text: str) -> None:
    """'... on the 24th of June and back on the 26th': 'back' is the 26th's, however near the 24th it is written."""
    assert holds(text, dated("2026-06-24", "travel-out"), CTX), text
    assert holds(text, dated("2026-06-26", "travel-back"), CTX), text
    assert not holds(text, dated("2026-06-24", "travel-back"), CTX), text


def test_a_role_word_after_a_comma_is_the_dates_own_without_a_day_of_its_own() -> None:
    """'Sat 25 July, dep 10:15' departs on the 25th: the words after the comma say more of the same day."""
    text = "Rebooked: LH 400 Frankfurt to New York, Sat 25 July, dep 10:15, arr 12:55 local."
    assert holds(text, dated("2026-07-25", "travel-out"), CTX)
    assert not holds(text, dated("2026-07-25", "travel-back"), CTX)
