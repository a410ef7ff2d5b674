"""ClawGym's time reader on the corpus of times and dates as people write them (time_corpus.yaml).

Each case states which instants a mail states and which it sets aside ("instead of 10:00", "can't make 10:00",
"moved from 10:00 to 14:00"), optionally the dates it mentions and whether a `mentions_time` check holds; the
reader must read exactly those. Cases out of scope are marked `xfail` in the corpus with the reason.
"""

from __future__ import annotations

import pytest
from time_cases import Case, load_cases, problems

CASES = load_cases()


def test_the_corpus_is_large_and_mostly_hand_written() -> None:
    assert len(CASES) >= 500
    assert sum(c.hand_written for c in CASES) >= 200
    plain = [(c.text, c.zone) for c in CASES if c.check is None and c.date_check is None]
    assert len(set(plain)) == len(plain)


def _params() -> list[object]:
    marks = lambda c: [pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else []  # noqa: E731
    return [pytest.param(c, id=c.id, marks=marks(c)) for c in CASES]


@pytest.mark.parametrize("case", _params())
def test_reads_what_the_text_states(case: Case) -> None:
    found = problems(case)
    assert not found, f"{case.text!r}: " + "; ".join(found)
