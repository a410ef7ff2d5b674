"""An agent that plays a derived trajectory and notes which of its calls failed."""

from __future__ import annotations

import time
from typing import Any

from orchestrator.agents.base import Agent, AgentReport, FaultRecovery, MissingValue, substitute
from orchestrator.episode.episode import Episode
from orchestrator.prove.derive import Call
from servers.core.probes import Computed


def _computed(value: Any, saved: dict[str, Any]) -> Any:
    if isinstance(value, Computed):
        return value.fn(saved)
    if isinstance(value, dict):
        return {k: _computed(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [_computed(v, saved) for v in value]
    return value


class ScriptAgent(Agent):
    """Makes `calls` in order through the gateway, as the oracle agent does.

    `failed` lists the calls that did not go as planned (an error where none
    was expected, or a reference that could not be resolved), with the index
    of the call and whether the probe added or changed it.
    """

    name = "script"

    def __init__(self, calls: list[Call]) -> None:
        self.calls = calls
        self.failed: list[tuple[int, bool, str]] = []

    async def run(self, episode: Episode) -> AgentReport:
        report = AgentReport(agent=self.name)
        started = time.perf_counter()
        saved: dict[str, Any] = {}
        faults = FaultRecovery.of(episode)  # injected faults are met as the oracle meets them
        async with episode.connect(trusted=True) as client:  # the orchestrator's own agent, as the oracle is
            for index, call in enumerate(self.calls):
                try:
                    args = _computed(substitute(call.args, saved), saved)
                except (MissingValue, KeyError, TypeError) as exc:
                    self._fail(report, index, call, f"skipped, {exc}")
                    continue
                result = await client.call_tool(call.tool, args)
                report.tool_calls += 1
                if faults is not None and not call.expect_error:
                    result = await faults.recover(client, call.tool, args, result, report)
                if result.is_error and not call.expect_error:
                    self._fail(report, index, call, result.content[0].text if result.content else "error")  # type: ignore[union-attr]  # the app servers answer with text content
                if call.save:
                    saved[call.save] = (
                        result.structured_content
                        if result.structured_content is not None
                        else (result.content[0].text if result.content else None)  # type: ignore[union-attr]  # the app servers answer with text content
                    )
        report.duration_s = time.perf_counter() - started
        return report

    def _fail(self, report: AgentReport, index: int, call: Call, message: str) -> None:
        text = f"call {index} {call.tool}: {message}"
        self.failed.append((index, call.probe, text))
        report.errors.append(text)

    @property
    def probe_failures(self) -> list[str]:
        return [text for _, probe, text in self.failed if probe]
