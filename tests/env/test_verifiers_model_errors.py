"""In verifiers, a model that cannot be reached is an error of the episode (`Episode.errors` names it and says the
episode is not scored), not a task the model failed with a reward of 0. Skipped without the verifiers extra unless
CLAWGYM_REQUIRE_RL=1."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import yaml
from helpers import SCENARIOS, free_port

try:
    from verifiers.v1.clients import EvalClientConfig, ModelContext

    from orchestrator.env.verifiers_env import load_environment
except ImportError as exc:
    if os.environ.get("CLAWGYM_REQUIRE_RL") == "1":
        raise
    pytest.skip(f"the verifiers extra is not installed ({exc}); pip install -e '.[verifiers]'", allow_module_level=True)

KEY_VAR = "CLAWGYM_TEST_MODEL_KEY"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agents"))
from fake_model import FakeModel, Served  # noqa: E402


async def rollout_against(base_url: str, scenario: Path) -> object:
    os.environ.setdefault(KEY_VAR, "not-a-real-key")
    env = load_environment([scenario], seeds=[3])
    (task,) = list(env.taskset)
    async with env.serving():
        return await env.run_slot(
            env.slots(task)[0],
            ModelContext(model="any", client=EvalClientConfig(base_url=base_url, api_key_var=KEY_VAR)),
        )


@pytest.mark.slow
def test_an_unreachable_model_is_an_error_of_the_episode_not_a_reward_of_zero() -> None:
    episode = asyncio.run(rollout_against(f"http://127.0.0.1:{free_port()}/v1", SCENARIOS / "reschedule-conflict.yaml"))
    assert not episode.ok  # type: ignore[attr-defined]  # verifiers' episode object is unannotated
    (error,) = episode.errors  # type: ignore[attr-defined]  # verifiers' episode object is unannotated
    assert error.type == "EnvError"
    assert "reschedule-conflict@3: the model failed before the episode ended (ProviderError:" in error.message
    assert "not scored" in error.message
    (trace,) = episode.traces  # type: ignore[attr-defined]  # verifiers' episode object is unannotated
    assert "clawgym_score" not in trace.rewards


@pytest.mark.slow
def test_an_undecided_verdict_is_an_error_of_the_episode_not_a_score(tmp_path: Path) -> None:
    """A stage only a judge decides, no judge configured: the verdict is undecided, so the rollout has no
    clawgym_score (not 0, not 1) and its error says why."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from fake_judge import SCENARIO  # noqa: PLC0415

    from orchestrator.scenario.model import load  # noqa: PLC0415

    data = yaml.safe_load(SCENARIO.replace("BODY", "Hi Priya, your Berlin trip is approved. Dana"))
    row, judged = data["stages"][0]["checks"]
    data["stages"] = [{"name": "reply", "checks": [row]}, {"name": "says it is approved", "checks": [judged]}]
    path = tmp_path / "judged.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with Served(FakeModel(load(path).oracle)) as served:
        episode = asyncio.run(rollout_against(served.url, path))
    assert not episode.ok  # type: ignore[attr-defined]  # verifiers' episode object is unannotated
    messages = [e.message for e in episode.errors]  # type: ignore[attr-defined]  # unannotated
    assert any("undecided" in m and "not scored" in m for m in messages), messages
    for trace in episode.traces:  # type: ignore[attr-defined]  # verifiers' episode object is unannotated
        assert trace.rewards.get("clawgym_score") is None, trace.rewards  # no score: not 0, not 1
