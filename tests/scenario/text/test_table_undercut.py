"""An undercut whose subject is something of the plan's own (a flight, a ticket, a booking) takes back only itself:
a travel table's row "| Mon 30 Mar | fly in (flight TBD) | fly in |" still gives its day; one that names a date
or time, or none, takes back the row's values as before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/London", now=datetime(2026, 3, 10, 8, tzinfo=UTC))


def table(cell: str, people: tuple[str, ...] = ("Carlos", "Fernando", "Glenn")) -> str:
    head = "| Day | " + " | ".join(people) + " |\n|" + "---|" * (len(people) + 1) + "\n"
    rows = [
        f"| Mon 30 Mar | {cell} | " + " | ".join(["fly in"] * (len(people) - 1)) + " |",
        "| Tue 31 Mar | " + " | ".join(["offsite"] * len(people)) + " |",
        "| Wed 1 Apr | " + " | ".join(["offsite"] * len(people)) + " |",
        "| Thu 2 Apr | " + " | ".join(["fly back"] * len(people)) + " |",
    ]
    return "# Offsite, 31 March - 1 April\n\n" + head + "\n".join(rows) + "\n"


def says(text: str, day: str) -> bool:
    return holds(text, {"mentions_date": {"date": day, "claimed": True}}, CTX)


@pytest.mark.parametrize(
    "cell",
    ["fly in (flight TBD)", "fly in (tickets TBC)", "fly in, booking pending", "fly in (seat numbers TBC)"],
)
def test_a_row_whose_cell_undercuts_its_own_thing_still_gives_its_day(cell: str) -> None:
    assert says(table(cell), "2026-03-30")
    assert says(table(cell, ("Aiko", "Ben")), "2026-03-30")
    assert says(table(cell), "2026-04-02")


@pytest.mark.parametrize("cell", ["fly in (date TBD)", "fly in (TBC)", "fly in - day not confirmed"])
def test_a_row_whose_cell_undercuts_the_day_does_not_give_it(cell: str) -> None:
    assert not says(table(cell), "2026-03-30")
