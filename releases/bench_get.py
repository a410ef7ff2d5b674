"""How long a released task takes to load by id, by world size: `orchestrator tasks get ID` as a user runs it (a new
process each time: wall and CPU seconds) and, in one process, the steps inside it (draw, YAML, the env API's load).

    .venv/bin/python releases/bench_get.py                      # 5 rows of each size of release v2, medians
    .venv/bin/python releases/bench_get.py --rows 9 --release v2 --json

Rows are spread over the families (the first row of each size in every fourth family, in manifest order), so the
same command measures the same rows. The machine's other load shows in wall time, not in CPU time: both are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

SIZES = ("small", "medium", "large")


def pick(rows: list[dict[str, Any]], size: str, count: int) -> list[dict[str, Any]]:
    """`count` rows of a size, each of another family where the release has enough families."""
    chosen: list[dict[str, Any]] = []
    families: set[str] = set()
    for row in rows:
        if row["size"] == size and row["family"] not in families:
            chosen.append(row)
            families.add(row["family"])
            if len(chosen) == count:
                break
    return chosen


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_seconds(task_id: str, release: str, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of `orchestrator tasks get ID --out FILE` in a new process."""
    before_cpu, before = _children_cpu(), time.perf_counter()
    command = [
        sys.executable,
        "-m",
        "orchestrator.cli",
        "tasks",
        "get",
        task_id,
        "--release",
        release,
        "--out",
        str(out),
    ]
    subprocess.run(command, check=True, capture_output=True, cwd=HERE.parent)
    return time.perf_counter() - before, _children_cpu() - before_cpu


def steps_seconds(release: Any, row: dict[str, Any]) -> dict[str, float]:
    """CPU seconds of each step in this process: draw, the YAML text, the generator's own YAML, the env's load."""
    from orchestrator.integrations import releases  # noqa: PLC0415

    found: dict[str, float] = {}
    clock = time.process_time
    started = clock()
    task = releases.draw(release, row)
    found["draw"] = clock() - started
    started = clock()
    releases.scenario_text(release, row, task)
    found["yaml"] = clock() - started
    started = clock()
    task.yaml()
    found["generator_yaml"] = clock() - started
    started = clock()
    releases.scenario(release, row)
    found["env_load"] = clock() - started
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", default="v2")
    parser.add_argument("--rows", type=int, default=5, help="Rows of each size.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from orchestrator.integrations import releases  # noqa: PLC0415

    release = releases.load(args.release)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-get-") as folder:
        for size in SIZES:
            rows = pick(release.rows(), size, args.rows)
            cli = [cli_seconds(r["id"], args.release, Path(folder) / f"{r['id']}.yaml") for r in rows]
            steps = [steps_seconds(release, r) for r in rows]
            results[size] = {
                "rows": [r["id"] for r in rows],
                "yaml_bytes_median": statistics.median(os.path.getsize(Path(folder) / f"{r['id']}.yaml") for r in rows),
                "cli_wall_s": round(statistics.median(w for w, _ in cli), 3),
                "cli_cpu_s": round(statistics.median(c for _, c in cli), 3),
                **{f"{k}_cpu_s": round(statistics.median(s[k] for s in steps), 3) for k in steps[0]},
            }
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"release {args.release}, {args.rows} rows of each size, medians (seconds)")
    columns = ("cli_wall_s", "cli_cpu_s", "draw_cpu_s", "yaml_cpu_s", "generator_yaml_cpu_s", "env_load_cpu_s")
    print(f"{'size':<8}{'YAML MB':>9}" + "".join(f"{c.removesuffix('_s'):>22}" for c in columns))
    for size, found in results.items():
        print(f"{size:<8}{found['yaml_bytes_median'] / 1e6:>9.2f}" + "".join(f"{found[c]:>22.3f}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
