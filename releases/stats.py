"""Measure an edition-2 or edition-3 manifest against the task set's targets (issues 20 and 38) and print what it finds.

    .venv/bin/python releases/stats.py releases/v2/tasks.jsonl.gz     # a committed manifest
    .venv/bin/python releases/stats.py gen/v2/                         # a generated set's tasks.jsonl
    .venv/bin/python releases/stats.py gen/v2/ --report-only --json    # never exit 1; JSON instead of lines

Printed: tasks, distinct organizations; organizations and templates shared between train and test (test-ood
counts as test); the share of tasks whose normalized instruction (names, dates, times, numbers, addresses and
ticket keys replaced: the row's `shape`) equals another task's; the share with 10 or more reference calls across
3 or more apps; the share with world events, people who answer, `ask_user` or faults; the difficulty and size
mix; and per family: tasks, splits, median calls and apps. Exits 1 when a target is missed (`--report-only`: 0).

Edition 3 (rows carrying `instruction` and `program`) adds, measured per split (`V3_TARGETS`): the share of tasks
whose instruction equals another's of the same split under a stricter mask that also hides the task's parameter
values (topics, items, titles), quoted text and capitalized words (`strict_mask`); the test-ood share, the test-ood
rows whose program a train row shares, and each test row's nearest train program (`nearest`, by the Jaccard
similarity of the reference's tool steps and their pairs); the living and long share per family; the tools the
reference solutions use; and the language and policy check's contradictions (the rows' `coherence` when they carry
it, else what the release file beside the manifest records of the drawn candidates).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

GATEWAY_TOOLS = ("world__",)
"""The gateway's own tools (ask_user, wait, report): reported apart from the apps' tools the breadth target counts."""

TARGETS = {
    "organizations": (">=", 1000),
    "organizations_shared": ("==", 0),
    "templates_shared": ("==", 0),
    "same_normalized_instruction": ("<=", 0.05),
    "long_multi_app": (">=", 0.30),
    "living": (">=", 0.25),
}
"""The targets a release must meet: name -> (comparison, value)."""
V3_TARGETS = {
    "worst_split_strict_duplicates": ("<=", 0.03),
    "test_ood_share": (">=", 0.25),
    "test_ood_programs_in_train": ("==", 0),
    "lowest_family_living": (">=", 0.25),
    "lowest_family_long": (">=", 0.25),
    "tools_used": (">=", 50),  # of the apps' tools; the gateway's own (world__) are counted apart
    "contradictions": ("==", 0),
}
"""Edition 3's targets besides `TARGETS` (issue 38): name -> (comparison, value)."""


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


