"""Times of day a text mentions, each with its zone (written or declared for it) and the dates it belongs to.

`15:30`, `3:30 pm`, `3.30pm`, `15h30`, `3 pm`, `noon`, `half past two`, `quarter to four`, `ten o'clock`, ISO
date-times; ranges state their start and share their am/pm; a time takes the nearest date of its sentence, else the
nearest date before it. A time is set aside (neither stated nor conflicting) after "instead of", "rather than", "no
longer", "not", "was" (when another time is stated), "can't make", "moved/pushed/changed ... from", before "doesn't
work", "is cancelled", and as the old time of a move ("Moving Thursday's 10:00 to Friday 10:00", "10:00 → 14:00");
the time a move goes to ("from 10:00 to 14:00–15:00") is stated, not the end of a range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time, tzinfo
from itertools import pairwise

from orchestrator.scenario.text.clean import inside, url_spans
from orchestrator.scenario.text.dates import DateMention, find_dates, valid_date
from orchestrator.scenario.text.parse import sentences
from orchestrator.scenario.text.time_aside import reasons_for_a_move, set_aside
from orchestrator.scenario.text.zones import (
    AT_DATE,
    OFFSET,
    ON_DATE,
    PLACE_AFTER,
    PLACE_DECLARED,
    ZONE,
    converted_days,
    place_before,
    place_zone,
    zone_named,
    zones_apart,
)


@dataclass
class TimeMention:
    """A time of day written in a text: where, the times it may mean, its zone and its dates."""

    start: int
    end: int
    text: str
    times: list[time]  # more than one when am/pm is not said
    zone: tzinfo | str | None = None
    dates: list[date] | None = None  # None: no date found for it
    range_end: bool = False
    set_aside: bool = False
    moved: bool = False  # set aside as the old time of a move: a time after it joined by "to" is the new one
    sentence: tuple[int, int] = (0, 0)
    own_date: bool = False  # its date is written in its own sentence (not carried over from an earlier one)
    other: bool = False  # said of something else (someone's availability, when a page was sent): set aside when
    # the text states another time
    bound: bool = False  # a bound ("not before 15:00", "anything after 16:00"): it competes with no stated time


AMPM = r"(?P<ampm>[ap]\.?\s?m\.?(?![a-z]))"
TIME = re.compile(
    r"(?<![\w.:/,€$£¥])(?P<h>\d{1,2})"
    r"(?:(?P<sep>[:.])(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?|(?P<hsep>h)(?P<hm>[0-5]\d)?(?![a-z]))?"
    r"(?!\d|:\d|\.\d)(?:\s?" + AMPM + r")?",
    re.I,
)
WORD_TIME = re.compile(r"\b(?P<word>noon|midday|midnight)\b", re.I)
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "one two three four five six seven eight nine ten eleven twelve".split(),
        start=1,
    )
}
_HOUR_WORD = r"(?P<{}>\d{{1,2}}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# "half past two", "quarter to four", "quarter past 10", "ten o'clock", with am/pm or a part of the day
CLOCK_WORDS = re.compile(
    r"\b(?:(?P<part>half|quarter|five|ten|twenty(?:[- ]five)?)\s+(?P<rel>past|to)\s+"
    + _HOUR_WORD.format("h")
    + r"|"
    + _HOUR_WORD.format("h2")
    + r"\s*o(?:'|’)?clock)\b(?:\s?"
    + AMPM
    + r"|\s+(?:in\s+the\s+)?(?P<day>morning|afternoon|evening|at\s+night))?",
    re.I,
)
ISO_DATETIME = re.compile(
    r"(?<![\d-])(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
    r"(?P<off>Z|[+-]\d{2}:?\d{2})?(?!\d)"
)
TIME_CUE_BEFORE = re.compile(
    r"(?:\b(?:at|um|from|until|till|to|by|between|and|starts?|ends?|do|say|make|so|now|than|instead\s+of|"
    r"about|it's|is)|[@–—-])\s*$",
    re.I,
)
# A bare hour is a time after a cue and before the end of a clause or a word of time: "at 4.", "by 10 tomorrow"
BARE_CUE = re.compile(r"\b(?:at|until|till|around|by|after|before)\s+$", re.I)
BARE_END = re.compile(
    r"^(?:[ \t]*(?:[.!?;)\n]|,\s|$)|\s+(?:sharp|then|latest|at\s+the\s+latest|tomorrow|today|tonight|for|with|"
    r"on\s+(?:mon|tue|wed|thu|fri|sat|sun)|(?:in\s+the\s+)?(?P<day>morning|afternoon|evening)|at\s+night)\b)",
    re.I,
)
AMOUNT_BY = re.compile(
    r"\b(?:grew|grow|rose|rise|fell|fall|up|down|increased?|decreased?|dropped|reduced?|cut|raised?|lowered)\b"
    r"[^.!?\n\d]{0,24}\bby\s+$",
    re.I,
)
MILITARY = re.compile(r"(?<![\w.:/,€$£¥])(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)\s?(?:hrs|hours)\b", re.I)
# "11.30–12.15": a dotted time that starts a range of times (not of amounts: "10.00 - 12.00 USD")
DOTTED_RANGE = re.compile(r"\s*(?:-|–|—|to)\s*\d{1,2}[.:][0-5]\d(?![\d.])")
TIME_CUE_AFTER = re.compile(r"^\s*(?:h\b|uhr\b|hrs\b|o'clock\b)", re.I)
CURRENCY_AFTER = re.compile(r"^\s*(?:[€$£¥%]|(?-i:[A-Z]{3})\b|euros?\b|dollars?\b|pounds?\b)", re.I)
RANGE_START = re.compile(
    r"[ \t]*(?:-|–|—|to|until|till|til|and)[ \t]*\d{1,2}(?::[0-5]\d|\s?[ap]\.?\s?m\.?(?![a-z]))|"
    r"[ \t]*(?:until|till|til|to|-|–)[ \t]*(?:half|quarter)\b",
    re.I,
)
RANGE_JOIN = re.compile(r"^\s*(?:-|–|—|to|until|till|til|and)\s*$", re.I)
# A range of bare hours: "between 7 and 9 in the morning", "10 til 12", "entre 9 et 11", "von 9 bis 12"
RANGE_OPEN = r"(?:between|from|entre|de|von|zwischen|dalle|tra|van)"
RANGE_WORDS = r"(?:-|–|—|to|until|till|til|and|et|e|y|und|bis|à|a|alle|tot)"
BARE_RANGE_START = re.compile(
    r"[ \t]*(?:(?:until|till|til)[ \t]*|(?<=\d)[ \t]*(?:-|–)[ \t]*(?=\d{1,2}[ \t]*(?:in\s+the|uhr|h\b)))"
    r"(?P<b>\d{1,2})(?![\d:.,]\d)",
    re.I,
)
OPENED_RANGE_START = re.compile(r"[ \t]*" + RANGE_WORDS + r"[ \t]*(?P<b>\d{1,2})(?![\d:.,]\d)", re.I)
BARE_RANGE_END = re.compile(
    r"(?:\b" + RANGE_OPEN + r"\s+\d{1,2}h?[ \t]*" + RANGE_WORDS + r"|\d{1,2}h?[ \t]*(?:until|till|til))[ \t]*$", re.I
)
RANGE_TAIL = re.compile(
    r"^(?:[ \t]*(?:[.!?;:,)\n]|$)|[ \t]*(?:h\b|uhr\b|hrs?\b|o'clock|[ap]\.?m\b)|"
    r"\s+(?:in|at|on|for|with|today|tomorrow|tonight|sharp|then|local|your|our|(?-i:[A-Z]{2,5})\b)\b)",
    re.I,
)


YOUR_TIME = re.compile(r"[ \t]*[(,]?[ \t]*(?:your|my|our|local)[ \t]+time\b(?:[ \t]*[(,][ \t]*(?:in[ \t]+)?)?")


def _zone_after(text: str, end: int, at: time | None = None) -> tuple[tzinfo | str | None, int]:
    """The zone written right after a time ending at `end` (whose time of day is `at`), and where it ends.

    "11:30 your time (Paris)" and "15:00 (your time, London)" are in the place named; "10:00 your time" alone is
    in the reader's zone.

    A sign and HH:MM is an offset only when written like one: "+01:00", or "-05:00" right after a full time
    ("15:30:00-05:00") or when "-HH:MM" cannot be the end of a range starting at `at`; "14:00-14:45" and
    "09:00 - 10:00" are ranges."""
    yours = YOUR_TIME.match(text, end)
    if yours:
        p = PLACE_AFTER.match(text, yours.end())
        found = place_zone(p.group("place")) if p else None
        if p is None or found is None:
            return None, yours.end()
        stop = p.start("place") + found[1]
        close = re.match(r"[ \t]*\)+", text[stop:])
        return found[0], stop + (close.end() if close else 0)
    m = ZONE.match(text, end)
    if m:
        written = m.group("zone")
        zone = zone_named(written)
        if zone is not None and written[0] in "+-−" and not _offset_here(text, end, m.start("zone"), written, at):
            zone = None
        if zone is not None:
            paren = text.find(")", m.end(), m.end() + 2)
            return zone, (paren + 1 if paren != -1 else m.end())
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
    dates = find_dates(text, today)
    spans = url_spans(text)
    taken: list[tuple[int, int]] = []  # what ISO date-times and clock times cover: no other time is read there
    mentions = _iso_times(text, spans, taken)
    mentions += _clock_times(text, spans, taken, [d.end for d in dates])
    for m in MILITARY.finditer(text):  # "0930 hrs"
        if _free(*m.span(), spans, taken):
            zone, end = _zone_after(text, m.end())
            mentions.append(TimeMention(m.start(), end, text[m.start() : end], [time(int(m["h"]), int(m["m"]))], zone))
            taken.append((m.start(), end))
    mentions += _word_ranges(text, spans, taken)
    mentions += _word_times(text, spans, taken)
    mentions += _word_range_starts(text, mentions, spans, taken)
    mentions.sort(key=lambda t: t.start)
    _sentences(text, mentions)
    set_aside(text, mentions)
    reasons_for_a_move(text, mentions)
    _join_ranges(text, mentions)
    if any(m.other for m in mentions) and any(not (m.other or m.set_aside or m.range_end) for m in mentions):
        for mention in mentions:
            mention.set_aside = mention.set_aside or mention.other
    _places_before(text, mentions)
    _declared_zones(text, mentions)
    _place_on_dates(text, mentions, dates)
    converted_days(text, mentions, dates)
    return mentions


def _free(a: int, b: int, spans: list[tuple[int, int]], taken: list[tuple[int, int]]) -> bool:
    return not inside(a, spans) and not any(x < b and a < y for x, y in taken)


def _iso_times(text: str, spans: list[tuple[int, int]], taken: list[tuple[int, int]]) -> list[TimeMention]:
    """ISO date-times (`2026-03-05T15:30+01:00`), dated and with their offset or the zone written after them."""
    found: list[TimeMention] = []
    for m in ISO_DATETIME.finditer(text):
        d = valid_date(int(m["y"]), int(m["mo"]), int(m["d"]))
        if d is None or int(m["h"]) > 23 or int(m["m"]) > 59 or inside(m.start(), spans):
            continue
        zone: tzinfo | str | None = zone_named(m["off"]) if m["off"] else None
        end = m.end()
        if zone is None:
            zone, end = _zone_after(text, end)
        found.append(TimeMention(m.start(), end, text[m.start() : end], [time(int(m["h"]), int(m["m"]))], zone, [d]))
        taken.append((m.start(), end))
    return found


def _clock_times(
    text: str, spans: list[tuple[int, int]], taken: list[tuple[int, int]], date_ends: list[int]
) -> list[TimeMention]:
    """Clock times (`15:30`, `3:30 pm`, `3.30pm`, `15h30`, `3 pm`, a bare hour that starts a range)."""
    found: list[TimeMention] = []
    for m in TIME.finditer(text):
        if not _free(*m.span(), spans, taken):
            continue
        hours = _hours(text, m, date_ends)
        if hours is None:
            continue
        minute = int(m["m"] or m["hm"] or 0)
        zone, end = _zone_after(text, m.end(), time(hours[0], minute))
        found.append(TimeMention(m.start(), end, text[m.start() : end], [time(h, minute) for h in hours], zone))
        taken.append((m.start(), end))
    return found


def _hours(text: str, m: re.Match[str], date_ends: list[int]) -> list[int] | None:
    """The hours a clock-time match may mean (both readings of `3:30`); None when it is no time (a decimal
    number or an amount such as `3.30 EUR`, a bare number that starts no range)."""
    hour = int(m["h"])
    ampm = (m["ampm"] or "").lower().replace(".", "").replace(" ", "")
    before, after = text[max(0, m.start() - 16) : m.start()], text[m.end() : m.end() + 12]
    if OFFSET_BEFORE.search(before):
        return None  # "IST is UTC+5:30": an offset, not a clock time
    if m["hsep"] and hour <= 4 and LENGTH_BEFORE.search(before):
        return None  # "Business tier (2h)", "soit 2h", "within 1h30": a length, not a clock time
    if m["sep"] == "." and not ampm:
        if not (
            TIME_CUE_BEFORE.search(before)
            or TIME_CUE_AFTER.match(after)
            or DOTTED_RANGE.match(text, m.end())
            or _after_date(text, m.start(), date_ends)
        ):
            return None
        if _amount_after(text[m.end() : m.end() + 24]) or re.search(r"[€$£¥]\s*$|\b[A-Z]{3}\s*$", before):
            return None
    elif m["sep"] != ":" and not m["hsep"] and not ampm and not TIME_CUE_AFTER.match(after):
        # a bare number starts a range when a time follows: "2-2:45pm", "from 2 to 3 pm", "14-15:00"; or it
        # is an hour said with its cue: "at 4.", "by 10 tomorrow", "at 7 in the evening"
        bare = BARE_END.match(text[m.end() : m.end() + 40])
        ranged = _bare_range(text, m)
        if bare and (BARE_CUE.search(before) or ranged) and not AMOUNT_BY.search(before) and 1 <= hour <= 23:
            if bare["day"] and hour < 12:
                return [hour] if bare["day"].lower() == "morning" else [hour + 12]
        elif not (RANGE_START.match(text, m.end()) or ranged) or hour > 23:
            return None
    if ampm:
        if not 1 <= hour <= 12:
            return None
        return [hour % 12 + (12 if ampm == "pm" else 0)]
    if hour > 23:
        return None
    if 1 <= hour <= 11 and not m["h"].startswith("0") and not m["hsep"]:
        return [hour, hour + 12]  # "3:30": morning or afternoon
    return [hour]


OFFSET_BEFORE = re.compile(r"\b(?:UTC|GMT)\s*[+\-−]\s*$", re.I)
LENGTH_BEFORE = re.compile(
    r"(?:\(|\bsoit|\bi\.e\.|=|\bfor|\bwithin|\btakes?|\btook|\blasts?|~|\babout|\bapprox\.?|\bevery|\bde|\bdurée|"
    r"\bdauer|\bduración)\s*$",
    re.I,
)


def _bare_range(text: str, m: re.Match[str]) -> bool:
    """A bare hour that starts or ends a range of hours: "10 til 12", "between 7 and 9 in the morning", "entre 9 et
    11h" (not "between 12 and 14 people": a range of hours ends the clause, or a word of time or place follows)."""
    if not 0 <= int(m["h"]) <= 24:
        return False
    start = BARE_RANGE_START.match(text, m.end())
    if start is None and re.search(r"\b" + RANGE_OPEN + r"\s+$", text[max(0, m.start() - 12) : m.start()], re.I):
        start = OPENED_RANGE_START.match(text, m.end())
    if start is not None and int(start["b"]) <= 24:
        tail = text[start.end() : start.end() + 40]
        return RANGE_TAIL.match(tail) is not None or TIME_CUE_AFTER.match(tail) is not None
    if start is None and RANGE_START.match(text, m.end()):
        return False
    return bool(BARE_RANGE_END.search(text[max(0, m.start() - 30) : m.start()])) and (
        RANGE_TAIL.match(text[m.end() : m.end() + 40]) is not None
    )


