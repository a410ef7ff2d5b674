"""The environment API (orchestrator.env): the reset/step/close contract and the reward contract of docs/rewards.md,
on real scenarios, real in-process app servers and real SQLite."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH

from orchestrator.agents.base import OracleAgent, substitute
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.env import SUBMIT, ClawGymEnv, EnvError, StepResult, SyncClawGymEnv, ToolCall, parse_action
from orchestrator.episode.episode import Episode
from orchestrator.scenario.model import OracleStep, Scenario, load


@pytest.fixture(scope="module")
def travel() -> Scenario:
    return load(TRAVEL_PATH)


# Not conftest's async per-test backend: one for the module, usable from the sync wrapper's own event loop.
@pytest.fixture(scope="module")
def backend() -> Any:
    """One set of in-process app servers for the module's envs (each episode has its own sandboxes)."""
    shared = InProcessBackend()
    yield shared
    anyio.run(shared.close)


async def play(env: ClawGymEnv, steps: list[OracleStep], saved: dict[str, Any] | None = None) -> list[StepResult]:
    """Step the reference solution's calls (with `${saved}` values filled in from earlier results)."""
    saved = {} if saved is None else saved
    out = []
    for step in steps:
        result = await env.step({"name": step.tool, "arguments": substitute(step.args, saved)})
        assert not result.is_error or step.expect_error, (step.tool, result.text)
        if step.save:
            saved[step.save] = result.structured_content if result.structured_content is not None else result.text
        out.append(result)
    return out


def oracle_index(scenario: Scenario, tool: str, nth: int = 0) -> int:
    return [i for i, s in enumerate(scenario.oracle) if s.tool == tool][nth]


# -- the contract -------------------------------------------------------------------------------------------------


async def test_reset_observation_step_and_close(travel: Scenario) -> None:
    env = ClawGymEnv()  # without `async with`: close() by hand
    obs = await env.reset(TRAVEL_PATH, seed=3)
    assert env.state.scenario == "travel-berlin-offsite" and "Berlin offsite" in obs.task
    assert obs.persona["email"] == "dana@acme.test" and obs.now.startswith("2026-03-02T09:00:00+01:00")
    names = [t["name"] for t in obs.tools]
    assert names[-1] == SUBMIT and "mail__search_messages" in names and all("inputSchema" in t for t in obs.tools)
    assert [t["function"]["name"] for t in obs.openai_tools] == names
    assert [t["name"] for t in obs.anthropic_tools] == names
    assert obs.info["max_tool_calls"] == 60 and obs.info["baseline_score"] == 0.0 and "submit" in obs.system_prompt
    # Checks and the reference solution stay in the orchestrator: no check name, stage name or reference step shows.
    shown = obs.model_dump_json()
    secrets = [s.name for s in travel.stages] + [c.name for _, _, c in travel.checks() if c.name]
    secrets += ["Travel back from Berlin", "Flight home from the Berlin offsite"]
    assert not [s for s in secrets if s in shown]

    out = await env.step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}})
    assert not out.is_error and out.structured_content and "offsite-invite" in out.text
    assert out.reward == 0.0 and not out.terminated and not out.truncated and out.info["changed"] == []
    bad = await env.step(ToolCall(name="mail__no_such_tool"))
    assert bad.is_error and "Unknown tool" in bad.text and bad.reward == 0.0
    # What a model produces is read too: an OpenAI tool call with JSON-string arguments, an Anthropic tool_use block.
    openai_call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "mail__get_message", "arguments": '{"message_id": "offsite-invite"}'},
    }
    got = await env.step(openai_call)
    assert not got.is_error and "Motel One" in got.text and got.info["call_id"] == "call_1"
    anthropic_call = {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "docs__search_documents",
        "input": {"query": "travel policy"},
    }
    assert "travel-policy" in (await env.step(anthropic_call)).text
    broken = await env.step({"name": "mail__get_message", "arguments": "{not json"})
    assert broken.is_error and "not valid JSON" in broken.info["invalid_action"]
    assert env.state.steps == 5 and env.state.tool_calls == 3  # unknown tools and unreadable actions are not calls
    assert env.state.process["invalid_actions"] == 2 and env.state.process["failed_calls"] == 0

    end = await env.step({"name": SUBMIT, "arguments": {"message": "nothing done"}})
    assert end.terminated and not end.truncated and end.reward == 0.0 and end.info["score"] == 0.0
    assert env.result is not None and not env.result.passed and env.result.episode["message"] == "nothing done"
    with pytest.raises(EnvError, match="episode is over"):
        await env.step({"name": "mail__search_messages", "arguments": {}})
    await env.close()
    await env.close()  # idempotent
    with pytest.raises(EnvError, match="closed"):
        await env.reset(TRAVEL_PATH)


