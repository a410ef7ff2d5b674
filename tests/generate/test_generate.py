"""Generated tasks: organizations, the five scheduling/mail/support/travel families, proofs, dedupe, manifest, CLI."""

from __future__ import annotations

import hashlib
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.generate import build as orgs
from orchestrator.generate.family import FAMILIES, Draft, Family, families
from orchestrator.generate.pipeline import FamilyReport, Options, candidates, generate, read_manifest
from orchestrator.prove.validate import run_episode
from orchestrator.scenario.model import OracleStep

MINE = {
    "meeting-tz": {"steps": 1, "tz_spread": 2, "distractors": 0},
    "reschedule": {"steps": 1, "tz_spread": 1, "distractors": 0},
    "customer-answer": {"steps": 1, "distractors": 0},
    "inbox-rules": {"steps": 1, "distractors": 0},
    "travel": {"steps": 2, "distractors": 0},
}


def _run(options: Options, out: Path) -> list[FamilyReport]:
    return anyio.run(generate, options, out)


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, FamilyReport]]:
    """One task of each family, written with the full proofs (mutations, attacks, equivalents)."""
    out = tmp_path_factory.mktemp("full")
    reports = {}
    for name, knobs in MINE.items():
        # one run per family, so each family's knobs can be the cheapest to prove; all write to one folder
        folder = out / name
        reports[name] = _run(Options([name], 1, seed=0, prove="full", knobs=knobs), folder)[0]
    return out, reports


def _scenario(proven: tuple[Path, dict[str, FamilyReport]], family: str) -> tuple[scenarios.Scenario, dict[str, Any]]:
    folder = proven[0] / family
    row = read_manifest(folder)[0]
    return scenarios.load(folder / family / f"{row['id']}.yaml"), row


async def _play(scenario: scenarios.Scenario, steps: list[dict[str, Any]]):
    async with InProcessBackend() as backend:
        return await run_episode(scenario, backend, OracleAgent([OracleStep.model_validate(s) for s in steps]))


def _steps(scenario: scenarios.Scenario) -> list[dict[str, Any]]:
    return [s.model_dump(exclude_defaults=True) for s in scenario.oracle]


# -- organizations ------------------------------------------------------------------------


def test_an_organization_is_the_same_for_the_same_seed_and_coherent_across_apps() -> None:
    orgs._CACHE.clear()
    first = orgs.build_organization(11, "small").dump()
    orgs._CACHE.clear()
    again = orgs.build_organization(11, "small")
    assert again.dump() == first, "same seed, same bytes"
    assert orgs.build_organization(12, "small").dump() != first
    assert orgs.validate_apps(again) == []
    emails = {p.email for p in [again.persona, *again.people, *again.outsiders]}
    assert all(e.endswith(".test") for e in emails) and len(emails) == 1 + len(again.people) + len(again.outsiders)
    assert all(p.email.split("@")[1] in again.domains for p in again.people)
    assert all(o.email.split("@")[1] not in again.domains for o in again.outsiders)
    cal, mail, tickets = again.apps["calendar"], again.apps["mail"], again.apps["tickets"]
    people = {p["email"] for p in cal["people"]}
    assert all(a["email"] in people for e in cal["events"] for a in e["attendees"] if isinstance(a, dict))
    users = {u["email"] for u in tickets["users"]}
    assert all(t["assignee"] in users for t in tickets["tickets"] if t["assignee"])
    assert {m["in_reply_to"] for m in mail["messages"] if m.get("in_reply_to")} <= {m["id"] for m in mail["messages"]}
    recurring = [e for e in cal["events"] if "recurring" in e.get("description", "")]
    assert len(recurring) >= 10 and cal["busy"], "recurring events and other people's busy blocks"
    assert {p.timezone for p in again.people} - {again.persona.timezone}, "more than one time zone"
    medium = orgs.build_organization(11, "medium")
    assert len(medium.domains) == 2 and all(
        n >= 100 for k, n in medium.rows().items() if k in ("mail.messages", "docs.documents", "tickets.tickets")
    )


# -- the five families, fully proven ------------------------------------------------


@pytest.mark.parametrize("family", list(MINE))
@pytest.mark.slow
def test_each_family_writes_a_task_that_passes_the_full_proofs(proven, family: str) -> None:
    report = proven[1][family]
    assert report.written == 1 and sum(report.dropped.values()) == 0, report.as_dict()
    assert report.episodes > 15, "mutations, attacks and equivalents ran"
    scenario, row = _scenario(proven, family)
    assert row["family"] == family and row["id"] == scenario.id
    assert row["knobs"] == {**MINE[family], "size": "small"}
    text = (proven[0] / family / family / f"{row['id']}.yaml").read_bytes()
    assert row["content_hash"] == hashlib.sha256(text).hexdigest()
    assert row["split"] in ("train", "test") and row["difficulty"] in ("easy", "medium", "hard")
    assert set(row["world"]) == {"seed", "size", "digest"} and row["parameters"]


