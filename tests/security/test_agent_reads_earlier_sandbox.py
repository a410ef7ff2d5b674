"""Threat: an agent finds what an earlier episode's agent wrote, through the tools, now that a sandbox seeds on a
database an earlier sandbox of its app used: a connection emptied and seeded again (`servers.core.images.
EmptyDatabases`), or a database rolled back to its seeded state and kept warm (`servers.core.images.WarmDatabases`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import SCENARIOS

from orchestrator import scenario as scenarios
from orchestrator.episode.episode import Episode
from servers.core import images
from servers.core import sandbox as sandbox_module

SCENARIO = scenarios.load(SCENARIOS / "reschedule-conflict.yaml")
MARK = "left-behind-7f3a"


@pytest.fixture(params=["emptied", "rolled back"])
def handed_on(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Any]]]:
    """What sandboxes gave back and what they were given, to show the reuse happened: emptied connections (no
    database is kept warm), or databases rolled back and kept warm."""
    seen: dict[str, list[Any]] = {"given": [], "taken": []}
    images.SEED_IMAGES.clear()  # no seeded image of this scenario from an earlier test: every sandbox seeds afresh
    images.EMPTY_DATABASES.clear()
    images.WARM_DATABASES.clear()
    monkeypatch.setenv("CLAWGYM_IMAGES", "off")  # no world image from a file of an earlier run either
    if request.param == "emptied":  # nothing kept warm and no image: each sandbox seeds on an emptied connection
        monkeypatch.setattr(images.WARM_DATABASES, "per_key", 0)
        monkeypatch.setattr(images.SEED_IMAGES, "max_items", 0)
        pool: Any = images.EMPTY_DATABASES
    else:  # kept warm however small (by default only a large world is kept for its own episode seed)
        monkeypatch.setattr(sandbox_module, "PARK_MIN_BYTES", 0)
        pool = images.WARM_DATABASES
    take, give = pool.take, pool.give

    def spy_take(*args: Any) -> Any:
        if (got := take(*args)) is not None:
            seen["taken"].append(got)
        return got

    def spy_give(*args: Any) -> Any:
        kept = give(*args)
        if kept is not False:
            seen["given"].append(args[-1] if request.param == "emptied" else args[2])
        return kept

    monkeypatch.setattr(pool, "take", spy_take)
    monkeypatch.setattr(pool, "give", spy_give)
    seen["second_seed"] = [2 if request.param == "emptied" else 1]  # a warm database serves its own episode seed
    yield seen
    images.WARM_DATABASES.clear()


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

    async with (
        Episode(SCENARIO, await backend.start(SCENARIO.apps), rng_seed=handed_on["second_seed"][0]) as second,
        second.connect() as client,
    ):
        taken = handed_on["taken"][taken_before:]  # seeded afresh, or rolled back
        assert len(taken) >= len(SCENARIO.apps) and all(id(conn) in given for conn in taken), (
            "the second episode was not seeded on the first one's databases: this test shows nothing"
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
