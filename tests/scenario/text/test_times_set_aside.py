"""A time a text mentions only to set it aside is not one it suggests: said to clash or to find someone busy (in
English or another language the readers know), in a table row saying the slot does not work, struck through, or
only in the original a reply quotes. A time of someone's other commitment ("we both have something from 12:00")
does not compete with the time the text states."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.parse import read
from orchestrator.scenario.text.times import find_times

CTX = Context({}, {}, timezone="Europe/Lisbon", now=datetime(2026, 6, 4, 9, 15, tzinfo=ZoneInfo("Europe/Lisbon")))
ASIDE = "2026-06-08T15:30:00+01:00"  # the time each text sets aside (Monday 8 June, 15:30 Lisbon)
BOOKED = "2026-06-08T10:00:00+01:00"  # the time each text states


def suggests(text: str, at: str = ASIDE) -> bool:
    """Whether the text gives `at` as the meeting's time (as a check for a ruled-out suggestion reads it)."""
    return holds(text, {"mentions_time": {"at": at, "strict": False, "claimed": True}}, CTX)


@pytest.mark.parametrize(
    "text",
    [
        "Hi Tom,\n\nThe 15:30 you proposed clashes, so I went for the morning:\n\n"
        "| | Tom | Ines |\n|---|---|---|\n| Mon 8 Jun | 10:00-10:30 | 10:00-10:30 |\n\nDana",
        "Hi Tom, 15:30 would conflict with the board prep, so it's Monday 8 June at 10:00 instead.",
        "Monday 8 June, 10:00-10:30 is booked. At 15:30 you're already busy with the vendor call.",
        "| Slot | Status |\n|---|---|\n| Mon 8 Jun 15:30 | not possible (Ines away) |\n| Mon 8 Jun 10:00 | booked |",
        "| Day | Time | Note |\n|---|---|---|\n| Mon 8 Jun | 15:30 | ✗ doesn't work for Ines |\n"
        "| Mon 8 Jun | 10:00 | ✅ booked |",
        "Ingepland: maandag 8 juni 10:00-10:30. Om 15:30 zat Ines al vast.",
        "Staat erin: maandag 8 juni om 10:00. 15:30 lukt helaas niet voor Ines.",
        "Eingetragen: Montag, 8. Juni, 10:00 Uhr. 15:30 geht leider nicht, da ist Ines belegt.",
        "C'est réservé : lundi 8 juin à 10:00. 15:30 ne convient pas à Ines.",
        "Reservado: lunes 8 de junio a las 10:00. Las 15:30 no le va a Ines.",
        "Booked Monday 8 June ~~15:30~~ 10:00-10:30 with Ines.",
        "Booked Monday 8 June, 10:00-10:30.\n\nDana\n\nLe jeu. 4 juin 2026 à 08:50, Tom <tom@x.test> a écrit :\n"
        "Lundi 8 juin à 15:30, ça me va.",
        "Booked Monday 8 June, 10:00-10:30.\n\nDana\n\nAm Do., 4. Juni 2026 um 08:50 schrieb Tom <tom@x.test>:\n"
        "Montag, 8. Juni um 15:30 passt mir.",
    ],
)
def test_a_time_set_aside_is_no_suggestion(text: str) -> None:
    assert not suggests(text)
    assert suggests(text, BOOKED)


@pytest.mark.parametrize(
    "row",
    [
        "| Mon 8 Jun | 15:30 | ✗ doesn't work for Ines |",
        "| Mon 8 Jun 15:30 | not possible (Ines away) |",
        "| Mon 8 Jun 15:30 | clashes with the board prep |",
        "| Mon 8 Jun | 15:30 | 🚫 Ines is away |",
    ],
)
def test_a_table_row_saying_its_slot_does_not_work_sets_its_time_aside(row: str) -> None:
    table = f"| Day | Time | Note |\n|---|---|---|\n{row}\n| Mon 8 Jun | 10:00 | ✅ booked |"
    if row.count("|") == 3:
        table = f"| Slot | Status |\n|---|---|\n{row}\n| Mon 8 Jun 10:00 | booked |"
    found = {m.text: m.set_aside for m in find_times(read(table), CTX.now.date())}
    assert found == {"15:30": True, "10:00": False}


@pytest.mark.parametrize(
    "text",
    [
        "Tom, 15:30 on Monday 8 June works for everyone: booked.",
        "| Day | Time | Note |\n|---|---|---|\n| Mon 8 Jun | 15:30 | ✅ no clashes |",
        "Booked Monday 8 June at 15:30; it doesn't clash with anything.",
    ],
)
def test_a_time_kept_is_still_read(text: str) -> None:
    assert suggests(text)


@pytest.mark.parametrize(
    "text",
    [
        "Booked: Monday 8 June, 10:00-10:30, with Ines. 10:30 was too late (you and I both have something from "
        "11:00), so I took the slot before.",
        "Booked Monday 8 June at 10:00 (Ines has stuff on from 11:00, so we keep it short).",
        "Monday 8 June, 10:00-10:30 it is; we have plans from 12:00 so it can't run over.",
    ],
)
def test_a_time_of_another_commitment_does_not_compete(text: str) -> None:
    assert holds(text, {"mentions_time": {"at": BOOKED, "claimed": True}}, CTX)
