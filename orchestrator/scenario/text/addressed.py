"""What a message tells one of its recipients: the times addressed to them, read in their zone.

A mail to several people often gives each their own time: "Priya, that's 9:30 your time; Sam, 14:30 your time",
"- Anna — 12:00 for you in Berlin", a table row per person. Each time in a sentence that names recipients belongs
to the recipient named nearest it (in its clause first); "your time", "for you" and "(yours)" are read in the
zone of the person the time belongs to. When no sentence names the recipient beside a time, the whole message is
theirs, its "your time" in their zone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta, tzinfo
from itertools import pairwise
from typing import NamedTuple
from zoneinfo import ZoneInfo

from orchestrator.scenario.text.claims import asserted
from orchestrator.scenario.text.dates import DateMention
from orchestrator.scenario.text.instants import _times
from orchestrator.scenario.text.parse import MONTH, WEEKDAY, clauses, parse
from orchestrator.scenario.text.times import TimeMention

TIME_TOKEN = re.compile(
    r"\b\d{1,2}(?:[:.h]\d{2})?\s?(?:[ap]\.?m\.?)?(?=\W|$)(?<!\d{3})|\b(?:noon|midday|midnight|half\s+past|quarter\s+(?:past|to)|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:\s+o'clock)?)\b",
    re.I,
)
CLOCK = re.compile(r"\d{1,2}[:.h]\d{2}|\d\s?[ap]\.?m\b|\b(?:noon|midday|half\s+past|o'clock)\b", re.I)
YOURS = re.compile(
    r"(?P<phrase>[ \t]*(?:\(\s*yours\s*\)|,?\s*(?:your|ur)\s+(?:local\s+)?time|for\s+(?:both\s+of\s+)?you(?:\s+both)?|"
    r"(?:on\s+)?your\s+(?:side|end|clock)))(?P<after>[ \t]*(?:\(?\s*(?:in\s+)?(?:[A-Z][\w./-]+|[A-Z]{2,5})\)?)?)",
    re.I,
)


_HELLO = r"(?:hi|hello|hey|dear|morning|good\s+(?:morning|afternoon|evening)|hallo|hola|ol[áa]|bonjour|ciao|hei|hej)\b"
_CALLED = r"[A-ZÀ-Þ][\w'’-]*(?:[ \t][A-ZÀ-Þ][\w'’-]*)?"
GREETING = re.compile(
    r"^\W*(?:(?i:" + _HELLO + r")[^,:!\n—–]*[,:!—–](?:[ \t]*(?i:" + _HELLO + r"|and\b)[^,:!\n—–]*[,:!—–])*|"
    r"(?:"
    + _CALLED
    + r"[ \t]*(?:,|&|\band\b)[ \t]*)+(?:(?i:and)[ \t]+)?"
    + _CALLED
    + r"[ \t]*[—–:]|"
    + _CALLED
    + r"[ \t]*,[ \t]*\n)"
)
"""A greeting ("Hi Priya and Sam,", "Hi Ryan, hi Shauna —", "Sam, Priya — the demo is ...", "Kenji,⏎"): the names
in it address the whole message, not one of its times."""


def _found(patterns: Mapping[str, re.Pattern[str]], sentence: str, a: int) -> dict[str, list[int]]:
    """Where each recipient is spoken to in a sentence (offsets of the text), the greeting left out."""
    greeting = GREETING.match(sentence)
    skip = greeting.end() if greeting else 0
    found = {n: [m.start() + a for m in p.finditer(sentence) if m.start() >= skip] for n, p in patterns.items()}
    return {n: at for n, at in found.items() if at}


def _first(name: str) -> str:
    return name.split()[0] if name.split() else name


def _names(name: str) -> re.Pattern[str]:
    """The recipient's name where a message speaks to them: "Priya, ...", "Priya: 9:30", "- Anna — 12:00",
    "Sarah (NYC): 10:00", "Leila 13:00" (a name right before its time), "for Sam", "@Lars"; not "Lee is free until
    16:30" (a person spoken of)."""
    words = "|".join(sorted((re.escape(w) for w in {name.strip(), _first(name)} if w), key=len, reverse=True))
    return re.compile(
        r"(?:(?<=\bfor\s)|(?<=\bto\s)|(?<=@))(?:" + words + r")(?!\w)|"
        r"(?<!\w)(?:" + words + r")(?=(?:[ \t]*\([^()\n]{1,30}\))?(?:\s*(?:[,:;|–—]|\s-\s|\)|\.\s*$|"
        r"\s+(?:that's|that\s+is|this\s+is|it's|it\s+is)\b)|[ \t]+\d{1,2}(?:[:.h]\d{2}|\s?[ap]\.?m\b)))",
        re.M,
    )


