"""Drawing, deduplicating, proving and writing generated tasks (`orchestrator generate`).

For each family, task `i` of a run draws from `random.Random("{seed}:{family}:{i}")`: a world out of a
small pool of the run's worlds (`WORLD_POOL[size]` seeds per run seed: seed * 1000 + 0, 1, ...), the family's knobs, then the
family's parameters. The split comes from the family's split key (`Family.split_params`) hashed into
100 buckets: 0-79 train, 80-99 test, and the test buckets 80-83 are also the small "core" split; so train
and test never share a parameter combination. A task whose checks (names and weights aside) equal an
earlier one's is a duplicate and skipped. Every other task is written to a temporary file, loaded with
the ordinary scenario loader and proven in process (`prove.validate`): `basic` proves that the reference
solution scores 1.0 and doing nothing fails, `full` also that every mutation and attack fails and every
equivalent rewrite passes. A task that fails is dropped and counted, never written. Files are written as
`OUT/<family>/<id>.yaml` with the manifest `OUT/tasks.jsonl`; the same command writes the same bytes.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orchestrator.generate.family import Family, Task, canonical, digest, families
from orchestrator.generate.organization import SIZES
from orchestrator.generate.world import build_world

FULL_VARIATIONS = 12
"""Variation episodes a side (channels, extras, wordings; hedges, stuffing, wrong zones, stale values) in the full
proofs of a generated task: fewer than `orchestrator validate`'s 30, since a release proves thousands."""
WORLD_POOL = {"small": 16, "medium": 8, "large": 4}
"""Worlds per run seed and size that a run's tasks are built on (building a large world is slow, and it is
kept in memory)."""
SPLITS = ("train", "test", "core")
PROOFS = ("basic", "full")
MANIFEST = "tasks.jsonl"
ATTEMPTS_PER_TASK = {None: 6, "train": 8, "test": 25, "core": 120}
"""How many candidates a run may draw per task asked for, before it gives up on a family."""

Transform = Callable[[Task], Task | None]


class GenerateError(ValueError):
    """Bad input to the generator, with a message that names the argument and what was expected."""


@dataclass
class Options:
    """What to generate: families, tasks per family, seed, world size, proofs, split, knobs, transform."""

    families: list[str]
    count: int
    seed: int = 0
    size: str = "small"
    prove: str = "basic"
    split: str | None = None
    transform: Transform | None = None
    """Applied to every drawn task before it is deduplicated and proven (e.g. a prompt-injection variant)."""
    knobs: dict[str, Any] = field(default_factory=dict)
    """Knobs fixed for every task (e.g. {"steps": 2}) instead of drawn; a family without the knob, or without
    that value of it, draws it as usual."""

    def check(self) -> None:
        known = families()
        unknown = [f for f in self.families if f not in known]
        if unknown:
            raise GenerateError(f"unknown family {', '.join(unknown)}; known: {', '.join(known)} (or 'all')")
        if self.count < 1:
            raise GenerateError(f"--count must be at least 1, got {self.count}")
        if self.seed < 0:
            raise GenerateError(f"--seed must be 0 or more, got {self.seed}")
        if self.size not in SIZES:
            raise GenerateError(f"--size must be one of {', '.join(SIZES)}, got {self.size!r}")
        if self.prove not in PROOFS:
            raise GenerateError(f"--prove must be one of {', '.join(PROOFS)}, got {self.prove!r}")
        if self.split is not None and self.split not in SPLITS:
            raise GenerateError(f"--split must be one of {', '.join(SPLITS)}, got {self.split!r}")
        for name, value in self.knobs.items():
            having = {f: known[f].knobs[name] for f in self.families if name in known[f].knobs}
            if not having:
                raise GenerateError(f"--knob {name}: no family of {', '.join(self.families)} has this knob")
            if not any(value in values for values in having.values()):
                takes = "; ".join(f"{f} takes {'/'.join(map(str, v))}" for f, v in having.items())
                raise GenerateError(f"--knob {name}={value}: {takes}")


