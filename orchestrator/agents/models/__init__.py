"""Model agents: a tool-calling loop over a vendor API, talking to the episode's gateway as an in-process MCP client.

- `options`: `ModelOptions` (turns, tokens, temperature, seed, retries, timeouts …), the per-endpoint
  concurrency gate and price tables.
- `convert`: MCP tools → OpenAI (strict) / Anthropic tool formats, tool results → text, and conversions
  between the OpenAI, Anthropic and ShareGPT conversation formats, plus a messages view of any trace.
- `loop`: `ModelAgent`, the loop itself (retries with backoff, turn records, `messages.json`).
- `openai`: Chat Completions through the `openai` SDK (any OpenAI-compatible server).
- `anthropic`: the Messages API through the `anthropic` SDK.

May import `orchestrator.scenario`, `orchestrator.episode` and `orchestrator.agents.base` (never `agents.spec`,
which makes model agents); the `openai` and `anthropic` SDKs on use; never `run` or the CLI.
"""

from orchestrator.agents.models.loop import ModelAgent, ModelAPIError
from orchestrator.agents.models.options import EndpointGate, ModelOptions, Price, parse_price

__all__ = ["EndpointGate", "ModelAPIError", "ModelAgent", "ModelOptions", "Price", "parse_price", "make_model_agent"]


def make_model_agent(spec: str, options: ModelOptions | None = None, gate: EndpointGate | None = None) -> ModelAgent:
    """`openai:MODEL` or `anthropic:MODEL` as an agent (the SDK is imported here, not before)."""
    provider, _, model = spec.partition(":")
    model = model.strip()
    if not model:
        raise ValueError(
            f"--agent {provider}: needs a model name, e.g. --agent {provider}:"
            + ("gpt-4.1" if provider == "openai" else "claude-sonnet-4-5")
        )
    options = options or ModelOptions()
    if provider == "openai":
        from orchestrator.agents.models.openai import OpenAIAgent

        return OpenAIAgent(model, options, gate)
    if provider == "anthropic":
        from orchestrator.agents.models.anthropic import AnthropicAgent

        return AnthropicAgent(model, options, gate)
    raise ValueError(f"unknown model provider {provider!r}: use openai:MODEL or anthropic:MODEL")
