"""Instructions as people write them (edition 2): phrasings composed from parts, held out by template.

An edition-2 family words its instruction with `compose`: one *request* (the ask itself; its id is the task's
template), optionally wrapped in an *opener* (context, a greeting) and a *closer* (a constraint, a thank-you),
all `str.format` templates over the task's values. Every part has an id, `<family>/<intent>/<kind>/<n>`, and
every id falls on one side of the split by its own hash (`template_split`): a task on a test organization is
worded only with test parts, a train task only with train parts, so test phrasings never appear in train.

    text, template = compose(world, rng, "reschedule", "move", REQUESTS, values, openers=OPENERS, closers=CLOSERS)
    params["template"] = template      # recorded in the parameters and the manifest

A world without a split (`world.split is None`: edition 1, or a run without splits) may use every part.

May import nothing first-party.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

TEST_SHARE = 25
"""Percent of every part list held out for test (by the hash of each part's id)."""


def part_id(family: str, intent: str, kind: str, index: int) -> str:
    """The id of part `index` of a list: `<family>/<intent>/<kind>/<index>`."""
    return f"{family}/{intent}/{kind}/{index}"


def template_split(template: str) -> str:
    """`train` or `test`: the side of the split a part id falls on (its own hash, so adding parts moves none)."""
    bucket = int(hashlib.sha256(template.encode()).hexdigest()[:8], 16) % 100
    return "test" if bucket < TEST_SHARE else "train"


def usable(family: str, intent: str, kind: str, parts: Sequence[str], split: str | None) -> list[int]:
    """Indexes of the parts a task of `split` may use (all of them when `split` is None); never empty when the list
    has a part on each side (the caller's lists must, for a split run)."""
    every = list(range(len(parts)))
    if split is None:
        return every
    return [i for i in every if template_split(part_id(family, intent, kind, i)) == split]


def compose(
    world: Any,
    rng: random.Random,
    family: str,
    intent: str,
    requests: Sequence[str],
    values: Mapping[str, Any],
    *,
    openers: Sequence[str] = (),
    closers: Sequence[str] = (),
) -> tuple[str, str]:
    """An instruction and its template id: a request of the world's split, with an opener and a closer of the same
    split when the lists give some (each also may be left out). Raises ValueError when a split has no request."""
    split = getattr(world, "split", None)
    picks = usable(family, intent, "request", requests, split)
    if not picks:
        raise ValueError(f"{family}/{intent}: no request phrasing on the {split} side of the split; add more")
    index = rng.choice(picks)
    text = requests[index].format(**values)
    for kind, parts, before in (("opener", openers, True), ("closer", closers, False)):
        choices = usable(family, intent, kind, parts, split)
        if not choices or rng.random() < 0.3:
            continue
        extra = parts[rng.choice(choices)].format(**values)
        text = f"{extra} {text}" if before else f"{text} {extra}"
    return " ".join(text.split()), part_id(family, intent, "request", index)
