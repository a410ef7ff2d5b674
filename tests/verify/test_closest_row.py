"""The closest row a failing check names: the first row with the fewest failed conditions, found without wording
every row's failures and with the text conditions tried last."""

from __future__ import annotations

import random
from typing import Any

from orchestrator.scenario.conditions import Context, by_cost, failure_count, failures
from orchestrator.verify.verdict import _closest

CTX = Context({}, {})

WHERE: dict[str, Any] = {
    "status": "open",
    "owner": {"one_of": ["ana", "ben"]},
    "body": {"contains": "invoice"},
    "priority": {"gte": 2},
    "title": {"says": "quarterly review"},
}
"""Plain conditions and conditions that read a text, in a mixed written order."""


def _row(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "id": f"r{n}",
        "status": rng.choice(["open", "done"]),
        "owner": rng.choice(["ana", "ben", "cy"]),
        "body": rng.choice(["the invoice is late", "nothing here", "Invoice attached"]),
        "priority": rng.randint(0, 3),
        "title": rng.choice(["Quarterly review", "Weekly sync", "quarterly review prep"]),
    }


def test_the_closest_row_is_min_by_the_number_of_worded_failures() -> None:
    rng = random.Random(7)
    for trial in range(300):
        rows = [_row(rng, n) for n in range(rng.randint(1, 12))]
        rows = [r for r in rows if failures(r, WHERE, CTX)] or [{"id": "none", "status": "done"}]
        expected = min(rows, key=lambda r: len(failures(r, WHERE, CTX)))
        assert _closest(rows, WHERE, CTX, "tickets") is expected, trial


def test_a_count_stops_at_its_bound_and_text_conditions_come_last() -> None:
    row = {"status": "done", "owner": "cy", "body": "x", "priority": 0, "title": "y"}
    assert failure_count(row, WHERE, CTX) == len(failures(row, WHERE, CTX)) == 5
    assert failure_count(row, WHERE, CTX, stop=2) == 2
    order = [column for column, _ in by_cost(WHERE)]
    assert order == ["status", "owner", "body", "priority", "title"]  # `says` reads the text: last