def _in_zone(piece: str, zone: str) -> str:
    """ "your time", "for you", "(yours)" read in `zone`, unless a place or zone is written right after them."""

    def put(m: re.Match[str]) -> str:
        after = m.group("after")
        if after.strip():
            return " " + after.strip()  # "for you in Chicago", "your time (IST)": the place written decides
        return f" {zone}"

    return YOURS.sub(put, piece)


def addressed_to(text: str, zone: str, name: str, others: Mapping[str, str] | None = None) -> str:
    """The part of `text` that tells the recipient `name` (in `zone`) a time, with "your time" in their zone; the
    others' names with their zones (`others`) tell whose the other times are."""
    parsed = parse(text)
    own = parsed.text
    people = {name: zone, **{n: z for n, z in (others or {}).items() if n and n != name}}
    patterns = {n: _names(n) for n in people if n.strip()}
    mine: list[str] = []
    named_anywhere = hedged = False
    kept = asserted(own, "time")  # a hedge or undercut of a clause governs the times given to someone in it
    for a, b in parsed.sentences:
        sentence = own[a:b]
        found = _found(patterns, sentence, a)
        if not found or not CLOCK.search(sentence):
            continue
        if name not in found and len(found) >= 1 and not YOURS.search(sentence):
            continue
        pieces = _owned(own, a, b, found)
        if name in found:
            named_anywhere = True
        yours = YOURS.search(sentence) is not None  # "Kenta, it's midnight for you (Saturday 00:00)"
        mine += [_for_them(own, p, zone, yours) for p in pieces.get(name, []) if _asserted(own, kept, p)]
        hedged = hedged or any(not _asserted(own, kept, p) for p in pieces.get(name, []))
    if named_anywhere and (hedged or any(CLOCK.search(p) for p in mine)):
        return "\n".join(mine)
    if others:
        theirs = _in_their_zone(kept, zone)  # of what the text asserts: "12:00 New York time or 13:00" tells none
        if theirs:  # "11:00 Berlin, 12:00 in Kyiv, 14:00 in Tbilisi": what tells them is the time in their zone
            return "\n".join(theirs)
    given: list[tuple[int, int, str, Piece]] = []
    for a, b in parsed.sentences:  # the times given to others by name
        sentence = own[a:b]
        named = {n: at for n, at in _found(patterns, sentence, a).items() if n != name}
        if named and CLOCK.search(sentence):
            given += [(a, b, n, p) for n, owned in _owned(own, a, b, named).items() for p in owned]
    personal = len({n for _, _, n, _ in given}) > 1
    rest = {a: own[a:b] for a, b in parsed.sentences}
    for a, _, _, piece in given:  # the message's own times, without those addressed to others: a time after one
        if not (piece.entry or personal or YOURS.search(rest[a])):  # recipient's name alone ("No problem, Brian -
            continue  # moved it to 4:30 pm") is said to all, unless the text gives different people their times
        sentence = rest[a]
        rest[a] = sentence[: piece.start - a] + " " * (piece.end - piece.start) + sentence[piece.end - a :]
    return _in_zone("\n".join(rest.values()), zone)


def _asserted(text: str, kept: str, piece: Piece) -> bool:
    """Whether the claims reader keeps the times of a piece (`kept`: the text with what it does not assert blanked):
    "I'm proposing Thursday 14:00 UTC (20:30 for you, Anil) - not confirmed yet" tells Anil no time."""
    return any(
        kept[m.start() : m.end()] == m.group(0) for m in CLOCK.finditer(text, piece.start, piece.end)
    ) or not CLOCK.search(text, piece.start, piece.end)