def _amount_after(after: str) -> bool:
    """Whether what follows a dotted number makes it an amount: a currency ("3.30 EUR", not "9.30 CET"), or a
    range ending in one ("14.30 to 15.00 EUR")."""
    end = re.match(r"\s*(?:-|–|—|to|and)\s*\d{1,2}[.,]\d{2}", after)
    currency = CURRENCY_AFTER.match(after[end.end() if end else 0 :])
    return currency is not None and zone_named(currency.group(0)) is None


def _after_date(text: str, pos: int, date_ends: list[int]) -> bool:
    return any(re.fullmatch(r"[\s,:]*(?:at\s*)?", text[end:pos]) is not None for end in date_ends if end <= pos)


def _word_times(text: str, spans: list[tuple[int, int]], taken: list[tuple[int, int]]) -> list[TimeMention]:
    """`noon`, `midday`, `midnight`; `half past two`, `quarter to four`, `ten o'clock`."""
    found: list[TimeMention] = []
    for m in WORD_TIME.finditer(text):
        if _free(*m.span(), spans, taken):
            zone, end = _zone_after(text, m.end())
            hour = 0 if m["word"].lower() == "midnight" else 12
            found.append(TimeMention(m.start(), end, text[m.start() : end], [time(hour, 0)], zone))
    for m in HALF_HOUR.finditer(text):  # British "half seven": half past seven
        hour = NUMBER_WORDS.get(m["h"].lower()) or int(m["h"])
        if not _free(*m.span(), spans, taken):
            continue
        zone, end = _zone_after(text, m.end())
        times = [time(h, 30) for h in _day_hours(hour, m)]
        found.append(TimeMention(m.start(), end, text[m.start() : end], times, zone))
        taken.append((m.start(), end))
    for m in AT_WORD_HOUR.finditer(text):  # "kick off at six, so", "until eleven."
        bare = BARE_END.match(text[m.end() : m.end() + 40])
        if bare is None or not _free(*m.span("h"), spans, taken) or CLOCK_WORDS.match(text, m.start("h")):
            continue
        hour = NUMBER_WORDS[m["h"].lower()]
        if bare["day"]:
            hours = [hour % 12] if bare["day"].lower() == "morning" else [hour % 12 + 12]
        else:
            hours = [hour % 12, hour % 12 + 12]
        found.append(TimeMention(m.start("h"), m.end(), m["h"], [time(h, 0) for h in hours]))
        taken.append(m.span("h"))
    for m in CLOCK_WORDS.finditer(text):
        written = (m["h"] or m["h2"]).lower()
        hour = NUMBER_WORDS.get(written) or int(written)
        if not _free(*m.span(), spans, taken) or not 1 <= hour <= 23:
            continue
        part = re.sub(r"[- ]+", " ", (m["part"] or "").lower())
        minute = {"half": 30, "quarter": 15, "five": 5, "ten": 10, "twenty": 20, "twenty five": 25}.get(part, 0)
        if part not in ("", "half", "quarter") and (m["rel"] or "").lower() == "to" and not m["ampm"] and not m["day"]:
            if RANGE_TAIL.match(text[m.end() : m.end() + 40]) is None:
                continue  # "ten to twelve people": a range of numbers, not 11:50
        if (m["rel"] or "").lower() == "to":
            hour, minute = (hour - 1) or 12, 60 - minute
        zone, end = _zone_after(text, m.end())
        times = [time(h, minute) for h in _day_hours(hour, m)]
        found.append(TimeMention(m.start(), end, text[m.start() : end], times, zone))
        taken.append((m.start(), end))
    return found


