"""The `--agent` spec parser: `oracle`, `noop`, `cmd:COMMAND`, `openai:MODEL` or `anthropic:MODEL` → an `Agent`.

It sits above the agent kinds so that `base` (the contract every kind implements) imports none of them; the kinds
that need a process or an SDK (`command`, `models`) are imported only when their spec is parsed.

May import `orchestrator.agents.base`; `orchestrator.agents.command` and `orchestrator.agents.models` only on use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orchestrator.agents.base import Agent, NoopAgent, OracleAgent

AGENT_SPECS = "oracle, noop, cmd:COMMAND, openai:MODEL or anthropic:MODEL"


def parse_agent(
    spec: str,
    *,
    isolation: str | None = None,
    env_names: tuple[str, ...] | list[str] = (),
    cwd: Path | None = None,
    model_options: Any = None,
    gate: Any = None,
) -> Agent:
    """The agent a spec names: `oracle`, `noop`, `cmd:COMMAND`, `openai:MODEL` or `anthropic:MODEL`; the keywords
    configure `cmd:` agents (see `orchestrator.agents.command`) and model agents (`ModelOptions`, `EndpointGate` of
    `orchestrator.agents.models`). Raises ValueError for a spec it does not know or one missing its command or model."""
    if spec.startswith(("openai:", "anthropic:")):
        from orchestrator.agents.models import make_model_agent

        return make_model_agent(spec, model_options, gate)
    if spec == "oracle":
        return OracleAgent()
    if spec == "noop":
        return NoopAgent()
    if spec.startswith("cmd:"):
        from orchestrator.agents.command import CommandAgent

        command = spec[4:].strip()
        if not command:
            raise ValueError("--agent cmd: needs a command, e.g. --agent 'cmd:python examples/agent.py'")
        return CommandAgent(command, isolation=isolation, env_names=env_names, cwd=cwd)  # type: ignore[arg-type]  # isolation: one of Isolation's names, as the command line gave it
    raise ValueError(f"unknown agent {spec!r}: use {AGENT_SPECS}")
