"""`orchestrator export-tasks`: the task set as a Hugging Face dataset or JSON lines (`orchestrator.integrations.hf`);
`orchestrator tasks get ID`: a released task's scenario file, drawn again from its row
(`orchestrator.integrations.releases`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from orchestrator.cli.common import console, fail_usage
from orchestrator.cli.options import output_path

tasks_app = typer.Typer(
    help="Released tasks by id: print a row's scenario file.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def export_tasks_command(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            help="Scenario files, folders (a generated set's included), globs, scenario ids or released task ids "
            "(ambiguous-v2-1-00003); none with --release: the release's tasks."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write: a folder (hf) or a file (jsonl).", callback=output_path),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="hf (a datasets Dataset saved with save_to_disk; datasets.load_from_disk reads it) or jsonl "
            '(JSON lines; datasets.load_dataset("json", data_files=OUT) reads it).',
        ),
    ] = "hf",
    release: Annotated[
        str | None,
        typer.Option(
            "--release",
            help="A committed release (v2, v3, v2-preview …): its tasks, drawn again from their rows (no "
            "generated set needed); with ids, the release they are looked up in.",
        ),
    ] = None,
    family: Annotated[
        str | None, typer.Option("--family", help="Only tasks of this generated family (tasks.jsonl).")
    ] = None,
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="Only tasks of this split of a generated set or release: train, test, core (never test-ood) or "
            "test-ood.",
        ),
    ] = None,
    tags: Annotated[
        str | None, typer.Option("--tags", help="Only scenarios with at least one of these tags (comma-separated).")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N tasks.")] = None,
) -> None:
    """Export the task set for trainers: one row per task with its instruction, scenario id, family, split, tools, the scenario's YAML text and its generated set's tasks.jsonl row (or its release's row)."""
    from orchestrator.integrations.hf import ExportTasksError, export_tasks
    from orchestrator.integrations.releases import ReleaseError
    from orchestrator.integrations.tasks import TaskSetError

    if out is None:
        raise fail_usage("export-tasks: --out is needed (a folder for --format hf, a file for --format jsonl)")
    try:
        import datasets

        datasets.disable_progress_bars()
    except ImportError:
        pass  # --format hf says what to install; jsonl needs no datasets
    chosen = [t.strip() for t in (tags or "").split(",") if t.strip()]
    try:
        written = export_tasks(
            sources or [], fmt, out, family=family, split=split, tags=chosen, limit=limit, release=release
        )
    except (TaskSetError, ExportTasksError, ReleaseError) as exc:
        raise fail_usage(str(exc)) from None
    console.print(f"{written} task(s) written to {out} ({fmt})", highlight=False)  # the answer: stdout


def get_command(
    task_id: Annotated[str, typer.Argument(metavar="ID", help="A released task's id, e.g. ambiguous-v2-1-00003.")],
    release: Annotated[
        str | None,
        typer.Option(
            "--release", help="The release to look it up in (v2, v3, v2-preview …; default: the id's edition's)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the scenario file here instead of standard output.")
    ] = None,
) -> None:
    """Print a released task's scenario file (YAML), drawn again from its family and draw index as the release wrote it, byte for byte (checked against the row's content hash); no generated set is needed."""
    from orchestrator.integrations import releases

    try:
        found, row = releases.find(task_id, release)
        text = releases.scenario_text(found, row)
    except releases.ReleaseError as exc:
        raise fail_usage(str(exc)) from None
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if out.is_dir():
        raise fail_usage(f"--out {out}: is a folder; give the scenario file's path")
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = out.with_name(f".{out.name}.part")
    scratch.write_text(text, encoding="utf-8")
    scratch.replace(out)
    print(f"{row['id']} ({row['family']}, {row['split']}) written to {out}", file=sys.stderr)
