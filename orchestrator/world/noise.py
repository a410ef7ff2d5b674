"""Noise profiles: any scenario's noisy variant, without editing it (`--noise PROFILE`).

A profile is defined here and only here. Applied to a scenario for one
episode seed (`noisy`), it

- appends to every app's fault plan one rule per fault kind, each hitting any
  tool with the profile's probability (the scenario's own rules come first,
  so a rule on call 1 still hits call 1); draws follow the episode seed and
  the scenario's id (two scenarios with the same seed meet different faults);
- shortens the gateway's per-call deadline to the profile's (a `timeout`
  then hangs just past it), so a noisy library run stays quick, and raises a
  call limit by twice the share of calls that meet a fault (room for retries);
- adds noisy data to the seed: a near-duplicate of some people (another
  address at the same domain, a typo in the name) in mail contacts and the
  tracker's users, and typos in the display names of people the scenario
  never names in its instruction, checks, forbidden changes or reference
  solutions, so no check or reference step depends on what changed.

How a run under noise is judged beyond the scenario's own checks (a redone
lost reply is a duplicate side effect and fails the run; a hammered rate
limit is reported) lives in `orchestrator.verify.process_checks.judge_recovery`.
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a profile is looked up (`--noise`'s check) before anything loads a scenario
    from orchestrator.scenario.model import Scenario

PEOPLE: dict[str, dict[str, tuple[str, str]]] = {
    "mail": {"contacts": ("email", "name")},
    "tickets": {"users": ("email", "name")},
}
"""Per app, the tables of people as (address column, display-name column): where near-duplicates and typos go."""


@dataclass(frozen=True)
class Profile:
    """A noise profile (`--noise`): fault chances and timings, and how seed data is made noisy."""

    name: str
    description: str
    faults: dict[str, float] = field(default_factory=dict)
    """Fault kind → chance that a call meets it."""
    retry_after_s: float = 1.0
    duration_s: float = 1.0
    delay_s: float = 1.0
    latency_ms: int = 50
    call_deadline_s: float | None = None
    near_duplicates: int = 0
    """How many people of each people table get a near-duplicate."""
    typos: float = 0.0
    """Chance that the display name of a person the scenario never names gets a typo."""

    def describe(self) -> dict[str, Any]:
        return {
            "profile": self.name,
            "faults": self.faults,
            "near_duplicates": self.near_duplicates,
            "typos": self.typos,
        }


PROFILES: dict[str, Profile] = {
    "none": Profile("none", "no faults, no noisy data: the scenario as written"),
    "mild": Profile(
        "mild",
        "a few percent of calls meet a fault of each kind; one near-duplicate person per people table; some name typos",
        faults={
            "error": 0.03,
            "latency": 0.04,
            "timeout": 0.01,
            "rate_limit": 0.03,
            "unavailable": 0.01,
            "lost_reply": 0.03,
            "stale_read": 0.03,
        },
        retry_after_s=0.5,
        duration_s=0.5,
        delay_s=1.0,
        latency_ms=50,
        call_deadline_s=2.0,
        near_duplicates=1,
        typos=0.3,
    ),
    "harsh": Profile(
        "harsh",
        "about one call in three meets a fault; two near-duplicates per people table; many name typos",
        faults={
            "error": 0.06,
            "latency": 0.06,
            "timeout": 0.03,
            "rate_limit": 0.06,
            "unavailable": 0.03,
            "lost_reply": 0.06,
            "stale_read": 0.06,
        },
        retry_after_s=1.0,
        duration_s=1.0,
        delay_s=2.0,
        latency_ms=200,
        call_deadline_s=2.0,
        near_duplicates=2,
        typos=0.6,
    ),
}


TAG = "noise:"
"""The tag a noisy variant carries: `noise:mild`."""


def noise_profile(scenario: Scenario) -> dict[str, Any] | None:
    """The profile a noisy variant was made with, as results record it; None for a scenario as written."""
    for tag in scenario.tags:
        if tag.startswith(TAG) and tag[len(TAG) :] in PROFILES:
            return PROFILES[tag[len(TAG) :]].describe()
    return None


def profile(name: str) -> Profile:
    """The profile called `name`, or a `ValueError` listing the profiles."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown noise profile {name!r}; profiles are: {', '.join(PROFILES)}") from None


