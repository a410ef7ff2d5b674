"""`orchestrator`: run, serve, validate and inspect ClawGym scenarios."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import anyio
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from orchestrator import scenario as scenarios
from orchestrator.show import render_scenario, scenario_summary

app = typer.Typer(
    name="orchestrator",
    help="Run agents against ClawGym scenarios, serve scenarios to MCP clients, and validate scenarios.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

USAGE_ERROR = 2


def fail_usage(message: str) -> typer.Exit:
    err.print(f"[red]error:[/] {message}")
    return typer.Exit(USAGE_ERROR)


def load_or_exit(path: Path) -> scenarios.Scenario:
    try:
        return scenarios.load(path)
    except scenarios.ScenarioError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(USAGE_ERROR) from None


@app.command("show")
def show_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Show a scenario: the instruction, the apps and seed sizes, and the stages and checks in words."""
    loaded = load_or_exit(scenario)
    if as_json:
        print(json.dumps(scenario_summary(loaded), indent=2))
    else:
        render_scenario(out, loaded)


@app.command("list")
def list_command(
    path: Annotated[Path, typer.Argument(help="Folder (searched recursively) or file.")] = Path("scenarios"),
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List scenarios with their ids, titles, apps and stage counts."""
    if not path.exists():
        raise fail_usage(f"{path} does not exist")
    rows, broken = [], []
    for file in scenarios.discover([path]):
        try:
            s = scenarios.load(file)
        except scenarios.ScenarioError as exc:
            broken.append({"file": str(file), "problems": [str(p) for p in exc.problems]})
            continue
        rows.append({"id": s.id, "title": s.title, "file": str(file), "apps": list(s.apps), "stages": len(s.stages),
                     "difficulty": s.difficulty, "tags": s.tags})
    if as_json:
        print(json.dumps({"scenarios": rows, "invalid": broken}, indent=2))
    else:
        table = Table(show_edge=False)
        for column in ("id", "title", "apps", "stages", "difficulty", "file"):
            table.add_column(column)
        for r in rows:
            table.add_row(r["id"], r["title"], ", ".join(r["apps"]), str(r["stages"]), r["difficulty"], r["file"])
        out.print(table)
        for b in broken:
            err.print(f"[red]invalid:[/] {b['file']} ({len(b['problems'])} problems; run `orchestrator show {b['file']}`)")
    if broken:
        raise typer.Exit(1)


@app.command("validate")
def validate_command(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders.")],
    mutate: Annotated[
        bool, typer.Option("--mutate", help="Also run weakened reference solutions and report the ones no check catches.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Prove scenarios sound: the reference solution scores 1.0 on fresh sandboxes and doing nothing fails."""
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.validate import Validation, validate

    missing = [p for p in paths if not p.exists()]
    if missing:
        raise fail_usage(f"no such file or folder: {', '.join(map(str, missing))}")
    files = scenarios.discover(paths)
    if not files:
        raise fail_usage(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")

    reports: list[dict] = []

    async def run_all() -> None:
        async with InProcessBackend() as backend:
            with Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=err, transient=True, disable=as_json or not err.is_terminal,
            ) as progress:
                task = progress.add_task("validating", total=len(files))
                for file in files:
                    progress.update(task, description=f"validating {file.name}")
                    try:
                        loaded = scenarios.load(file)
                    except scenarios.ScenarioError as exc:
                        reports.append({"file": str(file), "id": None, "valid": False,
                                        "problems": [str(p) for p in exc.problems]})
                    else:
                        check: Validation = await validate(loaded, backend, mutate=mutate)
                        reports.append(_report(file, check, mutate))
                    progress.advance(task)

    anyio.run(run_all)
    if as_json:
        print(json.dumps({"scenarios": reports, "valid": all(r["valid"] for r in reports)}, indent=2))
    else:
        _print_validation(reports, mutate)
    if not all(r["valid"] for r in reports):
        raise typer.Exit(1)


def _report(file: Path, check, mutate: bool) -> dict:  # noqa: ANN001 - Validation
    report = {
        "file": str(file),
        "id": check.scenario.id,
        "valid": check.valid,
        "oracle_score": check.oracle.score if check.oracle else None,
        "noop_score": check.noop.score if check.noop else None,
        "problems": check.problems,
    }
    if mutate:
        report["mutations"] = len(check.mutations)
        report["uncaught"] = [m.description for m in check.uncaught]
    return report


def _print_validation(reports: list[dict], mutate: bool) -> None:
    table = Table(show_edge=False)
    table.add_column("scenario")
    table.add_column("oracle", justify="right")
    table.add_column("noop", justify="right")
    if mutate:
        table.add_column("mutations caught", justify="right")
    table.add_column("verdict")
    for r in reports:
        row = [r["id"] or r["file"], _score(r.get("oracle_score")), _score(r.get("noop_score"))]
        if mutate:
            total = r.get("mutations", 0)
            caught = total - len(r.get("uncaught", []))
            row.append(f"{caught}/{total}" if r["id"] else "-")
        row.append("[green]valid[/]" if r["valid"] else "[red]INVALID[/]")
        table.add_row(*row)
    out.print(table)
    for r in reports:
        for problem in r["problems"]:
            out.print(f"[red]{r['id'] or r['file']}:[/] {problem}", highlight=False)
        for description in r.get("uncaught", []):
            out.print(f"[yellow]{r['id']}: uncaught mutation:[/] {description}", highlight=False)
    valid = sum(r["valid"] for r in reports)
    out.print(f"{valid} of {len(reports)} scenarios valid")


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