def measure(rows: list[dict[str, Any]], coherence: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every figure the targets name, and the mixes and per-family counts (edition 3's too, for its rows;
    `coherence`: what the release file records of the language and policy check)."""
    figures = measure_v2(rows)
    if any(r.get("edition", 2) >= 3 for r in rows):
        figures.update(measure_v3(rows, coherence))
    return figures


def measure_v2(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The edition-2 figures: organizations, templates, normalized instructions, long and living shares, mixes."""
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


_MASKS = [
    (re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), " <email> "),
    (re.compile(r"https?://\S+"), " <link> "),
    (re.compile(r'"[^"\n]{1,200}"|“[^”\n]{1,200}”|‘[^’\n]{1,200}’' + r"|(?<!\w)'[^'\n]{2,200}'(?!\w)"), " <quoted> "),
    (re.compile(r"\b[A-Z][A-Z0-9]+-\d+\b"), " <key> "),
    (re.compile(r"\b\d{1,2}(?::\d{2})+\b"), " <time> "),
    (re.compile(r"\d+(?:[.,/-]\d+)*"), " <n> "),
]
_CAPITALIZED = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z\u00c0-\u00de][\w\u00c0-\u024f'’-]*")
_RUNS = re.compile(r"(<\w+>)(?:\W*\1)+")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def strict_mask(row: dict[str, Any]) -> str:
    """The row's instruction with what a template fills in hidden: its parameter values (topics, items, titles,
    names), people's names (the words of the addresses it and its parameters hold), quoted text, addresses, links,
    keys, times, numbers, and every capitalized word that does not open a sentence (names, titles, topics written in
    title case); runs of one mask are one."""
    text = row["instruction"]
    strings = _strings(row.get("parameters"))
    values = {v.strip() for v in strings if len(v.strip()) >= 3 and "/" not in v}
    for value in sorted(values, key=len, reverse=True):
        text = re.sub(re.escape(value), " <value> ", text, flags=re.I)
    names = {  # people's names, also where they open a sentence: the words of every address's local part
        word
        for address in _MASKS[0][0].findall(" ".join([*strings, text]))
        for word in re.split(r"[._+-]", address.split("@")[0])
        if len(word) >= 3
    }
    for pattern, token in _MASKS:
        text = pattern.sub(token, text)
    if names:
        text = re.sub(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b", " <word> ", text, flags=re.I)
    text = _CAPITALIZED.sub(" <word> ", " ".join(text.split()))
    return " ".join(_RUNS.sub(r"\1", " ".join(text.lower().split())).split())


def _pairs(steps: list[str]) -> frozenset[str]:
    return frozenset([*steps, *(f"{a}>{b}" for a, b in zip(steps, steps[1:], strict=False))])


def nearest(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each test and test-ood row's nearest train program: the same program when a train row has it, else the train
    row (the first of its steps) whose steps and step pairs have the highest Jaccard similarity with the test row's
    (1.0: the same steps, told apart by the checks or the living world), and that similarity."""
    programs: dict[str, str] = {}
    steps: dict[frozenset[str], str] = {}
    for row in rows:
        if row["split"] == "train":
            programs.setdefault(row["program"]["digest"], row["id"])
            steps.setdefault(_pairs(row["program"]["steps"]), row["id"])
    found: dict[frozenset[str], tuple[str, float]] = {}
    out = {}
    for row in rows:
        if row["split"] == "train" or not steps:
            continue
        key = row["program"]["digest"]
        if key in programs:
            out[row["id"]] = {"train": programs[key], "similarity": 1.0, "same_program": True}
            continue
        mine = _pairs(row["program"]["steps"])
        if mine not in found:
            best = max(steps, key=lambda theirs: len(mine & theirs) / (len(mine | theirs) or 1))
            found[mine] = (steps[best], round(len(mine & best) / (len(mine | best) or 1), 3))
        train_id, similarity = found[mine]
        out[row["id"]] = {"train": train_id, "similarity": similarity, "same_program": False}
    return out


def _share(rows: list[dict[str, Any]], test: Any) -> float:
    return round(sum(1 for r in rows if test(r)) / len(rows), 4) if rows else 0.0


def _living(row: dict[str, Any]) -> bool:
    if "living" in row:
        return bool(row["living"])
    return bool(row.get("events") or row.get("responders") or row.get("ask_user") or row.get("faults"))


def _long(row: dict[str, Any]) -> bool:
    return bool(row["long"]) if "long" in row else row["calls"] >= 10 and len(row["apps"]) >= 3


def measure_v3(rows: list[dict[str, Any]], coherence: dict[str, Any] | None = None) -> dict[str, Any]:
    """Edition 3's figures, per split where the issue asks it (see the module's docstring)."""
    missing = sorted({k for r in rows for k in ("instruction", "program") if k not in r})
    if missing:
        raise SystemExit(f"the rows lack {', '.join(missing)}: an edition-3 manifest is needed (generate --edition 3)")
    splits: dict[str, Any] = {}
    for split in sorted({r["split"] for r in rows}):
        mine = [r for r in rows if r["split"] == split]
        masks = Counter(strict_mask(r) for r in mine)
        splits[split] = {
            "tasks": len(mine),
            "strict_duplicates": round(sum(c for c in masks.values() if c > 1) / len(mine), 4),
            "living": _share(mine, _living),
            "long": _share(mine, _long),
        }
    near = nearest(rows)
    ood = [r for r in rows if r["split"] == "test-ood"]
    families = {}
    for name in sorted({r["family"] for r in rows}):
        mine = [r for r in rows if r["family"] == name]
        families[name] = {
            "living": _share(mine, _living),
            "long": _share(mine, _long),
            "test_ood": _share(mine, lambda r: r["split"] == "test-ood"),
        }
    called = {step for r in rows for step in r["program"]["steps"] if step}
    tools = sorted(t for t in called if not t.startswith(GATEWAY_TOOLS))  # the apps' tools: the 68 the target counts
    similarity = {
        side: sorted(near[r["id"]]["similarity"] for r in rows if r["split"] == side and r["id"] in near)
        for side in ("test", "test-ood")
    }
    if any("coherence" in r for r in rows):
        contradictions: int | str = sum(1 for r in rows if r.get("coherence"))
    elif coherence is not None and "contradictions" in coherence:
        contradictions = coherence["contradictions"]
    else:
        contradictions = "not measured"
    return {
        "per_split": splits,
        "worst_split_strict_duplicates": max(s["strict_duplicates"] for s in splits.values()),
        "test_ood_share": _share(rows, lambda r: r["split"] == "test-ood"),
        "test_ood_programs_in_train": sum(1 for r in ood if near.get(r["id"], {}).get("same_program")),
        "test_programs_in_train": sum(1 for r in rows if r["split"] == "test" and near[r["id"]]["same_program"]),
        "nearest_train_similarity_median": {
            side: statistics.median(values) for side, values in similarity.items() if values
        },
        "nearest": near,
        "families_v3": families,
        "lowest_family_living": min(f["living"] for f in families.values()),
        "lowest_family_long": min(f["long"] for f in families.values()),
        "tools_used": len(tools),
        "tools": tools,
        "gateway_tools": sorted(t for t in called if t.startswith(GATEWAY_TOOLS)),
        "contradictions": contradictions,
        "coherence": coherence or {},
    }


def missed(figures: dict[str, Any]) -> list[str]:
    """The targets a measurement misses, each with the figure and the target (edition 3's too when measured)."""
    out = []
    targets = {**TARGETS, **(V3_TARGETS if "per_split" in figures else {})}
    for name, (op, value) in targets.items():
        got = figures[name]
        if isinstance(got, str):  # not measured: named, not a miss
            continue
        ok = got >= value if op == ">=" else got <= value if op == "<=" else got == value
        if not ok:
            out.append(f"{name} is {got}, the target is {op} {value}")
    return out


def _show_figure(figures: dict[str, Any], key: str, targets: dict[str, Any], width: int) -> None:
    """One figure on a line of its own, with its target when it has one."""
    target = targets.get(key)
    note = f"   (target {target[0]} {target[1]})" if target else ""
    print(f"{key:<{width}}{figures[key]}{note}")


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
        _show_figure(figures, key, TARGETS, 30)
    print(f"\n{'family':<24}{'tasks':>6}{'train':>7}{'test':>6}{'ood':>6}{'calls':>7}{'apps':>6}{'templates':>11}")
    for name, f in figures["families"].items():
        print(
            f"{name:<24}{f['tasks']:>6}{f.get('train', 0):>7}{f.get('test', 0):>6}{f.get('test-ood', 0):>6}"
            f"{f['median_calls']:>7}{f['median_apps']:>6}{f['templates']:>11}"
        )
    if "per_split" in figures:
        show_v3(figures)


def show_v3(figures: dict[str, Any]) -> None:
    print("\nedition 3")
    for key in (
        "worst_split_strict_duplicates",
        "test_ood_share",
        "test_ood_programs_in_train",
        "test_programs_in_train",
        "nearest_train_similarity_median",
        "lowest_family_living",
        "lowest_family_long",
        "tools_used",
        "contradictions",
    ):
        _show_figure(figures, key, V3_TARGETS, 34)
    print(f"\n{'split':<12}{'tasks':>7}{'strict dup':>12}{'living':>8}{'long':>7}")
    for name, f in figures["per_split"].items():
        print(f"{name:<12}{f['tasks']:>7}{f['strict_duplicates']:>12.2%}{f['living']:>8.0%}{f['long']:>7.0%}")
    print(f"\n{'family':<24}{'living':>8}{'long':>7}{'test-ood':>10}")
    for name, f in figures["families_v3"].items():
        print(f"{name:<24}{f['living']:>8.0%}{f['long']:>7.0%}{f['test_ood']:>10.0%}")


def _beside(manifest: Path) -> Path:
    return manifest.parent.parent / f"{manifest.parent.name}.json"


def _coherence(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("coherence")
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path, help="A manifest (.jsonl or .jsonl.gz) or a generated set's folder.")
    parser.add_argument("--report-only", action="store_true", help="Print only: exit 0 even when a target is missed.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument(
        "--release-file",
        type=Path,
        help="The release file whose `coherence` the figures report (default: the one beside a committed manifest, "
        "releases/v3.json for releases/v3/tasks.jsonl.gz).",
    )
    args = parser.parse_args(argv)
    figures = measure(read(args.manifest), _coherence(args.release_file or _beside(args.manifest)))
    problems = missed(figures)
    if args.json:
        print(json.dumps({**figures, "missed": problems}, indent=2))
    else:
        show(figures)
        print("\nevery target met" if not problems else "\nmissed: " + "; ".join(problems))
    return 1 if problems and not args.report_only else 0


if __name__ == "__main__":
    sys.exit(main())
