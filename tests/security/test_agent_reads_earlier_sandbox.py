"""Threat: an agent finds what an earlier episode's agent wrote, through the tools, now that a sandbox seeds on a
database connection an earlier sandbox of its app used (`servers.core.images.EmptyDatabases`)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import SCENARIOS

from orchestrator import scenario as scenarios
from orchestrator.episode.episode import Episode
from servers.core import images

SCENARIO = scenarios.load(SCENARIOS / "reschedule-conflict.yaml")
MARK = "left-behind-7f3a"


@pytest.fixture
def handed_on(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """The connections sandboxes gave back and the ones they were given, to show the reuse happened."""
    seen: dict[str, list[Any]] = {"given": [], "taken": []}
    images.SEED_IMAGES.clear()  # no seeded image of this scenario from an earlier test: every sandbox seeds afresh
    pool = images.EMPTY_DATABASES
    pool.clear()
    take, give = pool.take, pool.give

    def spy_take(app: Any) -> Any:
        seen["taken"].append(conn := take(app))
        return conn

    def spy_give(app: Any, conn: Any) -> None:
        seen["given"].append(conn)
        give(app, conn)

    monkeypatch.setattr(pool, "take", spy_take)
    monkeypatch.setattr(pool, "give", spy_give)
    return seen


async def test_an_agent_finds_nothing_an_earlier_episode_wrote(backend: Any, handed_on: dict[str, list[Any]]) -> None:
    async with Episode(SCENARIO, await backend.start(SCENARIO.apps), rng_seed=1) as first, first.connect() as client:
        made = await client.call_tool(
            "calendar__create_event",
            {"title": f"{MARK} planning", "start": "2026-03-04T10:00", "description": MARK},
        )
        assert not made.is_error
        left = made.structured_content["id"]
        sent = await client.call_tool("mail__send_message", {"to": ["priya@acme.test"], "subject": MARK, "body": MARK})
        assert not sent.is_error
    given = {id(conn) for conn in handed_on["given"]}
    assert len(given) >= len(SCENARIO.apps)  # the first episode's connections went back
    taken_before = len(handed_on["taken"])

    async with Episode(SCENARIO, await backend.start(SCENARIO.apps), rng_seed=2) as second, second.connect() as client:
        taken = handed_on["taken"][taken_before:]  # another episode seed: every app seeded afresh
        assert len(taken) >= len(SCENARIO.apps) and all(id(conn) in given for conn in taken), (
            "the second episode was not seeded on the first one's connections: this test shows nothing"
        )
        seen = []
        for tool, args in [
            ("calendar__search_events", {"query": MARK}),
            ("calendar__list_events", {}),
            ("calendar__get_event", {"event_id": left}),
            ("mail__search_messages", {"query": MARK}),
            ("mail__search_messages", {"query": "in:sent"}),
        ]:
            result = await client.call_tool(tool, args)
            seen.append((tool, result.is_error, str(result.structured_content), result.content[0].text))
        assert all(MARK not in text and MARK not in structured for _, _, structured, text in seen), seen
        assert seen[2][1]  # the event the first agent made is not there
        journal = await second.journal()  # the second agent's calls only, changing nothing
        assert sorted(e["tool"] for e in journal if e.get("tool")) == sorted(tool for tool, *_ in seen)
        assert all(not entry.get("changes") for entry in journal)
