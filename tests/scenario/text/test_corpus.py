"""The readers on the corpus of agent-written messages (corpus/<part>/*.jsonl): per part and fact kind, the share
of facts read right must not fall below what the readers reach today. `seen` (writers w1, w2) is what the readers
were worked on; `heldout` (writers w3, w4, 800 messages) was never opened while they were, and its figures are
reported apart. The table prints with `-s`; the same table for any folder:
`python tests/scenario/text/corpus_table.py FOLDER`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_table import KINDS, load, table, tally

CORPUS = Path(__file__).parent / "corpus"
# The share of facts of each kind read right on each part of the corpus, as the readers reach it (a drop fails).
FLOORS = {
    "seen": {
        "time": 0.866,
        "time-for-recipient": 0.948,
        "date": 0.925,
        "date-with-role": 0.87,
        "amount": 0.91,
        "decision": 0.95,
        "count": 0.85,
        "code": 0.97,
    },
    "heldout": {
        "time": 0.77,
        "time-for-recipient": 0.80,
        "date": 0.59,
        "date-with-role": 0.78,
        "amount": 0.72,
        "decision": 0.875,
        "count": 0.745,
        "code": 0.915,
    },
}


@pytest.fixture(scope="module")
def tallies():  # type: ignore[no-untyped-def]  # a pytest fixture
    found = {}
    for part in FLOORS:
        messages = load(CORPUS / part)
        assert len(messages) >= 30, f"the corpus under {CORPUS / part} has only {len(messages)} messages"
        found[part] = tally(messages)
        print(f"\n{part}: {len(messages)} messages\n{table(found[part])}")
    return found


@pytest.mark.parametrize("part", list(FLOORS))
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_read_at_its_floor(part: str, kind: str, tallies) -> None:  # type: ignore[no-untyped-def]  # a pytest fixture argument
    tallies = tallies[part]
    if kind not in tallies:
        pytest.skip(f"no {kind} facts in the corpus")
    t = tallies[kind]
    wrong = [f"{mid}: {fact}" for mid, fact, _ in t.misses[:5]]
    assert t.accuracy >= FLOORS[part][kind], (
        f"{part} {kind}: {t.accuracy:.1%} of {t.n} read right; first wrong: {wrong}"
    )


def test_every_fact_kind_has_a_condition() -> None:
    from corpus_table import condition

    for fact in load(CORPUS)[0].facts:
        assert condition(fact)
