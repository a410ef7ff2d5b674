"""Fresh held-out draws: tasks drawn at run time from a split of the generator (`orchestrator run --fresh test`,
`orchestrator.env.scenarios.fresh`), under a secret per-run seed, so a run plays tasks that were never published.

`draw(split, count, folder)` draws `count` tasks of `split` (by default `test`: the held-out organizations and
phrasings of edition 3) into `folder` with the generator, which proves each one as it is drawn (reference solution
1.0, doing nothing fails), and returns them with the seed. The seed is `secrets.randbits(SEED_BITS)` unless given:
the same split, count, families and seed draw the same tasks, byte for byte. The drawn files live only in the run's
own folder (`FOLDER`), which no agent sees; the seed is written into the run's summary (`fresh`) after the run.

Families: those given, else every family that draws tasks of the split. With fewer tasks than families, `count`
families are chosen with `random.Random(seed)`, one task each; else each family draws its share (rounded up) and the
first `count` tasks, in the families' order, are kept.
"""

from __future__ import annotations

import math
import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER = "drawn"
"""The folder of a run's root that holds its fresh draws (a generated set: <family>/<id>.yaml and tasks.jsonl)."""
SEED_BITS = 48
EDITION = 3
SPLITS = ("train", "test", "core")


class FreshError(ValueError):
    """A fresh draw that cannot be made: an unknown split or family, or a family that fell short; says which."""


@dataclass
class Drawn:
    """What a fresh draw made: its split, seed and families, and the drawn task files (in the run's folder)."""

    split: str
    seed: int
    count: int
    families: list[str]
    files: list[Path] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    edition: int = EDITION

    def record(self) -> dict[str, Any]:
        """What the run's summary keeps of the draw (`fresh`): enough to draw the same tasks again."""
        return {
            "split": self.split,
            "seed": self.seed,
            "count": self.count,
            "families": self.families,
            "edition": self.edition,
            "tasks": self.ids,
        }


def new_seed() -> int:
    """A secret per-run seed."""
    return secrets.randbits(SEED_BITS)


def plan(split: str, count: int, seed: int, families: list[str] | None = None) -> tuple[list[str], int]:
    """The families to draw from and the tasks each draws, for `count` tasks of `split` under `seed`."""
    from orchestrator.generate import pipeline

    if split not in SPLITS:
        raise FreshError(f"--fresh {split}: expected one of {', '.join(SPLITS)}")
    if count < 1:
        raise FreshError(f"--count {count}: draw at least one task")
    try:
        names = pipeline.family_names(",".join(families) if families else "all", EDITION)
    except pipeline.GenerateError as exc:
        raise FreshError(str(exc)) from None
    options = pipeline.Options(names, 1, split=split, edition=EDITION)
    never = options.never_in_split()
    if families and never:
        raise FreshError(f"--family {', '.join(never)}: never draws a {split} task")
    names = [f for f in names if f not in never]
    if count < len(names):
        chosen = set(random.Random(seed).sample(names, count))
        return [f for f in names if f in chosen], 1
    return names, math.ceil(count / len(names))


def draw(
    split: str,
    count: int,
    folder: Path,
    seed: int | None = None,
    families: list[str] | None = None,
    workers: int = 1,
    *,
    reuse: bool = False,
) -> Drawn:
    """Draw and prove `count` tasks of `split` into `folder` (a new or empty folder) under `seed` (None: a secret
    one); returns them with the seed. A family that cannot supply its share is a `FreshError`. `reuse` (a resumed
    run): a folder holding this seed's draw already is read, not drawn again."""
    from orchestrator.generate import pipeline, scheduler
    from orchestrator.run.select import MANIFEST, manifest_rows

    seed = new_seed() if seed is None else seed
    names, each = plan(split, count, seed, families)
    if not (reuse and (folder / MANIFEST).is_file()):
        options = pipeline.Options(names, each, seed=seed, split=split, edition=EDITION, workers=workers)
        try:
            reports = scheduler.run(options, folder)
        except pipeline.GenerateError as exc:
            raise FreshError(str(exc)) from None
        short = [r.family for r in reports if r.written < each]
        if short:
            raise FreshError(f"--fresh {split}: {', '.join(short)} drew fewer than {each} task(s) under seed {seed}")
    rows = manifest_rows(folder)
    if reuse and any(f"-v{EDITION}-{seed}-" not in str(row["id"]) for row in rows.values()):
        raise FreshError(f"{folder}: holds tasks drawn under another seed than {seed}")
    order = {name: i for i, name in enumerate(names)}
    found = sorted(rows.items(), key=lambda item: (order.get(str(item[1]["family"]), 0), str(item[1]["id"])))
    kept = found[:count]
    return Drawn(
        split=split,
        seed=seed,
        count=count,
        families=names,
        files=[path for path, _ in kept],
        ids=[str(row["id"]) for _, row in kept],
    )


def pass_line(summary: dict[str, Any], released: dict[str, Any] | None = None) -> str:
    """The summary's line for a fresh run: the pass rate on the fresh draws and, given a summary of a run on the
    released split, its rate beside it."""
    fresh = summary.get("fresh") or {}
    line = f"fresh {fresh.get('split')} draws (seed {fresh.get('seed')}): {_rate(summary)}"
    if released is not None:
        line += f"; released split: {_rate(released)}"
    return line


def _rate(summary: dict[str, Any]) -> str:
    rows = summary.get("scenarios") or []
    passed = sum(1 for r in rows if r.get("passed"))
    return f"{passed}/{len(rows)} tasks passed ({passed / len(rows):.0%})" if rows else "no task ran"