def _in_their_zone(text: str, zone: str) -> list[str]:
    """The times a text gives in the recipient's own zone (by its place or abbreviation), each written with its
    date: a conversion for them, when the text gives several zones' times and names none of its recipients."""
    from orchestrator.scenario.text.dates import find_dates
    from orchestrator.scenario.text.times import find_times
    from orchestrator.scenario.text.zones import as_tzinfo

    mentions = find_times(text, date.today())
    days = find_dates(text, date.today())
    kept = asserted(text, "time")  # a conversion under a hedge tells no one its time
    zoned = [m for m in mentions if m.zone is not None and not m.set_aside and not m.range_end]
    if len(zoned) < 2 or len({str(m.zone) for m in zoned}) < 2:
        return []
    local = ZoneInfo(zone)
    ends = {id(a): b for a, b in pairwise(mentions) if b.range_end}
    out = []
    for m in zoned:
        day = (m.dates or [date.today()])[0]
        noon = datetime.combine(day, time(12))
        if kept[m.start : m.end] != text[m.start : m.end]:
            continue
        if as_tzinfo(m.zone).utcoffset(noon) == local.utcoffset(noon) and m.dates is not None:  # type: ignore[arg-type]  # zoned mentions have a zone
            said = [d for d in days if d.dates == m.dates]  # the date as written: read again on the message's clock
            before = [d for d in said if d.start < m.start]
            written = (before[-1] if before else said[0]).text if said else _day_written(days, m, day)
            if len(m.times) > 1:  # "nine Singapore time": as written, its am or pm left to the reader, with the
                # place a range gives at its end ("10:30-11:00 in Zurich and Johannesburg": 10:30 there)
                placed = find_times(m.text.strip(), day)
                there = "" if placed and placed[0].zone is not None else f" {zone}"
                out.append(f"{written} {m.text.strip()}{there}")
                continue
            clock = m.times[0].strftime("%H:%M")
            end = ends.get(id(m))  # "18:00–22:00 EDT": the range, with its end
            if end is not None and len(end.times) == 1:
                clock += "–" + end.times[0].strftime("%H:%M")
            out.append(f"{written} {clock} {zone}")
    return out


def _day_written(days: Sequence[DateMention], mention: TimeMention, day: date) -> str:
    """The day of a time whose date is not written as such (a conversion into another zone that falls on the day
    after or before: "Friday 18 September, 08:00 Auckland (16:00 in New York)" is Thursday 17 September there),
    written as the date before it is, moved by as many days ("Thursday 17 September", "Thursday"), to be read again
    on the message's clock; with no date before it, the date after it ("11:30 Nairobi (10:30 in Zurich) on
    Thursday"), never the machine's day; with none at all, the day itself."""
    source = [d for d in days if d.dates and d.end <= mention.start][-1:] or [d for d in days if d.dates][:1]
    if not source:
        return day.isoformat()
    written, shift = source[-1].text, (day - source[-1].dates[0]).days
    weekday = next((i for i, w in enumerate(WEEKDAYS_EN) if re.search(rf"\b{w[:3]}", written, re.I)), None)
    name = WEEKDAYS_EN[(weekday + shift) % 7] if weekday is not None else ""
    if not re.search(r"\d", written):
        return name or day.isoformat()
    year = f" {day.year}" if re.search(r"\b\d{4}\b", written) else ""
    return f"{name} {day.day} {MONTHS_EN[day.month - 1]}{year}".strip()


WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS_EN = "January February March April May June July August September October November December".split()


class Piece(NamedTuple):
    """The words of a text around a time given to one person (offsets of the text); `entry` when the time is given
    as their entry of a list or table ("- Meera: 19:30", "Meera — 19:30")."""

    start: int
    end: int
    entry: bool


def _for_them(text: str, piece: Piece, zone: str, told: bool = False) -> str:
    """A piece as it tells its person (in `zone`): with the zone the whole text reads for its times and the piece
    alone does not (a table's zone column or a place cell before it), "your time" and "for you" in their zone, and,
    when it is their entry or it or its sentence (`told`) says "for you" ("- Meera: 19:30", "I know 20:00 is late
    for you", "Kenta, it's midnight for you (Saturday 00:00)"), its times with no zone or place written in their
    zone."""
    words = text[piece.start : piece.end]
    yours = YOURS.search(words) is not None
    if yours:
        words = _in_zone(words, zone)
    else:
        words = _in_context(text, piece, words)
    if not (piece.entry or yours or told):
        return words
    mentions = _times(words, date.today())
    bare = [i for i, m in enumerate(mentions) if m.zone is None and not m.range_end]
    for at in sorted({_after(mentions, i) for i in bare}, reverse=True):
        words = words[:at] + f" {zone}" + words[at:]
    return words


def _after(mentions: Sequence[TimeMention], index: int) -> int:
    """Where a zone written for a time goes: after it, or after the end of the range it starts."""
    nxt = mentions[index + 1] if index + 1 < len(mentions) else None
    return nxt.end if nxt is not None and nxt.range_end else mentions[index].end


