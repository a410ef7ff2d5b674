"""`--agent` (or `--model PROVIDER/NAME`, inspect's spelling of a model agent) and its options as a maker of fresh
agents, one per episode; a bad spec, isolation or `--agent-env` is a usage error (exit 2) before anything starts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from orchestrator.cli.common import err, fail_usage

if TYPE_CHECKING:
    from collections.abc import Callable

    from orchestrator.agents.base import Agent
    from orchestrator.agents.models.options import ModelOptions


MODEL_PROVIDERS = ("openai", "anthropic")
"""The providers `--model PROVIDER/NAME` takes: each is the model agent `--agent PROVIDER:NAME`."""


def chosen_agent(agent: str | None, model: str | None, default: str | None = "oracle") -> str | None:
    """The agent spec of `--agent` and `--model`: `--model openai/gpt-4.1` is `--agent openai:gpt-4.1` (the name may
    hold more slashes: `openai/org/model`); giving both, or a provider without a model agent, is a usage error."""
    if model is None:
        return agent if agent is not None else default
    if agent is not None:
        raise fail_usage(f"--agent {agent} and --model {model}: give one of them (--model P/NAME is --agent P:NAME)")
    provider, slash, name = model.partition("/")
    if not slash or not name.strip():
        raise fail_usage(
            f"--model {model}: expected PROVIDER/NAME, e.g. --model openai/gpt-4.1 or anthropic/claude-sonnet-4-5"
        )
    if provider not in MODEL_PROVIDERS:
        raise fail_usage(
            f"--model {model}: the providers are {', '.join(MODEL_PROVIDERS)} (a local OpenAI-compatible "
            f"server is openai/NAME with --base-url)"
        )
    return f"{provider}:{name.strip()}"


def agent_factory(
    spec: str,
    isolation: str,
    env_names: list[str],
    model: ModelOptions | None = None,
    *,
    price: str | None = None,
    max_concurrent_requests: int = 4,
) -> Callable[[], Agent]:
    """A maker of fresh agents for `spec`; for cmd: agents, resolves the isolation (saying when auto takes unshare
    for want of bwrap) and warns loudly without one;
    model agents get `model` (with `--price` parsed for their model) and share one client-side concurrency limit
    (`max_concurrent_requests`) for their endpoint."""
    from orchestrator.agents.spec import parse_agent

    if spec.startswith(("openai:", "anthropic:")):
        return _model_agents(spec, model, price, max_concurrent_requests)
    try:
        parse_agent(spec)
    except ValueError as exc:
        raise fail_usage(str(exc)) from None
    if not spec.startswith("cmd:"):
        return lambda: parse_agent(spec)
    return _command_agents(spec, isolation, env_names)


def _model_agents(spec: str, model: ModelOptions | None, price: str | None, limit: int) -> Callable[[], Agent]:
    from orchestrator.agents.models import EndpointGate, ModelOptions, parse_price
    from orchestrator.agents.spec import parse_agent

    options = model or ModelOptions()
    try:
        if price:
            options.price = parse_price(price, spec.partition(":")[2].strip())
        parse_agent(spec, model_options=options)
    except ValueError as exc:
        raise fail_usage(str(exc)) from None
    gate = EndpointGate(limit)
    return lambda: parse_agent(spec, model_options=options, gate=gate)


def _command_agents(spec: str, isolation: str, env_names: list[str]) -> Callable[[], Agent]:
    from orchestrator.agents.isolation import IsolationError, bwrap_problem, resolve_isolation
    from orchestrator.agents.spec import parse_agent

    try:
        chosen, warning = resolve_isolation(isolation)
    except IsolationError as exc:
        raise fail_usage(str(exc)) from None
    if warning:
        err.print(f"[bold red]WARNING:[/] {warning}", highlight=False)
    elif chosen == "unshare" and isolation == "auto":
        err.print(f"isolation: unshare (util-linux namespaces), as {bwrap_problem()}", highlight=False)
    from orchestrator.record import KEY_ENV, KEY_FILE_ENV

    for name in (KEY_ENV, KEY_FILE_ENV):  # the key that seals records: an agent holding it could forge its own
        if name in env_names:
            raise fail_usage(f"--agent-env {name}: the record key is never given to an agent")
    missing = [name for name in env_names if name not in os.environ]
    if missing:
        raise fail_usage(f"--agent-env {', '.join(missing)}: not set in this environment")
    cwd = Path.cwd()
    return lambda: parse_agent(spec, isolation=chosen, env_names=env_names, cwd=cwd)
