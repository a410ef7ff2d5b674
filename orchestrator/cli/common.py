"""What every command shares: the two consoles, usage errors (exit 2), and loading a scenario, a backend or a judge
or failing with a usage error that names the problem.

Imports only typer and rich at module level: everything the loaders need is imported when they are called, so that
`orchestrator --help` stays fast.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

if TYPE_CHECKING:
    from rich.table import Table

    from orchestrator.backends import Backend
    from orchestrator.scenario import Scenario
    from orchestrator.verify.judge import Judge

console = Console(soft_wrap=True)
"""Standard output: what a command prints as its answer (tables, JSON, results)."""
err = Console(stderr=True, soft_wrap=True)
"""Standard error: progress, warnings and errors."""

USAGE_ERROR = 2


def fail_usage(message: str) -> typer.Exit:
    """Print `error: MESSAGE` on stderr and return the exit (code 2) to raise."""
    from rich.markup import escape

    err.print(f"[red]error:[/] {escape(message)}")  # a message's own brackets ('clawgym[ray]', '[--x]') are text
    return typer.Exit(USAGE_ERROR)


def load_or_exit(path: Path) -> Scenario:
    """The scenario in `path`, or exit 2 with its problems (the message names the file)."""
    from orchestrator import scenario as scenarios

    try:
        return scenarios.load(path)
    except scenarios.ScenarioError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(USAGE_ERROR) from None


def backend_or_exit(name: str, log_dir: Path | None, address: str | None = None) -> Backend:
    """The backend `--backend NAME` names (not started yet), or exit 2 saying why it cannot be made."""
    from orchestrator.backends import BackendError, make_backend

    try:
        return make_backend(name, log_dir, address=address)
    except (ValueError, BackendError) as exc:
        raise fail_usage(str(exc)) from None


def judge_or_exit(spec: str | None) -> Judge | None:
    """The LLM judge `--judge MODEL@BASE_URL` names (None without one), or exit 2 for a malformed spec."""
    if spec is None:
        return None
    from orchestrator.verify.judge import Judge, JudgeConfig

    try:
        return Judge(JudgeConfig.parse(spec))
    except ValueError as exc:
        raise fail_usage(str(exc)) from None


def restore_stop_signals() -> None:
    """Ctrl-C and SIGTERM stop the run whatever disposition was inherited (a CI background job ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def print_whole_table(out: Console, table: Table) -> None:
    """Print a table without cutting ids or paths: on a terminal other columns wrap; piped, lines get as long as needed."""
    from rich.measure import Measurement

    needs = Measurement.get(out, out.options.update_width(100_000), table)
    width = out.width
    out.width = max(width, needs.minimum if out.is_terminal else needs.maximum)
    try:
        out.print(table, soft_wrap=False)
    finally:
        out.width = width
