"""Threat: a planted row names its role (`fact-doc`, `stale-doc`, `expense-policy-old`, `read-only-2`, a decoy titled
"Expense policy (superseded)" or "Hotel bookings (cancelled)"): a policy trained by RL learns those labels in a few
steps and never reads the content. In edition 3 (the default) planted rows get ids drawn like every other row of the
organization, and decoys differ by content (dates, versions, a later message), not by labels; edition 2 still draws release
v2's tasks, families' own ids and labels included (test_release checks its rows byte for byte)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from orchestrator.generate import drawing
from orchestrator.generate.family import families
from orchestrator.generate.model import ascii_slug
from orchestrator.generate.org_ids import neutral_ids

NUMBERED = {"messages": "msg", "events": "evt", "documents": "doc", "comments": "cmt"}
LABEL = re.compile(
    r"\((?:[^)]*\b(?:superseded|cancell?ed|old|older|archived?|stale|outdated|obsolete|deprecated|invalid)\b[^)]*)\)"
    r"|\b(?:no longer valid|do not use|kept for reference|decoy|distractor|older thread)\b"
    r"|\[(?:old|obsolete|outdated|archived?)\]",
    re.IGNORECASE,
)
"""A label a real workspace would not carry, in a title, subject, name or a text's first lines."""


def rows_of(scenario: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(table, row) of every seeded row and every row a world event adds."""
    for tables in scenario["apps"].values():
        for table, rows in tables.items():
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict):
                    yield table, row
    for event in (scenario.get("world") or {}).get("events") or []:
        for table, rows in (event.get("add") or {}).items():
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict):
                    yield table, row


def telltales(scenario: dict[str, Any]) -> list[str]:
    """What in a scenario's rows gives a row's role away by its form."""
    found = []
    for table, row in rows_of(scenario):
        rid = row.get("id")
        if isinstance(rid, str):
            if table in NUMBERED and not re.fullmatch(rf"{NUMBERED[table]}-\d{{5}}", rid):
                found.append(f"{table} id {rid!r}")
            elif table == "folders" and rid != f"fld-{ascii_slug(str(row.get('name')), '-')}":
                found.append(f"folder id {rid!r} for {row.get('name')!r}")
        for key in ("title", "subject", "name"):
            if isinstance(row.get(key), str) and LABEL.search(row[key]):
                found.append(f"{table} {key} {row[key]!r}")
        for key in ("content", "body", "description"):
            if isinstance(row.get(key), str) and LABEL.search(row[key][:400]):
                found.append(f"{table} {key} {row[key][:80]!r}")
    return found


def draws(count: int, edition: int = 3) -> Iterator[Any]:
    """`count` drawn tasks of an edition, the families in turn, over several run seeds."""
    names = sorted(n for n, cls in families().items() if edition in cls.editions)
    index = 0
    made = 0
    while made < count:
        for name in names:
            task = drawing.draw(families()[name](), 1 + index % 5, "mix", index, edition=edition)
            if task is not None:
                made += 1
                yield task
                if made == count:
                    return
        index += 1


def test_renamed_ids_follow_the_organization_and_every_reference_follows_them() -> None:
    scenario = {
        "id": "lost-send-v2-1-00000",
        "instruction": "Send Ana the venue from the offsite doc (https://docs.test/d/fact-doc).",
        "apps": {
            "docs": {
                "folders": [{"id": "fld-finance", "name": "Finance"}, {"id": "postmortems", "name": "Postmortems"}],
                "documents": [
                    {"id": "doc-00001", "title": "Budget", "folder_id": "fld-finance"},
                    {"id": "fact-doc", "title": "Offsite logistics", "folder_id": "postmortems"},
                    {"id": "stale-doc", "title": "Offsite logistics"},
                ],
            }
        },
        "stages": [{"checks": [{"table": "documents", "where": {"id": "fact-doc"}, "note": "postmortems stay"}]}],
        "oracle": [{"tool": "docs__get_document", "args": {"document_id": "stale-doc"}}],
    }
    out = neutral_ids(scenario, random.Random(1))
    docs = out["apps"]["docs"]["documents"]
    assert sorted(d["id"] for d in docs) == ["doc-00001", "doc-00002", "doc-00003"]
    fact = next(d for d in docs if d["folder_id"] == "fld-postmortems")["id"]
    stale = next(d for d in docs if "folder_id" not in d)["id"]
    budget = next(d for d in docs if d["title"] == "Budget")
    assert budget["folder_id"] == "fld-finance"
    assert out["stages"][0]["checks"][0]["where"] == {"id": fact}
    assert out["stages"][0]["checks"][0]["note"] == "postmortems stay"  # a word is renamed only as a whole value
    assert out["oracle"][0]["args"] == {"document_id": stale}
    assert out["instruction"].endswith(f"/d/{fact}).") and out["id"] == scenario["id"]
    assert telltales(out) == [] and telltales(scenario) != []


DECOYS = ("lost-send", "approve-request", "ask-colleague")
"""The families whose decoys edition 2 labels ('(cancelled)', '(superseded)', '(older thread)')."""


def _with_decoys(name: str, edition: int) -> Any:
    """The first small-organization task of `name` in run seed 1 that plants its decoys (distractors drawn), of an edition."""
    for index in range(60):
        task = drawing.draw(families()[name](), 1, "small", index, edition=edition)
        if task is not None and task.knobs.get("distractors"):
            return task
    raise AssertionError(f"{name}: no task with distractors in 60 draws")


@pytest.mark.parametrize("name", DECOYS)
def test_edition_three_draws_edition_twos_task_with_neutral_ids_and_decoys_told_by_content(name: str) -> None:
    """The same candidate in editions 2 and 3: the same organization, parameters and planted rows, but edition 2's rows
    carry the families' ids and labels (release v2's bytes) and edition 3's carry neither."""
    three = _with_decoys(name, 3)
    two = drawing.draw(families()[name](), 1, "small", three.index, edition=2)
    assert two is not None and two.params == three.params and two.org == three.org
    assert (two.id, three.id) == (f"{name}-v2-1-{three.index:05d}", f"{name}-v3-1-{three.index:05d}")
    assert (two.extra["edition"], three.extra["edition"]) == (2, 3)
    assert telltales(three.scenario) == []
    found = telltales(two.scenario)
    assert any(" id " in t for t in found) and any(LABEL.search(t) for t in found), found
    assert sum(1 for _ in rows_of(two.scenario)) == sum(1 for _ in rows_of(three.scenario))


