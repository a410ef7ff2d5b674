"""The environment API attacked as a reward-maximising policy would attack it: oscillating a check, harm done and
undone, cheap and unreadable actions, early submits, colliding episode ids, reused envs, threads; and the env's
final reward against the score `orchestrator run` gives a `cmd:` agent making the same calls through the gateway.
Real scenarios, real in-process app servers and real SQLite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH

from orchestrator.agents.base import substitute
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.env import SUBMIT, ClawGymEnv, EnvError, StepResult, SyncClawGymEnv, ToolCall
from orchestrator.episode.gateway import task_text
from orchestrator.scenario.model import OracleStep, Scenario, load

READ = {"name": "mail__search_messages", "arguments": {"query": "Berlin"}}


@pytest.fixture(scope="module")
def travel() -> Scenario:
    return load(TRAVEL_PATH)


# Not conftest's async per-test backend: one for the module, usable from the sync wrapper's own event loop.
@pytest.fixture(scope="module")
def backend() -> Any:
    shared = InProcessBackend()
    yield shared
    anyio.run(shared.close)


def sandboxes(backend: InProcessBackend) -> int:
    return sum(len(endpoint.store) for endpoint in backend.endpoints.values())


def discounted(rewards: list[float], gamma: float) -> float:
    return sum(r * gamma**t for t, r in enumerate(rewards))


async def play(env: ClawGymEnv, steps: list[OracleStep]) -> tuple[list[StepResult], list[tuple[str, dict[str, Any]]]]:
    """Step calls (reference-solution steps, `${saved}` filled in); also the concrete calls made, for a replay."""
    saved: dict[str, Any] = {}
    results, made = [], []
    for step in steps:
        arguments = substitute(step.args, saved)
        made.append((step.tool, arguments))
        result = await env.step({"name": step.tool, "arguments": arguments})
        if step.save:
            saved[step.save] = result.structured_content if result.structured_content is not None else result.text
        results.append(result)
    return results, made


def create_event(travel: Scenario, nth: int) -> dict[str, Any]:
    step = [s for s in travel.oracle if s.tool == "calendar__create_event"][nth]
    return {"name": step.tool, "arguments": dict(step.args)}


# -- reward hacking ----------------------------------------------------------------------------------------------


async def test_oscillating_a_check_never_pays_more_than_doing_it_once(travel: Scenario, backend: Any) -> None:
    """create → delete → recreate → delete → recreate: the credit is paid once per holding, never twice; the sum is the
    final score, and for every discount the oscillation is worth less than creating once and then only reading."""
    first, second = create_event(travel, 0), create_event(travel, 1)
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        rewards = [(await env.step(first)).reward]
        made = await env.step(second)
        rewards.append(made.reward)
        event = made.structured_content["id"]
        for _ in range(2):
            rewards.append(
                (await env.step({"name": "calendar__delete_event", "arguments": {"event_id": event}})).reward
            )
            again = await env.step(second)
            event = again.structured_content["id"]
            rewards.append(again.reward)
        end = await env.finish()
        rewards.append(end.reward)
        score = env.result.score
    assert score == pytest.approx(1 / 4.5) and sum(rewards) == pytest.approx(score, abs=1e-9)
    running = [sum(rewards[: i + 1]) for i in range(len(rewards))]
    assert max(running) == pytest.approx(score, abs=1e-9)  # never more paid than the check is worth
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        once = [(await env.step(first)).reward, (await env.step(second)).reward]
        once += [(await env.step(READ)).reward for _ in range(len(rewards) - 3)] + [(await env.finish()).reward]
    assert len(once) == len(rewards) and sum(once) == pytest.approx(score, abs=1e-9)
    for gamma in (1.0, 0.99, 0.9, 0.5):
        assert discounted(rewards, gamma) <= discounted(once, gamma) + 1e-12, gamma


async def test_harm_done_and_undone_pays_nothing_extra(travel: Scenario, backend: Any) -> None:
    """Collateral damage charged at its step, the credit paid back when it is undone: worth no more than not doing it."""
    harm = {"name": "calendar__update_event", "arguments": {"event_id": "one-on-one", "title": "moved"}}
    undo = {"name": "calendar__update_event", "arguments": {"event_id": "one-on-one", "title": "1:1 with Marco"}}
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        made, hurt, healed = await env.step(create_event(travel, 0)), await env.step(harm), await env.step(undo)
        end = await env.finish()
    assert (
        made.reward > 0 and hurt.reward == pytest.approx(-made.reward) and healed.reward == pytest.approx(made.reward)
    )
    assert [v["kind"] for v in hurt.info["harm"]] == ["collateral"] and hurt.info["harm"][0]["call"]["tool"] == harm[
        "name"
    ]
    assert len(healed.info["harm_cleared"]) == 1 and end.info["violations"] == []
    rewards = [made.reward, hurt.reward, healed.reward, end.reward]
    assert sum(rewards) == pytest.approx(end.info["score"], abs=1e-9)
    for gamma in (0.99, 0.9):
        assert discounted(rewards, gamma) < discounted([made.reward, 0.0, 0.0, end.reward], gamma)


async def test_the_right_object_made_the_wrong_way_is_taken_back(travel: Scenario, backend: Any) -> None:
    """The approval ticket made twice: the second copy breaks 'exactly one' at its own step; deleting a seeded event
    after all the work is harm charged at that step, and the episode's rewards sum to the verdict's 0."""
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        results, _ = await play(env, travel.oracle)
        assert sum(r.reward for r in results) == pytest.approx(1.0)
        destroy = await env.step({"name": "calendar__delete_event", "arguments": {"event_id": "one-on-one"}})
        assert destroy.reward == pytest.approx(-1.0) and [v["kind"] for v in destroy.info["harm"]] == ["destruction"]
        after = await env.step(create_event(travel, 0))  # progress while harm stands earns nothing
        assert after.reward == 0.0
        end = await env.finish()
        assert end.info["score"] == 0.0 and not end.info["passed"]
        assert sum(r.reward for r in [*results, destroy, after, end]) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.xfail(
    strict=True,
    reason="potential differences are exact only undiscounted: with γ < 1, credit paid early and taken back by later "
    "harm leaves a positive return for an episode that scores 0 (never more than the same work without the harm). "
    "Exactness under γ needs γ-aware shaping (γΦ' − Φ), which would break 'the rewards sum to the score'; "
    "docs/rewards.md says to train with γ = 1 when the return must equal the score",
)
async def test_a_discounted_return_of_work_then_harm_is_not_above_its_score(travel: Scenario, backend: Any) -> None:
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        rewards = [(await env.step(create_event(travel, 0))).reward]
        rewards.append(
            (await env.step({"name": "calendar__delete_event", "arguments": {"event_id": "one-on-one"}})).reward
        )
        rewards.append((await env.finish()).reward)
        assert env.result.score == 0.0 and sum(rewards) == pytest.approx(0.0, abs=1e-9)
    assert discounted(rewards, 0.9) <= 1e-12


async def test_steps_that_make_no_call_are_bounded(travel: Scenario, backend: Any) -> None:
    """Unknown tools (the gateway's world tools in a scenario without a world, other apps), `SUBMIT` spelled wrong
    and unreadable actions never reach the scenario's tool-call limit: without `max_steps` they are still bounded."""
    text = TRAVEL_PATH.read_text().replace(
        "limits: {max_tool_calls: 60, timeout_s: 600}", "limits: {max_tool_calls: 4}"
    )
    junk: list[Any] = [
        {"name": "world__wait", "arguments": {"minutes": 60}},
        {"name": "world__report", "arguments": {"status": "done"}},
        {"name": "bank__transfer", "arguments": {"amount": 10**9}},
        {"name": "SUBMIT", "arguments": {}},
        {"name": "mail__get_message", "arguments": '{"message_id": "offsite-invite"'},  # cut-off JSON
        {"type": "function", "function": {"name": "mail__get_message", "arguments": "[]"}},
        {"type": "tool_use", "id": "t1", "name": "", "input": {}},
        "mail__search_messages",
    ]
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(text, seed=0)
        results = [await env.step(junk[i % len(junk)]) for i in range(8)]
        assert all(r.is_error and r.reward == 0.0 for r in results) and env.state.tool_calls == 0
        assert [r.truncated for r in results] == [False] * 7 + [True]
        assert "step bound of 8 steps" in results[-1].info["truncated_by"] and results[-1].info["score"] == 0.0
        assert results[-1].info["process"]["invalid_actions"] == 8
        with pytest.raises(EnvError, match="episode is over"):
            await env.step(READ)
    async with ClawGymEnv(backend, max_steps=3) as env:  # max_steps, when given, is the bound
        await env.reset(travel, seed=0)
        assert [(await env.step(junk[0])).truncated for _ in range(3)] == [False, False, True]


async def test_arguments_that_are_not_plain_json_are_invalid_actions(travel: Scenario, backend: Any) -> None:
    """Python objects, NaN, nesting deeper than JSON tools take: refused as unreadable actions (a step, no call, no
    crash), whether given as a mapping, a JSON string or a ToolCall; the episode goes on."""
    deep: dict[str, Any] = {}
    cursor = deep
    for _ in range(5000):
        cursor["a"] = {}
        cursor = cursor["a"]
    bad: list[Any] = [
        {"name": "mail__search_messages", "arguments": {"query": object()}},
        {"name": "mail__search_messages", "arguments": {"query": deep}},
        {"name": "mail__search_messages", "arguments": '{"query": "x", "max_results": NaN}'},
        {"name": "mail__search_messages", "arguments": {"query": "x", "max_results": float("inf")}},
        ToolCall(name="mail__search_messages", arguments={"query": {1, 2}}),
    ]
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        for action in bad:
            out = await env.step(action)
            assert out.is_error and "not plain JSON" in out.info["invalid_action"] and out.reward == 0.0
        assert env.state.tool_calls == 0 and env.state.process["invalid_actions"] == len(bad)
        big = await env.step({"name": "docs__create_document", "arguments": {"title": "x", "content": "y" * 2_000_000}})
        assert big.is_error and "at most" in big.text and big.info["changed"] == []  # the app bounds it; nothing made
        assert not (await env.step(READ)).is_error


async def test_bad_seeds_and_settings_are_named(travel: Scenario, backend: Any) -> None:
    for options, message in [
        ({"max_steps": 0}, "max_steps: expected a whole number of at least 1"),
        ({"max_result_chars": -1}, "max_result_chars: expected a whole number of at least 0"),
    ]:
        with pytest.raises(EnvError, match=message):
            ClawGymEnv(backend, **options)
    async with ClawGymEnv(backend) as env:
        for seed in ("abc", 1.5, "7"):
            with pytest.raises(EnvError, match="seed: expected an integer"):
                await env.reset(travel, seed=seed)  # type: ignore[arg-type]  # a wrong type on purpose: the env must refuse it
        await env.reset(travel, seed=None)
        assert env.state.seed == 0  # as Gymnasium callers pass it


async def test_an_early_submit_ends_with_the_verdict_and_nothing_after(travel: Scenario, backend: Any) -> None:
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        made = await env.step(create_event(travel, 0))
        end = await env.step({"name": SUBMIT, "arguments": {"message": {"claims": "all done"}}})
        assert end.terminated and end.info["score"] == pytest.approx(made.reward) and end.reward == pytest.approx(0.0)
        assert not end.info["passed"] and env.result.episode["message"] == '{"claims": "all done"}'
        for action in (READ, {"name": SUBMIT, "arguments": {}}, {"name": "nope"}):
            with pytest.raises(EnvError, match="episode is over"):
                await env.step(action)
        assert env.state.steps == 2 and env.state.total_reward == pytest.approx(end.info["score"])


async def test_a_step_its_caller_gave_up_on_is_paid_by_the_last_step(travel: Scenario, backend: Any) -> None:
    """A rollout loop with a timeout around `step`: the call still happens, but its reward never reached the caller;
    the rewards the caller did receive still sum to the final score."""
    async with ClawGymEnv(backend, step_rewards=True) as env:
        await env.reset(travel, seed=0)
        seen: list[float] = []

        async def step() -> None:
            seen.append((await env.step(create_event(travel, 0))).reward)

        async with anyio.create_task_group() as tg:
            tg.start_soon(step)
            while env.state.steps == 0:  # the call is under way
                await anyio.sleep(0)
            tg.cancel_scope.cancel()
        assert seen == []
        seen.append((await env.step(create_event(travel, 1))).reward)
        seen.append((await env.finish()).reward)
        assert env.result.score == pytest.approx(1 / 4.5) and seen[-1] > 0
        assert sum(seen) == pytest.approx(env.result.score, abs=1e-9) == env.state.total_reward


# -- the contract ------------------------------------------------------------------------------------------------


async def test_two_envs_given_the_same_episode_id_stay_apart(travel: Scenario) -> None:
    """OpenEnv sessions and rollout workers pick episode ids themselves: one id given twice on one backend must not
    hand one episode's sandboxes to the other (which would erase the first episode's harm from its verdict)."""
    async with InProcessBackend() as backend:
        async with ClawGymEnv(backend, step_rewards=True) as first, ClawGymEnv(backend, step_rewards=True) as second:
            await first.reset(travel, seed=0, episode_id="worker-0")
            hurt = await first.step({"name": "calendar__delete_event", "arguments": {"event_id": "one-on-one"}})
            assert [v["kind"] for v in hurt.info["harm"]] == ["destruction"]
            await second.reset(travel, seed=0, episode_id="worker-0")
            assert sandboxes(backend) == 2 * len(travel.apps)
            seen = await second.step({"name": "calendar__get_event", "arguments": {"event_id": "one-on-one"}})
            assert not seen.is_error  # the second episode starts from the seeded state
            gone = await first.step({"name": "calendar__get_event", "arguments": {"event_id": "one-on-one"}})
            assert gone.is_error  # the first still sees its own world
            end = await first.finish()
            assert [v["kind"] for v in end.info["violations"]] == ["destruction"]
            assert first.state.episode_id == second.state.episode_id == "worker-0"
            assert end.info["result"]["episode"]["episode_id"] == "worker-0"
            assert (await second.finish()).info["violations"] == []
        assert sandboxes(backend) == 0
        with pytest.raises(EnvError, match="episode_id: expected a string of 1 to 256"):
            async with ClawGymEnv(backend) as env:
                await env.reset(travel, episode_id="x" * 300)


async def test_reset_after_reset_reuses_nothing_and_close_releases_the_sandboxes(travel: Scenario) -> None:
    async with InProcessBackend() as backend:
        async with ClawGymEnv(backend, step_rewards=True) as env:
            await env.reset(travel, seed=0)
            await env.step({"name": "calendar__delete_event", "arguments": {"event_id": "one-on-one"}})
            await env.step(create_event(travel, 0))
            first_trace = await env.trace()
            first_id = env.state.episode_id
            assert sandboxes(backend) == len(travel.apps)
            obs = await env.reset(travel, seed=0)  # mid-episode: the first one's sandboxes go
            assert sandboxes(backend) == len(travel.apps) and env.result is None and obs.info["episode_id"] != first_id
            state = env.state
            assert (state.steps, state.tool_calls, state.total_reward, state.done) == (0, 0, 0.0, False)
            assert set(state.process.values()) == {0}
            tools = lambda trace: [e.get("tool") for e in trace if e.get("tool")]  # noqa: E731
            assert "calendar__delete_event" in tools(first_trace) and tools(await env.trace()) == []
            snapshot = await env.snapshot()
            assert any(row["id"] == "one-on-one" for row in snapshot["calendar"]["events"])
            assert not any(row["title"] == "Travel to Berlin" for row in snapshot["calendar"]["events"])
            out = await env.step(READ)
            assert out.info["step"] == 1 and out.info["process"]["invalid_actions"] == 0
            assert out.info["credited"] == [] and out.info["score_so_far"] == 0.0
        assert sandboxes(backend) == 0  # close deleted them


def test_the_sync_wrapper_from_several_threads(travel: Scenario) -> None:
    """Threads sharing one sync env are served one call at a time; threads with an env each stay apart."""
    with SyncClawGymEnv(step_rewards=True) as env:
        env.reset(str(TRAVEL_PATH), seed=0)
        errors: list[BaseException] = []
        ids: list[int] = []

        def reads() -> None:
            try:
                ids.extend(env.step(READ).info["step"] for _ in range(5))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=reads) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors and sorted(ids) == list(range(1, 21)) and env.state.tool_calls == 20

    # Rollout threads with an env each on one shared backend (its servers belong to one event loop): no deadlock.
    totals: dict[int, tuple[float, float]] = {}
    shared = InProcessBackend()

    def rollout(index: int) -> None:
        with SyncClawGymEnv(shared, step_rewards=True) as own:
            own.reset(travel, seed=index)
            rewards = [own.step(create_event(travel, n)).reward for n in range(index % 2 + 1)] + [own.finish().reward]
            totals[index] = (sum(rewards), own.result.score)

    threads = [threading.Thread(target=rollout, args=(i,), daemon=True) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "sync envs sharing a backend deadlocked"
    assert all(total == pytest.approx(score) for total, score in totals.values()) and len(totals) == 3
    assert totals[0][1] < totals[1][1] == pytest.approx(1 / 4.5)
    assert sum(len(endpoint.store) for endpoint in shared.endpoints.values()) == 0
    anyio.run(shared.close)


async def test_same_seed_and_actions_give_byte_identical_episodes(travel: Scenario, backend: Any) -> None:
    """Observations, every step's result, reward and info (the verdict included), and the final state, compared
    byte for byte; only what docs/rewards.md leaves out of the promise (the sandbox name, durations) is set aside."""
    scenario = load(SCENARIOS / "declined-meeting.yaml")  # a living world: events and people answer too

    async def once() -> str:
        async with ClawGymEnv(backend, step_rewards=True) as env:
            obs = await env.reset(scenario, seed=7, episode_id="same")
            results, _ = await play(env, scenario.oracle[:-1])
            results.append(await env.step({"name": "calendar__delete_event", "arguments": {"event_id": "nope"}}))
            final = await env.snapshot()
            results.append(await env.finish("done"))
            for r in results[-1:]:
                for key in ("sandbox", "duration_s", "phases"):
                    r.info["result"]["episode"].pop(key, None)
            return json.dumps(
                [obs.model_dump(mode="json"), [r.model_dump(mode="json") for r in results], final], sort_keys=True
            )

    first, second = await once(), await once()
    assert first == second


async def test_observations_hold_nothing_of_the_checks_or_the_reference_solution(backend: Any) -> None:
    """Every string a check, a forbid rule or a reference step carries that the task does not already say is absent
    from the observation (tool descriptions and schemas aside, which are the same for every scenario)."""

    def leaves(value: Any) -> list[str]:
        if isinstance(value, dict):
            return [s for v in value.values() for s in leaves(v)]
        if isinstance(value, list):
            return [s for v in value for s in leaves(v)]
        return [value] if isinstance(value, str) else []

    async with ClawGymEnv(backend) as env:
        for name in ("travel.yaml", "declined-meeting.yaml", "oncall-handover.yaml", "ask-the-user.yaml"):
            scenario = load(SCENARIOS / name)
            obs = (await env.reset(scenario, seed=0)).model_dump(mode="json")
            shown = json.dumps({k: v for k, v in obs.items() if k not in ("tools", "openai_tools", "anthropic_tools")})
            tools = json.dumps(obs["tools"])
            secrets = [s for st in scenario.stages for s in leaves(st.model_dump(mode="json"))]
            secrets += [s for step in scenario.oracle for s in leaves(step.args)]
            secrets += [s for rule in scenario.forbid for s in leaves(rule.model_dump(mode="json"))]
            told = obs["task"] + obs["title"] + json.dumps(obs["persona"]) + scenario.clock.start.date().isoformat()
            leaked = sorted({s for s in secrets if len(s) >= 6 and s in shown and s not in told and s not in tools})
            assert not leaked, (name, leaked)
            assert set(obs["info"]) <= {
                "episode_id",
                "seed",
                "apps",
                "step_rewards",
                "max_tool_calls",
                "max_steps",
                "pass_mark",
                "baseline_score",
                "end_action",
                "noise",
            }


# -- the env's verdict is the verdict of a run --------------------------------------------------------------------


@pytest.mark.e2e
async def test_the_final_reward_is_the_score_of_orchestrator_run_for_the_same_calls(
    tmp_path: Path, backend: Any
) -> None:
    """Correct, partial, wrong (harm after the work) and a living world: the calls the env was stepped with are
    replayed by a `cmd:` agent through the gateway of `orchestrator run`; score and `passed` agree, and the step
    rewards sum to that score."""
    travel = load(TRAVEL_PATH)
    plans = {
        "reschedule-conflict.yaml": lambda s: s.oracle,  # correct
        "oncall-handover.yaml": lambda s: s.oracle[: len(s.oracle) * 2 // 3],  # partial
        "travel.yaml": lambda s: [
            *s.oracle,
            OracleStep(tool="calendar__delete_event", args={"event_id": "one-on-one"}),
        ],
        "declined-meeting.yaml": lambda s: s.oracle,  # world__wait, a reply from a person
    }
    replay: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    expected: dict[str, tuple[float, bool]] = {}
    async with ClawGymEnv(backend, step_rewards=True) as env:
        for name, plan in plans.items():
            scenario = load(SCENARIOS / name)
            await env.reset(scenario, seed=0)
            results, made = await play(env, plan(scenario))
            end = await env.finish()
            assert sum(r.reward for r in [*results, end]) == pytest.approx(end.info["score"], abs=1e-9), name
            replay[task_text(scenario)] = made  # the agent knows its task, never its scenario's id
            expected[scenario.id] = (end.info["score"], end.info["passed"])
    assert sorted(expected.values())[0] == (0.0, False) and 0 < expected["oncall-handover"][0] < 1
    assert expected[travel.id] == (0.0, False) and all(
        expected[s] == (1.0, True) for s in ("reschedule-conflict", "declined-meeting")
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "run",
            *(str(SCENARIOS / n) for n in plans),
            "--backend",
            "inprocess",
            "--seed",
            "0",
            "--parallel",
            "4",
            "--agent",
            f"cmd:python {ROOT / 'tests' / 'env' / 'replay_agent.py'}",
            "--agent-env",
            "CLAWGYM_REPLAY",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CLAWGYM_REPLAY": json.dumps(replay)},
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    for scenario_id, (score, passed) in expected.items():
        run = json.loads((tmp_path / scenario_id / "results.json").read_text())
        assert run["status"] != "error", (scenario_id, run["error"])
        assert (run["score"], run["passed"]) == pytest.approx((score, passed)), scenario_id
