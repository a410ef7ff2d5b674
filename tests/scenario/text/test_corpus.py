"""The readers on the corpus of agent-written messages (corpus/**/*.jsonl): per fact kind, the share of facts
read right must not fall below what the readers reach today. The table prints with `-s`; the same table for any
folder: `python tests/scenario/text/corpus_table.py FOLDER`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_table import KINDS, load, table, tally

CORPUS = Path(__file__).parent / "corpus"
# The share of facts of each kind read right on the corpus, as the readers reach it (a drop fails).
FLOORS = {
    "time": 0.755,
    "time-for-recipient": 0.745,
    "date": 0.66,
    "date-with-role": 0.795,
    "amount": 0.795,
    "decision": 0.91,
    "count": 0.77,
    "code": 0.945,
}


@pytest.fixture(scope="module")
def tallies():  # type: ignore[no-untyped-def]  # a pytest fixture
    messages = load(CORPUS)
    assert len(messages) >= 30, f"the corpus under {CORPUS} has only {len(messages)} messages"
    found = tally(messages)
    print(f"\n{len(messages)} messages\n{table(found)}")
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_read_at_its_floor(kind: str, tallies) -> None:  # type: ignore[no-untyped-def]  # a pytest fixture argument
    if kind not in tallies:
        pytest.skip(f"no {kind} facts in the corpus")
    t = tallies[kind]
    wrong = [f"{mid}: {fact}" for mid, fact, _ in t.misses[:5]]
    assert t.accuracy >= FLOORS[kind], f"{kind}: {t.accuracy:.1%} of {t.n} read right; first wrong: {wrong}"


def test_every_fact_kind_has_a_condition() -> None:
    from corpus_table import condition

    for fact in load(CORPUS)[0].facts:
        assert condition(fact)
