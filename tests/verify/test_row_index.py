"""Row checks looked up by their wheres' plain equalities (`orchestrator.scenario.row_index`) give the verdicts that
matching every row gives: on a generated organization of medium size (hundreds of tickets, messages and documents,
thousands of busy times), its seeded state and a final state changed in its real SQLite sandboxes, for checks drawn
on its own rows (keys, one_of, plain values, booleans as numbers, date-times, missing values, references, roles)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import orchestrator.generate.families  # noqa: F401 - the family modules, before the registry is read
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.scenario import model as scenarios
from orchestrator.scenario.checks import RowCheck
from orchestrator.scenario.conditions import Context, _as_instant, row_matches
from orchestrator.scenario.row_index import RowIndex, exact
from orchestrator.verify import verdict
from orchestrator.verify.tables import discarded, table_keys
from servers import registry
from servers.core.sandbox import Sandbox

TABLES = [
    ("tickets", "tickets"),
    ("tickets", "comments"),
    ("tickets", "users"),
    ("mail", "messages"),
    ("docs", "documents"),
    ("calendar", "events"),
    ("calendar", "busy"),
]
"""The organization's tables the checks are drawn on (each of many rows but `users`)."""


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[scenarios.Scenario, dict[str, Any], dict[str, Any]]]:
    """A medium organization's scenario, its seeded state and a final state: rows changed, added and thrown away in
    the apps' sandboxes, each state the sandboxes' own snapshot."""
    task = draw(families()["offboard-handover"](), 5, "medium", 0, None, edition=2)
    assert task is not None
    scenario = scenarios.load_data(task.scenario)
    boxes = {
        app: Sandbox.create(registry.load(app), "index", scenario.sandbox_spec(app, rng_seed=0))
        for app in scenario.apps
    }
    try:
        seeded = {app: box.snapshot() for app, box in boxes.items()}
        _change(boxes, seeded, random.Random(39))
        final = {app: box.snapshot() for app, box in boxes.items()}
        yield scenario, seeded, final
    finally:
        for box in boxes.values():
            box.close()


def _change(boxes: dict[str, Sandbox], seeded: dict[str, Any], rng: random.Random) -> None:
    """Some tickets moved on, messages archived and trashed, copies of seeded rows added under new keys."""
    tickets, mail = boxes["tickets"], boxes["mail"]
    for row in rng.sample(seeded["tickets"]["tickets"], 40):
        tickets.update("tickets", row["key"], {"status": rng.choice(["done", "in_progress"])})
    for n, row in enumerate(rng.sample(seeded["tickets"]["tickets"], 5)):
        tickets.insert("tickets", {**row, "key": f"{row['project']}-{9000 + n}"})
    messages = rng.sample(seeded["mail"]["messages"], 30)
    for row in messages[:20]:
        mail.update("messages", row["id"], {"folder": rng.choice(["archive", "trash"])})
    for n, row in enumerate(messages[20:]):
        mail.insert("messages", {**row, "id": f"added-{n}", "folder": rng.choice(["sent", "trash"])})
    for row in rng.sample(seeded["docs"]["documents"], 10):
        boxes["docs"].update("documents", row["id"], {"title": row["title"] + " (v2)"})


def _where(rng: random.Random, state: dict[str, Any], app: str, table: str, key: str) -> dict[str, Any]:
    """A where on `app.table` of one of the kinds checks write, drawn from the rows' own values in `state`."""
    rows = state[app][table]
    row = rng.choice(rows)
    scalars = [c for c, v in row.items() if v is None or isinstance(v, str | int | float)]
    column = rng.choice(scalars)
    other = rng.choice(rows)
    kind = rng.randrange(9)
    if kind == 0:
        return {key: row[key]}
    if kind == 1:
        return {key: {"one_of": [row[key], other[key], "no-such-key"]}, column: row[column]}
    if kind == 2:  # a plain value, often shared by many rows (a status, a folder, a boolean, null)
        return {column: row[column]}
    if kind == 3:  # booleans and whole numbers written as other numbers
        value = row[column]
        return {column: int(value) if isinstance(value, bool) else value, key: {"not_equals": other[key]}}
    if kind == 4:  # a date-time written at another offset: equal as an instant, so looked up by scanning
        timed = [c for c, v in row.items() if isinstance(v, str) and _as_instant(v) is not None]
        if timed:
            when = datetime.fromisoformat(row[timed[0]]).astimezone(UTC).isoformat()
            return {timed[0]: {"equals": when}}
        return {column: {"equals": row[column]}}
    if kind == 5:  # a column some rows lack (null), beside a text condition
        return {"no_such_column": None, column: {"icontains": str(row[column])[:3]}}
    if kind == 6:  # no row has it: the closest row is looked for among all
        return {key: "no-such-key", column: row[column]}
    if kind == 7:  # a reference, read through an equality on its table: a ticket's assignee, a user
        if table == "users":
            ticket = rng.choice(state["tickets"]["tickets"])
            ref = {"app": "tickets", "table": "tickets", "where": {"key": ticket["key"]}, "field": "assignee"}
        else:
            ref = {
                "app": "tickets",
                "table": "users",
                "where": {"email": rng.choice(state["tickets"]["users"])["email"]},
                "field": "email",
            }
        return {column: {"equals": {"from": ref}}}
    return {column: {"one_of": [row[column], other[column]]}, "any": [{key: row[key]}, {key: other[key]}]}


