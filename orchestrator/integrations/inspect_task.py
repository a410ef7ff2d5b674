"""ClawGym scenarios as inspect-ai tasks: inspect's agent calls the episode's tools over MCP, ClawGym's verifier scores.

    inspect eval clawgym/travel --model openai/gpt-4o
    inspect eval clawgym/scenarios -T scenarios=gen/ -T split=test --model anthropic/claude-sonnet-4-0
    inspect eval clawgym/travel --model openai/MODEL --model-base-url http://127.0.0.1:8000/v1 -M responses_api=false

A local OpenAI-compatible server (vLLM, Ollama, llama.cpp) speaks Chat Completions, not the Responses API that
inspect's `openai/` provider uses by default: give it `-M responses_api=false`.

Tasks (registered under the `clawgym/` prefix through this distribution's `inspect_ai` entry point):

- `clawgym/travel`: the reference scenario, `travel-berlin-offsite`.
- `clawgym/scenarios`: the scenarios of `scenarios` (files, folders, globs or ids; a comma-separated string or a
  list; default `scenarios/`), narrowed by `family`, `split` (a generated set's `tasks.jsonl`), `tags` and `limit`.

Both take `backend` (where the apps run: inprocess, the default, or local, docker, ...), `seed` (the sandboxes'
rng seed), `record` (a folder: each episode's results.json and trace.jsonl are written under it, as `orchestrator
run` writes them, for `orchestrator view`), `idle_turns` and `message_limit`.

How an episode ends: the agent calls `submit`; or its tool calls reach the scenario's tool-call limit
(`limits.max_tool_calls`: the gateway would refuse every later call); or it answers `idle_turns` times in a row
(default 3) without calling a tool (inspect's `react()` urges it on after each but the last); or the scenario's
`timeout_s`, or one of inspect's own limits (`--message-limit`, `--token-limit`, `--time-limit`, ...; there is no
message limit by default) stops it. Each is noted in the record's `agent_errors`.

`inspect eval` of a ClawGym task exits 1 when a task ended in error (a sample that could not start or be verified
with the default `--fail-on-error`), where inspect's own `eval` command exits 0 and leaves it to the log.

mockllm, inspect's offline test model, counts the tokens of an output that carries no usage with tiktoken, whose
encoding it downloads; in a ClawGym episode it counts them offline instead (about four characters a token), so
`inspect eval clawgym/travel --model mockllm/model` runs without a network: its model never calls a tool and the
episode ends after `idle_turns`, scored 0.

Each sample is one episode of its scenario (`clawgym_agent`), wired by the episode driver
(`orchestrator.episode.driver`) as every `orchestrator run` episode is: the apps are started and seeded, the episode's
gateway is served over Streamable HTTP on 127.0.0.1 behind a secret path, and inspect's own agent (`react()` with
the scenario's system prompt, or the agent `agent` builds) reaches its tools through `mcp_server_http`. The
scenario's tool-call limit holds at the gateway and its `timeout_s` around the agent. The episode then ends in
`EpisodeDriver.finish`, as every `orchestrator run` episode does, and `clawgym_verdict` scores it: the value is the
episode's score, the metadata its passed, status, stages, violations and failed checks. An episode that could not
start or be verified raises, so inspect reports the sample as errored rather than scoring it 0.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import sys
import uuid
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from inspect_ai import Task, task
from inspect_ai.agent import Agent, AgentState, as_solver, react
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.hooks import Hooks, RunEnd, hooks
from inspect_ai.model import Model, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, mean, metric, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolSource, mcp_server_http
from inspect_ai.util import LimitExceededError, store

from orchestrator.agents.models.loop import prompt_preamble
from orchestrator.backends import BACKENDS, make_backend
from orchestrator.episode.driver import EpisodeDriver
from orchestrator.episode.gateway import Gateway, task_text
from orchestrator.integrations.tasks import TaskEntry, TaskSetError, select_tasks
from orchestrator.scenario.model import Scenario, load
from orchestrator.verify.results import Result

TRAVEL = "travel-berlin-offsite"
"""The reference scenario's id (scenarios/travel.yaml)."""
VERDICT = "clawgym:verdict"
"""The sample store key the solver leaves the episode's verdict under (a `Result` as JSON), for the scorer."""
MCP_TIMEOUT_S = 60.0
"""inspect's least timeout for one HTTP operation on the gateway; a scenario with a longer `call_deadline_s` gets
that deadline and 5 s (a tool call may wait on the living world)."""

