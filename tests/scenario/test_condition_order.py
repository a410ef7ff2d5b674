"""A where's conditions in the order they are tried (`by_cost`: plain values first, then those that read a text or
another table) are found once per where, not once per row it is matched against; a where changed since (a condition
added, removed or replaced) is ordered again, so every row is matched against the conditions it holds now."""

from __future__ import annotations

from typing import Any

from orchestrator.scenario import conditions
from orchestrator.scenario.conditions import Context, by_cost, row_matches

CTX = Context({}, {})


def test_a_wheres_order_is_found_once_and_given_again() -> None:
    where: dict[str, Any] = {"body": {"says": "the invoice is late"}, "status": "open"}
    first = by_cost(where)
    assert [c for c, _ in first] == ["status", "body"]
    assert by_cost(where) is first  # kept
    assert by_cost(dict(where)) == first and by_cost(dict(where)) is not first  # another where: its own


def test_a_where_changed_in_place_is_ordered_again_and_matched_as_it_is_now() -> None:
    row = {"status": "open", "body": "the invoice is late", "owner": "ana"}
    where: dict[str, Any] = {"body": {"says": "the invoice is late"}, "status": "open"}
    assert row_matches(row, where, CTX)
    where["status"] = "done"  # a condition replaced
    assert [cond for _, cond in by_cost(where)] == ["done", {"says": "the invoice is late"}]
    assert not row_matches(row, where, CTX)
    where["status"] = "open"
    where["owner"] = "ben"  # a condition added
    assert [c for c, _ in by_cost(where)] == ["status", "owner", "body"] and not row_matches(row, where, CTX)
    del where["owner"], where["body"]  # conditions removed
    assert by_cost(where) == [("status", "open")] and row_matches(row, where, CTX)
    where["body"] = "the invoice is late"  # the same key again, now a plain value
    assert [c for c, _ in by_cost(where)] == ["status", "body"] and row_matches(row, where, CTX)


def test_the_kept_orders_are_bounded() -> None:
    wheres = [{"n": n} for n in range(conditions.MAX_ORDERS + 10)]
    for where in wheres:
        assert by_cost(where) == [("n", where["n"])]
    assert len(conditions._ORDERS) <= conditions.MAX_ORDERS