AT_WORD_HOUR = re.compile(
    r"\b(?:at|until|till)\s+(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I
)
"""An hour in words after its cue and before the end of a clause or a word of time: "at six, so", "until ten"."""
HALF_HOUR = re.compile(
    r"\bhalf\s+(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|1[0-2]|[1-9])\b(?![:.,]\d)"
    r"(?!\s*(?:past|to|of|the|an?|hours?|hrs?|days?|weeks?|months?|years?|people|percent|%|x)\b)(?:\s?"
    + AMPM
    + r"|\s+(?:in\s+the\s+)?(?P<day>morning|afternoon|evening|at\s+night))?",
    re.I,
)
_WORD_HOUR = r"(?P<{}>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# "two to three in the afternoon", "nine to eleven am": a range of hours in words, its part of the day after it
WORD_RANGE = re.compile(
    r"\b"
    + _WORD_HOUR.format("a")
    + r"\s*(?:to|until|till|-|–)\s*"
    + _WORD_HOUR.format("b")
    + r"(?:\s?"
    + AMPM
    + r"|\s+(?:in\s+the\s+)?(?P<day>morning|afternoon|evening))",
    re.I,
)


def _word_ranges(text: str, spans: list[tuple[int, int]], taken: list[tuple[int, int]]) -> list[TimeMention]:
    """A range of hours in words with its part of the day: its start and its end."""
    found: list[TimeMention] = []
    for m in WORD_RANGE.finditer(text):
        if not _free(*m.span(), spans, taken):
            continue
        pm = (m["ampm"] or "").lower().startswith("p") or (m["day"] or "").lower() in ("afternoon", "evening")
        a, b = NUMBER_WORDS[m["a"].lower()], NUMBER_WORDS[m["b"].lower()]
        start_hour = a % 12 + (12 if pm and (a <= b or a == 12) else 0)
        end_hour = b % 12 + (12 if pm else 0)
        zone, end = _zone_after(text, m.end())
        found.append(TimeMention(m.start(), m.start() + len(m["a"]), m["a"], [time(start_hour % 24, 0)], zone))
        found.append(TimeMention(m.start("b"), end, text[m.start("b") : end], [time(end_hour % 24, 0)], zone))
        taken.append((m.start(), end))
    return found


