"""`--agent cmd:COMMAND`: any agent that runs as a process and speaks MCP.

The command runs through `/bin/sh -c` with these variables set:

    CLAWGYM_TASK        the task text (also the gateway's prompt `task`)
    CLAWGYM_MCP_URL     the gateway's Streamable HTTP URL
    CLAWGYM_MCP_CONFIG  a JSON file in the `mcpServers` format Claude Desktop,
                        Claude Code and Cursor read, naming the gateway `clawgym`
    CLAWGYM_SCENARIO    the scenario id

Its output goes to `agent.log` in the episode's folder. The episode is
verified when the process exits or when the timeout passes, whichever comes
first; on timeout the whole process group is stopped.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import anyio

from orchestrator.agents.base import Agent, AgentReport
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import task_text

GRACE_S = 5.0


def mcp_config(url: str) -> dict:
    return {"mcpServers": {"clawgym": {"type": "http", "url": url}}}


class CommandAgent(Agent):
    name = "cmd"

    def __init__(self, command: str, timeout_s: float | None = None) -> None:
        self.command = command
        self.timeout_s = timeout_s

    async def run(self, episode: Episode) -> AgentReport:
        assert episode.gateway_url, "a command agent needs the gateway served over HTTP"
        workdir = episode.workdir or Path.cwd()
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / "mcp.json"
        config.write_text(json.dumps(mcp_config(episode.gateway_url), indent=2) + "\n")
        env = os.environ | {
            "CLAWGYM_TASK": task_text(episode.scenario),
            "CLAWGYM_MCP_URL": episode.gateway_url,
            "CLAWGYM_MCP_CONFIG": str(config.resolve()),
            "CLAWGYM_SCENARIO": episode.scenario.id,
        }
        report = AgentReport(agent=f"cmd:{self.command}")
        timeout = self.timeout_s or episode.scenario.limits.timeout_s
        started = time.perf_counter()
        with (workdir / "agent.log").open("ab") as log:
            process = subprocess.Popen(
                ["/bin/sh", "-c", self.command], env=env, cwd=workdir, stdin=subprocess.DEVNULL,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
            try:
                with anyio.move_on_after(timeout) as scope:
                    while process.poll() is None:
                        await anyio.sleep(0.05)
                report.timed_out = scope.cancelled_caught
            finally:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(_stop_group, process)
        report.exit_code = process.returncode
        report.duration_s = time.perf_counter() - started
        if report.timed_out:
            report.errors.append(f"stopped after the {timeout:g} s timeout")
        elif report.exit_code:
            report.errors.append(f"exited with code {report.exit_code}; see {workdir / 'agent.log'}")
        report.tool_calls = sum(1 for e in episode.trace.entries if e["method"] == "tools/call")
        return report


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the agent and anything it started: SIGTERM to its process group, then SIGKILL."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(GRACE_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        process.wait()
