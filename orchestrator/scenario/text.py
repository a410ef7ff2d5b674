"""What a text says: date-times, dates, amounts, people, links, and reused confidential wording.

The text operators of `where` conditions (`mentions_time`, `mentions_date`,
`mentions_amount`, `mentions_person`, `links`, `leaks`) are decided here, by
parsing the text instead of matching a pattern, so that a reply written
"Thu 5 March, 3:30 pm", "2026-03-05 15:30" or "14:30 UTC" is read as the same
instant, and one that says "09:30 CET" is not.

Date-times are read with a small deterministic grammar rather than a general
date search (`dateparser.search` reads "we" as a weekday, "3.30pm" as 3 o'clock
and "5/3" month first); numbers of amounts are read with `price-parser`.

- Times: `15:30`, `3:30 pm`, `3.30pm`, `15h30`, `3 pm`, `noon`, ISO date-times;
  followed by a zone (`CET`, `UTC`, `+01:00`, `UTC+1`, `Europe/London`) or a place
  (`Lisbon time`, `New York`, `for Ana in Lisbon`, `UK time`), else in a zone said
  for them (`(London time):`), else in the reader's zone. `3:30` without am/pm
  (hours 1-11, no leading zero) may be either. Ranges (`14:00-14:45`, `2-2:45pm`,
  `from 2 to 3 pm`) state their start; `-05:00` after a time is an offset only
  when it cannot end a range.
- Dates: ISO `2026-03-05`, `5 March`, `March 5th, 2026`, `5/3` (day first, or month
  first when the day-first reading is impossible; both readings count when both
  are possible), `5.3.2026`, weekdays (`Thu`, `Thursday`: that day of the coming two
  weeks from the clock, today included; `this Thursday`, `Thursday next week`),
  `today`, `tomorrow`. A weekday next to a date is part of it.
- A time takes the nearest date of its sentence, else the nearest date before it.
- Quoted lines (`> ...`) and "On ... wrote:" headers are not read: quoting a
  message does not state its content.

Imports nothing of the orchestrator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from price_parser import Price

# -- cleaning -------------------------------------------------------------------

QUOTE_HEADER = re.compile(r"^\s*On .{3,200}wrote:\s*$", re.I)
ORIGINAL_BLOCK = re.compile(r"^\s*-{3,}\s*(?:Forwarded message|Original Message)\s*-{3,}\s*$", re.I)


def unquoted(text: str) -> str:
    """The text without what it quotes: `>` lines, their "On ... wrote:" header, and a forwarded or
    original message below its separator line (blanked to the same length, so offsets hold)."""
    out = []
    quoting = False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        quoting = quoting or ORIGINAL_BLOCK.match(body) is not None
        if quoting or body.lstrip().startswith(">") or QUOTE_HEADER.match(body):
            out.append(" " * len(body) + line[len(body):])
        else:
            out.append(line)
    return "".join(out)


def as_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+", re.I)


def _url_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in URL.finditer(text)]


def _inside(pos: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


# -- zones ------------------------------------------------------------------------

# Abbreviations of zones with daylight saving stand for the region's local time on that date, as people
# use them ("15:30 CET" written in July means Berlin time), so they are IANA zones here.
ZONE_ABBREVIATIONS: dict[str, tzinfo | str] = {
    "UTC": timezone.utc, "GMT": timezone.utc, "Z": timezone.utc, "UT": timezone.utc,
    "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon", "BST": "Europe/London",
    "CET": "Europe/Berlin", "CEST": "Europe/Berlin", "MEZ": "Europe/Berlin", "MESZ": "Europe/Berlin",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki",
    "MSK": timezone(timedelta(hours=3)), "IST": timezone(timedelta(hours=5, minutes=30)),
    "SGT": timezone(timedelta(hours=8)), "JST": timezone(timedelta(hours=9)), "KST": timezone(timedelta(hours=9)),
    "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MT": "America/Denver", "MST": "America/Denver", "MDT": "America/Denver",
    "PT": "America/Los_Angeles", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
}
ZONE = re.compile(
    r"\s*\(?\s*(?P<zone>"
    r"(?:UTC|GMT)\s*[+\-−]\s*\d{1,2}(?::?\d{2})?"
    r"|[+\-−]\d{2}:?\d{2}\b"
    r"|[A-Z][a-z]+(?:_[A-Z][a-z]+)?/[A-Z][A-Za-z_]+"
    r"|[A-Z]{1,5}\b"
    r")"
)
OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?$")


# Places people name a zone by ("13:00 Lisbon time", "09:30 New York", "UK time"): the cities of the IANA
# zone names (their last part, spaces for underscores) and a few countries and regions.
PLACE_ALIASES: dict[str, str] = {
    "UK": "Europe/London", "U.K.": "Europe/London", "Britain": "Europe/London", "Great Britain": "Europe/London",
    "England": "Europe/London", "Scotland": "Europe/London", "Wales": "Europe/London", "Ireland": "Europe/Dublin",
    "Portugal": "Europe/Lisbon", "Spain": "Europe/Madrid", "France": "Europe/Paris", "Germany": "Europe/Berlin",
    "Italy": "Europe/Rome", "Netherlands": "Europe/Amsterdam", "Belgium": "Europe/Brussels", "Austria": "Europe/Vienna",
    "Switzerland": "Europe/Zurich", "Poland": "Europe/Warsaw", "Sweden": "Europe/Stockholm", "Norway": "Europe/Oslo",
    "Denmark": "Europe/Copenhagen", "Finland": "Europe/Helsinki", "Greece": "Europe/Athens", "Israel": "Asia/Jerusalem",
    "India": "Asia/Kolkata", "Japan": "Asia/Tokyo", "Korea": "Asia/Seoul", "China": "Asia/Shanghai",
    "Central European": "Europe/Berlin", "Central Europe": "Europe/Berlin",
    "US Eastern": "America/New_York", "US East Coast": "America/New_York", "East Coast": "America/New_York",
    "Eastern": "America/New_York", "US Central": "America/Chicago", "US Mountain": "America/Denver",
    "Mountain": "America/Denver", "US Pacific": "America/Los_Angeles", "US West Coast": "America/Los_Angeles",
    "West Coast": "America/Los_Angeles", "Pacific": "America/Los_Angeles",
}
# Last parts of zone names that are more often a person's name or a common word than a place.
NOT_PLACES = frozenset({"Center", "Knox", "Regina", "Dawson", "Casey", "Davis", "Palmer", "Troll", "Vostok", "Mawson", "Marengo", "Beulah",
                        "Vevay", "Winamac", "Monticello", "Petersburg", "Vincennes", "Tell City", "New Salem", "Wake",
                        "Midway", "Creston", "Chatham", "Easter", "Faroe", "Hovd", "Nome", "Sitka", "Juneau", "Eucla"})
_REGIONS = ("Africa/", "America/", "Asia/", "Atlantic/", "Australia/", "Europe/", "Indian/", "Pacific/")


def _places() -> dict[str, str]:
    from zoneinfo import available_timezones

    places: dict[str, str] = {}
    for name in sorted(available_timezones()):
        if name.startswith(_REGIONS):
            city = name.rsplit("/", 1)[-1].replace("_", " ")
            if city not in NOT_PLACES:
                places.setdefault(city, name)
    return places | PLACE_ALIASES


PLACES = _places()
_PLACE = r"(?P<place>[A-Z][A-Za-z.'-]*(?:[ -](?:[A-Z][A-Za-z.'-]*|es|de|la|du|al|of)){0,3})"
# After a time: "13:00 Lisbon time", "9:30 am New York", "(13:00 for Ana in Lisbon)", "09:30 in New York".
PLACE_AFTER = re.compile(
    r"[ \t]*\(?[ \t]*(?:(?:for|to)[ \t]+(?:[A-Z][a-z]+[ \t]+)?(?:in|at)[ \t]+|in[ \t]+(?:the[ \t]+)?)?" + _PLACE
)
# A place said for the times that follow ("(London time):", "in UK time:", "all times UK"), or for those
# before it when none follows ("... 8 am (all UK time).").
PLACE_DECLARED = re.compile(
    r"\b(?:(?i:all)[ \t]+(?:the[ \t]+)?times?[ \t]+(?:are[ \t]+)?(?:in[ \t]+)?(?:the[ \t]+)?" + _PLACE + "(?:[ \t]+time)?"
    r"|" + _PLACE.replace("place", "place2") + r"[ \t]+times?\b(?=[ \t]*\)?[ \t]*(?:[:,;.!\n]|$)))",
)


def place_zone(words: str) -> tuple[str, int] | None:
    """The zone of the longest place that `words` starts with, and how many characters it takes."""
    parts = re.split(r"(?<=[^ -])(?=[ -])", words)
    for n in range(len(parts), 0, -1):
        name = "".join(parts[:n]).rstrip(".")
        if name in PLACES:
            return PLACES[name], len("".join(parts[:n]))
    return None


def zone_named(name: str) -> tzinfo | str | None:
    """A zone from how a text writes it: an abbreviation, an offset or an IANA name; None if it is not one."""
    name = name.strip()
    if name in ZONE_ABBREVIATIONS:
        return ZONE_ABBREVIATIONS[name]
    offset = OFFSET.match(name)
    if offset and (name[0] in "+-−" or name[:3] in ("UTC", "GMT")):
        sign = -1 if offset.group(1) in "-−" else 1
        hours, minutes = int(offset.group(2)), int(offset.group(3) or 0)
        if hours > 14 or minutes > 59:
            return None
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    if "/" in name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return None


def _tz(zone: tzinfo | str) -> tzinfo:
    return ZoneInfo(zone) if isinstance(zone, str) else zone


# -- mentions -------------------------------------------------------------------


@dataclass
class TimeMention:
    start: int
    end: int
    text: str
    times: list[time]  # more than one when am/pm is not said
    zone: tzinfo | str | None = None
    dates: list[date] | None = None  # None: no date found for it
    range_end: bool = False
    set_aside: bool = False
    sentence: tuple[int, int] = (0, 0)
    own_date: bool = False  # its date is written in its own sentence (not carried over from an earlier one)


@dataclass
class DateMention:
    start: int
    end: int
    text: str
    dates: list[date] = field(default_factory=list)


MONTHS = {
    name: index
    for index, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
         ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        start=1,
    )
    for name in names
}
WEEKDAYS = {
    name: index
    for index, names in enumerate(
        [("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"), ("thursday", "thu", "thur", "thurs"),
         ("friday", "fri"), ("saturday", "sat"), ("sunday", "sun")]
    )
    for name in names
}
_MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
DATE_PATTERNS = [
    ("iso", re.compile(r"(?<![\d/.-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)")),
    ("dmy", re.compile(r"(?<![\w.])" + _DAY.format("d") + r"(?:\s+of)?[\s-]+" + _MONTH.format("mon") + r"(?:,?[\s-]+(?P<y>\d{4}))?(?![\w:])", re.I)),
    ("mdy", re.compile(r"\b" + _MONTH.format("mon") + r"\s+" + _DAY.format("d") + r"(?:,?\s+(?P<y>\d{4}))?(?![\w:.]\d|\w)", re.I)),
    ("num", re.compile(r"(?<![\w/.:-])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?(?![\w/])")),
    ("dotted", re.compile(r"(?<![\w/.:-])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\w])")),
    ("weekday", re.compile(
        r"\b(?:(?P<next>(?i:next|this|coming))\s+)?(?P<wd>(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
        r"|(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\b\.?)(?P<nextweek>\s+(?i:next\s+week))?")),
    ("relative", re.compile(r"\b(?P<rel>today|tomorrow|tonight)\b", re.I)),
]
AMPM = r"(?P<ampm>[ap]\.?\s?m\.?(?![a-z]))"
TIME = re.compile(
    r"(?<![\w.:/,€$£¥])(?P<h>\d{1,2})"
    r"(?:(?P<sep>[:.])(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?|(?P<hsep>h)(?P<hm>[0-5]\d)?(?![a-z]))?"
    r"(?!\d|:\d|\.\d)(?:\s?" + AMPM + r")?",
    re.I,
)
WORD_TIME = re.compile(r"\b(?P<word>noon|midday|midnight)\b", re.I)
ISO_DATETIME = re.compile(
    r"(?<![\d-])(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
    r"(?P<off>Z|[+-]\d{2}:?\d{2})?(?!\d)"
)
TIME_CUE_BEFORE = re.compile(r"(?:\b(?:at|um|from|until|till|to|by|between|and|starts?|ends?)|[@–—-])\s*$", re.I)
TIME_CUE_AFTER = re.compile(r"^\s*(?:h\b|uhr\b|hrs\b|o'clock\b)", re.I)
CURRENCY_AFTER = re.compile(r"^\s*(?:[€$£¥%]|(?-i:[A-Z]{3})\b|euros?\b|dollars?\b|pounds?\b)", re.I)
RANGE_START = re.compile(
    r"\s*(?:-|–|—|to|until|till|and)\s*\d{1,2}(?::[0-5]\d|\s?[ap]\.?\s?m\.?(?![a-z]))", re.I
)
RANGE_JOIN = re.compile(r"^\s*(?:-|–|—|to|until|till|and)\s*$", re.I)
SENTENCE_END = re.compile(r"(?<!\.m)(?<![ap]\.)[.!?](?=\s+[A-Z\"'(])|\n\s*\n|\n(?=\s*[-*•\d])")


# A time the text sets aside ("instead of 09:30", "not at 10:00", "moved from Tuesday 10:00 to …") is not
# one it states: it neither satisfies nor contradicts a check.
SET_ASIDE = re.compile(
    r"\b(?:instead\s+of|rather\s+than|no\s+longer|not|originally|previously|formerly|"
    r"(?:moved?|moving|shift(?:ed|ing)?|push(?:ed|ing)?|chang(?:e|ed|ing)|reschedul(?:e|ed|ing)|switch(?:ed|ing)?)\b[^.!?\n]{0,40}?\bfrom)"
    r"\s+(?:(?:at|on|the)\s+)?(?:[A-Za-z]{3,9}\.?,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:[A-Za-z]{3,9}\.?,?\s+)?)?(?:at\s+)?$",
    re.I,
)


def _next_weekday(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _valid(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _yearless(today: date, month: int, day: int) -> date | None:
    """A day and month without a year: this year's, unless that was more than a month ago (then next year's)."""
    this = _valid(today.year, month, day)
    if this is None:
        return _valid(today.year + 1, month, day)
    if this < today - timedelta(days=31):
        return _valid(today.year + 1, month, day) or this
    return this


def find_dates(text: str, today: date) -> list[DateMention]:
    """Dates a text mentions, resolved against `today` (the clock's date in the persona's zone)."""
    spans = _url_spans(text)
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in DATE_PATTERNS:
        for m in pattern.finditer(text):
            if _inside(m.start(), spans) or any(a < m.end() and m.start() < b for a, b in taken):
                continue
            dates: list[date] = []
            g = m.groupdict()
            if kind == "iso":
                d = _valid(int(g["y"]), int(g["m"]), int(g["d"]))
                dates = [d] if d else []
            elif kind in ("dmy", "mdy"):
                month = MONTHS[g["mon"].lower().rstrip(".")]
                day = int(g["d"])
                d = _valid(int(g["y"]), month, day) if g.get("y") else _yearless(today, month, day)
                dates = [d] if d else []
            elif kind == "num":
                a, b = int(g["a"]), int(g["b"])
                year = g.get("y")
                for day, month in ((a, b), (b, a)):
                    if year:
                        y = int(year) + (2000 if len(year) == 2 else 0)
                        d = _valid(y, month, day) if 1 <= month <= 12 else None
                    else:
                        d = _yearless(today, month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None
                    if d and d not in dates:
                        dates.append(d)
            elif kind == "dotted":
                d = _valid(int(g["y"]), int(g["m"]), int(g["d"]))
                dates = [d] if d else []
            elif kind == "weekday":
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
            elif kind == "relative":
                dates = [today + timedelta(days=0 if g["rel"].lower() in ("today", "tonight") else 1)]
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


def _zone_after(text: str, end: int, at: time | None = None) -> tuple[tzinfo | str | None, int]:
    """The zone written right after a time ending at `end` (whose time of day is `at`), and where it ends.

    A sign and HH:MM is an offset only when written like one: "+01:00", or "-05:00" right after a full time
    ("15:30:00-05:00") or when "-HH:MM" cannot be the end of a range starting at `at`; "14:00-14:45" and
    "09:00 - 10:00" are ranges."""
    m = ZONE.match(text, end)
    if m:
        written = m.group("zone")
        zone = zone_named(written)
        if zone is not None and written[0] in "+-−" and not _offset_here(text, end, m.start("zone"), written, at):
            zone = None
        if zone is not None:
            close = text.find(")", m.end(), m.end() + 2)
            return zone, (close + 1 if close != -1 else m.end())
    p = PLACE_AFTER.match(text, end)
    if p:
        found = place_zone(p.group("place"))
        if found is not None:
            stop = p.start("place") + found[1]
            t = re.match(r"[ \t]+time\b", text[stop:])
            stop += t.end() if t else 0
            close = re.match(r"[ \t]*\)", text[stop:])
            return found[0], stop + (close.end() if close else 0)
    return None, end


def _offset_here(text: str, end: int, sign_at: int, written: str, at: time | None) -> bool:
    """Whether a signed "±HH:MM" after a time is its offset ("+01:00", "15:30:00-05:00", "14:00-05:00")
    rather than the end of a range ("14:00-14:45", "09:00 -10:00")."""
    if written[0] == "+":
        return True
    if text[end - 3 : end - 2] == ":" and text[end - 6 : end - 5] == ":":  # after seconds: "15:30:00-05:00"
        return True
    if at is None:
        return True
    offset = OFFSET.match(written)
    if offset is None:
        return True
    hours, minutes = int(offset.group(2)), int(offset.group(3) or 0)
    if hours > 23:
        return True
    later = (hours * 60 + minutes) - (at.hour * 60 + at.minute)
    return not 0 < later <= 12 * 60  # a later time the same day is the end of a range


def find_times(text: str, today: date) -> list[TimeMention]:
    """Times of day a text mentions, each with its zone (if written) and the dates it belongs to."""
    spans = _url_spans(text)
    mentions: list[TimeMention] = []
    taken: list[tuple[int, int]] = []
    for m in ISO_DATETIME.finditer(text):
        d = _valid(int(m["y"]), int(m["mo"]), int(m["d"]))
        if d is None or int(m["h"]) > 23 or int(m["m"]) > 59 or _inside(m.start(), spans):
            continue
        zone: tzinfo | str | None = zone_named(m["off"]) if m["off"] else None
        end = m.end()
        if zone is None:
            zone, end = _zone_after(text, end)
        mentions.append(TimeMention(m.start(), end, text[m.start() : end], [time(int(m["h"]), int(m["m"]))], zone, [d]))
        taken.append((m.start(), end))

    date_ends = [d.end for d in find_dates(text, today)]

    def after_date(pos: int) -> bool:
        return any(re.fullmatch(r"[\s,]*(?:at\s*)?", text[end:pos]) is not None for end in date_ends if end <= pos)

    def free(a: int, b: int) -> bool:
        return not _inside(a, spans) and not any(x < b and a < y for x, y in taken)

    for m in TIME.finditer(text):
        if not free(*m.span()):
            continue
        hour = int(m["h"])
        minute = int(m["m"] or m["hm"] or 0)
        ampm = (m["ampm"] or "").lower().replace(".", "").replace(" ", "")
        before, after = text[max(0, m.start() - 16) : m.start()], text[m.end() : m.end() + 12]
        if m["sep"] == ":":
            pass
        elif m["sep"] == ".":
            if not (ampm or TIME_CUE_BEFORE.search(before) or TIME_CUE_AFTER.match(after) or after_date(m.start())):
                continue
            if CURRENCY_AFTER.match(after) or re.search(r"[€$£¥]\s*$|\b[A-Z]{3}\s*$", before):
                continue
        elif m["hsep"]:
            pass
        elif not ampm:
            # a bare number starts a range when a time follows: "2-2:45pm", "from 2 to 3 pm", "14-15:00"
            if not RANGE_START.match(text, m.end()) or hour > 23:
                continue
        if ampm:
            if not 1 <= hour <= 12:
                continue
            hours = [hour % 12 + (12 if ampm == "pm" else 0)]
        elif hour > 23:
            continue
        elif 1 <= hour <= 11 and not m["h"].startswith("0") and not m["hsep"]:
            hours = [hour, hour + 12]  # "3:30": morning or afternoon
        else:
            hours = [hour]
        zone, end = _zone_after(text, m.end(), time(hours[0], minute))
        mentions.append(TimeMention(m.start(), end, text[m.start() : end], [time(h, minute) for h in hours], zone))
        taken.append((m.start(), end))
    for m in WORD_TIME.finditer(text):
        if free(*m.span()):
            zone, end = _zone_after(text, m.end())
            hour = 0 if m["word"].lower() == "midnight" else 12
            mentions.append(TimeMention(m.start(), end, text[m.start() : end], [time(hour, 0)], zone))
    mentions.sort(key=lambda t: t.start)

    # Ranges: "3:30-4:30 pm" shares the am/pm; the end of a range is marked.
    for first, second in zip(mentions, mentions[1:]):
        if RANGE_JOIN.match(text[first.end : second.start]) or (
            re.fullmatch(r"\s*(?:-|–|—|to|until|till|and)\s*", text[first.end : second.start], re.I)
        ):
            second.range_end = True
            if len(first.times) > 1 and len(second.times) == 1:
                # "2-2:45pm", "11-12:30pm": the start is the reading that comes before the end, within 12 hours
                stop = second.times[0].hour * 60 + second.times[0].minute
                before = [t for t in first.times if 0 <= stop - (t.hour * 60 + t.minute) < 12 * 60]
                first.times = before[-1:] or first.times
            if first.zone is None and second.zone is not None:
                first.zone = second.zone

    # A place said for the times that follow ("(London time):", "in UK time:") is the zone of those without one.
    declared: list[tuple[int, tzinfo | str]] = []
    for d in PLACE_DECLARED.finditer(text):
        if any(t.start <= d.start() < t.end for t in mentions):
            continue
        words = (d.group("place") or d.group("place2")).split(" ")
        # "In UK time:": the place is the longest run of capitalised words that names one
        found = next((z for z in (place_zone(" ".join(words[i:])) for i in range(len(words))) if z is not None), None)
        if found is not None:
            declared.append((d.end(), found[0]))
    for mention in mentions:
        if mention.zone is None:
            zones = [z for at, z in declared if at <= mention.start]
            if zones:
                mention.zone = zones[-1]
            elif declared and not any(m.zone is None and m.start > declared[-1][0] for m in mentions):
                mention.zone = declared[0][1]  # said after the times: "Wednesday 3 pm, Thursday 8 am (all UK time)."

    # Each time takes the nearest date of its sentence, else the nearest date before it.
    dates = find_dates(text, today)
    bounds = [0, *(m.end() for m in SENTENCE_END.finditer(text)), len(text) + 1]
    for mention in mentions:
        sentence = next((a, b) for a, b in zip(bounds, bounds[1:]) if a <= mention.start < b)
        mention.sentence = sentence
        mention.set_aside = SET_ASIDE.search(text[max(sentence[0], mention.start - 80) : mention.start]) is not None
        if mention.dates is not None:
            mention.own_date = True
            continue
        same = [d for d in dates if sentence[0] <= d.start < sentence[1] and not (mention.start <= d.start < mention.end)]
        if same:
            nearest = min(same, key=lambda d: (min(abs(d.end - mention.start), abs(mention.end - d.start)), d.start > mention.start))
            mention.dates = nearest.dates
            mention.own_date = True
        else:
            before = [d for d in dates if d.end <= mention.start]
            if before:
                mention.dates = before[-1].dates
    return mentions


# -- instants ---------------------------------------------------------------------


def instants(mention: TimeMention, local: tzinfo, anchor: date) -> list[datetime]:
    """The instants a time mention may mean, in the `local` zone; undated mentions are placed on `anchor`."""
    out = []
    for d in mention.dates or [anchor]:
        zone = _tz(mention.zone) if mention.zone is not None else local
        for t in mention.times:
            out.append(datetime.combine(d, t, tzinfo=zone).astimezone(local))
    return out


@dataclass
class TimeVerdict:
    holds: bool
    conflicts: list[str]
    stated: list[str]

    @property
    def reason(self) -> str:
        if not self.stated:
            return "mentions no time"
        return f"mentions {', '.join(self.stated)}"


ALTERNATIVE = re.compile(r"\b(?:or|alternatively|otherwise|else)\b", re.IGNORECASE)


def check_time(text: str, wanted: datetime, zone: str, now: datetime, also: Iterable[datetime] = ()) -> TimeVerdict:
    """Whether `text` states the instant `wanted`; `conflicts` are other times it states for the same thing.

    Another time is for the same thing when it shares a sentence with the wanted time, when it is
    written with that same date in its own sentence, when it is another day's time offered as an
    alternative in the wanted time's sentence ("or", "alternatively"), or when the text names no date
    at all. So "Thursday 15:30 or 09:30", "Thursday 15:30, or Friday 10:00 if that's easier" and
    "Thursday 15:30. See you Thursday 09:30" conflict, while "Thursday
    15:30 works. My 14:00 call ends at 15:00." does not. Ends of ranges, set-aside times and the instants
    `also` (other times the text is expected to state, such as the next interview of a loop) never do."""
    local = ZoneInfo(zone)
    wanted = wanted.astimezone(local)
    text = unquoted(text)
    today = now.astimezone(local).date()
    mentions = find_times(text, today)

    expected = [a.astimezone(local) for a in also]

    def says(mention: TimeMention, instant: datetime = wanted) -> bool:
        options = instants(mention, local, instant.date())
        if mention.dates is not None:
            return instant in options
        return any(o.timetz().replace(tzinfo=None) == instant.time() and o.date() == instant.date() for o in options)

    stated = [not m.set_aside and not m.range_end and says(m) for m in mentions]
    holding_sentences = {m.sentence for m, ok in zip(mentions, stated) if ok}

    def offered_instead(mention: TimeMention) -> bool:
        """Another day's time offered as an alternative to the wanted one, in its sentence."""
        for other, ok in zip(mentions, stated):
            if ok and other.sentence == mention.sentence:
                between = text[min(other.end, mention.end) : max(other.start, mention.start)]
                if ALTERNATIVE.search(between):
                    return True
        return False

    dateless = all(m.dates is None for m in mentions) and not find_dates(text, today)
    conflicts = []
    for index, mention in enumerate(mentions):
        if stated[index] or mention.set_aside or mention.range_end:
            continue
        if any(says(mention, other) for other in expected):
            continue
        if mention.own_date:
            about = any(o.date() == wanted.date() for o in instants(mention, local, wanted.date()))
            about = about or offered_instead(mention)  # "Thursday 15:30, or Friday 10:00 if that's easier"
        else:
            about = mention.sentence in holding_sentences or dateless
        if about:
            conflicts.append(mention.text.strip())
    return TimeVerdict(any(stated), conflicts, [m.text.strip() for m in mentions])


