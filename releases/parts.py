"""A release generated family by family: each family's proven rows and its proof report kept as a part.

A family's tasks depend only on the release's options and the family (the pipeline draws, splits, deduplicates and
proves each family on its own), so `orchestrator generate FAMILY` with the release's options writes exactly that
family's rows of `orchestrator generate all`. A release too long to generate in one sitting is built as parts:

    releases/<release>/parts/<family>/tasks.jsonl.gz   # the family's manifest rows, gzipped without a timestamp
    releases/<release>/parts/<family>/report.json      # the family's report (`orchestrator generate --json`)

and written once every family has its part (`release.py write --release v3 --parts`): the rows of all parts in
manifest order, the proof episodes and seconds summed over their reports, as a generated set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import manifest  # releases/manifest.py, beside this file

MANIFEST = "tasks.jsonl.gz"
REPORT = "report.json"


def parts_dir(release_file: Path) -> Path:
    """Where a release's parts are kept: `releases/v3.json` -> `releases/v3/parts/`."""
    return release_file.parent / release_file.stem / "parts"


def _rows_of(out: Path) -> list[dict[str, Any]]:
    for name in ("tasks.jsonl", MANIFEST):
        if (out / name).exists():
            return manifest.read(out / name)
    raise SystemExit(f"{out}: no tasks.jsonl or {MANIFEST}; generate the family there first")


def _report_of(out: Path, family: str) -> dict[str, Any]:
    """The family's entry of `orchestrator generate --json`'s report in `out/report.json` (or `out.json` beside the
    folder, where a run printed it), with the run's seconds; a part's `report.json` is that entry already."""
    for path in (out / REPORT, out.with_name(f"{out.name}.json"), out.with_name(f"{out.name}.report.json")):
        if path.exists():
            try:
                report = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}: not the JSON `orchestrator generate --json` prints ({exc})") from None
            if report.get("family") == family:  # a part's own report
                return report
            found = [f for f in report.get("families", []) if f.get("family") == family]
            if not found:
                raise SystemExit(f"{path}: no report for family {family!r}")
            return {**found[0], "seconds": report.get("seconds", 0.0)}
    raise SystemExit(f"{out}: no {REPORT} (the JSON `orchestrator generate --json` prints) for family {family!r}")


def store(out: Path, family: str, count: int, dest: Path) -> dict[str, Any]:
    """Keep `family`'s rows of the set generated in `out` (all `count` of them) and its report as a part in
    `dest/<family>/`; returns the report."""
    rows = sorted((r for r in _rows_of(out) if r["family"] == family), key=lambda r: r["index"])
    if len(rows) != count:
        raise SystemExit(f"{out}: {len(rows)} rows of family {family!r}, the release has {count}")
    report = _report_of(out, family)
    target = dest / family
    target.mkdir(parents=True, exist_ok=True)
    manifest.write(target / MANIFEST, rows)
    (target / REPORT).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return report


def load(dest: Path, families: list[str], count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every family's part: the rows in manifest order and the reports. Exits 1 naming the families without a part,
    or a part whose rows are not its family's `count`."""
    missing = [name for name in families if not (dest / name / MANIFEST).exists()]
    if missing:
        raise SystemExit(f"{dest}: no part yet for {len(missing)} of {len(families)} families: {', '.join(missing)}")
    rows: list[dict[str, Any]] = []
    reports = []
    for name in families:
        mine = _rows_of(dest / name)
        if len(mine) != count or any(r["family"] != name for r in mine):
            raise SystemExit(f"{dest / name}: {len(mine)} rows, expected {count} of family {name!r}")
        rows.extend(mine)
        reports.append(_report_of(dest / name, name))
    rows.sort(key=lambda r: (r["family"], r["index"]))
    return rows, reports


def proofs(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The release's proof record (as `write --out` records it) from the parts' reports."""
    episodes: dict[str, int] = {}
    for report in reports:
        for kind, n in report.get("proofs", {}).items():
            episodes[kind] = episodes.get(kind, 0) + n
    return {
        "tasks_proven_in_full": sum(r.get("full", 0) for r in reports),
        "episodes": dict(sorted(episodes.items())),
        "dropped": sum(r.get("dropped_total", 0) for r in reports),
    }


def seconds(reports: list[dict[str, Any]]) -> float:
    """The parts' generation time, summed."""
    return float(sum(r.get("seconds", 0.0) for r in reports))
