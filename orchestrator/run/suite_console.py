"""A suite on the console: the per-scenario table and total line (`render_suite`), each scenario's verdict over its
episodes (`episodes_verdict`) and the progress of a running suite (`SuiteProgress`). `orchestrator.run.suite`
re-exports them.

May import `orchestrator.record` and `orchestrator.verify`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orchestrator.record import describe_errors, tally
from orchestrator.verify.results import Result

if TYPE_CHECKING:
    from orchestrator.run.suite import ScenarioRun


def _fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def print_table(console: Any, table: Any) -> None:
    """Print without cutting cells: piped output gets lines as long as the table needs."""
    from rich.measure import Measurement

    width = console.width
    if not console.is_terminal:
        console.width = max(width, Measurement.get(console, console.options.update_width(100_000), table).maximum)
    try:
        console.print(table, soft_wrap=False)
    finally:
        console.width = width


def render_suite(console: Any, summary: dict[str, Any]) -> None:
    """The per-scenario table and the total line, as `orchestrator run DIR` prints them."""
    from rich.table import Table

    repeat = summary.get("repeat", 1)
    table = Table(show_edge=False, title=f"suite: {summary.get('agent')}", title_justify="left")
    table.add_column("scenario", no_wrap=True)
    table.add_column("passed", justify="right")
    table.add_column("score", justify="right")
    table.add_column("stages", no_wrap=True)
    table.add_column("calls", justify="right")
    table.add_column("time", justify="right")
    table.add_column("cost", justify="right")
    for row in summary.get("scenarios", []):
        if row.get("status") == "invalid":
            table.add_row(
                row["file"], "[red]invalid[/]", "-", f"{len(row.get('problems', []))} problem(s)", "-", "-", "-"
            )
            continue
        n, c = row.get("scored", row.get("episodes", 0)), row.get("passes", 0)
        mark = "[green]" if row.get("passed") else "[red]"
        if not n:  # every episode errored: nothing to score
            passed = f"[yellow]{row.get('status', 'error')}[/]"
        else:
            passed = f"{mark}{'yes' if c else 'no'}[/]" if repeat == 1 else f"{mark}{c}/{n}[/]"
            if row.get("errored"):
                passed += f" [yellow]+{row['errored']} errored[/]"
        if n and row.get("undecided"):
            passed += f" [yellow]+{row['undecided']} undecided[/]"
        stages = ", ".join(
            f"{s.get('name')} {_fmt(s.get('mean_score'), '.2f')}"
            for s in row.get("stages", [])
            if s.get("scored", True)
        )
        table.add_row(
            row["id"],
            passed,
            _fmt(row.get("score"), ".2f"),
            stages,
            _fmt(row.get("calls"), ".0f" if repeat == 1 else ".1f"),
            _fmt(row.get("duration_s"), ".1f", " s"),
            _fmt(row.get("cost_usd"), ".4f", " $") if row.get("cost_usd") is not None else "-",
        )
    print_table(console, table)
    total = summary.get("total", {})
    ks = sorted({1, repeat})
    scored = total.get("passed", 0) + total.get("failed", 0) if "failed" in total else total.get("run", 0)
    line = (
        f"total: {total.get('passed', 0)}/{scored} scenarios passed"
        + (f", {total.get('passes', 0)}/{total.get('scored', total.get('episodes', 0))} episodes" if repeat > 1 else "")
        + (f", {total['errored']} errored (not scored)" if total.get("errored") else "")
        + (f", {total['undecided']} undecided (need a judge; not scored)" if total.get("undecided") else "")
        + f", mean score {_fmt(total.get('score'), '.2f')}"
        + "".join(f", pass@{k} {_fmt(total.get('pass_at_k', {}).get(str(k)), '.2f')}" for k in ks)
        + "".join(f", pass^{k} {_fmt(total.get('pass_hat_k', {}).get(str(k)), '.2f')}" for k in ks if k > 1)
        + f", {total.get('calls', 0):.0f} tool calls, {total.get('wall_s', 0):.1f} s"
        + (f", cost {total['cost_usd']:.4f} $" if total.get("cost_usd") is not None else "")
    )
    if total.get("attacked"):
        line += (
            f"; {total['attacked']} under prompt injection: utility {total['utility_under_attack']:.2f}, "
            f"attack success rate {total['attack_success_rate']:.2f}"
        )
    if total.get("invalid"):
        line += f"; {total['invalid']} file(s) did not load"
    console.print(line, highlight=False)
    if total.get("errors"):
        console.print(f"errored: {describe_errors(total['errors'])}", highlight=False)


def episodes_verdict(results: list[Result]) -> str:
    """A scenario's episodes in a few words: "passed, score 1.00", "2/3 passed, score 0.67, 1 errored",
    "ERROR (agent_error: ...)" when none was scored."""
    counts = tally(results)
    if results and all(r.status == "interrupted" and (r.error or "").startswith("not started") for r in results):
        return f"not run ({results[0].error})"
    if not counts.scored and counts.undecided and not counts.errored:
        return f"UNDECIDED ({next(r.undecided for r in results if r.undecided)})"
    if not counts.scored:
        return f"ERROR ({describe_errors(counts.reasons, limit=1)})"
    verdict = (
        ("passed" if counts.passes else "FAILED") if len(results) == 1 else f"{counts.passes}/{counts.scored} passed"
    )
    return (
        f"{verdict}, score {_fmt(counts.score, '.2f')}"
        + (f", {counts.errored} errored" if counts.errored else "")
        + (f", {counts.undecided} undecided" if counts.undecided else "")
    )


def noteworthy(stage: str) -> bool:
    """A stage change worth a line of its own, on a terminal too: a model request retried (with the wait), an
    episode that errored."""
    return stage.startswith(("retrying", "error:"))


class SuiteProgress:
    """Progress of a suite: a bar on a terminal (with the running episodes' states: stage, a model agent's turns and
    tokens so far), plain lines otherwise (a scenario starting, its agent running, its verdict); retries with their
    wait and errors are lines either way."""

    def __init__(self, console: Any, runs: list[ScenarioRun], repeat: int) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = console
        self.plain = not console.is_terminal
        self.total = sum(1 for r in runs if r.scenario is not None)
        self.done = 0
        self.positions: dict[str, int] = {}
        """Each scenario's number in its lines, in the order scenarios start (the suite's order)."""
        self.repeat = repeat
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=self.plain,
        )
        self.task = self.progress.add_task("suite", total=self.total * repeat)
        self.active: dict[str, str] = {}

    def __enter__(self) -> SuiteProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)  # type: ignore[arg-type]  # the exception triple, as the with statement passed it

    def _line(self, text: str) -> None:
        """A line as it is: written straight to the console's file when it is not a terminal (the common line of a
        piped run, one per episode), through the console otherwise (the bar stays below it)."""
        if self.plain:
            self.console.file.write(text + "\n")
        else:
            self.console.print(text, highlight=False, markup=False)

    def __call__(self, kind: str, run: ScenarioRun, index: int, text: str) -> None:
        assert run.scenario is not None
        sid = run.scenario.id
        number = self.positions.setdefault(sid, len(self.positions) + 1)
        if kind == "start":
            if self.plain:
                self.console.print(f"[{number}/{self.total}] {sid}: starting", highlight=False)
        elif kind == "stage":
            if text == "done":
                self.progress.advance(self.task)
            elif noteworthy(text) or (self.plain and text.startswith("running ")):
                where = f"{sid} #{index + 1}" if self.repeat > 1 else sid
                self._line(f"{where}: {text}")
            self.active[sid] = text
        elif kind == "done":
            self.done += 1
            self.active.pop(sid, None)
            record = run.record
            if record and record.results:
                message = f"[{number}/{self.total}] {sid}: {episodes_verdict(record.results)}"
            else:
                message = f"[{number}/{self.total}] {sid}: not run"
            self.console.print(message, highlight=False)
        if not self.plain:
            busy = ", ".join(f"{k} ({v})" for k, v in list(self.active.items())[:2])
            self.progress.update(
                self.task, description=f"{self.done}/{self.total} scenarios" + (f"; {busy}" if busy else "")
            )
