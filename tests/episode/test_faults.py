"""Faults like production's, through the gateway with a real MCP client: what the agent sees and what the journal keeps."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from helpers import SCENARIOS

from orchestrator import scenario as scenarios
from orchestrator.backends import make_backend
from orchestrator.backends.base import Backend
from orchestrator.episode.episode import Episode

FLAKY = scenarios.load(SCENARIOS / "flaky-ticketing.yaml")
TICKET = {
    "project": "WEB",
    "title": "Reset link expires at once",
    "type": "bug",
    "labels": ["web"],
    "description": "steps",
}


def with_faults(rules: list[dict[str, Any]], **limits: Any) -> scenarios.Scenario:
    data = FLAKY.model_dump(mode="json")
    data["faults"] = {"tickets": {"rules": rules}}
    data["limits"] = {**data["limits"], **limits}
    return scenarios.Scenario.model_validate(data)


def text(result: Any) -> str:
    return result.content[0].text if result.content else ""


async def tickets_journal(episode: Episode) -> list[dict[str, Any]]:
    return [j for j in await episode.journal() if j["app"] == "tickets"]


async def added_tickets(episode: Episode) -> list[dict[str, Any]]:
    final = await episode.final_state()
    return [
        t
        for t in final["tickets"]["tickets"]
        if t["key"] not in {s["key"] for s in episode.seeded["tickets"]["tickets"]}
    ]


@pytest.fixture(params=["inprocess", "local"])
async def either_backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """In process, and over HTTP (where giving up on a call closes its request to the app server)."""
    async with make_backend(request.param) as backend:
        yield backend


async def test_timeout_hits_the_gateway_deadline_and_changes_nothing(either_backend: Backend) -> None:
    backend = either_backend
    scenario = with_faults([{"tool": "create_ticket", "kind": "timeout", "calls": [1]}], call_deadline_s=0.3)
    assert scenario.faults["tickets"].rules[0].latency_ms == 800  # hangs just past the deadline
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        started = time.perf_counter()
        first = await client.call_tool("tickets__create_ticket", TICKET)
        waited = time.perf_counter() - started
        assert first.is_error and "timed out" in text(first) and 0.3 <= waited < 0.8
        second = await client.call_tool("tickets__create_ticket", TICKET)  # the session is still usable
        assert not second.is_error
        journal = await tickets_journal(episode)
        assert [j["fault"]["kind"] if j["fault"] else None for j in journal] == ["timeout", None]
        assert journal[0]["is_error"] and journal[0]["changes"] == []
        assert len(await added_tickets(episode)) == 1  # the timed-out call did not happen


async def test_rate_limit_names_when_to_retry_and_refuses_until_then(backend) -> None:
    scenario = with_faults([{"tool": "create_ticket", "kind": "rate_limit", "calls": [1], "retry_after_s": 0.5}])
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        first = await client.call_tool("tickets__create_ticket", TICKET)
        assert first.is_error and "429" in text(first) and "Retry after 0.5 seconds" in text(first)
        hammered = await client.call_tool("tickets__create_ticket", TICKET)
        assert hammered.is_error and "429" in text(hammered)
        other = await client.call_tool("tickets__get_ticket", {"key": "WEB-88"})
        assert not other.is_error  # the limit covers the rule's tool only
        await anyio.sleep(0.55)
        assert not (await client.call_tool("tickets__create_ticket", TICKET)).is_error
        journal = await tickets_journal(episode)
        kinds = [(j["tool"], (j["fault"] or {}).get("kind"), (j["fault"] or {}).get("repeat")) for j in journal]
        assert kinds == [
            ("tickets__create_ticket", "rate_limit", None),
            ("tickets__create_ticket", "rate_limit", True),
            ("tickets__get_ticket", None, None),
            ("tickets__create_ticket", None, None),
        ]
        assert journal[0]["fault"]["retry_after_s"] == 0.5 and journal[0]["fault"]["until"]


async def test_unavailable_takes_the_whole_app_down_for_a_while(backend) -> None:
    scenario = with_faults([{"tool": "get_ticket", "kind": "unavailable", "calls": [1], "duration_s": 0.4}])
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        first = await client.call_tool("tickets__get_ticket", {"key": "WEB-88"})
        other = await client.call_tool("tickets__list_projects", {})
        assert first.is_error and other.is_error and "503" in text(other)
        assert not (await client.call_tool("mail__list_folders", {})).is_error  # other apps stay up
        await anyio.sleep(0.45)
        assert not (await client.call_tool("tickets__list_projects", {})).is_error
        faults = [(j["fault"] or {}).get("kind") for j in await tickets_journal(episode)]
        assert faults == ["unavailable", "unavailable", None]


async def test_lost_reply_commits_the_change_but_answers_with_an_error(backend) -> None:
    scenario = with_faults([{"tool": "create_ticket", "kind": "lost_reply", "calls": [1]}])
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        first = await client.call_tool("tickets__create_ticket", TICKET)
        assert first.is_error and "502" in text(first)
        added = await added_tickets(episode)
        assert len(added) == 1  # committed
        journal = await tickets_journal(episode)
        # Journaled as what it was in the app, a success, with what the agent was told instead.
        assert (
            journal[0]["fault"]["kind"] == "lost_reply" and not journal[0]["is_error"] and "502" in journal[0]["error"]
        )
        assert journal[0]["result"]["key"] == added[0]["key"]  # the journal keeps what the agent never saw
        assert [c["op"] for c in journal[0]["changes"] if c["table"] == "tickets"] == ["insert"]


async def test_stale_read_hides_recent_changes_from_reads_only(backend) -> None:
    scenario = with_faults([{"tool": "search_tickets", "kind": "stale_read", "calls": [1], "delay_s": 30}])
    async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
        created = (await client.call_tool("tickets__create_ticket", TICKET)).structured_content
        await client.call_tool("tickets__transition_ticket", {"key": "WEB-89", "status": "in_progress"})
        stale = (await client.call_tool("tickets__search_tickets", {"project": "WEB"})).structured_content
        fresh = (await client.call_tool("tickets__search_tickets", {"project": "WEB"})).structured_content
        keys = lambda r: {t["key"]: t["status"] for t in r["tickets"]}  # noqa: E731
        assert created["key"] not in keys(stale) and keys(stale)["WEB-89"] == "todo"
        assert created["key"] in keys(fresh) and keys(fresh)["WEB-89"] == "in_progress"
        journal = await tickets_journal(episode)
        assert journal[2]["fault"]["kind"] == "stale_read" and journal[2]["fault"]["hidden_changes"] >= 2
        assert journal[2]["changes"] == [] and journal[3]["fault"] is None
        assert len(await added_tickets(episode)) == 1  # the hidden changes are back


async def test_same_seed_same_faults_same_final_state(backend) -> None:
    rules = [
        {"kind": k, "probability": 0.25, "retry_after_s": 0.01, "duration_s": 0.01, "latency_ms": 1}
        for k in ("lost_reply", "error", "rate_limit", "unavailable", "latency")
    ]
    scenario = with_faults(rules)

    async def run(seed: int) -> tuple[list[Any], dict[str, Any]]:
        async with (
            Episode(scenario, await backend.start(scenario.apps), rng_seed=seed) as episode,
            episode.connect() as client,
        ):
            for n in range(12):
                await client.call_tool("tickets__create_ticket", {**TICKET, "title": f"ticket {n}"})
                await anyio.sleep(0.02)  # past every window
            faults = [(j["seq"], (j["fault"] or {}).get("kind")) for j in await tickets_journal(episode)]
            final = await episode.final_state()
        return faults, final

    first, again, other = await run(3), await run(3), await run(4)
    assert first == again and first[0] != other[0]
    assert len({kind for _, kind in first[0]}) >= 3
