"""A conversion's place as written in any layout or language the readers know: a range converted for two places at
once ("10:30-11:00 in Zurich and Johannesburg") is each place's time, and a place said as the time of a city in
French, Spanish or Portuguese ("11h00 heure de Zurich", "10:30 hora de Madrid") is that city's zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.verify.told import _text

CTX = Context({}, {}, timezone="Africa/Nairobi", now=datetime(2026, 10, 6, 8, tzinfo=UTC))


def tells(body: str, name: str, people: dict[str, str], at: str) -> bool:
    others = {n: z for n, z in people.items() if n != name}
    said = _text({"subject": "New time", "body": body}, people[name], name if others else "", others)
    return holds(said, {"mentions_time": {"at": at, "claimed": True}}, CTX)


@pytest.mark.parametrize(
    ("written", "right", "wrong", "at", "zones"),
    [
        (
            "Thursday 8 October, 11:30-12:00 Nairobi time",
            "(10:30-11:00 in Zurich and Johannesburg)",
            "(09:30-10:00 in Zurich and Johannesburg)",
            "2026-10-08T11:30:00+03:00",
            ("Africa/Nairobi", "Europe/Zurich", "Africa/Johannesburg"),
        ),
        (
            "Tuesday 13 October, 14:00-15:00 UTC",
            "(16:00-17:00 in Berlin and Paris)",
            "(15:00-16:00 in Berlin and Paris)",
            "2026-10-13T14:00:00+00:00",
            ("UTC", "Europe/Berlin", "Europe/Paris"),
        ),
        (
            "Friday 9 October, 9:00-9:30 New York",
            "/ 14:00-14:30 London and Lisbon",
            "/ 13:00-13:30 London and Lisbon",
            "2026-10-09T09:00:00-04:00",
            ("America/New_York", "Europe/London", "Europe/Lisbon"),
        ),
    ],
)
def test_a_range_converted_for_two_places_is_each_places_time(
    written: str, right: str, wrong: str, at: str, zones: tuple[str, str, str]
) -> None:
    people = {"Caroline Ndung'u": zones[0], "Léa Martin": zones[1], "Sipho Dlamini": zones[2]}
    body = f"Hi all,\n\nthe sync moves to {written} {right}. Same link as before.\n\nCaroline"
    bad = body.replace(right, wrong)
    for name in ("Léa Martin", "Sipho Dlamini"):
        assert tells(body, name, people, at), (name, body)
        assert not tells(bad, name, people, at), (name, bad)


@pytest.mark.parametrize(
    ("body", "zone"),
    [
        ("la réunion est déplacée au jeudi 8 octobre, de 10h30 à 11h00 heure de Zurich (11h30 à Nairobi).", "Zurich"),
        ("la réunion est déplacée au jeudi 8 octobre, de 10h30 à 11h00 heure de Zurich.", "Zurich"),
        ("RDV le jeudi 8 octobre à 10h30 (heure de Paris).", "Paris"),
        ("la reunión pasa al jueves 8 de octubre a las 10:30 hora de Madrid.", "Madrid"),
        ("la reunión pasa al jueves 8 de octubre a las 09:30 hora local de Lisboa.", "Lisbon"),
    ],
)
def test_a_time_said_as_a_citys_time_in_another_language_is_in_its_zone(body: str, zone: str) -> None:
    zones = {"Zurich": "Europe/Zurich", "Paris": "Europe/Paris", "Madrid": "Europe/Madrid", "Lisbon": "Europe/Lisbon"}
    people = {"Geneviève Kägi": zones[zone]}
    assert tells(f"Bonjour,\n\n{body}\n\nCaroline", "Geneviève Kägi", people, "2026-10-08T11:30:00+03:00"), body
    later = body.replace("10h30", "11h30").replace("10:30", "11:30").replace("09:30", "10:30")
    assert not tells(f"Bonjour,\n\n{later}\n\nCaroline", "Geneviève Kägi", people, "2026-10-08T11:30:00+03:00")
