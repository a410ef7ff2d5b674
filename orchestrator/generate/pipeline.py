"""Drawing, deduplicating, proving and writing generated tasks (`orchestrator generate`).

Edition 1 (release v1, byte for byte): for each family, task `i` of a run draws from
`random.Random("{seed}:{family}:{i}")`: an organization out of a small pool of the run's organizations (`ORG_POOL[size]` seeds
per run seed: seed * 1000 + 0, 1, ...), the family's knobs, then the family's parameters. The split comes from the
family's split key (`Family.split_params`) hashed into 100 buckets: 0-79 train, 80-99 test, and the test buckets
80-83 are also the small "core" split; so train and test never share a parameter combination.

Edition 2 (`Options.edition == 2`, see `edition2`): task `i` lives in the organization of its group of tasks,
whose id's hash decides its split (train, test, core) and organization size (`SIZE_MIX`, or `--size`); the organization carries
its split, so families word instructions with that side's phrasings; the families in `OOD_FAMILIES` are all
`test-ood`. Manifest rows add the edition, organization, template, industry, size and the measured properties,
and the difficulty comes from those measurements (`edition2.difficulty`). Release v2's draws, byte for byte.

Edition 3 (the command line's default): edition 2's draws with neutral planted rows: their ids are drawn like the
organization's (`org_ids.neutral_ids`) and decoys are told apart by content (dates, versions), not by labels; task ids
read `<family>-v3-<seed>-<index>`. Living and long are knobs of every family (`twists`: a fault on a write call, a
colleague or the user who names whom to tell, a wrap-up over tickets, docs and mail, each drawn for half the tasks
that lack it); a third of the train organizations are test-ood ones (`drawing.organization`), whose tasks always
carry a held-out twist, so no train task shares a test-ood task's program (`program`). Rows add `instruction`,
`program`, `living`, `long`, `twists` and `twist_parts`.

A task whose checks (names and weights aside) equal an earlier one's is a duplicate and skipped. Every other task
is proven from memory (`prover`): `basic` proves that the reference solution scores 1.0 and doing nothing fails,
`full` also that every mutation and attack fails and every equivalent rewrite passes (`full_sample`: that share
of the tasks, chosen by the hash of their ids, proven in full besides). A task that fails is dropped and counted,
never written. `scheduler.run` proves on one process, a process pool or Ray, and keeps what it proved in a
resumable folder; tasks are kept in index order, so the same command writes the same bytes however it ran. Files
are written as `OUT/<family>/<id>.yaml` with the manifest `OUT/tasks.jsonl`.
"""

from __future__ import annotations

from pathlib import Path

from orchestrator.generate.drawing import candidates, draw, in_split, split_of
from orchestrator.generate.options import (
    ATTEMPTS_PER_TASK,
    BACKENDS,
    EDITIONS,
    MANIFEST,
    MIX,
    ORG_POOL,
    PROOFS,
    SPLITS,
    FamilyReport,
    GenerateError,
    Options,
    Progress,
    Transform,
    attempts,
    default_workers,
    family_names,
    parse_share,
    problem_kind,
)
from orchestrator.generate.output import JOURNAL, WORK, prepare, read_manifest, write_manifest
from orchestrator.generate.prover import FULL_VARIATIONS

__all__ = [
    "ATTEMPTS_PER_TASK",
    "BACKENDS",
    "EDITIONS",
    "FULL_VARIATIONS",
    "JOURNAL",
    "MANIFEST",
    "MIX",
    "PROOFS",
    "SPLITS",
    "WORK",
    "ORG_POOL",
    "FamilyReport",
    "GenerateError",
    "Options",
    "Progress",
    "Transform",
    "attempts",
    "candidates",
    "default_workers",
    "draw",
    "family_names",
    "generate",
    "in_split",
    "parse_share",
    "prepare",
    "problem_kind",
    "read_manifest",
    "split_of",
    "write_manifest",
]


async def generate(
    options: Options, out: Path, progress: Progress | None = None, *, replace: bool = False
) -> list[FamilyReport]:
    """Generate, prove and write the tasks; returns what happened per family. `replace`: `out` may hold a set generated
    before, whose tasks are removed first (without it such a folder is refused). A folder holding an unfinished run
    of the same options is continued (see `scheduler.run`, which this runs off the event loop)."""
    import anyio  # noqa: PLC0415

    from orchestrator.generate import scheduler  # noqa: PLC0415

    return await anyio.to_thread.run_sync(lambda: scheduler.run(options, out, progress, replace=replace))
