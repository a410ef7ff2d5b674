"""The agent contract and the orchestrator's own agents.

- `Agent`, `AgentReport`: what every agent implements and what it reports.
- `oracle` (`OracleAgent`): replays the scenario's reference solution through the gateway, as any MCP client would,
  recovering from injected faults as `FaultRecovery` says.
- `noop` (`NoopAgent`): does nothing (every valid scenario must fail it).

The other kinds (`cmd:` in `orchestrator.agents.command`, `openai:`/`anthropic:` in `orchestrator.agents.models`)
build on this module; `orchestrator.agents.spec` turns a spec into any of them. So this module imports none of them.

May import `orchestrator.scenario` and `orchestrator.episode`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import anyio

from orchestrator.episode.episode import Episode
from orchestrator.scenario.model import SAVED_REF, OracleStep, Retry, app_of

NOT_STARTED = {126: "command not executable", 127: "command not found"}
"""The exit codes of a shell whose command could not be run: an agent that exits with one never started."""


@dataclass
class AgentReport:
    """What an agent reports of its episode (results.json's `agent`): its calls, errors, exit and timing, and a model
    agent's usage and turns."""

    agent: str
    tool_calls: int = 0
    errors: list[str] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    duration_s: float = 0.0
    api_error: str | None = None
    """A model agent's API failed for good (the episode's status is then `agent_error`)."""
    usage: dict[str, Any] | None = None
    """A model agent's totals: tokens, turns, retries, and `cost_usd` with a price table."""
    turns: list[dict[str, Any]] | None = None
    """A model agent's turns: latency, input/output/cached tokens, stop reason, tool calls, retries."""

    @property
    def agent_error(self) -> str | None:
        """Why the agent never worked on the task, when it did not: its model's API failed for good, or its command
        never started (exit 126 or 127: not executable, not found). The episode's status is then `agent_error`:
        not scored, as it says nothing of the task."""
        if self.api_error:
            return self.api_error
        if not self.timed_out and self.exit_code in NOT_STARTED:
            return f"the agent exited with code {self.exit_code} ({NOT_STARTED[self.exit_code]}): it never started"
        return None

    def as_dict(self) -> dict[str, Any]:
        """The report as results.json records it (a model agent's API error, usage and turns only for model agents)."""
        data: dict[str, Any] = {
            "agent": self.agent,
            "tool_calls": self.tool_calls,
            "errors": self.errors,
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "duration_s": round(self.duration_s, 3),
        }
        if self.usage is not None or self.api_error is not None:
            data |= {"api_error": self.api_error, "usage": self.usage, "turns": self.turns or []}
        return data


class Agent(ABC):
    """Something that works on an episode through its gateway; the verdict comes from the state it leaves."""

    name: str
    isolation: str = "none"
    """How the agent is kept apart from the orchestrator: `bwrap` or `none` (recorded in results.json)."""

    @abstractmethod
    async def run(self, episode: Episode) -> AgentReport:
        """Work on the episode (its gateway, task and clock) until done or cancelled at its timeout, and report
        what happened; the episode's caller verifies the state afterwards."""


class NoopAgent(Agent):
    """`noop`: calls nothing; a valid scenario must fail it."""

    name = "noop"

    async def run(self, episode: Episode) -> AgentReport:
        """Report no calls, at once."""
        return AgentReport(agent=self.name)


class MissingValue(LookupError):
    """A `${name.path}` reference to a result that was not saved, or a path that result does not have."""


def lookup(saved: dict[str, Any], name: str, path: str) -> Any:
    """The value at `path` (dotted keys and list indexes) in the result saved as `name`; MissingValue if absent."""
    if name not in saved:
        raise MissingValue(f"${{{name}{path}}}: nothing was saved as {name!r}")
    value = saved[name]
    for part in filter(None, path.split(".")):
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, ValueError, TypeError):
            raise MissingValue(f"${{{name}{path}}}: {part!r} not found in the saved result") from None
    return value


def substitute(value: Any, saved: dict[str, Any]) -> Any:
    """`${name.path}` references replaced by saved results; a whole-string reference keeps the value's type."""
    if isinstance(value, str):
        whole = SAVED_REF.fullmatch(value)
        if whole:
            return lookup(saved, whole.group(1), whole.group(2))
        return SAVED_REF.sub(lambda m: str(lookup(saved, m.group(1), m.group(2))), value)
    if isinstance(value, dict):
        return {k: substitute(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, saved) for v in value]
    return value


