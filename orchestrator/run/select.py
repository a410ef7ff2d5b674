"""Choosing what a run plays: scenario files, folders, globs and scenario ids, narrowed by tags, family and split,
then cut to the first N or a seeded sample of N (`orchestrator run ... --tags --family --split --limit --sample`).

A scenario id (an argument that is neither a file, a folder nor a glob) is looked up by the `id:` its file states,
in the folders given with it, else in `scenarios/` (of the working directory, then of this checkout). A generated
set's manifest (`tasks.jsonl` next to its family folders) gives each of its files' family and split: `--family`
and `--split` keep the files a manifest lists with that family or split (`core` is the small test subset).
`--tags` keeps the scenarios with at least one of the tags. `--limit N` keeps the first N, `--sample N` N drawn
with `random.Random(seed)`, in the order of the files.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orchestrator import scenario as scenarios
from orchestrator.record import read_jsonl

MANIFEST = "tasks.jsonl"
"""A generated set's manifest (`orchestrator.generate`), one row per task: id, family, split, core, …"""
SCENARIOS_DIRS = (Path("scenarios"), Path(__file__).resolve().parents[2] / "scenarios")
"""Where a scenario id is looked up when no folder is given with it."""
GLOB_CHARS = set("*?[")
ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,63}$")
ID_LINE = re.compile(r"^id:\s*['\"]?([a-z0-9][a-z0-9-]{1,63})['\"]?\s*$", re.M)


class SelectionError(ValueError):
    """The arguments or selection options choose nothing, or name a scenario that is not found; says which."""


@dataclass
class Selection:
    """What to keep of the scenario files the arguments name: tags (any of), family, split, first N, a sample."""

    tags: list[str] = field(default_factory=list)
    family: str | None = None
    split: str | None = None
    limit: int | None = None
    sample: int | None = None
    seed: int = 0
    loaded: dict[Path, Any] = field(default_factory=dict)
    """The scenarios `--tags` loaded to read their tags, by file (`orchestrator.run.suite.load_all` reuses them)."""

    @property
    def narrows(self) -> bool:
        """Whether any option narrows the files (then the run is a suite, whatever number of files it keeps)."""
        return bool(self.tags or self.family or self.split or self.limit or self.sample)


def is_id(text: str) -> bool:
    """An argument that reads as a scenario id: not an existing path, no glob, the form ids take."""
    return bool(ID.match(text)) and not Path(text).exists()


def stated_id(path: Path) -> str | None:
    """The `id:` a scenario file states at its top level, read without loading the file."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    found = ID_LINE.search(head)
    return found.group(1) if found else None


def manifest_rows(folder: Path) -> dict[Path, dict[str, Any]]:
    """The rows of the generated set in `folder` (its `tasks.jsonl`), by the resolved path of each task's file."""
    rows = read_jsonl(folder / MANIFEST).entries
    return {
        (folder / str(r["family"]) / f"{r['id']}.yaml").resolve(): r for r in rows if r.get("family") and r.get("id")
    }


def resolve_ids(args: Sequence[str | Path]) -> list[Path]:
    """The arguments with every scenario id replaced by its file: looked up in the folders among the arguments,
    else in `SCENARIOS_DIRS`; an id found nowhere is a `SelectionError` naming where it was searched."""
    ids = [str(a) for a in args if is_id(str(a))]
    if not ids:
        return [Path(a) for a in args]
    given = [Path(a) for a in args if Path(a).is_dir()]
    searched = given or [d for d in dict.fromkeys(d.resolve() for d in SCENARIOS_DIRS) if d.is_dir()]
    by_id: dict[str, Path] = {}
    for folder in searched:
        rows = manifest_rows(folder)
        for file in rows or scenarios.discover([folder]):
            key = rows[file]["id"] if rows else stated_id(file)
            if key and key not in by_id:
                by_id[key] = file
    missing = [i for i in ids if i not in by_id]
    if missing:
        where = ", ".join(str(f) for f in searched) or "nothing (no scenarios/ folder here)"
        raise SelectionError(
            f"{', '.join(missing)}: not a scenario file, folder or glob, and no scenario has this id in {where}"
        )
    return [by_id[str(a)] if is_id(str(a)) else Path(a) for a in args if not (Path(a).is_dir() and ids)]


def narrow(files: list[Path], selection: Selection) -> list[Path]:
    """`files` narrowed by `selection`: family and split (manifests), tags (of the loaded scenario; a file that does
    not load is kept, to be reported), then a `sample` and the first `limit`; a selection that keeps nothing is a
    `SelectionError`."""
    kept = files
    if selection.family or selection.split:
        rows: dict[Path, dict[str, Any]] = {}
        for folder in {f.resolve().parent.parent for f in files}:
            rows |= manifest_rows(folder)
        kept = [f for f in kept if _in_manifest(rows.get(f.resolve()), selection)]
        if not kept:
            what = " and ".join(
                f"--{k} {v}" for k, v in (("family", selection.family), ("split", selection.split)) if v
            )
            sets = (
                "a generated set's manifest"
                if rows
                else f"no {MANIFEST} (only generated sets have families and splits)"
            )
            raise SelectionError(f"{what}: no scenario of {len(files)} file(s) matches ({sets})")
    if selection.tags:
        wanted = set(selection.tags)
        kept = [f for f in kept if (tags := _tags(f, selection)) is None or wanted & set(tags)]
        if not kept:
            raise SelectionError(f"--tags {','.join(selection.tags)}: no scenario has any of these tags")
    if selection.sample is not None and selection.sample < len(kept):
        chosen = set(random.Random(selection.seed).sample(range(len(kept)), selection.sample))
        kept = [f for i, f in enumerate(kept) if i in chosen]
    if selection.limit is not None:
        kept = kept[: selection.limit]
    return kept


def _in_manifest(row: dict[str, Any] | None, selection: Selection) -> bool:
    if row is None:
        return False
    if selection.family and row.get("family") != selection.family:
        return False
    if selection.split == "core":  # the small part of test; test-ood is never in it
        return bool(row.get("core")) and row.get("split") != "test-ood"
    return not selection.split or row.get("split") == selection.split


def _tags(file: Path, selection: Selection) -> list[str] | None:
    try:
        selection.loaded[file] = scenarios.load(file)
    except scenarios.ScenarioError:
        return None
    return list(selection.loaded[file].tags)