def _in_context(text: str, piece: Piece, words: str) -> str:
    """The piece's words with the zone the whole text reads for its times where the piece alone reads none
    ("| Nzinga | Luanda | 14:00 |": Luanda's, from the cell before). Its date is not carried: a time converted for
    someone may fall on the next day there, and a time with no day is read on any."""
    today = date.today()
    whole = _times(text, today)
    alone = {m.start: m for m in _times(words, today)}
    inserts = []
    for i, m in enumerate(whole):
        if not piece.start <= m.start < piece.end or m.zone is None or m.range_end:
            continue
        mine = alone.get(m.start - piece.start)
        if mine is None or mine.zone is None:
            inserts.append((min(_after(whole, i), piece.end) - piece.start, " " + _zone_name(m.zone)))
    for at, add in sorted(inserts, reverse=True):
        words = words[:at] + add + words[at:]
    return words


def _zone_name(zone: tzinfo | str) -> str:
    """A zone as the readers read it back: its IANA name, or its offset from UTC."""
    if isinstance(zone, str):
        return zone
    key = getattr(zone, "key", None)
    if key:
        return str(key)
    offset = zone.utcoffset(None) or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    return f"UTC{'+' if minutes >= 0 else '-'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


ENTRY = re.compile(
    r"[^\W\d_][\w.'’ -]{0,30}?\s*(?:\([^)]*\))?\s*(?:[:—–,]|\s-)\s*(?:(?i:" + WEEKDAY + r")\.?,?\s+)?|"
    r"[^\W\d_][\w'’-]*(?:[ \t][^\W\d_][\w'’-]*)?[ \t]*(?:\([^)\n]*\))?[ \t]+"
)
"""A name as the label of a list's or table's entry: "Meera: ", "Sarah (NYC): ", "Omar — ", "Chloe: Wed ", "Leila "
(in "Chidi 11:00, Leila 13:00")."""
ENTRY_START = re.compile(r"(?:\A|[\n;|·•]|[.!?,](?=\s))[ \t*•+-]*\Z")


def _entry(text: str, name_at: int, time_at: int) -> bool:
    """Whether the name at `name_at` labels the time at `time_at` as an entry: it starts its line, cell, clause or
    sentence ("- Meera: 19:30", "; Meera, 19:30", "Chidi 11:00, Leila 13:00", "... 09:00 JST. Dan: 4pm Tue."),
    not a greeting's "Thanks Kofi — 08:00 works"."""
    lead = text[max(0, name_at - 40) : name_at]
    return ENTRY_START.search(lead) is not None and ENTRY.fullmatch(text, name_at, time_at) is not None


def _owned(text: str, a: int, b: int, found: Mapping[str, list[int]]) -> dict[str, list[Piece]]:
    """The clauses of a sentence, each given to the recipient whose name is nearest its times (in the clause
    first): "that's 21:00 for you, Lars, and 22:00 for Aino" gives 21:00 to Lars, 22:00 to Aino."""
    out: dict[str, list[Piece]] = {}
    spans = clauses(text, a, b)
    aside = {t.start for t in _times(text, date.today()) if t.set_aside and a <= t.start < b}
    for m in TIME_TOKEN.finditer(text, a, b):
        if not CLOCK.search(m.group(0)) and not re.search(r"\d", m.group(0)):
            continue
        if m.start() in aside:  # "the 16:00 slot would have been 23:00 for Kenji": set aside in the whole text
            continue
        clause = next(((x, y) for x, y in spans if x <= m.start() < y), (a, b))
        labelled = max(((p, n) for n, at in found.items() for p in at if p < m.start()), default=None)
        if labelled is not None and _entry(text, labelled[0], m.start()):  # "Camille: 15:00 Paris · Rohan: ..."
            start, end = _piece(text, m.start(), m.end(), clause, found)  # the entry's label owns its time
            out.setdefault(labelled[1], []).append(Piece(min(start, labelled[0]), end, True))
            continue
        inside = {n: [p for p in at if clause[0] <= p < clause[1]] for n, at in found.items()}
        inside = {n: at for n, at in inside.items() if at}
        if not inside:  # "- Omar — 19:30": the name just before, with no other time between
            before = [(p, n) for n, at in found.items() for p in at if p < m.start()]
            if not before or CLOCK.search(text, max(before)[0], m.start()):
                continue  # a time that no one is named before is the message's own ("15:30 CET (Priya, ...)")
            owner = max(before)[1]
            start, end = _piece(text, m.start(), m.end(), clause, found)
            entry = _entry(text, max(before)[0], m.start())
            out.setdefault(owner, []).append(Piece(start, end, entry))
            continue
        else:
            last = max(((p, n) for n, at in inside.items() for p in at if p < m.start()), default=None)
            label = OTHER_LABEL.search(text, last[0] + 1 if last else a, m.start())
            if label is not None and _entry(text, label.start("who"), m.start()) and _someone(label["who"]):
                continue  # "Oliver: 14:00 · Camille: 15:00 · Rohan: 18:30": Camille's, who is no recipient
            owner = min(inside, key=lambda n: min(abs(p - m.start()) for p in inside[n]))
            given = [n for n, at in inside.items() for p in at if p > m.end() and FOR_AFTER.fullmatch(text, m.end(), p)]
            if given:  # "20:00 for Siobhán and 17:00 Thu for Bárbara": the name the time is for, after it, in
                start, end = _piece(text, m.start(), m.end(), clause, found)  # their zone unless one is written
                out.setdefault(given[0], []).append(Piece(max(start, _day_before(text, start, m.start())), end, True))
                continue
            if last is not None and _entry(text, last[0], m.start()):  # "Wanjiru 15:00, Paolo 21:00": the entry's
                owner = last[1]  # label owns its time, however near the next name is
            nearest = max((p for p in inside[owner] if p < m.start()), default=None)
            if nearest is not None and _entry(text, nearest, m.start()):  # "Meera, 19:30"
                start, end = _piece(text, m.start(), m.end(), clause, found)
                out.setdefault(owner, []).append(Piece(start, end, True))
                continue
        start, end = _piece(text, m.start(), m.end(), clause, found)
        out.setdefault(owner, []).append(Piece(start, end, False))
    return out


