"""ClawGym scenarios as a `verifiers` environment (the `verifiers` extra; verifiers 0.4, `verifiers.v1`).

    import verifiers.v1 as vf
    from orchestrator.env.verifiers_env import load_environment

    env = load_environment(scenarios=["scenarios/"], seeds=[0, 1])      # a vf.Env (ClawGymVerifiersEnv)
    # in a verifiers config, once this module is imported: the taskset id `clawgym_verifiers`

One task per (scenario, seed). A rollout (`ClawGymVerifiersEnv.run`) starts a ClawGym episode (`ClawGymEnv`,
in process by default), serves its tools as a Streamable HTTP MCP server on 127.0.0.1 (the scenario's tools and
`submit`, every call going through `ClawGymEnv.step`), and lets the agent's harness play the task with those tools
(`TOOL_PREFIX = None`: the model sees ClawGym's names, `mail__search_messages`). When the harness stops, the episode
ends (`submit` if the model did not call it, with its last reply as the message) and the task's reward
`clawgym_score` is the verifier's score; metrics: `passed`, `tool_calls`, `violations`, `truncated`, and
`process` where the scenario has process checks. A model that could not be reached or failed (verifiers'
`ProviderError`) before the episode ended makes the episode an error (`Episode.errors`, `ok` false; verifiers
retries it per `--env.retries`), never a task scored 0: the trace then carries no `clawgym_score`.

The default seat plays with `ClawGymHarness`: verifiers' own chat loop (the `null` harness's program), run by this
Python rather than in a uv environment built at run time, in a subprocess runtime. Any MCP-capable harness can be
pinned instead (`load_environment(..., agent={"harness": {"id": "null"}})`).

May import the env's own modules, `orchestrator.episode.serving`, `orchestrator.episode.gateway`,
`orchestrator.backends`, `orchestrator.scenario` and `verifiers`; nothing in ClawGym imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

try:
    import verifiers.v1 as vf
    from verifiers.v1.dialects.chat import message_to_wire
    from verifiers.v1.harnesses.null import NullHarness
    from verifiers.v1.harnesses.utils.launch import CHAT_PROGRAM_SOURCE
    from verifiers.v1.runtimes import ProgramResult, Runtime, SubprocessConfig
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the verifiers environment needs the `verifiers` extra: pip install 'clawgym[verifiers]' && "
        "pip install --no-deps 'verifiers==0.4.*'"
    ) from exc

import mcp.types as types
from mcp.server.lowlevel import Server
from pydantic import Field

from orchestrator.backends import Backend, make_backend
from orchestrator.env.core import ClawGymEnv
from orchestrator.env.errors import EnvError
from orchestrator.env.scenarios import scenario_files
from orchestrator.env.schema import Observation
from orchestrator.episode.serving import serve_http
from orchestrator.scenario.model import Scenario

TASKSET_ID = "clawgym_verifiers"
"""The taskset id verifiers resolves (its plugin ids are top-level module names): an alias of this module."""
sys.modules.setdefault(TASKSET_ID, sys.modules[__name__])
ROOT = Path(__file__).resolve().parents[2]


# -- tasks ---------------------------------------------------------------------------------------------------------


class ClawGymData(vf.TaskData):
    """One task: a scenario file and the episode seed."""

    scenario: str = Field(description="Path of the scenario file.")
    scenario_id: str
    seed: int = 0


class ClawGymTaskConfig(vf.TaskConfig):
    """A task's settings in the verifiers library: the rollout's MCP URL."""

    tools_url: str | None = None
    """The rollout's MCP URL; set by `ClawGymVerifiersEnv.run` on the rollout's copy of the task."""


class ClawGymToolset(vf.Toolset[vf.ToolsetConfig]):
    """The episode's tools: never launched by verifiers, always the URL the env serves (`config.url`)."""

    TOOL_PREFIX = None

    def register(self, mcp: Any) -> None:
        raise vf.ToolsetError("ClawGym's tools are served by ClawGymVerifiersEnv.run for each rollout, not launched")


