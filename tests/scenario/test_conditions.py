"""Every field operator of the check language, and the static checking of `where` clauses."""

from __future__ import annotations

import pytest

from orchestrator.scenario.condition_checks import check_where
from orchestrator.scenario.conditions import Context, describe_where, failures, holds, row_matches

CTX = Context(
    {
        "docs": {"documents": [{"id": "d1", "title": "Berlin itinerary", "url": "https://docs.example.test/d/d1"}]},
        "tickets": {"comments": [{"id": "c1", "ticket_key": "OPS-1", "body": "approved"}]},
    },
    {("docs", "documents"): "id", ("tickets", "tickets"): "key", ("tickets", "comments"): "id"},
)


@pytest.mark.parametrize(
    ("value", "condition", "expected"),
    [
        ("Berlin", "Berlin", True),
        ("Berlin", "berlin", False),
        ("Berlin", {"equals": "Berlin"}, True),
        ("Berlin", {"not_equals": "Paris"}, True),
        ("Berlin", {"not_equals": "Berlin"}, False),
        ("Trip to Berlin", {"contains": "Berlin"}, True),
        ("Trip to Berlin", {"contains": "berlin"}, False),
        ("Trip to Berlin", {"icontains": "BERLIN"}, True),
        ("Trip to Berlin", {"not_icontains": "paris"}, True),
        ("Trip to Berlin", {"not_contains": "Berlin"}, False),
        (["a@x.test", "b@x.test"], {"contains": "b@x.test"}, True),
        (["a@x.test", "b@x.test"], {"not_contains": "c@x.test"}, True),
        (["A@x.test"], {"icontains": "a@x"}, True),
        ("high", {"one_of": ["high", "highest"]}, True),
        ("low", {"one_of": ["high", "highest"]}, False),
        ("low", {"not_one_of": ["high", "highest"]}, True),
        (5, {"gt": 3}, True),
        (5, {"gte": 5}, True),
        (5, {"lt": 5}, False),
        (5, {"lte": 5}, True),
        ("2026-03-10T10:00:00+01:00", {"gt": "2026-03-10T08:30:00Z"}, True),
        ("2026-03-10T10:00:00+01:00", {"lt": "2026-03-10T08:30:00Z"}, False),
        ("2026-03-12", {"gte": "2026-03-10"}, True),
        ("2026-03-10T10:00:00+01:00", "2026-03-10T09:00:00Z", True),  # same instant, other offset
        ("2026-03-10T10:00:00+01:00", {"one_of": ["2026-03-10T09:00:00+00:00"]}, True),
        ("2026-03-10T23:30:00+01:00", {"same_date": "2026-03-10"}, True),
        ("2026-03-10", {"same_date": "2026-03-10"}, True),
        ("2026-03-11T00:30:00+01:00", {"same_date": "2026-03-10"}, False),
        (
            "2026-03-10T10:00:00+01:00",
            {"within": {"start": "2026-03-10T09:00:00+01:00", "end": "2026-03-10T11:00:00+01:00"}},
            True,
        ),
        (
            "2026-03-10T12:00:00+01:00",
            {"within": {"start": "2026-03-10T09:00:00+01:00", "end": "2026-03-10T11:00:00+01:00"}},
            False,
        ),
        ("OPS-12", {"regex": r"^OPS-\d+$"}, True),
        ("ops-12", {"regex": r"^OPS-\d+$"}, False),
        ([{"email": "p@x.test", "role": "editor"}], {"has": {"email": "p@x.test", "role": "editor"}}, True),
        ([{"email": "p@x.test", "role": "viewer"}], {"has": {"email": "p@x.test", "role": "editor"}}, False),
        (
            [{"email": "p@x.test", "role": "viewer"}],
            {"has": {"email": {"icontains": "P@X"}, "role": {"one_of": ["viewer"]}}},
            True,
        ),
        (["travel", "berlin"], {"has": {"icontains": "TRAV"}}, True),
        (None, {"exists": False}, True),
        ("x", {"exists": True}, True),
        ("", {"empty": True}, True),
        ([], {"empty": True}, True),
        (["a"], {"empty": False}, True),
        (["a", "b"], {"length": 2}, True),
        (["a", "b"], {"length": {"gte": 3}}, False),
        ("Berlin", {"not": {"icontains": "paris"}}, True),
        ("Berlin", {"icontains": "ber", "not_icontains": "lin"}, False),  # every operator must hold
        (
            "see https://docs.example.test/d/d1",
            {
                "contains": {
                    "from": {
                        "app": "docs",
                        "table": "documents",
                        "where": {"title": {"icontains": "itinerary"}},
                        "field": "url",
                    }
                }
            },
            True,
        ),
        (
            "see https://docs.example.test/d/d2",
            {"contains": {"from": {"app": "docs", "table": "documents", "field": "url"}}},
            False,
        ),
        (None, {"contains": "x"}, False),
        (3, {"gt": "2026-03-10"}, False),
    ],
)
def test_operator(value: object, condition: object, expected: bool) -> None:
    assert holds(value, condition, CTX) is expected


