"""Times, facts and people: per-recipient times, cities in any case, zones, ends, contradictions, set-aside slots."""

from __future__ import annotations

from datetime import UTC, datetime

from orchestrator.scenario.conditions import Context, holds
from orchestrator.verify.told import _text

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 8, tzinfo=UTC))
AT = "2026-03-05T15:30:00+01:00"
CLAIMED = {"mentions_time": {"at": AT, "claimed": True}}


def told(body: str, zone: str, name: str, others: dict[str, str]) -> str:
    return _text({"subject": "New time", "body": body}, zone, name, others)


def test_each_your_time_belongs_to_the_person_named_next_to_it() -> None:
    body = "Moved to Thursday 5 March, 15:30 CET (Priya, that's 20:00 your time; Sam, 9:30 your time)."
    priya = told(body, "Asia/Kolkata", "Priya Shah", {"Sam Ortiz": "America/New_York"})
    sam = told(body, "America/New_York", "Sam Ortiz", {"Priya Shah": "Asia/Kolkata"})
    assert holds(priya, CLAIMED, CTX)
    assert holds(sam, CLAIMED, CTX)
    wrong = "Moved to Thursday 5 March, 15:30 CET (Priya, that's 21:00 your time; Sam, 9:30 your time)."
    assert not holds(told(wrong, "Asia/Kolkata", "Priya Shah", {"Sam Ortiz": "America/New_York"}), CLAIMED, CTX)
    assert holds(told(wrong, "America/New_York", "Sam Ortiz", {"Priya Shah": "Asia/Kolkata"}), CLAIMED, CTX)


def test_a_list_of_times_per_person() -> None:
    body = "Review: Thursday 5 March, 15:30 CET.\n\n- Anna — 14:30 for you in London.\n- Omar — 18:30 in Dubai."
    assert holds(told(body, "Europe/London", "Anna Roe", {"Omar Ali": "Asia/Dubai"}), CLAIMED, CTX)
    bad = body.replace("18:30 in Dubai", "19:30 in Dubai")
    assert not holds(told(bad, "Asia/Dubai", "Omar Ali", {"Anna Roe": "Europe/London"}), CLAIMED, CTX)


def test_cities_and_zones_in_any_case() -> None:
    assert holds("Thursday 5 March at 9:30 nyc.", CLAIMED, CTX)
    assert holds("Thursday 5 March, 14:30 london time.", CLAIMED, CTX)
    assert holds("Friday 6 March, 03:30 NZDT.", CLAIMED, CTX)
    assert holds("Friday 6 March, 03:30 nzdt.", CLAIMED, CTX) is False  # an abbreviation is written in capitals
    table = "Thursday 5 March:\n\n| Who | nyc | london |\n|---|---|---|\n| all | 9:30 | 14:30 |\n"
    assert holds(table, CLAIMED, CTX)


def test_the_end_of_a_slot_is_read() -> None:
    slot = {"mentions_time": {"at": AT, "end": "2026-03-05T16:30:00+01:00", "claimed": True}}
    assert holds("Thursday 5 March, 15:30–16:30 CET.", slot, CTX)
    assert holds("Thursday 5 March, 15:30 CET (1 hour).", slot, CTX)
    assert not holds("Thursday 5 March, 15:30–16:00 CET.", slot, CTX)
    assert not holds("Thursday 5 March, 15:30 CET, 45 min.", slot, CTX)


def test_a_later_contradiction_unsays_the_time() -> None:
    assert not holds("The review is moved to Thursday 5 March, 15:30. See you both at 10!", CLAIMED, CTX)


def test_a_slot_set_aside_or_someones_availability_does_not_compete() -> None:
    assert holds("Thursday 5 March, 15:30 CET, the one hour that fits (Lee is free until 16:30).", CLAIMED, CTX)
    assert holds("Thursday 5 March, 15:30 CET. The 10:00 demo is off.", CLAIMED, CTX)
    assert holds("Thursday 5 March at 15:30 — ignore the 13:45 page, that was a flaky check.", CLAIMED, CTX)


def test_day_and_time_requires_the_day() -> None:
    day_and_time = {"mentions_time": {"at": AT, "claimed": True, "day": True}}
    assert not holds("Moved to 15:30-16:30 CET.", day_and_time, CTX)
    assert not holds("Moved to Frdiay 15:30 CET.", day_and_time, CTX)
    assert holds("Moved to Thrusday 15:30 CET.", day_and_time, CTX)
    assert holds("Moved to 15:30-16:30 CET.", CLAIMED, CTX)  # without `day`, a time alone is read on its day


def test_words_german_and_labels_as_agents_write_them() -> None:
    tomorrow = {"mentions_time": {"at": "2026-03-03T14:00:00+01:00", "claimed": True}}
    assert holds("The review moves to tomorrow, two to three in the afternoon.", tomorrow, CTX)
    assert holds("Neuer Termin: Dienstag, 3. März, 14:00-15:00 Uhr.", tomorrow, CTX)
    assert holds("Neuer Termin: Dienstag, 3. März, um 14 Uhr.", tomorrow, CTX)
    bullets = (
        "- New time: tomorrow, 14:00-15:00 (Sam has a customer call at 10:00)\n- Old time: 10:00-11:00 - cancelled"
    )
    assert holds(bullets, tomorrow, CTX)
    assert holds(
        "Release on the thirty-first of March.", {"mentions_date": {"date": "2026-03-31", "claimed": True}}, CTX
    )


def test_a_replys_subject_is_the_original_subject() -> None:
    text = _text({"subject": "Re: Design review tomorrow at 10:00", "body": "Done: moved to tomorrow 14:00."})
    assert holds(text, {"mentions_time": {"at": "2026-03-03T14:00:00+01:00", "claimed": True}}, CTX)


def test_a_time_given_as_a_person_s_entry_is_in_their_zone() -> None:
    body = "Partner sync: Thursday 5 March, 15:30 CET.\n\n- Meera: 20:00\n- Sam: 9:30\n- Tom: see the invite"
    people = {"Meera Pillai": "Asia/Kolkata", "Sam Ortiz": "America/New_York", "Tom Hale": "America/Los_Angeles"}

    def to(name: str) -> str:
        return told(body, people[name], name, {n: z for n, z in people.items() if n != name})

    assert holds(to("Meera Pillai"), CLAIMED, CTX)
    assert holds(to("Sam Ortiz"), CLAIMED, CTX)
    wrong = body.replace("- Sam: 9:30", "- Sam: 10:30")
    assert not holds(told(wrong, "America/New_York", "Sam Ortiz", {"Meera Pillai": "Asia/Kolkata"}), CLAIMED, CTX)
    # "11:00 for Sipho in Cape Town": the place after the name is the time's
    cities = "Now Thursday 5 March, 14:30 GMT: 16:30 for Sipho in Cape Town, 17:30 for Wanjiru in Nairobi."
    assert holds(told(cities, "Africa/Johannesburg", "Sipho Ndlovu", {"Wanjiru Kamau": "Africa/Nairobi"}), CLAIMED, CTX)
    # a greeting is no entry: "Thanks Kofi — 15:30 works" is the writer's own time
    thanks = "Thanks Kofi — 15:30 works. Thursday 5 March, 15:30 CET it is.\n\nKofi, that's 14:30 in Accra."
    assert holds(told(thanks, "Africa/Accra", "Kofi Mensah", {"Li Na": "Asia/Shanghai"}), CLAIMED, CTX)