IDLE_TURNS = 3
"""How many answers in a row without a tool call end an episode of the default agent."""

AgentFactory = Callable[[Scenario, ToolSource], Agent]
"""Builds the agent of one episode from its scenario and the MCP server of its gateway (a `ToolSource`)."""


@dataclass
class Ending:
    """What the running episode's agent reads to know when to stop (its gateway's calls), and why it stopped."""

    gateway: Gateway
    why: str | None = None


_ENDING: ContextVar[Ending | None] = ContextVar("clawgym_ending", default=None)


def system_prompt(scenario: Scenario) -> str:
    """The system prompt inspect's agent is given: the model loop's preamble and how to end (react's `submit`)."""
    return prompt_preamble(scenario) + "\nWhen you are done, call `submit` with a short summary of what you did."


def default_agent(scenario: Scenario, tools: ToolSource, idle_turns: int = IDLE_TURNS) -> Agent:
    """inspect's `react()` agent with the scenario's system prompt and the gateway's tools; it stops at the scenario's
    tool-call limit or after `idle_turns` answers in a row without a tool call (`until_done`)."""
    return react(
        name="clawgym", prompt=system_prompt(scenario), tools=[tools], on_continue=until_done(scenario, idle_turns)
    )


def until_done(scenario: Scenario, idle_turns: int = IDLE_TURNS) -> Callable[[AgentState], Any]:
    """A `react()` `on_continue`: stop once the episode's gateway has counted the scenario's `max_tool_calls` (every
    later call would be refused), or after `idle_turns` answers in a row without a tool call; else go on (react
    urges a model that called no tool to go on or submit)."""
    idle = 0
    limit = scenario.limits.max_tool_calls

    async def on_continue(state: AgentState) -> bool:
        nonlocal idle
        ending = _ENDING.get()
        if limit is not None and ending is not None and ending.gateway.calls >= limit:
            ending.why = f"stopped at the scenario's tool-call limit of {limit} calls (limits.max_tool_calls)"
            return False
        if state.output.message.tool_calls:
            idle = 0
            return True
        idle += 1
        if idle >= idle_turns:
            if ending is not None:
                ending.why = f"stopped after {idle} answers in a row without a tool call (-T idle_turns={idle_turns})"
            return False
        return True

    return on_continue


