"""Whether a text states an instant (`mentions_time`) or a date (`mentions_date`), and what else it states for
the same thing: the instants its time mentions may mean, read in the reader's zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, tzinfo
from itertools import pairwise
from zoneinfo import ZoneInfo

from orchestrator.scenario.text.clean import inside, per_text
from orchestrator.scenario.text.dates import DateMention, find_dates
from orchestrator.scenario.text.parse import MONTH, WEEKDAY, WEEKDAYS, read, sentences
from orchestrator.scenario.text.roles import TRAVEL, date_role, plays, set_aside, travel_leg
from orchestrator.scenario.text.time_aside import leg
from orchestrator.scenario.text.times import TimeMention, find_times
from orchestrator.scenario.text.zones import as_tzinfo, place_zone


@per_text
def _times(text: str, today: date) -> tuple[TimeMention, ...]:
    """`find_times`, read once per text and day; the mentions are only read here, never changed."""
    return tuple(find_times(text, today))


@per_text
def _dates(text: str, today: date) -> tuple[DateMention, ...]:
    """`find_dates`, read once per text and day; the mentions are only read here, never changed."""
    return tuple(find_dates(text, today))


def instants(mention: TimeMention, local: tzinfo, anchor: date) -> list[datetime]:
    """The instants a time mention may mean, in the `local` zone; undated mentions are placed on `anchor`."""
    out = []
    for d in mention.dates or [anchor]:
        zone = as_tzinfo(mention.zone) if mention.zone is not None else local
        for t in mention.times:
            out.append(datetime.combine(d, t, tzinfo=zone).astimezone(local))
    return out


@dataclass
class TimeVerdict:
    """Whether a text states the wanted instant, the other times it states for the same thing, and all it states."""

    holds: bool
    conflicts: list[str]
    stated: list[str]

    @property
    def reason(self) -> str:
        if not self.stated:
            return "mentions no time"
        return f"mentions {', '.join(self.stated)}"


SEE_YOU = re.compile(
    r"\b(?:see\s+(?:you|y'all|everyone)|talk\s+(?:to\s+you\s+)?(?:then|soon)?|speak\s+(?:to\s+you\s+)?|"
    r"meet\s+you|join\s+us|catch\s+you)\b[^.!?\n\d]{0,20}$",
    re.I,
)
FOR_YOU = re.compile(
    r"[^.!?\n\d]{0,20}?\bfor\s+(?:you|him|her|them)\b|[ \t]*\(?(?:your|his|her|their)\s+time\b|[ \t]*\(yours\)",
    re.I,
)
ALTERNATIVE = re.compile(r"\b(?:or|alternatively|otherwise|else)\b", re.IGNORECASE)
RESTATING = re.compile(r"^\s*(?:[(\[/=]|,|\s[–—-]|\bi\.e\.|\bwhich\s+is|\bthat's|\bthat\s+is|\bie)?\s*$", re.IGNORECASE)


def restates(
    text: str, before: TimeMention, mention: TimeMention, local: tzinfo, anchor: date, wanted: datetime | None = None
) -> bool:
    """Whether `mention` gives the time just before it again in another zone: "15:00 UK (16:00 CEST)", "10:00 ET /
    16:00 CET". Such a time is judged with the one it restates, not as another time for the same thing. When the
    time before it states `wanted`, only that reading of it counts ("10:00 Jakarta (15:00 UTC)" restates 22:00, the
    other reading of "10:00", so it restates nothing)."""
    if mention.zone is None and before.zone is None:
        return False
    if not RESTATING.match(text[before.end : mention.start]):
        return False
    theirs = instants(before, local, anchor)  # on the restated time's own date, whatever date follows it
    if wanted is not None and wanted in theirs:
        theirs = [wanted]
    if mention.zone is None:
        return not set(theirs).isdisjoint(instants(replace(mention, dates=before.dates), local, anchor))
    # Written in another zone, the same instant may fall on another day there ("16:30 Chicago (11:30 in
    # Auckland)", the next morning): the restatement is the clock time it reads there, whatever its day.
    there = as_tzinfo(mention.zone)
    return any(i.astimezone(there).time().replace(tzinfo=None) in mention.times for i in theirs)


def restated(
    text: str,
    mentions: tuple[TimeMention, ...],
    index: int,
    local: tzinfo,
    anchor: date,
    wanted: datetime | None = None,
) -> bool:
    """Whether mention `index` restates the time before it; after a range, its start ("16:30-17:30 Chicago time
    (11:30 in Auckland)" gives the start again; "(12:30 in Auckland)", the end alone, restates nothing)."""
    if not index:
        return False
    before = mentions[index - 1]
    if before.range_end and index > 1:
        before = replace(mentions[index - 2], end=before.end)  # the gap read is the one after the range
    return restates(text, before, mentions[index], local, anchor, wanted)


NAMED_BEFORE = re.compile(
    r"(?:^|[,;·•|/.]|\band)[ \t]*(?P<name>[A-Z][a-zà-öø-ÿ]+(?:-[A-Z][a-zà-öø-ÿ]+)?)(?:[ \t]+\([^)\n]*\))?[ \t]*:?[ \t]*$"
)


def for_someone(text: str, mention: TimeMention) -> bool:
    """A time written right after a person's name, among others of its kind ("Chidi 11:00, Thandi 12:00", "Dewi 8:00
    · Paolo 9:00"): their time, not a competing one. A day, a month, a place or an option is no name."""
    line = text.rfind("\n", 0, mention.start) + 1
    m = NAMED_BEFORE.search(text[line : mention.start])
    if m is None:
        return False
    name = m["name"]
    low = name.lower()
    return not (
        low in WEEKDAYS
        or re.fullmatch(MONTH, name, re.I)
        or CHOICE.search(name)
        or place_zone(name) is not None
        or low in {"at", "from", "until", "by", "start", "end", "starts", "ends", "today", "tomorrow", "tonight"}
    )


ITEM = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+")
LABEL = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,2}[.)])?[ \t]*(?P<label>[^\W\d][^:\n|]{0,40}?)[ \t]*:[ \t]")
CHOICE = re.compile(r"\b(?:option|alternative|choice|backup|fallback|proposal|slot|plan)s?\b", re.I)


