"""The agent learns the task from the instruction alone: the gateway shows no scenario id or title.

A title is written for the scenario's readers ("Send the venue address once, although the mail server lost
the reply") and an id names the trap ("lost-reply-mail"); either would tell the agent what the world has in
store for it.
"""

from __future__ import annotations

import json

import pytest
from helpers import ROOT

from orchestrator import scenario as scenarios
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode


async def test_the_gateway_shows_the_instruction_but_not_the_scenario_id_or_title() -> None:
    scenario = scenarios.load(ROOT / "scenarios" / "lost-reply-mail.yaml")
    async with InProcessBackend() as backend:
        async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
            seen = [client.server_info.model_dump(mode="json"), client.server_capabilities.model_dump(mode="json")]
            seen.append(getattr(client, "instructions", None))
            for listing in (await client.list_prompts(), await client.list_resources(), await client.list_tools()):
                seen.append(listing.model_dump(mode="json"))
            seen.append((await client.get_prompt("task")).model_dump(mode="json"))
            seen.append((await client.read_resource("clawgym://task")).model_dump(mode="json"))
    shown = json.dumps(seen)
    assert scenario.instruction.strip() in shown
    assert scenario.title not in shown
    assert scenario.id not in shown, shown[max(0, shown.find(scenario.id) - 300) :][:400]


async def test_the_env_observation_names_no_scenario_task_family_or_seed() -> None:
    """An id names a generated task's family, edition and seed (`travel-v2-1-00000`): with the generator, that is its
    reference solution. The env's observation carries none of them; the trainer reads them from `state`."""
    from orchestrator.env.core import ClawGymEnv

    scenario = scenarios.load(ROOT / "scenarios" / "lost-reply-mail.yaml")
    seed = 918273
    async with ClawGymEnv() as env:
        obs = await env.reset(scenario, seed=seed)
        shown = obs.model_dump_json()
        assert env.state.scenario == scenario.id and env.state.seed == seed  # the trainer's bookkeeping
    assert scenario.id not in shown and str(seed) not in shown and scenario.title not in shown
    assert "scenario" not in obs.model_dump() and "seed" not in obs.info
    assert not any(part in shown for part in ("lost-reply", "lost_reply"))


@pytest.mark.slow
def test_a_command_agent_gets_an_episode_name_that_maps_to_nothing(tmp_path) -> None:  # noqa: ANN001
    from hostile import requires_bwrap, run_agent

    if requires_bwrap.args[0]:
        import pytest

        pytest.skip(requires_bwrap.kwargs["reason"])
    runs = [run_agent(tmp_path / f"out{i}", "env; echo attempted") for i in range(2)]
    names = []
    for run in runs:
        assert "attempted" in run.log
        env = dict(line.split("=", 1) for line in run.log.splitlines() if "=" in line and line.split("=")[0].isupper())
        assert "CLAWGYM_SCENARIO" not in env and "travel-berlin-offsite" not in run.log and "travel" not in env.values()
        names.append(env["CLAWGYM_EPISODE"])
        assert "travel" not in names[-1] and run.result["scenario"] == "travel-berlin-offsite"
    assert names[0] != names[1]  # a fresh name each episode, from nothing the run knows
