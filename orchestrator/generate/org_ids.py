"""Neutral ids: the rows a task plants get ids drawn like every other row of its organization.

A family names the rows it plants for its own reading (`fact-doc`, `stale-doc`, `expense-policy-old`, `read-only-2`,
`the-meeting`); an agent sees those ids in every listing, and a policy trained by RL learns in a few steps that the
row called `stale-doc` is the one to leave alone. `neutral_ids` renames them after the task is built: every row of a
table that the organization numbers (`doc-00007`) is numbered again in a random order drawn from the task's own seed, planted
rows and the organization's alike (so neither the form nor the number of an id tells a planted row: it is not the last one);
a folder is named from its name, as the organization's are (`fld-postmortems`). Every reference to a renamed id (checks,
forbids, the reference solution, world events, other rows, links in text) is renamed with it.

May import `orchestrator.generate.model` only (the slug the organization names folders with).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from orchestrator.generate.model import ascii_slug

NUMBERED = re.compile(r"^([a-z]+)-(\d{5})$")
"""The form of the organization's own row ids: a table's prefix and a five-digit number."""
PREFIXES = {"events": "evt", "messages": "msg", "documents": "doc", "comments": "cmt", "folders": "fld"}
"""A table's prefix when its organization rows are not numbered (or it has none): what the organization would use."""
SLUGGED = {"folders": "fld"}
"""Tables whose organization ids are their names' slugs after a prefix."""
TOP_LEVEL_KEPT = ("id",)
"""Keys of the scenario left as they are (the task's own id is not a row's)."""


def _tables(scenario: dict[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(app, table) -> rows, the seeded ones and those world events add later."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for app, tables in (scenario.get("apps") or {}).items():
        for table, rows in (tables or {}).items() if isinstance(tables, dict) else ():
            if isinstance(rows, list):
                found.setdefault((app, table), []).extend(r for r in rows if isinstance(r, dict))
    for event in (scenario.get("world") or {}).get("events") or []:
        if isinstance(event, dict) and isinstance(event.get("add"), dict):
            for table, rows in event["add"].items():
                if isinstance(rows, list):
                    found.setdefault((event.get("app", ""), table), []).extend(r for r in rows if isinstance(r, dict))
    return found


def renames(scenario: dict[str, Any], rng: random.Random) -> dict[str, str]:
    """Old id -> new id for every row whose id is not drawn like the organization's (and every row of a numbered table)."""
    mapping: dict[str, str] = {}
    for (_, table), rows in sorted(_tables(scenario).items()):
        ids = list(dict.fromkeys(r["id"] for r in rows if isinstance(r.get("id"), str)))
        if not ids:
            continue
        if table in SLUGGED:
            prefix = SLUGGED[table]
            for row in rows:
                old, name = row.get("id"), row.get("name")
                if isinstance(old, str) and isinstance(name, str) and not old.startswith(f"{prefix}-"):
                    mapping[old] = f"{prefix}-{ascii_slug(name, '-')}"
            continue
        prefixes = Counter(m.group(1) for i in ids if (m := NUMBERED.match(i)))
        if prefixes:
            prefix = prefixes.most_common(1)[0][0]
        elif table in PREFIXES:
            prefix = PREFIXES[table]
        else:
            continue  # a table the organization does not number (people, busy, labels …): nothing to draw like
        numbers = rng.sample(range(1, len(ids) + 1), len(ids))
        for old, number in zip(ids, numbers, strict=True):
            new = f"{prefix}-{number:05d}"
            if new != old:
                mapping[old] = new
    return mapping


def _renamer(mapping: dict[str, str]) -> Any:
    # Inside longer text only ids that cannot be ordinary words (a '-' or a digit in them): `postmortems` is renamed
    # where it is a whole value, never inside a sentence.
    inner = sorted((old for old in mapping if re.search(r"[-\d]", old)), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, inner)) + r")(?![\w-])") if inner else None

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            if value in mapping:
                return mapping[value]
            return pattern.sub(lambda m: mapping[m.group(1)], value) if pattern else value
        if isinstance(value, list):
            return [rename(v) for v in value]
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        return value

    return rename


def neutral_ids(scenario: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`scenario` (a scenario file's data) with its rows' ids drawn like the organization's, every reference renamed."""
    mapping = renames(scenario, rng)
    if not mapping:
        return scenario
    rename = _renamer(mapping)
    return {key: value if key in TOP_LEVEL_KEPT else rename(value) for key, value in scenario.items()}
