"""Seeded times are compared as instants: across the autumn change of clocks (Berlin, 25 October 2026, 03:00 CEST
back to 02:00 CET) a later instant can show an earlier wall time ("02:34+01:00" is 51 minutes after "02:43+02:00"),
and the seed must not refuse it; an instant that is really earlier is still refused."""

from __future__ import annotations

import pytest

from servers.calendar import APP as CALENDAR
from servers.core import SandboxSpec, SandboxStore, SeedError
from servers.docs import APP as DOCS
from servers.tickets import APP as TICKETS

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
SUMMER, WINTER = "2026-10-25T02:43:00+02:00", "2026-10-25T02:34:00+01:00"  # 00:43Z, then 01:34Z


def _seed(app, seed: dict) -> dict:
    store = SandboxStore(app)
    try:
        return store.create("x", SandboxSpec(seed=seed, persona=PERSONA)).snapshot()
    finally:
        store.close()


def _ticket(created: str, updated: str) -> dict:
    return {
        "projects": [{"key": "OPS", "name": "Ops"}],
        "tickets": [{"project": "OPS", "title": "x", "created_at": created, "updated_at": updated}],
    }


def _doc(created: str, updated: str) -> dict:
    return {"documents": [{"title": "x", "content": "y", "created_at": created, "updated_at": updated}]}


def _event(start: str, end: str) -> dict:
    return {"events": [{"title": "x", "start": start, "end": end}]}


@pytest.mark.parametrize(
    ("app", "make", "message"),
    [
        (TICKETS, _ticket, "updated_at cannot be before created_at"),
        (DOCS, _doc, "updated_at cannot be before created_at"),
        (CALENDAR, _event, "end must be after start"),
    ],
)
def test_a_later_instant_with_an_earlier_wall_time_is_accepted(app, make, message: str) -> None:
    assert _seed(app, make(SUMMER, WINTER))
    with pytest.raises(SeedError) as caught:
        _seed(app, make(WINTER, SUMMER))  # 01:34Z, then 00:43Z: really earlier
    assert message in str(caught.value)