@pytest.mark.slow
def test_three_hundred_drawn_tasks_plant_no_id_or_title_that_tells_a_rows_role() -> None:
    """Every edition-3 family in turn, over five run seeds and the size mix (about a dozen tasks of each family)."""
    bad: dict[str, list[str]] = {}
    seen = 0
    for task in draws(300):
        seen += 1
        if found := telltales(task.scenario):
            bad[task.id] = found
    assert seen == 300
    assert bad == {}, "\n".join(f"{k}: {v[:4]}" for k, v in list(bad.items())[:30])


ROLE_WORDS = frozenset(
    {
        "old",
        "older",
        "prev",
        "previous",
        "stale",
        "superseded",
        "outdated",
        "obsolete",
        "decoy",
        "distractor",
        "upsell",
        "promo",
        "spam",
        "personal",
        "nl",
        "fake",
        "wrong",
        "trap",
        "target",
        "planted",
    }
)
"""Words that make an id a label of the row's role in the task, not a name of what it is."""


def test_the_library_scenarios_name_rows_by_what_they_are_not_by_their_role() -> None:
    """The library's rows are named by hand, by what they are (`receipt-taxi`, `offsite-2025`): never by the part
    they play (`receipt-old-taxi`, `hotel-upsell`, `personal-dinner`), nor titled with a label."""
    import yaml
    from helpers import SCENARIOS

    found = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        scenario = yaml.safe_load(path.read_text())
        for table, row in rows_of(scenario):
            rid = row.get("id")
            if isinstance(rid, str) and ROLE_WORDS & set(rid.lower().split("-")):
                found.append(f"{path.name}: {table} id {rid!r}")
        found += [f"{path.name}: {t}" for t in telltales(scenario) if " id " not in t]
    assert found == []