async def test_an_observation_is_the_callers_to_change_and_a_changed_file_is_read_again(tmp_path: Any) -> None:
    """Observations share nothing with the gateway's listing or with each other: a trainer that edits one (a schema,
    a description) sees the next reset unchanged; the tools are those an MCP client lists. A scenario file is parsed
    once while unchanged, and again when it changes."""
    from mcp import Client

    path = tmp_path / "travel.yaml"
    path.write_text(TRAVEL_PATH.read_text())
    async with ClawGymEnv() as env:
        first = await env.reset(path, seed=1)
        async with Client(env._ep.episode.gateway.server) as client:  # type: ignore[union-attr]  # reset opened the episode
            over_mcp = [
                t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in (await client.list_tools()).tools
            ]
        assert first.tools[:-1] == over_mcp
        first.tools[0]["inputSchema"]["properties"].clear()
        first.tools[0]["description"] = "changed"
        first.openai_tools[0]["function"]["parameters"].clear()
        second = await env.reset(path, seed=2)
        assert second.tools[:-1] == over_mcp and second.openai_tools[0]["function"]["parameters"]
        path.write_text(TRAVEL_PATH.read_text().replace("Plan the Berlin offsite trip", "Plan the trip", 1))
        third = await env.reset(path, seed=3)
        assert env._ep.scenario.title == "Plan the trip"  # type: ignore[union-attr]  # reset opened the episode
        assert third.tools[:-1] == over_mcp


def test_actions_from_the_vendor_sdks() -> None:
    from anthropic.types import ToolUseBlock
    from openai.types.chat import ChatCompletionMessageToolCall

    openai_call = ChatCompletionMessageToolCall(
        id="call_9", type="function", function={"name": "mail__get_message", "arguments": '{"message_id": "x"}'}
    )
    anthropic_call = ToolUseBlock(id="toolu_9", type="tool_use", name="mail__get_message", input={"message_id": "x"})
    assert parse_action(openai_call) == ToolCall(name="mail__get_message", arguments={"message_id": "x"}, id="call_9")
    assert parse_action(anthropic_call) == ToolCall(
        name="mail__get_message", arguments={"message_id": "x"}, id="toolu_9"
    )


async def test_bad_input_is_named(backend: Any) -> None:
    with pytest.raises(ValueError, match="no tool name"):
        parse_action({"arguments": {}})
    with pytest.raises(ValueError, match="must be a JSON object"):
        parse_action({"name": "mail__x", "arguments": "[1, 2]"})
    async with ClawGymEnv(backend) as env:
        with pytest.raises(EnvError, match="call reset"):
            await env.step({"name": "mail__search_messages", "arguments": {}})
        with pytest.raises(EnvError, match="no such file"):
            await env.reset("scenarios/nope.yaml")
        with pytest.raises(EnvError, match=r"<scenario text>.*instruction"):
            await env.reset("id: broken-one\ntitle: x\n")