def entry(text: str, mention: TimeMention) -> tuple[int, str | None] | None:
    """The entry of a list, a labelled line or a table cell that holds a time, as (where it starts, its label):
    "- **Lunch:** 12:30", "Departs: 11:05" (a table's cell after its header); None for a time in running prose."""
    line = text.rfind("\n", 0, mention.start) + 1
    cell = text.rfind(" | ", line, mention.start)
    start = cell + 3 if cell >= 0 else line
    head = text[start : mention.start]
    label = LABEL.match(head)
    if label is not None:
        return start, " ".join(label["label"].lower().split())
    if cell >= 0 or ITEM.match(head) or " | " in text[mention.end : text.find("\n", mention.end) % (len(text) + 1)]:
        words = re.sub(
            r"\b(?:" + WEEKDAY + "|" + MONTH + r"|on|at|the|from|of|today|tomorrow)\b|[\W\d_]+", " ", head, flags=re.I
        )
        return start, " ".join(words.lower().split()) or None  # "- Declared 09:14 UTC"; "- Thu 4 Jun, 10:00": none
    return None


def apart(text: str, mention: TimeMention, holding: list[TimeMention], wanted: datetime) -> bool:
    """A time in another entry of a list or table than every stated time, under another label ("- Arrive: 9:00"
    and "- Lunch: 12:30", "Departs: 11:05 PDT | Arrives: 14:35 JST"; a timeline's steps): the time of something
    else. Entries that are options ("Option A: ...", "- Thu 10:00"), or labelled by a place, compete; so does a time
    in another zone within two hours of the stated time there (a conversion, right or wrong)."""
    if not holding:
        return False
    if mention.zone is not None:
        there = as_tzinfo(mention.zone)
        if not any(
            h.zone is not None and as_tzinfo(h.zone).utcoffset(wanted) == there.utcoffset(wanted) for h in holding
        ):
            clock = wanted.astimezone(there)
            at = clock.hour * 60 + clock.minute
            if any(
                min((t.hour * 60 + t.minute - at) % 1440, (at - t.hour * 60 - t.minute) % 1440) <= 120
                for t in mention.times
            ):
                return False
    mine = entry(text, mention)
    if mine is None or mine[1] is None or CHOICE.search(mine[1]) or place_zone(mine[1]) is not None:
        return False
    for other in holding:
        theirs = entry(text, other)
        if theirs is None or theirs[0] == mine[0] or theirs[1] is None:
            return False
        if theirs[1] == mine[1] or CHOICE.search(theirs[1]):
            return False
    return True