class OracleAgent(Agent):
    """Replays the reference solution; `steps` overrides it (validation runs mutated solutions)."""

    name = "oracle"

    def __init__(self, steps: list[OracleStep] | None = None) -> None:
        self.steps = steps

    async def run(self, episode: Episode) -> AgentReport:
        """Call each step's tool in turn over a trusted connection, substituting saved results; an unexpected error
        (or an expected one that did not happen) is reported, and the steps go on."""
        report = AgentReport(agent=self.name)
        started = time.perf_counter()
        steps = self.steps if self.steps is not None else episode.scenario.oracle
        saved: dict[str, Any] = {}
        faults = FaultRecovery.of(episode)
        async with episode.connect(trusted=True) as client:
            for index, step in enumerate(steps):
                try:
                    args = substitute(step.args, saved)
                except MissingValue as exc:
                    report.errors.append(f"oracle[{index}] {step.tool}: skipped, {exc}")
                    continue
                result = await client.call_tool(step.tool, args)
                report.tool_calls += 1
                if faults is not None and not step.expect_error:
                    result = await faults.recover(client, step.tool, args, result, report, step.retry)
                if result.is_error and not step.expect_error:
                    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]  # the app servers answer with text content
                    report.errors.append(f"oracle[{index}] {step.tool}: {text}")
                elif step.expect_error and not result.is_error:
                    report.errors.append(f"oracle[{index}] {step.tool}: expected an error, the call succeeded")
                if step.save:
                    saved[step.save] = (
                        result.structured_content
                        if result.structured_content is not None
                        else (result.content[0].text if result.content else None)  # type: ignore[union-attr]  # the app servers answer with text content
                    )
        report.duration_s = time.perf_counter() - started
        return report


class FaultRecovery:
    """How the reference solution meets injected faults: it retries after an error, a timeout or an outage,
    waiting as long as a rate limit or an outage says; it never redoes a call whose reply was lost, but looks
    up what the call did; and it reads again when a read was stale. The oracle is the orchestrator's own
    reference, so it learns what happened to a call from the app's journal (the admin plane) where an agent
    would check the state with read tools."""

    DEFAULT = Retry()

    def __init__(self, episode: Episode) -> None:
        self.episode = episode
        self.seen: dict[str, int] = {}

    async def last_call(self, tool: str) -> dict[str, Any] | None:
        """The app journal's newest entry for `tool` since the last look, or None (also for an app without one)."""
        app, name = app_of(tool)
        endpoint = self.episode.endpoints.get(app)
        if endpoint is None:
            return None
        entries = await endpoint.journal(self.episode.sandbox_id, after=self.seen.get(app, 0))
        if entries:
            self.seen[app] = entries[-1]["seq"]
        return next((e for e in reversed(entries) if e["tool"] == name), None)

    @classmethod
    def of(cls, episode: Episode) -> FaultRecovery | None:
        """Recovery for an episode whose scenario injects faults, else None (nothing to recover from)."""
        return cls(episode) if any(plan.rules for plan in episode.scenario.faults.values()) else None

    async def recover(
        self, client: Any, tool: str, args: dict[str, Any], result: Any, report: AgentReport, retry: Retry | None = None
    ) -> Any:
        """The result of the call just made to `tool`, once recovered from any fault it met."""
        policy = retry or self.DEFAULT
        for attempt in range(policy.max + 1):
            entry = await self.last_call(tool)
            fault = (entry or {}).get("fault") or {}
            kind = fault.get("kind", "error") if fault else None
            if kind == "lost_reply" or (
                kind is None and result.is_error and entry is not None and not entry["is_error"]
            ):
                # Committed (a lost reply, or a call the gateway gave up on that the app finished): never redo it.
                return _Answer(entry.get("result") if entry else None)
            if kind is None or kind not in policy.kinds or kind == "latency":
                return result
            if (kind == "stale_read" and not fault.get("hidden_changes")) or attempt == policy.max:
                return result
            wait = (
                fault.get("delay_s")
                if kind == "stale_read"
                else fault.get("retry_after_s")
                if kind in ("rate_limit", "unavailable")
                else 0.05
            )
            await anyio.sleep(float(wait or 0.05) + 0.02)
            result = await client.call_tool(tool, args)
            report.tool_calls += 1
        return result


@dataclass
class _Answer:
    """The result of a call whose reply was lost, as the app's journal kept it."""

    structured_content: Any
    is_error: bool = False

    @property
    def content(self) -> list[Any]:
        return []
