"""The seal covers everything the viewer shows and binds each record to where it was written.

An episode's seal covers its agent.log, messages.json and mcp.json besides its verdict and trace, and names its
run (run.json in the run's folder) and its folder in the run; a repeat's and a suite's summary is sealed too. So
an edited log, conversation or summary, and a sealed pass copied into another episode's folder or another run, are
refused by verify-digest and flagged in the viewer. A whole run copied elsewhere, its run.json with it, still
verifies. Real runs: the runner with a command agent (agent.log, mcp.json), an in-process agent that keeps its
conversation (messages.json), the oracle and noop agents, and a suite."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from starlette.testclient import TestClient
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents.base import AgentReport, NoopAgent, OracleAgent
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.episode.episode import Episode
from orchestrator.record import AGENT_LOG, MCP_CONFIG, MESSAGES, RESULTS, RUN_FILE, TRACE, verify_digest, verify_summary
from orchestrator.run import suite
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.app import create_app

TRAVEL = scenarios.load(TRAVEL_PATH)


class TalkingOracle(OracleAgent):
    """The reference solution, keeping the conversation it "had" in messages.json as model agents do."""

    name = "talking-oracle"

    async def run(self, episode: Episode) -> AgentReport:
        report = await super().run(episode)
        assert episode.workdir is not None
        conversation = [{"role": "user", "content": "Plan the Berlin trip."}, {"role": "assistant", "content": "Done."}]
        (episode.workdir / MESSAGES).write_text(json.dumps(conversation))
        return report


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bound")

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(
                TRAVEL, backend, lambda: CommandAgent("echo the agent says hello"), RunOptions(out=root / "cmd", seed=1)
            )
            await run_many(TRAVEL, backend, TalkingOracle, RunOptions(out=root / "talk", seed=2))
            await run_many(TRAVEL, backend, OracleAgent, RunOptions(out=root / "pass", seed=3))
            await run_many(TRAVEL, backend, NoopAgent, RunOptions(out=root / "fail", seed=4))
            await run_many(TRAVEL, backend, OracleAgent, RunOptions(out=root / "repeat", seed=5, repeat=2))
            await run_many(TRAVEL, backend, NoopAgent, RunOptions(out=root / "other-repeat", seed=6, repeat=2))
            files = suite.load_all(
                [TRAVEL_PATH, SCENARIOS / "reschedule-conflict.yaml", SCENARIOS / "inbox-triage.yaml"]
            )
            await suite.run_suite(files, backend, NoopAgent, suite.SuiteOptions(out=root / "suite", agent="noop"))

    anyio.run(main)
    return root


@pytest.fixture
def copy(runs: Path, tmp_path: Path) -> Path:
    """A copy of every run (a whole run copied elsewhere, with its run.json: still as sealed)."""
    shutil.copytree(runs, tmp_path / "runs")
    return tmp_path / "runs"


def verify(*folders: Path) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["verify-digest", *map(str, folders)])
    return done.exit_code, " ".join(done.output.split())


def flags(root: Path, rid: str) -> str:
    """The list's table row of episode `rid`, with its flags."""
    listing = TestClient(create_app([root]), base_url="http://127.0.0.1").get("/").text
    return listing.split(f'href="/run/{rid}"')[1].split("</tr>")[0]


def test_every_record_verifies_where_it_was_written_and_in_a_whole_copy(runs: Path, copy: Path) -> None:
    for root in (runs, copy):
        code, output = verify(root)
        assert code == 0, output
        assert output.count("digest matches") == 4 + 2 + 2 + 2 + 3 + 1  # episodes, repeat and suite summaries
    record = json.loads((runs / "cmd" / RESULTS).read_text())
    assert (runs / "cmd" / AGENT_LOG).read_text().strip().endswith("the agent says hello")
    assert set(json.loads(record["digest"]["files"])) == {AGENT_LOG, MCP_CONFIG}
    assert record["episode"]["run"] == json.loads((runs / "cmd" / RUN_FILE).read_text())["run"]
    assert record["episode"]["folder"] == "."
    assert record["episode"]["scenario_sha256"] == hashlib.sha256(TRAVEL_PATH.read_bytes()).hexdigest()
    second = json.loads((runs / "repeat" / "episode-002" / RESULTS).read_text())["episode"]
    assert (
        second["folder"] == "episode-002"
        and second["run"] == json.loads((runs / "repeat" / RESULTS).read_text())["run"]
    )
    nested = json.loads((runs / "suite" / "reschedule-conflict" / RESULTS).read_text())["episode"]
    assert (
        nested["folder"] == "reschedule-conflict"
        and nested["run"] == json.loads((runs / "suite" / RESULTS).read_text())["run"]
    )


