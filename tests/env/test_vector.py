"""`VectorEnv`: a batch of envs stepped together over worker processes, each env a real `ClawGymEnv` (in-process
app servers, real SQLite) in a worker of its own process."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest
from helpers import SCENARIOS, TRAVEL_PATH

from orchestrator.agents.base import substitute
from orchestrator.env import EnvError
from orchestrator.env.vector import VectorEnv
from orchestrator.scenario.model import load

RESCHEDULE = SCENARIOS / "reschedule-conflict.yaml"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/status") as status:
        return "zombie" not in status.read()


def test_a_batch_of_episodes_runs_across_processes_each_its_own_episode() -> None:
    """Four envs over two workers: two processes, env i seeded i; the reference solution stepped in envs 0 and 2
    only (the others wait with None, then submit without doing anything): 0 and 2 pass, 1 and 3 fail, and what
    one env did is in no other env's state."""
    scenario = load(RESCHEDULE)
    with VectorEnv(4, workers=2) as envs:
        assert len(set(envs.pids)) == 2 and os.getpid() not in envs.pids
        envs.reset(RESCHEDULE, seeds=10)
        assert [s.seed for s in envs.states()] == [10, 11, 12, 13]
        assert {s.scenario for s in envs.states()} == {scenario.id}
        saved: list[dict[str, Any]] = [{}, {}, {}, {}]
        for step in scenario.oracle:
            actions = [
                {"name": step.tool, "arguments": substitute(step.args, saved[i])} if i % 2 == 0 else None
                for i in range(4)
            ]
            outs = envs.step(actions)
            assert outs[1] is None and outs[3] is None
            for i in (0, 2):
                out = outs[i]
                assert out is not None and (not out.is_error or step.expect_error), out
                if step.save:
                    saved[i][step.save] = out.structured_content if out.structured_content is not None else out.text
        sent = [len(snapshot["mail"]["messages"]) for snapshot in envs.snapshots()]
        assert sent[0] == sent[2] > sent[1] == sent[3], sent  # the mails of envs 0 and 2 are theirs alone
        finals = envs.finish("done")
        assert all(f is not None and f.terminated for f in finals)
        assert [r.passed for r in envs.results() if r is not None] == [True, False, True, False]
        assert [s.done for s in envs.states()] == [True] * 4
        # Each env's trace is its own episode's.
        traces = envs.traces()
        assert all(any(e.get("source") == "gateway" for e in t) for t in traces)
        assert len(traces[0]) > len(traces[1])
        pids = envs.pids
    assert not any(_alive(pid) for pid in set(pids))


def test_an_env_used_out_of_order_is_named_and_the_others_do_their_part() -> None:
    with VectorEnv(2, workers=2) as envs:
        envs.reset([TRAVEL_PATH, RESCHEDULE], seeds=[1, 2])
        envs.finish(["done", None])  # env 0 ends, env 1 goes on
        with pytest.raises(EnvError, match=r"^env 0: .*reset") as caught:
            envs.step([{"name": "mail__search_messages", "arguments": {"query": "x"}}] * 2)
        assert "env 1" not in str(caught.value)
        assert envs.states()[1].steps == 1  # env 1's step was taken
        with pytest.raises(EnvError, match=r"actions: expected one per env \(2\), got 3"):
            envs.step([None, None, None])
        with pytest.raises(EnvError, match="scenarios: expected one per env"):
            envs.reset([TRAVEL_PATH])


def test_a_worker_that_dies_is_an_infrastructure_error_and_nothing_is_left_running() -> None:
    envs = VectorEnv(3, workers=2)
    try:
        envs.reset(TRAVEL_PATH)
        pids = envs.pids
        os.kill(pids[1], signal.SIGKILL)
        with pytest.raises(EnvError, match=r"VectorEnv worker 1 \(pid \d+, envs 1\) died \(exit code -9\)"):
            envs.step([{"name": "mail__search_messages", "arguments": {"query": "x"}}] * 3)
        with pytest.raises(EnvError, match="closed"):
            envs.states()
    finally:
        envs.close()
    assert not any(_alive(pid) for pid in set(pids))


def test_bad_arguments_are_one_line_errors() -> None:
    for bad, message in (
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2, "workers": 0}, "workers"),
        ({"num_envs": 2, "backend": "local"}, "backend"),
    ):
        with pytest.raises(EnvError, match=message):
            VectorEnv(**bad)
