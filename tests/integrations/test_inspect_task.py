"""ClawGym inside inspect-ai: inspect's `react()` agent, driven by its `mockllm` model, calls a real episode's tools
through inspect's MCP client over Streamable HTTP, and ClawGym's verifier scores the episode.

mockllm is scripted with ModelOutputs that carry usage: without it mockllm counts tokens with tiktoken, which
downloads its encoding (no network here)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

import anyio  # noqa: E402
from inspect_ai import Task, eval_async  # noqa: E402
from inspect_ai.agent import AgentState, agent  # noqa: E402
from inspect_ai.log import EvalLog  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.tool import ToolDef, mcp_connection  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from orchestrator.agents.base import substitute  # noqa: E402
from orchestrator.cli import app  # noqa: E402
from orchestrator.env import ClawGymEnv  # noqa: E402
from orchestrator.integrations.inspect_task import (  # noqa: E402
    TRAVEL,
    clawgym_agent,
    clawgym_verdict,
    dataset,
    scenarios,
    travel,
)
from orchestrator.integrations.tasks import TaskSetError  # noqa: E402
from tests.helpers import ROOT, SCENARIOS, TRAVEL_PATH  # noqa: E402

pytestmark = pytest.mark.slow  # an inspect eval takes 5-6 s here (inspect's own start-up and log writing)


def output(tool: str, arguments: dict[str, Any]) -> ModelOutput:
    """A scripted model turn: one tool call, with usage given so mockllm does not count tokens."""
    out = ModelOutput.for_tool_call("mockllm/model", tool, arguments)
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return out


async def reference_calls(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The reference solution's calls with every `${saved.path}` resolved, as the oracle makes them in an episode of
    the same seed (the sandboxes' ids are the same for the same seed)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    async with ClawGymEnv() as env:
        await env.reset(str(path), seed=0)
        assert env.scenario is not None
        saved: dict[str, Any] = {}
        for step in env.scenario.oracle:
            args = substitute(step.args, saved)
            result = await env.step({"name": step.tool, "arguments": args})
            assert not result.is_error, (step.tool, result.text)
            calls.append((step.tool, args))
            if step.save:
                saved[step.save] = result.structured_content
        await env.finish("done")
        assert env.result is not None and env.result.score == 1.0
    return calls


async def run(task: Any, outputs: list[ModelOutput], tmp_path: Path) -> EvalLog:
    """Evaluate `task` with mockllm scripted to `outputs`, through inspect's Python API."""
    model = get_model("mockllm/model", custom_outputs=outputs)
    (log,) = await eval_async(task, model=model, log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    return log


async def test_the_reference_calls_score_one_through_clawgyms_verifier(tmp_path: Path) -> None:
    calls = await reference_calls(TRAVEL_PATH)
    script = [output(tool, args) for tool, args in calls] + [output("submit", {"answer": "Done: all booked."})]
    log = await run(travel(record=str(tmp_path / "runs")), script, tmp_path)
    (sample,) = log.samples or []
    score = sample.scores["clawgym_verdict"]
    assert score.value == 1.0, score.explanation
    meta = score.metadata or {}
    assert meta["passed"] is True and meta["status"] == "completed"
    assert meta["violations"] == [] and meta["failed_checks"] == []
    assert all(stage["passed"] for stage in meta["stages"])
    # every reference call went through the gateway, in order, as real tool calls of inspect's agent
    called = [c.function for m in sample.messages if m.role == "assistant" for c in m.tool_calls or []]
    assert called[: len(calls)] == [tool for tool, _ in calls]
    tool_errors = [m for m in sample.messages if m.role == "tool" and m.error is not None]
    assert tool_errors == []
    # the record is orchestrator run's: a sealed results.json with the same verdict
    results = json.loads((Path(meta["record"]) / "results.json").read_text())
    assert results["passed"] is True and results["score"] == 1.0 and results["digest"]
    assert results["episode"]["agent"] == "inspect" and results["journal"]["calls"] == len(calls)
    sealed = CliRunner().invoke(app, ["verify-digest", meta["record"]])
    assert sealed.exit_code == 0, sealed.output
    assert log.results is not None
    metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
    assert metrics["mean"] == 1.0 and metrics["pass_rate"] == 1.0


async def test_an_agent_that_does_nothing_scores_zero(tmp_path: Path) -> None:
    log = await run(travel(), [output("submit", {"answer": "I did it all."})], tmp_path)
    (sample,) = log.samples or []
    score = sample.scores["clawgym_verdict"]
    assert score.value == 0.0
    assert score.metadata["passed"] is False
    assert score.metadata["failed_checks"], "the verdict names the checks that failed"
    assert score.explanation.startswith("failed, score 0.00")


async def test_a_partial_solution_scores_what_clawgyms_verifier_gives_it(tmp_path: Path) -> None:
    # A user's different solution: the calendar part done right, nothing else; and a forbidden reply to the upsell.
    calls = [c for c in await reference_calls(TRAVEL_PATH) if c[0] == "calendar__create_event"]
    script = [output(tool, args) for tool, args in calls]
    script.append(output("mail__reply_to_message", {"message_id": "booking-deals-berlin", "body": "Yes, upgrade me."}))
    script.append(output("submit", {"answer": "done"}))
    log = await run(travel(), script, tmp_path)
    score = (log.samples or [])[0].scores["clawgym_verdict"]
    assert 0.0 < float(score.value) < 1.0
    assert score.metadata["passed"] is False
    stages = {s["name"]: s["passed"] for s in score.metadata["stages"]}
    assert stages["travel days blocked"] is True


@pytest.mark.parametrize("install", ["editable", "site-packages"])
def test_the_task_package_resolves_by_its_clawgym_name_in_a_fresh_process(install: str, tmp_path: Path) -> None:
    # `inspect eval clawgym/travel` looks the name up through the inspect_ai entry point of this distribution. From
    # site-packages inspect would name the task orchestrator/clawgym/travel: it must still be clawgym/travel.
    env = dict(os.environ)
    if install == "site-packages":
        site = tmp_path / "lib" / "site-packages"
        for package in ("orchestrator", "servers"):
            shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(SCENARIOS, tmp_path / "scenarios")  # not packaged: found in the working directory
        env["PYTHONPATH"] = str(site)
    script = f"""
import json
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
import orchestrator
out = ModelOutput.for_tool_call("mockllm/model", "submit", {{"answer": "done"}})
out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
(log,) = eval("clawgym/travel", model=get_model("mockllm/model", custom_outputs=[out]), display="none",
              log_dir={str(tmp_path / "logs")!r})
print(json.dumps([log.status, log.eval.task, log.samples[0].scores["clawgym_verdict"].value, orchestrator.__file__]))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr[-2000:]
    status, name, value, where = json.loads(done.stdout.strip().splitlines()[-1])
    assert [status, name, value] == ["success", "clawgym/travel", 0.0]
    assert where.startswith(str(tmp_path)) == (install == "site-packages")


def test_the_dataset_names_each_scenario_and_rejects_what_chooses_nothing(tmp_path: Path) -> None:
    samples = dataset(str(SCENARIOS))
    ids = [s.id for s in samples]
    assert TRAVEL in ids and len(ids) == len(set(ids)) >= 10
    travel_sample = next(s for s in samples if s.id == TRAVEL)
    assert travel_sample.metadata["scenario_file"] == str(TRAVEL_PATH.resolve())
    assert "Berlin offsite" in str(travel_sample.input)
    assert [s.id for s in dataset(f"{TRAVEL_PATH},{SCENARIOS / 'travel.yaml'}")] == [TRAVEL]
    assert len(dataset(str(SCENARIOS), limit=2)) == 2
    with pytest.raises(TaskSetError, match="-T split=test: no scenario"):
        scenarios(scenarios=str(SCENARIOS), split="test")  # hand-written scenarios have no split
    with pytest.raises(TaskSetError, match="no-such-scenario"):
        dataset("no-such-scenario")
    with pytest.raises(ValueError, match="-T backend=nowhere: expected one of local, inprocess"):
        travel(backend="nowhere")
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ValueError, match="-T record=.*a-file: is a file"):
        travel(record=str(tmp_path / "a-file"))
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: broken-one\ntitle: x\n")
    with pytest.raises(TaskSetError, match="broken.yaml"):
        dataset(str(broken))


def test_a_generated_split_is_a_task_of_its_own(generated: Path) -> None:
    task = scenarios(scenarios=str(generated), split="test")
    assert sorted(s.id for s in task.dataset) == ["approval-wait", "reschedule-conflict"]
    assert {s.metadata["split"] for s in task.dataset} == {"test"}
    assert {s.metadata["family"] for s in task.dataset} == {"approvals", "meetings"}
    meetings = scenarios(scenarios=[str(generated)], family="meetings", tags="living-world,no-such-tag")
    assert [s.id for s in meetings.dataset] == ["declined-meeting"]


async def test_an_agent_stopped_by_inspects_message_limit_is_scored_on_what_it_did(tmp_path: Path) -> None:
    # One travel day blocked, then the model keeps searching until inspect's message limit stops it: the sample is
    # scored by ClawGym's verifier on the calendar as the agent left it (not an errored sample without a verdict).
    first = (await reference_calls(TRAVEL_PATH))[4]
    assert first[0] == "calendar__create_event"
    script = [output(*first)] + [output("mail__search_messages", {"query": "Berlin"}) for _ in range(20)]
    log = await run(travel(message_limit=6, record=str(tmp_path / "runs")), script, tmp_path)
    (sample,) = log.samples or []
    assert sample.limit is not None and sample.limit.type == "message"
    score = sample.scores["clawgym_verdict"]
    assert 0.0 < float(score.value) < 1.0 and score.metadata["passed"] is False
    stages = {s["name"]: s["score"] for s in score.metadata["stages"]}
    assert 0.0 < stages["travel days blocked"] < 1.0
    results = json.loads((Path(score.metadata["record"]) / "results.json").read_text())
    assert results["episode"]["agent_errors"] == ["stopped by inspect's message limit of 6"]


async def test_an_own_agent_stopped_by_inspects_time_limit_is_scored_on_what_it_did(tmp_path: Path) -> None:
    # clawgym_agent(agent=...) runs any inspect agent on the episode's MCP server: this one blocks one travel day
    # through it and then stalls; inspect's time limit cancels it, and the verdict still counts the event it made.
    first = (await reference_calls(TRAVEL_PATH))[4]

    def stalling(scenario: Any, server: Any) -> Any:
        @agent
        def stall() -> Any:
            async def execute(state: AgentState) -> AgentState:
                async with mcp_connection([server]):
                    tools = {ToolDef(t).name: t for t in await server.tools()}
                    await tools[first[0]](**first[1])
                await anyio.sleep(60)
                return state

            return execute

        return stall()

    task = Task(dataset=dataset(TRAVEL), solver=clawgym_agent(agent=stalling), scorer=clawgym_verdict(), time_limit=4)
    (log,) = await eval_async(task, model="mockllm/model", log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    (sample,) = log.samples or []
    assert sample.limit is not None and sample.limit.type == "time"
    score = sample.scores["clawgym_verdict"]
    assert score.metadata["status"] == "timeout" and score.metadata["passed"] is False
    stages = {s["name"]: s["score"] for s in score.metadata["stages"]}
    assert 0.0 < stages["travel days blocked"] < 1.0


def text(content: str) -> ModelOutput:
    """A scripted model turn without a tool call (usage given, as in `output`)."""
    out = ModelOutput.from_content("mockllm/model", content)
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return out


async def test_a_model_that_never_calls_submit_ends_at_the_scenarios_tool_call_limit(tmp_path: Path) -> None:
    # Not at a 300-message default: the gateway refuses every call past the limit, so the episode ends there.
    limited = tmp_path / "limited.yaml"
    limited.write_text(TRAVEL_PATH.read_text().replace("max_tool_calls: 60", "max_tool_calls: 5"))
    script = [output("mail__search_messages", {"query": f"Berlin {i}"}) for i in range(40)]
    log = await run(scenarios(scenarios=str(limited), record=str(tmp_path / "runs")), script, tmp_path)
    (sample,) = log.samples or []
    called = [c.function for m in sample.messages if m.role == "assistant" for c in m.tool_calls or []]
    assert called == ["mail__search_messages"] * 5 and sample.limit is None
    score = sample.scores["clawgym_verdict"]
    results = json.loads((Path(score.metadata["record"]) / "results.json").read_text())
    assert results["episode"]["agent_errors"] == [
        "stopped at the scenario's tool-call limit of 5 calls (limits.max_tool_calls)"
    ]
    assert results["status"] == "completed" and results["journal"]["calls"] == 5


@pytest.mark.parametrize("idle_turns", [3, 1])
async def test_a_model_that_stops_calling_tools_ends_after_idle_turns(tmp_path: Path, idle_turns: int) -> None:
    calls = await reference_calls(TRAVEL_PATH)
    script = [output(*calls[0])] + [text("I think I am done.") for _ in range(10)]
    log = await run(travel(idle_turns=idle_turns, record=str(tmp_path / "runs")), script, tmp_path)
    (sample,) = log.samples or []
    answers = [m for m in sample.messages if m.role == "assistant"]
    assert len(answers) == 1 + idle_turns and sample.limit is None
    score = sample.scores["clawgym_verdict"]
    assert score.value == 0.0 and score.metadata["status"] == "completed"
    results = json.loads((Path(score.metadata["record"]) / "results.json").read_text())
    assert results["episode"]["agent_errors"] == [
        f"stopped after {idle_turns} answers in a row without a tool call (-T idle_turns={idle_turns})"
    ]
    with pytest.raises(ValueError, match="-T idle_turns=0"):
        travel(idle_turns=0)


def inspect_command(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`inspect eval ...` as a user types it, without a network: any download goes to a dead proxy and fails."""
    dead = "http://127.0.0.1:9"
    environ = dict(os.environ) | {"HTTPS_PROXY": dead, "HTTP_PROXY": dead, "https_proxy": dead, "http_proxy": dead}
    environ |= {"TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken"), "NO_PROXY": "127.0.0.1,localhost"} | env
    inspect = Path(sys.executable).parent / "inspect"
    return subprocess.run(
        [str(inspect), "eval", *args, "--display", "plain", "--log-dir", str(tmp_path / "logs")],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_inspect_eval_offline_with_mockllm_runs_clean_and_a_failed_task_exits_one(tmp_path: Path) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    done = inspect_command(tmp_path, "clawgym/travel", "--model", "mockllm/model", "-T", f"record={tmp_path / 'runs'}")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "tiktoken" not in done.stdout + done.stderr
    (log,) = [read_eval_log(info) for info in list_eval_logs(str(tmp_path / "logs"))]
    assert log.status == "success" and log.samples and log.samples[0].scores["clawgym_verdict"].value == 0.0
    (record,) = (tmp_path / "runs").iterdir()
    results = json.loads((record / "results.json").read_text())
    assert results["episode"]["agent_errors"] == [
        "stopped after 3 answers in a row without a tool call (-T idle_turns=3)"
    ]
    # A task whose episode cannot start (no app server answers) ends in error: the command says so by its status.
    failed = inspect_command(
        tmp_path,
        "clawgym/travel",
        "--model",
        "mockllm/model",
        "-T",
        "backend=remote",
        CLAWGYM_APP_URL="http://127.0.0.1:9/{app}",
        CLAWGYM_ADMIN_TOKEN="x",
    )
    assert failed.returncode == 1, failed.stdout[-3000:] + failed.stderr[-3000:]