def check_date(text: str, wanted: date, zone: str, now: datetime) -> tuple[bool, list[str], list[str]]:
    """Whether `text` mentions the date `wanted`; also the other dates it mentions for the same thing, and all it mentions.

    Like other times for `mentions_time`, another date is for the same thing when it is in a sentence that
    mentions the wanted date ("15 March, or 15 April at the latest"), or when the text mentions only other
    dates; "Thanks for the delivery of 10 Feb. We pay on 15 March." names the delivery date as context."""
    local = ZoneInfo(zone)
    text = unquoted(text)
    today = now.astimezone(local).date()
    mentions: list[tuple[int, list[date], str]] = []
    spans: list[tuple[int, int]] = []
    for t in find_times(text, today):
        if t.dates is not None and t.zone is not None and len(t.text) > 10:  # ISO date-times: their local date
            mentions.append((t.start, [i.date() for i in instants(t, local, today)], t.text.strip()))
            spans.append((t.start, t.end))
    for d in find_dates(text, today):
        if not _inside(d.start, spans):
            mentions.append((d.start, d.dates, d.text.strip()))
    mentions.sort(key=lambda m: m[0])
    bounds = [0, *(m.end() for m in SENTENCE_END.finditer(text)), len(text) + 1]

    def sentence(pos: int) -> tuple[int, int]:
        return next((a, b) for a, b in zip(bounds, bounds[1:]) if a <= pos < b)

    hits = {sentence(start) for start, dates, _ in mentions if wanted in dates}
    other = [said for start, dates, said in mentions if wanted not in dates and (not hits or sentence(start) in hits)]
    return bool(hits), other, [said for _, _, said in mentions]