@pytest.mark.parametrize(
    ("folder", "name", "change"),
    [
        ("cmd", AGENT_LOG, lambda text: text.replace("hello", "I passed every check")),
        ("cmd", MCP_CONFIG, lambda text: text.replace("127.0.0.1", "evil.example")),
        ("talk", MESSAGES, lambda text: text.replace("Done.", "I booked everything and told Priya.")),
        ("pass", AGENT_LOG, None),  # added after the seal
        ("talk", MESSAGES, ""),  # removed
    ],
)
def test_an_edited_added_or_removed_file_the_viewer_shows_is_refused(
    copy: Path, folder: str, name: str, change: object
) -> None:
    path = copy / folder / name
    if change is None:
        path.write_text("all checks passed\n")
    elif change == "":
        path.unlink()
    else:
        path.write_text(change(path.read_text()))  # type: ignore[operator]  # `change` is a text edit when given
    problems = verify_digest(copy / folder)
    assert problems and name in problems[0], problems
    code, output = verify(copy / folder)
    assert code == 1 and name in output
    assert "seal broken" in flags(copy, folder)


def test_a_sealed_pass_copied_into_another_episodes_folder_is_refused(copy: Path) -> None:
    # within a repeat: episode-001's pass over episode-002's record
    for name in (RESULTS, TRACE):
        shutil.copy(copy / "repeat" / "episode-001" / name, copy / "repeat" / "episode-002" / name)
    problems = verify_digest(copy / "repeat" / "episode-002")
    assert (
        len(problems) == 1 and "'episode-001'" in problems[0] and "copied from another episode's folder" in problems[0]
    )
    # from another run: the oracle's pass over the noop's failure (a single run), and over another repeat's episode
    for name in (RESULTS, TRACE):
        shutil.copy(copy / "pass" / name, copy / "fail" / name)
        shutil.copy(copy / "repeat" / "episode-001" / name, copy / "other-repeat" / "episode-001" / name)
    for target in (copy / "fail", copy / "other-repeat" / "episode-001"):
        problems = verify_digest(target)
        assert problems and all("copied from another run" in p for p in problems), problems
        code, output = verify(target)
        assert code == 1 and "copied from another run" in output
    assert "seal broken" in flags(copy, "fail")
    assert "seal broken" in flags(copy, "other-repeat/episode-001")
    assert verify_digest(copy / "pass") == [] and verify_digest(copy / "repeat" / "episode-001") == []


def test_an_edited_suite_or_repeat_summary_is_refused_and_flagged(copy: Path) -> None:
    summary = json.loads((copy / "suite" / RESULTS).read_text())
    assert summary["total"]["failed"] == 3 and verify_summary(copy / "suite") == []
    summary["total"] |= {"passed": 3, "failed": 0, "passes": 3}
    summary["passed"] = True
    (copy / "suite" / RESULTS).write_text(json.dumps(summary))
    assert "do not match its digest" in verify_summary(copy / "suite")[0]
    code, output = verify(copy / "suite")
    assert code == 1 and "suite the totals" in output
    client = TestClient(create_app([copy]), base_url="http://127.0.0.1")
    head = client.get("/group/suite").text.split("<h1>")[1].split("</p>")[0]
    assert "seal broken" in head
    assert "seal broken" in client.get("/").text.split('href="/group/suite"')[1].split("</tr>")[0]
    repeat = json.loads((copy / "other-repeat" / RESULTS).read_text())
    (copy / "other-repeat" / RESULTS).write_text(json.dumps(repeat | {"passes": 2, "passed": True}))
    code, output = verify(copy / "other-repeat")
    assert code == 1 and "repeat the totals" in output
    # a summary from another run in its place: each of its episodes names another run
    shutil.copy(copy / "repeat" / RESULTS, copy / "other-repeat" / RESULTS)
    assert "copied from another run" in verify_digest(copy / "other-repeat" / "episode-001")[0]