STEP_BEFORE = re.compile(
    r"\b(?:(?P<dep>dep(?:art(?:s|ure|ing)?)?|leav(?:es|ing)|boards?|boarding)|(?P<arr>arr(?:ives?|ival|iving)?|"
    r"lands?|landing))\b\.?[^\d\n|;]{0,20}$",
    re.I,
)


def step(text: str, mentions: tuple[TimeMention, ...], index: int) -> str | None:
    """A journey's step a time is written as: "dep" ("dep 08:00", "NYP 08:00 → BOS 11:35"), "arr" ("arr 11:35",
    "lands 14:35", the time after a leg's arrow), or None."""
    mention = mentions[index]
    line = text.rfind("\n", 0, mention.start) + 1
    m = STEP_BEFORE.search(text, max(line, mention.start - 30), mention.start)
    if m is not None:
        return "dep" if m["dep"] else "arr"
    nxt = mentions[index + 1] if index + 1 < len(mentions) else None
    if index and leg(text, mentions[index - 1], mention):
        return "arr"
    return "dep" if leg(text, mention, nxt) else None


def _see_you_later(text: str, holding: list[TimeMention], mention: TimeMention) -> bool:
    """A later "see you all at 10!": it unsays the time stated before it."""
    first = min((m.start for m in holding), default=10**9)
    return mention.sentence[0] > first and SEE_YOU.search(text[mention.sentence[0] : mention.start]) is not None


