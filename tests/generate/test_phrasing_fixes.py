"""What edition 2 fixes in the ten v1 families' content: no sentence runs into the next ("isn't.Also"), no leaver or
successor shares a first name with the persona, the meeting-tz distractor knob changes a direct request, and a
clock on any weekday still gives incidents, offsites and last days on working days."""

from __future__ import annotations

import random
import re
from datetime import date, datetime
from typing import Any

from orchestrator.generate.build import Organization
from orchestrator.generate.family import families
from tests.generate.test_phrasing import V1, draw, org_of


def _sample(name: str, org: Organization, knobs: dict[str, Any], seed: int) -> dict[str, Any] | None:
    family = families()[name]()
    return family.sample(org, random.Random(seed), {**knobs, "size": "small"})


def _orgs(weekdays: set[int], count: int = 6) -> list[Organization]:
    """Edition-2 organizations whose clocks start on one of `weekdays` (0 = Monday)."""
    found = []
    for seed in range(900, 1200):
        org = org_of(seed, "train")
        if org.start.weekday() in weekdays:
            found.append(org)
            if len(found) == count:
                break
    assert found, f"no edition-2 organization starts on weekdays {weekdays}"
    return found


def test_no_sentence_runs_into_the_next() -> None:
    for name in V1:
        for index in range(25):
            drawn = draw(name, index, "train")
            if drawn is not None:
                text = drawn[2].instruction
                assert not re.search(r"[a-z][.!?][A-Z]", text), f"{name}: {text}"
    for seed in range(20):  # the approval's reply step, which edition 1 glued on as "isn't.Also"
        org = _orgs({0, 1, 2, 3, 4}, 1)[0]
        params = _sample("approve-request", org, {"steps": 2, "distractors": 0}, seed)
        text = families()["approve-request"]().build(org.copy(), params).instruction
        assert not re.search(r"[a-z][.!?][A-Z]", text), text


def test_no_leaver_or_successor_shares_a_first_name_with_the_persona_or_each_other() -> None:
    for org in _orgs({0, 1, 2, 3, 4}, 4):
        users = {u["email"] for u in org.apps["tickets"]["users"]}
        hosts = [p for p in org.people[1:-1] if p.email in users]
        for p in hosts[: len(hosts) // 2]:  # half of the possible leavers share the persona's first name
            p.first_name = org.persona.first_name
        for seed in range(15):
            params = _sample("offboard", org, {"steps": 1, "distractors": 0}, seed)
            if params is None:
                continue
            leaver, successor = org.person(params["leaver"]), org.person(params["successor"])
            assert org.persona.first_name not in (leaver.first_name, successor.first_name)
            assert leaver.first_name != successor.first_name


def test_meeting_tz_distractors_change_a_direct_request() -> None:
    named = 0
    for org in _orgs({0, 1, 2, 3, 4}, 4):
        for seed in range(6):
            plain = _sample("meeting-tz", org, {"steps": 1, "distractors": 0, "tz_spread": 1}, seed)
            busy = _sample("meeting-tz", org, {"steps": 1, "distractors": 2, "tz_spread": 1}, seed)
            if plain is None or busy is None:
                continue
            assert plain["suggestions"] == []
            assert busy["suggestions"] and busy["slot"] not in busy["suggestions"]
            text = families()["meeting-tz"]().build(org.copy(), busy).instruction
            for at in busy["suggestions"]:
                assert f"{datetime.fromisoformat(at):%H:%M}" in text, text
            named += 1
    assert named >= 3


def _day(org: Organization, params: dict[str, Any], key: str) -> date:
    return org.day(params[key])


def test_a_clock_on_any_weekday_keeps_incidents_offsites_and_last_days_on_working_days() -> None:
    for org in _orgs({0}, 3) + _orgs({3, 4}, 3):
        for seed in range(5):
            incident = _sample("incident", org, {"steps": 3, "distractors": 0}, seed)
            if incident is not None:
                began = datetime.fromisoformat(incident["start"])
                assert began.weekday() < 5, f"an incident on a {began:%A}"
                text = families()["incident"]().build(org.copy(), incident).instruction
                yesterday = (org.start.date() - began.date()).days == 1
                assert yesterday or "yesterday" not in text.lower(), text
            trip = _sample("travel", org, {"steps": 2, "distractors": 0}, seed)
            if trip is not None:
                first = _day(org, trip, "first")
                assert first.weekday() in (1, 2, 3) and 3 <= (first - org.start.date()).days <= 10
            leave = _sample("offboard", org, {"steps": 1, "distractors": 0}, seed)
            if leave is not None:
                assert _day(org, leave, "last_day").weekday() < 5
