"""ClawGym's time reader on the corpus of times and dates as people write them (time_corpus.yaml).

Each case states which instants a mail states and which it sets aside ("instead of 10:00", "can't make 10:00",
"moved from 10:00 to 14:00"), optionally the dates it mentions and whether a `mentions_time` check holds; the
reader must read exactly those. Cases out of scope are marked `xfail` in the corpus with the reason.
"""

from __future__ import annotations

import pytest
from time_cases import Case, fully_right, load_cases

from orchestrator.scenario.text.instants import check_time, read_dates, read_times

CASES = load_cases()


def test_the_corpus_is_large_and_mostly_hand_written() -> None:
    assert len(CASES) >= 500
    assert sum(c.hand_written for c in CASES) >= 200
    assert len({(c.text, c.zone) for c in CASES if c.check is None}) == len([c for c in CASES if c.check is None])


def _params() -> list[object]:
    marks = lambda c: [pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else []  # noqa: E731
    return [pytest.param(c, id=c.id, marks=marks(c)) for c in CASES]


@pytest.mark.parametrize("case", _params())
def test_reads_what_the_text_states(case: Case) -> None:
    reading = read_times(case.text, case.zone, case.now)
    problems = []
    if not fully_right(reading.stated, case.stated):
        problems.append(f"stated {_show(reading.stated)}, expected {[str(s) for s in case.stated]}")
    if not fully_right(reading.set_aside, case.set_aside):
        problems.append(f"set aside {_show(reading.set_aside)}, expected {[str(s) for s in case.set_aside]}")
    if case.dates is not None:
        dates = read_dates(case.text, case.zone, case.now)
        right = all(any(d in options for d in case.dates) for options in dates)
        if not right or not all(any(d in options for options in dates) for d in case.dates):
            problems.append(f"dates {dates}, expected {case.dates}")
    if case.check is not None:
        at, holds = case.check
        verdict = check_time(case.text, at, case.zone, case.now)
        if (verdict.holds and not verdict.conflicts) != holds:
            problems.append(f"check at {at}: holds={verdict.holds} conflicts={verdict.conflicts}, expected {holds}")
    assert not problems, f"{case.text!r}: " + "; ".join(problems)


def _show(read: list[list[object]]) -> list[list[str]]:
    return [[str(o) for o in options] for options in read]
