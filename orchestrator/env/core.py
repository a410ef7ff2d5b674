"""`ClawGymEnv`: one scenario as a reinforcement-learning environment (reset / step / close).

The reward contract is in docs/rewards.md; the interface in the package docstring (`orchestrator.env`).

Everything an episode holds (the backend, the episode's sandboxes, the gateway and the client session on it) is
entered and left by one worker task per environment, so `reset`, `step` and `close` may be awaited from any task
(a web handler, a rollout loop, the sync wrapper's portal); calls on one environment are served one at a time.

The env's parts are modules of their own: actions (`actions`), what it gives back (`schema`), the observation and its
system prompt (`observation`), the episode's bookkeeping and rewards (`rewards`), scenarios (`scenarios`), the sync
wrapper (`sync`) and Ray (`orchestrator.cluster`). An episode is wired by the episode driver
(`orchestrator.episode.driver`: prepared, connected, verified and closed) and ends as every episode does, in
`EpisodeDriver.finish`.

May import `orchestrator.backends`, `orchestrator.episode`, `orchestrator.scenario`, `orchestrator.verify`,
`orchestrator.world`, `orchestrator.agents.models` and the env's own modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import operator
import uuid
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import anyio
import mcp.types as types
from anyio.abc import TaskGroup

from orchestrator.agents.models.convert import result_text
from orchestrator.backends import Backend, make_backend
from orchestrator.env.actions import SUBMIT, ActionLike, ToolCall, parse_action
from orchestrator.env.errors import EnvError
from orchestrator.env.observation import make_observation
from orchestrator.env.rewards import (
    OpenEpisode,
    count_process,
    describe_step,
    evaluate,
    nothing_moved,
    read_fresh,
    settle,
    shape,
    start_from,
    undelivered,
)
from orchestrator.env.scenarios import load_scenario
from orchestrator.env.schema import EnvState, Observation, StepResult
from orchestrator.episode.driver import EpisodeDriver
from orchestrator.episode.gateway import InProcessSession
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import Result
from orchestrator.world.noise import noise_profile, noisy

T = TypeVar("T")

STEPS_PER_CALL = 2
"""Without `max_steps`, an episode is truncated after this many steps per tool call of the scenario's limit: steps
that make no call (unreadable actions, unknown tools) never reach that limit, so they are bounded here."""

MAX_STEPS_UNLIMITED = 1_000
"""Without `max_steps`, the step bound of a scenario without a tool-call limit."""

RESULT_CHARS = 20_000
"""How much of a tool result `StepResult.text` holds by default (the rest is cut with a marker)."""


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
        self._ep: OpenEpisode | None = None
        self._driver: EpisodeDriver | None = None
        """The driver of the open episode (`orchestrator.episode.driver`): it prepared, connects and closes it."""
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
                raise EnvError(
                    "ClawGymEnv runs on asyncio; under another event loop use `async with ClawGymEnv() as env`"
                ) from None
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
                            undelivered(reply)
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
                undelivered(reply)
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
            scenario=ep.scenario.id,
            seed=ep.seed,
            episode_id=ep.episode_id,
            steps=ep.steps,
            tool_calls=gateway.calls if gateway else 0,
            max_tool_calls=ep.scenario.limits.max_tool_calls,
            step_rewards=ep.step_rewards,
            total_reward=sum(ep.rewards),
            done=ep.done,
            terminated=ep.terminated,
            truncated=ep.truncated,
            score=ep.result.score if ep.result else None,
            passed=ep.result.passed if ep.result else None,
            process=dict(ep.process),
        )

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
        ep = OpenEpisode(scenario, seed, episode_id, step_rewards, stack)
        driver = EpisodeDriver(scenario, self.backend, rng_seed=seed, episode_id=sandbox, judge=self.judge)
        try:
            await stack.enter_async_context(driver)
            ep.episode = await driver.prepare()
            ep.client = await stack.enter_async_context(driver.client(trusted=True))
            if isinstance(ep.client, InProcessSession):  # the listing as the gateway made it, copied once
                tools = await ep.client.list_wire_tools()
            else:
                listed = (await ep.client.list_tools()).tools
                tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]
            ep.state = {app: dict(rows) for app, rows in ep.episode.seeded.items()}
            await read_fresh(ep)  # what the world did at the start (events due at once) is in the baseline
            baseline = evaluate(ep)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stack.aclose()
            raise
        start_from(ep, baseline)
        self._ep, self._driver = ep, driver
        ep.observation = make_observation(
            scenario,
            tools,
            {
                "episode_id": episode_id,
                "apps": sorted(scenario.apps),
                "step_rewards": step_rewards,
                "max_tool_calls": scenario.limits.max_tool_calls,
                "max_steps": self.max_steps,
                "pass_mark": scenario.pass_mark,
                "baseline_score": baseline.score,
                "end_action": SUBMIT,
                "noise": noise_profile(scenario),
            },
        )
        return ep.observation

    def _open(self) -> OpenEpisode:
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
        entries = await read_fresh(ep)
        describe_step(call, entries, info)
        count_process(ep, call, entries, out.is_error, info)
        shape(ep, entries, out)
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
        ep.rewards.append(out.reward or 0.0)
        return out

    def _step_bound(self, ep: OpenEpisode) -> str | None:
        """Why the episode is cut by its number of steps, if it is: `max_steps`, or without it a bound of
        `STEPS_PER_CALL` steps per call of the scenario's limit (steps that make no call never reach that limit)."""
        if self.max_steps is not None:
            return f"max_steps={self.max_steps}" if ep.steps >= self.max_steps else None
        limit = ep.scenario.limits.max_tool_calls
        bound = STEPS_PER_CALL * limit if limit is not None else MAX_STEPS_UNLIMITED
        if ep.steps >= bound:
            return (
                f"the step bound of {bound} steps ({STEPS_PER_CALL} per call of the limit; set max_steps to change it)"
            )
        return None

    async def _invalid(self, reason: str) -> StepResult:
        ep = self._open()
        ep.steps += 1
        ep.process["invalid_actions"] += 1
        out = StepResult(
            text=f"Error: {reason}",
            is_error=True,
            info={"step": ep.steps, "invalid_action": reason, "process": dict(ep.process)},
        )
        if ep.step_rewards:
            out.info |= nothing_moved(ep)
        if (cut := self._step_bound(ep)) is not None:
            ep.truncated = out.truncated = True
            out.info["truncated_by"] = cut
            return await self._finish(ep, out)
        ep.rewards.append(0.0)
        return out

    async def _finish(self, ep: OpenEpisode, out: StepResult) -> StepResult:
        """The last step: the verdict, and a reward that makes the episode's rewards sum to its score."""
        assert ep.episode is not None and self._driver is not None and self._driver.episode is ep.episode
        ep.result, _ = await self._driver.finish()
        ep.result.episode.update(
            {
                "backend": self.backend.name,
                "agent": "env",
                "steps": ep.steps,
                "message": ep.message,
                "episode_id": ep.episode_id,
            }
        )
        ep.done = True
        settle(ep, out)
        return out

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
