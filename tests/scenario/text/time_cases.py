"""The time corpus (time_corpus.yaml): its cases, their expected readings as instants, and how a reading is scored.

Shared by test_time_corpus.py and benchmarks/bench_time_readers.py, so that ClawGym's reader and the other
extractors are held to the same expectations.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

from orchestrator.scenario.text.instants import check_date, check_time, read_dates, read_times

CORPUS = Path(__file__).with_name("time_corpus.yaml")
INSTANT = re.compile(
    r"^(?:(?P<date>\d{4}-\d{2}-\d{2})\s+)?(?P<h>\d{2}):(?P<m>\d{2})"
    r"(?:\s+(?P<zone>UTC|[A-Z][A-Za-z_]+/[A-Za-z_]+|[+-]\d{2}:\d{2}))?$"
)


@dataclass
class Case:
    """One phrasing and what it should be read as."""

    id: str
    text: str
    zone: str
    now: datetime
    stated: list[datetime]
    set_aside: list[datetime]
    dates: list[date] | None = None
    check: tuple[datetime, bool] | None = None
    date_check: tuple[date, bool] | None = None
    xfail: str | None = None
    hand_written: bool = True
    extra: dict[str, object] = field(default_factory=dict)


def _zone(name: str) -> tzinfo:
    if name == "UTC":
        return UTC
    if name[0] in "+-":
        sign = -1 if name[0] == "-" else 1
        return timezone(sign * timedelta(hours=int(name[1:3]), minutes=int(name[4:6])))
    return ZoneInfo(name)


def instant(written: str, zone: str, now: datetime) -> datetime:
    """An expected instant as the corpus writes it ("15:30", "2026-03-05 15:30", "... America/New_York")."""
    m = INSTANT.match(written.strip())
    if m is None:
        raise ValueError(
            f"{CORPUS.name}: expected an instant such as '2026-03-05 15:30 Europe/London', found {written!r}"
        )
    local = ZoneInfo(zone)
    day = date.fromisoformat(m["date"]) if m["date"] else now.astimezone(local).date()
    where = _zone(m["zone"]) if m["zone"] else local
    return datetime(day.year, day.month, day.day, int(m["h"]), int(m["m"]), tzinfo=where)


def _case(raw: dict, defaults: dict, ident: str, hand_written: bool) -> Case:
    zone = raw.get("zone", defaults["zone"])
    now = datetime.fromisoformat(raw.get("now", defaults["now"]))
    check = None
    if "check" in raw:
        check = (instant(raw["check"]["at"], zone, now), bool(raw["check"]["holds"]))
    dates = [date.fromisoformat(d) for d in raw["dates"]] if "dates" in raw else None
    date_check = None
    if "date_check" in raw:
        date_check = (date.fromisoformat(raw["date_check"]["date"]), bool(raw["date_check"]["holds"]))
    return Case(
        ident,
        raw["text"],
        zone,
        now,
        [instant(s, zone, now) for s in raw.get("stated", [])],
        [instant(s, zone, now) for s in raw.get("set_aside", [])],
        dates,
        check,
        date_check,
        raw.get("xfail"),
        hand_written,
    )


def _expand(block: dict) -> list[dict]:
    """Every combination of a generated block's slots in each of its templates."""
    names = list(block["slots"])
    out = []
    for combo in itertools.product(*(block["slots"][n] for n in names)):
        phrases = {n: c[0] for n, c in zip(names, combo, strict=True)}
        values = {n: c[1] for n, c in zip(names, combo, strict=True)}
        for template in block["templates"]:
            raw = dict(template)
            raw["text"] = template["text"].format(**phrases)
            for key in ("stated", "set_aside"):
                raw[key] = [" ".join(s.format(**values).split()) for s in template.get(key, [])]
            out.append(raw)
    return out


def load_cases() -> list[Case]:
    """All cases of the corpus: the hand-written ones, then the generated ones."""
    data = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    defaults = data["defaults"]
    cases = [_case(raw, defaults, f"hand-{i:03d}", True) for i, raw in enumerate(data["cases"])]
    for block in data.get("generated", []):
        slug = re.sub(r"\W+", "-", block["name"])
        cases += [_case(raw, defaults, f"{slug}-{i:03d}", False) for i, raw in enumerate(_expand(block))]
    return cases


def matches(read: list[list[datetime]], expected: list[datetime]) -> tuple[int, int, int]:
    """How a reading (one list of possible instants per time read) meets the expected instants: the times read
    that have an expected instant among their readings, the times read in all, and the expected instants found."""
    right = sum(1 for options in read if any(o == e for o in options for e in expected))
    found = sum(1 for e in expected if any(o == e for options in read for o in options))
    return right, len(read), found


def fully_right(read: list[list[datetime]], expected: list[datetime]) -> bool:
    """Every time read is expected and every expected instant is read."""
    right, total, found = matches(read, expected)
    return right == total and found == len(expected)


def problems(case: Case) -> list[str]:
    """How ClawGym's reader misreads a case: its stated and set-aside instants, its dates and its checks."""
    reading = read_times(case.text, case.zone, case.now)
    found = []
    if not fully_right(reading.stated, case.stated):
        found.append(f"stated {_show(reading.stated)}, expected {[str(s) for s in case.stated]}")
    if not fully_right(reading.set_aside, case.set_aside):
        found.append(f"set aside {_show(reading.set_aside)}, expected {[str(s) for s in case.set_aside]}")
    if case.dates is not None:
        dates = read_dates(case.text, case.zone, case.now)
        right = all(any(d in options for d in case.dates) for options in dates)
        if not right or not all(any(d in options for options in dates) for d in case.dates):
            found.append(f"dates {dates}, expected {case.dates}")
    if case.check is not None:
        at, holds = case.check
        verdict = check_time(case.text, at, case.zone, case.now)
        if (verdict.holds and not verdict.conflicts) != holds:
            found.append(f"check at {at}: holds={verdict.holds} conflicts={verdict.conflicts}, expected {holds}")
    if case.date_check is not None:
        day, holds = case.date_check
        if check_date(case.text, day, case.zone, case.now)[0] != holds:
            found.append(f"mentions_date {day}: expected holds={holds}")
    return found


def _show(read: list[list[datetime]]) -> list[list[str]]:
    return [[str(o) for o in options] for options in read]