WORD_RANGE_START = re.compile(
    r"(?:\b(?:from|between)\s+" + _WORD_HOUR.format("a") + r"\s*(?:to|until|till|and|-|–)"
    r"|\b" + _WORD_HOUR.format("b") + r"\s+(?:to|until|till))\s*(?:an?\s+)?$",
    re.I,
)


def _word_range_starts(
    text: str, mentions: list[TimeMention], spans: list[tuple[int, int]], taken: list[tuple[int, int]]
) -> list[TimeMention]:
    """An hour in words that starts a range whose end is a time in words ("from three to half past three in the
    afternoon"): its start, in both halves of the day until the range's end picks one."""
    found: list[TimeMention] = []
    for mention in mentions:
        if not mention.text[:1].isalpha():
            continue
        m = WORD_RANGE_START.search(text, max(0, mention.start - 20), mention.start)
        if m is None:
            continue
        group = "a" if m["a"] else "b"
        if not _free(*m.span(group), spans, taken):
            continue
        hour = NUMBER_WORDS[m[group].lower()] % 12
        readings = [time(hour, 0), time(hour + 12, 0)]
        if len(mention.times) == 1:  # the end's half of the day picks the start's: the reading before it within 12 h
            stop = mention.times[0].hour * 60 + mention.times[0].minute
            readings = [t for t in readings if 0 <= stop - t.hour * 60 < 12 * 60][-1:] or readings
        found.append(TimeMention(*m.span(group), m[group], readings, mention.zone))
        mention.range_end = True
        taken.append(m.span(group))
    return found


