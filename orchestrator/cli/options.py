"""Option types more than one command takes (`--backend`, `--judge`, `--noise`, a `cmd:` agent's isolation and
environment), and the options of model agents, grouped under their own heading in `orchestrator run --help`.

Each is an `Annotated` type a command's signature uses as is, so the help text is written once. Callbacks import
what they check when they run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where the app servers run: local (processes, default), docker (containers), inprocess, "
        "remote (already running at CLAWGYM_APP_URL), or ray (whole episodes on a Ray cluster's workers; run only).",
    ),
]

JudgeOption = Annotated[
    str | None,
    typer.Option(
        "--judge",
        metavar="MODEL@BASE_URL",
        help="An OpenAI-compatible endpoint that judges the scenario's `judge` checks, e.g. gpt-4o-mini@https://api.openai.com/v1 "
        "(key from CLAWGYM_JUDGE_API_KEY or OPENAI_API_KEY; answers cached in CLAWGYM_JUDGE_CACHE, default ~/.cache/clawgym/judge). "
        "Without it those checks are unjudged and do not count.",
    ),
]

IsolationOption = Annotated[
    str,
    typer.Option(
        "--isolation",
        help="How a cmd: agent is sandboxed: auto (bwrap when it works here, else unshare, else none with a warning), "
        "bwrap, unshare (util-linux namespaces, no bubblewrap needed), or none.",
    ),
]

AgentEnvOption = Annotated[
    list[str] | None,
    typer.Option(
        "--agent-env", help="Pass this environment variable on to a cmd: agent (e.g. an API key); repeatable."
    ),
]


KERNEL_FOLDERS = {"/proc": "the kernel's process filesystem", "/sys": "the kernel's sysfs", "/dev": "the device folder"}
"""Folders no output goes to: writing there fails half way with a traceback, or writes to a device."""


def _output_problem(path: Path, want: str) -> str | None:
    """Why `path` cannot take a command's output, `want` being "folder", "file" or "folder or file"; None if it can."""
    import os
    import stat

    lexical = Path(os.path.abspath(path.expanduser()))
    for where in (lexical, lexical.resolve()):
        for root, what in KERNEL_FOLDERS.items():
            if str(where) == root or str(where).startswith(root + "/"):
                if str(where).startswith("/dev/shm/"):  # a tmpfs like any other
                    continue
                return f"{path} is under {root} ({what}), not a place for output; give a {want} on disk"
    try:
        info = lexical.stat()
    except (FileNotFoundError, NotADirectoryError):
        ancestor = lexical.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            return f"{path} cannot be made: {ancestor} is not a folder"
        return None
    except OSError as exc:
        return f"{path} cannot be read: {exc.strerror or exc}"
    kind = (
        "a folder"
        if stat.S_ISDIR(info.st_mode)
        else "a file"
        if stat.S_ISREG(info.st_mode)
        else "a FIFO"
        if stat.S_ISFIFO(info.st_mode)
        else "a socket"
        if stat.S_ISSOCK(info.st_mode)
        else "a device"
    )
    fits = {"folder": kind == "a folder", "file": kind == "a file", "folder or file": kind in ("a folder", "a file")}
    return None if fits[want] else f"{path} is {kind}; expected a {want} (or a path that does not exist yet)"


def output_folder(value: Path | None) -> Path | None:
    """An `--out` folder: an existing folder or a path that can be made, never under /proc, /sys or /dev."""
    if value is not None and (problem := _output_problem(value, "folder")):
        raise typer.BadParameter(problem)
    return value


def output_file(value: Path | None) -> Path | None:
    """An output file (`--out` of export, `--html`, `--md`): a regular file or a path that can be made, never a
    folder, FIFO, device or anything under /proc, /sys or /dev; `-` (stdout) passes."""
    if value is not None and str(value) != "-" and (problem := _output_problem(value, "file")):
        raise typer.BadParameter(problem)
    return value


def output_path(value: Path | None) -> Path | None:
    """An `--out` that is a folder or a file depending on another option (export-tasks' format)."""
    if value is not None and (problem := _output_problem(value, "folder or file")):
        raise typer.BadParameter(problem)
    return value


def positive_seconds(value: float | None) -> float | None:
    """A `--timeout`: a number of seconds above 0 (nan refused), or None for the scenario's own."""
    if value is not None and not value > 0:  # also refuses nan
        raise typer.BadParameter(f"must be a number of seconds above 0, not {value:g}")
    return value


