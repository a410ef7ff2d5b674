"""Maintained date-time extractors against ClawGym's time reader, on the time corpus.

    python benchmarks/bench_time_readers.py [--readers clawgym,dateparser,ctparse,recognizers] [--cases N] [--show K]

The corpus is tests/scenario/text/time_corpus.yaml (times and dates as people write them in mails, each with the
instants it states and those it sets aside). Every reader gets each case's text, its clock and its zone; a time it
reads is one list of the instants it may mean ("3:30": 03:30 or 15:30). Prints per reader:

- `written`: instants read against all the instants the text writes (stated and set aside), as precision and
  recall, and the cases where they are exactly right. This is what an extractor could give ClawGym, whose
  stated / set-aside / conflicting semantics would stay on top of it.
- `stated`: instants read as stated against the stated ones (an extractor states every instant it reads), and
  the cases fully right: for ClawGym, stated, set aside, dates and `mentions_time` checks as the corpus test
  asserts them; for an extractor, its instants against the stated ones.
- the median and mean time per case, and the time to import the reader.

- `dateparser`: `dateparser.search.search_dates` (English, dates from the future, the clock as relative base);
  results without a time of day are dropped.
- `ctparse`: `ctparse.ctparse` on each sentence (it reads one expression per string); an interval's start.
- `recognizers`: `recognizers_date_time.recognize_datetime` (Microsoft Recognizers-Text, English); a range's start
  (as ClawGym reads ranges); results without a time of day are dropped.

A reader that is not installed is reported and skipped (pip install dateparser ctparse recognizers-text-date-time;
recognizers-text 1.0.2a2 needs `emoji<1`).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import re
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scenario" / "text"))

from time_cases import Case, fully_right, load_cases, matches, problems  # noqa: E402

Reading = list[list[datetime]]
MARK = 17  # seconds of the relative base: a result that keeps them has no time of day of its own
SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def _local(value: datetime, zone: tzinfo) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=zone)


def _base(case: Case) -> datetime:
    local = case.now.astimezone(ZoneInfo(case.zone))
    return local.replace(tzinfo=None, second=MARK, microsecond=0)


def clawgym() -> Callable[[Case], Reading]:
    """ClawGym's reader: what the text states and what it sets aside, both."""
    from orchestrator.scenario.text.instants import read_times

    def read(case: Case) -> Reading:
        reading = read_times(case.text, case.zone, case.now)
        return reading.stated + reading.set_aside

    return read


def dateparser_reader() -> Callable[[Case], Reading]:
    """dateparser's search_dates."""
    from dateparser.search import search_dates

    def read(case: Case) -> Reading:
        settings = {"RELATIVE_BASE": _base(case), "PREFER_DATES_FROM": "future"}
        found = search_dates(case.text, languages=["en"], settings=settings) or []
        zone = ZoneInfo(case.zone)
        return [[_local(value, zone)] for _, value in found if value.second != MARK]

    return read


def ctparse_reader() -> Callable[[Case], Reading]:
    """ctparse, one sentence at a time."""
    from ctparse import ctparse
    from ctparse.types import Interval, Time

    def instant(t: Time, base: datetime, zone: tzinfo) -> datetime | None:
        if t.hour is None:
            return None
        day = date(t.year or base.year, t.month or base.month, t.day or base.day)
        return datetime(day.year, day.month, day.day, t.hour, t.minute or 0, tzinfo=zone)

    def read(case: Case) -> Reading:
        base, zone, out = _base(case), ZoneInfo(case.zone), []
        for sentence in SENTENCE.split(case.text):
            if not sentence.strip():
                continue
            parsed = ctparse(sentence, ts=base, timeout=0.5)
            if parsed is None:
                continue
            res = parsed.resolution
            start = res.t_from if isinstance(res, Interval) else res
            found = instant(start, base, zone) if isinstance(start, Time) else None
            if found is not None:
                out.append([found])
        return out

    return read


def recognizers_reader() -> Callable[[Case], Reading]:
    """Microsoft Recognizers-Text date-time (English)."""
    from recognizers_date_time import recognize_datetime
    from recognizers_text import Culture

    def read(case: Case) -> Reading:
        base, zone, out = _base(case), ZoneInfo(case.zone), []
        for result in recognize_datetime(case.text, Culture.English, reference=base):
            options = []
            for value in (result.resolution or {}).get("values", []):
                kind, written = value.get("type", ""), value.get("value") or value.get("start")
                if kind not in ("time", "datetime", "timerange", "datetimerange") or not written:
                    continue
                if len(written) == 8:  # a time of day: on the clock's date
                    written = f"{base.date()} {written}"
                options.append(datetime.fromisoformat(written).replace(tzinfo=zone))
            if options:
                out.append(options)
        return out

    return read


