"""Dates a text mentions: ISO, `5 March`, `March 5th, 2026`, `5/3` (both readings when both are possible),
`5.3.2026`, weekdays (`Thu`, `this Thursday`, `Thursday next week`), `today`, `tomorrow`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from orchestrator.scenario.text.clean import inside, url_spans
from orchestrator.scenario.text.parse import MONTH, MONTHS, WEEKDAY, WEEKDAYS


@dataclass
class DateMention:
    """A date written in a text: where, and the dates it may mean."""

    start: int
    end: int
    text: str
    dates: list[date] = field(default_factory=list)


_MONTH = r"(?P<{}>" + MONTH.replace("{", "{{").replace("}", "}}") + r")\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
DATE_PATTERNS = [
    # "2026-03-04", and both ends of "2026-03-04-2026-03-05"
    ("iso", re.compile(r"(?:(?<=\d{4}-\d{2}-\d{2}-)|(?<![\d/.-]))(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)")),
    (
        "dmy",
        re.compile(
            r"(?<![\w.:])(?:(?:"
            + WEEKDAY
            + r"\.?,?\s+)?"
            + _DAY.format("d1")
            + r"\s*(?:-|–|to)\s*(?:"  # "6-8 March", "Mon 10 – Thu 13 May": a span of days states both ends
            + WEEKDAY
            + r"\.?,?\s+)?)?"
            + _DAY.format("d")
            + r"(?:\s+(?:of|de|del))?[\s-]+"
            + _MONTH.format("mon")
            + r"(?:,?[\s-]+(?P<y>\d{4}))?(?!\w|:\d)",
            re.I,
        ),
    ),
    (
        "mdy",
        re.compile(
            r"\b" + _MONTH.format("mon") + r"\s+" + _DAY.format("d") + r"(?:,?\s+(?P<y>\d{4}))?(?![\w:.]\d|\w)", re.I
        ),
    ),
    ("num", re.compile(r"(?<![\w/.:-])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?(?![\w/])")),
    ("dotted", re.compile(r"(?<![\w/.:-])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\w])")),
    (
        "weekday",
        re.compile(
            r"\b(?:(?P<next>(?i:next|this|coming))\s+)?(?P<wd>(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
            r"|(?:Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Sun)\b\.?)(?P<nextweek>\s+(?i:next\s+week))?"
        ),
    ),
    ("relative", re.compile(r"\b(?P<rel>(?:the\s+)?day\s+after\s+tomorrow|today|tomorrow|tonight)\b", re.I)),
    # "the 5th", "Thursday the 5th": that day of this month, or of the next once it is past
    ("ordinal", re.compile(r"\b(?i:the)\s+(?P<d>[0-3]?\d)(?P<suffix>st|nd|rd|th)\b")),
]


def _next_weekday(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def valid_date(y: int, m: int, d: int) -> date | None:
    """The date, or None when there is no such day."""
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _yearless(today: date, month: int, day: int) -> date | None:
    """A day and month without a year: this year's, unless that was more than a month ago (then next year's)."""
    this = valid_date(today.year, month, day)
    if this is None:
        return valid_date(today.year + 1, month, day)
    if this < today - timedelta(days=31):
        return valid_date(today.year + 1, month, day) or this
    return this


def _day_of_month(today: date, day: int) -> date | None:
    """Day `day` of this month, or of the next month once it is past."""
    if day >= today.day:
        return valid_date(today.year, today.month, day)
    month, year = (today.month % 12) + 1, today.year + (today.month == 12)
    return valid_date(year, month, day)


# A text that says how it writes "5/3": month first ("mm/dd", "US format") or day first ("dd/mm", "UK format").
MONTH_FIRST = re.compile(r"\b(?:mm/dd(?:/yy(?:yy)?)?|m/d|US(?:-style)?\s+(?:date\s+)?(?:format|dates?|style))\b")
DAY_FIRST = re.compile(
    r"\b(?:dd/mm(?:/yy(?:yy)?)?|d/m|(?:UK|European|EU|British)(?:-style)?\s+(?:date\s+)?(?:format|dates?|style))\b"
)


def _numeric_order(text: str) -> slice:
    """Which readings of "5/3" count: both (day first, then month first), or the one the text says it uses."""
    month_first, day_first = MONTH_FIRST.search(text) is not None, DAY_FIRST.search(text) is not None
    if month_first != day_first:
        return slice(1, 2) if month_first else slice(0, 1)
    return slice(0, 2)


# A capitalized word and a space just before a short weekday, and no day, month or time after it: "Jing Sun is
# paged" names a person, where "Meeting Sun 14:00" and "Sun 5 March" name a day.
_NAME_BEFORE = re.compile(r"\b[A-Z][a-z]+ $")
_DAY_AFTER = re.compile(r"^[\s,.]*(?:(?:at\s+|@\s*)?\d|(?i:next\s+week)\b|" + _MONTH.format("after") + r")", re.I)


def _surname(text: str, m: re.Match[str]) -> bool:
    """Whether a short weekday ("Sun", "Sat") is a surname after a given name rather than a day."""
    if m.group("next") or m.group("nextweek") or len(m.group("wd").rstrip(".")) > 5:
        return False
    return _NAME_BEFORE.search(text, 0, m.start()) is not None and not _DAY_AFTER.match(text[m.end() :])


def find_dates(text: str, today: date) -> list[DateMention]:
    """Dates a text mentions, resolved against `today` (the clock's date in the persona's zone)."""
    spans = url_spans(text)
    order = _numeric_order(text)
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in DATE_PATTERNS:
        for m in pattern.finditer(text):
            if inside(m.start(), spans) or any(a < m.end() and m.start() < b for a, b in taken):
                continue
            dates: list[date] = []
            g = m.groupdict()
            if kind == "iso":
                d = valid_date(int(g["y"]), int(g["m"]), int(g["d"]))
                dates = [d] if d else []
            elif kind in ("dmy", "mdy"):
                month = MONTHS[g["mon"].lower().rstrip(".")]
                days = [int(g["d1"]), int(g["d"])] if g.get("d1") else [int(g["d"])]
                found_days = [
                    valid_date(int(g["y"]), month, day) if g.get("y") else _yearless(today, month, day) for day in days
                ]
                dates = [d for d in found_days if d]  # "3–6 March" states both ends
            elif kind == "num":
                a, b = int(g["a"]), int(g["b"])
                year = g.get("y")
                for day, month in ((a, b), (b, a))[order]:  # type: ignore[misc]  # a slice of the two orders (day first, month first)
                    if year:
                        y = int(year) + (2000 if len(year) == 2 else 0)
                        d = valid_date(y, month, day) if 1 <= month <= 12 else None  # type: ignore[has-type]  # `day` is an int (mypy loses it through the slice above)
                    else:
                        d = _yearless(today, month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None  # type: ignore[has-type]  # `day` is an int (mypy loses it through the slice above)
                    if d and d not in dates:
                        dates.append(d)
            elif kind == "dotted":
                d = valid_date(int(g["y"]), int(g["m"]), int(g["d"]))
                dates = [d] if d else []
            elif kind == "weekday":
                if _surname(text, m):
                    continue
                weekday = WEEKDAYS[g["wd"].lower().rstrip(".")]
                if g.get("nextweek"):  # "Tuesday next week": that day of next week
                    dates = [today + timedelta(days=7 - today.weekday() + weekday)]
                elif (g.get("next") or "").lower() == "this":
                    dates = [_next_weekday(today, weekday)]
                else:
                    # A bare weekday is that day of the coming two weeks: a reply about "Tuesday next week"
                    # written on a Friday says "Tuesday" (and "next Tuesday" is said of either).
                    first = _next_weekday(today if not g.get("next") else today + timedelta(days=1), weekday)
                    dates = [first, first + timedelta(days=7)]
            elif kind == "ordinal":
                dates = [d for d in [_day_of_month(today, int(g["d"]))] if d]
            elif kind == "relative":
                rel = g["rel"].lower()
                dates = [today + timedelta(days=0 if rel in ("today", "tonight") else 2 if "after" in rel else 1)]
            if dates:
                found.append(DateMention(m.start(), m.end(), m.group(0), dates))
                taken.append(m.span())
    found.sort(key=lambda d: d.start)
    # A weekday written next to a date ("Thu 5 March", "March 5 (Thursday)") is part of that date.
    merged: list[DateMention] = []
    for mention in found:
        if merged and re.fullmatch(r"[\s,(]*", text[merged[-1].end : mention.start]) is not None:
            last = merged[-1]
            weekday_last = DATE_PATTERNS[5][1].fullmatch(last.text) is not None
            weekday_this = DATE_PATTERNS[5][1].fullmatch(mention.text) is not None
            if weekday_last != weekday_this:
                explicit = mention if weekday_last else last
                merged[-1] = DateMention(last.start, mention.end, text[last.start : mention.end], explicit.dates)
                continue
        merged.append(mention)
    return merged
