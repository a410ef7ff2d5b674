"""Agents the orchestrator runs against an episode: `oracle`, `noop`, `cmd:` processes and model agents.

- `base`: the `Agent` contract, its report, the oracle and noop agents, and `substitute` (saved-result references).
- `spec`: `parse_agent`, an `--agent` spec (`oracle`, `noop`, `cmd:…`, `openai:…`, `anthropic:…`) to an agent.
- `command`: `cmd:COMMAND`, any agent process speaking MCP to the gateway; `isolation` makes its sandbox (tiers
  bwrap, unshare, none), `agent_process` watches, logs and stops it, and `reaper` (run as a script of its own) is the
  `none` tier's child subreaper.
- `models`: `openai:MODEL` and `anthropic:MODEL`, a tool-calling loop over a vendor API (SDKs imported on use).

Within the package `base` imports no other module of it; `command` and `models` import `base`; `spec` imports `base`
and, when a spec names them, `command` and `models`.

May import: `scenario`, `episode`.
Beyond those, the vendor SDKs (openai, anthropic) only when a model agent is made; never the runner, the backends or
the CLI.
"""

from orchestrator.agents.base import Agent, AgentReport, NoopAgent, OracleAgent, substitute
from orchestrator.agents.spec import parse_agent

__all__ = ["Agent", "AgentReport", "NoopAgent", "OracleAgent", "parse_agent", "substitute"]
