"""`orchestrator retry RUN`: run again only the errored and interrupted episodes of a run, into its own folder.

What to run comes from the record in RUN (`plan`): a suite's summary names its scenario files, agent, repeat, seed
and noise; a repeat's summary its file and seed, its episodes their agent; a single episode its file, agent and
seed. The run is then resumed (`RunSettings.resume`: episodes recorded complete are kept) by `orchestrator run`'s
own functions, which rewrite the totals over every episode.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from orchestrator.cli.agent import agent_factory, chosen_agent
from orchestrator.cli.common import fail_usage, judge_or_exit, restore_stop_signals
from orchestrator.cli.dotenv import load_dotenv
from orchestrator.cli.options import (
    AddressOption,
    AgentEnvOption,
    BackendOption,
    BaseUrlOption,
    FailFastOption,
    FailOnErrorOption,
    IsolationOption,
    JsonOption,
    JudgeOption,
    MaxConcurrentRequestsOption,
    MaxResultCharsOption,
    MaxRetriesOption,
    MaxTokensOption,
    MaxTurnsOption,
    ModelOption,
    ModelSeedOption,
    ParallelOption,
    ParallelToolCallsOption,
    PriceOption,
    RequestTimeoutOption,
    StreamOption,
    TemperatureOption,
    TimeoutOption,
)
from orchestrator.cli.running import RunSettings, refuse_cmd_on_ray, run_single, run_suite_of


def retry_command(
    run: Annotated[Path, typer.Argument(help="The folder of a run, a --repeat run or a suite (its results.json).")],
    agent: Annotated[
        str | None, typer.Option("--agent", help="The agent to run them with \\[default: the run's, as recorded].")
    ] = None,
    model_name: ModelOption = None,
    parallel: ParallelOption = 1,
    timeout: TimeoutOption = None,
    fail_fast: FailFastOption = True,
    fail_on_error: FailOnErrorOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    as_json: JsonOption = False,
    isolation: IsolationOption = "auto",
    agent_env: AgentEnvOption = None,
    judge: JudgeOption = None,
    base_url: BaseUrlOption = None,
    max_turns: MaxTurnsOption = 50,
    max_tokens: MaxTokensOption = 4096,
    temperature: TemperatureOption = None,
    model_seed: ModelSeedOption = None,
    parallel_tool_calls: ParallelToolCallsOption = True,
    request_timeout: RequestTimeoutOption = 120.0,
    max_retries: MaxRetriesOption = 5,
    max_concurrent_requests: MaxConcurrentRequestsOption = 4,
    stream: StreamOption = False,
    max_result_chars: MaxResultCharsOption = 20_000,
    price: PriceOption = None,
) -> None:
    """Run again the errored and interrupted episodes of RUN (error, agent_error, interrupted, or never written),
    into the same folder, keeping the ones recorded complete, and rewrite its totals.

    The scenario files, agent, --repeat, --seed and --noise come from the record. Exit codes as for run."""
    from orchestrator.agents.models.options import ModelOptions

    restore_stop_signals()
    load_dotenv()
    planned = plan(run)
    missing = [str(f) for f in planned.files if not f.exists()]
    if missing:
        raise fail_usage(
            f"{run}: its scenario file(s) {', '.join(missing)} are not found from here: run retry from the "
            "folder the run was made in"
        )
    spec = chosen_agent(agent, model_name, default=None) or planned.agent
    refuse_cmd_on_ray(backend, spec)
    model = ModelOptions(
        base_url=base_url,
        max_turns=max_turns,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=model_seed,
        parallel_tool_calls=parallel_tool_calls,
        request_timeout_s=request_timeout,
        max_retries=max_retries,
        stream=stream,
        max_result_chars=max_result_chars,
    )
    settings = RunSettings(
        agent=spec,
        out=run,
        seed=planned.seed,
        timeout=timeout,
        repeat=planned.repeat,
        parallel=parallel,
        backend=backend,
        as_json=as_json,
        address=address,
        noise=planned.noise,
        judge=judge_or_exit(judge),
        fail_fast=fail_fast,
        fail_on_error=fail_on_error,
        resume=True,
    )
    make_agent = agent_factory(
        spec, isolation, agent_env or [], model, price=price, max_concurrent_requests=max_concurrent_requests
    )
    again = run_suite_of if planned.suite else run_single
    raise typer.Exit(again(planned.files, make_agent, settings))


@dataclass
class Plan:
    """What a run recorded of how it was made: its scenario files, agent, episodes per scenario, seed and noise."""

    files: list[Path]
    agent: str
    repeat: int = 1
    seed: int = 0
    noise: str = "none"
    suite: bool = False


def plan(run: Path) -> Plan:
    """How the run in `run` was made, from its results.json; a usage error when it holds no run or does not say."""
    from orchestrator.record import EPISODE, RESULTS, SUITE, kind_of, read_json

    data = read_json(run / RESULTS)
    kind = kind_of(data)
    if kind is None:
        raise fail_usage(f"{run}: no run record here ({RESULTS} missing or not a run's): give a run folder")
    if kind == SUITE:
        files = [Path(row["file"]) for row in data.get("scenarios", []) if row.get("file")]
        return Plan(
            files,
            str(data.get("agent") or "oracle"),
            int(data.get("repeat") or 1),
            int(data.get("seed") or 0),
            str(data.get("noise") or "none"),
            suite=True,
        )
    episodes = (
        [data]
        if kind == EPISODE
        else [read_json(run / Path(r["folder"]).name / RESULTS) or {} for r in data["results"]]
    )
    info: dict[str, Any] = next((e["episode"] for e in episodes if (e.get("episode") or {}).get("agent")), {})
    file = data.get("file") if kind != EPISODE else info.get("scenario_file")
    if not file or not info:
        raise fail_usage(
            f"{run / RESULTS} does not say which scenario file and agent made it (an older record): "
            "run it again with orchestrator run FILE --agent SPEC --out RUN --resume"
        )
    seed = int(data.get("seed") or 0) if kind != EPISODE else int(info.get("rng_seed") or 0)
    return Plan(
        [Path(file)], str(info["agent"].get("agent") or "oracle"), len(episodes), seed, str(info.get("noise") or "none")
    )
