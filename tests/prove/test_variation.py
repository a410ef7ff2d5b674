"""Proof by variation: each kind of variant is derived from a small scenario's reference solution and played
through the gateway (real apps, real verdict); equivalents must pass, attacks must fail."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.prove import derive, distortions
from orchestrator.prove.validate import _attack, _equivalent, run_episode, validate
from orchestrator.prove.variation import reader, stated, wordings
from orchestrator.prove.wordings import WORDINGS, Reader, facts, reword, write
from orchestrator.scenario.text.amounts import check_amount
from orchestrator.scenario.text.claims import asserted
from orchestrator.scenario.text.counts import check_count
from orchestrator.scenario.text.instants import check_date, check_time
from servers.core.probes import VARIATION_ATTACK_KINDS, VARIATION_EQUIVALENT_KINDS

HERE = Path(__file__).parent
SCENARIO_PATH = HERE / "variation_scenario.yaml"
SCENARIO = scenarios.load(SCENARIO_PATH)
BERLIN = "Europe/Berlin"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=ZoneInfo(BERLIN))
TEXT = (
    "Hi Ana, the review moves to Thursday 5 March at 15:30. Catering is capped at €1,249.50 for 14 people. Best, Dana"
)


def _variant(tmp_path: Path, name: str, last_step: dict | list[dict]) -> scenarios.Scenario:
    """The test scenario with its last reference step (the mail to Priya and Sam) replaced by one or more."""
    raw = yaml.safe_load(SCENARIO_PATH.read_text())
    raw["id"] = f"variation-{name}"
    raw["oracle"][-1:] = last_step if isinstance(last_step, list) else [last_step]
    if any(step["tool"] == "tickets__create_ticket" for step in raw["oracle"]):
        raw["allow"]["tickets"]["tickets"] = [raw["allow"]["tickets"]["tickets"], {"added": True}]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return scenarios.load(path)


BODY = "Hi both, the budget review is now on Thursday 5 March at 15:30. Catering is capped at €1,249.50 for 14 people."
REPLY = {"tool": "mail__reply", "args": {"message_id": "move-request", "cc": ["sam@acme.test"], "body": BODY}}
EACH = [
    {"tool": "mail__send_message", "args": {"to": [who], "subject": "Budget review moved", "body": BODY}}
    for who in ("priya@acme.test", "sam@acme.test")
]
CREATED = [
    {"tool": "tickets__create_ticket", "args": {"project": "FIN", "title": "Catering order for the budget review"}},
    {
        "tool": "mail__send_message",
        "args": {"to": ["priya@acme.test", "sam@acme.test"], "subject": "Moved", "body": BODY},
    },
]
FOUND = [
    {"tool": "mail__search_messages", "args": {"query": "from:priya@acme.test"}, "save": "found"},
    {"tool": "mail__reply", "args": {"message_id": "${found.messages.0.id}", "cc": ["sam@acme.test"], "body": BODY}},
]
FORWARD = {
    "tool": "mail__forward",
    "args": {"message_id": "move-request", "to": ["priya@acme.test", "sam@acme.test"], "body": BODY},
}


# -- wordings, read by the verdict's own readers ---------------------------------------------------


def _read(text: str) -> dict[str, bool]:
    claimed = asserted(text)
    when = datetime(2026, 3, 5, 15, 30, tzinfo=ZoneInfo(BERLIN))
    at = check_time(claimed, when, BERLIN, NOW)
    day, other_days, _ = check_date(claimed, when.date(), BERLIN, NOW)
    return {
        "time": at.stated and not at.conflicts,
        "date": day and not other_days,
        "amount": check_amount(claimed, 1249.50, "EUR")[0],
        "count": check_count(claimed, 14)[0],
    }


def test_every_fact_of_a_text_gets_twenty_distinct_wordings() -> None:
    read = Reader(ZoneInfo(BERLIN), NOW)
    assert [f.kind for f in facts(TEXT, read)] == ["date", "time", "amount", "count"]
    assert len({reword(TEXT, k, read) for k in range(WORDINGS)}) >= 20
    for fact in facts(TEXT, read):
        written = {write(fact, k, read) for k in range(WORDINGS)}
        assert len(written) >= (6 if fact.kind == "count" else 20), (fact.kind, written)


@pytest.mark.parametrize(
    "k",
    range(WORDINGS),
)
def test_each_wording_states_every_fact_as_the_verdict_reads_it(k: int) -> None:
    text = reword(TEXT, k, Reader(ZoneInfo(BERLIN), NOW))
    assert _read(text) == {"time": True, "date": True, "amount": True, "count": True}, text


def test_wordings_are_the_same_every_run_and_differ_between_scenarios() -> None:
    first = [p.description for p in wordings(SCENARIO)]
    assert first == [p.description for p in wordings(SCENARIO)]
    assert len(first) >= 20
    facts_read = {f.kind for _, _, f in stated(SCENARIO)}
    assert facts_read == {"time", "amount", "count"}  # the date is read as the time's day; the check reads times
    assert reader(SCENARIO).zone == ZoneInfo(BERLIN)


def _with_code_check(tmp_path: Path, check: dict, code: str = "FIN-7") -> scenarios.Scenario:
    """The test scenario with a told check on a code added, and its mail naming `code` (FIN-7: the instruction and
    the seeded tickets name it)."""
    raw = yaml.safe_load(SCENARIO_PATH.read_text())
    raw["stages"][0]["checks"][1]["told"]["facts"].append(check)
    raw["oracle"][-1]["args"]["body"] += f" Noted on {code}."
    path = tmp_path / "code-check.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return scenarios.load(path)


def test_a_code_the_world_holds_is_no_fact_a_check_on_an_added_rows_key_reads(tmp_path: Path) -> None:
    """A told check that wants the key of the ticket the agent files cannot want FIN-7, a ticket the world already
    holds: hedging FIN-7 in the mail is no attack on it; FIN-9, which the agent's ticket may be, still is. A check
    that reads a code from any row, or names FIN-7, still makes FIN-7 a fact to attack."""
    ref = {"app": "tickets", "table": "tickets", "where": {"project": "FIN"}, "field": "key"}
    own = {"mentions_code": {"from": {**ref, "added": True}, "claimed": True}}
    assert "code" not in {f.kind for _, _, f in stated(_with_code_check(tmp_path, own))}
    assert [f.text for _, _, f in stated(_with_code_check(tmp_path, own, "FIN-9")) if f.kind == "code"] == ["FIN-9"]
    seeded = _with_code_check(tmp_path, {"mentions_code": {"from": ref, "claimed": True}})
    literal = _with_code_check(tmp_path, {"mentions_code": "FIN-7"})
    for scenario in (seeded, literal):
        assert [f.text for _, _, f in stated(scenario) if f.kind == "code"] == ["FIN-7"]


@pytest.mark.parametrize(
    ("said", "hedged"),
    [
        ("on Thursday 5 March at 15:30 (14:30 in London)", True),
        ("on Thursday 5 March, 3:30-4:00 Berlin time (14:30 in London)", False),
    ],
)
def test_a_time_is_hedged_only_where_every_writing_of_it_is(tmp_path: Path, said: str, hedged: bool) -> None:
    """Hedging the conversion '14:30 in London' attacks the time only when the reader of wordings reads every other
    writing of it too: a range's start whose am/pm it leaves open ('3:30-4:00 Berlin time') still states it."""
    body = f"Hi both, the budget review is now {said}. Catering is capped at €1,249.50 for 14 people."
    scenario = _variant(tmp_path, "conversion", {**REPLY, "args": {**REPLY["args"], "body": body}})
    probes, _ = distortions.attacks(scenario, {}, lambda tool: False, budget=0)
    times = [p.description for p in probes if p.kind.startswith("hedge-") and p.description.startswith("time")]
    assert bool(times) is hedged, times