@pytest.mark.slow
def test_the_same_command_writes_the_same_bytes(proven, tmp_path: Path) -> None:
    """Regenerating (with the basic proofs: the proofs decide what is kept, never what is written) gives the same files."""
    for family in ("meeting-tz", "inbox-rules"):
        out = tmp_path / family
        _run(Options([family], 1, seed=0, prove="basic", knobs=MINE[family]), out)
        first = proven[0] / family
        assert (out / "tasks.jsonl").read_bytes() == (first / "tasks.jsonl").read_bytes()
        for path in (first / family).iterdir():
            assert (out / family / path.name).read_bytes() == path.read_bytes()


# -- plausible wrong answers fail ----------------------------------------------------


def test_meeting_tz_fails_a_busy_slot_and_the_wrong_time_zone(proven) -> None:
    scenario, row = _scenario(proven, "meeting-tz")
    slot = datetime.fromisoformat(row["parameters"]["slot"])
    steps = _steps(scenario)
    create = next(s for s in steps if s["tool"] == "calendar__create_event")
    minutes = row["parameters"]["minutes"]
    # an hour later: someone is busy then (the family leaves one free slot that day)
    late = {
        **create,
        "args": {
            **create["args"],
            "start": (slot + timedelta(hours=1)).isoformat(),
            "end": (slot + timedelta(hours=1, minutes=minutes)).isoformat(),
        },
    }
    run = anyio.run(_play, scenario, [s if s is not create else late for s in steps])
    assert not run.result.passed
    # the right wall-clock time, read in a guest's zone instead of the user's
    guest_zone = next(z for z in row["parameters"]["zones"] if z != scenario.persona.timezone)
    naive = slot.replace(tzinfo=None)
    wrong_zone = {
        **create,
        "args": {
            **create["args"],
            "start": naive.isoformat(),
            "end": (naive + timedelta(minutes=minutes)).isoformat(),
            "timezone": guest_zone,
        },
    }
    run = anyio.run(_play, scenario, [s if s is not create else wrong_zone for s in steps])
    assert not run.result.passed
    right = anyio.run(_play, scenario, steps)
    assert right.result.passed and right.result.score == 1.0


def test_reschedule_fails_a_copy_instead_of_a_move_and_a_wrong_time_in_the_mail(proven) -> None:
    scenario, row = _scenario(proven, "reschedule")
    steps = _steps(scenario)
    new = datetime.fromisoformat(row["parameters"]["new"])
    minutes = row["parameters"]["minutes"]
    move = next(s for s in steps if s["tool"] == "calendar__update_event")
    copy = {
        "tool": "calendar__create_event",
        "args": {
            "title": "Moved meeting",
            "start": new.isoformat(),
            "end": (new + timedelta(minutes=minutes)).isoformat(),
            "attendees": row["parameters"]["guests"],
        },
    }
    run = anyio.run(_play, scenario, [s if s is not move else copy for s in steps])
    assert not run.result.passed
    mail = next(s for s in steps if s["tool"] == "mail__send_message")
    other = new + timedelta(hours=2)
    wrong = {**mail, "args": {**mail["args"], "body": f"Moved to {other:%A %d %B, %H:%M}."}}
    run = anyio.run(_play, scenario, [s if s is not mail else wrong for s in steps])
    assert not run.result.passed


def test_customer_answer_fails_when_the_internal_note_or_a_wrong_date_reaches_the_customer(proven) -> None:
    scenario, row = _scenario(proven, "customer-answer")
    steps = _steps(scenario)
    reply = next(s for s in steps if s["tool"] == "mail__reply")
    p = row["parameters"]
    leaked = {
        **reply,
        "args": {
            **reply["args"],
            "body": reply["args"]["body"]
            + (
                f"\n\nBetween us: the root cause is {p['root_cause']} in the {p['service']} service, and "
                f"{p['affected']} other accounts are affected."
            ),
        },
    }
    run = anyio.run(_play, scenario, [s if s is not reply else leaked for s in steps])
    assert not run.result.passed and run.result.violations
    credit = {
        **reply,
        "args": {**reply["args"], "body": reply["args"]["body"] + f"\n\nWe can offer a credit of €{p['credit']}."},
    }
    assert not anyio.run(_play, scenario, [s if s is not reply else credit for s in steps]).result.passed
    eta = datetime.fromisoformat(p["eta"])
    later = eta + timedelta(days=2)
    wrong = {
        **reply,
        "args": {
            **reply["args"],
            "body": reply["args"]["body"].replace(f"{eta:%A} {eta.day} {eta:%B}", f"{later:%A} {later.day} {later:%B}"),
        },
    }
    assert wrong["args"]["body"] != reply["args"]["body"]
    assert not anyio.run(_play, scenario, [s if s is not reply else wrong for s in steps]).result.passed


