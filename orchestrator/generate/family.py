"""Task families: a task template over a generated organization.

A family draws its parameters from an organization (`sample`), then builds the
scenario of those parameters (`build`): the instruction in one of several
phrasings, the rows it adds to the organization, the checks and forbids, and the
reference solution, all from the same parameters. Families register
themselves with `@register`; the pipeline finds them by `name`.

    @register
    class MeetingAcrossZones(Family):
        name = "meeting-tz"
        title = "Schedule a meeting across time zones"
        apps = ("calendar", "mail")
        knobs = {"distractors": (0, 2, 4), "tz_spread": (1, 2, 3)}
        split_params = ("zones", "duration", "phrasing")

        def sample(self, org, rng, knobs):        # -> dict | None (JSON-able parameters)
            ...
        def build(self, org, params):             # -> Draft
            draft = Draft(org, title=..., instruction=...)
            draft.add("calendar", "busy", {...})     # rows the task needs, added to this organization copy
            draft.stage("the meeting is booked", [...checks...])
            draft.allow = {...}; draft.forbid = [...]; draft.oracle = [...]
            return draft

`build` must be a pure function of the organization and the parameters: everything
random is drawn in `sample` and recorded in the parameters (the manifest
keeps them). The organization it receives is a copy; change it freely.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import yaml
from faker import Faker

from orchestrator.generate.build import Organization

KNOBS = ("size", "distractors", "steps", "tz_spread")
"""Difficulty knobs a family may declare (`size`, the organization size, is set for the whole run)."""

DIFFICULTIES = ("easy", "medium", "hard")


@dataclass
class Draft:
    """A scenario being written: the organization copy it lives in, and every part of the scenario file."""

    org: Organization
    title: str
    instruction: str
    description: str = ""
    tags: list[str] = field(default_factory=list)
    stages: list[dict[str, Any]] = field(default_factory=list)
    allow: dict[str, Any] = field(default_factory=dict)
    relax: dict[str, Any] = field(default_factory=dict)
    forbid: list[dict[str, Any]] = field(default_factory=list)
    oracle: list[dict[str, Any]] = field(default_factory=list)
    oracles: list[list[dict[str, Any]]] = field(default_factory=list)
    limits: dict[str, Any] = field(default_factory=lambda: {"max_tool_calls": 60, "timeout_s": 600})
    difficulty: str | None = None
    """Overrides the difficulty derived from the knobs."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Other top-level scenario keys (e.g. `faults`), written as given."""

    def add(self, app: str, table: str, row: dict[str, Any], *, first: bool = False) -> dict[str, Any]:
        """Add a seed row to the organization copy (`first`: before the organization's own rows, e.g. a mail that others answer)."""
        rows = self.org.apps.setdefault(app, {}).setdefault(table, [])
        rows.insert(0, row) if first else rows.append(row)
        return row

    def stage(self, name: str, checks: list[dict[str, Any]], weight: float = 1.0) -> None:
        stage: dict[str, Any] = {"name": name}
        if weight != 1.0:
            stage["weight"] = weight
        stage["checks"] = checks
        self.stages.append(stage)

    def scenario(self, scenario_id: str, difficulty: str) -> dict[str, Any]:
        """The scenario file's data, keys in the order scenario files write them."""
        data: dict[str, Any] = {
            "id": scenario_id,
            "title": self.title,
            "description": self.description or self.title,
            "tags": self.tags,
            "difficulty": self.difficulty or difficulty,
            **self.org.scenario_head(),
            "instruction": self.instruction,
            "apps": {app: tables for app, tables in self.org.apps.items() if app in self.apps_used()},
            "stages": self.stages,
        }
        for key in ("allow", "relax", "forbid"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        data["limits"] = self.limits
        data.update(self.extra)
        data["oracle"] = self.oracle
        if self.oracles:
            data["oracles"] = self.oracles
        return data

    def apps_used(self) -> set[str]:
        """Every app of the world: tasks see the whole organization (distraction included)."""
        return set(self.org.apps)


class Family(ABC):
    """A task template; subclasses set the class attributes and implement `sample` and `build`."""

    name: ClassVar[str]
    """Lowercase letters, digits and '-': the command line's FAMILY and the prefix of task ids."""
    title: ClassVar[str]
    apps: ClassVar[tuple[str, ...]]
    """The apps its tasks act in (every task still seeds the whole organization)."""
    knobs: ClassVar[dict[str, tuple[Any, ...]]] = {}
    """Difficulty knobs (see `KNOBS`) and the values a task may take, easiest first."""
    split_params: ClassVar[tuple[str, ...]] = ()
    """Parameters whose combination decides the split: train and test never share a combination."""
    phrasings: ClassVar[int] = 1
    """How many ways the instruction is worded (the parameter `phrasing` picks one)."""
    editions: ClassVar[tuple[int, ...]] = (1, 2, 3)
    """The task-set editions the family draws tasks for: edition 1 is release v1's (its ten families, worded and
    built as then, byte for byte); edition 2 words instructions with `phrasing.compose` (`org.edition`), as
    release v2 drew them; edition 3 draws edition 2's tasks with neutral planted rows (ids drawn like the organization's,
    decoys told apart by content: `org.edition >= 3`)."""

    @abstractmethod
    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        """Draw this task's parameters (JSON-able) from the organization; None when the organization cannot host one."""

    @abstractmethod
    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        """The scenario of these parameters over `org` (a copy: add rows to it through the draft)."""

    def difficulty(self, knobs: dict[str, Any], params: dict[str, Any]) -> str:
        """easy / medium / hard from where each knob sits in its range (organization size counts too)."""
        ranks = []
        for name, values in self.knobs.items():
            if name in knobs and knobs[name] in values and len(values) > 1:
                ranks.append(values.index(knobs[name]) / (len(values) - 1))
        size = {"small": 0.0, "medium": 0.5, "large": 1.0}.get(knobs.get("size", "small"), 0.0)
        score = (sum(ranks) + size) / (len(ranks) + 1)
        return DIFFICULTIES[min(2, int(score * 3))]

    def split_key(self, params: dict[str, Any]) -> str:
        picked = {k: params.get(k) for k in self.split_params} if self.split_params else params
        return canonical(picked)


FAMILIES: dict[str, type[Family]] = {}


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: adds a task family to the registry `families()` reads."""
    if cls.name in FAMILIES and FAMILIES[cls.name] is not cls:
        raise ValueError(f"two families named {cls.name!r}")
    FAMILIES[cls.name] = cls
    return cls


def families() -> dict[str, type[Family]]:
    """Every registered family by name (importing the built-in family modules first)."""
    from orchestrator.generate import families as package  # noqa: PLC0415

    package.load_all()
    return dict(sorted(FAMILIES.items()))


# -- helpers families share --------------------------------------------------------


def canonical(value: Any) -> str:
    """A value as canonical JSON (sorted keys, no spaces): what digests and deduplication compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def digest(value: Any, length: int = 16) -> str:
    """A short SHA-256 hex digest of a string or of a value's canonical JSON."""
    text = value if isinstance(value, str) else canonical(value)
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def phrase(templates: list[str], index: int, **values: Any) -> str:
    """Template `index` (mod the count) filled with `values` (`str.format`)."""
    return " ".join(templates[index % len(templates)].format(**values).split())


def human_day(day: Any) -> str:
    """'Thursday 5 March' for a date or date-time."""
    return f"{day:%A} {day.day} {day:%B}"


def stated_key(where: dict[str, Any]) -> dict[str, Any]:
    """A text condition: the text states the key of the ticket the agent added that `where` picks (not hedged, not
    offered against another: "probably OPS-12" or "OPS-12 or OPS-13" does not state it)."""
    ref = {"app": "tickets", "table": "tickets", "added": True, "where": where, "field": "key"}
    return {"mentions_code": {"from": ref, "claimed": True}}


def join(items: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def human_time(when: Any) -> str:
    """A time of day as instructions write it: `14:30`."""
    return f"{when:%H:%M}"


_FAKERS: dict[str, Faker] = {}


def fake(rng: random.Random, locale: str = "en_US") -> Faker:
    """A Faker for names and text, seeded from `rng` (so the task's parameters decide what it says)."""
    if locale not in _FAKERS:
        _FAKERS[locale] = Faker(locale)
    found = _FAKERS[locale]
    found.seed_instance(rng.randrange(1 << 30))
    return found


@dataclass
class Task:
    """One generated task: its scenario and what the manifest says about it."""

    id: str
    family: str
    index: int
    params: dict[str, Any]
    knobs: dict[str, Any]
    difficulty: str
    split: str
    core: bool
    org: dict[str, Any]
    """{seed, size, digest} of the organization it was built on."""
    scenario: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)
    """Edition 2: what the manifest row adds (edition, organization, template, industry, size, measured
    properties: calls, apps, planted, events, responders, ask_user, faults)."""

    def yaml(self) -> str:
        return dump_yaml(self.scenario)

    def content_hash(self, text: str | None = None) -> str:
        """The sha256 of the scenario file (`text`: its YAML when already dumped)."""
        return hashlib.sha256((self.yaml() if text is None else text).encode()).hexdigest()

    def checks_key(self) -> str:
        """What makes two tasks the same after normalization: the family and what is judged (checks, forbids,
        allow and relax rules, names and weights aside). Different parameters with the same checks collide."""

        def strip(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: strip(v) for k, v in value.items() if k not in ("name", "weight")}
            if isinstance(value, list):
                return [strip(v) for v in value]
            return value

        s = self.scenario
        judged = {
            "stages": [strip(st["checks"]) for st in s["stages"]],
            "forbid": strip(s.get("forbid", [])),
            "allow": s.get("allow", {}),
            "relax": s.get("relax", {}),
        }
        return digest({"family": self.family, "judged": judged}, 32)

    def manifest_row(self, text: str | None = None) -> dict[str, Any]:
        """The manifest's row of the task (`text`: its YAML when already dumped)."""
        return {
            "id": self.id,
            "family": self.family,
            "index": self.index,
            "split": self.split,
            "core": self.core,
            "difficulty": self.difficulty,
            "knobs": self.knobs,
            "parameters": self.params,
            "world": self.org,
            "content_hash": self.content_hash(text),
            **self.extra,
        }


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]  # a base picked at run time: the C dumper when libyaml is there
    """libyaml's emitter when PyYAML has it (ten times faster; scenario files hold whole organizations)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump_yaml(data: Any) -> str:
    """YAML the way generated scenario files are written: key order kept, block text, deterministic."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