def check_time(
    text: str, wanted: datetime, zone: str, now: datetime, also: Iterable[datetime] = (), day: bool = False
) -> TimeVerdict:
    """Whether `text` states the instant `wanted`; `conflicts` are other times it states for the same thing.

    Another time is for the same thing when it shares a sentence with the wanted time, when it is
    written with that same date in its own sentence, when it is another day's time offered as an
    alternative in the wanted time's sentence ("or", "alternatively"), or when the text names no date
    at all. So "Thursday 15:30 or 09:30", "Thursday 15:30, or Friday 10:00 if that's easier" and
    "Thursday 15:30. See you Thursday 09:30" conflict, while "Thursday
    15:30 works. My 14:00 call ends at 15:00." does not. Ends of ranges, set-aside times and the instants
    `also` (other times the text is expected to state, such as the next interview of a loop) never do. With `day`,
    a time written with no day states the instant only when it falls on the clock's day ("moved to 15:30-16:30 CET"
    does not tell Thursday)."""
    local = ZoneInfo(zone)
    wanted = wanted.astimezone(local)
    text = read(text)
    today = now.astimezone(local).date()
    mentions = _times(text, today)

    expected = [a.astimezone(local) for a in also]

    def says(mention: TimeMention, instant: datetime = wanted) -> bool:
        options = instants(mention, local, instant.date())
        if mention.dates is not None:
            return instant in options
        if mention.zone is not None and not day:  # "16:00 for you" in New York, of a Friday morning in Auckland: the
            return instant.astimezone(as_tzinfo(mention.zone)).time() in mention.times  # day there, whichever it is
        return any(o.timetz().replace(tzinfo=None) == instant.time() and o.date() == instant.date() for o in options)

    stated = [not m.set_aside and not m.range_end and says(m) for m in mentions]
    holding_sentences = {m.sentence for m, ok in zip(mentions, stated, strict=True) if ok}

    def offered_instead(mention: TimeMention) -> bool:
        """Another day's time offered as an alternative to the wanted one, in its sentence."""
        for other, ok in zip(mentions, stated, strict=True):
            if ok and other.sentence == mention.sentence:
                between = text[min(other.end, mention.end) : max(other.start, mention.start)]
                if ALTERNATIVE.search(between):
                    return True
        return False

    dateless = all(m.dates is None for m in mentions) and not _dates(text, today)
    holding = [m for m, ok in zip(mentions, stated, strict=True) if ok]
    conflicts = []
    for index, mention in enumerate(mentions):
        if stated[index] or mention.set_aside or mention.range_end or mention.bound:
            continue
        if any(says(mention, other) for other in expected):
            continue
        if restated(text, mentions, index, local, wanted.date(), wanted):
            continue
        if mention.zone is None and FOR_YOU.match(text, mention.end):
            continue  # "Anil, that's 12:30 for you": in a zone this reader does not know, read for them (told)
        if mention.zone is None and any(h.zone is not None for h in holding) and for_someone(text, mention):
            continue  # "11:00 BST. Chidi 11:00, Thandi 12:00": each person's time, read for them (told)
        if apart(text, mention, holding, wanted):
            continue  # "- Arrive: 9:00 am" and "- Lunch: 12:30": the times of a day's steps
        mine = step(text, mentions, index)
        if mine is not None and all(step(text, mentions, i) not in (None, mine) for i, ok in enumerate(stated) if ok):
            continue  # "dep 08:00, arr 11:35", "NYP 08:00 → BOS 11:35": a journey's departure and arrival
        if mention.own_date:
            about = any(o.date() == wanted.date() for o in instants(mention, local, wanted.date()))
            if not about and mention.zone is not None and mention.dates:  # the day as written in its own zone:
                about = wanted.astimezone(as_tzinfo(mention.zone)).date() in mention.dates  # "14 May, 16:30 UTC"
            about = about or offered_instead(mention)  # "Thursday 15:30, or Friday 10:00 if that's easier"
        else:
            about = mention.sentence in holding_sentences or dateless or _see_you_later(text, holding, mention)
        if about:
            conflicts.append(mention.text.strip())
    # "day and time": a time with no day anywhere in the text states the instant only on the clock's own day
    holds = any(stated) and (
        not day
        or wanted.date() == today
        or any(ok and m.dates is not None for m, ok in zip(mentions, stated, strict=True))
    )
    return TimeVerdict(holds, conflicts, [m.text.strip() for m in mentions])


_WORD_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "ten": 10,
    "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "forty five": 45, "fifty": 50,
    "sixty": 60, "ninety": 90, "half an": 0.5, "half a": 0.5, "half": 0.5,
    # the lengths other languages write most: one, two, three, half and one and a half (es, pt, fr, de, nl, it)
    "un": 1, "una": 1, "uno": 1, "um": 1, "uma": 1, "une": 1, "ein": 1, "eine": 1, "een": 1,
    "dos": 2, "duas": 2, "deux": 2, "zwei": 2, "twee": 2, "due": 2, "tres": 3, "três": 3, "trois": 3, "drei": 3,
    "drie": 3, "tre": 3, "media": 0.5, "meia": 0.5, "demi": 0.5, "une demi": 0.5, "eine halbe": 0.5, "halbe": 0.5,
    "een half": 0.5, "anderhalf": 1.5, "anderthalb": 1.5, "eineinhalb": 1.5,
    "veinte": 20, "treinta": 30, "trente": 30, "dreißig": 30, "zwanzig": 20, "vingt": 20, "twintig": 20, "dertig": 30,
}  # fmt: skip
_LENGTH_NUMBER = "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in _WORD_NUMBERS), key=len, reverse=True))
DURATION = re.compile(
    r"\b(?:(?P<n>\d+(?:[.,]\d+)?|" + _LENGTH_NUMBER + r")\s*[- ]?\s*(?P<unit>h(?:ou)?rs?|hours?|h(?=\d|\b)|"
    r"min(?:ute)?s?|mins?|'|minut[oi]s?|minuten|horas?|heures?|stunden?|uur|or[ae])"
    r"(?:\s*(?P<m>\d{1,2})\s*(?:min(?:ute)?s?|m)?)?(?!\w))",
    re.I,
)


