"""A slot's end: a length written in words or in another language ("twenty minutes", "una hora", "anderhalf uur"),
and a range that ends after midnight ("23:00–00:30", a night shift "19:30–07:30") ending on the next day."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/Madrid", now=datetime(2026, 3, 2, 8, tzinfo=UTC))
AT = "2026-03-05T16:30:00+01:00"


def slot(minutes: int) -> dict[str, object]:
    hours, mins = divmod(16 * 60 + 30 + minutes, 60)
    return {"mentions_time": {"at": AT, "end": f"2026-03-05T{hours:02d}:{mins:02d}:00+01:00", "claimed": True}}


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("Thursday 5 March at 16:30, it'll only take twenty minutes.", 20),
        ("Thursday 5 March at 16:30 — thirty minutes max.", 30),
        ("La entrevista será el jueves 5 de marzo a las 16:30, con una duración de 45 minutos.", 45),
        ("Reunión: jueves 5 de marzo, 16:30. Una hora.", 60),
        ("Reunión: jueves 5 de marzo, 16:30 (dos horas).", 120),
        ("Reunião na quinta-feira, 5 de março, às 16:30, meia hora.", 30),
        ("Termin am Donnerstag, 5. März, 16:30 Uhr, Dauer eine Stunde.", 60),
        ("Termin am Donnerstag, 5. März, 16:30 Uhr, etwa anderthalb Stunden.", 90),
        ("De zitting is op donderdag 5 maart om 16.30 uur; de verwachte duur is anderhalf uur.", 90),
        ("Réunion le jeudi 5 mars à 16h30, une heure.", 60),
        ("Riunione giovedì 5 marzo alle 16:30, due ore.", 120),
    ],
)
def test_a_length_in_words_or_another_language_gives_the_end(text: str, minutes: int) -> None:
    assert holds(text, slot(minutes), CTX)
    assert not holds(text, slot(minutes + 15), CTX)


def test_a_range_past_midnight_ends_on_the_next_day() -> None:
    late = {"mentions_time": {"at": "2026-03-05T23:00:00+01:00", "end": "2026-03-06T00:30:00+01:00", "claimed": True}}
    assert holds("Go-live window: Thursday 5 March, 23:00–00:30 CET.", late, CTX)
    assert not holds("Go-live window: Thursday 5 March, 23:00–01:30 CET.", late, CTX)
    night = {"mentions_time": {"at": "2026-03-05T19:30:00+01:00", "end": "2026-03-06T07:30:00+01:00", "claimed": True}}
    assert holds("| Date | Night shift (19:30–07:30) |\n|---|---|\n| Thu 5 Mar | Tomasz |\n", night, CTX)
    day = {"mentions_time": {"at": "2026-03-05T09:00:00+01:00", "end": "2026-03-05T17:00:00+01:00", "claimed": True}}
    assert holds("Thursday 5 March, 09:00–17:00.", day, CTX)  # an end after its start stays on its day
