"""What `orchestrator validate` prints: per scenario the counts and every failure named, as a table or JSON."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from orchestrator.prove.validate import Validation


@dataclass(frozen=True)
class Asked:
    """Which optional proofs were asked for (mutations, attacks, equivalents): the columns the table shows."""

    mutate: bool = False
    attack: bool = False
    equivalents: bool = False


def as_dict(file: Path, check: Validation, asked: Asked) -> dict[str, Any]:
    """One scenario's validation as the JSON report writes it."""
    report: dict[str, Any] = {
        "file": str(file),
        "id": check.scenario.id,
        "valid": check.valid,
        "oracle_score": check.oracle.score if check.oracle else None,
        "noop_score": check.noop.score if check.noop else None,
        "episodes": check.episodes,
        "problems": check.problems,
    }
    if asked.mutate:
        report["mutations"] = {
            "total": len(check.mutations),
            "caught": len(check.mutations) - len(check.uncaught),
            "uncaught": [m.description for m in check.uncaught],
        }
    if asked.attack:
        applied = [t for t in check.attacks if t.outcome != "not applied"]
        report["attacks"] = {
            "total": len(applied),
            "failed": sum(t.outcome == "failed" for t in applied),
            "passed": [t.as_dict() for t in check.attacks_passed],
            "not_applied": [t.as_dict() for t in check.attacks if t.outcome == "not applied"],
            "skipped": [{"kind": s.kind, "reason": s.reason} for s in check.skipped.get("attacks", [])],
            "trials": [t.as_dict() for t in check.attacks],
        }
    if asked.equivalents or check.scenario.oracles:
        applied = [t for t in check.equivalents if t.outcome != "not applied"]
        report["equivalents"] = {
            "total": len(applied),
            "passed": sum(t.outcome == "passed" for t in applied),
            "failed": [t.as_dict() for t in check.equivalents_failed],
            "not_applied": [t.as_dict() for t in check.equivalents if t.outcome == "not applied"],
            "skipped": [{"kind": s.kind, "reason": s.reason} for s in check.skipped.get("equivalents", [])],
            "trials": [t.as_dict() for t in check.equivalents],
        }
    return report


def load_problem(file: Path, problems: list[str]) -> dict[str, Any]:
    """The report of a file that did not load."""
    return {"file": str(file), "id": None, "valid": False, "problems": problems}


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _count(report: dict[str, Any], key: str, good: str) -> str:
    part = report.get(key)
    if not part:
        return "-"
    count = part[good] if isinstance(part[good], int) else part["total"] - len(part[good])
    return f"{count}/{part['total']}"


def render(console: Console, reports: list[dict[str, Any]], asked: Asked) -> None:
    """The validation table (one row per scenario) and each invalid scenario's problems."""
    table = Table(show_edge=False)
    table.add_column("scenario")
    table.add_column("oracle", justify="right")
    table.add_column("noop", justify="right")
    columns = [("mutate", "mutations caught", "mutations", "caught"), ("attack", "attacks failed", "attacks", "failed"),
               ("equivalents", "equivalents passed", "equivalents", "passed")]  # fmt: skip
    shown = [c for c in columns if getattr(asked, c[0])]
    for _, title, _, _ in shown:
        table.add_column(title, justify="right")
    table.add_column("verdict")
    for r in reports:
        row = [r["id"] or r["file"], _score(r.get("oracle_score")), _score(r.get("noop_score"))]
        row += [_count(r, key, good) for _, _, key, good in shown]
        row.append("[green]valid[/]" if r["valid"] else "[red]INVALID[/]")
        table.add_row(*row)
    console.print(table)
    for r in reports:
        name = r["id"] or r["file"]
        for problem in r["problems"]:
            console.print(f"[red]{name}:[/] {problem}", highlight=False)
        for part in ("attacks", "equivalents"):
            for trial in r.get(part, {}).get("not_applied", []):
                if trial["kind"] != "oracles":
                    console.print(f"[yellow]{name}: {part[:-1]} not applied:[/] {trial['kind']}: {trial['description']}: "
                                  f"{trial['reason']}", highlight=False)  # fmt: skip
    valid = sum(r["valid"] for r in reports)
    console.print(f"{valid} of {len(reports)} scenarios valid")


def render_skips(console: Console, reports: list[dict[str, Any]]) -> None:
    """Which attacks and equivalents did not apply to each scenario, and why."""
    for r in reports:
        for part in ("attacks", "equivalents"):
            for skip in r.get(part, {}).get("skipped", []):
                console.print(
                    f"[dim]{r['id']}: {part[:-1]} skipped: {skip['kind']}: {skip['reason']}[/]", highlight=False
                )