def noise_profile(value: str) -> str:
    """A `--noise` profile's name, checked against the profiles `orchestrator.world.noise` knows."""
    from orchestrator.world.noise import profile

    try:
        return profile(value).name
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


NoiseOption = Annotated[
    str,
    typer.Option(
        "--noise",
        callback=noise_profile,
        help="Noise profile: none, mild or harsh. Faults drawn from the episode seed "
        "and noisy data laid over the scenario (see orchestrator/world/noise.py); results record every injected fault.",
    ),
]

# -- model agents (openai:MODEL, anthropic:MODEL): `orchestrator run` builds their ModelOptions from these ----------

MODEL_PANEL = "Model agents (openai:MODEL, anthropic:MODEL)"

BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        rich_help_panel=MODEL_PANEL,
        help="API base URL (an OpenAI-compatible server: vLLM, Ollama …) \\[default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the vendor's].",
    ),
]
MaxTurnsOption = Annotated[
    int,
    typer.Option(
        "--max-turns", min=1, rich_help_panel=MODEL_PANEL, help="Model requests per episode before it is stopped."
    ),
]
MaxTokensOption = Annotated[
    int, typer.Option("--max-tokens", min=1, rich_help_panel=MODEL_PANEL, help="Output tokens per model request.")
]
TemperatureOption = Annotated[
    float | None,
    typer.Option(
        "--temperature", min=0, rich_help_panel=MODEL_PANEL, help="Sampling temperature \\[default: the API's]."
    ),
]
ModelSeedOption = Annotated[
    int | None,
    typer.Option(
        "--model-seed",
        rich_help_panel=MODEL_PANEL,
        help="Sampling seed, passed to APIs that take one (Chat Completions).",
    ),
]
ParallelToolCallsOption = Annotated[
    bool,
    typer.Option(
        "--parallel-tool-calls/--no-parallel-tool-calls",
        rich_help_panel=MODEL_PANEL,
        help="Let the model ask for several tool calls in one turn.",
    ),
]
RequestTimeoutOption = Annotated[
    float,
    typer.Option(
        "--request-timeout",
        min=0.001,
        rich_help_panel=MODEL_PANEL,
        help="Seconds one model request may take (then it is retried).",
    ),
]
MaxRetriesOption = Annotated[
    int,
    typer.Option(
        "--max-retries",
        min=0,
        rich_help_panel=MODEL_PANEL,
        help="Retries of a model request after 429/529/5xx, timeouts and lost connections (honouring Retry-After); then the episode ends with status agent_error.",
    ),
]
MaxConcurrentRequestsOption = Annotated[
    int,
    typer.Option(
        "--max-concurrent-requests",
        min=1,
        rich_help_panel=MODEL_PANEL,
        help="Model requests in flight at once to the endpoint, across --parallel episodes.",
    ),
]
StreamOption = Annotated[
    bool, typer.Option("--stream/--no-stream", rich_help_panel=MODEL_PANEL, help="Stream the model's replies.")
]
MaxResultCharsOption = Annotated[
    int,
    typer.Option(
        "--max-result-chars",
        min=100,
        rich_help_panel=MODEL_PANEL,
        help="A tool result longer than this is cut, with a marker.",
    ),
]
PriceOption = Annotated[
    str | None,
    typer.Option(
        "--price",
        rich_help_panel=MODEL_PANEL,
        help="INPUT,OUTPUT[,CACHED] dollars per million tokens, or a JSON/YAML file of them by model: adds cost_usd to results.json.",
    ),
]

# -- when a run stops for its errors, and resuming one (`orchestrator run`, `orchestrator retry`) -----------------


def error_limit(value: float | None) -> float | None:
    """A `--fail-on-error` value: a count of errored episodes (a whole number, 1 or more) or a share of the run's
    episodes (above 0, below 1); None without the option."""
    if value is None or (value >= 1 and value == int(value)) or 0 < value < 1:
        return value
    raise typer.BadParameter(
        f"expected a number of errored episodes (1, 2 …) or a share of the run's episodes between 0 and 1 (0.1), "
        f"not {value:g}"
    )