def _day_hours(hour: int, m: re.Match[str]) -> list[int]:
    """The hours a spoken hour may mean: "two" is 02 or 14, "two pm" or "two in the afternoon" is 14."""
    if hour > 12:
        return [hour]
    ampm = (m["ampm"] or "").lower().replace(".", "").replace(" ", "")
    day = (m["day"] or "").lower()
    if ampm == "am" or day == "morning":
        return [hour % 12]
    if ampm == "pm" or day:
        return [hour % 12 + 12]
    return [hour % 12, hour % 12 + 12]


def _sentences(text: str, mentions: list[TimeMention]) -> None:
    spans = sentences(text)
    for mention in mentions:
        mention.sentence = next(((a, b) for a, b in spans if a <= mention.start < b), (mention.start, mention.end))


def _join_ranges(text: str, mentions: list[TimeMention]) -> None:
    """Ranges: "3:30-4:30 pm" shares the am/pm; the end of a range is marked. The old and new time of a move
    ("from 10:00 to 14:00", "10:00 → 14:00") are no range: the new one is stated."""
    for first, second in pairwise(mentions):
        gap = text[first.end : second.start]
        if "\n" in gap:
            continue  # "... to 5\n- 10:13 resolved": a list's next line, not the end of a range
        arrow = re.fullmatch(r"\s*(?:→|->|=>|⟶)\s*", gap) is not None
        aside = re.fullmatch(
            r"\s*[(,]\s*(?:until|till|to|ending(?:\s+at)?|ends?\s+at|finishing(?:\s+at)?)\s*", gap, re.I
        )
        if not (arrow or aside or re.fullmatch(r"\s*" + RANGE_WORDS + r"\s*", gap, re.I)):
            continue  # "3pm AEDT (until 4pm)" and "10:00, ending at 11:00" end a range too
        if not arrow and first.zone is not None and second.zone is not None and zones_apart(first.zone, second.zone):
            continue  # "11:00 Berlin — 12:00 in Kyiv": the same time in another zone, not the end of a range
        if first.moved and (arrow or re.fullmatch(r"\s*to\s*", gap, re.I)):
            second.set_aside = False  # "from 10:00 to 14:00": 14:00 is the new time
        elif not arrow:
            second.range_end = True
            second.moved = first.moved  # "from 14:00-15:00 to 16:00-17:00"
        if len(first.times) > 1 and len(second.times) == 1:
            # "2-2:45pm", "11-12:30pm": the start is the reading that comes before the end, within 12 hours
            stop = second.times[0].hour * 60 + second.times[0].minute
            before = [t for t in first.times if 0 <= stop - (t.hour * 60 + t.minute) < 12 * 60]
            first.times = before[-1:] or first.times
        if first.zone is None and second.zone is not None:
            first.zone = second.zone