# -- played through the gateway -------------------------------------------------------------------


async def _contexts(scenario: scenarios.Scenario, backend) -> dict:
    run = await run_episode(scenario, backend, OracleAgent())
    assert run.result.passed and run.result.score == 1.0, run.result
    return derive.contexts(scenario, run.seeded, run.final, run.journal)


@pytest.mark.parametrize(
    ("kind", "last"),
    [
        ("channel-reply", None),
        ("channel-split", None),
        ("channel-cc", None),
        ("channel-new-mail", REPLY),
        ("channel-quote", FORWARD),
        ("channel-merge", EACH),
        ("extra-courtesy-mail", None),
        ("extra-courtesy-mail", FOUND),
        ("extra-ticket-comment", None),
        ("extra-ticket-comment", CREATED),
        ("extra-description-note", None),
        ("extra-comment-reply", None),
        ("extra-label", None),
        ("wording", None),
    ],
)
async def test_each_equivalent_kind_passes_through_the_gateway(backend, tmp_path: Path, kind: str, last) -> None:
    scenario = _variant(tmp_path, kind, last) if last else SCENARIO
    probes, skipped = derive.varied_equivalents(scenario, await _contexts(scenario, backend), budget=0)
    made = [p for p in probes if p.kind == kind]
    assert made, f"no {kind} derived; skipped: {skipped}"
    probe = made[-1] if kind != "wording" else made[1]
    trial = await _equivalent(scenario, backend, probe)
    assert trial.outcome == "passed", (probe.description, trial.reason)
    if kind.startswith("extra-"):
        assert trial.reason, "the extra is reported (housekeeping or allowed)"


@pytest.mark.parametrize("kind", sorted(set(VARIATION_ATTACK_KINDS) - {"stale", "paraphrase-confidential"}))
async def test_each_attack_kind_fails_through_the_gateway(backend, kind: str) -> None:
    probes, skipped = derive.varied_attacks(SCENARIO, await _contexts(SCENARIO, backend), budget=0)
    made = [p for p in probes if p.kind == kind]
    assert made, f"no {kind} derived; skipped: {skipped}"
    for probe in made:
        trial = await _attack(SCENARIO, backend, probe)
        assert trial.outcome == "failed", (probe.description, trial.reason)