def _minutes(m: re.Match[str]) -> float | None:
    n = m["n"].lower()
    value = _WORD_NUMBERS.get(" ".join(n.split())) if not n[0].isdigit() else float(n.replace(",", "."))
    if value is None:
        return None
    unit = m["unit"].lower()
    hours = not unit.startswith("m") and unit != "'"
    minutes = value * 60 if hours else value
    return minutes + (int(m["m"]) if m["m"] and hours else 0)


def states_end(text: str, wanted: datetime, end: datetime, zone: str, now: datetime) -> bool:
    """Whether `text` gives the slot starting at `wanted` the end `end`: as the end of the range it starts
    ("15:30–16:30 CET") or as a length ("45 min", "an hour", "1h30"), and no other end or length for it."""
    local = ZoneInfo(zone)
    text = read(text)
    today = now.astimezone(local).date()
    mentions = _times(text, today)
    wanted, end = wanted.astimezone(local), end.astimezone(local)
    ends: list[bool] = []
    for first, second in pairwise(mentions):
        if not second.range_end or first.set_aside:
            continue
        if wanted not in instants(first, local, wanted.date()) and not (
            first.dates is None and any(i.time() == wanted.time() for i in instants(first, local, wanted.date()))
        ):
            continue
        zoned = second if second.zone is not None else replace(second, zone=first.zone)
        dated = zoned if zoned.dates is not None else replace(zoned, dates=[wanted.date()])
        read_ends = instants(dated, local, end.date()) + instants(dated, local, wanted.date())
        if second.dates in (None, first.dates):  # "23:00–00:00 JST", a night shift "19:30–07:30": an end before
            read_ends = [i + timedelta(days=1) if i <= wanted else i for i in read_ends]  # its start: the next day
        ends.append(end in read_ends)
    clocks = [(t.start, t.end) for t in mentions]
    found = [m for m in DURATION.finditer(text) if not any(a < m.end() and m.start() < b for a, b in clocks)]
    lengths = [n for n in map(_minutes, found) if n is not None and 0 < n <= 24 * 60]
    length = (end - wanted).total_seconds() / 60
    if ends:  # "13:00-16:00 ... two hours": a length said of the slot besides its range must agree with it
        said = [_minutes(m) for m in found if _of_slot(text, m, mentions)]
        return all(ends) and (not said or length in said)
    return bool(lengths) and length in lengths


LENGTH_ASIDE_BEFORE = re.compile(
    r"(?:\b(?:within|every|each|about|around|roughly|over|per|after|before)|[~≈])\s*$", re.I
)
LENGTH_ASIDE_AFTER = re.compile(
    r"^\s*(?:ahead|before|after|earlier|later|early|late|prior|beforehand|notice|of\s+\w+|break|buffer|each|"
    r"per|a\s+(?:day|week)|long(?:er)?\s+than)\b",
    re.I,
)


def _of_slot(text: str, m: re.Match[str], mentions: tuple[TimeMention, ...]) -> bool:
    """A length said of the slot: in the sentence of its range, or in a sentence of no times of its own ("Length:
    two hours"); not a length of something else ("30 min ahead", "within 24 hours", "an hour after", "~45 min")."""
    if LENGTH_ASIDE_BEFORE.search(text[max(0, m.start() - 12) : m.start()]) or LENGTH_ASIDE_AFTER.match(
        text[m.end() : m.end() + 20]
    ):
        return False
    here = next(((a, b) for a, b in sentences(text) if a <= m.start() < b), (m.start(), m.end()))
    return any(here[0] <= t.start < here[1] for t in mentions if t.range_end) or not any(
        here[0] <= t.start < here[1] for t in mentions
    )