def _places_before(text: str, mentions: list[TimeMention]) -> None:
    """A place written right before a time without a zone is its zone: "London: 14:00", "Tom (London): 14:00"."""
    for index, mention in enumerate(mentions):
        if mention.zone is not None:
            continue
        line = max(text.rfind("\n", 0, mention.start) + 1, mentions[index - 1].end if index else 0)
        found = place_before(text[line : mention.start])
        if found is not None:
            mention.zone = found[0]


def _declared_zones(text: str, mentions: list[TimeMention]) -> None:
    """A place said for the times that follow ("(London time):", "in UK time:") is the zone of those without one."""
    declared: list[tuple[int, tzinfo | str]] = []
    for d in PLACE_DECLARED.finditer(text):
        if any(t.start <= d.start() < t.end for t in mentions):
            continue
        words = (d.group("place") or d.group("place2")).split(" ")
        # "In UK time:": the place is the longest run of capitalised words that names one
        found = next((z for z in (place_zone(" ".join(words[i:])) for i in range(len(words))) if z is not None), None)
        if found is not None:
            declared.append((d.end(), found[0]))
        elif (abbreviation := zone_named(words[-1].rstrip(".:"))) is not None:  # "All times are local (CEST)"
            declared.append((d.end(), abbreviation))
    for mention in mentions:
        if mention.zone is None:
            zones = [z for at, z in declared if at <= mention.start]
            if zones:
                mention.zone = zones[-1]
            elif declared and not any(m.zone is None and m.start > declared[-1][0] for m in mentions):
                mention.zone = declared[0][1]  # said after the times: "Wednesday 3 pm, Thursday 8 am (all UK time)."


