"""The one parse of a text: quotes, forwards and signatures gone, markdown read for its structure, day and month
names written one way, sentences."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.parse import parse, read, sentences

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 8, tzinfo=UTC))
THURSDAY = {"mentions_time": {"at": "2026-03-05T15:30:00+01:00", "claimed": True}}

OUTLOOK = (
    "Hi Priya,\n\nMoved to Thursday 15:30 CET.\n\nBest,\nDana\n\n"
    "From: Priya Shah <priya@acme.test>\nSent: Monday, March 2, 2026 8:00 AM\nTo: Dana Lee\nSubject: Re: sync\n\n"
    "Can we do Thursday 10:00 instead?"
)


@pytest.mark.parametrize(
    "quoted",
    [
        OUTLOOK,
        "Moved to Thursday 15:30 CET.\n\n-----Original Message-----\nFrom: Sam\nSent: Tuesday\n\nThursday 10:00?",
        "Moved to Thursday 15:30 CET.\n\nOn Mon, 2 Mar 2026 at 08:00, Priya Shah <priya@acme.test>\nwrote:\n"
        "Thursday 10:00 works for me",
        "Moved to Thursday 15:30 CET.\n\n________________________________\nFrom: Sam Ortiz\nThursday 10:00?",
        "Moved to Thursday 15:30 CET.\n\n> Thursday 10:00?\n",
    ],
)
def test_quoted_and_forwarded_parts_are_not_read(quoted: str) -> None:
    assert "10:00" not in read(quoted)
    assert holds(quoted, THURSDAY, CTX)


def test_the_old_reading_took_an_outlook_block_as_the_authors_words() -> None:
    """Before the parse, "Thursday 10:00" below the From:/Sent: block competed with the stated 15:30."""
    assert holds(OUTLOOK, {"mentions_time": "2026-03-05T15:30:00+01:00"}, CTX)
    assert not holds(OUTLOOK, {"mentions_time": {"at": "2026-03-05T10:00:00+01:00", "strict": False}}, CTX)


def test_a_signature_is_not_read() -> None:
    text = (
        "Booked for Thursday 15:30 CET.\n\nThanks,\nDana\n-- \nDana Lee | Ops | +49 30 1234 10:00\nSent from my iPhone"
    )
    assert "1234" not in read(text)


def test_a_table_is_a_row_per_line_with_its_header_cells() -> None:
    text = "New time:\n\n| Person | London | New York |\n|---|---|---|\n| Ana | 14:30 | **09:30** |\n\nThanks"
    assert "Ana | 14:30 (London) | 09:30 (New York)." in read(text)
    ny = {"mentions_time": {"at": "2026-03-05T09:30:00-05:00", "strict": False}}
    assert holds("Thursday 5 March\n\n" + text, ny, CTX)


def test_struck_text_is_crossed_out() -> None:
    text = "~~Tue 3 March, 10:00 CET~~ → **Thursday 5 March, 15:30 CET**"
    assert "10:00" not in read(text)
    assert holds(text, THURSDAY, CTX)


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        ("Thrusday", "Thursday"),
        ("Frdiay", "Friday"),
        ("Wendsday", "Wednesday"),
        ("Feburary 4", "February 4"),
        ("4 Feburary", "4 February"),
        ("tmrw", "tomorrow"),
        ("3. März", "3 March"),
        ("le 3 mars", "le 3 March"),
        ("Donnerstag", "Thursday"),
        ("Marco 3", "Marco 3"),
        ("Marc said", "Marc said"),
        ("Mayo clinic", "Mayo clinic"),
    ],
)
def test_day_and_month_names_are_written_one_way(written: str, read_as: str) -> None:
    assert read(written) == read_as


def test_a_misspelt_day_is_read() -> None:
    assert holds("Moved to Thrusday 15:30 CET.", THURSDAY, CTX)
    assert holds("Moved to 15.30 CET on Thursday.", THURSDAY, CTX)


def test_sentences_end_at_a_stop_before_a_capital_and_at_lines() -> None:
    text = "We meet Thu. 5 March at 3 p.m. sharp, i.e. 15:00. Dr. Lee joins.\nNext line"
    assert [text[a:b].strip() for a, b in sentences(text)] == [
        "We meet Thu. 5 March at 3 p.m. sharp, i.e. 15:00.",
        "Dr. Lee joins.",
        "Next line",
    ]


def test_the_parse_is_kept_and_reading_it_again_changes_nothing() -> None:
    assert parse(OUTLOOK) is parse(OUTLOOK)
    assert read(read(OUTLOOK)) == read(OUTLOOK)


def test_a_header_block_in_other_languages_is_a_quote() -> None:
    from orchestrator.scenario.text.parse import read

    text = (
        "Sergio, the kickoff is now Wednesday 28 January at 12:00.\n\nDe: Iberdrola PMO\n"
        "Enviado: miércoles, 21 de enero de 2026 14:05\nAsunto: Kickoff PRJ-IB-7702\n\nProponemos el jueves 29 a las 9:30."
    )
    assert "PRJ-IB-7702" not in read(text) and "Wednesday 28 January" in read(text)
    dutch = (
        "Akkoord, tot dan.\n\nVan: Jan de Vries\nVerzonden: maandag 2 maart 2026 09:00\nOnderwerp: Offerte Q-17\n\nQ-17"
    )
    assert "Q-17" not in read(dutch)
