"""`ClawGymEnv`: one scenario as a reinforcement-learning environment (reset / step / close).

The reward contract is in docs/rewards.md; the interface in the package docstring (`orchestrator.env`).

Everything an episode holds (the backend, the episode's sandboxes, the gateway and the client session on it) is
entered and left by one worker task per environment, so `reset`, `step` and `close` may be awaited from any task
(a web handler, a rollout loop, the sync wrapper's portal); calls on one environment are served one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import operator
import tempfile
import threading
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import anyio
import mcp.types as types
from anyio.abc import TaskGroup
from anyio.from_thread import BlockingPortal
from pydantic import BaseModel, ConfigDict, Field

from orchestrator.agents.models.convert import anthropic_tools, openai_tools, result_text
from orchestrator.agents.models.loop import system_prompt
from orchestrator.backends import Backend, make_backend
from orchestrator.episode.episode import Episode, judge_noise
from orchestrator.episode.gateway import task_text
from orchestrator.scenario.checks import JournalCheck
from orchestrator.scenario.model import Scenario, ScenarioError, load
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import Result
from orchestrator.verify.verdict import verify
from orchestrator.world.noise import noise_profile, noisy

T = TypeVar("T")

SUBMIT = "submit"
"""The action that ends an episode: `{"name": "submit", "arguments": {"message": "..."}}` (no app tool has this name)."""

SUBMIT_TOOL: dict[str, Any] = {
    "name": SUBMIT,
    "description": "End the episode: call this once the task is done (or cannot be done), with a short summary of "
    "what you did. No other tool can be called afterwards.",
    "inputSchema": {
        "type": "object",
        "properties": {"message": {"type": "string", "description": "A short summary of what you did."}},
        "required": ["message"],
        "additionalProperties": False,
    },
}
"""The `submit` action as an MCP tool entry; observations list it after the scenario's tools."""

STEPS_PER_CALL = 2
"""Without `max_steps`, an episode is truncated after this many steps per tool call of the scenario's limit: steps
that make no call (unreadable actions, unknown tools) never reach that limit, so they are bounded here."""

MAX_STEPS_UNLIMITED = 1_000
"""Without `max_steps`, the step bound of a scenario without a tool-call limit."""

RESULT_CHARS = 20_000
"""How much of a tool result `StepResult.text` holds by default (the rest is cut with a marker)."""


class EnvError(RuntimeError):
    """The environment was used out of order (a step before `reset`, after the end of the episode, after `close`)
    or given a scenario it cannot run; the message says what to do."""


# -- what goes in and out --------------------------------------------------------------------------------------


class ToolCall(BaseModel):
    """An action: call the gateway tool `name` (`app__tool`) with `arguments`, or `submit` to end the episode."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str | None = Field(None, description="The caller's id for the call (an OpenAI/Anthropic tool-call id), echoed in info.")


class Observation(BaseModel):
    """What `reset` returns: the task, who the agent works for, and the tools in three formats."""

    scenario: str = Field(description="The scenario's id.")
    title: str
    task: str = Field(description="The instruction, as the gateway's `task` prompt gives it.")
    persona: dict[str, Any] = Field(description="name, email, timezone, domains of the person the agent works for.")
    now: str = Field(description="The sandbox clock's start, ISO 8601 in the persona's time zone.")
    system_prompt: str = Field(description="A system prompt with the persona, the time zone and the date; it says to end with `submit`.")
    tools: list[dict[str, Any]] = Field(description="MCP tools/list entries (name, description, inputSchema …), then `submit`.")
    openai_tools: list[dict[str, Any]] = Field(description="The same tools for OpenAI Chat Completions (strict function schemas).")
    anthropic_tools: list[dict[str, Any]] = Field(description="The same tools for the Anthropic Messages API.")
    info: dict[str, Any] = Field(default_factory=dict)


class StepResult(BaseModel):
    """What `step` returns: the tool's result, the reward of this step, whether the episode ended, and info."""

    text: str = Field(description="The result as a model reads it: structured content as JSON, else the text parts (cut to a limit).")
    content: list[dict[str, Any]] = Field(default_factory=list, description="The MCP content blocks of the result.")
    structured_content: dict[str, Any] | None = None
    is_error: bool = False
    reward: float = 0.0
    terminated: bool = Field(False, description="The episode ended by `submit` (or `finish`).")
    truncated: bool = Field(False, description="The episode was cut: the scenario's tool-call limit (or the env's max_steps) was reached.")
    info: dict[str, Any] = Field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class EnvState(BaseModel):
    """Where the environment stands (cheap; no call to the apps)."""

    scenario: str | None = None
    seed: int | None = None
    episode_id: str | None = None
    steps: int = 0
    tool_calls: int = Field(0, description="Tool calls the gateway counted (the ones the scenario's limit counts).")
    max_tool_calls: int | None = None
    step_rewards: bool = False
    total_reward: float = 0.0
    done: bool = False
    terminated: bool = False
    truncated: bool = False
    score: float | None = Field(None, description="The verifier's score, once the episode has ended.")
    passed: bool | None = None
    process: dict[str, int] = Field(default_factory=dict, description="The running process counts of docs/rewards.md.")


