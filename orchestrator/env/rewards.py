"""An env's episode bookkeeping and its rewards (docs/rewards.md is the contract).

`OpenEpisode` holds what an env knows of its open episode. With step rewards, a step that may have moved the score is
paid the difference of the verdict on the state so far (`evaluate`, no LLM judge) and the last one (potential-based
shaping: the rewards of an episode sum to its final score); the last step is paid what is left (`settle`). Process
counts (failed calls, injected faults, recoveries, lost replies, invalid actions) are reported beside the reward.

May import `orchestrator.episode`, `orchestrator.scenario`, `orchestrator.verify`, `orchestrator.world.noise` and
`orchestrator.env.actions` / `orchestrator.env.schema`.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any, cast

from orchestrator.env.actions import ToolCall
from orchestrator.env.schema import Observation, StepResult
from orchestrator.episode.episode import Episode, judge_noise
from orchestrator.scenario.checks import JournalCheck
from orchestrator.scenario.model import Scenario
from orchestrator.verify.results import Result
from orchestrator.verify.verdict import verify
from orchestrator.world.noise import noise_profile


class OpenEpisode:
    """An env's open episode and its bookkeeping; touched only by the env's worker task."""

    def __init__(
        self, scenario: Scenario, seed: int, episode_id: str, step_rewards: bool, stack: contextlib.AsyncExitStack
    ):
        self.scenario = scenario
        self.seed = seed
        self.episode_id = episode_id
        self.step_rewards = step_rewards
        self.stack = stack
        self.episode: Episode | None = None
        self.client: Any = None
        self.state: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self.journal: list[dict[str, Any]] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.steps = 0
        self.rewards: list[float] = []
        self.potential = 0.0
        self.passing: set[str] = set()
        self.violations: set[str] = set()
        self.process = {
            "failed_calls": 0,
            "faults": 0,
            "recovered_faults": 0,
            "unrecovered_faults": 0,
            "lost_replies": 0,
            "invalid_actions": 0,
        }
        self.pending_faults: dict[str, int] = {}
        self.closed = False
        self.done = False
        self.terminated = False
        self.truncated = False
        self.result: Result | None = None
        self.observation: Observation | None = None
        self.message: str | None = None
        self.noisy = noise_profile(scenario) is not None
        # Journal-dependent parts of the score (required journal checks, forbidden calls) can change on a read.
        self.reads_matter = (
            self.noisy
            or any(isinstance(c, JournalCheck) and c.required for _, _, c in scenario.checks())
            or any(rule.call is not None for rule in scenario.forbid)
        )


async def read_fresh(ep: OpenEpisode) -> list[dict[str, Any]]:
    """The journal entries written since the last step (the agent's call, world events, the gateway's own
    tools), from the journal `Episode.journal` gives the verdict; the state of apps that changed is re-read."""
    assert ep.episode is not None
    journal = await ep.episode.journal()
    fresh = [e for e in journal if _entry_key(e) not in ep.seen]
    ep.seen.update(_entry_key(e) for e in fresh)
    ep.journal = journal
    if ep.step_rewards:
        for app in sorted(
            cast(set[str], {e.get("app") for e in fresh if e.get("changes")})
        ):  # entries with changes name their app
            endpoint = ep.episode.endpoints.get(app)
            if endpoint is not None:
                ep.state[app] = await endpoint.snapshot(ep.episode.sandbox_id)
    return fresh


def evaluate(ep: OpenEpisode) -> Result:
    """The verdict on the state so far (no LLM judge: judge checks count once, in the final verdict)."""
    assert ep.episode is not None
    attempted = ep.episode.gateway.calls if ep.episode.gateway else None
    result = verify(ep.scenario, ep.episode.seeded, ep.state, ep.journal, attempted_calls=attempted)
    judge_noise(
        result, ep.scenario, ep.journal
    )  # a redone lost reply is harm under noise, charged at the step that redid it
    return result


def start_from(ep: OpenEpisode, baseline: Result) -> None:
    """The verdict on the seeded state (and what the world did at once) is where shaping starts."""
    ep.potential = baseline.score
    ep.passing = _passing(baseline)
    ep.violations = {_violation_key(v) for v in baseline.violations}


def describe_step(call: ToolCall, entries: list[dict[str, Any]], info: dict[str, Any]) -> None:
    """What a step did, into its info: the rows the call changed, the rows the world changed, the fault it met."""
    world = [e for e in entries if _is_world(e)]
    info["changed"] = [_change(e, c) for e in entries if not _is_world(e) for c in e.get("changes") or []]
    info["world_changed"] = [_change(e, c) for e in world for c in e.get("changes") or []]
    faults = [e["fault"] for e in entries if e.get("fault") and e.get("tool") == call.name]
    info["fault"] = (
        (faults[-1].get("kind", "error") if isinstance(faults[-1], Mapping) else "error") if faults else None
    )


def nothing_moved(ep: OpenEpisode) -> dict[str, Any]:
    """The step-reward info of a step that moved nothing the score reads: no credit, no harm, the score as it was."""
    return {"credited": [], "withdrawn": [], "harm": [], "harm_cleared": [], "score_so_far": ep.potential}


def shape(ep: OpenEpisode, entries: list[dict[str, Any]], out: StepResult) -> None:
    """With step rewards, pay the step the change of the score so far, and say which checks it credited or withdrew
    and which harm it did or cleared; the score is evaluated again only when the step may have moved it."""
    if not ep.step_rewards:
        return
    info = out.info
    changed = any(e.get("changes") for e in entries) or any(_is_world(e) for e in entries)
    succeeded = any(not e.get("is_error") for e in entries)
    if not (changed or (ep.reads_matter and succeeded)):
        info |= nothing_moved(ep)
        return
    current = evaluate(ep)
    out.reward = current.score - ep.potential
    passing = _passing(current)
    info["credited"] = sorted(passing - ep.passing)
    info["withdrawn"] = sorted(ep.passing - passing)
    keys = {_violation_key(v): v for v in current.violations}
    info["harm"] = [v.model_dump(mode="json") for k, v in keys.items() if k not in ep.violations]
    info["harm_cleared"] = sorted(ep.violations - set(keys))
    info["score_so_far"] = current.score
    ep.potential = current.score
    ep.passing = passing
    ep.violations = set(keys)


def settle(ep: OpenEpisode, out: StepResult) -> None:
    """The last step: a reward that makes the episode's rewards sum to its score, and the verdict in its info."""
    assert ep.result is not None
    if ep.result.undecided:  # neither passed nor failed: no reward, as for an errored episode
        out.reward = None
    else:
        out.reward = ep.result.score - sum(ep.rewards)
        ep.rewards.append(out.reward)
    out.info |= {
        "score": ep.result.score,
        "passed": None if ep.result.undecided else ep.result.passed,
        "undecided": ep.result.undecided,
        "process_score": ep.result.process,
        "process": dict(ep.process),
        "violations": [v.model_dump(mode="json") for v in ep.result.violations],
        "result": ep.result.model_dump(mode="json"),
    }


