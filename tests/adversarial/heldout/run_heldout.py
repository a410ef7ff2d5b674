"""Measure the verdict on held-out scripted agents (a measurement script, not a test).

python tests/adversarial/heldout/run_heldout.py [scenario-name ...] [--json FILE] [--check]

Runs every case of tests/adversarial/heldout/cases.py in process through the gateway and prints, per scenario and in
total, how many correct solutions the verdict rejected and how many wrong ones it accepted, then each misjudged case
with the verdict's reason. --check prints only the cases whose own tool calls failed (an invalid case), not verdicts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(HERE), str(HERE.parent), str(ROOT)]

import cases  # noqa: E402

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402
from orchestrator.scenario import load  # noqa: E402


async def measure(names: list[str], check: bool) -> list[dict]:
    """Run the cases and return one row per case."""
    rows: list[dict] = []
    async with InProcessBackend() as backend:
        for name, (path, scenario_cases) in cases.ALL.items():
            if names and name not in names:
                continue
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
                        "why": _why(result),
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


def main() -> None:
    """Parse the command line, run, print, and write --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="scenario names from cases.ALL (default: all)")
    parser.add_argument("--json", type=Path, help="write the figures and every case's verdict here")
    parser.add_argument("--check", action="store_true", help="only report cases whose tool calls failed")
    args = parser.parse_args()
    started = time.time()
    rows = asyncio.run(measure(args.names, args.check))
    if args.check:
        print(f"{len(rows)} cases run, {sum(bool(r['errors']) for r in rows)} with tool errors")
        return
    figures = summarize(rows)
    report(rows, figures)
    print(f"\n{len(rows)} cases in {time.time() - started:.0f} s")
    if args.json:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        out = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": commit.stdout.strip(),
            **figures,
            "cases": rows,
        }
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
