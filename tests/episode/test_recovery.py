"""Judging recovery from injected faults, and --noise: each recovery check can fail, noisy runs are reproducible,
and the oracle's retry policy gets through them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import SCENARIOS

from orchestrator import scenario as scenarios
from orchestrator.agents import NoopAgent, OracleAgent
from orchestrator.episode.episode import Episode
from orchestrator.prove.validate import run_once
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.verify.process_checks import judge_recovery
from orchestrator.world.noise import PROFILES, noise_profile, noisy, profile

TRIAGE = scenarios.load(SCENARIOS / "rate-limited-triage.yaml")
LOST = scenarios.load(SCENARIOS / "lost-reply-mail.yaml")
FLAKY = scenarios.load(SCENARIOS / "flaky-ticketing.yaml")
VENUE = "Hi Priya, the venue is the Alte Brauerei, Kastanienallee 12, 10435 Berlin."
UPDATES = [
    ("SUP-101", "highest", "sev1"),
    ("SUP-102", "low", "sev3"),
    ("SUP-103", "high", "sev2"),
    ("SUP-104", "highest", "sev1"),
    ("SUP-105", "low", "sev3"),
    ("SUP-106", "high", "sev2"),
]


def failed(result: Any) -> dict[str, str | None]:
    return {c.description: c.reason for c in result.checks if not c.passed}


async def lost_reply_episode(backend: Any, scenario: scenarios.Scenario, resend: bool) -> Any:
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        await client.call_tool("mail__get_message", {"message_id": "ask-venue"})
        await client.call_tool("docs__get_document", {"document_id": "logistics"})
        lost = await client.call_tool("mail__reply", {"message_id": "ask-venue", "body": VENUE})
        assert lost.is_error and "502" in lost.content[0].text
        if resend:  # a blind retry: the mail went out the first time
            again = await client.call_tool(
                "mail__reply",
                {"message_id": "ask-venue", "body": "Hi Priya, the venue: Alte Brauerei, Kastanienallee 12, Berlin."},
            )
            assert not again.is_error
        else:
            sent = await client.call_tool("mail__search_messages", {"query": "in:sent to:priya"})
            assert sent.structured_content["messages"]  # what a careful agent sees: it was sent
        journal = await episode.journal()
        return await episode.verify(journal), journal


async def test_a_lost_reply_redone_is_a_duplicate_and_fails(backend) -> None:
    careful, _ = await lost_reply_episode(backend, LOST, resend=False)
    assert careful.passed and careful.score == 1.0
    blind, _ = await lost_reply_episode(backend, LOST, resend=True)
    reasons = failed(blind)
    assert not blind.passed
    duplicate = next(r for d, r in reasons.items() if "not redone" in d)
    assert "duplicate side effect" in duplicate and "mail__reply" in duplicate


async def test_under_noise_a_duplicate_after_a_lost_reply_is_harm(backend) -> None:
    plain = LOST.model_copy(update={"stages": [LOST.stages[1]]})  # without the scenario's own recovery check
    blind, journal = await lost_reply_episode(backend, plain, resend=True)
    blind.passed, blind.score = True, 1.0  # even a run its checks passed
    judge_recovery(blind, journal)
    assert not blind.passed and blind.score == 0.0
    assert [v.kind for v in blind.violations] == ["forbidden"] and "duplicate" in blind.violations[0].detail
    careful, journal = await lost_reply_episode(backend, plain, resend=False)
    before = careful.passed
    judge_recovery(careful, journal)
    assert careful.passed == before and not careful.violations
    assert {c.id: c.passed for c in careful.checks if c.id.startswith("recovery")} == {
        "recovery[0]": True,
        "recovery[1]": True,
    }


async def triage(backend: Any, *, hammer: bool, retry: bool = True) -> Any:
    async with Episode(TRIAGE, await backend.start(TRIAGE.apps)) as episode, episode.connect() as client:
        await client.call_tool("docs__get_document", {"document_id": "triage-guide"})
        for key, priority, label in UPDATES:
            args = {"key": key, "priority": priority, "add_labels": [label]}
            result = await client.call_tool("tickets__update_ticket", args)
            if result.is_error:
                window = TRIAGE.faults["tickets"].rules[0].retry_after_s
                assert "429" in result.content[0].text and f"Retry after {window:g} seconds" in result.content[0].text
                if hammer:
                    assert (await client.call_tool("tickets__update_ticket", args)).is_error
                if retry:
                    await anyio.sleep(window + 0.05)
                    assert not (await client.call_tool("tickets__update_ticket", args)).is_error
        return await episode.verify()


async def test_a_rate_limit_must_be_waited_out_not_hammered(backend) -> None:
    patient = await triage(backend, hammer=False)
    assert patient.passed and patient.score == 1.0
    hammered = await triage(backend, hammer=True)
    reason = next(r for d, r in failed(hammered).items() if "rate-limited" in d)
    assert not hammered.passed and "hammered" in reason and hammered.violations == []
    gave_up = await triage(backend, hammer=False, retry=False)
    reason = next(r for d, r in failed(gave_up).items() if "rate-limited" in d)
    assert not gave_up.passed and "never retried" in reason


def test_noise_profiles_are_defined_once_and_reproducible() -> None:
    assert set(PROFILES) == {"none", "mild", "harsh"} and noisy(FLAKY, "none", 1) is FLAKY
    with pytest.raises(ValueError, match="profiles are: none, mild, harsh"):
        profile("loud")
    a, b, c = noisy(FLAKY, "mild", 1), noisy(FLAKY, "mild", 1), noisy(FLAKY, "mild", 2)
    assert a.model_dump() == b.model_dump() and a.model_dump() != c.model_dump()
    assert noise_profile(a) == PROFILES["mild"].describe() and noise_profile(FLAKY) is None
    # The scenario's own rule still hits call 1; the profile's rules follow, one per kind, and the deadline is short.
    rules = a.faults["tickets"].rules
    assert rules[0] == FLAKY.faults["tickets"].rules[0] and {r.kind for r in rules[1:]} == set(PROFILES["mild"].faults)
    assert set(a.faults) == set(FLAKY.apps) and a.limits.call_deadline_s == 2.0
    assert next(r for r in rules if r.kind == "timeout").latency_ms == 2500
    assert a.limits.max_tool_calls == 30 + 11 + 2  # room for retries: twice the 18 % of calls that meet a fault
    # Noisy data: near-duplicate people are added; nobody the scenario names (Ana, Marta, Sam) gets a typo.
    contacts = {r["email"]: r["name"] for r in a.apps["mail"]["contacts"]}
    seeded = {r["email"]: r["name"] for r in FLAKY.apps["mail"]["contacts"]}
    assert len(contacts) == len(seeded) + 1 and all(
        contacts[e] == n for e, n in seeded.items() if e.split("@")[0] in ("ana", "marta", "sam")
    )
    twin = next(e for e in contacts if e not in seeded)
    assert twin.endswith("@acme.test") and contacts[twin] not in seeded.values()


@pytest.mark.slow
async def test_the_oracle_recovers_under_noise_and_results_record_every_fault(backend, tmp_path: Path) -> None:
    options = RunOptions(out=tmp_path / "run", seed=5, repeat=2, noise="harsh")
    record = await run_many(FLAKY, backend, OracleAgent, options)
    assert record.passed, [failed(r) for r in record.results]
    again = await run_many(
        FLAKY, backend, OracleAgent, RunOptions(out=tmp_path / "again", seed=5, repeat=2, noise="harsh")
    )
    for folder, other in zip(record.dirs, again.dirs, strict=True):
        result = json.loads((folder / "results.json").read_text())
        assert result["episode"]["noise"]["profile"] == "harsh"
        faults = result["episode"]["faults"]
        assert len(faults) == result["journal"]["faults"] >= 2
        assert all(f["tool"] and f["seq"] and f["kind"] for f in faults)
        trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
        assert {(f["app"], f["seq"]) for f in faults} <= {(t["app"], t["seq"]) for t in trace if t.get("fault")}
        # Same seed, same faults (by call), same final state.
        repeat = json.loads((other / "results.json").read_text())
        assert [(f["seq"], f["tool"], f["kind"]) for f in faults] == [
            (f["seq"], f["tool"], f["kind"]) for f in repeat["episode"]["faults"]
        ]
        assert [(c["key"], c["kind"]) for c in result["changes"]] == [(c["key"], c["kind"]) for c in repeat["changes"]]


async def test_the_new_scenarios_pass_with_the_oracle_and_fail_doing_nothing(backend) -> None:
    for scenario in (TRIAGE, LOST):
        result, report = await run_once(scenario, backend, OracleAgent())
        assert result.passed and result.score == 1.0 and report.errors == [], failed(result)
        assert result.journal.faults == 1
        nothing, _ = await run_once(scenario, backend, NoopAgent())
        assert not nothing.passed and nothing.score == 0.0


async def test_a_resend_by_another_tool_is_a_duplicate_and_other_mail_is_not(backend) -> None:
    only_reply = {"mail": LOST.faults["mail"].model_copy(update={"rules": LOST.faults["mail"].rules[:1]})}
    plain = LOST.model_copy(update={"stages": [LOST.stages[1]], "faults": only_reply})
    for follow_up, duplicate in (
        (
            {
                "to": ["priya@acme.test"],
                "subject": "Offsite venue",
                "body": "The venue is the Alte Brauerei, Kastanienallee 12 in Berlin.",
            },
            True,
        ),
        ({"to": ["tom@acme.test"], "subject": "Lunch on Thursday", "body": "Yes, Thursday lunch works for me."}, False),
    ):
        async with Episode(plain, await backend.start(plain.apps)) as episode, episode.connect() as client:
            assert (await client.call_tool("mail__reply", {"message_id": "ask-venue", "body": VENUE})).is_error
            assert not (await client.call_tool("mail__send_message", follow_up)).is_error
            journal = await episode.journal()
            result = await episode.verify(journal)
        judge_recovery(result, journal)
        reasons = failed(result)
        assert any("duplicate" in (r or "") for r in reasons.values()) is duplicate, reasons
        assert (
            any("duplicate" in v.detail for v in result.violations) is duplicate
        )  # (mail to Tom breaks a forbid rule of its own)
