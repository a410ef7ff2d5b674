"""ClawGym scenarios served as an OpenEnv environment (the `openenv` extra: `pip install 'clawgym[openenv]'`).

    orchestrator serve-env scenarios/ --port 8000          # or: python -m orchestrator.env.openenv scenarios/

OpenEnv's own server (`openenv.core.env_server.create_fastapi_app`) carries the protocol; this module supplies the
`Environment` it serves, one `ClawGymEnv` per session:

- `/ws` (what `GenericEnvClient`, `MCPToolClient` and every `EnvClient` speak): `reset` takes
  `{"scenario": ID, "seed": N, "episode_id": ..., "step_rewards": bool}` and returns the task, the persona, the
  system prompt and the tools (MCP, OpenAI and Anthropic formats) (`"noise": "mild"` runs the scenario under a
  noise profile drawn from the seed); `step` takes OpenEnv's MCP actions
  (RFC 003): `{"type": "list_tools"}` and `{"type": "call_tool", "tool_name": "app__tool", "arguments": {...}}`.
  The tool `submit` ends the episode; its reward makes the episode's rewards sum to the verifier's score.
  Each step's observation has `result` (content, structured_content, data, is_error), `text`, `terminated`,
  `truncated` and `info` (ClawGym's step info: process components, credited stages, harm, the final verdict).
- `/mcp` (JSON-RPC `tools/list`, `tools/call`, with OpenEnv's `openenv/session/create|close`) and the `mcp`
  message on `/ws`: the same tools, bypassing `step` (no reward in the answer; the episode still counts the
  calls). A session whose first use is a tool listing or call starts the first served scenario with seed 0.
- `/state`, `/schema`, `/metadata`, `/health` as OpenEnv defines them.

`ClawGymClient` is OpenEnv's `EnvClient` with these types; `GenericEnvClient` and `MCPToolClient` work as they are.

Only the served scenarios can be reset to (by id or file name): a client cannot make the server read a path.
`serve` guards the app (`orchestrator.guard`): a token (printed in the URL it shows: `http://HOST:PORT/t/TOKEN`, the
base URL to give a client), loopback `Host` names (plus the bind address and `allowed_hosts` when bound elsewhere)
and WebSocket `Origin`s; stateless `/reset`, `/step` and `/mcp` requests count against `max_sessions` with the
sessions.
May import the env's own modules, `orchestrator.scenario`, `orchestrator.guard` and `openenv`; nothing imports it but
the CLI.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

try:
    from openenv.core.client_types import StepResult as OpenEnvStepResult
    from openenv.core.env_client import EnvClient
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.mcp_types import (
        CallToolAction,
        CallToolObservation,
        ListToolsAction,
        ListToolsObservation,
        Tool,
        ToolError,
        ToolErrorType,
    )
    from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata, Observation, State
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the OpenEnv server needs the `openenv` extra: pip install 'clawgym[openenv]' (openenv-core)"
    ) from exc
from pydantic import Field

from orchestrator.env.core import ClawGymEnv
from orchestrator.env.errors import EnvError
from orchestrator.env.scenarios import scenario_files
from orchestrator.env.schema import StepResult
from orchestrator.guard import Guard, SessionLimit, allowed_hosts, is_loopback, new_token
from orchestrator.scenario.model import Scenario

DEFAULT_PORT = 8000


# -- what goes over the wire ---------------------------------------------------------------------------------------


class ClawGymResetObservation(Observation):
    """What `reset` returns (OpenEnv drops `metadata` from the wire, so everything is a field)."""

    title: str
    task: str
    persona: dict[str, Any]
    now: str
    system_prompt: str
    tools: list[dict[str, Any]] = Field(
        description="MCP tools/list entries (name, description, inputSchema), then `submit`."
    )
    openai_tools: list[dict[str, Any]]
    anthropic_tools: list[dict[str, Any]]
    info: dict[str, Any] = Field(default_factory=dict)


class ClawGymToolObservation(CallToolObservation):
    """What a `call_tool` step returns: OpenEnv's `CallToolObservation` plus ClawGym's step fields."""

    text: str = ""
    terminated: bool = False
    truncated: bool = False
    info: dict[str, Any] = Field(default_factory=dict)


class ClawGymState(State):
    """OpenEnv's `State` (episode_id, step_count) plus `ClawGymEnv.state`'s fields."""

    scenario: str | None = None
    seed: int | None = None
    tool_calls: int = 0
    max_tool_calls: int | None = None
    step_rewards: bool = False
    total_reward: float = 0.0
    done: bool = False
    terminated: bool = False
    truncated: bool = False
    score: float | None = None
    passed: bool | None = None


def tool_result(out: StepResult) -> dict[str, Any]:
    """A step's result in the shape of FastMCP's `CallToolResult` (what OpenEnv's MCP clients unwrap via `data`)."""
    return {
        "content": out.content,
        "structured_content": out.structured_content,
        "data": out.structured_content if out.structured_content is not None else out.text,
        "is_error": out.is_error,
        "meta": None,
    }


# -- the served scenarios ------------------------------------------------------------------------------------------


class ScenarioSet:
    """The scenarios a server may reset to, by id and by file name (without `.yaml`)."""

    def __init__(self, sources: Sequence[str | Path]) -> None:
        if not sources:
            raise EnvError("no scenario to serve: give a scenario file or a folder of them")
        self.scenarios: dict[str, Scenario] = {}
        self.aliases: dict[str, str] = {}
        for file, scenario in scenario_files(sources):
            self.scenarios[scenario.id] = scenario
            self.aliases.setdefault(file.stem, scenario.id)
        self.default = next(iter(self.scenarios))

    def get(self, name: str | None) -> Scenario:
        if name is None:
            return self.scenarios[self.default]
        key = name if name in self.scenarios else self.aliases.get(name)
        if key is None:
            raise EnvError(f"scenario {name!r} is not served here; served: {', '.join(sorted(self.scenarios))}")
        return self.scenarios[key]


# -- the environment -----------------------------------------------------------------------------------------------


class _McpBridge:
    """The session's tools for OpenEnv's `/mcp` handler (which calls `is_connected`, `list_tools`, `call_tool`)."""

    def __init__(self, env: ClawGymOpenEnv) -> None:
        self.env = env

    def is_connected(self) -> bool:
        return not self.env._closed

    async def list_tools(self) -> list[dict[str, Any]]:
        await self.env._ensure_episode()
        return list(self.env._tools)

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        await self.env._ensure_episode()
        out = await self.env._env.step({"name": name, "arguments": arguments or {}})
        return tool_result(out) | {"reward": out.reward, "done": out.done}


class ClawGymOpenEnv(Environment):
    """One OpenEnv session: a `ClawGymEnv` over the served scenarios (async; the sync methods run on a loop of
    their own and cannot be mixed with the async ones on one instance)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, scenarios: ScenarioSet, *, backend: str = "inprocess", step_rewards: bool = False) -> None:
        super().__init__()
        self.scenarios = scenarios
        self._env = ClawGymEnv(backend, step_rewards=step_rewards)
        self._tools: list[dict[str, Any]] = []
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._portal: Any = None
        self._portal_cm: Any = None
        self.mcp_client = _McpBridge(self)

    # -- the async side (what OpenEnv's server calls) ----------------------------------------------------------

    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif self._loop is not loop:
            raise EnvError("this environment belongs to another event loop")

    async def reset_async(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        scenario: str | None = None,
        step_rewards: bool | None = None,
        noise: str | None = None,
        **kwargs: Any,
    ) -> ClawGymResetObservation:
        self._bind()
        if kwargs:
            raise EnvError(
                f"reset: unknown argument(s) {sorted(kwargs)}; expected scenario, seed, episode_id, step_rewards, noise"
            )
        if step_rewards is not None and not isinstance(step_rewards, bool):
            raise EnvError(f"reset: step_rewards must be true or false, not {step_rewards!r}")
        chosen = self.scenarios.get(scenario)
        obs = await self._env.reset(
            chosen, seed=seed or 0, step_rewards=step_rewards, episode_id=episode_id, noise=noise or "none"
        )
        self._tools = obs.tools
        return ClawGymResetObservation(**obs.model_dump(), done=False, reward=None)

    async def step_async(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        self._bind()
        if isinstance(action, ListToolsAction):
            await self._ensure_episode()
            return ListToolsObservation(
                tools=[
                    Tool(
                        name=t["name"], description=t.get("description") or "", input_schema=t.get("inputSchema") or {}
                    )
                    for t in self._tools
                ]
            )
        if not isinstance(action, CallToolAction):
            raise EnvError(f"unsupported action {type(action).__name__}: send list_tools or call_tool")
        try:
            out = await self._env.step({"name": action.tool_name, "arguments": action.arguments})
        except (EnvError, ValueError) as exc:
            state = self._env.state
            return ClawGymToolObservation(
                tool_name=action.tool_name,
                error=ToolError(error_type=ToolErrorType.EXECUTION_ERROR, message=str(exc)),
                done=state.done,
                reward=0.0,
            )
        return ClawGymToolObservation(
            tool_name=action.tool_name,
            result=tool_result(out),
            text=out.text,
            terminated=out.terminated,
            truncated=out.truncated,
            info=out.info,
            done=out.done,
            reward=out.reward,
        )

    async def _ensure_episode(self) -> None:
        """Tools asked for before any reset: start the default scenario (seed 0), as an MCP-only client expects."""
        if self._env.state.episode_id is None:
            await self.reset_async()

    @contextlib.asynccontextmanager
    async def mcp_session(self) -> AsyncIterator[_McpBridge]:
        """Held open by OpenEnv's server for a session's lifetime; leaving it ends the episode and the env."""
        try:
            yield self.mcp_client
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            await self._env.close()

    @property
    def state(self) -> ClawGymState:
        s = self._env.state
        return ClawGymState(
            episode_id=s.episode_id, step_count=s.steps, **s.model_dump(exclude={"episode_id", "steps"})
        )

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="ClawGym",
            description="Everyday apps (mail, calendar, docs, tickets) as MCP tools; the verifier's score is the "
            f"reward. Scenarios: {', '.join(sorted(self.scenarios.scenarios))}",
            version=_version(),
        )

    # -- the sync side ---------------------------------------------------------------------------------------------

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._closed:
            raise EnvError("the environment is closed")
        if self._portal is None:
            import anyio.from_thread

            self._portal_cm = anyio.from_thread.start_blocking_portal()
            self._portal = self._portal_cm.__enter__()
        return self._portal.call(lambda: fn(*args, **kwargs))

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> ClawGymResetObservation:
        return self._call(self.reset_async, seed=seed, episode_id=episode_id, **kwargs)

    def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        return self._call(self.step_async, action)

    def close(self) -> None:
        """OpenEnv calls this after a stateless request; the async env is closed on its own loop."""
        if self._closed:
            self._stop_portal()
            return
        if self._portal is not None:
            self._portal.call(self.aclose)
            self._stop_portal()
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            self._closed = True
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            task = loop.create_task(self.aclose())  # called from a handler on the loop: finish in the background
            _background.add(task)
            task.add_done_callback(_background.discard)
        elif threading.current_thread() is not threading.main_thread() or running is None:
            asyncio.run_coroutine_threadsafe(self.aclose(), loop).result(timeout=60)

    def _stop_portal(self) -> None:
        if self._portal_cm is not None:
            cm, self._portal_cm, self._portal = self._portal_cm, None, None
            cm.__exit__(None, None, None)


_background: set[asyncio.Task[Any]] = set()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("clawgym")
    except PackageNotFoundError:
        return "0"


# -- a typed client -------------------------------------------------------------------------------------------------


class ClawGymClient(EnvClient[CallToolAction, Observation, ClawGymState]):
    """OpenEnv's `EnvClient` with ClawGym's types: `reset` gives a `ClawGymResetObservation`, a `call_tool` step a
    `ClawGymToolObservation`, a `list_tools` step a `ListToolsObservation`, `state` a `ClawGymState`.

        async with ClawGymClient(base_url="http://127.0.0.1:8000") as env:
            first = await env.reset(scenario="travel", seed=0)
            out = await env.call_tool("mail__search_messages", query="Berlin")
    """

    def _step_payload(self, action: Any) -> dict[str, Any]:
        if isinstance(action, ListToolsAction):
            return {"type": "list_tools"}
        if isinstance(action, CallToolAction):
            return {"type": "call_tool", "tool_name": action.tool_name, "arguments": action.arguments}
        raise TypeError(f"an action is a CallToolAction or a ListToolsAction, not {type(action).__name__}")

    def _parse_result(self, payload: dict[str, Any]) -> OpenEnvStepResult[Observation]:
        fields = dict(payload.get("observation") or {})
        done, reward = bool(payload.get("done", False)), payload.get("reward")
        observation: Observation
        if "task" in fields:
            observation = ClawGymResetObservation.model_validate(fields | {"done": done, "reward": reward})
        elif "tool_name" in fields:
            observation = ClawGymToolObservation.model_validate(fields | {"done": done, "reward": reward})
        else:
            observation = ListToolsObservation.model_validate(fields | {"done": done, "reward": reward})
        return OpenEnvStepResult(observation=observation, reward=reward, done=done)

    def _parse_state(self, payload: dict[str, Any]) -> ClawGymState:
        return ClawGymState.model_validate(payload)

    async def call_tool(self, name: str, **arguments: Any) -> OpenEnvStepResult[Observation]:
        """Step one tool call (or `submit`)."""
        return await self.step(CallToolAction(tool_name=name, arguments=arguments))

    async def list_tools(self) -> list[Tool]:
        result = await self.step(ListToolsAction())
        assert isinstance(result.observation, ListToolsObservation)
        return result.observation.tools


# -- the app and the command ---------------------------------------------------------------------------------------


def make_app(
    scenarios: Sequence[str | Path],
    *,
    backend: str = "inprocess",
    step_rewards: bool = False,
    max_sessions: int = 16,
    idle_timeout_s: float | None = 600.0,
    token: str | None = None,
    hosts: frozenset[str] | None = None,
) -> Any:
    """OpenEnv's FastAPI app serving `scenarios` (files or folders), one `ClawGymEnv` per session; a session idle
    for `idle_timeout_s` (None: never) is closed with its episode, as a client that vanished would leave it.

    The app answers `hosts` (default: loopback names) and their origins only, and, given a `token`, only requests
    that carry it; stateless requests count against `max_sessions` (`orchestrator.guard`)."""
    served = ScenarioSet(scenarios)
    if max_sessions < 1:
        raise EnvError(f"max_sessions must be at least 1, not {max_sessions}")
    if idle_timeout_s is not None and idle_timeout_s <= 0:
        raise EnvError(f"idle_timeout_s must be positive, not {idle_timeout_s}")

    def factory() -> ClawGymOpenEnv:
        return ClawGymOpenEnv(served, backend=backend, step_rewards=step_rewards)

    factory.__name__ = "ClawGymOpenEnv"
    limits = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout_s)
    app = _closing_quietly(
        create_fastapi_app(factory, CallToolAction, ClawGymToolObservation, concurrency_config=limits)
    )
    counted = SessionLimit(app, limit=max_sessions, paths=STATELESS)
    return Guard(counted, token=token, hosts=hosts or allowed_hosts(), exempt=("/health",))


STATELESS = ("/reset", "/step", "/mcp")
"""OpenEnv's HTTP endpoints that run an episode of their own per request: they count as sessions."""


def _closing_quietly(app: Any) -> Any:
    """OpenEnv's session endpoints close the WebSocket after the client has gone (its `close` message ends the
    session, then the client hangs up): that close is dropped instead of failing with a logged traceback."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return await app(scope, receive, send)

        async def guarded(message: Any) -> None:
            try:
                await send(message)
            except Exception:
                if message.get("type") != "websocket.close":
                    raise

        async def bounded() -> Any:
            while True:
                message = await receive()
                problem = _nesting_problem(message.get("text") or message.get("bytes"))
                if message.get("type") != "websocket.receive" or problem is None:
                    return message
                # answered here, and the session (and its episode) goes on
                await send(
                    {
                        "type": "websocket.send",
                        "text": json.dumps({"type": "error", "data": {"message": problem, "code": "INVALID_MESSAGE"}}),
                    }
                )

        await app(scope, bounded, guarded)

    wrapped.app = app  # type: ignore[attr-defined]  # the wrapped ASGI app, kept on the function for who needs it
    return wrapped


MAX_MESSAGE_DEPTH = 100
"""How deeply a session message's JSON may nest; deeper is refused with an error, the session kept."""


def _nesting_problem(data: str | bytes | None) -> str | None:
    """Why a WebSocket message nests too deeply to hand to OpenEnv (whose parser would fail the whole session), or
    None. Only messages with more than `MAX_MESSAGE_DEPTH` opening brackets are parsed here."""
    if not data:
        return None
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= MAX_MESSAGE_DEPTH:
        return None
    try:
        value = json.loads(text)
    except RecursionError:
        return f"the message nests deeper than {MAX_MESSAGE_DEPTH} levels"
    except ValueError:
        return None  # not JSON: OpenEnv answers that itself
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_MESSAGE_DEPTH:
                return f"the message nests deeper than {MAX_MESSAGE_DEPTH} levels"
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return None


def serve(
    scenarios: Sequence[str | Path],
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    backend: str = "inprocess",
    step_rewards: bool = False,
    max_sessions: int = 16,
    idle_timeout_s: float | None = 600.0,
    token: str | None = None,
    extra_hosts: Sequence[str] = (),
    say: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> None:
    """Serve until interrupted (uvicorn on `host:port`, loopback by default) with `token` (a new one when None),
    saying through `say` the base URL (with the token) to give clients, and warning loudly on a bind that is not
    loopback."""
    import uvicorn

    token = token or new_token()
    app = make_app(
        scenarios,
        backend=backend,
        step_rewards=step_rewards,
        max_sessions=max_sessions,
        idle_timeout_s=idle_timeout_s,
        token=token,
        hosts=allowed_hosts(host, extra_hosts),
    )
    shown = f"[{host}]" if ":" in host else host
    if not is_loopback(host):
        say(
            f"WARNING: serving on {host}, which is not loopback: anyone who can reach this address and has the "
            "token can drive episodes and read verdicts; the Host names answered are "
            + ", ".join(sorted(allowed_hosts(host, extra_hosts)))
        )
    base = f"http://{shown}:{port}/t/{token}"
    say(f"OpenEnv environment at {base} (give this URL to clients: WebSocket {base}/ws, MCP at {base}/mcp)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m orchestrator.env.openenv`: serve scenarios as an OpenEnv environment over HTTP; the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m orchestrator.env.openenv", description="Serve ClawGym scenarios as an OpenEnv environment."
    )
    parser.add_argument("scenarios", nargs="+", help="scenario files or folders of them")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--backend", default="inprocess", help="inprocess (default), local, docker or remote")
    parser.add_argument("--step-rewards", action="store_true", help="declared per-step rewards (docs/rewards.md)")
    parser.add_argument("--max-sessions", type=int, default=16, help="concurrent sessions (each one its own episode)")
    parser.add_argument("--idle-timeout", type=float, default=600.0, help="seconds before an idle session is closed")
    parser.add_argument("--token", default=None, help="the token clients need (default: a new random one)")
    parser.add_argument("--allowed-host", action="append", default=[], help="extra Host name accepted")
    args = parser.parse_args(argv)
    try:
        serve(
            args.scenarios,
            host=args.host,
            port=args.port,
            backend=args.backend,
            step_rewards=args.step_rewards,
            max_sessions=args.max_sessions,
            idle_timeout_s=args.idle_timeout,
            token=args.token,
            extra_hosts=args.allowed_host,
        )
    except EnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
