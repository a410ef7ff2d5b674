"""Edition 2 of the generated task set: organizations per group of tasks, splits by organization, a stated mix of
organization sizes, an out-of-family split, measured task properties and the difficulty they give.

- Organizations: task `i` of family `f` in a run with seed `s` lives in organization `org_seed(s, f, i // GROUP)`
  (a hash, so 1,000 tasks of a family spread over 100 organizations, and 20 families over about 2,000). The
  organization's id is `org-<seed>` (`Organization.org_id`); its split is its id's hash (`org_split`: 80% train, 20%
  test, and test buckets 80-83 the small "core" part of test), so no organization is ever in both splits, and its
  size is drawn from `SIZE_MIX` by another hash of its id (`org_size`): the same organization is always built the
  same.
- Out of family: every task of a family in `OOD_FAMILIES` is `test-ood` and lives in a test organization (its
  group's organization is redrawn until it is one), worded with test phrasings only.
- Measured properties (`measure`): what a task's scenario really holds: the reference's tool calls and the apps it
  touches, the rows the task plants in the world (the target and its decoys), world events, people who answer,
  whether only the user can answer (`ask_user`) and the fault rules.
- Difficulty (`difficulty`): points from those measurements (see `DIFFICULTY_POINTS`), never from a knob alone.
- Instruction shape (`shape`): a digest of the instruction with the organization's names, dates, times, numbers, ticket
  keys and addresses replaced, so `releases/stats.py` can count instructions that only differ in those.

May import: `orchestrator.generate.family` (digest).
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.generate.family import digest

GROUP = 10
"""Consecutive tasks of a family that share an organization."""
SIZE_MIX = (("small", 66), ("medium", 30), ("large", 4))
"""Percent of organizations of each size (34% medium or large). Measured on this machine (basic proofs, CPU
per task): about 0.25 s on a small organization, 0.8 s on a medium one and 6.5 s on a large one (about 150 people, 5 MB
of YAML seeded into every proof episode), so large organizations stay a small share: at 4% they are still 40% of the
proof time."""
OOD_FAMILIES = ("inbox-rules", "lost-send")
"""Families held out whole: every task of theirs is in the `test-ood` split (on test organizations). Neither is a
part of a composite family, so no train task carries their asks."""
SPLITS = ("train", "test", "test-ood")
ORG_SEED_BASE = 1_000_000
"""Edition-2 organization seeds start here (edition 1's organizations are seeds below it: run seed * 1000 + a pool index)."""


def _bucket(text: str, buckets: int = 100) -> int:
    return int(digest(text), 16) % buckets


def org_seed(seed: int, family: str, group: int, attempt: int = 0) -> int:
    """The organization seed of a family's task group in a run (`attempt` > 0: redrawn, for an out-of-family group)."""
    suffix = f":{attempt}" if attempt else ""
    return ORG_SEED_BASE + int(digest(f"org:{seed}:{family}:{group}{suffix}"), 16) % 1_000_000_000


def org_split(seed: int) -> tuple[str, bool]:
    """An organization's split by the hash of its id: (train or test, whether it is in the core part of test)."""
    bucket = _bucket(f"org-{seed}")
    return ("train" if bucket < 80 else "test"), 80 <= bucket < 84


def org_size(seed: int) -> str:
    """An organization's size, from `SIZE_MIX` by a second hash of its id."""
    bucket = _bucket(f"size:org-{seed}")
    for name, share in SIZE_MIX:
        if bucket < share:
            return name
        bucket -= share
    return SIZE_MIX[-1][0]


def organization(seed: int, family: str, index: int) -> tuple[int, str, bool]:
    """The organization (its seed), split and core flag of task `index` of `family` in the run with `seed`."""
    group = index // GROUP
    if family not in OOD_FAMILIES:
        drawn = org_seed(seed, family, group)
        return (drawn, *org_split(drawn))
    for attempt in range(1000):
        drawn = org_seed(seed, family, group, attempt)
        split, core = org_split(drawn)
        if split == "test":
            return drawn, "test-ood", core
    raise AssertionError("no test organization in 1000 draws")  # 20% of draws are test: unreachable


def count_rows(apps: dict[str, dict[str, list[Any]]]) -> int:
    """Seed rows across every app and table."""
    return sum(len(rows) for tables in apps.values() for rows in tables.values() if isinstance(rows, list))


def measure(scenario: dict[str, Any], planted: int) -> dict[str, Any]:
    """A task's measured properties from its scenario data (and `planted`: the rows the task added to its organization)."""
    oracle = scenario.get("oracle") or []
    tools = [str(step.get("tool", "")) for step in oracle]
    apps = sorted({tool.split("__")[0] for tool in tools if "__" in tool} - {"world"})
    world = scenario.get("world") or {}
    faults = scenario.get("faults") or {}
    fault_rules = sum(len((plan or {}).get("rules") or []) for plan in faults.values() if isinstance(plan, dict))
    return {
        "calls": len(oracle),
        "apps": apps,
        "planted": planted,
        "events": len(world.get("events") or []),
        "responders": len(world.get("people") or []),
        "ask_user": bool(world.get("user")) or "world__ask_user" in tools,
        "faults": fault_rules,
    }


DIFFICULTY_POINTS = """\
calls: 1 point at 6 or more reference calls, 2 at 10 or more, 3 at 16 or more;
apps: 1 point at 3 or more apps the reference touches;
world: 1 point for a medium world, 2 for a large one;
distractors: 1 point when the task plants 4 or more rows (the target among decoys);
living: 1 point for world events or people who answer;
faults: 1 point for fault rules;
ambiguity: 1 point when only the user can answer (ask_user).
easy: 0-2 points, medium: 3-4, hard: 5 or more."""


def difficulty(props: dict[str, Any], size: str) -> str:
    """easy / medium / hard from measured properties (`DIFFICULTY_POINTS` states the formula)."""
    calls = props["calls"]
    points = (calls >= 6) + (calls >= 10) + (calls >= 16)
    points += len(props["apps"]) >= 3
    points += {"medium": 1, "large": 2}.get(size, 0)
    points += props["planted"] >= 4
    points += (props["events"] + props["responders"]) > 0
    points += props["faults"] > 0
    points += bool(props["ask_user"])
    return "easy" if points <= 2 else "medium" if points <= 4 else "hard"


_WORDS = re.compile(r"[A-Za-z\u00c0-\u024f][\w\u00c0-\u024f'-]*")
_REPLACED = [
    (re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+"), "<email>"),
    (re.compile(r"\b[A-Z][A-Z0-9]+-\d+\b"), "<key>"),
    (re.compile(r"\b\d{1,2}(:\d{2})+\b"), "<time>"),
    (re.compile(r"\d+(?:[.,]\d+)*"), "<n>"),
]
_CALENDAR = {
    *"monday tuesday wednesday thursday friday saturday sunday".split(),
    *"january february march april may june july august september october november december".split(),
    *"mon tue wed thu fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec".split(),
    *"today tomorrow yesterday".split(),
}


def names_of(org: Any) -> set[str]:
    """Every word of the organization's people's names (colleagues, outsiders, the persona), its organization and cities,
    lowercased: what `normalize` replaces."""
    found: set[str] = set()
    for person in [org.persona, *org.people, *org.outsiders]:
        found.update(w.lower() for w in _WORDS.findall(f"{person.name} {person.company} {person.city}"))
    found.update(w.lower() for w in _WORDS.findall(str(org.name)))
    return found


def normalize(text: str, names: set[str]) -> str:
    """The instruction with addresses, ticket keys, times, numbers, dates and the organization's names replaced."""
    for pattern, token in _REPLACED:
        text = pattern.sub(token, text)

    def word(match: re.Match[str]) -> str:
        lower = match.group(0).lower()
        return "<date>" if lower in _CALENDAR else "<name>" if lower in names else lower

    return " ".join(_WORDS.sub(word, text).split())


def shape(text: str, org: Any) -> str:
    """A digest of the normalized instruction (`normalize`): equal for instructions that differ only in names,
    dates and numbers."""
    return digest(normalize(text, names_of(org)))