@dataclass
class FamilyReport:
    """What happened to one family's candidates: written, unfit, other split, duplicates, dropped by proof kind."""

    family: str
    written: int = 0
    drawn: int = 0
    unfit: int = 0
    """Candidates whose world could not host the family's task."""
    other_split: int = 0
    duplicates: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    """Candidates that failed a proof, by the first problem's kind."""
    examples: dict[str, str] = field(default_factory=dict)
    """One full problem text per kind of drop."""
    episodes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"family": self.family, "written": self.written, "drawn": self.drawn, "unfit": self.unfit,
                "other_split": self.other_split, "duplicates": self.duplicates, "dropped": dict(sorted(self.dropped.items())),
                "dropped_total": sum(self.dropped.values()), "examples": self.examples, "episodes": self.episodes}  # fmt: skip


def split_of(family: Family, params: dict[str, Any]) -> tuple[str, bool]:
    """A task's split from its family's split parameters: (train or test, whether it is in the core part of test)."""
    bucket = int(digest(f"{family.name}|{family.split_key(params)}"), 16) % 100
    return ("train" if bucket < 80 else "test"), 80 <= bucket < 84


def in_split(wanted: str | None, split: str, core: bool) -> bool:
    """Whether a task of `split` (core or not) belongs to the wanted split (None: any)."""
    return wanted is None or wanted == split or (wanted == "core" and core)


def draw(family: Family, seed: int, size: str, index: int, fixed: dict[str, Any] | None = None) -> Task | None:
    """Candidate `index` of `family` in the run with this seed and size (and these knobs fixed); None when its
    world cannot host it."""
    rng = random.Random(f"{seed}:{family.name}:{index}")
    world_seed = seed * 1000 + rng.randrange(WORLD_POOL[size])
    world = build_world(world_seed, size)
    knobs: dict[str, Any] = {
        name: rng.choice(values) for name, values in sorted(family.knobs.items()) if name != "size"
    }
    knobs.update({k: v for k, v in (fixed or {}).items() if v in family.knobs.get(k, ())})
    knobs["size"] = size
    params = family.sample(world, rng, knobs)
    if params is None:
        return None
    params = json.loads(canonical(params))
    world_info = {"seed": world_seed, "size": size, "digest": world.digest()[:16]}
    draft = family.build(world, params)
    split, core = split_of(family, params)
    task_id = f"{family.name}-{seed}-{index:05d}"
    difficulty = family.difficulty(knobs, params)
    return Task(task_id, family.name, index, params, knobs, difficulty, split, core, world_info,
                draft.scenario(task_id, difficulty))  # fmt: skip


def candidates(family: Family, options: Options, report: FamilyReport) -> Iterator[Task]:
    """Drawn tasks of the wanted split, transformed, not yet deduplicated or proven."""
    limit = options.count * ATTEMPTS_PER_TASK[options.split] + 20
    for index in range(limit):
        report.drawn += 1
        task = draw(family, options.seed, options.size, index, options.knobs)
        if task is None:
            report.unfit += 1
            continue
        if not in_split(options.split, task.split, task.core):
            report.other_split += 1
            continue
        if options.transform is not None:
            task = options.transform(task)
            if task is None:
                report.unfit += 1
                continue
        yield task


def problem_kind(problem: str) -> str:
    """The kind of a proof problem (reference solution, doing nothing, mutation …), for the report's counts."""
    for kind in ("reference solution", "doing nothing", "mutation", "attack", "equivalent", "seed", "load"):
        if problem.startswith(kind):
            return kind
    return problem.split(":")[0][:40]


Progress = Callable[[str, int, int], None]
"""progress(family, written, count)."""


