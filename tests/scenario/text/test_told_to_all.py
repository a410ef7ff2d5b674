"""A time after one recipient's name alone is told to every recipient ("No problem, Brian - moved it to 4:30 pm"),
unless the message gives different people their own times; and an old time after a negation is set aside in the
other languages the readers know ("Brian no podía a las 12:00, así que ... de 16:30 a 17:00")."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.parse import read
from orchestrator.scenario.text.times import find_times
from orchestrator.verify.told import _text

CTX = Context({}, {}, timezone="America/Phoenix", now=datetime(2026, 1, 14, 16, tzinfo=UTC))
AT = "2026-01-15T16:30:00-07:00"


def tells(body: str, name: str, people: dict[str, str], subject: str = "Re: Declined: Calibration") -> bool:
    others = {n: z for n, z in people.items() if n != name}
    said = _text({"subject": subject, "body": body}, people[name], name if others else "", others)
    return holds(said, {"mentions_time": {"at": AT, "claimed": True}}, CTX)


@pytest.mark.parametrize(
    "opening",
    [
        "No problem, Brian - moved it to 4:30-5:00 pm tomorrow (Thu)",
        "Thanks Priya — it's now Thursday 15 January, 4:30 to 5 pm",
        "Sure, Tomás: the review moves to Thu 15 Jan at 16:30",
        "OK Mei, we're on for 16:30-17:00 on Thursday 15 January",
    ],
)
def test_a_time_after_one_recipients_name_is_told_to_all(opening: str) -> None:
    named = opening.split(",")[1].split()[0] if opening.startswith(("No", "Sure")) else opening.split()[1]
    named = named.strip(":—-")
    people = {f"{named} Porter": "America/Phoenix", "Eric Garcia": "America/Phoenix", "Ana Ruiz": "America/Phoenix"}
    body = f"{opening}, the only half hour all of us are free. Agenda updated.\n\nAmanda"
    for name in people:
        assert tells(body, name, people), (name, body)
    later = body.replace("4:30", "5:30").replace("16:30", "17:30")
    assert not tells(later, "Eric Garcia", people)


def test_times_given_to_different_people_stay_theirs() -> None:
    people = {"Brian Porter": "America/Phoenix", "Eric Garcia": "America/Chicago", "Zoe Li": "America/Phoenix"}
    body = "Hi all,\n\nBrian: 16:30 your time. Eric: 17:30 your time.\n\nAmanda"
    assert tells(body, "Brian Porter", people)
    assert tells(body, "Eric Garcia", people)
    assert not tells(body, "Zoe Li", people)  # neither time is said to her


@pytest.mark.parametrize(
    "sentence",
    [
        "Brian no podía a las 12:00, así que la calibración pasa al jueves 15 de enero, de 16:30 a 17:00.",
        "Brian ne pouvait pas à 12h00, donc la réunion passe au jeudi 15 janvier, de 16h30 à 17h00.",
        "Brian non poteva alle 12:00, quindi la riunione passa a giovedì 15 gennaio, dalle 16:30 alle 17:00.",
        "Brian konnte nicht um 12:00, deshalb ist das Treffen jetzt am 15. Januar, 16:30-17:00.",
        "Ana no puede asistir a las 9:00; la reunión pasa al jueves 15 de enero a las 16:30.",
    ],
)
def test_an_old_time_after_a_negation_is_set_aside_in_other_languages(sentence: str) -> None:
    first, second, *_ = find_times(read(sentence), date(2026, 1, 14))
    assert first.set_aside and not second.set_aside
    assert tells(f"Hola,\n\n{sentence}\n\nAmanda", "Eric Garcia", {"Eric Garcia": "America/Phoenix"}, "Nueva hora")


def test_an_old_time_after_a_negation_is_set_aside_in_portuguese() -> None:
    sentence = "O Brian não podia às 12:00, por isso a reunião passa para as 16:30."
    first, second = find_times(read(sentence), date(2026, 1, 14))
    assert first.set_aside and not second.set_aside


@pytest.mark.parametrize(
    "sentence",
    ["La reunión sigue a las 16:30 del jueves 15 de enero.", "La réunion reste le jeudi 15 janvier à 16h30."],
)
def test_a_time_with_no_negation_stands(sentence: str) -> None:
    assert not find_times(read(sentence), date(2026, 1, 14))[0].set_aside