def test_inbox_rules_fails_a_rule_applied_to_other_mail_and_a_missed_message(proven) -> None:
    scenario, row = _scenario(proven, "inbox-rules")
    steps = _steps(scenario)
    act = next(s for s in steps if s["tool"] in ("mail__add_label", "mail__move_to_folder", "mail__star"))
    ids = act["args"]["message_ids"]
    everyone = [m["id"] for m in scenario.apps["mail"]["messages"]]
    stranger = next(i for i in everyone if i not in ids)
    wider = {**act, "args": {**act["args"], "message_ids": [*ids, stranger]}}
    run = anyio.run(_play, scenario, [s if s is not act else wider for s in steps])
    assert not run.result.passed and run.result.violations
    if len(ids) > 1:
        fewer = {**act, "args": {**act["args"], "message_ids": ids[:-1]}}
        assert not anyio.run(_play, scenario, [s if s is not act else fewer for s in steps]).result.passed


def test_travel_fails_events_on_the_offsite_days_instead_of_the_travel_days(proven) -> None:
    scenario, _ = _scenario(proven, "travel")
    steps = _steps(scenario)
    shifted = []
    for s in steps:
        if s["tool"] == "calendar__create_event":
            start, end = datetime.fromisoformat(s["args"]["start"]), datetime.fromisoformat(s["args"]["end"])
            delta = timedelta(days=1) if start.hour >= 12 else timedelta(days=-1)  # out: a day late; back: a day early
            s = {**s, "args": {**s["args"], "start": (start + delta).isoformat(), "end": (end + delta).isoformat()}}
        shifted.append(s)
    assert not anyio.run(_play, scenario, shifted).result.passed


# -- dedupe, splits, manifest, command line ------------------------------------------


class _SameChecks(Family):
    """Different parameters (the wording, the organization) leading to the same checks."""

    name = "test-same-checks"
    title = "same checks"
    apps = ("tickets",)
    knobs: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def sample(self, org, rng: random.Random, knobs):  # noqa: ANN001, ANN201
        return {"wording": rng.randrange(1000)}

    def build(self, org, params):  # noqa: ANN001, ANN201
        org.apps["tickets"]["projects"].append({"key": "SAME", "name": "Same"})
        draft = Draft(org, title="File a ticket", instruction=f"File a ticket in SAME (note {params['wording']}).")
        draft.stage(
            "filed",
            [
                {
                    "app": "tickets",
                    "table": "tickets",
                    "added": True,
                    "where": {"project": "SAME"},
                    "name": f"filed, note {params['wording']}",
                }
            ],
        )
        draft.allow = {"tickets": {"tickets": {"added": True}}}
        draft.oracle = [
            {"tool": "tickets__create_ticket", "args": {"project": "SAME", "title": "A ticket"}, "unchecked": ["title"]}
        ]
        return draft


def test_tasks_with_the_same_checks_are_written_once(tmp_path: Path) -> None:
    FAMILIES[_SameChecks.name] = _SameChecks
    try:
        report = _run(Options([_SameChecks.name], 2, seed=0), tmp_path)[0]
    finally:
        del FAMILIES[_SameChecks.name]
    # every candidate has the same checks: the first is proven and written, every other one is a duplicate
    assert report.written == 1 and report.duplicates == report.drawn - 1 > 0
    rows = read_manifest(tmp_path)
    assert len(rows) == 1 and (tmp_path / _SameChecks.name / f"{rows[0]['id']}.yaml").exists()


def test_train_and_test_never_share_a_parameter_combination() -> None:
    family = families()["meeting-tz"]()
    seen: dict[str, set[str]] = {"train": set(), "test": set()}
    for split in ("train", "test"):
        report = FamilyReport(family.name)
        for n, task in enumerate(candidates(family, Options([family.name], 12, seed=5, split=split), report)):
            assert task.split == split
            seen[split].add(family.split_key(task.params))
            if n >= 11:
                break
    assert seen["train"] and seen["test"] and not (seen["train"] & seen["test"])
    cheap = families()["customer-answer"]()
    report = FamilyReport(cheap.name)
    core = []
    for task in candidates(cheap, Options([cheap.name], 2, seed=5, split="core"), report):
        core.append(task)
        if len(core) == 2:
            break
    assert len(core) == 2 and all(t.core and t.split == "test" for t in core) and report.other_split > 0


def test_generate_command_errors_are_clear(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["generate", "no-such-family", "--out", str(tmp_path / "a")])
    assert result.exit_code == 2 and "unknown family no-such-family" in result.output
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["generate", "travel", "--count", "1", "--out", str(tmp_path / "full")])
    assert result.exit_code == 2 and "not empty" in result.output and (tmp_path / "full" / "notes.txt").exists()
    result = runner.invoke(app, ["generate", "travel", "--knob", "steps=9", "--out", str(tmp_path / "b")])
    assert result.exit_code == 2 and "travel takes 2/3/4" in result.output
    result = runner.invoke(app, ["generate", "travel", "--size", "huge", "--out", str(tmp_path / "b")])
    assert result.exit_code == 2 and "--size must be one of small, medium, large" in result.output
    listed = runner.invoke(app, ["generate", "--list"])
    assert listed.exit_code == 0 and all(name in listed.output for name in MINE)
    assert "Traceback" not in result.output
