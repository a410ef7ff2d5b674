"""Tasks generated and proven per second, with the basic and the full proofs, and the time to regenerate a set.

    python benchmarks/bench_generate.py [--families meeting-tz,travel] [--count N] [--full-count N]
                                        [--size small] [--released 10000]

Runs `orchestrator generate` in process (`pipeline.generate`) into a temporary folder: `--count` tasks per
family with `--prove basic` (reference solution 1.0, doing nothing fails), then `--full-count` per family
with `--prove full` (also every mutation, attack and equivalent rewrite). Prints, per family and in all,
tasks written, wall and CPU seconds, tasks per second and episodes per task, and the time a released set of
`--released` tasks would take to regenerate with the basic proofs at the measured rate (on one process;
the machine's other cores can run other families at the same time).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.generate.family import families  # noqa: E402
from orchestrator.generate.pipeline import Options, family_names, generate  # noqa: E402

EDITION = 1


def measure(names: list[str], count: int, prove: str, size: str) -> list[tuple[str, int, int, int, float, float]]:
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory() as folder:
            wall, cpu = time.perf_counter(), time.process_time()
            options = Options([name], count, seed=0, size=size, prove=prove, edition=EDITION)
            report = anyio.run(generate, options, Path(folder))[0]
            rows.append(
                (
                    name,
                    report.written,
                    sum(report.dropped.values()),
                    report.episodes,
                    time.perf_counter() - wall,
                    time.process_time() - cpu,
                )
            )
    return rows


def show(title: str, rows: list[tuple[str, int, int, int, float, float]]) -> float:
    print(f"\n{title}")
    print(f"{'family':<18}{'written':>8}{'dropped':>8}{'episodes/task':>14}{'wall s':>9}{'cpu s':>8}{'tasks/s':>9}")
    for name, written, dropped, episodes, wall, cpu in rows:
        print(
            f"{name:<18}{written:>8}{dropped:>8}{episodes / max(written, 1):>14.1f}{wall:>9.1f}{cpu:>8.1f}"
            f"{written / wall:>9.2f}"
        )
    written, wall, cpu = sum(r[1] for r in rows), sum(r[4] for r in rows), sum(r[5] for r in rows)
    print(
        f"{'all':<18}{written:>8}{sum(r[2] for r in rows):>8}{sum(r[3] for r in rows) / max(written, 1):>14.1f}"
        f"{wall:>9.1f}{cpu:>8.1f}{written / wall:>9.2f}   ({written / cpu:.2f} tasks per CPU second)"
    )
    return written / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--families",
        default="meeting-tz,reschedule,customer-answer,inbox-rules,travel",
        help="comma-separated, or 'all'",
    )
    parser.add_argument("--count", type=int, default=6, help="tasks per family with the basic proofs")
    parser.add_argument("--full-count", type=int, default=2, help="tasks per family with the full proofs")
    parser.add_argument("--size", default="small", choices=["small", "medium", "large", "mix"])
    parser.add_argument("--released", type=int, default=10_000, help="size of the released set to estimate")
    parser.add_argument("--edition", type=int, default=1, choices=[1, 2], help="task-set edition (sizes: any, or mix)")
    args = parser.parse_args()
    global EDITION  # noqa: PLW0603
    EDITION = args.edition
    names = family_names(args.families, args.edition)
    unknown = [n for n in names if n not in families()]
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)}; known: {', '.join(families())}")
    anyio.run(
        generate, Options(names[:1], 1, seed=99, size=args.size, edition=EDITION), Path(tempfile.mkdtemp())
    )  # warm-up: imports, Faker locales
    basic = show(
        f"--prove basic, {args.count} per family, {args.size} worlds", measure(names, args.count, "basic", args.size)
    )
    if args.full_count:
        show(
            f"--prove full, {args.full_count} per family, {args.size} worlds",
            measure(names, args.full_count, "full", args.size),
        )
    hours = args.released / basic / 3600
    print(
        f"\nregenerating {args.released} tasks with the basic proofs: about {hours:.1f} h on one process at {basic:.2f} tasks/s"
    )


if __name__ == "__main__":
    main()