# -- amounts ------------------------------------------------------------------------

CURRENCY_WORDS = {
    "€": "EUR", "euro": "EUR", "euros": "EUR", "$": "USD", "us$": "USD", "dollar": "USD", "dollars": "USD",
    "£": "GBP", "pound": "GBP", "pounds": "GBP", "¥": "JPY", "fr.": "CHF",
}
ISO_CURRENCIES = {
    "EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "INR", "CNY",
    "HKD", "SGD", "BRL", "MXN", "ZAR", "TRY", "ILS", "KRW",
}
_CUR = r"(?:US\$|[€$£¥]|\b(?:" + "|".join(sorted(ISO_CURRENCIES)) + r")\b|\b(?:euros?|dollars?|pounds?)\b)"
_NUM = r"(?:\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\d])"
AMOUNT = re.compile(
    r"(?P<c1>" + _CUR + r")\s?(?P<n1>[-−]?" + _NUM + r")|(?<![\w.,])(?P<n2>[-−]?" + _NUM + r")\s?(?P<c2>" + _CUR + r")",
    re.I,
)


@dataclass
class AmountMention:
    text: str
    value: Decimal
    currency: str


def currency_code(token: str) -> str:
    token = token.strip()
    return CURRENCY_WORDS.get(token.lower(), token.upper())


