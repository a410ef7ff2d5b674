"""The verdict rounds' runner: scripted agents written from the instructions alone, run in process through the
gateway; per scenario and in total, correct solutions rejected and wrong ones accepted, and every misjudged case
with the verdict's reason (a measurement, not a test). Each round's `run_heldout.py` calls `main` with its folder.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT)]

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402
from orchestrator.scenario import load  # noqa: E402


async def measure(cases: Any, names: list[str], check: bool, round_dir: Path, tasks: Path | None = None) -> list[dict]:
    """Run the round's cases and return one row per case; `tasks` stands in for the round's `tasks/` folder."""
    own = f"{round_dir.relative_to(ROOT)}/tasks"
    rows: list[dict] = []
    async with InProcessBackend() as backend:
        for name, (path, scenario_cases) in cases.ALL.items():
            if names and name not in names:
                continue
            if tasks is not None and path.startswith(own + "/"):
                path = str(tasks / path[len(own) + 1 :])  # the same generated task, regenerated elsewhere
            scenario = load(ROOT / path)
            for case in scenario_cases:
                started = time.time()
                result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
                rows.append(
                    {
                        "scenario": name,
                        "case": case.id,
                        "want": case.want,
                        "got": result.passed,
                        "score": round(result.score, 3),
                        "reason": case.reason,
                        "why": "; ".join(p for p in _why(result).split("; ") if "unjudged:" not in p),
                        "errors": list(report.errors),
                        "seconds": round(time.time() - started, 2),
                    }
                )
                if check and report.errors:
                    print(f"INVALID {name}:{case.id}: {report.errors}")
    return rows


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "0/0"


def summarize(rows: list[dict]) -> dict:
    """Per-scenario and total counts of correct-rejected and wrong-accepted."""
    per: dict[str, dict[str, int]] = {}
    for row in rows:
        s = per.setdefault(row["scenario"], {"correct": 0, "rejected": 0, "wrong": 0, "accepted": 0})
        if row["want"]:
            s["correct"] += 1
            s["rejected"] += not row["got"]
        else:
            s["wrong"] += 1
            s["accepted"] += bool(row["got"])
    total = {k: sum(s[k] for s in per.values()) for k in ("correct", "rejected", "wrong", "accepted")}
    return {"per_scenario": per, "total": total}


def report(rows: list[dict], figures: dict) -> None:
    """Print the table, the totals and the misjudged cases."""
    print(f"{'scenario':<24} {'correct rejected':>18} {'wrong accepted':>18}")
    for name, s in figures["per_scenario"].items():
        print(f"{name:<24} {_pct(s['rejected'], s['correct']):>18} {_pct(s['accepted'], s['wrong']):>18}")
    t = figures["total"]
    print(f"{'TOTAL':<24} {_pct(t['rejected'], t['correct']):>18} {_pct(t['accepted'], t['wrong']):>18}")
    misjudged = [r for r in rows if r["want"] != r["got"]]
    if misjudged:
        print("\nmisjudged:")
    for r in misjudged:
        kind = "correct rejected" if r["want"] else "wrong accepted"
        print(f"- {r['scenario']}:{r['case']} ({kind}, score {r['score']:.2f}) - {r['reason']}")
        if r["want"]:
            print(f"    verdict: {r['why'][:400]}")
        if r["errors"]:
            print(f"    agent errors: {r['errors']}")


def dirty() -> list[str]:
    """Uncommitted changes to the product in the shared working tree, which a run measures too."""
    status = subprocess.run(
        ["git", "status", "--short", "--", "orchestrator", "servers", "scenarios"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return [line.strip() for line in status.stdout.splitlines() if line.strip()]


def markdown(
    rows: list[dict], figures: dict, when: str, commit: str, why_limit: int = 700, tasks: Path | None = None
) -> str:
    """The figures and the misjudged cases as a RESULTS.md section."""
    t = figures["total"]
    changed = ", ".join(f"`{line}`" for line in dirty()) or "none"
    out = [
        f"## Run of {when} at commit {commit}" + (f", generated tasks from `{tasks}`" if tasks else "") + "\n",
        f"Uncommitted product changes in the working tree at the time (measured too): {changed}.\n",
        f"- correct solutions rejected: **{_pct(t['rejected'], t['correct'])}**",
        f"- wrong solutions accepted: **{_pct(t['accepted'], t['wrong'])}**\n",
        "| scenario | correct rejected | wrong accepted |",
        "|---|---|---|",
    ]
    for name, s in figures["per_scenario"].items():
        out.append(f"| {name} | {_pct(s['rejected'], s['correct'])} | {_pct(s['accepted'], s['wrong'])} |")
    out.append("\nMisjudged cases (scenario:case, what the solution did, want, the verdict's reason):\n")
    for r in rows:
        if r["want"] == r["got"]:
            continue
        want = "pass" if r["want"] else "fail"
        why = r["why"].replace("\n", " ")[:why_limit] if r["want"] else f"passed with score {r['score']:.2f}"
        out.append(f"- `{r['scenario']}:{r['case']}` (want {want}): {r['reason']} Verdict: {why}")
    return "\n".join(out) + "\n"


def main(round_dir: Path, description: str, why_limit: int = 700) -> None:
    """Parse the command line, run the round in `round_dir` (its `cases.ALL`), print, and write --json/--markdown."""
    sys.path.insert(0, str(round_dir))
    cases = importlib.import_module("cases")
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("names", nargs="*", help="scenario names from cases.ALL (default: all)")
    parser.add_argument("--json", type=Path, help="write the figures and every case's verdict here")
    parser.add_argument("--markdown", type=Path, help="append the figures and misjudged cases to this file")
    parser.add_argument("--check", action="store_true", help="only report cases whose tool calls failed")
    parser.add_argument(
        "--tasks", type=Path, help="read the generated tasks from this folder (a regeneration with the same seed)"
    )
    args = parser.parse_args()
    started = time.time()
    rows = asyncio.run(measure(cases, args.names, args.check, round_dir, args.tasks))
    if args.check:
        print(f"{len(rows)} cases run, {sum(bool(r['errors']) for r in rows)} with tool errors")
        return
    figures = summarize(rows)
    report(rows, figures)
    print(f"\n{len(rows)} cases in {time.time() - started:.0f} s")
    when = datetime.now(UTC).isoformat(timespec="seconds")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if args.markdown:
        with args.markdown.open("a") as f:
            f.write("\n" + markdown(rows, figures, when, commit.stdout.strip(), why_limit, args.tasks))
    if args.json:
        out = {
            "date": when,
            "commit": commit.stdout.strip(),
            "uncommitted": dirty(),
            **figures,
            "cases": rows,
        }
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
