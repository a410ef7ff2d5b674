"""The environment API on Ray (`RayEnv`): each env in an actor on a worker of the two-node loopback cluster,
giving what the same env gives in process for the same seed and actions."""

from __future__ import annotations

import pytest
from helpers import TRAVEL_PATH

pytestmark = pytest.mark.ray

SCENARIO = str(TRAVEL_PATH)
ACTIONS = [
    {"name": "mail__search_messages", "arguments": {"query": "Berlin"}},
    {"name": "calendar__list_events", "arguments": {}},
    {"name": "no_such_tool", "arguments": {}},
]


async def test_envs_spread_over_the_nodes_and_match_the_in_process_env(ray_cluster) -> None:
    from orchestrator.cluster import RayBackend, RayEnv
    from orchestrator.env import ClawGymEnv, EnvError

    async with ClawGymEnv(step_rewards=True) as local:
        expected = [await local.reset(SCENARIO, seed=3)]
        expected += [await local.step(action) for action in ACTIONS]
        expected.append(await local.finish("done"))
        expected_score, expected_calls = local.result.score, local.state.tool_calls

    async with RayBackend(ray_cluster.address) as cluster:
        envs = [RayEnv(cluster, step_rewards=True) for _ in range(2)]
        where = [await env.where() for env in envs]
        assert len({w["node"] for w in where}) == 2, "one CPU per node: the two envs live on different nodes"
        for env in envs[1:]:  # the second actor's node is the worker node
            got = [await env.reset(SCENARIO, seed=3)]
            got += [await env.step(action) for action in ACTIONS]
            got.append(await env.finish("done"))
            assert got[0].task == expected[0].task and got[0].tools == expected[0].tools
            for mine, theirs in zip(got[1:], expected[1:], strict=True):
                assert (mine.text, mine.is_error, mine.reward, mine.terminated) == (
                    theirs.text,
                    theirs.is_error,
                    theirs.reward,
                    theirs.terminated,
                )
            assert env.state.done and env.state.steps == 4 and env.state.tool_calls == expected_calls
            assert env.result.score == expected_score and not env.result.passed
            try:
                await env.step(ACTIONS[0])
            except EnvError as exc:  # the env's own error, raised here as it is in process
                assert "reset" in str(exc)
            else:
                raise AssertionError("a step after the end should raise EnvError")
        for env in envs:
            await env.close()
