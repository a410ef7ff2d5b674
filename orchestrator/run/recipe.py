"""How another process makes a run's agent again: an `AgentRecipe` (plain data) from the agent the run made.

The episodes that run elsewhere (a worker of `orchestrator.run.pool`, a Ray worker of `orchestrator.cluster.episodes`) get
a recipe, not the agent: `oracle`, `noop` and model agents (`openai:`, `anthropic:`: their model, options and API
key, and their share of the endpoint's concurrency limit) are rebuilt there. A `cmd:` agent has no recipe: its
command runs under this machine's isolation, from this process.

May import `orchestrator.agents` and `orchestrator.backends`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from orchestrator.agents.base import Agent, NoopAgent, OracleAgent
from orchestrator.backends.base import BackendError


class AgentNotPortable(BackendError):
    """The agent cannot be made again in another process (a `cmd:` agent, or one made in code)."""


@dataclasses.dataclass(frozen=True)
class AgentRecipe:
    """How a worker makes the agent: its spec, and a model agent's options (with the API key to use) and limit."""

    spec: str
    model_options: Any = None
    gate_limit: int = 4
    """Requests in flight to the model's endpoint at once, across the episodes of this recipe in one process."""

    def make(self) -> Agent:
        """A fresh agent; model agents of one process share one concurrency gate per endpoint and limit."""
        from orchestrator.agents.spec import parse_agent

        if self.model_options is None:
            return parse_agent(self.spec)
        return parse_agent(self.spec, model_options=self.model_options, gate=gate(self.spec, self.gate_limit))


_gates: dict[tuple[str, int], Any] = {}


def gate(spec: str, limit: int) -> Any:
    """This process's one concurrency gate for the endpoint of `spec` with `limit` requests in flight."""
    from orchestrator.agents.models import EndpointGate

    return _gates.setdefault((spec, limit), EndpointGate(limit))


def recipe_of(agent: Agent, refusal: str) -> AgentRecipe:
    """What another process needs to make `agent` again; `AgentNotPortable` with `refusal` for a `cmd:` agent."""
    if isinstance(agent, OracleAgent) and agent.steps is None:
        return AgentRecipe("oracle")
    if isinstance(agent, NoopAgent):
        return AgentRecipe("noop")
    api = getattr(agent, "api", None)
    if api in ("openai", "anthropic"):
        options = agent.options  # type: ignore[attr-defined]  # a model agent (its `api` checked above) has options
        key = options.api_key or getattr(getattr(agent, "client", None), "api_key", None)
        base_url = options.base_url or getattr(agent, "base_url", None) or None
        if api == "anthropic" and base_url is None:
            client_url = str(getattr(getattr(agent, "client", None), "base_url", "") or "")
            base_url = None if "api.anthropic.com" in client_url else client_url or None
        options = dataclasses.replace(options, api_key=key, base_url=base_url)
        return AgentRecipe(f"{api}:{agent.model}", options, getattr(agent.gate, "limit", 4))  # type: ignore[attr-defined]  # a model agent has a model and a gate
    if type(agent).__name__ == "CommandAgent":
        raise AgentNotPortable(refusal)
    raise AgentNotPortable(
        f"the agent {getattr(agent, 'name', type(agent).__name__)!r} cannot be made in another process"
    )