def _place_on_dates(text: str, mentions: list[TimeMention], dates: list[DateMention]) -> None:
    """Each time takes the date written right before it ("Wed 3 Feb at 10:00 — Thursday didn't suit"), else the
    nearest date of its sentence, else the nearest date before it; a time not set aside
    takes no date that is (the old day of a move, a cancelled one) while another is there."""
    from orchestrator.scenario.text.roles import set_aside

    spans = sentences(text)
    aside = {
        d.start
        for d in dates
        if set_aside(text, d.start, d.end, next(((a, b) for a, b in spans if a <= d.start < b), (d.start, d.end)))
    }
    for mention in mentions:
        sentence = mention.sentence
        if mention.dates is not None:
            mention.own_date = True
            continue
        same = [
            d for d in dates if sentence[0] <= d.start < sentence[1] and not (mention.start <= d.start < mention.end)
        ]
        if not mention.set_aside and any(d.start not in aside for d in same):
            same = [d for d in same if d.start not in aside]  # "Tue 30 March (moved from Mon 29)": the day it is on
        if same:
            nearest = min(same, key=lambda d: _joined(text, d, mention))
            mention.dates = nearest.dates
            mention.own_date = True
        else:
            before = [d for d in dates if d.end <= mention.start]
            if not mention.set_aside and any(d.start not in aside for d in before):
                before = [d for d in before if d.start not in aside]
            if any(not _in_brackets(text, d.start) for d in before):  # "Date: Tuesday 8 September (Monday the
                before = [d for d in before if not _in_brackets(text, d.start)]  # 7th is Labour Day)": an aside's
            if before:  # day is not the day of the times after it
                mention.dates = before[-1].dates


def _joined(text: str, d: DateMention, mention: TimeMention) -> tuple[int, int, bool]:
    """How closely a date of its sentence belongs to a time, lowest first: written right before it ("Wed 3 Feb at
    10:00", "next Tuesday (the 8th) at 3pm") or right after it ("10:00 on Friday"); else by distance."""
    if d.end <= mention.start and AT_DATE.fullmatch(text, d.end, mention.start):
        return (0, 0, False)
    if d.start >= mention.end and ON_DATE.fullmatch(text, mention.end, d.start):
        return (1, 0, False)
    return (2 + (d.start > mention.start), min(abs(d.end - mention.start), abs(mention.end - d.start)), False)


def _in_brackets(text: str, at: int) -> bool:
    """Whether `at` is inside brackets opened on its line."""
    line = text.rfind("\n", 0, at) + 1
    return text.rfind("(", line, at) > text.rfind(")", line, at)