async def generate(
    options: Options, out: Path, progress: Progress | None = None, *, replace: bool = False
) -> list[FamilyReport]:
    """Generate, prove and write the tasks; returns what happened per family. `replace`: `out` may hold a set generated
    before, whose tasks are removed first (without it such a folder is refused)."""
    from orchestrator import scenario as scenarios  # noqa: PLC0415
    from orchestrator.backends.inprocess import InProcessBackend  # noqa: PLC0415
    from orchestrator.prove.schema_cache import schema_checks_remembered  # noqa: PLC0415
    from orchestrator.prove.validate import validate  # noqa: PLC0415

    options.check()
    prepare(out, replace=replace)
    known = families()
    full = options.prove == "full"
    reports: list[FamilyReport] = []
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    scratch = Path(tempfile.mkdtemp(prefix=".generating-", dir=out))
    try:
        async with InProcessBackend() as backend:
            with schema_checks_remembered():
                for name in options.families:
                    family = known[name]()
                    report = FamilyReport(name)
                    reports.append(report)
                    if progress:
                        progress(name, 0, options.count)
                    for task in candidates(family, options, report):
                        key = task.checks_key()
                        if key in seen:
                            report.duplicates += 1
                            continue
                        seen.add(key)
                        text = task.yaml()
                        path = scratch / f"{task.id}.yaml"
                        path.write_text(text, encoding="utf-8")
                        try:
                            loaded = scenarios.load(path)
                        except scenarios.ScenarioError as exc:
                            _drop(report, f"load: {exc.problems[0] if exc.problems else exc}")
                            continue
                        try:
                            check = await validate(
                                loaded,
                                backend,
                                mutate=full,
                                attack=full,
                                equivalents=full,
                                variations=FULL_VARIATIONS if full else None,
                            )
                        except Exception as exc:  # a seed the apps refuse, a backend error: the task is unsound
                            _drop(report, f"seed: {type(exc).__name__}: {exc}")
                            continue
                        report.episodes += check.episodes
                        if not check.valid:
                            _drop(report, check.problems[0])
                            continue
                        target = out / name / f"{task.id}.yaml"
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_text(text, encoding="utf-8")
                        rows.append(task.manifest_row())
                        report.written += 1
                        if progress:
                            progress(name, report.written, options.count)
                        if report.written >= options.count:
                            break
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    write_manifest(out, rows)
    return reports


def _drop(report: FamilyReport, problem: str) -> None:
    kind = problem_kind(problem)
    report.dropped[kind] += 1
    report.examples.setdefault(kind, problem[:500])


def prepare(out: Path, *, replace: bool = False) -> None:
    """Make `out` ready: a new or empty folder, or with `replace` one this command wrote before (its old tasks are
    removed). A generated set is never removed unasked: without `replace` a folder holding one is refused."""
    if out.exists() and not out.is_dir():
        raise GenerateError(f"--out {out} is a file; expected a folder")
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    entries = [p for p in out.iterdir() if not p.name.startswith(".generating-")]
    if entries and not manifest.exists():
        raise GenerateError(
            f"--out {out} is not empty and holds no {MANIFEST}: give an empty folder or a generated set"
        )
    if not manifest.exists():
        return
    lines = [line for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not replace:
        raise GenerateError(
            f"--out {out} already holds {len(lines)} generated task(s) ({MANIFEST}): give another folder, or --replace "
            "to remove them and write the new set there"
        )
    for line in lines:
        try:
            row = json.loads(line)
            old = out / row["family"] / f"{row['id']}.yaml"
        except (ValueError, KeyError, TypeError):
            raise GenerateError(f"{manifest} is not a manifest of generated tasks (line {line[:60]!r})") from None
        old.unlink(missing_ok=True)
    for folder in out.iterdir():
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def write_manifest(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write the manifest (`tasks.jsonl`), rows sorted by family and index."""
    rows = sorted(rows, key=lambda r: (r["family"], r["index"]))
    (out / MANIFEST).write_text(
        "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def read_manifest(out: Path) -> list[dict[str, Any]]:
    """The rows of a generated set's manifest."""
    return [json.loads(line) for line in (out / MANIFEST).read_text(encoding="utf-8").splitlines() if line.strip()]
