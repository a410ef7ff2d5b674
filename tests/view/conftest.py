"""Real run folders for the viewer: episodes made by the runner against in-process app servers.

- `oracle`: the reference solution of the travel scenario (passes);
- `leaky`: an agent that files nothing, fails a call, mails the itinerary outside the organization and Priya no link
  (fails, with an exposure violation caused by its `mail__send_message` call); it also writes the
  conversation it "had" to `messages.json`, as agents that keep their messages do;
- `repeat`: the oracle twice (`--repeat 2`), a summary with pass@k over `episode-001/`, `episode-002/`;
- `flaky`: the reference solution of a scenario whose first ticket creation fails by an injected fault;
- `suite`: the noop agent over two scenarios, as `orchestrator run a.yaml b.yaml` writes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import anyio
import pytest
from helpers import OUTSIDER, SCENARIOS, TRAVEL_PATH

from orchestrator import record
from orchestrator import scenario as scenarios
from orchestrator.agents.base import Agent, AgentReport, NoopAgent, OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode
from orchestrator.run import suite
from orchestrator.run.runner import RunOptions, run_many

TRAVEL = scenarios.load(TRAVEL_PATH)


class LeakyAgent(Agent):
    name = "leaky"

    async def run(self, episode: Episode) -> AgentReport:
        report = AgentReport(agent=self.name)
        async with episode.connect() as client:
            missing = await client.call_tool("calendar__get_event", {"event_id": "no-such-event"})
            assert missing.is_error
            sent = await client.call_tool(
                "mail__send_message",
                {
                    "to": [OUTSIDER],
                    "subject": "Berlin itinerary",
                    "body": "We stay at Motel One Berlin-Mitte, 3-6 March.",
                },
            )
            assert not sent.is_error, sent.content[0].text
            told = await client.call_tool(
                "mail__send_message",
                {"to": ["priya@acme.test"], "subject": "Berlin", "body": "The itinerary is coming soon."},
            )
            assert not told.is_error, told.content[0].text
            report.tool_calls = 3
        assert episode.workdir is not None
        messages = [
            {"role": "user", "content": "Priya emailed me about the Berlin offsite."},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "I will tell our partner about the trip."},
                    {"type": "tool_use", "name": "mail__send_message", "input": {"to": [OUTSIDER]}},
                ],
            },
        ]
        episode.workdir.mkdir(parents=True, exist_ok=True)
        (episode.workdir / "messages.json").write_text(json.dumps(messages))
        return report


def make_runs(root: Path) -> dict[str, Path]:
    async def main() -> None:
        async with InProcessBackend() as backend:
            # an older run, as its record says: the date filter must tell them apart
            with mock.patch.object(record, "now", lambda: "2025-01-15T12:00:00+00:00"):
                await run_many(TRAVEL, backend, OracleAgent, RunOptions(out=root / "oracle", seed=1))
            await run_many(TRAVEL, backend, LeakyAgent, RunOptions(out=root / "leaky", seed=2))
            await run_many(TRAVEL, backend, OracleAgent, RunOptions(out=root / "repeat", seed=3, repeat=2))
            flaky = scenarios.load(SCENARIOS / "flaky-ticketing.yaml")
            await run_many(flaky, backend, OracleAgent, RunOptions(out=root / "flaky", seed=4))
            runs = suite.load_all([TRAVEL_PATH, SCENARIOS / "reschedule-conflict.yaml"])
            await suite.run_suite(runs, backend, NoopAgent, suite.SuiteOptions(out=root / "suite", agent="noop"))

    anyio.run(main)
    return {"oracle": root / "oracle", "leaky": root / "leaky", "repeat": root / "repeat", "suite": root / "suite"}


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    make_runs(root)
    return root