async def test_truncated_at_the_tool_call_limit(travel: Scenario, backend: Any) -> None:
    text = TRAVEL_PATH.read_text().replace(
        "limits: {max_tool_calls: 60, timeout_s: 600}", "limits: {max_tool_calls: 3}"
    )
    async with ClawGymEnv(backend) as env:
        obs = await env.reset(text, seed=0, step_rewards=True)  # YAML text
        assert obs.info["max_tool_calls"] == 3
        results = await play(env, travel.oracle[:3])
        assert [r.truncated for r in results] == [False, False, True] and not results[-1].terminated
        assert results[-1].info["truncated_by"].startswith("the scenario's limit of 3")
        assert env.result is not None and env.result.score == 0.0 and not env.result.violations  # never over the limit
        assert env.state.tool_calls == 3 and env.state.done
        with pytest.raises(EnvError, match="call reset"):
            await env.step({"name": "mail__search_messages", "arguments": {}})
        # A new episode on the same env starts from the seeded state again.
        await env.reset(travel, seed=0)
        assert env.state.tool_calls == 0 and not env.state.done


# -- rewards ----------------------------------------------------------------------------------------------------


async def test_step_rewards_sum_to_the_final_score_for_every_scenario(backend: Any) -> None:
    """The reference solution of every scenario, stepped: it passes, and the rewards sum to the final score.
    (Scenarios with injected faults need the oracle's fault handling; flaky-ticketing is stepped below.)"""
    async with ClawGymEnv(backend, step_rewards=True) as env:
        for path in sorted(SCENARIOS.glob("*.yaml")):  # the hand-written library (not generated sets in subfolders)
            scenario = load(path)
            if scenario.faults:
                continue
            await env.reset(scenario, seed=1)
            results = [*await play(env, scenario.oracle), await env.finish("done")]
            assert env.result is not None and env.result.passed and env.result.score == 1.0, path.name
            assert sum(r.reward for r in results) == pytest.approx(env.result.score, abs=1e-9), path.name
            assert all(r.reward >= 0 for r in results), path.name  # the reference solution never undoes its own work
            assert results[-1].reward == pytest.approx(0.0, abs=1e-9), path.name  # all paid where the work was done


