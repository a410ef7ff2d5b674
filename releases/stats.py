"""Measure an edition-2 manifest against the task set's targets (issue 20) and print what it finds.

    .venv/bin/python releases/stats.py releases/v2/tasks.jsonl.gz     # a committed manifest
    .venv/bin/python releases/stats.py gen/v2/                         # a generated set's tasks.jsonl
    .venv/bin/python releases/stats.py gen/v2/ --report-only --json    # never exit 1; JSON instead of lines

Printed: tasks, distinct organizations; organizations and templates shared between train and test (test-ood
counts as test); the share of tasks whose normalized instruction (names, dates, times, numbers, addresses and
ticket keys replaced: the row's `shape`) equals another task's; the share with 10 or more reference calls across
3 or more apps; the share with world events, people who answer, `ask_user` or faults; the difficulty and size
mix; and per family: tasks, splits, median calls and apps. Exits 1 when a target is missed (`--report-only`: 0).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

TARGETS = {
    "organizations": (">=", 1000),
    "organizations_shared": ("==", 0),
    "templates_shared": ("==", 0),
    "same_normalized_instruction": ("<=", 0.05),
    "long_multi_app": (">=", 0.30),
    "living": (">=", 0.25),
}
"""The targets a release must meet: name -> (comparison, value)."""


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of a manifest file (`.jsonl` or `.jsonl.gz`) or of a generated set's folder."""
    if path.is_dir():
        path = path / "tasks.jsonl"
    if not path.exists():
        raise SystemExit(f"{path}: no manifest there")
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _side(row: dict[str, Any]) -> str:
    return "train" if row["split"] == "train" else "test"


def measure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every figure the targets name, and the mixes and per-family counts."""
    if not rows:
        raise SystemExit("the manifest has no rows")
    missing = sorted({k for r in rows for k in ("organization", "calls", "apps", "shape") if k not in r})
    if missing:
        raise SystemExit(f"the rows lack {', '.join(missing)}: an edition-2 manifest is needed (generate --edition 2)")
    n = len(rows)
    sides: dict[str, dict[str, set[str]]] = {"organization": defaultdict(set), "template": defaultdict(set)}
    for row in rows:
        for key in sides:
            if row.get(key):
                sides[key][row[key]].add(_side(row))
    shapes = Counter(r["shape"] for r in rows)
    long = sum(1 for r in rows if r["calls"] >= 10 and len(r["apps"]) >= 3)
    living = sum(1 for r in rows if r.get("events") or r.get("responders") or r.get("ask_user") or r.get("faults"))
    families: dict[str, Any] = {}
    for name in sorted({r["family"] for r in rows}):
        mine = [r for r in rows if r["family"] == name]
        families[name] = {
            "tasks": len(mine),
            **dict(sorted(Counter(r["split"] for r in mine).items())),
            "median_calls": statistics.median(r["calls"] for r in mine),
            "median_apps": statistics.median(len(r["apps"]) for r in mine),
            "templates": len({r.get("template") for r in mine if r.get("template")}),
        }
    return {
        "tasks": n,
        "organizations": len(sides["organization"]),
        "organizations_shared": sum(1 for s in sides["organization"].values() if len(s) > 1),
        "templates": len(sides["template"]),
        "templates_shared": sum(1 for s in sides["template"].values() if len(s) > 1),
        "without_template": sum(1 for r in rows if not r.get("template")),
        "same_normalized_instruction": round(sum(c for c in shapes.values() if c > 1) / n, 4),
        "long_multi_app": round(long / n, 4),
        "living": round(living / n, 4),
        "splits": dict(sorted(Counter(r["split"] for r in rows).items())),
        "sizes": dict(sorted(Counter(r.get("size") for r in rows).items())),
        "difficulty": dict(sorted(Counter(r["difficulty"] for r in rows).items())),
        "families": families,
    }


def missed(figures: dict[str, Any]) -> list[str]:
    """The targets a measurement misses, each with the figure and the target."""
    out = []
    for name, (op, value) in TARGETS.items():
        got = figures[name]
        ok = got >= value if op == ">=" else got <= value if op == "<=" else got == value
        if not ok:
            out.append(f"{name} is {got}, the target is {op} {value}")
    return out


def show(figures: dict[str, Any]) -> None:
    for key in (
        "tasks",
        "organizations",
        "organizations_shared",
        "templates",
        "templates_shared",
        "without_template",
        "same_normalized_instruction",
        "long_multi_app",
        "living",
        "splits",
        "sizes",
        "difficulty",
    ):
        target = TARGETS.get(key)
        note = f"   (target {target[0]} {target[1]})" if target else ""
        print(f"{key:<30}{figures[key]}{note}")
    print(f"\n{'family':<24}{'tasks':>6}{'train':>7}{'test':>6}{'ood':>6}{'calls':>7}{'apps':>6}{'templates':>11}")
    for name, f in figures["families"].items():
        print(
            f"{name:<24}{f['tasks']:>6}{f.get('train', 0):>7}{f.get('test', 0):>6}{f.get('test-ood', 0):>6}"
            f"{f['median_calls']:>7}{f['median_apps']:>6}{f['templates']:>11}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path, help="A manifest (.jsonl or .jsonl.gz) or a generated set's folder.")
    parser.add_argument("--report-only", action="store_true", help="Print only: exit 0 even when a target is missed.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args(argv)
    figures = measure(read(args.manifest))
    problems = missed(figures)
    if args.json:
        print(json.dumps({**figures, "missed": problems}, indent=2))
    else:
        show(figures)
        print("\nevery target met" if not problems else "\nmissed: " + "; ".join(problems))
    return 1 if problems and not args.report_only else 0


if __name__ == "__main__":
    sys.exit(main())