class ClawGymTask(vf.Task[ClawGymData, vf.State, ClawGymTaskConfig]):
    """A scenario; `env` is the rollout's live episode (set on the rollout's copy only)."""

    env: ClawGymEnv | None = None

    @property
    def key(self) -> str:
        return f"{self.data.scenario_id}@{self.data.seed}"

    @classmethod
    def toolsets(cls, config: ClawGymTaskConfig) -> list[vf.Toolset]:
        return [ClawGymToolset(vf.ToolsetConfig(url=config.tools_url))] if config.tools_url else []

    _ending: asyncio.Lock | None = None

    async def _ended(self, trace: vf.Trace) -> ClawGymEnv:
        """The rollout's episode, ended (by `submit` with the model's last reply, if the model did not end it)."""
        env = self.env
        if env is None:
            raise vf.TaskError("no ClawGym episode for this task: run it through ClawGymVerifiersEnv")
        if self._ending is None:
            self._ending = asyncio.Lock()
        async with self._ending:
            if not env.state.done:
                await env.finish(_last_reply(trace))
        return env

    @vf.stop
    async def episode_over(self, trace: vf.Trace) -> bool:
        """No further model call once the episode has ended (`submit`, or the scenario's tool-call limit)."""
        return self.env is not None and self.env.state.done

    @vf.reward
    async def clawgym_score(self, trace: vf.Trace) -> float:
        """The verifier's score of the episode (0..1): what `orchestrator run` reports. An undecided verdict has none:
        the rollout ends in an error instead (a judge the verdict needed never answered)."""
        env = await self._ended(trace)
        assert env.result is not None
        if env.result.undecided:
            raise vf.EnvError(f"the verdict is undecided ({env.result.undecided}): no score")
        return env.result.score

    @vf.metric
    async def clawgym(self, trace: vf.Trace) -> dict[str, float]:
        env = await self._ended(trace)
        result = env.result
        assert result is not None
        state = env.state
        metrics = {
            "passed": float(result.passed),
            "tool_calls": float(state.tool_calls),
            "violations": float(len(result.violations)),
            "truncated": float(state.truncated),
        }
        if result.process is not None:  # the scenario's process checks (failed calls, recovery after faults)
            metrics["process"] = result.process
        return metrics


def _last_reply(trace: vf.Trace) -> str:
    try:
        return trace.root_reply or ""
    except Exception:  # noqa: BLE001 - an empty trace has no reply
        return ""


class ClawGymTasksetConfig(vf.TasksetConfig):
    """Which scenarios and seeds make the taskset's tasks."""

    scenarios: list[str] = Field(default_factory=lambda: [str(ROOT / "scenarios")])
    """Scenario files or folders of them."""
    seeds: list[int] = Field(default_factory=lambda: [0])
    """One task per scenario and seed."""
    task: ClawGymTaskConfig = ClawGymTaskConfig()


class ClawGymTaskset(vf.Taskset[ClawGymTask, ClawGymTasksetConfig]):
    """The verifiers taskset: one task per scenario file and seed."""

    def load(self) -> Iterator[ClawGymTask]:
        for path, scenario in scenario_files(self.config.scenarios):
            for seed in self.config.seeds:
                yield ClawGymTask(
                    ClawGymData(
                        id=f"{scenario.id}@{seed}",
                        name=scenario.id,
                        description=scenario.title,
                        prompt=_prompt(scenario),
                        scenario=str(path),
                        scenario_id=scenario.id,
                        seed=seed,
                    ),
                    self.config.task,
                )


def _prompt(scenario: Scenario) -> str:
    from orchestrator.episode.gateway import task_text

    return task_text(scenario)


# -- the rollout ---------------------------------------------------------------------------------------------------


class ClawGymEnvConfig(vf.EnvConfig):
    """The verifiers environment's settings: the policy's seat, the backend, the noise profile."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=SubprocessConfig())
    """The one seat: the policy. Its harness defaults to `ClawGymHarness` in a subprocess runtime."""
    backend: str = "inprocess"
    """Where the apps run: inprocess (default), local, docker or remote."""
    noise: str = "none"
    """A noise profile (none, mild, harsh): injected faults drawn from each task's seed."""


class ClawGymVerifiersEnv(vf.Env[ClawGymEnvConfig]):
    """One ClawGym episode per rollout; the agent reaches its tools over MCP; the verifier's score is the reward."""

    _backend: Backend | None = None

    async def start(self) -> None:
        self._backend = make_backend(self.config.backend)

    async def stop(self) -> None:
        backend, self._backend = self._backend, None
        if backend is not None:
            await backend.close()

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        assert isinstance(task, ClawGymTask)
        backend = self._backend if self._backend is not None else self.config.backend
        env = ClawGymEnv(backend)  # verifiers scores the whole trace: the final score, no per-step rewards
        try:
            obs = await env.reset(
                task.data.scenario,
                seed=task.data.seed,
                episode_id=f"vf-{task.key}-{uuid.uuid4().hex[:8]}",
                noise=self.config.noise,
            )
            async with serve_tools(env, obs) as url:
                rollout = task.with_data(prompt=obs.task, system_prompt=obs.system_prompt)
                rollout.config = task.config.model_copy(update={"tools_url": url})
                rollout.env = env
                rollout._ending = None
                trace = await agents.agent.run(rollout)
            failed = _model_failure(trace)
            if failed is not None and not env.state.done:
                raise vf.EnvError(
                    f"{task.key}: the model failed before the episode ended ({failed}): the episode is not scored, "
                    "its reward of 0 is no verdict (orchestrator run records such an episode as agent_error)"
                )
            if env.result is not None and env.result.undecided:
                raise vf.EnvError(
                    f"{task.key}: the verdict is undecided ({env.result.undecided}): the episode is not scored, "
                    "neither passed nor failed (orchestrator run counts it apart)"
                )
        finally:
            await env.close()


MODEL_ERRORS = ("ProviderError", "InterceptionError", "TunnelError")
"""verifiers' errors of a model that could not be reached or did not answer (its transport, its HTTP status)."""


