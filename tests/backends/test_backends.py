"""The backend interface behaves the same in process and over HTTP with local processes."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from helpers import structured

from orchestrator.backends import make_backend
from orchestrator.backends.base import BackendError
from servers.core import FaultPlan, FaultRule, SandboxSpec

SPEC = SandboxSpec(
    seed={"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]},
    clock={"start": "2026-03-02T09:00:00+01:00"},
)


@pytest.mark.parametrize("name", ["inprocess", "local"])
async def test_endpoint_lifecycle(name: str) -> None:
    async with make_backend(name) as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("life", SPEC)
        assert await endpoint.advance_clock("life", 3600) == "2026-03-02T10:00:00+01:00"
        await endpoint.set_faults("life", FaultPlan(rules=[FaultRule(tool="get_ticket", calls=[1], message="busy")]))
        async with endpoint.connect("life") as client:
            failed = await client.call_tool("get_ticket", {"key": "OPS-1"})
            assert failed.is_error and failed.content[0].text == "busy"
            moved = structured(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_progress"}))
        assert moved["updated_at"] == "2026-03-02T10:00:00+01:00"
        journal = await endpoint.journal("life")
        assert [(j["tool"], j["is_error"]) for j in journal] == [("get_ticket", True), ("transition_ticket", False)]
        await endpoint.reset("life")
        assert (await endpoint.snapshot("life"))["tickets"][0]["status"] == "todo"
        assert await endpoint.journal("life") == []
        await endpoint.delete("life")


@pytest.mark.parametrize("scenario", ["travel.yaml", "flaky-ticketing.yaml", "rate-limited-triage.yaml"])
@pytest.mark.slow
async def test_the_agent_sees_the_same_episode_in_process_and_on_local(scenario: str) -> None:
    """Same scenario, seed and calls: the same answers (the gateway's name on them, never an app server's), the
    same journal and the same verdict, whether the apps run in this process or as servers over HTTP."""
    from helpers import ROOT

    from orchestrator.agents.base import OracleAgent
    from orchestrator.episode.episode import Episode
    from orchestrator.scenario import load

    s = load(ROOT / "scenarios" / scenario)

    async def run(name: str) -> tuple[Any, ...]:
        async with make_backend(name) as backend:
            async with Episode(s, await backend.start(s.apps), rng_seed=5) as episode:
                async with episode.connect() as client:
                    named = (await client.call_tool(s.oracle[0].tool, s.oracle[0].args)).meta
                await OracleAgent().run(episode)
                journal = await episode.journal()
                result = await episode.verify(journal)
                answers = [(e["method"], e["result"]) for e in episode.trace.entries]
        steady = [{k: v for k, v in e.items() if k not in ("wall", "latency_ms")} for e in journal]
        return named, answers, steady, result.score, [(c.id, c.passed, c.reason) for c in result.checks]

    in_process, local = await run("inprocess"), await run("local")
    assert in_process == local
    assert in_process[0]["io.modelcontextprotocol/serverInfo"]["name"] == "clawgym"


@pytest.mark.parametrize("name", ["inprocess", "local"])
async def test_a_clock_change_out_of_the_years_1_to_9999_is_refused_on_every_backend(name: str) -> None:
    late = SandboxSpec(seed=SPEC.seed, clock={"start": "9990-01-01T00:00:00+00:00"})
    async with make_backend(name) as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("late", late)
        with pytest.raises(BackendError, match="outside the years 1 to 9999"):
            await endpoint.advance_clock("late", 20 * 365 * 86400)
        with pytest.raises(BackendError, match="invalid ClockChange request: advance_seconds"):
            await endpoint.advance_clock("late", 1e11)
        assert await endpoint.advance_clock("late", 3600) == "9990-01-01T01:00:00+00:00"
        await endpoint.delete("late")


@pytest.mark.parametrize("name", ["inprocess", "local"])
async def test_admin_operations_wait_for_a_call_in_flight_on_every_backend(name: str) -> None:
    """A snapshot, journal or delete asked while a tool call runs waits for it, in process as over HTTP: the snapshot
    shows the call's change, the call is not cut off by the delete, and a snapshot queued behind the delete is told
    the sandbox is gone (not an error from its closed database)."""
    slow = FaultPlan(rules=[FaultRule(tool="transition_ticket", kind="latency", latency_ms=800, calls=[1, 2])])
    async with make_backend(name) as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("busy", SPEC)
        await endpoint.set_faults("busy", slow)
        answers: list[Any] = []
        failures: list[BaseException] = []

        async def transition(status: str) -> None:
            async with endpoint.connect("busy") as client:
                answers.append(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": status}))

        async def snapshot_after_delete() -> None:
            try:
                await endpoint.snapshot("busy")
            except BackendError as exc:
                failures.append(exc)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(transition, "in_progress")
            await anyio.sleep(0.3)  # the call now waits out its latency, holding the sandbox's lock
            assert (await endpoint.snapshot("busy"))["tickets"][0]["status"] == "in_progress"
            assert [e["tool"] for e in await endpoint.journal("busy")] == ["transition_ticket"]
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(transition, "done")
            await anyio.sleep(0.3)
            tasks.start_soon(endpoint.delete, "busy")
            await anyio.sleep(0.1)
            tasks.start_soon(snapshot_after_delete)
        assert [a.is_error for a in answers] == [False, False], answers
        assert structured(answers[1])["status"] == "done"
        assert len(failures) == 1 and "no sandbox with id 'busy'" in str(failures[0]), failures


async def test_create_and_snapshot_and_state_read_what_the_separate_calls_read_on_every_backend() -> None:
    """An episode seeds with `create_and_snapshot` and ends with `state` (one request each over HTTP); on both
    backends they give what `create_sandbox`, `snapshot` and `journal` give, and the final state is read after the
    calls, not before."""

    async def run(name: str) -> tuple[Any, ...]:
        async with make_backend(name) as backend:
            endpoint = (await backend.start(["tickets"]))["tickets"]
            secret, seeded = await endpoint.create_and_snapshot("pair", SPEC)
            assert (secret is None) == (name == "inprocess")  # over HTTP its MCP endpoint needs the secret
            assert seeded == await endpoint.snapshot("pair")
            async with endpoint.connect("pair") as client:  # the secret kept by create_and_snapshot
                await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_progress"})
            tables, journal = await endpoint.state("pair")
            assert tables == await endpoint.snapshot("pair") and journal == await endpoint.journal("pair")
            await endpoint.delete("pair")
            steady = [{k: v for k, v in e.items() if k not in ("wall", "latency_ms")} for e in journal]
            return seeded, tables, steady

    in_process, local = await run("inprocess"), await run("local")
    assert in_process == local
    seeded, tables, journal = local
    assert seeded["tickets"][0]["status"] == "todo" and tables["tickets"][0]["status"] == "in_progress"
    assert [e["tool"] for e in journal] == ["transition_ticket"]
