"""A fixed sample of release v2's rows in its size mix, their scenarios generated once into a cache folder.

    python benchmarks/release_sample.py [--rows N] [--folder DIR]     # draw (once) and print where the files are

`sample(rows)` picks `rows` rows of `releases/v2/tasks.jsonl.gz` with a fixed seed, in the manifest's size mix
(per size, the size's share of the manifest, rounded; the large ones at least one), and `scenarios(rows, folder)`
writes each row's scenario as `FOLDER/<size>/<id>.yaml` (generated again with the release's options and checked
against the row's content hash, so each file is the release's task byte for byte). Files already there are kept:
the sample is generated once per machine (default folder `~/.cache/clawgym/release-v2-sample`, under
`XDG_CACHE_HOME` when set).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MANIFEST = ROOT / "releases" / "v2" / "tasks.jsonl.gz"
SIZES = ("small", "medium", "large")
RELEASE_SEED = 1
"""Release v2's run seed (`releases/v2.json`: edition 2, sizes in the mix)."""
SAMPLE_SEED = 20_000
"""The sample's seed: the same rows on every machine."""


def default_folder() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(cache).expanduser() if cache else Path.home() / ".cache") / "clawgym" / "release-v2-sample"


def manifest() -> list[dict[str, Any]]:
    with gzip.open(MANIFEST, "rt") as lines:
        return [json.loads(line) for line in lines]


def sample(rows: int) -> dict[str, list[dict[str, Any]]]:
    """`rows` rows of the manifest in its size mix, per size, in manifest order."""
    every = manifest()
    counts = Counter(r["size"] for r in every)
    wanted = {size: max(1, round(rows * counts[size] / len(every))) for size in SIZES}
    wanted["small"] += rows - sum(wanted.values())  # rounding: the total is `rows`
    rng = random.Random(SAMPLE_SEED)
    picked = {}
    for size in SIZES:
        mine = [r for r in every if r["size"] == size]
        picked[size] = sorted(rng.sample(mine, wanted[size]), key=lambda r: (r["family"], r["index"]))
    return picked


def _write(row: dict[str, Any], path: Path) -> str | None:
    """Generate `row`'s scenario into `path`; a problem when it is not the release's task."""
    import orchestrator.generate.families  # noqa: F401 - the family modules, before the registry is read
    from orchestrator.generate.drawing import draw
    from orchestrator.generate.family import families

    task = draw(families()[row["family"]](), RELEASE_SEED, "mix", row["index"], None, edition=2)
    if task is None:
        return f"{row['id']}: not drawn"
    text = task.yaml()
    if task.content_hash(text) != row["content_hash"] or task.id != row["id"]:
        return f"{row['id']}: the generated task is not the release's (content hash differs)"
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    scratch.write_text(text)
    os.replace(scratch, path)
    return None


def scenarios(picked: dict[str, list[dict[str, Any]]], folder: Path, workers: int = 2) -> dict[str, Path]:
    """Each size's folder of scenario files under `folder`, generated where missing."""
    todo = []
    for size, rows in picked.items():
        (folder / size).mkdir(parents=True, exist_ok=True)
        wanted = {f"{r['id']}.yaml" for r in rows}
        for old in (folder / size).glob("*.yaml"):
            if old.name not in wanted:
                old.unlink()
        todo += [
            (r, folder / size / f"{r['id']}.yaml") for r in rows if not (folder / size / f"{r['id']}.yaml").exists()
        ]
    if todo:
        print(f"generating {len(todo)} scenario(s) of the release sample into {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor(workers) as pool:
            problems = [p for p in pool.map(_write, *zip(*todo, strict=True)) if p]
        if problems:
            raise SystemExit("the release sample:\n" + "\n".join(problems))
    return {size: folder / size for size in picked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=default_folder())
    args = parser.parse_args()
    picked = sample(args.rows)
    for size, path in scenarios(picked, args.folder).items():
        print(f"{size}: {len(picked[size])} scenario(s) in {path}")


if __name__ == "__main__":
    main()