def _model_failure(trace: Any) -> str | None:
    """What went wrong with the model in a rollout (`type: message` of its errors), or None when it answered: an
    unreachable model is an error of the episode, not a task it failed (verifiers sums no reward into 0)."""
    errors = [e for e in getattr(trace, "errors", None) or [] if getattr(e, "type", None) in MODEL_ERRORS]
    return "; ".join(f"{e.type}: {e.message}" for e in errors) or None


class _Front:
    """What `serve_http` serves (duck-typed like the gateway): an MCP server whose calls are `ClawGymEnv.step`s."""

    def __init__(self, env: ClawGymEnv, obs: Observation) -> None:
        self.env = env
        self.scenario = SimpleNamespace(id=env.state.scenario)  # what the served app's /healthz reports
        self.tools = [types.Tool.model_validate(t) for t in obs.tools]
        self.server: Server[Any] = Server("clawgym", on_list_tools=self._list, on_call_tool=self._call)

    async def _list(self, ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools)

    async def _call(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            out = await self.env.step({"name": params.name, "arguments": params.arguments or {}})
        except (EnvError, ValueError) as exc:
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=out.text)],
            structured_content=out.structured_content,
            is_error=out.is_error,
        )


@contextlib.asynccontextmanager
async def serve_tools(env: ClawGymEnv, obs: Observation) -> AsyncIterator[str]:
    """Serve the episode's tools over Streamable HTTP on 127.0.0.1 while the block runs; yields the MCP URL (its
    path holds a random secret, so another local process that finds the port cannot call the tools)."""
    async with serve_http(_Front(env, obs), "127.0.0.1", 0, secret=os.urandom(12).hex()) as url:  # type: ignore[arg-type]  # _Front serves the calls serve_http makes of a Gateway
        yield url


# -- the default harness -------------------------------------------------------------------------------------------


class ClawGymHarness(NullHarness):
    """verifiers' own chat loop with MCP tools (the `null` harness's program), run by this Python interpreter in a
    local subprocess runtime: no uv environment is built at run time (the program needs openai, mcp, httpx,
    tenacity and certifi, all ClawGym's dependencies). For a container runtime pin the `null` harness instead."""

    async def setup(self, runtime: Runtime) -> None:
        if not runtime.is_local:
            raise vf.HarnessError(
                "ClawGymHarness runs the chat program with this interpreter: use a subprocess runtime, or the null harness"
            )

    async def launch(
        self,
        ctx: Any,
        trace: Any,
        runtime: Runtime,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: vf.TaskData,
        tool_interception_url: str | None = None,
    ) -> ProgramResult:
        # The arguments are those of verifiers' launch_chat_program; only the interpreter differs.
        system_prompt, prompt = self.resolve_prompt(data)
        args = [f"--base-url={endpoint}", f"--api-key={secret}", f"--model={ctx.model}"]
        if tool_interception_url:
            args.append(f"--tool-interception-url={tool_interception_url}")
        if system_prompt:
            args.append(f"--system-prompt={system_prompt}")
        if mcp_urls:
            servers = {name: {"url": url, "timeout": self.config.tool_timeout} for name, url in mcp_urls.items()}
            args.append("--mcp-config=" + json.dumps({"mcpServers": servers}))
        if isinstance(prompt, str):
            args.append(f"--prompt={prompt}")
        elif prompt is not None:
            path = f".vf-initial-messages-{trace.id}.json"
            await runtime.write(path, json.dumps([message_to_wire(m) for m in prompt]).encode())
            args.append(f"--initial-messages-file={path}")
        program = f".clawgym-chat-{hashlib.sha256(CHAT_PROGRAM_SOURCE.encode()).hexdigest()[:16]}.py"
        await runtime.write(program, CHAT_PROGRAM_SOURCE.encode())
        return await runtime.run_program([sys.executable, program, *args], dict(self.config.resolved_env))


# -- the entry point -----------------------------------------------------------------------------------------------


def load_environment(
    scenarios: Sequence[str | Path] | None = None,
    seeds: Sequence[int] = (0,),
    *,
    backend: str = "inprocess",
    noise: str = "none",
    **env_options: Any,
) -> ClawGymVerifiersEnv:
    """A verifiers environment over `scenarios` (files or folders; default: the bundled library), one task per
    scenario and seed; the apps run on `backend`, under the noise profile `noise`. `env_options` go to the env's
    config (`agent={...}`, `timeout={...}`, …)."""
    taskset: dict[str, Any] = {"id": TASKSET_ID, "seeds": list(seeds)}
    if scenarios is not None:
        taskset["scenarios"] = [str(s) for s in scenarios]
    scenario_files(taskset.get("scenarios") or ClawGymTasksetConfig().scenarios)  # clear errors before verifiers' own
    config = vf.resolve_env_config({"taskset": taskset, "backend": backend, "noise": noise, **env_options})
    env = vf.load_environment(config)
    assert isinstance(env, ClawGymVerifiersEnv)
    return env


__all__ = ["ClawGymTaskset", "ClawGymVerifiersEnv", "ClawGymHarness", "load_environment"]
