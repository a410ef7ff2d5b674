"""What a message tells each of several recipients about a time: a name right before its time ("Leila 13:00"), a
greeting of several names ("Sam, Priya — ..."), an entry after a sentence ("... BST. Dan: 4pm Tue."), a table
cell whose zone is in another cell, a range with its zone after its end, and a conversion per zone with no name."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.verify.told import _text

CTX = Context({}, {}, timezone="Europe/London", now=datetime(2026, 5, 1, 8, tzinfo=UTC))
AT = "2026-05-14T11:00:00+01:00"  # Thursday 14 May, 11:00 BST: 12:00 Lagos... 14:00 Dubai, 15:30 Kolkata
CLAIMED = {"mentions_time": {"at": AT, "claimed": True}}
PEOPLE = {
    "Leila Nasser": "Asia/Dubai",
    "Chidi Okeke": "Africa/Lagos",
    "Rohan Iyer": "Asia/Kolkata",
    "Wanjiru Kamau": "Africa/Nairobi",
}


def told(body: str, name: str, people: dict[str, str] = PEOPLE) -> str:
    others = {n: z for n, z in people.items() if n != name}
    return _text({"subject": "Regional call", "body": body}, people[name], name, others)


def tells(body: str, name: str, people: dict[str, str] = PEOPLE) -> bool:
    return holds(told(body, name, people), CLAIMED, CTX)


@pytest.mark.parametrize(
    "line",
    [
        "Chidi 11:00, Leila {leila}, Rohan 15:30, Wanjiru 13:00.",
        "Chidi 11:00 · Leila {leila} · Rohan 15:30 · Wanjiru 13:00",
        "Leila {leila}; Chidi 11:00; Rohan 15:30; Wanjiru 13:00.",
        "Chidi: 11:00. Leila: {leila}. Rohan: 15:30. Wanjiru: 13:00.",
    ],
)
def test_a_name_right_before_its_time_is_that_persons_entry(line: str) -> None:
    right = "Regional call: Thu 14 May, 11:00 BST. " + line.format(leila="14:00")
    wrong = "Regional call: Thu 14 May, 11:00 BST. " + line.format(leila="13:00")
    assert tells(right, "Leila Nasser")
    assert not tells(wrong, "Leila Nasser")  # her wrong time is what she is told, whoever is named after it
    assert tells(wrong, "Rohan Iyer") and tells(wrong, "Wanjiru Kamau")


def test_an_entry_with_a_place_after_the_name() -> None:
    body = "Regional call is Thu 14 May, 11:00 BST.\n\n- Rohan (Pune): 15:30\n- Leila (Dubai): 15:00\n"
    assert tells(body, "Rohan Iyer")
    assert not tells(body, "Leila Nasser")


@pytest.mark.parametrize(
    "opening",
    ["Leila, Rohan — ", "Hi Leila, hi Rohan — ", "Leila and Rohan: ", "Hello Leila, hello Rohan, ", "Leila & Rohan — "],
)
def test_names_that_open_a_message_greet_it_and_own_no_time(opening: str) -> None:
    body = opening + "the regional call moves to Thursday 14 May at 11:00 BST. Leila, that's 14:00 for you; Rohan, {}."
    people = {"Leila Nasser": "Asia/Dubai", "Rohan Iyer": "Asia/Kolkata"}
    assert tells(body.format("15:30 in Pune"), "Rohan Iyer", people)
    assert not tells(body.format("16:30 in Pune"), "Rohan Iyer", people)  # the BST time in the opening is not his
    assert tells(body.format("16:30 in Pune"), "Leila Nasser", people)


def test_an_entry_after_a_sentence_is_in_the_persons_zone() -> None:
    body = "Set for Thu 14 May, 11:00 BST. Leila: 2pm. Rohan: 3:30 pm."
    assert tells(body, "Leila Nasser") and tells(body, "Rohan Iyer")
    assert not tells(body.replace("Rohan: 3:30 pm", "Rohan: 4:30 pm"), "Rohan Iyer")


def test_a_time_said_to_be_late_for_you_is_in_their_zone() -> None:
    body = "Thursday 14 May, 11:00 BST. Rohan, I know 15:30 is late for you; Leila, 14:00 works for you I hope."
    assert tells(body, "Rohan Iyer")
    assert not tells(body.replace("15:30", "16:30"), "Rohan Iyer")


def test_a_table_cell_takes_the_zone_of_its_row() -> None:
    body = (
        "Regional call: Thursday 14 May, 11:00 (London).\n\n"
        "| Who | City | Local time |\n|---|---|---|\n"
        "| Chidi | Lagos | 11:00 |\n| Leila | Dubai | 14:00 |\n| Rohan | Mumbai | 16:30 |\n"
    )
    assert tells(body, "Leila Nasser") and tells(body, "Chidi Okeke")
    assert not tells(body, "Rohan Iyer")  # Mumbai is 15:30 then
    assert not tells(body.replace("| 14:00 |", "| 15:00 |"), "Leila Nasser")


def test_a_range_keeps_the_zone_written_after_its_end() -> None:
    body = "Final round, Thu 14 May, 11:00–12:30 BST.\n- Rohan: that's 15:30–17:00 IST for you\n- Leila: 14:00–15:30"
    assert tells(body, "Rohan Iyer") and tells(body, "Leila Nasser")
    slot = {"mentions_time": {"at": AT, "end": "2026-05-14T12:30:00+01:00", "claimed": True}}
    assert holds(told(body, "Rohan Iyer"), slot, CTX)


def test_a_conversion_per_zone_keeps_its_range_and_its_zone() -> None:
    slot = {"mentions_time": {"at": AT, "end": "2026-05-14T13:00:00+01:00", "claimed": True}}
    body = "Shift on Thu 14 May: 10:00–12:00 UTC (Dubai 14:00–16:00, Kolkata 15:30–17:30)."
    for name in ("Leila Nasser", "Rohan Iyer"):
        assert holds(told(body, name), slot, CTX)
    assert not holds(told(body.replace("15:30–17:30", "16:30–18:30"), "Rohan Iyer"), slot, CTX)
    people = {"Sara Cohen": "America/New_York", "Jonas Beck": "Europe/Berlin"}
    listed = "Partner sync: Thursday 14 May, 12:00 CEST (not Wednesday).\n- Sara (NYC): 06:00\n- Jonas: 12:00"
    assert tells(listed, "Sara Cohen", people)
    assert not tells(listed.replace("06:00", "07:00"), "Sara Cohen", people)


def test_an_entry_with_its_day_before_the_time() -> None:
    body = "Regional call: Wed 13 May, 23:00 BST (moved from Tue). Leila: Thu 02:00. Rohan: Thu 03:30."
    at = {"mentions_time": {"at": "2026-05-13T23:00:00+01:00", "claimed": True}}
    assert holds(told(body, "Rohan Iyer"), at, CTX) and holds(told(body, "Leila Nasser"), at, CTX)
    assert not holds(told(body.replace("Thu 03:30", "Thu 04:30"), "Rohan Iyer"), at, CTX)


@pytest.mark.parametrize("sep", [" · ", " | ", "; ", "\n- "])
def test_each_label_owns_its_time_and_someone_elses_is_no_recipients(sep: str) -> None:
    entries = ["Chidi: 11:00 Lagos", "Camille: 12:00 Paris", "Rohan: 15:30 Kolkata"]
    body = "Regional call: Thu 14 May, 11:00 BST.\n" + sep.join(entries)
    people = {"Chidi Okeke": "Africa/Lagos", "Rohan Iyer": "Asia/Kolkata"}  # Camille is not among them
    assert tells(body, "Rohan Iyer", people) and tells(body, "Chidi Okeke", people)
    wrong = body.replace("15:30 Kolkata", "16:30 Kolkata")
    assert not tells(wrong, "Rohan Iyer", people)
    assert tells(body.replace("12:00 Paris", "13:00 Paris"), "Rohan Iyer", people)  # Camille's time is not his


@pytest.mark.parametrize("day", ["", " IST", " (IST)"])
def test_a_time_belongs_to_the_name_it_is_for_after_it(day: str) -> None:
    body = f"Set: Thu 14 May 11:00 BST → that's 14:00 for Leila and 15:30{day} for Rohan. Invite on its way."
    people = {"Leila Nasser": "Asia/Dubai", "Rohan Iyer": "Asia/Kolkata"}
    assert tells(body, "Rohan Iyer", people) and tells(body, "Leila Nasser", people)
    assert not tells(body.replace(f"15:30{day}", f"16:30{day}"), "Rohan Iyer", people)


def test_a_time_in_brackets_in_a_sentence_that_says_for_you_is_in_their_zone() -> None:
    body = "Thu 14 May, 11:00 BST. Leila, 14:00 for you. Rohan, I know it's late for you (15:30), sorry."
    assert tells(body, "Rohan Iyer")
    assert not tells(body.replace("(15:30)", "(16:30)"), "Rohan Iyer")


@pytest.mark.parametrize(
    "aside",
    [
        "The 16:00 slot Chidi suggested would have been 20:00 for Leila, so I went earlier.",
        "Chidi's earlier slot would've been 20:00 for Leila, too late.",
    ],
)
def test_a_time_that_would_have_been_is_not_told(aside: str) -> None:
    body = "Confirming Thursday 14 May at 11:00 BST: Leila, 14:00 for you; Chidi, 11:00 in Lagos.\n\n" + aside
    people = {"Leila Nasser": "Asia/Dubai", "Chidi Okeke": "Africa/Lagos"}
    assert tells(body, "Leila Nasser", people)
    assert not tells(body.replace("14:00 for you", "15:00 for you"), "Leila Nasser", people)
    assert holds(body, CLAIMED, CTX)
    other = "Termin: Donnerstag, 14. Mai, 11:00 Uhr. Falls das nicht passt, wäre Freitag 9 Uhr die Alternative."
    assert not holds(other, {"mentions_time": {"at": "2026-05-15T09:00:00+01:00", "claimed": True}}, CTX)