@pytest.mark.parametrize("name", ["travel.yaml", "oncall-handover.yaml"])
async def test_the_final_score_is_the_verdict_of_a_run(name: str, backend: Any) -> None:
    """Part of a solution, stepped: the final score and the step rewards' sum are the score the same calls get
    when run as `orchestrator run` runs them (an Episode, the oracle agent, `Episode.verify`)."""
    scenario = load(SCENARIOS / name)
    steps = scenario.oracle[: len(scenario.oracle) * 2 // 3]
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(scenario, seed=1)
        results = [*await play(env, steps), await env.finish()]
        async with Episode(scenario, await backend.start(scenario.apps), rng_seed=1) as episode:
            await OracleAgent(steps).run(episode)
            run = await episode.verify()
    assert env.result is not None and 0 < run.score < 1
    assert (env.result.score, env.result.passed, env.result.process) == (run.score, run.passed, run.process)
    assert sum(r.reward for r in results) == pytest.approx(run.score, abs=1e-9)


async def test_without_step_rewards_only_the_last_step_is_rewarded(travel: Scenario, backend: Any) -> None:
    async with ClawGymEnv(backend) as env:
        await env.reset(travel, seed=0)
        results = await play(env, travel.oracle)
        assert all(r.reward == 0.0 for r in results) and "credited" not in results[-1].info
        end = await env.finish()
        assert end.reward == 1.0 and end.info["passed"] is True


async def test_credit_when_checks_first_hold_and_nothing_for_reads_noops_or_repeats(
    travel: Scenario, backend: Any
) -> None:
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        saved: dict[str, Any] = {}
        results = await play(env, travel.oracle, saved)
        by_tool = [(s.tool, r) for s, r in zip(travel.oracle, results, strict=True)]
        reads = [r for tool, r in by_tool if tool.split("__")[1].startswith(("search", "get", "list"))]
        assert reads and all(r.reward == 0.0 and r.info["credited"] == [] for r in reads)
        writes = [r for tool, r in by_tool if r not in reads]
        assert all(r.reward > 0 and r.info["credited"] for r in writes)
        assert sum(r.reward for r in results) == pytest.approx(1.0)
        # Once everything holds, another read earns nothing, nor does repeating a successful call;
        # a second approval ticket breaks "exactly one new ticket": that stage's credit is taken back.
        share = travel.oracle[oracle_index(travel, "docs__share_document")]
        again = await env.step({"name": share.tool, "arguments": substitute(share.args, saved)})
        assert again.is_error and "already shared" in again.text  # the app refuses a second share
        assert again.reward == 0.0 and again.info["credited"] == []
        ticket = travel.oracle[oracle_index(travel, "tickets__create_ticket")]
        twice = await env.step({"name": ticket.tool, "arguments": substitute(ticket.args, saved)})
        assert not twice.is_error and twice.reward == pytest.approx(-1.5 / 4.5)  # the approval stage's weight
        assert twice.info["withdrawn"] == ["stages[3].checks[0]"]
        end = await env.finish()
        assert env.result is not None and end.info["score"] == pytest.approx(3 / 4.5)
        assert sum(r.reward for r in [*results, again, twice, end]) == pytest.approx(env.result.score, abs=1e-9)


async def test_a_check_that_stops_holding_is_taken_back_and_credited_again(travel: Scenario, backend: Any) -> None:
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        first, second = (oracle_index(travel, "calendar__create_event", n) for n in (0, 1))
        created = await play(env, [travel.oracle[first], travel.oracle[second]])
        gained = sum(r.reward for r in created)
        assert gained == pytest.approx(1 / 4.5)  # the travel-days stage: all its checks hold
        event_id = created[1].structured_content["id"]
        removed = await env.step({"name": "calendar__delete_event", "arguments": {"event_id": event_id}})
        assert not removed.is_error and removed.reward < 0 and removed.info["withdrawn"]  # a wrong action costs
        back = await play(env, [travel.oracle[second]])
        assert (
            back[0].reward == pytest.approx(-removed.reward) and back[0].info["credited"] == removed.info["withdrawn"]
        )
        end = await env.finish()
        assert sum(r.reward for r in [*created, removed, *back, end]) == pytest.approx(env.result.score, abs=1e-9)
        assert env.result.score == pytest.approx(1 / 4.5)


async def test_harm_is_charged_at_the_step_that_caused_it(travel: Scenario, backend: Any) -> None:
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        saved: dict[str, Any] = {}
        good = await play(env, travel.oracle[: oracle_index(travel, "tickets__create_ticket")], saved)
        credited = sum(r.reward for r in good)
        assert credited > 0.3
        # Deleting a seeded event destroys it: the step loses everything credited so far, and names the call.
        harm = await env.step({"name": "calendar__delete_event", "arguments": {"event_id": "one-on-one"}})
        assert not harm.is_error
        assert harm.reward == pytest.approx(-credited)
        assert [(v["kind"], v["call"]["tool"], v["key"]) for v in harm.info["harm"]] == [
            ("destruction", "calendar__delete_event", "one-on-one")
        ]
        # Progress after harm earns nothing while the harm stands; the episode's score is 0.
        rest = await play(env, travel.oracle[oracle_index(travel, "tickets__create_ticket") :], saved)
        assert all(r.reward == 0.0 and r.info["harm"] == [] for r in rest)
        end = await env.finish()
        assert env.result is not None and env.result.score == 0.0 and not env.result.passed
        assert end.info["violations"][0]["kind"] == "destruction"
        assert sum(r.reward for r in [*good, harm, *rest, end]) == pytest.approx(0.0, abs=1e-9)


async def test_what_the_world_changes_earns_nothing(backend: Any) -> None:
    """A living world: the manager's approval arrives during `world__wait`; that change is the world's, not the agent's."""
    scenario = load(SCENARIOS / "approval-wait.yaml")
    async with ClawGymEnv(backend, step_rewards=True) as env:
        obs = await env.reset(scenario, seed=0)
        assert "world__wait" in [t["name"] for t in obs.tools]
        results = await play(env, scenario.oracle)
        waited = results[[s.tool for s in scenario.oracle].index("world__wait")]
        assert waited.info["world_changed"] and waited.info["changed"] == [] and waited.reward == 0.0
        assert all(r.reward > 0 for r in results if r.info["changed"] and not r.is_error)
        end = await env.finish()
        assert end.reward == pytest.approx(0.0, abs=1e-9) and env.result.passed


async def test_faults_and_recovery_are_reported_beside_the_reward(backend: Any) -> None:
    scenario = load(SCENARIOS / "flaky-ticketing.yaml")
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(scenario, seed=0)
        results = await play(env, scenario.oracle)
        faulted = [r for r in results if r.info["fault"]]
        assert (
            len(faulted) == 1
            and faulted[0].is_error
            and faulted[0].reward == 0.0
            and faulted[0].info["fault"] == "error"
        )
        assert faulted[0].info["process"]["faults"] == 1 and faulted[0].info["process"]["unrecovered_faults"] == 1
        assert (
            results[-1].info["process"]["recovered_faults"] == 1
            and results[-1].info["process"]["unrecovered_faults"] == 0
        )
        assert any(r.info["recovered"] == 1 for r in results)
        end = await env.finish()
        assert end.info["passed"] and end.info["process_score"] is not None
        assert sum(r.reward for r in [*results, end]) == pytest.approx(1.0)


async def test_noise_is_drawn_from_the_seed(travel: Scenario, backend: Any) -> None:
    """`reset(noise=...)` runs the scenario under a noise profile: the same seed meets the same faults."""
    reads = [
        {"name": "mail__search_messages", "arguments": {"query": q}}
        for q in ("Berlin", "offsite", "travel", "Priya", "hotel", "standup")
    ]
    reads += [{"name": "docs__search_documents", "arguments": {"query": q}} for q in ("travel", "policy")]

    async def once() -> list[tuple[Any, ...]]:
        async with ClawGymEnv(backend, step_rewards=True) as env:
            obs = await env.reset(travel, seed=0, noise="harsh")
            assert obs.info["noise"]["profile"] == "harsh"
            return [(r.text, r.is_error, r.info["fault"], r.reward) for r in [await env.step(a) for a in reads]]

    first = await once()
    assert first == await once()
    assert [f for _, _, f, _ in first if f] == ["rate_limit", "error"] and all(r == 0.0 for *_, r in first)
    with pytest.raises(EnvError, match="unknown noise profile 'loud'"):
        async with ClawGymEnv(backend) as env:
            await env.reset(travel, noise="loud")


@pytest.mark.parametrize("noise", ["none", "mild"])
async def test_a_lost_reply_is_credited_where_it_committed_and_redoing_it_costs(noise: str, backend: Any) -> None:
    """The reply is delivered but the agent sees an error: the credit is paid at that step. Sending it again is a
    duplicate the recipient sees: the credit is taken back, and under noise it is harm (as `orchestrator run
    --noise` judges it), charged at the step that redid it."""
    scenario = load(SCENARIOS / "lost-reply-mail.yaml")
    body = "Hi Priya, the venue is the Alte Brauerei, Kastanienallee 12, 10435 Berlin."
    reply = {"name": "mail__reply", "arguments": {"message_id": "ask-venue", "body": body}}
    reads = [
        {"name": "mail__get_message", "arguments": {"message_id": "ask-venue"}},
        {"name": "docs__get_document", "arguments": {"document_id": "logistics"}},
    ]
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(scenario, seed=2, noise=noise)
        results = [await env.step(a) for a in reads]
        lost = await env.step(reply)
        assert lost.is_error and lost.info["fault"] == "lost_reply" and lost.reward == pytest.approx(1.0)
        assert lost.info["process"]["lost_replies"] == 1 and lost.info["failed"]
        again = await env.step(reply)
        assert again.info["recovered"] == 0  # redoing a delivered call is no recovery
        assert not again.is_error and again.reward == pytest.approx(-1.0) and again.info["withdrawn"]
        assert [v["kind"] for v in again.info["harm"]] == ([] if noise == "none" else ["forbidden"])
        end = await env.finish()
        assert env.result is not None and env.result.score == 0.0
        assert sum(r.reward for r in [*results, lost, again, end]) == pytest.approx(0.0, abs=1e-9)
        if noise == "mild":
            assert env.result.episode["noise"]["profile"] == "mild" and env.result.episode["faults"]


# -- determinism, tasks, the sync wrapper ------------------------------------------------------------------------


async def test_same_seed_and_actions_give_the_same_episode(travel: Scenario, backend: Any) -> None:
    async def once(seed: int = 11) -> tuple[Any, ...]:
        async with ClawGymEnv(backend, step_rewards=True) as env:
            obs = await env.reset(travel, seed=seed)
            results = await play(env, travel.oracle)
            final = await env.snapshot()
            await env.finish()
            info = {k: v for k, v in obs.info.items() if k != "episode_id"}
            steps = [
                (r.text, r.structured_content, r.is_error, r.reward, r.info["credited"], r.info["changed"])
                for r in results
            ]
            return obs.model_dump(exclude={"info"}), info, steps, final

    first, second = await once(), await once()
    assert first == second
    other = await once(12)  # the seed reaches the apps: the ids they make differ
    assert other[2] != first[2] and [s[3] for s in other[2]] == [s[3] for s in first[2]]
    assert json.dumps(first, sort_keys=True, default=str) == json.dumps(second, sort_keys=True, default=str)


async def test_calls_may_come_from_any_task(travel: Scenario, backend: Any) -> None:
    """An HTTP server or a rollout pool calls reset and step from different tasks: the env serves them all."""
    async with ClawGymEnv(backend) as env:
        async with anyio.create_task_group() as tg:
            tg.start_soon(env.reset, travel, 0)
        results: list[StepResult] = []

        async def one() -> None:
            results.append(await env.step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}}))

        async with anyio.create_task_group() as tg:
            for _ in range(3):
                tg.start_soon(one)
        assert len(results) == 3 and env.state.tool_calls == 3