def _checks(scenario: scenarios.Scenario, seeded: dict[str, Any], rng: random.Random) -> list[RowCheck]:
    keys = table_keys(scenario)
    checks = []
    for app, table in TABLES:
        for _ in range(20):
            expect = rng.choice(
                [None, "none", {"count": 1}, {"min": 2}, {"all": {keys[(app, table)]: {"exists": True}}}]
            )
            checks.append(
                RowCheck.model_validate(
                    {
                        "app": app,
                        "table": table,
                        "added": rng.choice([None, None, True, False]),
                        "where": _where(rng, seeded, app, table, keys[(app, table)]),
                        **({"expect": expect} if expect is not None else {}),
                    }
                )
            )
    return checks


def _contexts(
    scenario: scenarios.Scenario, seeded: dict[str, Any], final: dict[str, Any], index: bool
) -> list[Context]:
    keys = table_keys(scenario)
    seeded_keys = {
        (app, t): {r[keys[(app, t)]] for r in rows} for app, tables in seeded.items() for t, rows in tables.items()
    }
    return [
        Context(state, keys, seeded=seeded_keys, discarded=discarded, index=RowIndex() if index else None)
        for state in (seeded, final)
    ]


def test_row_checks_by_index_are_row_checks_by_scan(
    world: tuple[scenarios.Scenario, dict[str, Any], dict[str, Any]],
) -> None:
    scenario, seeded, final = world
    keys = table_keys(scenario)
    checks = _checks(scenario, seeded, random.Random(7))
    indexed, scanned = _contexts(scenario, seeded, final, True), _contexts(scenario, seeded, final, False)
    fewer = passed = 0
    for n, check in enumerate(checks):
        for by_index, by_scan in zip(indexed, scanned, strict=True):
            for explain in (True, False):
                a = verdict._row_check(check, f"c{n}", "s", by_index.for_app(check.app), keys, explain)
                b = verdict._row_check(check, f"c{n}", "s", by_scan.for_app(check.app), keys, explain)
                assert a.model_dump() == b.model_dump(), (check, explain)
                passed += a.passed
        pool = indexed[1].candidates(check.app, check.table, check.where)
        if pool is not None:  # a superset of the matches, in the table's order
            everything = final[check.app][check.table]
            ctx = indexed[1].for_app(check.app)
            matches = [r for r in everything if row_matches(r, check.where, ctx, check.table)]
            assert [r for r in pool if row_matches(r, check.where, ctx, check.table)] == matches
            fewer += len(pool) < len(everything)
    assert fewer >= len(checks) // 2 and 0 < passed < 4 * len(checks)  # not vacuous: lookups, passes, failures


def test_verdicts_by_index_are_verdicts_by_scan(
    world: tuple[scenarios.Scenario, dict[str, Any], dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole verdicts of the scenario with the drawn checks as a stage: the same results, byte for byte."""
    scenario, seeded, final = world
    stage = scenario.stages[0].model_copy(update={"checks": _checks(scenario, seeded, random.Random(11))})
    scenario = scenario.model_copy(update={"stages": [*scenario.stages, stage]})
    by_index = verdict.verify(scenario, seeded, final, []).model_dump_json()
    monkeypatch.setattr(verdict, "RowIndex", lambda: None)
    assert verdict.verify(scenario, seeded, final, []).model_dump_json() == by_index


def test_only_values_no_other_value_equals_are_looked_up() -> None:
    """`exact` values are those `_equal` finds equal only to `==` ones: no date-time with an offset, no float, no
    integer past a float's exact ones."""
    for text in [
        "open",
        "2026-03-04T10:00:00+01:00",
        "2026-03-04 10:00:00Z",
        "2026-03-04T10:00:00",
        "2026-03-04",
        "T" * 20,
    ]:
        assert exact(text) == (_as_instant(text) is None), text
    assert exact(True) and exact(None) and exact(3) and exact(-(2**52))
    assert not exact(2**53) and not exact(1.0) and not exact([1]) and not exact({"from": {}})