FailOnErrorOption = Annotated[
    float | None,
    typer.Option(
        "--fail-on-error",
        metavar="N|SHARE",
        callback=error_limit,
        help="Stop the run once N episodes (1 or more) or this share of them (0.1) errored; the episodes it stops "
        "are recorded interrupted, and the exit code is 2.",
    ),
]
FailFastOption = Annotated[
    bool,
    typer.Option(
        "--fail-fast/--no-fail-fast",
        help="Stop the run when its first episodes (as many as run at once, at most 3) all errored for the same "
        "reason, such as an unreachable model endpoint.",
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Continue the run in --out: keep the episodes recorded complete there (same scenario and seed, not "
        "errored) and run the others.",
    ),
]

# -- choosing scenarios (`orchestrator run`): orchestrator.run.select ----------------------------------------------

SELECT_PANEL = "Choosing scenarios"

TagsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tags",
        metavar="TAG[,TAG]",
        rich_help_panel=SELECT_PANEL,
        help="Only scenarios with at least one of these tags (comma-separated; repeatable).",
    ),
]
FamilyOption = Annotated[
    str | None,
    typer.Option(
        "--family",
        rich_help_panel=SELECT_PANEL,
        help="Only the generated tasks of this family (a generated set's tasks.jsonl says each task's family).",
    ),
]
SplitOption = Annotated[
    str | None,
    typer.Option(
        "--split",
        rich_help_panel=SELECT_PANEL,
        help="Only the generated tasks of this split: train, test, core (a small part of test) or test-ood (edition 2's "
        "held-out families), as tasks.jsonl says.",
    ),
]
LimitOption = Annotated[
    int | None,
    typer.Option("--limit", min=1, rich_help_panel=SELECT_PANEL, help="Only the first N scenarios chosen."),
]
SampleOption = Annotated[
    int | None,
    typer.Option(
        "--sample",
        min=1,
        rich_help_panel=SELECT_PANEL,
        help="N scenarios drawn at random from those chosen (random.Random(--seed)), in their order.",
    ),
]

# -- `orchestrator run`'s own options, which `orchestrator retry` shares -----------------------------------------

AgentOption = Annotated[
    str | None,
    typer.Option(
        "--agent",
        help="oracle (the reference solution, the default), noop, 'cmd:COMMAND' for any MCP agent, "
        "or a model: openai:MODEL (Chat Completions, any OpenAI-compatible server), anthropic:MODEL (Messages API).",
    ),
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="A model agent as inspect names it: openai/MODEL or anthropic/MODEL (the same as --agent openai:MODEL).",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Folder for results.json and trace.jsonl \\[default: runs/ID-TIME].", callback=output_folder
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", help="Episode seed: ids and fault draws follow it (and --sample's draw).")
]
TimeoutOption = Annotated[
    float | None,
    typer.Option("--timeout", callback=positive_seconds, help="Seconds the agent gets \\[default: the scenario's]."),
]
RepeatOption = Annotated[
    int, typer.Option("--repeat", min=1, help="Run K episodes (seeds N, N+1 …) and report pass@k and pass^k.")
]
ParallelOption = Annotated[int, typer.Option("--parallel", min=1, help="Episodes at once, each in its own sandboxes.")]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="--backend ray: the Ray cluster to join (HOST:PORT, or auto); "
        "without it a local Ray is started on 127.0.0.1 and stopped at the end.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print results as JSON on stdout.")]
FreshOption = Annotated[
    str | None,
    typer.Option(
        "--fresh",
        metavar="SPLIT",
        rich_help_panel=SELECT_PANEL,
        help="Play tasks drawn now from the generator's SPLIT (test: the held-out organizations and phrasings), under "
        "a secret seed, each proven as it is drawn; the drawn files stay in the run's folder, the seed is written into "
        "its summary. No scenario argument; --family narrows (several joined by commas).",
    ),
]
FreshCountOption = Annotated[
    int, typer.Option("--count", min=1, rich_help_panel=SELECT_PANEL, help="--fresh: tasks to draw.")
]
FreshSeedOption = Annotated[
    int | None,
    typer.Option(
        "--fresh-seed",
        rich_help_panel=SELECT_PANEL,
        help="--fresh: draw under this seed (a fresh run's summary names its seed) to play the same tasks again.",
    ),
]
ReleasedOption = Annotated[
    Path | None,
    typer.Option(
        "--released",
        metavar="RESULTS",
        rich_help_panel=SELECT_PANEL,
        help="--fresh: a suite's results.json on the released split, whose pass rate is shown beside the fresh one.",
    ),
]
