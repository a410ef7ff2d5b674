"""What `orchestrator validate` prints: per scenario the counts and every failure named, as a table or JSON."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from orchestrator.prove.validate import Trial, Validation
from orchestrator.prove.variation import BUDGET


def by_kind(trials: list[Trial], good: str) -> dict[str, dict[str, int]]:
    """Per kind of trial: how many ran (applied), went as they must (`good`: failed or passed) and were not applied."""
    out: dict[str, dict[str, int]] = {}
    for t in trials:
        row = out.setdefault(t.kind, {"total": 0, good: 0, "not_applied": 0})
        if t.outcome == "not applied":
            row["not_applied"] += 1
            continue
        row["total"] += 1
        row[good] += t.outcome == good
    return out


@dataclass(frozen=True)
class Asked:
    """Which optional proofs were asked for (mutations, attacks, equivalents): the columns the table shows."""

    mutate: bool = False
    attack: bool = False
    equivalents: bool = False
    variations: int = BUDGET
    """Episodes of variation attacks and of variation equivalents per scenario (0: all)."""


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
            "by_kind": by_kind(check.attacks, "failed"),
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
            "by_kind": by_kind(check.equivalents, "passed"),
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
    columns = [
        ("mutate", "mutations caught", "mutations", "caught"),
        ("attack", "attacks failed", "attacks", "failed"),
        ("equivalents", "equivalents passed", "equivalents", "passed"),
    ]
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
                    console.print(
                        f"[yellow]{name}: {part[:-1]} not applied:[/] {trial['kind']}: {trial['description']}: "
                        f"{trial['reason']}",
                        highlight=False,
                    )
    if asked.attack or asked.equivalents:
        render_kinds(console, reports)
    valid = sum(r["valid"] for r in reports)
    console.print(f"{valid} of {len(reports)} scenarios valid")


def render_kinds(console: Console, reports: list[dict[str, Any]]) -> None:
    """One row per kind of attack and equivalent over all scenarios: how many went as they must, of how many ran,
    in how many scenarios, and how many were not applied or skipped."""
    table = Table(show_edge=False, title="by kind")
    for title in ("proof", "kind", "as they must", "scenarios", "not applied", "skipped"):
        table.add_column(title, justify="left" if title in ("proof", "kind") else "right")
    for part, good in (("attacks", "failed"), ("equivalents", "passed")):
        totals: dict[str, list[int]] = {}
        for r in reports:
            section = r.get(part) or {}
            for kind, row in section.get("by_kind", {}).items():
                t = totals.setdefault(kind, [0, 0, 0, 0, 0])
                t[0] += row[good]
                t[1] += row["total"]
                t[2] += 1
                t[3] += row["not_applied"]
            for skip in section.get("skipped", []):
                totals.setdefault(skip["kind"], [0, 0, 0, 0, 0])[4] += 1
        for kind, (ok, total, scenarios, missed, skipped) in totals.items():
            mark = "" if ok == total else "[red]"
            table.add_row(part[:-1], kind, f"{mark}{ok}/{total}", str(scenarios), str(missed), str(skipped))
    console.print(table)


def render_skips(console: Console, reports: list[dict[str, Any]]) -> None:
    """Which attacks and equivalents did not apply to each scenario, and why."""
    for r in reports:
        for part in ("attacks", "equivalents"):
            for skip in r.get(part, {}).get("skipped", []):
                console.print(
                    f"[dim]{r['id']}: {part[:-1]} skipped: {skip['kind']}: {skip['reason']}[/]", highlight=False
                )