READERS: dict[str, tuple[str, Callable[[], Callable[[Case], Reading]]]] = {
    "clawgym": ("orchestrator.scenario.text.instants", clawgym),
    "dateparser": ("dateparser.search", dateparser_reader),
    "ctparse": ("ctparse", ctparse_reader),
    "recognizers": ("recognizers_date_time", recognizers_reader),
}


def _clawgym_right(case: Case) -> bool:
    """A case fully right for ClawGym: as the corpus test asserts it."""
    return not problems(case)


def measure(name: str, cases: list[Case], show: int) -> str:
    """One reader's line of figures, or why it was skipped."""
    module, make = READERS[name]
    started = time.perf_counter()
    try:
        importlib.import_module(module)
        read = make()
    except Exception as error:  # noqa: BLE001 - a reader that does not import is reported, not fatal
        return f"{name:<12} not measured: {type(error).__name__}: {error}"
    imported = time.perf_counter() - started
    totals = {"w_right": 0, "w_read": 0, "w_found": 0, "w_expected": 0, "w_cases": 0}
    totals |= {"s_right": 0, "s_read": 0, "s_found": 0, "s_expected": 0, "s_cases": 0}
    times, wrong = [], []
    for case in cases:
        t0 = time.perf_counter()
        reading = read(case)
        times.append(time.perf_counter() - t0)
        written = case.stated + case.set_aside
        right, total, found = matches(reading, written)
        totals["w_right"] += right
        totals["w_read"] += total
        totals["w_found"] += found
        totals["w_expected"] += len(written)
        totals["w_cases"] += fully_right(reading, written)
        stated = read_stated(name, case, reading)
        right, total, found = matches(stated, case.stated)
        totals["s_right"] += right
        totals["s_read"] += total
        totals["s_found"] += found
        totals["s_expected"] += len(case.stated)
        ok = _clawgym_right(case) if name == "clawgym" else fully_right(stated, case.stated)
        totals["s_cases"] += ok
        if not ok:
            wrong.append(case)
    n = len(cases)
    line = (
        f"{name:<12} written: P {_ratio(totals['w_right'], totals['w_read'])} R "
        f"{_ratio(totals['w_found'], totals['w_expected'])} cases {totals['w_cases']}/{n} | stated: P "
        f"{_ratio(totals['s_right'], totals['s_read'])} R {_ratio(totals['s_found'], totals['s_expected'])} "
        f"cases {totals['s_cases']}/{n} | {statistics.median(times) * 1000:.2f} ms median, "
        f"{statistics.mean(times) * 1000:.2f} ms mean per case, import {imported:.2f} s"
    )
    for case in wrong[:show]:
        line += f"\n    wrong: {case.text!r}"
    return line


def read_stated(name: str, case: Case, reading: Reading) -> Reading:
    """What a reader states: ClawGym its stated times; an extractor every time it reads."""
    if name != "clawgym":
        return reading
    from orchestrator.scenario.text.instants import read_times

    return read_times(case.text, case.zone, case.now).stated


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def main() -> None:
    """Measure each reader on the corpus and print one line per reader."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", default=",".join(READERS), help="comma-separated: " + ", ".join(READERS))
    parser.add_argument("--cases", type=int, default=0, help="only the first N cases (0: all)")
    parser.add_argument("--show", type=int, default=0, help="print up to K cases each reader gets wrong")
    args = parser.parse_args()
    logging.getLogger("ctparse").setLevel(logging.ERROR)  # it logs every sentence it reads no time in
    cases = load_cases()
    if args.cases:
        cases = cases[: args.cases]
    unknown = [r for r in args.readers.split(",") if r not in READERS]
    if unknown:
        parser.error(f"--readers: unknown {', '.join(unknown)}; expected some of {', '.join(READERS)}")
    hand = sum(c.hand_written for c in cases)
    print(f"{len(cases)} cases ({hand} hand-written, {len(cases) - hand} generated from parts)")
    for name in args.readers.split(","):
        print(measure(name, cases, args.show), flush=True)


if __name__ == "__main__":
    main()