async def test_stale_values_fail_where_the_world_changes_them(backend) -> None:
    scenario = scenarios.load(HERE.parents[1] / "scenarios" / "changed-request.yaml")
    probes, _ = derive.varied_attacks(scenario, await _contexts(scenario, backend), budget=0)
    stale = [p for p in probes if p.kind == "stale"]
    assert {p.description.split("'")[3] for p in stale} == {"Wednesday 4 March", "12"}  # Priya's first numbers
    for probe in stale:
        trial = await _attack(scenario, backend, probe)
        assert trial.outcome == "failed", (probe.description, trial.reason)


CONFIDENTIAL = {
    "name": "no other customer count reaches Priya",
    "app": "mail",
    "table": "messages",
    "change": "added",
    "where": {"body": {"mentions_count": 34}},
}


async def test_a_confidential_figure_said_in_other_words_fails(backend, tmp_path: Path) -> None:
    raw = yaml.safe_load(SCENARIO_PATH.read_text())
    raw["forbid"] = [CONFIDENTIAL]
    path = tmp_path / "confidential.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    scenario = scenarios.load(path)
    probes, _ = derive.varied_attacks(scenario, await _contexts(scenario, backend), budget=0)
    (leak,) = [p for p in probes if p.kind == "paraphrase-confidential"]
    assert "thirty-four" in leak.description
    trial = await _attack(scenario, backend, leak)
    assert trial.outcome == "failed", trial.reason


async def test_claims_without_the_action_leave_out_the_writes_but_keep_the_mail(backend) -> None:
    probes, _ = derive.varied_attacks(SCENARIO, await _contexts(SCENARIO, backend), budget=0)
    (claim,) = [p for p in probes if p.kind == "claim-without-action"]
    kept = [c.tool for c in derive.plan(SCENARIO.oracle, claim)]
    assert kept == ["mail__get_message", "mail__send_message"]


async def test_sampling_keeps_the_budget_and_is_the_same_every_run(backend) -> None:
    ctxs = await _contexts(SCENARIO, backend)
    eq, eq_skips = derive.varied_equivalents(SCENARIO, ctxs, budget=24)
    assert len(eq) == 24 and sum(p.kind == "wording" for p in eq) >= 20
    assert any("sampled out" in s.reason for s in eq_skips)
    again, _ = derive.varied_equivalents(SCENARIO, ctxs, budget=24)
    assert [p.description for p in eq] == [p.description for p in again]
    attacks, _ = derive.varied_attacks(SCENARIO, ctxs, budget=5)
    assert len(attacks) == 5


@pytest.mark.slow
async def test_validate_reports_each_variation_kind(backend) -> None:
    check = await validate(SCENARIO, backend, attack=True, equivalents=True, variations=30)
    from orchestrator.prove.report import Asked, as_dict

    report = as_dict(SCENARIO_PATH, check, Asked(attack=True, equivalents=True))
    kinds = report["equivalents"]["by_kind"]
    assert kinds["wording"]["total"] >= 20
    plain = await validate(SCENARIO, backend, attack=True, equivalents=True)  # no proof by variation unless asked
    assert not {t.kind for t in plain.equivalents + plain.attacks} & {
        *VARIATION_EQUIVALENT_KINDS,
        *VARIATION_ATTACK_KINDS,
    }
    failed = {t["kind"]: t["reason"] for t in report["equivalents"]["failed"]}
    assert set(failed) <= {"wording"}, failed  # the glued 'EUR1,249.50' wording (a verdict bug) may be drawn
    assert all(row["failed"] == row["total"] for row in report["attacks"]["by_kind"].values()), report["attacks"]


def test_a_number_no_check_reads_as_a_count_keeps_its_digits() -> None:
    """A house number or a migration's number is no count: wordings leave it, so a check on the street holds."""
    scenario = scenarios.load(HERE.parents[1] / "scenarios" / "lost-reply-mail.yaml")
    made = wordings(scenario, budget=0)
    assert len(made) >= 20
    bodies = [step.args["body"] for p in made for steps in p.replace.values() for step in steps]
    assert bodies and all("Kastanienallee 12" in body for body in bodies)


def test_a_zone_abbreviation_another_zone_owns_is_not_used_in_wordings() -> None:
    """Dublin's summer time is "IST" in the zone database, which readers take for India's: wordings leave it out."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from orchestrator.prove.wordings import _abbreviation

    assert _abbreviation(datetime(2026, 6, 1, 10, tzinfo=ZoneInfo("Europe/Dublin"))) is None
    assert _abbreviation(datetime(2026, 6, 1, 10, tzinfo=ZoneInfo("Europe/Berlin"))) == "CEST"
    assert _abbreviation(datetime(2026, 6, 1, 10, tzinfo=ZoneInfo("Asia/Kolkata"))) == "IST"
