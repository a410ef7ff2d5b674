"""Whether two runs' records hold the same verdicts: every `results.json` under one output folder against the file
at the same place under the other, byte for byte once the timings and the run's own names are set aside.

    python benchmarks/compare_results.py BEFORE_OUT AFTER_OUT

Set aside, wherever they appear: how long things took (`duration_s`, `wall_s`, `latency_ms`, `phases`), when and by
which run the record was written (`written_at`, `run`, `started_at`, `finished_at`), the sandbox's name (a fresh
suffix per episode), the output folder, and the seals and digests (they cover the fields above). Everything else
(verdicts, scores, checks and what they found, the changes, the journal's counts) must be equal. Exits 1 and names
the first differences when they are not, or when a file is on one side only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

VOLATILE = frozenset(
    {
        "duration_s",
        "wall_s",
        "latency_ms",
        "phases",
        "written_at",
        "started_at",
        "finished_at",
        "run",
        "sandbox",
        "folder",
        "digest",
    }
)
"""Keys whose values differ from one run to the next whatever the verdicts are."""


def stable(value: Any, out: Path) -> Any:
    """`value` without the `VOLATILE` keys, and with the output folder `out` written as `OUT`."""
    if isinstance(value, dict):
        return {k: stable(v, out) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v, out) for v in value]
    if isinstance(value, str) and str(out) in value:
        return value.replace(str(out), "OUT")
    return value


def differences(before: Path, after: Path) -> tuple[int, list[str]]:
    """How many `results.json` files were compared, and what differs (empty: the same verdicts)."""
    mine = {p.relative_to(before) for p in before.rglob("results.json")}
    theirs = {p.relative_to(after) for p in after.rglob("results.json")}
    found = [f"only in {before}: {p}" for p in sorted(mine - theirs)]
    found += [f"only in {after}: {p}" for p in sorted(theirs - mine)]
    for name in sorted(mine & theirs):
        a = json.dumps(stable(json.loads((before / name).read_text()), before), sort_keys=True, indent=1)
        b = json.dumps(stable(json.loads((after / name).read_text()), after), sort_keys=True, indent=1)
        if a != b:
            lines = [(x, y) for x, y in zip(a.splitlines(), b.splitlines(), strict=False) if x != y]
            first = lines[0] if lines else ("(length)", "(length)")
            found.append(f"{name}: {first[0].strip()} | {first[1].strip()}")
    return len(mine | theirs), found


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count, found = differences(Path(sys.argv[1]), Path(sys.argv[2]))
    for line in found[:20]:
        print(line)
    print(f"{count} results.json compared, {len(found)} differ")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