def check_date(
    text: str, wanted: date, zone: str, now: datetime, role: str | None = None
) -> tuple[bool, list[str], list[str]]:
    """Whether `text` mentions the date `wanted` (in the `role`, when given: text/roles.py); also the other dates it
    mentions for the same thing, and all it mentions. A date the text sets aside (the old date of a move, a
    cancelled one) neither states the date nor competes with it.

    Like other times for `mentions_time`, another date is for the same thing when it is in a sentence that
    mentions the wanted date ("15 March, or 15 April at the latest"), or when the text mentions only other
    dates; "Thanks for the delivery of 10 Feb. We pay on 15 March." names the delivery date as context."""
    local = ZoneInfo(zone)
    text = read(text)
    today = now.astimezone(local).date()
    mentions: list[tuple[int, int, list[date], str]] = []
    spans: list[tuple[int, int]] = []
    for t in _times(text, today):
        if t.dates is not None and t.zone is not None and len(t.text) > 10:  # ISO date-times: their local date
            mentions.append((t.start, t.end, [i.date() for i in instants(t, local, today)], t.text.strip()))
            spans.append((t.start, t.end))
    for d in _dates(text, today):
        if not inside(d.start, spans):
            mentions.append((d.start, d.end, d.dates, d.text.strip()))
    mentions.sort(key=lambda m: m[0])
    spans = sentences(text)

    def sentence(pos: int) -> tuple[int, int]:
        return next(((a, b) for a, b in spans if a <= pos < b), (pos, pos))

    kept = [m for m in mentions if not set_aside(text, m[0], m[1], sentence(m[0])) and not _wrong_weekday(m[3], m[2])]
    if role is not None:
        roles = [date_role(text, m[0], m[1], sentence(m[0])) for m in kept]
        travel = [i for i, r in enumerate(roles) if r in TRAVEL]
        roles = [
            travel_leg(r, wanted, m[2], m[3], bool(travel) and i == travel[0], bool(travel) and i == travel[-1])
            for i, (m, r) in enumerate(zip(kept, roles, strict=True))
        ]
        kept = [m for m, r in zip(kept, roles, strict=True) if wanted not in m[2] or plays(r, role)]
    hits = {sentence(start) for start, _, dates, _ in kept if wanted in dates}
    other = [
        said
        for start, _, dates, said in kept
        if wanted not in dates and (not hits or sentence(start) in hits) and not _same_weekday(said, wanted)
    ]
    return bool(hits), other, [said for _, _, _, said in mentions]


WRITTEN_WEEKDAY = re.compile(r"^(?:on\s+)?(" + WEEKDAY + r")\b[.,]?\s*(?:the\s+|\()?\s*\d", re.I)


def _wrong_weekday(said: str, dates: list[date]) -> bool:
    """A day written with a weekday it does not fall on ("Monday 14 April 2026", a Tuesday): which day is meant is
    open, so neither is stated."""
    m = WRITTEN_WEEKDAY.match(said)
    if m is None or not dates:
        return False
    day = WEEKDAYS.get(m.group(1).lower().rstrip("."))
    return day is not None and all(d.weekday() != day for d in dates)


WEEKDAY_ONLY = re.compile(r"(?:on\s+)?(?:a\s+)?(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?", re.I)


def _same_weekday(said: str, wanted: date) -> bool:
    """A weekday written alone that is the wanted date's weekday ("8 April (a Wednesday)") names that date too."""
    m = WEEKDAY_ONLY.fullmatch(said.strip())
    return m is not None and wanted.strftime("%a").lower().startswith(m.group(1).lower())


@dataclass
class TimeReading:
    """The instants a text states and those it sets aside, one list of possible instants per time it writes
    (several when its am/pm or its day is open: "3:30", "Thursday"); ends of ranges are in neither."""

    stated: list[list[datetime]]
    set_aside: list[list[datetime]]


def read_times(text: str, zone: str, now: datetime) -> TimeReading:
    """The instants `text` states and sets aside, read in `zone` (times without a zone, and the result) on
    the scenario clock `now`; undated times are placed on the clock's date. Quoted lines are not read."""
    local = ZoneInfo(zone)
    today = now.astimezone(local).date()
    reading = TimeReading([], [])
    for mention in _times(read(text), today):
        if mention.range_end:
            continue
        (reading.set_aside if mention.set_aside else reading.stated).append(instants(mention, local, today))
    return reading


def read_dates(text: str, zone: str, now: datetime) -> list[list[date]]:
    """The dates `text` mentions, one list of possible dates per mention ("5/3", "Thursday": several)."""
    today = now.astimezone(ZoneInfo(zone)).date()
    return [list(d.dates) for d in _dates(read(text), today)]