def count_tokens_offline(model: Model) -> None:
    """Have mockllm, inspect's offline test model, count the tokens of an output without usage by its length (about
    four characters a token) rather than with tiktoken, whose encoding it would download. Other models are left as
    they are; a mockllm with its own `count_text_tokens` too."""
    try:
        from inspect_ai.model._providers.mockllm import MockLLM
    except ImportError:  # pragma: no cover - another inspect layout: leave it to inspect
        return
    api = model.api
    if isinstance(api, MockLLM) and "count_text_tokens" not in vars(api):

        async def by_length(text: str) -> int:
            return max(1, len(text) // 4)

        api.count_text_tokens = by_length  # type: ignore[method-assign]  # inspect-ai's token count, replaced by an estimate


def _list(value: str | Sequence[str] | None) -> list[str]:
    """A task argument given as a list, or as one comma-separated string (`-T tags=a,b`)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(part) for part in value]


def sample_of(entry: TaskEntry) -> Sample:
    """One inspect sample for a task: its instruction as input, its id, and where to load it from."""
    scenario = entry.scenario
    return Sample(
        id=scenario.id,
        input=task_text(scenario),
        metadata={
            "scenario_file": str(entry.path.resolve()),
            "title": scenario.title,
            "family": entry.family,
            "split": entry.split,
            "apps": sorted(scenario.apps),
            "tags": list(scenario.tags),
        },
    )


def dataset(
    scenarios: str | Sequence[str] = "scenarios",
    *,
    family: str | None = None,
    split: str | None = None,
    tags: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> MemoryDataset:
    """The samples of the task set `scenarios` names (see `orchestrator.integrations.tasks.select_tasks`)."""
    sources = _list(scenarios)
    try:
        entries = select_tasks(sources, family=family, split=split, tags=_list(tags), limit=limit)
    except TaskSetError as exc:  # the selection's messages name `orchestrator run`'s options: name the task's args
        message = re.sub(r"--(family|split|tags|limit) ", r"-T \1=", str(exc))
        raise TaskSetError(f"clawgym task over {','.join(sources) or '(nothing)'}: {message}") from None
    return MemoryDataset([sample_of(e) for e in entries], name="clawgym", location=",".join(sources))


@solver
def clawgym_agent(
    agent: AgentFactory | None = None,
    backend: str = "inprocess",
    seed: int = 0,
    record: str | None = None,
    idle_turns: int = IDLE_TURNS,
) -> Solver:
    """Run the sample's scenario as one episode with inspect's agent on its tools; leave the verdict in the store.
    Without `agent`, inspect's `react()` ending at the tool-call limit or after `idle_turns` (`default_agent`)."""
    if idle_turns < 1:
        raise ValueError(f"-T idle_turns={idle_turns}: expected at least 1")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        file = (state.metadata or {}).get("scenario_file")
        if not file:
            raise ValueError(f"sample {state.sample_id!r}: no scenario_file in its metadata (not a ClawGym sample)")
        scenario = load(Path(file))
        make_agent = agent or partial(default_agent, idle_turns=idle_turns)
        return await run_episode(state, generate, scenario, make_agent, backend, seed, record)

    return solve


async def run_episode(
    state: TaskState,
    generate: Generate,
    scenario: Scenario,
    make_agent: AgentFactory,
    backend_name: str,
    seed: int,
    record: str | None,
) -> TaskState:
    """One episode of `scenario` with the agent `make_agent` builds on its gateway's MCP server; its verdict from
    `Episode.finish` is left in the sample's store (and written under `record` when given).

    An agent stopped by one of inspect's limits is judged on what it did, as an agent stopped by the scenario's
    timeout is: a message or token limit (`LimitExceededError`), or a time or working limit (a cancellation; the
    books are then closed shielded from it). The limit is raised again afterwards, for inspect to record it."""
    episode_id = f"inspect-{uuid.uuid4().hex[:10]}"
    stopped: BaseException | None = None

    async def agent() -> TaskState:
        nonlocal stopped
        try:
            return await as_solver(make_agent(scenario, tools))(state, generate)
        except (LimitExceededError, anyio.get_cancelled_exc_class()) as exc:
            stopped = exc
            return state

    async with (
        make_backend(backend_name) as backend,
        EpisodeDriver(scenario, backend, rng_seed=seed, episode_id=episode_id) as driver,
    ):
        episode = await driver.prepare()
        assert episode.gateway is not None
        async with driver.connect(http=True) as url:
            assert url is not None
            deadline = max(MCP_TIMEOUT_S, scenario.limits.call_deadline_s + 5)  # the gateway answers by its deadline
            tools = mcp_server_http(name="clawgym", url=url, timeout=deadline)
            count_tokens_offline(get_model())
            ending = Ending(episode.gateway)
            token = _ENDING.set(ending)
            try:
                ran = await driver.run_agent(agent, timeout=scenario.limits.timeout_s)
                state = ran.value if ran.value is not None else state
            finally:
                _ENDING.reset(token)
        why = ending.why
        if ran.timed_out:
            why = f"stopped after the {scenario.limits.timeout_s:g} s timeout"
        elif isinstance(stopped, LimitExceededError):
            why = f"stopped by inspect's {stopped.type} limit of {stopped.limit_str}"
        elif stopped is not None:
            why = "stopped by inspect (its time or working limit, or an interrupt)"
        clocked = ran.timed_out or (stopped is not None and not isinstance(stopped, LimitExceededError))
        with anyio.CancelScope(shield=stopped is not None and not isinstance(stopped, LimitExceededError)):
            await close_books(driver, state, backend.name, url, why, record, timed_out=clocked)
    if stopped is not None:
        raise stopped
    return state


async def close_books(
    driver: EpisodeDriver,
    state: TaskState,
    backend: str,
    url: str,
    why: str | None,
    record: str | None,
    *,
    timed_out: bool = False,
) -> None:
    """Finish the episode (`EpisodeDriver.finish`, as `orchestrator run` does), note how the agent stopped
    (`timed_out`: a clock stopped it, the scenario's timeout or inspect's), write the record under `record` when given
    and leave the verdict in the sample's store for `clawgym_verdict`."""
    result, _ = await driver.finish(trace=bool(record))
    result.episode.update(
        {"backend": backend, "agent": "inspect", "gateway": url, "model": str(state.model)}
        | {"inspect_sample": str(state.sample_id), "epoch": state.epoch}
    )
    if why is not None:
        result.episode["agent_errors"] = [why]
    if timed_out:
        result.status = "timeout"
    if record:
        assert driver.episode is not None
        folder = Path(record) / f"{state.sample_id}-{state.epoch:03d}-{driver.episode.sandbox_id.rsplit('-', 1)[-1]}"
        folder.mkdir(parents=True, exist_ok=True)
        driver.record(folder, result)
        result.episode["record"] = str(folder)
    store().set(VERDICT, result.model_dump(mode="json"))


@metric
def pass_rate() -> Metric:
    """The share of scored episodes whose verdict passed (ClawGym's `passed`, not score == 1)."""

    def compute(scores: list[SampleScore]) -> float:
        passed = [bool((s.score.metadata or {}).get("passed")) for s in scores]
        return sum(passed) / len(passed) if passed else 0.0

    return compute


@scorer(metrics=[mean(), stderr(), pass_rate()])
def clawgym_verdict() -> Scorer:
    """The episode's verdict as ClawGym's verifier gave it in `Episode.finish`: value = score; metadata = passed,
    status, stages, violations and failed checks."""

    async def score(state: TaskState, target: Target) -> Score:
        data = store().get(VERDICT)
        if data is None:
            raise ValueError(
                f"sample {state.sample_id!r}: no ClawGym verdict in the store; the solver must be clawgym_agent()"
            )
        return verdict_score(Result.model_validate(data), state.output.completion if state.output else "")

    return score


def verdict_score(result: Result, answer: str = "") -> Score:
    """A `Score` of a verdict: value = score; explanation = passed, or the first failed outcome check's reason."""
    failed = [c for c in result.checks if not c.passed and c.kind != "process"]
    if result.passed:
        explanation = f"passed, score {result.score:.2f}"
    else:
        why = failed[0].reason or failed[0].description if failed else "; ".join(v.detail for v in result.violations)
        explanation = f"failed, score {result.score:.2f}" + (f": {why}" if why else "")
    return Score(
        value=result.score,
        answer=answer,
        explanation=explanation,
        metadata={
            "passed": result.passed,
            "status": result.status,
            "pass_mark": result.pass_mark,
            "process": result.process,
            "stages": [
                {"name": s.name, "score": s.score, "passed": s.passed, "scored": s.scored, "weight": s.weight}
                for s in result.stages
            ],
            "violations": [v.model_dump(mode="json") for v in result.violations],
            "failed_checks": [{"id": c.id, "description": c.description, "reason": c.reason} for c in failed],
            "record": result.episode.get("record"),
        },
    )


def _task(
    samples: MemoryDataset, backend: str, seed: int, record: str | None, message_limit: int | None, idle_turns: int
) -> Task:
    if backend not in BACKENDS:
        raise ValueError(f"-T backend={backend}: expected one of {', '.join(BACKENDS)}")
    if record is not None and Path(record).exists() and not Path(record).is_dir():
        raise ValueError(f"-T record={record}: is a file; give a folder for the episodes' records")
    return Task(
        dataset=samples,
        solver=clawgym_agent(backend=backend, seed=seed, record=record, idle_turns=idle_turns),
        scorer=clawgym_verdict(),
        message_limit=message_limit,
    )


@task(name="clawgym/scenarios")
def scenarios(
    scenarios: str | list[str] = "scenarios",
    family: str | None = None,
    split: str | None = None,
    tags: str | list[str] | None = None,
    limit: int | None = None,
    backend: str = "inprocess",
    seed: int = 0,
    record: str | None = None,
    idle_turns: int = IDLE_TURNS,
    message_limit: int | None = None,
) -> Task:
    """ClawGym scenarios of files, folders, globs or ids (default `scenarios/`), narrowed by family, split, tags and
    limit; each sample one episode scored by ClawGym's verifier."""
    samples = dataset(scenarios, family=family, split=split, tags=tags, limit=limit)
    return _task(samples, backend, seed, record, message_limit, idle_turns)


@task(name="clawgym/travel")
def travel(
    backend: str = "inprocess",
    seed: int = 0,
    record: str | None = None,
    idle_turns: int = IDLE_TURNS,
    message_limit: int | None = None,
) -> Task:
    """The reference scenario (scenarios/travel.yaml: plan the Berlin offsite) as one sample."""
    return _task(dataset(TRAVEL), backend, seed, record, message_limit, idle_turns)


def _registered_as_clawgym(*tasks: object) -> None:
    """Make sure each task is found as `clawgym/NAME`: inspect prefixes a task's name with its top-level package
    when that is installed into site-packages (`orchestrator/clawgym/travel`), not when installed editable."""
    from inspect_ai._util.registry import RegistryInfo, registry_add, registry_info

    for fn in tasks:
        info = registry_info(fn)
        wanted = "clawgym/" + info.name.rsplit("/", 1)[-1]
        if info.name != wanted:
            registry_add(fn, RegistryInfo(type="task", name=wanted, metadata=info.metadata))


_registered_as_clawgym(travel, scenarios)


def _inspect_eval_command() -> bool:
    """Whether this process is inspect's `eval` command line (`inspect eval ...`), not a Python caller of `eval()`."""
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return sys.argv[1:2] == ["eval"] and (program == "inspect" or sys.argv[0].endswith("inspect_ai/__main__.py"))


def _exit_failed() -> None:
    """Run the other exit handlers, flush, and leave with status 1."""
    atexit.unregister(_exit_failed)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(1)


@hooks(name="clawgym_exit_status", description="inspect eval of a ClawGym task exits 1 when a task ended in error")
class ExitStatus(Hooks):
    """inspect's `eval` command exits 0 when a task ended in error (it reports it in the log); a ClawGym task that
    did exits 1, as `inspect eval-set` does, so a script or CI job sees the failure."""

    async def on_run_end(self, data: RunEnd) -> None:
        failed = [log for log in data.logs if log.eval.task.startswith("clawgym/") and log.status == "error"]
        if failed and _inspect_eval_command():
            atexit.unregister(_exit_failed)
            atexit.register(_exit_failed)


__all__: list[str] = [
    "clawgym_agent",
    "clawgym_verdict",
    "dataset",
    "count_tokens_offline",
    "default_agent",
    "pass_rate",
    "scenarios",
    "system_prompt",
    "travel",
    "until_done",
    "verdict_score",
]
