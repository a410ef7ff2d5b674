"""Relative dates in scenarios: `{{ next tuesday 10:00 }}`, `{{ today + 3d | date }}`.

A scenario is written once and must stay right whatever its clock says, so
dates in seeds, instructions, checks and reference solutions are written
relative to the scenario's start time and expanded when the file is loaded.

    {{ EXPR }}            an ISO 8601 date-time in the persona's time zone
    {{ EXPR | date }}     2026-03-10
    {{ EXPR | time }}     10:00
    {{ EXPR | human }}    Tuesday 10 March
    {{ EXPR | human_time }}  Tuesday 10 March at 10:00

EXPR is a base day, any number of offsets and an optional time of day:

    now | today | tomorrow | yesterday | start
    next <weekday>      the first such day after today
    this <weekday>      the first such day from today on (today included)
    <weekday> next week that day in next week (weeks start on Monday)
    + 3d  - 2h  + 1w  + 30m
    10:00 or 9:30
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
TEMPLATE = re.compile(r"\{\{\s*(.*?)\s*\}\}")
OFFSET = re.compile(r"([+-])\s*(\d+)\s*([wdhm])")
CLOCK_TIME = re.compile(r"(\d{1,2}):(\d{2})$")
FORMATS = ("iso", "date", "time", "human", "human_time")


class TemplateError(ValueError):
    """A relative date that does not parse; the message says what is wrong."""

    pass


def evaluate(expr: str, start: datetime) -> str:
    """One template expression, evaluated against the scenario's start time (already in the persona's zone)."""
    text, _, fmt = expr.partition("|")
    text, fmt = text.strip().lower(), (fmt.strip().lower() or "iso")
    if fmt not in FORMATS:
        raise TemplateError(f"unknown format {fmt!r} in {{{{ {expr} }}}}; use one of {', '.join(FORMATS)}")
    try:
        when = _parse(text, start, expr)
    except OverflowError:  # a clock at the ends of the calendar, or an offset that leaves it
        raise TemplateError(
            f"{{{{ {expr[:60]} }}}} is out of range: the date must stay within the years 1-9999"
        ) from None
    if fmt == "date":
        return when.date().isoformat()
    if fmt == "time":
        return when.strftime("%H:%M")
    if fmt == "human":
        return f"{when:%A} {when.day} {when:%B}"
    if fmt == "human_time":
        return f"{when:%A} {when.day} {when:%B} at {when:%H:%M}"
    return when.isoformat(timespec="seconds")


def _parse(text: str, start: datetime, expr: str) -> datetime:
    rest = text
    clock = CLOCK_TIME.search(rest)
    at: time | None = None
    if clock:
        hour, minute = int(clock.group(1)), int(clock.group(2))
        if hour > 23 or minute > 59:
            raise TemplateError(f"bad time of day {clock.group(0)!r} in {{{{ {expr} }}}}")
        at = time(hour, minute)
        rest = rest[: clock.start()].strip()
    offsets = OFFSET.findall(rest)
    base_text = OFFSET.sub("", rest).strip()
    base = _base(base_text, start, expr)
    for sign, amount, unit in offsets:
        delta = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}[
            unit
        ]
        if len(amount) > 9:  # more than a billion of anything is past year 9999 (and past what int() reads)
            raise TemplateError(
                f"offset {sign}{amount[:12]}{'…' if len(amount) > 12 else ''}{unit} in {{{{ {expr[:60]} }}}} "
                "is too large: the date must stay within the years 1-9999"
            )
        base = base + delta * int(amount) * (1 if sign == "+" else -1)
    if at is not None:
        base = base.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
    return base


def _base(text: str, start: datetime, expr: str) -> datetime:
    midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
    words = text.split()
    if text in ("", "now", "start"):
        return start
    if text == "today":
        return midnight
    if text == "tomorrow":
        return midnight + timedelta(days=1)
    if text == "yesterday":
        return midnight - timedelta(days=1)
    if len(words) == 2 and words[0] in ("next", "this") and words[1] in WEEKDAYS:
        ahead = (WEEKDAYS.index(words[1]) - start.weekday()) % 7
        if words[0] == "next" and ahead == 0:
            ahead = 7
        return midnight + timedelta(days=ahead)
    if len(words) == 3 and words[0] in WEEKDAYS and words[1:] == ["next", "week"]:
        monday = midnight - timedelta(days=start.weekday()) + timedelta(weeks=1)
        return monday + timedelta(days=WEEKDAYS.index(words[0]))
    raise TemplateError(
        f"cannot read {{{{ {expr} }}}}: expected now, today, tomorrow, yesterday, 'next <weekday>', "
        "'this <weekday>' or '<weekday> next week', then offsets like '+ 2d' and a time like 10:00"
    )


def expand(value: str, start: datetime) -> str:
    """Every `{{ ... }}` in a string replaced by its value."""
    return TEMPLATE.sub(lambda m: evaluate(m.group(1), start), value)
