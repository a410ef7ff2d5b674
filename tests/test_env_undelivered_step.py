"""A step result its caller never received is taken off what the episode paid, even the undecided last step's.

The last step of an undecided episode (a judge check no judge answered) has no reward (`StepResult.reward` None);
taking it back pays nothing back, where it used to raise a TypeError inside the env's worker.
"""

from __future__ import annotations

import contextlib

from helpers import ROOT

from orchestrator.env.rewards import OpenEpisode, undelivered
from orchestrator.env.schema import StepResult
from orchestrator.scenario import load


def _episode() -> OpenEpisode:
    scenario = load(ROOT / "scenarios" / "travel.yaml")
    return OpenEpisode(scenario, 0, "ep-1", step_rewards=True, stack=contextlib.AsyncExitStack())


def test_an_undelivered_step_is_taken_back_once() -> None:
    ep = _episode()
    reply = {"value": StepResult(text="ok", reward=0.25), "episode": ep}
    undelivered(reply)
    undelivered(reply)
    assert ep.rewards == [-0.25] and reply["settled"] is True


def test_an_undelivered_undecided_step_takes_back_nothing() -> None:
    ep = _episode()
    reply = {"value": StepResult(text="undecided", reward=None, terminated=True), "episode": ep}
    undelivered(reply)
    assert ep.rewards == [0.0] and sum(ep.rewards) == 0.0
