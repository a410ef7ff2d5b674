"""ClawGym as a verifiers environment: rollouts run by verifiers itself (its env, interception server, chat-loop
program in a subprocess runtime, MCP client) against a scripted OpenAI-compatible model on 127.0.0.1 that replays
the scenario's reference solution, or does nothing. Skipped without the verifiers extra unless CLAWGYM_REQUIRE_RL=1."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

import pytest

try:
    import verifiers.v1 as vf
    from verifiers.v1.clients import EvalClientConfig, ModelContext

    from orchestrator.env.verifiers_env import ClawGymTask, load_environment
except ImportError as exc:
    if os.environ.get("CLAWGYM_REQUIRE_RL") == "1":
        raise
    pytest.skip(f"the verifiers extra is not installed ({exc}); pip install -e '.[verifiers]'", allow_module_level=True)

from orchestrator.env import EnvError
from orchestrator.scenario.model import load

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agents"))
from fake_model import FakeModel, Served  # noqa: E402

SCENARIO = ROOT / "scenarios" / "reschedule-conflict.yaml"
KEY_VAR = "CLAWGYM_TEST_MODEL_KEY"


async def rollouts(models: dict[str, tuple[FakeModel, Path]]) -> list[vf.Episode]:
    """One rollout per model, at once, each on its scenario with its own scripted model server and ClawGym episode."""
    os.environ.setdefault(KEY_VAR, "not-a-real-key")
    env = load_environment(sorted({path for _, path in models.values()}), seeds=[7])
    tasks = {task.data.scenario: task for task in env.taskset}
    with contextlib.ExitStack() as stack:
        urls = {name: stack.enter_context(Served(model)).url for name, (model, _) in models.items()}
        async with env.serving():
            return await asyncio.gather(
                *(
                    env.run_slot(
                        env.slots(tasks[str(path.resolve())])[0],
                        ModelContext(model=name, client=EvalClientConfig(base_url=urls[name], api_key_var=KEY_VAR)),
                    )
                    for name, (_, path) in models.items()
                )
            )


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scenario with a tool-call limit of 6 (and its own id)."""
    text = SCENARIO.read_text().replace("id: reschedule-conflict\n", "id: reschedule-conflict-short\n", 1)
    path = tmp_path_factory.mktemp("scenarios") / "short.yaml"
    path.write_text(text.replace("limits: {max_tool_calls: 40,", "limits: {max_tool_calls: 6,", 1))
    assert load(path).limits.max_tool_calls == 6
    return path


@pytest.fixture(scope="module")
def played(short: Path) -> dict[str, tuple[FakeModel, vf.Episode]]:
    # The fake model's name picks its behaviour: `oracle` replays the reference solution, `idle` (no solution to
    # replay) answers in text at once, `loop` searches the mail turn after turn and never stops.
    models = {
        "oracle": (FakeModel(load(SCENARIO).oracle), SCENARIO),
        "idle": (FakeModel([]), SCENARIO),
        "loop": (FakeModel([]), short),
    }
    episodes = asyncio.run(rollouts(models))
    return {name: (model, episode) for (name, (model, _)), episode in zip(models.items(), episodes, strict=True)}


@pytest.mark.slow
def test_a_rollout_of_the_reference_solution_earns_the_verifiers_score(played: dict) -> None:
    model, episode = played["oracle"]
    oracle = load(SCENARIO).oracle
    assert episode.ok, episode.errors
    [trace] = episode.traces
    assert trace.ok, trace.errors
    assert trace.rewards["clawgym_score"].score == 1.0 and trace.reward == 1.0
    assert trace.metrics["passed"] == 1.0 and trace.metrics["tool_calls"] == len(oracle)
    # The model worked through verifiers' client: one request per tool call, then its answer; it saw ClawGym's
    # tools by their own names (no server prefix), `submit` among them, and the scenario's task as the prompt.
    assert len(model.requests) == len(oracle) + 1
    first = model.requests[0]["body"]
    names = {t["function"]["name"] for t in first["tools"]}
    assert {"calendar__list_events", "mail__send_message", "submit"} <= names
    assert any("all-hands" in str(m.get("content")) for m in first["messages"] if m["role"] == "user")
    assert trace.task.data.scenario_id == "reschedule-conflict" and trace.task.data.seed == 7


@pytest.mark.slow
def test_a_model_that_does_nothing_gets_zero(played: dict) -> None:
    model, episode = played["idle"]
    assert episode.ok, episode.errors
    [trace] = episode.traces
    assert trace.rewards["clawgym_score"].score == 0.0 and trace.reward == 0.0
    assert trace.metrics["passed"] == 0.0 and trace.metrics["tool_calls"] == 0.0
    assert len(model.requests) == 1


def test_a_model_that_never_stops_is_cut_at_the_scenarios_call_limit(played: dict) -> None:
    model, episode = played["loop"]
    limit = 6
    assert episode.ok, episode.errors
    [trace] = episode.traces
    # The call that reaches the limit ends the episode (truncated); verifiers makes no further model call.
    assert trace.stop_condition == "episode_over"
    assert trace.metrics["truncated"] == 1.0 and trace.metrics["tool_calls"] == limit
    assert trace.rewards["clawgym_score"].score == 0.0
    assert len(model.requests) == limit


def test_one_task_per_scenario_and_seed_and_clear_errors(tmp_path: Path) -> None:
    env = load_environment([SCENARIO, ROOT / "scenarios" / "flaky-ticketing.yaml"], seeds=[0, 1], noise="mild")
    assert env.config.noise == "mild" and env.config.agent.runtime.type == "subprocess"
    tasks = list(env.taskset)
    assert [t.key for t in tasks] == [
        "reschedule-conflict@0",
        "reschedule-conflict@1",
        "flaky-ticketing@0",
        "flaky-ticketing@1",
    ]
    assert all(isinstance(t, ClawGymTask) and t.data.prompt for t in tasks)
    with pytest.raises(EnvError, match="nope.yaml: no such scenario file or folder"):
        load_environment([tmp_path / "nope.yaml"])
    with pytest.raises(EnvError, match="no scenario"):
        load_environment([tmp_path])
    with pytest.raises(EnvError, match="scenario id 'reschedule-conflict' is given twice"):
        load_environment([SCENARIO, SCENARIO])
