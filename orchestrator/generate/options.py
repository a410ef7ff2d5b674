"""What a generation run is asked for (`Options`, checked with errors that name the option) and what it reports
per family (`FamilyReport`); `pipeline` re-exports both.

May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from orchestrator.generate.edition2 import OOD_FAMILIES as OOD
from orchestrator.generate.family import Family, Task, families
from orchestrator.generate.organization import SIZES

ORG_POOL = {"small": 16, "medium": 8, "large": 4}
"""Organizations per run seed and size that a run's tasks are built on (building a large organization is slow, and it is
kept in memory)."""
SPLITS = ("train", "test", "core", "test-ood")
PROOFS = ("basic", "full")
EDITIONS = (1, 2, 3)
BACKENDS = ("local", "ray")
MIX = "mix"
"""Edition 2's default `size`: each organization's size from `edition2.SIZE_MIX`."""
MANIFEST = "tasks.jsonl"
ATTEMPTS_PER_TASK = {None: 6, "train": 8, "test": 25, "core": 120, "test-ood": 120}
SPLIT_DRAWS = 50
"""With a split, a run draws up to this many times a family's usual budget (`count * ATTEMPTS_PER_TASK + 20`) before
it decides the split cannot supply the tasks: edition 2 splits by organization, a group of tasks at a time, so a
family can draw 70 candidates of the other splits in a row. Candidates of another split are not proven: drawing on
costs little."""
"""How many candidates a run may draw per task asked for, before it gives up on a family."""

Transform = Callable[[Task], Task | None]


class GenerateError(ValueError):
    """Bad input to the generator, with a message that names the argument and what was expected."""


@dataclass
class Options:
    """What to generate: families, tasks per family, seed, organization size, proofs, split, knobs, transform, edition, and
    how to prove (workers, backend, full-proof sample)."""

    families: list[str]
    count: int
    seed: int = 0
    size: str | None = None
    """An organization size of `SIZES`; edition 2 also takes `mix` (its default: each organization's own size)."""
    prove: str = "basic"
    split: str | None = None
    transform: Transform | None = None
    """Applied to every drawn task before it is deduplicated and proven (e.g. a prompt-injection variant)."""
    knobs: dict[str, Any] = field(default_factory=dict)
    """Knobs fixed for every task (e.g. {"steps": 2}) instead of drawn; a family without the knob, or without
    that value of it, draws it as usual."""
    edition: int = 1
    """1: release v1's drawing, byte for byte; 2: organizations per task group, splits by organization (see
    `edition2`), release v2's drawing byte for byte; 3: edition 2's draws with neutral planted rows (ids drawn like the
    organization's, decoys told apart by content). The command line's default is 3."""
    workers: int = 1
    """Processes (or Ray actors) proving at once; 1 proves in this process."""
    backend: str = "local"
    """`local` (this machine's cores) or `ray`."""
    full_sample: float = 0.0
    """Share of tasks (0 to 1, by the hash of their ids) proven in full besides `prove`."""
    address: str | None = None
    """`backend="ray"`: the cluster to join (None: a local Ray)."""
    max_draws: int | None = None
    """Candidates a family may draw before the run gives up on it (`--max-draws`); default `attempts`' budget."""

    def __post_init__(self) -> None:
        if self.size is None:
            self.size = MIX if self.edition >= 2 else "small"

    def check(self) -> None:
        known = families()
        unknown = [f for f in self.families if f not in known]
        if unknown:
            raise GenerateError(f"unknown family {', '.join(unknown)}; known: {', '.join(known)} (or 'all')")
        if self.edition not in EDITIONS:
            raise GenerateError(f"--edition must be 1, 2 or 3, got {self.edition}")
        other = [f for f in self.families if self.edition not in known[f].editions]
        if other:
            raise GenerateError(
                f"family {', '.join(other)} draws no edition-{self.edition} tasks (its editions: "
                f"{', '.join('/'.join(map(str, known[f].editions)) for f in other)}); give --edition "
                f"{known[other[0]].editions[-1]}"
            )
        if self.count < 1:
            raise GenerateError(f"--count must be at least 1, got {self.count}")
        if self.seed < 0:
            raise GenerateError(f"--seed must be 0 or more, got {self.seed}")
        sizes = [*SIZES, MIX] if self.edition >= 2 else list(SIZES)
        if self.size not in sizes:
            raise GenerateError(f"--size must be one of {', '.join(sizes)}, got {self.size!r}")
        if self.prove not in PROOFS:
            raise GenerateError(f"--prove must be one of {', '.join(PROOFS)}, got {self.prove!r}")
        splits = SPLITS if self.edition >= 2 else SPLITS[:3]
        if self.split is not None and self.split not in splits:
            raise GenerateError(f"--split must be one of {', '.join(splits)}, got {self.split!r}")
        never = self.never_in_split()
        if never:
            raise GenerateError(
                f"--split {self.split}: family {', '.join(never)} never draws a {self.split} task "
                f"(edition 2's held-out families {', '.join(OOD)} draw only test-ood tasks, the "
                "others never do); leave it out or give another --split"
            )
        if self.max_draws is not None and self.max_draws < self.count:
            raise GenerateError(f"--max-draws must be at least --count ({self.count}), got {self.max_draws}")
        if self.workers < 1:
            raise GenerateError(f"--workers must be at least 1, got {self.workers}")
        if self.backend not in BACKENDS:
            raise GenerateError(f"--backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if not 0 <= self.full_sample <= 1:
            raise GenerateError(f"--full-sample must be a share from 0% to 100%, got {self.full_sample:.0%}")
        self._check_knobs(known)

    def never_in_split(self) -> list[str]:
        """The families that draw no task of `split` at all (edition 2: test-ood is the held-out families' split, and
        theirs alone; edition 3: every family draws test-ood tasks too; core, the core part of test, never holds
        test-ood, so the held-out families, all test-ood, never draw it)."""
        if self.edition < 2 or self.split not in ("train", "test", "test-ood", "core"):
            return []
        if self.split == "core":
            return [f for f in self.families if f in OOD]
        if self.edition >= 3 and self.split == "test-ood":  # edition 3: every family's test-ood organizations
            return []
        return [f for f in self.families if (f in OOD) != (self.split == "test-ood")]

    def _check_knobs(self, known: dict[str, type[Family]]) -> None:
        for name, value in self.knobs.items():
            having = {f: known[f].knobs[name] for f in self.families if name in known[f].knobs}
            if not having:
                raise GenerateError(f"--knob {name}: no family of {', '.join(self.families)} has this knob")
            if not any(value in values for values in having.values()):
                takes = "; ".join(f"{f} takes {'/'.join(map(str, v))}" for f, v in having.items())
                raise GenerateError(f"--knob {name}={value}: {takes}")

    def signature(self) -> dict[str, Any]:
        """What decides the bytes a run writes (not how it proves): a resumed run must have the same."""
        transform = self.transform
        name = (
            None
            if transform is None
            else f"{getattr(transform, '__module__', '')}.{getattr(transform, '__qualname__', type(transform).__name__)}"
        )
        return {
            "families": self.families,
            "count": self.count,
            "seed": self.seed,
            "size": self.size,
            "prove": self.prove,
            "split": self.split,
            "knobs": self.knobs,
            "edition": self.edition,
            "full_sample": self.full_sample,
            "transform": name,
        } | ({"max_draws": self.max_draws} if self.max_draws is not None else {})


def family_names(spec: str, edition: int = 1) -> list[str]:
    """The families a FAMILY argument names: one, several joined by commas, or `all` (every family drawing tasks for
    `edition`)."""
    if spec != "all":
        return [name.strip() for name in spec.split(",") if name.strip()]
    return [name for name, cls in families().items() if edition in cls.editions]


def parse_share(text: str) -> float:
    """`10%`, `0.1` or `10` (percent) as a share from 0 to 1; GenerateError otherwise."""
    value = text.strip()
    try:
        number = float(value.rstrip("%"))
    except ValueError:
        raise GenerateError(f"--full-sample {text!r}: expected a share such as 10% or 0.1") from None
    share = number / 100 if value.endswith("%") or number > 1 else number
    if not 0 <= share <= 1:
        raise GenerateError(f"--full-sample {text!r}: expected a share from 0% to 100%")
    return share


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass
class FamilyReport:
    """What happened to one family's candidates: written, unfit, other split, duplicates, dropped by proof kind."""

    family: str
    written: int = 0
    drawn: int = 0
    unfit: int = 0
    """Candidates whose organization could not host the family's task."""
    other_split: int = 0
    duplicates: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    """Candidates that failed a proof, by the first problem's kind."""
    examples: dict[str, str] = field(default_factory=dict)
    """One full problem text per kind of drop."""
    episodes: int = 0
    full: int = 0
    """Tasks written that passed the full proofs (`--prove full`, or in the `--full-sample`)."""
    proofs: Counter[str] = field(default_factory=Counter)
    """Proof episodes of the written tasks by kind (reference, noop, mutations, mutations_caught, attacks,
    attacks_failed, equivalents, equivalents_passed)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "written": self.written,
            "drawn": self.drawn,
            "unfit": self.unfit,
            "other_split": self.other_split,
            "duplicates": self.duplicates,
            "dropped": dict(sorted(self.dropped.items())),
            "dropped_total": sum(self.dropped.values()),
            "examples": self.examples,
            "episodes": self.episodes,
            "full": self.full,
            "proofs": dict(sorted(self.proofs.items())),
        }


def attempts(options: Options) -> int:
    """How many candidates a run may draw per family before it gives up on it: `--max-draws` when given; else the
    usual budget, `SPLIT_DRAWS` times over with a split (drawn until the split supplies `count`, or clearly cannot)."""
    if options.max_draws is not None:
        return options.max_draws
    budget = options.count * ATTEMPTS_PER_TASK[options.split] + 20
    return budget if options.split is None else budget * SPLIT_DRAWS


def problem_kind(problem: str) -> str:
    """The kind of a proof problem (reference solution, doing nothing, mutation …), for the report's counts."""
    for kind in ("reference solution", "doing nothing", "mutation", "attack", "equivalent", "seed", "load"):
        if problem.startswith(kind):
            return kind
    return problem.split(":")[0][:40]


Progress = Callable[[str, int, int], None]
"""progress(family, written, count)."""
