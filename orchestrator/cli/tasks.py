"""`orchestrator export-tasks`: the task set as a Hugging Face dataset or JSON lines (`orchestrator.integrations.hf`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from orchestrator.cli.common import console, fail_usage
from orchestrator.cli.options import output_path


def export_tasks_command(
    sources: Annotated[
        list[str],
        typer.Argument(help="Scenario files, folders (a generated set's included), globs or scenario ids."),
    ],
    out: Annotated[
        Path, typer.Option("--out", help="Where to write: a folder (hf) or a file (jsonl).", callback=output_path)
    ],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="hf (a datasets Dataset saved with save_to_disk; datasets.load_from_disk reads it) or jsonl "
            '(JSON lines; datasets.load_dataset("json", data_files=OUT) reads it).',
        ),
    ] = "hf",
    family: Annotated[
        str | None, typer.Option("--family", help="Only tasks of this generated family (tasks.jsonl).")
    ] = None,
    split: Annotated[
        str | None,
        typer.Option("--split", help="Only tasks of this split of a generated set: train, test, core or test-ood."),
    ] = None,
    tags: Annotated[
        str | None, typer.Option("--tags", help="Only scenarios with at least one of these tags (comma-separated).")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N tasks.")] = None,
) -> None:
    """Export the task set for trainers: one row per task with its instruction, scenario id, family, split, tools, the scenario's YAML text and its generated set's tasks.jsonl row."""
    from orchestrator.integrations.hf import ExportTasksError, export_tasks
    from orchestrator.integrations.tasks import TaskSetError

    try:
        import datasets

        datasets.disable_progress_bars()
    except ImportError:
        pass  # --format hf says what to install; jsonl needs no datasets
    chosen = [t.strip() for t in (tags or "").split(",") if t.strip()]
    try:
        written = export_tasks(sources, fmt, out, family=family, split=split, tags=chosen, limit=limit)
    except (TaskSetError, ExportTasksError) as exc:
        raise fail_usage(str(exc)) from None
    console.print(f"{written} task(s) written to {out} ({fmt})", highlight=False)  # the answer: stdout
