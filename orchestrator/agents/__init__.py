"""Agents the orchestrator runs against an episode: `oracle`, `noop`, `cmd:` processes and model agents.

- `base`: the `Agent` contract, its report, the oracle and noop agents, and `parse_agent`.
- `command`: `cmd:COMMAND`, any agent process speaking MCP to the gateway.
- `models`: `openai:MODEL` and `anthropic:MODEL`, a tool-calling loop over a vendor API (SDKs imported on use).

May import `scenario` and `episode`; never `run` or the CLI.
"""

from orchestrator.agents.base import Agent, AgentReport, NoopAgent, OracleAgent, parse_agent, substitute

__all__ = ["Agent", "AgentReport", "NoopAgent", "OracleAgent", "parse_agent", "substitute"]
