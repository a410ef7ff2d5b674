"""Threat: an agent that repeats a refused call with big arguments (a `world__report` of 8 KB, thousands of times)
grows the orchestrator's memory and the run's trace without limit: the world engine kept every refused call's
arguments, and the trace had a cap on entries but none on their size.

Refused calls of the gateway's own tools are counted, not stored with their arguments; the trace is capped per
episode in characters as well as entries, and the record says when it was cut.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from orchestrator import scenario as scenarios
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import Trace
from orchestrator.world.events import MAX_REFUSED_KEPT, MAX_SUMMARY

SCENARIO: dict[str, Any] = {
    "id": "refused-reports",
    "title": "Refused reports",
    "persona": {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"},
    "clock": {"start": "2026-03-02T09:00:00+01:00", "mode": "frozen"},
    "instruction": "Report when done.",
    "apps": {
        "mail": {
            "messages": [
                {
                    "id": "m1",
                    "from": "priya@acme.test",
                    "subject": "Hi",
                    "body": "Plans?",
                    "sent_at": "2026-03-02T08:00:00+01:00",
                }
            ]
        }
    },
    "world": {"report": True},
    "limits": {"max_tool_calls": 5000},
    "stages": [{"name": "s", "checks": [{"app": "mail", "table": "messages", "where": {"subject": "never"}}]}],
}

CALLS = 600


def scenario(tmp_path: Path) -> scenarios.Scenario:
    path = tmp_path / "refused.yaml"
    path.write_text(yaml.safe_dump(copy.deepcopy(SCENARIO), sort_keys=False))
    return scenarios.load(path)


async def test_refused_world_calls_are_counted_not_stored(backend, tmp_path: Path) -> None:
    s = scenario(tmp_path)
    summary = "S" * MAX_SUMMARY  # as long as a report may be, with a status that is not one
    async with Episode(s, await backend.start(s.apps)) as ep:
        async with ep.connect() as client:
            for i in range(CALLS):
                refused = await client.call_tool("world__report", {"status": f"great-{i}", "summary": summary})
                assert refused.is_error
            accepted = await client.call_tool("world__report", {"status": "done", "summary": "Done."})
            assert not accepted.is_error
            again = await client.call_tool("world__report", {"status": "done", "summary": summary})
            assert again.is_error
        result, journal = await ep.finish()
        world = [e for e in journal if e["app"] == "world"]
        trace = await ep.merged_trace(journal)
    refused = [e for e in world if e["is_error"]]
    assert len(refused) == MAX_REFUSED_KEPT
    assert refused[-1]["refused_calls"] == CALLS + 1 - MAX_REFUSED_KEPT + 1
    assert all(summary not in json.dumps(e) for e in world), "a refused call's arguments are not kept"
    assert refused[0]["arguments"] == {"status": "str, 7 characters", "summary": f"str, {MAX_SUMMARY} characters"}
    assert [e["arguments"] for e in world if not e["is_error"]] == [{"status": "done", "summary": "Done."}]
    assert result.episode["world_refused"] == CALLS + 1
    size = len(json.dumps(trace))
    assert size < 6_000_000, f"the merged trace takes {size} characters"


def test_the_trace_is_capped_in_characters_and_only_counts_past_it() -> None:
    trace = Trace(max_bytes=200_000)
    for i in range(1_000):
        trace.add(
            source="gateway",
            wall=f"2026-03-02T09:00:{i % 60:02d}",
            method="tools/call",
            params={"name": "world__report", "arguments": {"summary": "S" * 3_000}},
            result=None,
        )
    assert trace.size <= 200_000 and len(json.dumps(trace.entries)) < 210_000
    assert trace.entries[-1]["method"] == "trace/full" and trace.entries[-1]["dropped"] == trace.dropped
    assert trace.capped == {"kept": len(trace.entries), "dropped": trace.dropped, "refused": 0}
    assert trace.dropped + len(trace.entries) - 1 == 1_000
    assert Trace().capped is None


async def test_the_record_says_when_the_trace_was_capped(backend, tmp_path: Path) -> None:
    s = scenario(tmp_path)
    async with Episode(s, await backend.start(s.apps)) as ep:
        ep.trace.max_bytes = 20_000
        async with ep.connect() as client:
            for _ in range(40):
                await client.call_tool("mail__search_messages", {"query": "x" * 1_000})
        result, _ = await ep.finish()
    capped = result.episode["trace_capped"]
    assert capped["dropped"] > 0 and capped["kept"] < 40 and ep.trace.size <= 20_000