ActionLike = ToolCall | Mapping[str, Any] | Any


def parse_action(action: ActionLike) -> ToolCall:
    """A `ToolCall` from what a caller or a model produced.

    Accepted: a `ToolCall`; `{"name", "arguments"}` (arguments a mapping or a JSON string); an OpenAI tool call
    (`{"type": "function", "id", "function": {"name", "arguments": "<json>"}}`, or the SDK's object); an Anthropic
    `tool_use` block (`{"type": "tool_use", "id", "name", "input"}`, or the SDK's object). Raises `ValueError`
    saying what was expected; arguments that are not a JSON object raise `ValueError` too."""
    if isinstance(action, ToolCall):
        action = {"name": action.name, "arguments": action.arguments, "id": action.id}
    if not isinstance(action, Mapping):
        if hasattr(action, "model_dump"):
            action = action.model_dump()
        elif hasattr(action, "__dict__"):
            action = vars(action)
        else:
            raise ValueError(f"an action is a ToolCall or a mapping with 'name' and 'arguments', not {type(action).__name__}")
    call_id = action.get("id")
    if isinstance(action.get("function"), Mapping) or hasattr(action.get("function"), "name"):
        function = action["function"]
        function = function if isinstance(function, Mapping) else vars(function)
        name, arguments = function.get("name"), function.get("arguments")
    elif "input" in action and "arguments" not in action:
        name, arguments = action.get("name"), action.get("input")
    else:
        name, arguments = action.get("name"), action.get("arguments")
    if not isinstance(name, str) or not name:
        raise ValueError(f"the action has no tool name: expected {{'name': 'app__tool', 'arguments': {{...}}}}, got {dict(action)!r}")
    if arguments is None or arguments == "":
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError as exc:
            raise ValueError(f"the arguments of {name!r} are not valid JSON: {exc}") from None
    if not isinstance(arguments, Mapping):
        raise ValueError(f"the arguments of {name!r} must be a JSON object, got {type(arguments).__name__}")
    try:  # what reaches the gateway is plain JSON, as over the wire: no NaN, no Python objects, bounded nesting
        arguments = json.loads(json.dumps(arguments, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"the arguments of {name!r} are not plain JSON: {exc}") from None
    return ToolCall(name=name, arguments=arguments, id=call_id if isinstance(call_id, str) else None)


def scenario_files(sources: Sequence[str | Path]) -> list[tuple[Path, Scenario]]:
    """Every scenario named by `sources` (files, or folders of `*.yaml`/`*.yml`), loaded, with its resolved path;
    an id given twice, an empty folder or a missing path is an `EnvError` naming it."""
    found: list[tuple[Path, Scenario]] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            files = sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml"))
            if not files:
                raise EnvError(f"{path}: no scenario (*.yaml) in this folder")
        elif path.is_file():
            files = [path]
        else:
            raise EnvError(f"{path}: no such scenario file or folder")
        for file in files:
            scenario = load_scenario(file)
            if any(scenario.id == seen.id for _, seen in found):
                raise EnvError(f"{file}: scenario id {scenario.id!r} is given twice")
            found.append((file.resolve(), scenario))
    if not found:
        raise EnvError("give at least one scenario file or folder")
    return found


def load_scenario(scenario: Scenario | str | Path) -> Scenario:
    """A `Scenario` from a loaded scenario, a path to a YAML file, or YAML text (text with a line break or `id:`)."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, str) and ("\n" in scenario or scenario.lstrip().startswith("id:")):
        with tempfile.TemporaryDirectory(prefix="clawgym-env-") as folder:
            path = Path(folder) / "scenario.yaml"
            path.write_text(scenario)
            try:
                return load(path)
            except ScenarioError as exc:
                raise EnvError(str(exc).replace(str(path), "<scenario text>")) from None
    if isinstance(scenario, (str, Path)):
        path = Path(scenario)
        if not path.is_file():
            raise EnvError(f"scenario {str(scenario)!r}: no such file (give a path, a Scenario, or YAML text)")
        try:
            return load(path)
        except ScenarioError as exc:
            raise EnvError(str(exc)) from None
    raise EnvError(f"scenario: expected a path, a Scenario or YAML text, not {type(scenario).__name__}")


# -- the environment ------------------------------------------------------------------------------------------


class _Episode:
    """The open episode and its bookkeeping; touched only by the worker task."""

    def __init__(self, scenario: Scenario, seed: int, episode_id: str, step_rewards: bool, stack: contextlib.AsyncExitStack):
        self.scenario = scenario
        self.seed = seed
        self.episode_id = episode_id
        self.step_rewards = step_rewards
        self.stack = stack
        self.episode: Episode | None = None
        self.client: Any = None
        self.state: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self.journal: list[dict[str, Any]] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.steps = 0
        self.rewards: list[float] = []
        self.potential = 0.0
        self.passing: set[str] = set()
        self.violations: set[str] = set()
        self.process = {"failed_calls": 0, "faults": 0, "recovered_faults": 0, "unrecovered_faults": 0, "lost_replies": 0,
                        "invalid_actions": 0}  # fmt: skip
        self.pending_faults: dict[str, int] = {}
        self.closed = False
        self.done = False
        self.terminated = False
        self.truncated = False
        self.result: Result | None = None
        self.observation: Observation | None = None
        self.message: str | None = None
        self.noisy = noise_profile(scenario) is not None
        # Journal-dependent parts of the score (required journal checks, forbidden calls) can change on a read.
        self.reads_matter = self.noisy or any(isinstance(c, JournalCheck) and c.required for _, _, c in scenario.checks()) or any(
            rule.call is not None for rule in scenario.forbid
        )


class ClawGymEnv:
    """A scenario as an environment: `await reset(scenario, seed)`, `await step(action)`, `await close()`.

    `backend`: a `Backend` (left open on close: its owner closes it) or a backend name (`inprocess`, the default,
    or `local`, `docker`, `remote`; started by the env and closed on close). `step_rewards`: the default for
    `reset(step_rewards=...)`. `max_result_chars`: how much of a result `StepResult.text` holds. `max_steps`: end
    (truncate) an episode after this many steps of any kind, on top of the scenario's tool-call limit. `judge`: the LLM
    judge the final verdicts ask about the scenario's `judge` checks (None: they are unjudged; never asked for the
    score so far of step rewards).
    """

    def __init__(
        self,
        backend: Backend | str = "inprocess",
        *,
        step_rewards: bool = False,
        max_result_chars: int = RESULT_CHARS,
        max_steps: int | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.judge = judge
        if isinstance(backend, str):
            self.backend: Backend = make_backend(backend)
            self._own_backend = True
        elif isinstance(backend, Backend):
            self.backend = backend
            self._own_backend = False
        else:
            raise EnvError(f"backend: expected a Backend or a backend name, not {type(backend).__name__}")
        if isinstance(max_steps, bool) or not (max_steps is None or (isinstance(max_steps, int) and max_steps >= 1)):
            raise EnvError(f"max_steps: expected a whole number of at least 1 (or None), got {max_steps!r}")
        if isinstance(max_result_chars, bool) or not (isinstance(max_result_chars, int) and max_result_chars >= 0):
            raise EnvError(f"max_result_chars: expected a whole number of at least 0, got {max_result_chars!r}")
        self.step_rewards = step_rewards
        self.max_result_chars = max_result_chars
        self.max_steps = max_steps
        self._ep: _Episode | None = None
        self._closed = False
        self._counter = itertools.count(1)
        self._send: Any = None
        self._worker_done: anyio.Event | None = None
        self._task_group: TaskGroup | None = None
        self._task: asyncio.Task[None] | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------------

    async def __aenter__(self) -> ClawGymEnv:
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        self._start_worker()
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.close()
        finally:
            if self._task_group is not None:
                tg, self._task_group = self._task_group, None
                await tg.__aexit__(None, None, None)

    def _start_worker(self) -> None:
        if self._send is not None:
            return
        send, receive = anyio.create_memory_object_stream[tuple[Callable[[], Awaitable[Any]], Any]](0)
        self._send = send
        self._worker_done = anyio.Event()
        if self._task_group is not None:
            self._task_group.start_soon(self._serve, receive)
        else:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                raise EnvError("ClawGymEnv runs on asyncio; under another event loop use `async with ClawGymEnv() as env`") from None
            self._task = loop.create_task(self._serve(receive))

    async def _serve(self, receive: Any) -> None:
        """The worker: runs requests one at a time; everything opened here is closed here."""
        try:
            async with receive:
                async for job, reply in receive:
                    try:
                        reply["value"] = await job()
                        reply["episode"] = self._ep
                        if reply.get("abandoned"):
                            _undelivered(reply)
                    except BaseException as exc:  # noqa: BLE001 - handed back to the caller
                        if isinstance(exc, anyio.get_cancelled_exc_class()):
                            reply["error"] = EnvError("the environment was cancelled")
                            reply["done"].set()
                            raise
                        reply["error"] = exc
                    reply["done"].set()
        finally:
            # Not inside a new cancel scope: the episode's connections were opened outside it (see Episode.__aexit__).
            await self._end_episode()
            if self._own_backend:
                with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                    await self.backend.close()
            assert self._worker_done is not None
            self._worker_done.set()

    async def _run(self, job: Callable[[], Awaitable[T]]) -> T:
        if self._closed:
            raise EnvError("the environment is closed")
        self._start_worker()
        reply: dict[str, Any] = {"done": anyio.Event()}
        try:
            await self._send.send((job, reply))
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            raise EnvError("the environment is closed") from None
        try:
            await reply["done"].wait()
        except anyio.get_cancelled_exc_class():
            # The caller gave up (a timeout): the step still happens, but its reward never reached the caller, so it
            # is paid again by the last step; the rewards the caller saw still sum to the score.
            reply["abandoned"] = True
            if "value" in reply:
                _undelivered(reply)
            raise
        if "error" in reply:
            raise reply["error"]
        return reply["value"]

    async def close(self) -> None:
        """End the episode (its sandboxes are deleted) and stop the backend if the env started it. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._send is not None:
            await self._send.aclose()
            assert self._worker_done is not None
            await self._worker_done.wait()
        elif self._own_backend:
            await self.backend.close()

    # -- the API -----------------------------------------------------------------------------------------------

    async def reset(
        self,
        scenario: Scenario | str | Path,
        seed: int | None = 0,
        *,
        step_rewards: bool | None = None,
        episode_id: str | None = None,
        noise: str = "none",
    ) -> Observation:
        """Start an episode of `scenario` (a path, a `Scenario` or YAML text) with RNG seed `seed`; the previous
        episode, if any, ends (its sandboxes are deleted). `step_rewards` declares per-step rewards (docs/rewards.md);
        `noise` runs the scenario under a noise profile (`none`, `mild`, `harsh`: faults and noisy people data drawn
        from the seed, as `orchestrator run --noise`)."""
        try:  # an int or an integer type (numpy's); None is 0
            seed = 0 if seed is None else operator.index(seed)
        except TypeError:
            raise EnvError(f"seed: expected an integer, got {type(seed).__name__} {str(seed)[:40]!r}") from None
        loaded = load_scenario(scenario)
        try:
            loaded = noisy(loaded, noise, int(seed))
        except ValueError as exc:
            raise EnvError(f"noise: {exc}") from None
        rewards = self.step_rewards if step_rewards is None else step_rewards
        if episode_id is not None and (not isinstance(episode_id, str) or not 0 < len(episode_id) <= 256):
            raise EnvError(f"episode_id: expected a string of 1 to 256 characters, got {str(episode_id)[:40]!r}")
        return await self._run(partial(self._reset, loaded, int(seed), rewards, episode_id))

    async def step(self, action: ActionLike) -> StepResult:
        """Call one tool through the gateway (or `submit`); see `parse_action` for the accepted shapes.

        An action that cannot be read (no tool name, arguments that are not a JSON object) is answered with an
        error result (`info["invalid_action"]` says why) without reaching the gateway: it counts as a step
        (`max_steps`), not as a tool call of the scenario's limit."""
        try:
            call = parse_action(action)
        except ValueError as exc:
            return await self._run(partial(self._invalid, str(exc)))
        return await self._run(partial(self._step, call))

    async def finish(self, message: str = "") -> StepResult:
        """End the episode: the same as stepping `{"name": "submit", "arguments": {"message": message}}`."""
        return await self.step(ToolCall(name=SUBMIT, arguments={"message": message}))

    async def snapshot(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """The current state of every app of the episode (app → table → rows), as the verifier reads it."""
        return await self._run(self._snapshot)

    async def trace(self) -> list[dict[str, Any]]:
        """The gateway's trace and the apps' journals of the episode, one timeline (as `orchestrator run` writes it)."""
        return await self._run(self._trace)

    @property
    def result(self) -> Result | None:
        """The verdict of the episode once it has ended (the same as `orchestrator run` gives), else None."""
        return self._ep.result if self._ep else None

    @property
    def scenario(self) -> Scenario | None:
        """The scenario of the current (or last) episode, as run (with its noise profile applied); None before reset."""
        return self._ep.scenario if self._ep else None

    @property
    def observation(self) -> Observation | None:
        """What the last `reset` returned (None before the first)."""
        return self._ep.observation if self._ep else None

    @property
    def state(self) -> EnvState:
        ep = self._ep
        if ep is None:
            return EnvState(step_rewards=self.step_rewards)
        gateway = ep.episode.gateway if ep.episode else None
        return EnvState(
            scenario=ep.scenario.id, seed=ep.seed, episode_id=ep.episode_id, steps=ep.steps,
            tool_calls=gateway.calls if gateway else 0, max_tool_calls=ep.scenario.limits.max_tool_calls,
            step_rewards=ep.step_rewards, total_reward=sum(ep.rewards), done=ep.done, terminated=ep.terminated,
            truncated=ep.truncated, score=ep.result.score if ep.result else None,
            passed=ep.result.passed if ep.result else None, process=dict(ep.process),
        )  # fmt: skip

    # -- the worker's side ---------------------------------------------------------------------------------------

    async def _end_episode(self) -> None:
        """Close the open episode (its sandboxes are deleted); its result and state stay readable."""
        ep = self._ep
        if ep is not None and not ep.closed:
            ep.closed = True
            ep.client = None
            with contextlib.suppress(Exception):
                await ep.stack.aclose()

    async def _reset(self, scenario: Scenario, seed: int, step_rewards: bool, episode_id: str | None) -> Observation:
        await self._end_episode()
        # The sandboxes are named by a fresh id, never by the caller's episode_id: two envs (or two OpenEnv sessions)
        # given the same episode_id on one backend would otherwise share, and replace, each other's sandboxes.
        sandbox = f"env{next(self._counter)}-{uuid.uuid4().hex[:12]}"
        episode_id = episode_id or sandbox
        stack = contextlib.AsyncExitStack()
        ep = _Episode(scenario, seed, episode_id, step_rewards, stack)
        try:
            endpoints = await self.backend.start(scenario.apps)
            episode = Episode(scenario, endpoints, rng_seed=seed, episode_id=sandbox, judge=self.judge)
            ep.episode = await stack.enter_async_context(episode)
            ep.client = await stack.enter_async_context(ep.episode.connect(trusted=True))
            listed = (await ep.client.list_tools()).tools
            ep.state = {app: dict(rows) for app, rows in ep.episode.seeded.items()}
            await self._read_journal(ep)  # what the world did at the start (events due at once) is in the baseline
            baseline = self._evaluate(ep)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stack.aclose()
            raise
        ep.potential = baseline.score
        ep.passing = _passing(baseline)
        ep.violations = {_violation_key(v) for v in baseline.violations}
        self._ep = ep
        tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]
        everything = [*tools, json.loads(json.dumps(SUBMIT_TOOL))]
        formats = _formats(everything)
        zone_now = scenario.clock.start
        ep.observation = Observation(
            scenario=scenario.id,
            title=scenario.title,
            task=task_text(scenario),
            persona=scenario.persona.model_dump(mode="json"),
            now=_local_iso(zone_now, scenario.persona.timezone),
            system_prompt=system_prompt(scenario).replace(
                "When you are done, answer with a short summary of what you did, without calling a tool.",
                f"When you are done, call `{SUBMIT}` with a short summary of what you did.",
            ),
            tools=everything,
            openai_tools=formats[0],
            anthropic_tools=formats[1],
            info={
                "episode_id": episode_id, "seed": seed, "apps": sorted(scenario.apps), "step_rewards": step_rewards,
                "max_tool_calls": scenario.limits.max_tool_calls, "max_steps": self.max_steps, "pass_mark": scenario.pass_mark,
                "baseline_score": baseline.score,
                "end_action": SUBMIT, "noise": noise_profile(scenario),
            },  # fmt: skip
        )
        return ep.observation

    def _open(self) -> _Episode:
        ep = self._ep
        if ep is None or ep.episode is None or ep.closed:
            raise EnvError("no episode: call reset(scenario) first")
        if ep.done:
            raise EnvError("the episode is over (terminated or truncated): call reset() to start another")
        return ep

    async def _step(self, call: ToolCall) -> StepResult:
        ep = self._open()
        assert ep.episode is not None and ep.episode.gateway is not None
        ep.steps += 1
        info: dict[str, Any] = {"step": ep.steps, "tool": call.name}
        if call.id is not None:
            info["call_id"] = call.id
        if call.name == SUBMIT:
            message = call.arguments.get("message")
            ep.message = message if isinstance(message, str) else json.dumps(message) if message is not None else None
            ep.terminated = True
            return await self._finish(ep, StepResult(text="The episode has ended.", terminated=True, info=info))

        result: types.CallToolResult = await ep.client.call_tool(call.name, call.arguments)
        content = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in result.content or []]
        out = StepResult(
            text=result_text(result, self.max_result_chars),
            content=content,
            structured_content=result.structured_content,
            is_error=bool(result.is_error),
            info=info,
        )
        info = out.info
        entries = await self._read_journal(ep)
        changed = any(e.get("changes") for e in entries)
        world = [e for e in entries if _is_world(e)]
        info["changed"] = [_change(e, c) for e in entries if not _is_world(e) for c in e.get("changes") or []]
        info["world_changed"] = [_change(e, c) for e in world for c in e.get("changes") or []]
        faults = [e["fault"] for e in entries if e.get("fault") and e.get("tool") == call.name]
        info["fault"] = (faults[-1].get("kind", "error") if isinstance(faults[-1], Mapping) else "error") if faults else None
        self._process(ep, call, entries, out.is_error, info)
        succeeded = any(not e.get("is_error") for e in entries)
        if ep.step_rewards and (changed or world or (ep.reads_matter and succeeded)):
            current = self._evaluate(ep)
            out.reward = current.score - ep.potential
            passing = _passing(current)
            info["credited"] = sorted(passing - ep.passing)
            info["withdrawn"] = sorted(ep.passing - passing)
            keys = {_violation_key(v): v for v in current.violations}
            info["harm"] = [v.model_dump(mode="json") for k, v in keys.items() if k not in ep.violations]
            info["harm_cleared"] = sorted(ep.violations - set(keys))
            info["score_so_far"] = current.score
            ep.potential = current.score
            ep.passing = passing
            ep.violations = set(keys)
        elif ep.step_rewards:
            info |= {"credited": [], "withdrawn": [], "harm": [], "harm_cleared": [], "score_so_far": ep.potential}
        limit = ep.scenario.limits.max_tool_calls
        if limit is not None and ep.episode.gateway.calls >= limit:
            ep.truncated = True
            info["truncated_by"] = f"the scenario's limit of {limit} tool calls"
        elif (cut := self._step_bound(ep)) is not None:
            ep.truncated = True
            info["truncated_by"] = cut
        if ep.truncated:
            out.truncated = True
            return await self._finish(ep, out)
        ep.rewards.append(out.reward)
        return out

    def _step_bound(self, ep: _Episode) -> str | None:
        """Why the episode is cut by its number of steps, if it is: `max_steps`, or without it a bound of
        `STEPS_PER_CALL` steps per call of the scenario's limit (steps that make no call never reach that limit)."""
        if self.max_steps is not None:
            return f"max_steps={self.max_steps}" if ep.steps >= self.max_steps else None
        limit = ep.scenario.limits.max_tool_calls
        bound = STEPS_PER_CALL * limit if limit is not None else MAX_STEPS_UNLIMITED
        if ep.steps >= bound:
            return f"the step bound of {bound} steps ({STEPS_PER_CALL} per call of the limit; set max_steps to change it)"
        return None

    async def _invalid(self, reason: str) -> StepResult:
        ep = self._open()
        ep.steps += 1
        ep.process["invalid_actions"] += 1
        out = StepResult(text=f"Error: {reason}", is_error=True,
                         info={"step": ep.steps, "invalid_action": reason, "process": dict(ep.process)})  # fmt: skip
        if ep.step_rewards:
            out.info |= {"credited": [], "withdrawn": [], "harm": [], "harm_cleared": [], "score_so_far": ep.potential}
        if (cut := self._step_bound(ep)) is not None:
            ep.truncated = out.truncated = True
            out.info["truncated_by"] = cut
            return await self._finish(ep, out)
        ep.rewards.append(0.0)
        return out

    async def _finish(self, ep: _Episode, out: StepResult) -> StepResult:
        """The last step: the verdict, and a reward that makes the episode's rewards sum to its score."""
        assert ep.episode is not None
        ep.result, _ = await ep.episode.finish()
        ep.result.episode.update({"backend": self.backend.name, "agent": "env", "steps": ep.steps, "message": ep.message,
                                  "episode_id": ep.episode_id})
        ep.done = True
        before = sum(ep.rewards)
        out.reward = ep.result.score - before
        ep.rewards.append(out.reward)
        out.info |= {
            "score": ep.result.score,
            "passed": ep.result.passed,
            "process_score": ep.result.process,
            "process": dict(ep.process),
            "violations": [v.model_dump(mode="json") for v in ep.result.violations],
            "result": ep.result.model_dump(mode="json"),
        }
        return out

    async def _read_journal(self, ep: _Episode) -> list[dict[str, Any]]:
        """The journal entries written since the last step (the agent's call, world events, the gateway's own
        tools), from the journal `Episode.journal` gives the verdict; the state of apps that changed is re-read."""
        assert ep.episode is not None
        journal = await ep.episode.journal()
        fresh = [e for e in journal if _entry_key(e) not in ep.seen]
        ep.seen.update(_entry_key(e) for e in fresh)
        ep.journal = journal
        if ep.step_rewards:
            for app in sorted({e.get("app") for e in fresh if e.get("changes")}):
                endpoint = ep.episode.endpoints.get(app)  # type: ignore[arg-type]
                if endpoint is not None:
                    ep.state[app] = await endpoint.snapshot(ep.episode.sandbox_id)
        return fresh

    def _evaluate(self, ep: _Episode) -> Result:
        """The verdict on the state so far (no LLM judge: judge checks count once, in the final verdict)."""
        assert ep.episode is not None
        attempted = ep.episode.gateway.calls if ep.episode.gateway else None
        result = verify(ep.scenario, ep.episode.seeded, ep.state, ep.journal, attempted_calls=attempted)
        judge_noise(result, ep.scenario, ep.journal)  # a redone lost reply is harm under noise, charged at the step that redid it
        return result

    def _process(self, ep: _Episode, call: ToolCall, entries: list[dict[str, Any]], is_error: bool, info: dict[str, Any]) -> None:
        """Process components, reported beside the reward: failed calls, injected faults, recovery after a fault.

        A fault the agent saw as a failure (an error, a timeout, a rate limit, an outage) waits for a success of the
        same call (same tool, same arguments): that is a recovery. A lost reply is counted apart: the call was
        delivered, so recovering means finding out what it did, not redoing it (the verdict judges a redo)."""
        key = json.dumps([call.name, call.arguments], sort_keys=True, default=str)
        calls = [e for e in entries if e.get("tool") == call.name]  # the others are the world's (events), not the call
        failed = is_error or not calls  # what the agent saw (a lost reply is an error to it, though it committed)
        if not _known(ep, call.name):  # refused by the gateway (an unknown tool): no app saw it
            ep.process["invalid_actions"] += 1
        for entry in calls:
            fault = entry.get("fault")
            if fault:
                kind = fault.get("kind", "error") if isinstance(fault, Mapping) else "error"
                ep.process["faults"] += 1
                if kind == "lost_reply":
                    ep.process["lost_replies"] += 1
                elif is_error or entry.get("is_error"):
                    ep.process["unrecovered_faults"] += 1
                    ep.pending_faults[key] = ep.pending_faults.get(key, 0) + 1
            elif entry.get("is_error"):
                ep.process["failed_calls"] += 1
        recovered = 0
        if not failed and ep.pending_faults.get(key):
            recovered = ep.pending_faults.pop(key)
            ep.process["recovered_faults"] += recovered
            ep.process["unrecovered_faults"] -= recovered
        info["failed"] = failed
        info["recovered"] = recovered
        info["process"] = dict(ep.process)

    async def _snapshot(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        ep = self._ep
        if ep is None or ep.episode is None:
            raise EnvError("no episode: call reset(scenario) first")
        if ep.client is None:
            raise EnvError("the episode's sandboxes are gone (the env was reset or closed)")
        return await ep.episode.final_state()

    async def _trace(self) -> list[dict[str, Any]]:
        ep = self._ep
        if ep is None or ep.episode is None or ep.client is None:
            raise EnvError("no open episode: call reset(scenario) first")
        return await ep.episode.merged_trace()


def _undelivered(reply: dict[str, Any]) -> None:
    """A step result its caller never received: its reward is taken off what was paid, so the last step pays it."""
    value, ep = reply.get("value"), reply.get("episode")
    if isinstance(value, StepResult) and isinstance(ep, _Episode) and not reply.get("settled"):
        reply["settled"] = True
        ep.rewards.append(-value.reward)


def _known(ep: _Episode, name: str) -> bool:
    """Whether the gateway offers a tool of that name (an app's, or one of its own `world__` tools)."""
    gateway = ep.episode.gateway if ep.episode else None
    if gateway is None:
        return False
    world = getattr(gateway, "world", None)
    return name in gateway.tools or (world is not None and name in world.tools)


def _passing(result: Result) -> set[str]:
    """Checks that count toward the score and hold (ids like stages[1].checks[0])."""
    return {c.id for c in result.checks if c.kind == "outcome" and c.passed}


_FORMATS: dict[str, tuple[str, str]] = {}


def _formats(tools: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The tools in OpenAI and Anthropic formats, converted once per distinct tool list (fresh copies handed out)."""
    key = json.dumps(tools, sort_keys=True)
    cached = _FORMATS.get(key)
    if cached is None:  # envs on several loop threads share the cache: no step here may assume another's
        cached = (json.dumps(openai_tools(tools)), json.dumps(anthropic_tools(tools)))
        with _PORTALS_LOCK:
            while len(_FORMATS) >= 64:
                _FORMATS.pop(next(iter(_FORMATS)))
            _FORMATS[key] = cached
    return json.loads(cached[0]), json.loads(cached[1])


def _entry_key(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    return (entry.get("app"), bool(entry.get("gateway")), entry.get("seq"), entry.get("wall"))


def _is_world(entry: Mapping[str, Any]) -> bool:
    """A world event's entry (rows an event wrote) or one of the gateway's own tools (`world__…`)."""
    return bool(entry.get("gateway") or (entry.get("world") and not entry.get("tool")))


def _change(entry: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    return {"app": entry.get("app"), "table": change["table"], "key": change["key"], "op": change["op"]}


def _violation_key(violation: Any) -> str:
    return json.dumps([violation.kind, violation.rule, violation.app, violation.table, str(violation.key)])


def _local_iso(moment: Any, timezone: str) -> str:
    from zoneinfo import ZoneInfo

    return moment.astimezone(ZoneInfo(timezone)).isoformat()


# -- the sync wrapper -------------------------------------------------------------------------------------------


class SyncClawGymEnv:
    """`ClawGymEnv` for synchronous code: the same methods, blocking, on an event loop in a thread of its own (one
    thread for all sync envs given the same `Backend`, which belongs to one loop). Any thread may call it.

        with SyncClawGymEnv() as env:
            obs = env.reset("scenarios/travel.yaml", seed=0)
            out = env.step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}})
    """

    def __init__(self, backend: Backend | str = "inprocess", **options: Any) -> None:
        # A Backend's servers and connections belong to the event loop they were started on: sync envs given the same
        # Backend share one loop thread (a loop each would deadlock on the other's servers); a backend named here is
        # the env's own, on a loop of its own.
        self._key = id(backend) if isinstance(backend, Backend) else None
        self._portal = _portal_acquire(self._key)
        try:
            self.env = self._portal.call(partial(_make_env, backend, options))
            self._env_cm = self._portal.wrap_async_context_manager(self.env)
            self._env_cm.__enter__()
        except BaseException:
            _portal_release(self._key, self._portal)
            raise
        self._closed = False

    def reset(self, scenario: Scenario | str | Path, seed: int = 0, **options: Any) -> Observation:
        return self._portal.call(partial(self.env.reset, scenario, seed, **options))

    def step(self, action: ActionLike) -> StepResult:
        return self._portal.call(self.env.step, action)

    def finish(self, message: str = "") -> StepResult:
        return self._portal.call(self.env.finish, message)

    def snapshot(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        return self._portal.call(self.env.snapshot)

    def trace(self) -> list[dict[str, Any]]:
        return self._portal.call(self.env.trace)

    @property
    def state(self) -> EnvState:
        return self.env.state

    @property
    def result(self) -> Result | None:
        return self.env.result

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._env_cm.__exit__(None, None, None)
        finally:
            _portal_release(self._key, self._portal)

    def __enter__(self) -> SyncClawGymEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_PORTALS: dict[int, list[Any]] = {}
"""Event-loop threads of sync envs sharing a Backend: id(backend) → [portal context manager, portal, users]."""
_PORTALS_LOCK = threading.Lock()


def _portal_acquire(key: int | None) -> BlockingPortal:
    with _PORTALS_LOCK:
        if key is not None and key in _PORTALS:
            _PORTALS[key][2] += 1
            return _PORTALS[key][1]
        manager = anyio.from_thread.start_blocking_portal()
        portal = manager.__enter__()
        _PORTALS[key if key is not None else id(portal)] = [manager, portal, 1]
        return portal


def _portal_release(key: int | None, portal: BlockingPortal) -> None:
    with _PORTALS_LOCK:
        key = key if key is not None else id(portal)
        entry = _PORTALS[key]
        entry[2] -= 1
        if entry[2] > 0:
            return
        del _PORTALS[key]
    entry[0].__exit__(None, None, None)


async def _make_env(backend: Backend | str, options: dict[str, Any]) -> ClawGymEnv:
    return ClawGymEnv(backend, **options)