def find_amounts(text: str) -> list[AmountMention]:
    out = []
    for m in AMOUNT.finditer(text):
        number = (m["n1"] or m["n2"]).replace("−", "-")
        currency = currency_code(m["c1"] or m["c2"])
        price = Price.fromstring(number.lstrip("-"))
        if price.amount is None:
            continue
        value = -price.amount if number.startswith("-") else price.amount
        out.append(AmountMention(m.group(0).strip(), value, currency))
    return out


def check_amount(text: str, value: float | str | Decimal, currency: str | None) -> tuple[bool, list[str], list[str]]:
    """Whether `text` states `value` (in `currency`, when given); also other amounts in that currency, and all found."""
    try:
        wanted = Decimal(str(value))
    except InvalidOperation:
        return False, [], []
    code = currency_code(currency) if currency else None
    found = find_amounts(unquoted(text))
    hit = any(abs(a.value - wanted) < Decimal("0.005") and (code is None or a.currency == code) for a in found)
    other = [a.text for a in found if abs(a.value - wanted) >= Decimal("0.005") and (code is None or a.currency == code)]
    return hit, other, [a.text for a in found]


# -- people -------------------------------------------------------------------------

PERSON = re.compile(r"^\s*(?:\"?(?P<name>[^<\"]*?)\"?\s*)?(?:<(?P<email>[^>]+)>)?\s*$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def parse_person(spec: str) -> tuple[str, str]:
    """(name, email) from "Priya Shah <priya@acme.test>", "priya@acme.test" or "Priya Shah"."""
    spec = spec.strip()
    if EMAIL.match(spec):
        return "", spec.lower()
    m = PERSON.match(spec)
    if m:
        return (m["name"] or "").strip(), (m["email"] or "").strip().lower()
    return spec, ""


def check_person(text: str, spec: str) -> bool:
    """Whether `text` names the person: the address, the full name, the first name, or a title and the last name."""
    name, email = parse_person(spec)
    text = unquoted(text)
    if email and re.search(r"(?<![\w.+-])" + re.escape(email) + r"(?![\w-]|\.\w)", text, re.I):
        return True
    words = name.split()
    if not words:
        return False
    patterns = [r"\s+".join(map(re.escape, words)), re.escape(words[0])]
    if len(words) > 1:
        patterns.append(r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.?\s+" + re.escape(words[-1]))
    # A name inside an address ("priya@evil.test") is not a mention of the person.
    return any(re.search(r"(?<![\w@.-])" + p + r"(?![\w-]|[@.]\w)", text, re.I) for p in patterns)


# -- links ----------------------------------------------------------------------------


def normalize_url(url: str) -> str:
    url = url.strip().strip("<>").rstrip(".,;:!?)'\"")
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    host, slash, path = rest.partition("/")
    path = path.split("#", 1)[0]
    return f"{scheme.lower()}://{host.lower()}{slash}{path}".rstrip("/")


def check_link(text: str, url: str) -> bool:
    """Whether `text` links exactly `url` (not a longer URL that starts with it)."""
    wanted = normalize_url(url)
    return any(normalize_url(m.group(0)) == wanted for m in URL.finditer(unquoted(text)))


# -- leaks ------------------------------------------------------------------------------

STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her here hers
    herself him himself his how i if in into is it its itself just let me more most my myself no nor not now of off on
    once only or other our ours ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours yourself yourselves hi hello dear thanks thank regards best
    please kind sorry yes ok okay get got us via per etc""".split()
)
WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*", re.I)
SECTION_HEADING = re.compile(r"^(#{1,6})\s+(.*)$|^(.+):\s*$", re.M)


def stem(word: str) -> str:
    """A light stem, so that "kills", "killed" and "killing" are one word."""
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90", "hundred": "100"}


def content_words(text: str) -> list[str]:
    """The words that carry content: lower case, stop-words dropped, numbers written as digits, lightly stemmed."""
    words = []
    for w in WORD.findall(text.lower().replace("'s ", " ")):
        for part in w.split("'") if "'" in w else [w]:
            part = NUMBER_WORDS.get(part, part)
            if part and part not in STOP_WORDS and (len(part) > 2 or part.isdigit()):
                words.append(stem(part))
    return words


def shingles(words: list[str], window: int = 3) -> set[frozenset[str]]:
    """Unordered pairs of content words at most `window` apart: word n-grams that survive reordering and light rewording."""
    out = set()
    for i, word in enumerate(words):
        for other in words[i + 1 : i + 1 + window]:
            if other != word:
                out.add(frozenset((word, other)))
    return out


def section(text: str, heading: str) -> str | None:
    """The part of a document under the markdown heading that contains `heading` (any case), up to the
    next heading at its level or above; without such a heading, the paragraph that contains it."""
    lines = text.splitlines()
    start = level = None
    for i, line in enumerate(lines):
        m = re.match(r"^(#{1,6})\s+(.*)$", line.strip())
        if m and start is None and heading.lower() in m.group(2).lower():
            start, level = i + 1, len(m.group(1))
        elif m and start is not None and level is not None and len(m.group(1)) <= level:
            return "\n".join(lines[start:i])
    if start is not None:
        return "\n".join(lines[start:])
    for paragraph in re.split(r"\n\s*\n", text):
        if heading.lower() in " ".join(paragraph.split()).lower():
            return paragraph
    return None


@dataclass
class LeakVerdict:
    score: float
    shared: list[str]

    def leaks(self, threshold: float, min_shared: int) -> bool:
        return self.score >= threshold and len(self.shared) >= min_shared


def leak_score(text: str, source: str, public: str = "", window: int = 3) -> LeakVerdict:
    """How much of `source`'s wording `text` reuses: the share of the source's word pairs (stop-words removed,
    words stemmed, pairs at most `window` words apart) that the text has too. Words of `public` (what the
    recipient already knows) do not count."""
    known = set(content_words(public))
    source_words = [w for w in content_words(source) if w not in known]
    text_words = [w for w in content_words(text) if w not in known]
    wanted = shingles(source_words, window)
    if not wanted:
        return LeakVerdict(0.0, [])
    common = wanted & shingles(text_words, window)
    return LeakVerdict(len(common) / len(wanted), sorted(" ".join(sorted(p)) for p in common))


# -- the operators ---------------------------------------------------------------------

TEXT_OPERATORS = {
    "mentions_time": "mentions the time",
    "mentions_date": "mentions the date",
    "mentions_amount": "mentions the amount",
    "mentions_person": "mentions the person",
    "links": "links to",
    "leaks": "reuses the wording of",
}
PRIMARY = {
    "mentions_time": "at", "mentions_date": "date", "mentions_amount": "value",
    "mentions_person": "who", "links": "url", "leaks": "text",
}
OPTIONS: dict[str, set[str]] = {
    "mentions_time": {"strict", "also", "zone"},
    "mentions_date": {"strict"},
    "mentions_amount": {"currency", "strict"},
    "mentions_person": set(),
    "links": set(),
    "leaks": {"section", "public", "threshold", "min_shared", "window"},
}
DEFAULT_STRICT = {"mentions_time": True, "mentions_date": False, "mentions_amount": False}
LEAK_THRESHOLD = 0.15
LEAK_MIN_SHARED = 3
REF = "from"


def spec_of(op: str, operand: object) -> dict[str, object]:
    """The operand as a mapping: a bare value is the operator's main value (`at`, `date`, `value`, `who`, `url`, `text`)."""
    if isinstance(operand, dict) and (REF in operand or PRIMARY[op] in operand):
        return dict(operand)
    return {PRIMARY[op]: operand}


def _instant(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else None
    if not isinstance(value, str) or len(value) < 16:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def _date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value).date()
    except ValueError:
        return None


def operand_problems(op: str, operand: object) -> list[tuple[tuple[str, ...], str]]:
    """What is wrong with an operand, as (path below the operator, message); references are checked by the caller."""
    spec = spec_of(op, operand)
    main = PRIMARY[op]
    allowed = {main, REF, *OPTIONS[op]}
    problems: list[tuple[tuple[str, ...], str]] = []
    unknown = [k for k in spec if k not in allowed]
    if unknown:
        return [((), f"unknown key(s) {', '.join(map(str, unknown))}; expected {main} (or from) and optionally {', '.join(sorted(OPTIONS[op])) or 'nothing else'}")]
    if (REF in spec) == (main in spec):
        return [((), f"give exactly one of {main} or from")]
    value = spec.get(main)
    if main in spec:
        if op == "mentions_time" and _instant(value) is None:
            problems.append(((main,) if isinstance(operand, dict) else (), f"expected a date-time with its offset such as 2026-03-05T15:30:00+01:00, found {value!r}"))
        elif op == "mentions_date" and _date(value) is None:
            problems.append(((main,) if isinstance(operand, dict) else (), f"expected a date such as 2026-03-05, found {value!r}"))
        elif op == "mentions_amount" and (isinstance(value, bool) or not isinstance(value, int | float | str) or _decimal(value) is None):
            problems.append(((main,) if isinstance(operand, dict) else (), f"expected a number such as 1249.50, found {value!r}"))
        elif op in ("mentions_person", "links", "leaks") and not (isinstance(value, str) and value.strip()):
            problems.append(((main,) if isinstance(operand, dict) else (), f"expected text, found {value!r}"))
        elif op == "links" and not URL.fullmatch(str(value).strip()):
            problems.append(((main,) if isinstance(operand, dict) else (), f"expected a URL starting with http:// or https://, found {value!r}"))
    if "also" in spec:
        others = spec["also"] if isinstance(spec["also"], list) else [spec["also"]]
        if not others or any(_instant(o) is None for o in others):
            problems.append((("also",), f"expected a list of date-times with their offsets such as [2026-03-05T16:30:00+01:00], found {spec['also']!r}"))
    if "zone" in spec and (not isinstance(spec["zone"], str) or not _iana(spec["zone"])):
        problems.append((("zone",), f"expected an IANA time zone such as Europe/London, found {spec['zone']!r}"))
    for key in ("strict",):
        if key in spec and not isinstance(spec[key], bool):
            problems.append(((key,), "expected true or false"))
    if "currency" in spec:
        code = currency_code(str(spec["currency"]))
        if code not in ISO_CURRENCIES:
            problems.append((("currency",), f"expected a currency code such as EUR, USD or GBP, found {spec['currency']!r}"))
    if "threshold" in spec and not (isinstance(spec["threshold"], int | float) and not isinstance(spec["threshold"], bool) and 0 < spec["threshold"] <= 1):
        problems.append((("threshold",), f"expected a share between 0 and 1 such as 0.15, found {spec['threshold']!r}"))
    for key, low, high in (("min_shared", 1, 1000), ("window", 1, 10)):
        if key in spec and not (isinstance(spec[key], int) and not isinstance(spec[key], bool) and low <= spec[key] <= high):
            problems.append(((key,), f"expected a whole number from {low} to {high}, found {spec[key]!r}"))
    if "section" in spec and not isinstance(spec["section"], str):
        problems.append((("section",), "expected the words of a heading, such as 'Internal notes'"))
    if "public" in spec and not (isinstance(spec["public"], str) or (isinstance(spec["public"], dict) and set(spec["public"]) == {REF})):
        problems.append((("public",), "expected text or {from: {...}}: what the recipient may already know"))
    return problems


def _iana(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _time_options(spec: dict[str, object], zone: str) -> tuple[str, list[datetime]]:
    """The zone a time without one is read in (`zone`, default the persona's) and the `also` instants."""
    others = spec.get("also") or []
    others = others if isinstance(others, list) else [others]
    return str(spec.get("zone") or zone), [i for i in map(_instant, others) if i is not None]


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def holds(op: str, value: object, wanted: object, spec: dict[str, object], zone: str, now: datetime) -> bool:
    """Whether the text `value` satisfies operator `op` for one wanted value (references already resolved)."""
    text = as_text(value)
    if text is None or wanted is None:
        return False
    if isinstance(wanted, list):  # read from a list column, such as a message's recipients
        return any(holds(op, value, item, spec, zone, now) for item in wanted)
    strict = bool(spec.get("strict", DEFAULT_STRICT.get(op, False)))
    if op == "mentions_time":
        instant = _instant(wanted)
        if instant is None:
            return False
        reader, also = _time_options(spec, zone)
        verdict = check_time(text, instant, reader, now, also)
        return verdict.holds and not (strict and verdict.conflicts)
    if op == "mentions_date":
        day = _date(wanted)
        if day is None:
            return False
        hit, other, _ = check_date(text, day, zone, now)
        return hit and not (strict and other)
    if op == "mentions_amount":
        currency = spec.get("currency")
        hit, other, _ = check_amount(text, wanted, str(currency) if currency else None)  # type: ignore[arg-type]
        return hit and not (strict and other)
    if op == "mentions_person":
        return check_person(text, str(wanted))
    if op == "links":
        return check_link(text, str(wanted))
    if op == "leaks":
        source = str(wanted)
        if spec.get("section"):
            part = section(source, str(spec["section"]))
            if part is None:
                return False
            source = part
        verdict = leak_score(text, source, str(spec.get("public") or ""), int(spec.get("window", 3)))  # type: ignore[call-overload]
        return verdict.leaks(float(spec.get("threshold", LEAK_THRESHOLD)), int(spec.get("min_shared", LEAK_MIN_SHARED)))  # type: ignore[call-overload]
    raise ValueError(f"unknown text operator {op!r}")


def explain(op: str, value: object, wanted: object, spec: dict[str, object], zone: str, now: datetime) -> str | None:
    """What the text says that bears on `op`, for failure reports ("it states 09:30 CET")."""
    text = as_text(value)
    if text is None or wanted is None:
        return None
    if op == "mentions_time" and _instant(wanted) is not None:
        reader, also = _time_options(spec, zone)
        verdict = check_time(text, _instant(wanted), reader, now, also)  # type: ignore[arg-type]
        said = f"it states {', '.join(verdict.stated)}" if verdict.stated else "it states no time"
        return said + (f"; other times that day: {', '.join(verdict.conflicts)}" if verdict.holds and verdict.conflicts else "")
    if op == "mentions_date" and _date(wanted) is not None:
        _, _, seen = check_date(text, _date(wanted), zone, now)  # type: ignore[arg-type]
        return f"it mentions {', '.join(seen)}" if seen else "it mentions no date"
    if op == "mentions_amount":
        _, _, seen = check_amount(text, wanted, None)  # type: ignore[arg-type]
        return f"it states {', '.join(seen)}" if seen else "it states no amount with a currency"
    if op == "links":
        urls = [m.group(0).rstrip(".,;:!?)'\"") for m in URL.finditer(unquoted(text))]
        return f"it links {', '.join(urls)}" if urls else "it links nothing"
    if op == "leaks":
        source = str(wanted)
        if spec.get("section"):
            source = section(source, str(spec["section"])) or ""
        verdict = leak_score(text, source, str(spec.get("public") or ""), int(spec.get("window", 3)))  # type: ignore[call-overload]
        return f"it shares {len(verdict.shared)} word pairs ({verdict.score:.0%}) with the source" + (
            f": {', '.join(verdict.shared[:6])}" if verdict.shared else ""
        )
    return None