def noisy(scenario: Scenario, name: str, rng_seed: int) -> Scenario:
    """`scenario` under profile `name` for the episode seeded `rng_seed` (the scenario itself for `none`)."""
    from orchestrator.scenario.model import Scenario

    chosen = profile(name)
    if chosen.name == "none":
        return scenario
    data = scenario.model_dump(mode="json", exclude_unset=False)
    rules = [
        {
            "tool": "*",
            "kind": kind,
            "probability": chance,
            "retry_after_s": chosen.retry_after_s,
            "duration_s": chosen.duration_s,
            "delay_s": chosen.delay_s,
            "latency_ms": chosen.latency_ms if kind == "latency" else 0,
            "salt": scenario.id,
        }
        for kind, chance in chosen.faults.items()
        if chance > 0
    ]
    data["faults"] = {
        app: {"rules": [*data.get("faults", {}).get(app, {}).get("rules", []), *rules]} for app in data["apps"]
    }
    if chosen.call_deadline_s is not None:
        data["limits"]["call_deadline_s"] = min(data["limits"]["call_deadline_s"], chosen.call_deadline_s)
    if data["limits"].get("max_tool_calls"):  # room for the retries the faults call for
        limit = data["limits"]["max_tool_calls"]
        data["limits"]["max_tool_calls"] = limit + math.ceil(limit * 2 * sum(chosen.faults.values())) + 2
    for plan in data["faults"].values():  # hangs follow the (new) deadline unless the scenario set them
        for rule in plan["rules"]:
            if rule["kind"] == "timeout" and rule.get("probability") and not rule.get("calls"):
                rule["latency_ms"] = 0
    data["apps"] = noisy_seeds(scenario, data["apps"], chosen, rng_seed)
    data["tags"] = [*data["tags"], f"{TAG}{chosen.name}"]
    out = Scenario.model_validate(data)
    out._path = scenario.path
    return out


def named_in(scenario: Scenario) -> str:
    """Everything the scenario says besides its seed, lower-cased: a name found here is one a check or step may depend on."""
    parts = scenario.model_dump(
        mode="json", include={"instruction", "stages", "forbid", "oracle", "oracles", "relax", "allow"}
    )
    return json.dumps(parts).casefold()


def noisy_seeds(scenario: Scenario, apps: dict[str, Any], chosen: Profile, rng_seed: int) -> dict[str, Any]:
    """The apps' seeds with noisy people: typos in the display names the scenario never names, and near-duplicates
    of some people (another address at the same domain), drawn from `rng_seed`."""
    said = named_in(scenario)
    out = dict(apps)
    for app, tables in PEOPLE.items():
        if app not in apps:
            continue
        seed = dict(apps[app] or {})
        for table, (address, display) in tables.items():
            rows = [dict(r) for r in seed.get(table) or []]
            if not rows:
                continue
            rng = random.Random(f"{rng_seed}/{app}/{table}")
            taken = {str(r.get(address, "")).casefold() for r in rows}
            for row in rows:
                name = str(row.get(display) or "")
                if name and not _said(name, said) and rng.random() < chosen.typos:
                    row[display] = typo(name, rng)
            for original in rng.sample(rows, min(chosen.near_duplicates, len(rows))):
                twin = near_duplicate(original, address, display, taken, rng)
                if twin is not None:
                    taken.add(twin[address].casefold())
                    rows.append(twin)
            seed[table] = rows
        out[app] = seed
    return out


def _said(name: str, said: str) -> bool:
    return any(len(word) > 2 and word.casefold() in said for word in re.findall(r"\w+", name))


def typo(text: str, rng: random.Random) -> str:
    """`text` with one slip in its longest word: two inner letters swapped, or one doubled."""
    words = text.split(" ")
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    if len(word) < 4:
        return text
    i = rng.randrange(1, len(word) - 2)
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    words[longest] = swapped if swapped != word else word[: i + 1] + word[i] + word[i + 1 :]
    return " ".join(words)


def near_duplicate(
    row: dict[str, Any], address: str, display: str, taken: set[str], rng: random.Random
) -> dict[str, Any] | None:
    """Another person who looks like `row`: a typo in the name and another address at the same domain."""
    email = str(row.get(address) or "")
    local, at, domain = email.partition("@")
    if not at:
        return None
    for candidate in (f"{local}.{rng.randrange(2, 9)}", f"{local[:1]}.{local}", f"{local}-old"):
        other = f"{candidate}@{domain}"
        if other.casefold() not in taken:
            twin = {k: v for k, v in row.items() if k in (address, display)}
            twin[address] = other
            name = str(row.get(display) or local)
            twin[display] = typo(name, rng)
            return twin
    return None
