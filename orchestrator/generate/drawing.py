"""Drawing candidates: task `index` of a family in a run, for edition 1 (release v1's draws), edition 2
(organizations per task group, see `edition2`; release v2's draws) or edition 3 (edition 2's draws, the planted rows
neutral: ids drawn like the organization's, see `org_ids`, and decoys told apart by content); `pipeline` re-exports these.

May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterator
from typing import Any

from orchestrator.generate import edition2, twists
from orchestrator.generate.build import build_organization
from orchestrator.generate.family import Family, Task, canonical, digest
from orchestrator.generate.options import MIX, ORG_POOL, FamilyReport, Options, attempts
from orchestrator.generate.org_ids import neutral_ids
from orchestrator.generate.program import program


def split_of(family: Family, params: dict[str, Any]) -> tuple[str, bool]:
    """A task's split from its family's split parameters: (train or test, whether it is in the core part of test)."""
    bucket = int(digest(f"{family.name}|{family.split_key(params)}"), 16) % 100
    return ("train" if bucket < 80 else "test"), 80 <= bucket < 84


def in_split(wanted: str | None, split: str, core: bool) -> bool:
    """Whether a task of `split` (core or not) belongs to the wanted split (None: any; `core`: the core part of test,
    never a test-ood task, whatever its core flag)."""
    return wanted is None or wanted == split or (wanted == "core" and core and split != "test-ood")


def draw(
    family: Family, seed: int, size: str, index: int, fixed: dict[str, Any] | None = None, *, edition: int = 1
) -> Task | None:
    """Candidate `index` of `family` in the run with this seed and size (and these knobs fixed) of an edition; None
    when its organization cannot host it."""
    if edition >= 2:
        return _draw2(family, seed, size, index, fixed, edition)
    rng = random.Random(f"{seed}:{family.name}:{index}")
    org_seed = seed * 1000 + rng.randrange(ORG_POOL[size])
    org = build_organization(org_seed, size)
    knobs = _knobs(family, rng, fixed, size)
    params = family.sample(org, rng, knobs)
    if params is None:
        return None
    params = json.loads(canonical(params))
    org_info = {"seed": org_seed, "size": size, "digest": org.digest()[:16]}
    draft = family.build(org, params)
    split, core = split_of(family, params)
    task_id = f"{family.name}-{seed}-{index:05d}"
    difficulty = family.difficulty(knobs, params)
    return Task(
        task_id,
        family.name,
        index,
        params,
        knobs,
        difficulty,
        split,
        core,
        org_info,
        draft.scenario(task_id, difficulty),
    )


def _knobs(family: Family, rng: random.Random, fixed: dict[str, Any] | None, size: str) -> dict[str, Any]:
    knobs: dict[str, Any] = {
        name: rng.choice(values) for name, values in sorted(family.knobs.items()) if name != "size"
    }
    knobs.update({k: v for k, v in (fixed or {}).items() if v in family.knobs.get(k, ())})
    knobs["size"] = size
    return knobs


def _org_of(seed: int, size: str, split: str, edition: int = 2) -> Any:
    """An edition-2 organization (or edition 3's, the same) of a split (`build_organization` records both; a builder without
    the keywords is told after)."""
    if "edition" in inspect.signature(build_organization).parameters:
        return build_organization(seed, size, edition=edition, split=split)
    org = build_organization(seed, size)
    org.edition, org.split = edition, split
    return org


OOD_ORGS = 32
"""Edition 3: percent of edition 2's train organizations that are test-ood organizations instead (with the
held-out families' organizations, test-ood is then about a third of the release, spread over every family)."""


def organization(seed: int, family: str, index: int, edition: int = 2) -> tuple[int, str, bool]:
    """The organization (its seed), split and core flag of task `index` of `family`: edition 2's (`edition2`);
    edition 3 also makes `OOD_ORGS` percent of the train organizations test-ood ones, whose tasks carry held-out
    twists (`twists.HELD_OUT`), so no organization is in two splits and no train task has a test-ood program."""
    org_seed, split, core = edition2.organization(seed, family, index)
    if edition >= 3 and split == "train" and int(digest(f"ood:org-{org_seed}"), 16) % 100 < OOD_ORGS:
        return org_seed, "test-ood", False
    return org_seed, split, core


def _draw2(
    family: Family, seed: int, size: str, index: int, fixed: dict[str, Any] | None, edition: int = 2
) -> Task | None:
    rng = random.Random(f"v2:{seed}:{family.name}:{index}")  # edition 3 draws edition 2's tasks
    org_seed, split, core = organization(seed, family.name, index, edition)
    org_size = edition2.org_size(org_seed) if size == MIX else size
    org = _org_of(org_seed, org_size, "test" if split == "test-ood" else split, edition)
    knobs = _knobs(family, rng, fixed, org_size)
    before = edition2.count_rows(org.apps)
    params = family.sample(org, rng, knobs)
    if params is None:
        return None
    params = json.loads(canonical(params))
    org_info = {"seed": org_seed, "size": org_size, "digest": org.digest()[:16]}
    draft = family.build(org, params)
    task_id = f"{family.name}-v{edition}-{seed}-{index:05d}"
    scenario = draft.scenario(task_id, "")
    measured = edition2.measure(scenario, edition2.count_rows(draft.org.apps) - before)
    added: list[str] = []
    phrased: list[str] = []
    if edition >= 3:  # the living and long knobs, and held-out twists for test-ood organizations
        wanted = twists.choose(
            task_id, ood=split == "test-ood", living=twists.is_living(measured), long=twists.is_long(measured)
        )
        added = twists.apply(draft, wanted, twists.twist_seed(task_id))
        if split == "test-ood" and not set(added) & set(twists.HELD_OUT):
            return None  # a test-ood task carries a held-out twist, or it is not drawn
        phrased = twists.parts(draft)
        scenario = draft.scenario(task_id, "")
        measured = edition2.measure(scenario, edition2.count_rows(draft.org.apps) - before)
        # planted rows named like the organization's (release v2 kept the families' own ids)
        scenario = neutral_ids(scenario, random.Random(f"ids:{task_id}"))
    scenario["difficulty"] = difficulty = draft.difficulty or edition2.difficulty(measured, org_size)
    extra = {
        "edition": edition,
        "organization": org.org_id,
        "template": params.get("template"),
        "industry": getattr(org, "industry", ""),
        "size": org_size,
        **measured,
        "shape": edition2.shape(scenario["instruction"], org),
    }
    if edition >= 3:
        extra.update(living=twists.is_living(measured), long=twists.is_long(measured), twists=added)
        extra.update(twist_parts=phrased)
        extra.update(instruction=scenario["instruction"], program=program(scenario, added))
    return Task(task_id, family.name, index, params, knobs, difficulty, split, core, org_info, scenario, extra)


def candidates(family: Family, options: Options, report: FamilyReport) -> Iterator[Task]:
    """Drawn tasks of the wanted split, transformed, not yet deduplicated or proven."""
    for index in range(attempts(options)):
        report.drawn += 1
        task = draw(family, options.seed, options.size or "small", index, options.knobs, edition=options.edition)
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