def test_related_rows_follow_a_foreign_key() -> None:
    ticket = {"key": "OPS-1", "title": "Travel approval"}
    ctx = CTX.for_app("tickets")
    where = {"related": {"table": "comments", "on": "ticket_key", "where": {"body": {"icontains": "APPROVED"}}}}
    assert row_matches(ticket, where, ctx, "tickets")
    assert not row_matches({"key": "OPS-2"}, where, ctx, "tickets")


def test_failures_say_what_was_expected_and_found() -> None:
    row = {"title": "Standup", "all_day": False}
    assert failures(row, {"title": {"icontains": "berlin"}, "all_day": False}, CTX) == [
        "title: expected contains (any case) 'berlin', found 'Standup'"
    ]
    assert describe_where({"title": {"icontains": "berlin"}, "all_day": True}) == (
        "title contains (any case) 'berlin', all_day = True"
    )


def test_static_checks_catch_unknown_columns_operators_and_bad_operands() -> None:
    columns = {"title": None, "start": None, "attendees": None}

    def tables(app: str, table: str):
        return {"url": None, "title": None} if (app, table) == ("docs", "documents") else None

    problems = check_where(
        {
            "titel": "x",
            "title": {"icontans": "x"},
            "start": {"same_date": "next week", "within": {"start": "2026-03-10"}},
            "attendees": {"has": {"email": {"regex": "("}}},
        },
        ("stages", 0, "checks", 0, "where"),
        columns,
        tables,
    )
    messages = {(p.path[-1], p.message.split(";")[0].split(":")[0]) for p in problems}
    assert ("titel", "unknown column 'titel'") in messages
    assert ("icontans", "unknown operator 'icontans'") in messages
    assert ("same_date", "expected a date such as 2026-03-10, found 'next week'") in messages
    assert ("within", "expected {start") in messages
    assert ("regex", "invalid regular expression") in messages
    bad_ref = check_where(
        {"title": {"contains": {"from": {"app": "docs", "table": "documents", "field": "link"}}}}, (), columns, tables
    )
    assert [p.message for p in bad_ref] == ["unknown column 'link' in docs.documents"]


def test_related_accepts_a_bare_yaml_on_key_and_dates_compare_at_load_time() -> None:
    import yaml

    where = yaml.safe_load("related: {table: comments, on: ticket_key, where: {body: {icontains: approved}}}")
    assert True in where["related"]  # YAML 1.1 reads `on` as true
    assert row_matches({"key": "OPS-1"}, where, CTX.for_app("tickets"), "tickets")
    columns = {"key": None, "due_date": None}

    def tables(app: str, table: str):
        return {"ticket_key": None, "body": None} if table == "comments" else None

    assert check_where(where, (), columns, tables) == []
    assert check_where({"due_date": {"lte": "2026-03-06"}}, (), columns, tables) == []


def test_any_accepts_one_of_several_where_clauses() -> None:
    where = {"folder": "sent", "any": [{"to": {"contains": "x@a.test"}}, {"cc": {"contains": "x@a.test"}}]}
    assert row_matches({"folder": "sent", "to": [], "cc": ["x@a.test"]}, where, CTX)
    assert not row_matches({"folder": "sent", "to": ["y@a.test"], "cc": []}, where, CTX)
    assert describe_where(where) == ("folder = 'sent', either (to contains 'x@a.test') or (cc contains 'x@a.test')")
    columns = {"folder": None, "to": None, "cc": None}
    assert check_where(where, (), columns, lambda a, t: None) == []
    problems = check_where({"any": [{"bcc_list": "x"}]}, ("where",), columns, lambda a, t: None)
    assert [p.path for p in problems] == [("where", "any", 0, "bcc_list")]
    assert check_where({"any": "to"}, (), columns, lambda a, t: None)[0].message.startswith("expected a list")
