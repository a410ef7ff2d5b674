"""ClawGym as an OpenEnv environment, driven by the `openenv` package's own clients (GenericEnvClient over the
WebSocket session, MCPToolClient over the session and over HTTP /mcp) against a real uvicorn server on 127.0.0.1
with real in-process app servers. Skipped without the openenv extra unless CLAWGYM_REQUIRE_RL=1."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from openenv import GenericEnvClient
    from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction
    from openenv.core.mcp_client import MCPToolClient

    from orchestrator.env.openenv import (
        ClawGymClient,
        ClawGymOpenEnv,
        ClawGymResetObservation,
        ClawGymToolObservation,
        ScenarioSet,
        make_app,
    )
except ImportError as exc:
    if os.environ.get("CLAWGYM_REQUIRE_RL") == "1":
        raise
    pytest.skip(f"the openenv extra is not installed ({exc}); pip install -e '.[openenv]'", allow_module_level=True)

import uvicorn
from helpers import SCENARIOS
from typer.testing import CliRunner

from orchestrator.agents.base import substitute
from orchestrator.cli import app as cli
from orchestrator.env import EnvError
from orchestrator.scenario.model import load

SCENARIO = SCENARIOS / "reschedule-conflict.yaml"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    app = make_app([SCENARIO, SCENARIOS / "flaky-ticketing.yaml"], max_sessions=4)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the OpenEnv server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=20)


def saved_value(result: dict[str, Any]) -> Any:
    """What the reference solution saves from a result: structured content, else the first text part."""
    if result["structured_content"] is not None:
        return result["structured_content"]
    return result["content"][0]["text"] if result["content"] else None


async def play_oracle(env: GenericEnvClient) -> list[Any]:
    steps = []
    saved: dict[str, Any] = {}
    for step in load(SCENARIO).oracle:
        out = await env.step({"type": "call_tool", "tool_name": step.tool, "arguments": substitute(step.args, saved)})
        assert out.done is False, out.observation
        assert out.observation["result"]["is_error"] is step.expect_error, out.observation["text"]
        if step.save:
            saved[step.save] = saved_value(out.observation["result"])
        steps.append(out)
    return steps


async def test_reference_solution_over_the_websocket_session_earns_the_verifiers_score(url: str) -> None:
    async with GenericEnvClient(base_url=url) as env:
        reset = await env.reset(scenario="reschedule-conflict", seed=3, step_rewards=True)
        obs = reset.observation
        assert reset.done is False and reset.reward is None
        assert "scenario" not in obs and "all-hands" in obs["task"]  # the id is the trainer's (state), not the agent's
        names = [t["name"] for t in obs["tools"]]
        assert names[-1] == "submit" and "calendar__list_events" in names and len(names) == len(obs["openai_tools"])
        assert "seed" not in obs["info"] and obs["info"]["step_rewards"] is True

        steps = await play_oracle(env)
        # Declared step rewards: a stage is credited where its checks first hold, not only at the end.
        assert any((s.reward or 0) > 0 for s in steps), [s.reward for s in steps]
        assert all("credited" in s.observation["info"] for s in steps)
        end = await env.step({"type": "call_tool", "tool_name": "submit", "arguments": {"message": "moved it"}})
        assert end.done is True and end.observation["terminated"] is True
        assert end.observation["info"]["score"] == 1.0 and end.observation["info"]["passed"] is True
        assert sum(s.reward for s in steps) + end.reward == pytest.approx(1.0)

        state = await env.state()
        assert state["scenario"] == "reschedule-conflict" and state["step_count"] == len(steps) + 1
        assert state["done"] is True and state["score"] == 1.0 and state["total_reward"] == pytest.approx(1.0)

        # The episode is over: a further call is refused with the reason, and earns nothing.
        late = await env.step({"type": "call_tool", "tool_name": "calendar__list_events", "arguments": {}})
        assert late.reward == 0.0 and late.observation["error"]["error_type"] == "execution_error"
        assert "reset" in late.observation["error"]["message"]


async def test_sessions_are_separate_episodes_and_doing_nothing_scores_zero(url: str) -> None:
    async def lazy() -> tuple[float, dict]:
        async with GenericEnvClient(base_url=url) as env:
            await env.reset(scenario="reschedule-conflict", seed=0)
            out = await env.step(
                {"type": "call_tool", "tool_name": "submit", "arguments": {"message": "nothing to do"}}
            )
            return out.reward, out.observation["info"]

    async def solver() -> float:
        async with GenericEnvClient(base_url=url) as env:
            await env.reset(scenario="reschedule-conflict", seed=0)
            steps = await play_oracle(env)
            end = await env.step({"type": "call_tool", "tool_name": "submit", "arguments": {"message": "done"}})
            return sum(s.reward or 0 for s in steps) + end.reward

    (lazy_reward, lazy_info), solved = await asyncio.gather(lazy(), solver())
    assert lazy_reward == 0.0 and lazy_info["passed"] is False and lazy_info["score"] == 0.0
    assert solved == pytest.approx(1.0)


async def test_tools_over_mcp_with_openenvs_mcp_client(url: str) -> None:
    # Over the WebSocket session (list_tools / call_tool actions through step).
    async with MCPToolClient(base_url=url) as env:
        await env.reset(scenario="flaky-ticketing", seed=1)
        tools = await env.list_tools()
        by_name = {t.name: t for t in tools}
        assert "tickets__search_tickets" in by_name and "submit" in by_name
        assert by_name["submit"].input_schema["required"] == ["message"]
        found = await env.call_tool("mail__search_messages", query="")
        assert isinstance(found, dict) and found["messages"], found

    # Over HTTP /mcp (OpenEnv's production path: a JSON-RPC session, no reset): the first use starts the first
    # served scenario; calls change that session's sandbox only.
    mcp = MCPToolClient(base_url=url)
    mcp.use_production_mode = True
    try:
        listed = [t.name for t in await mcp.list_tools()]
        assert "calendar__list_events" in listed and listed[-1] == "submit"
        found = await mcp.call_tool("mail__search_messages", query="")
        assert isinstance(found, dict) and found["messages"], found
        bad = await mcp.call_tool("calendar__no_such_tool")  # an error result, named, not a dropped session
        assert isinstance(bad, str) and "calendar__no_such_tool" in bad, bad
    finally:
        await mcp.close()


async def test_the_typed_client_gives_clawgyms_observations(url: str) -> None:
    async with ClawGymClient(base_url=url) as env:
        first = await env.reset(scenario="reschedule-conflict", seed=2)
        assert isinstance(first.observation, ClawGymResetObservation) and (await env.state()).seed == 2
        assert [t.name for t in await env.list_tools()][-1] == "submit"
        out = await env.call_tool("calendar__no_such_tool")
        assert isinstance(out.observation, ClawGymToolObservation)
        assert out.observation.result["is_error"] is True and "calendar__no_such_tool" in out.observation.text
        assert out.observation.info["failed"] is True and out.done is False
        end = await env.call_tool("submit", message="gave up")
        assert end.done and end.observation.terminated and end.observation.info["passed"] is False
        state = await env.state()
        assert state.scenario == "reschedule-conflict" and state.step_count == 2 and state.score == 0.0


async def test_only_served_scenarios_can_be_reset_to(url: str) -> None:
    async with GenericEnvClient(base_url=url) as env:
        for name in ["travel-berlin-offsite", "../../scenarios/travel.yaml", "/etc/passwd"]:
            with pytest.raises(RuntimeError, match="not served here; served: flaky-ticketing, reschedule-conflict"):
                await env.reset(scenario=name)
        # The session survives a refused reset; a step before any reset says what to do.
        early = await env.step({"type": "call_tool", "tool_name": "mail__search_messages", "arguments": {"query": ""}})
        assert "reset" in early.observation["error"]["message"]
        await env.reset(scenario="flaky-ticketing")
        assert (await env.state())["scenario"] == "flaky-ticketing"
        named = await env.reset(scenario="flaky-ticketing", episode_id="run 7/a@b")  # any id: sandboxes are named apart
        assert named.observation["info"]["episode_id"] == "run 7/a@b"
        with pytest.raises(RuntimeError, match="unknown noise profile 'loud'; profiles are: none, mild, harsh"):
            await env.reset(scenario="flaky-ticketing", noise="loud")
        noisy = await env.reset(scenario="flaky-ticketing", seed=4, noise="mild")
        assert noisy.observation["info"]["noise"]["profile"] == "mild"


def test_the_environment_class_works_synchronously_too() -> None:
    """OpenEnv may drive an Environment through its sync methods (a thread per session): same episode, same reward."""
    env = ClawGymOpenEnv(ScenarioSet([SCENARIO]))
    try:
        first = env.reset(seed=1)
        assert env.state.scenario == "reschedule-conflict" and env.state.seed == 1 and "seed" not in first.info
        assert env.step(ListToolsAction()).tools[-1].name == "submit"
        end = env.step(CallToolAction(tool_name="submit", arguments={"message": "nothing"}))
        assert end.done is True and end.reward == 0.0 and end.info["passed"] is False
        assert env.state.done is True and env.state.step_count == 1
    finally:
        env.close()
    with pytest.raises(EnvError, match="the environment is closed"):
        env.step(CallToolAction(tool_name="submit", arguments={}))


def test_serve_env_refuses_a_missing_scenario_with_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve-env", str(tmp_path / "nope.yaml"), "--port", "1"])
    assert result.exit_code == 2
    assert "nope.yaml: no such scenario file or folder" in result.output
    empty = CliRunner().invoke(cli, ["serve-env", str(tmp_path)])
    assert empty.exit_code == 2 and "no scenario (*.yaml) in this folder" in empty.output