OTHER_LABEL = re.compile(
    r"(?:^|(?<=[\s·•;,|]))(?P<who>[A-ZÀ-Þ][\w'’-]+)[ \t]*(?:\([^)\n]*\))?[ \t]*[:—–][ \t]*(?:(?i:"
    + WEEKDAY
    + r")\.?,?\s+)?\Z"
)
"""The label of an entry right before a time, someone's other than the recipients named before it."""


FOR_AFTER = re.compile(
    r"[ \t]*(?:(?i:" + WEEKDAY + r")\.?[ \t]*)?(?:\(?[A-Z]{2,5}\)?[ \t]*)?(?i:for|für|para|pour|per|voor)[ \t]+"
)
"""What stands between a time and the name it is for: "17:00 Thu for Bárbara", "9:30 ET for Sam"."""


def _day_before(text: str, start: int, at: int) -> int:
    """Where the words of a time given to someone begin: at the time, or at the day written right before it ("that's
    Thu 3 Dec 20:00 for Siobhán"); not at another time before it ("16:00 ... would have been 23:00 for Kenji")."""
    day = DAY_BEFORE.search(text, start, at)
    return day.start() if day is not None else at


DAY_BEFORE = re.compile(
    r"(?i:" + WEEKDAY + r")\.?,?(?:[ \t]+\d{1,2}(?:st|nd|rd|th)?(?:[ \t]+[A-Z][a-z]{2,8}\.?)?)?,?[ \t]+\Z"
)


def _someone(label: str) -> bool:
    """Whether an entry's label may be a person: not a place, a day, a month or an option."""
    from orchestrator.scenario.text.instants import CHOICE
    from orchestrator.scenario.text.zones import place_zone

    low = label.lower()
    return not (
        place_zone(label) is not None
        or re.fullmatch(WEEKDAY + "|" + MONTH, low) is not None
        or CHOICE.search(low) is not None
        or low in NOT_SOMEONE
    )


NOT_SOMEONE = {"time", "times", "when", "date", "day", "start", "end", "local", "new", "old", "now", "was", "note"}


RANGE_GAP = re.compile(r"\s*(?:-|–|—|to|until|till)\s*")


def _piece(text: str, start: int, end: int, clause: tuple[int, int], found: Mapping[str, list[int]]) -> tuple[int, int]:
    """The words around a time up to the next time or name: "20:00 your time", "11:00 am for you in New York"."""
    stops = sorted(p for at in found.values() for p in at)
    after = [p for p in stops if p > end and not re.fullmatch(r"\s*for\s+", text[end:p], re.I)]
    right = min(after + [clause[1]])  # "11:00 for Sipho in Cape Town": the name after "for" is inside
    while True:  # to the next time; past a range's end ("14:30–16:00 IST for you": its zone is the range's)
        nxt = TIME_TOKEN.search(text, end, right)
        while nxt is not None and not CLOCK.search(nxt.group(0)):
            nxt = TIME_TOKEN.search(text, nxt.end(), right)
        if nxt is None or not RANGE_GAP.fullmatch(text, end, nxt.start()):
            break
        end = nxt.end()
    if nxt is not None:
        right = nxt.start()
    left = max([p for p in stops if p < start] + [clause[0]])
    return left, right