def undelivered(reply: dict[str, Any]) -> None:
    """A step result its caller never received: its reward is taken off what was paid, so the last step pays it."""
    value, ep = reply.get("value"), reply.get("episode")
    if isinstance(value, StepResult) and isinstance(ep, OpenEpisode) and not reply.get("settled"):
        reply["settled"] = True
        ep.rewards.append(-(value.reward or 0.0))  # an undecided step paid nothing


def count_process(
    ep: OpenEpisode, call: ToolCall, entries: list[dict[str, Any]], is_error: bool, info: dict[str, Any]
) -> None:
    """Process components, reported beside the reward: failed calls, injected faults, recovery after a fault.

    A fault the agent saw as a failure (an error, a timeout, a rate limit, an outage) waits for a success of the
    same call (same tool, same arguments): that is a recovery. A lost reply is counted apart: the call was
    delivered, so recovering means finding out what it did, not redoing it (the verdict judges a redo)."""
    key = json.dumps([call.name, call.arguments], sort_keys=True, default=str)
    calls = [e for e in entries if e.get("tool") == call.name]  # the others are the world's (events), not the call
    failed = is_error or not calls  # what the agent saw (a lost reply is an error to it, though it committed)
    if not _known(ep, call.name):  # refused by the gateway (an unknown tool): no app saw it
        ep.process["invalid_actions"] += 1
    for entry in calls:
        fault = entry.get("fault")
        if fault:
            kind = fault.get("kind", "error") if isinstance(fault, Mapping) else "error"
            ep.process["faults"] += 1
            if kind == "lost_reply":
                ep.process["lost_replies"] += 1
            elif is_error or entry.get("is_error"):
                ep.process["unrecovered_faults"] += 1
                ep.pending_faults[key] = ep.pending_faults.get(key, 0) + 1
        elif entry.get("is_error"):
            ep.process["failed_calls"] += 1
    recovered = 0
    if not failed and ep.pending_faults.get(key):
        recovered = ep.pending_faults.pop(key)
        ep.process["recovered_faults"] += recovered
        ep.process["unrecovered_faults"] -= recovered
    info["failed"] = failed
    info["recovered"] = recovered
    info["process"] = dict(ep.process)


def _known(ep: OpenEpisode, name: str) -> bool:
    """Whether the gateway offers a tool of that name (an app's, or one of its own `world__` tools)."""
    gateway = ep.episode.gateway if ep.episode else None
    if gateway is None:
        return False
    world = getattr(gateway, "world", None)
    return name in gateway.tools or (world is not None and name in world.tools)


def _passing(result: Result) -> set[str]:
    """Checks that count toward the score and hold (ids like stages[1].checks[0])."""
    return {c.id for c in result.checks if c.kind == "outcome" and c.passed}


def _entry_key(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    return (entry.get("app"), bool(entry.get("gateway")), entry.get("seq"), entry.get("wall"))


def _is_world(entry: Mapping[str, Any]) -> bool:
    """A world event's entry (rows an event wrote) or one of the gateway's own tools (`world__…`)."""
    return bool(entry.get("gateway") or (entry.get("world") and not entry.get("tool")))


def _change(entry: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    return {"app": entry.get("app"), "table": change["table"], "key": change["key"], "op": change["op"]}


def _violation_key(violation: Any) -> str:
    return json.dumps([violation.kind, violation.rule, violation.app, violation.table, str(violation.key)])