async def test_episodes_side_by_side_on_one_backend_stay_apart(travel: Scenario) -> None:
    """Rollout workers share one backend: each env's episode has its own sandboxes, rewards and verdict."""
    backend = InProcessBackend()
    totals: dict[int, float] = {}

    async def rollout(index: int) -> None:
        async with ClawGymEnv(backend, step_rewards=True) as env:
            await env.reset(travel, seed=index)
            steps = travel.oracle if index % 2 == 0 else travel.oracle[:6]  # half of them stop early
            results = [*await play(env, steps), await env.finish()]
            assert env.result is not None and env.state.seed == index
            totals[index] = sum(r.reward for r in results)
            assert totals[index] == pytest.approx(env.result.score, abs=1e-9)

    async with backend:
        async with anyio.create_task_group() as tg:
            for index in range(4):
                tg.start_soon(rollout, index)
        assert all(len(endpoint.store) == 0 for endpoint in backend.endpoints.values())  # every sandbox deleted
    assert totals[0] == totals[2] == pytest.approx(1.0) and totals[1] == totals[3] == pytest.approx(1 / 4.5)


def test_sync_wrapper(travel: Scenario) -> None:
    with SyncClawGymEnv(step_rewards=True) as env:
        env.reset(str(TRAVEL_PATH), seed=0)
        assert env.state.scenario == travel.id
        saved: dict[str, Any] = {}
        total = 0.0
        for step in travel.oracle:
            out = env.step({"name": step.tool, "arguments": substitute(step.args, saved)})
            if step.save:
                saved[step.save] = out.structured_content
            total += out.reward
        end = env.finish("done")
        assert end.terminated and total + end.reward == pytest.approx(1.0) and env.result.passed
        assert env.state.done and env.state.total_reward == pytest.approx(1.0)


def test_the_guides_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    guide = (ROOT / "docs" / "guides" / "train-env-api.md").read_text()
    code = re.search(r"```python\n(.*?)```", guide, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/guides/train-env-api.md", "exec"), {"__name__": "guide"})
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "True 0.0 0.0" and printed[-2].endswith(" 0.0") and "Berlin offsite" in printed[0]
