"""The facts a reference text states, and other ways to write them: the same facts in other words (for
`--equivalents`) and the same words with a fact hedged, doubled, moved to another zone or swapped for a stale
value (for `--attack`).

A fact is a date, a time of day (an instant), an amount of money, a count, a code (`OPS-41`) or a link, found
with the same readers the verdict uses (`orchestrator.scenario.text`), so a rewrite replaces exactly what the
verdict would read. Wordings keep every fact: each date, time, amount and count is written in another of at
least twenty forms ("Thursday 5 March", "5/3", "Mar 5th", "the 5th"; "3:30 pm", "15h30", "14:30 UTC";
"€1,249.50", "1249.50 EUR"; "14", "fourteen"), inside politeness, context lines and reordered sentences that
state no other fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.scenario.text.amounts import AMOUNT, currency_code
from orchestrator.scenario.text.counts import find_counts
from orchestrator.scenario.text.dates import find_dates
from orchestrator.scenario.text.instants import instants
from orchestrator.scenario.text.times import find_times
from orchestrator.scenario.text.zones import as_tzinfo, zone_named

CODE = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])")
URL = re.compile(r"https?://[^\s<>()\"']+[^\s<>()\"'.,;:!?]")
REF = re.compile(r"\$\{[^}]*\}")
WEEKDAY = re.compile(r"(?:this\s+|coming\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.I)
KINDS = ("date", "time", "amount", "count", "code", "link")


@dataclass(frozen=True)
class Fact:
    """One fact a text states: its kind, where it is written, and its value (a date, an aware datetime, an
    (amount, currency) pair, an int, or the code or link as written)."""

    kind: str
    start: int
    end: int
    text: str
    value: Any
    dated: bool = True
    """For a time: whether the text gives it a date (else it is read on the clock's date)."""
    ranged: bool = False
    """For a time: the start of a range, written with its end ("15:30–16:30"); wordings leave it as it is."""


@dataclass(frozen=True)
class Reader:
    """Where texts are read: the persona's zone and the scenario clock."""

    zone: ZoneInfo
    now: datetime

    @property
    def today(self) -> date:
        return self.now.astimezone(self.zone).date()


def _overlaps(a: int, b: int, spans: list[tuple[int, int]]) -> bool:
    return any(a < y and x < b for x, y in spans)


def facts(text: str, reader: Reader) -> list[Fact]:
    """The facts `text` states, in order; `${…}` references, set-aside times, ends of ranges and times whose
    am/pm or day is open are left out (they cannot be rewritten without guessing)."""
    taken = [(m.start(), m.end()) for m in REF.finditer(text)]
    out: list[Fact] = []
    for m in [*URL.finditer(text), *CODE.finditer(text)]:
        if not _overlaps(m.start(), m.end(), taken):
            out.append(Fact("link" if m.re is URL else "code", m.start(), m.end(), m.group(0), m.group(0)))
            taken.append((m.start(), m.end()))
    mentions = find_times(text, reader.today)
    for index, t in enumerate(mentions):
        ranged = index + 1 < len(mentions) and mentions[index + 1].range_end
        end = mentions[index + 1].end if ranged else t.end
        if t.range_end or t.set_aside or _overlaps(t.start, end, taken):
            taken.append((t.start, t.end))
            continue
        options = instants(t, reader.zone, reader.today)
        if len(options) > 1 and t.dates and len(t.dates) > 1 and WEEKDAY.search(t.text):
            options = [o for o in options if o.date() == min(t.dates)]  # a bare weekday: the coming one
        while text[t.start : end].endswith(")") and text[t.start : end].count("(") < text[t.start : end].count(")"):
            end -= 1  # "(09:30 in Madrid)": the bracket closes the writer's aside, not the time
        if len(options) == 1:
            fact = Fact("time", t.start, end, text[t.start : end], options[0], dated=bool(t.dates), ranged=ranged)
            out.append(fact)
        taken.append((t.start, end))
    for d in find_dates(text, reader.today):
        coming = min(d.dates) if d.dates and WEEKDAY.fullmatch(d.text.strip(" .")) else None  # a bare weekday
        end = d.start + len(text[d.start : d.end].rstrip(" ."))  # "10 March." ends a sentence: the dot stays
        if not _overlaps(d.start, end, taken) and (len(d.dates) == 1 or coming):
            out.append(Fact("date", d.start, end, text[d.start : end], coming or d.dates[0]))
        taken.append((d.start, d.end))
    for m in AMOUNT.finditer(text):
        if _overlaps(m.start(), m.end(), taken):
            continue
        number = (m["n1"] or m["n2"]).strip()
        value = _decimal(number)
        if value is not None:
            start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
            end = m.end() - (len(m.group(0)) - len(m.group(0).rstrip()))
            out.append(Fact("amount", start, end, text[start:end], (value, currency_code(m["c1"] or m["c2"]))))
            taken.append((start, end))
    for count, start, end in find_counts(text):
        if not _overlaps(start, end, taken):
            out.append(Fact("count", start, end, text[start:end], count))
    return sorted(out, key=lambda f: f.start)


def _decimal(number: str) -> Decimal | None:
    """A number as the amounts reader writes it ("1,249.50", "1.249,50", "1 249,50", "1249") as a Decimal."""
    digits = re.sub(r"[\s\u00a0\u202f']", "", number)
    head, sep, tail = digits.rpartition("," if digits.rfind(",") > digits.rfind(".") else ".")
    if sep and len(tail) <= 2:
        return Decimal(re.sub(r"\D", "", head) + "." + tail)
    return Decimal(re.sub(r"\D", "", digits)) if re.sub(r"\D", "", digits) else None


# -- how each kind may be written ----------------------------------------------------------------------


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


DateForm = Callable[[date, date], str | None]

DATE_FORMS: list[DateForm] = [
    lambda d, _: f"{d:%A} {d.day} {d:%B}",  # Thursday 5 March
    lambda d, _: f"{d.day}/{d.month}",  # 5/3
    lambda d, _: f"{d:%b} {ordinal(d.day)}",  # Mar 5th
    lambda d, t: f"the {ordinal(d.day)}" if 0 <= (d - t).days < 25 else None,  # the 5th
    lambda d, _: f"{d:%A}, {d:%B} {d.day}",  # Thursday, March 5
    lambda d, _: f"{d.day} {d:%B %Y}",  # 5 March 2026
    lambda d, _: d.isoformat(),  # 2026-03-05
    lambda d, _: f"{d:%a} {d.day} {d:%b}",  # Thu 5 Mar
    lambda d, t: f"{d:%A} the {ordinal(d.day)}" if 0 <= (d - t).days < 25 else None,  # Thursday the 5th
    lambda d, _: f"the {ordinal(d.day)} of {d:%B}",  # the 5th of March
    lambda d, _: f"{d:%B} {d.day}, {d.year}",  # March 5, 2026
    lambda d, _: f"{d:%a}, {d:%b} {d.day}",  # Thu, Mar 5
    lambda d, _: f"{d:%A} ({d.day} {d:%B})",  # Thursday (5 March)
    lambda d, _: f"{d.day:02d}/{d.month:02d}",  # 05/03
    lambda d, _: f"{d.day}.{d.month}.{d.year}",  # 5.3.2026
    lambda d, _: f"{d:%A} {d.day}/{d.month}",  # Thursday 5/3
    lambda d, _: f"{d.day} {d:%b}",  # 5 Mar
    lambda d, _: f"{d:%B} {ordinal(d.day)}",  # March 5th
    lambda d, _: f"{d:%A}, {d.day} {d:%B %Y}",  # Thursday, 5 March 2026
    lambda d, t: f"{d:%A}" if 0 <= (d - t).days < 7 else None,  # Thursday (the coming one)
    lambda d, _: f"{ordinal(d.day)} {d:%B}",  # 5th March
    lambda d, _: f"{d:%A} {d:%B} {ordinal(d.day)}",  # Thursday March 5th
]
"""Ways to write a date (None: the form would not name it unambiguously from `today`)."""


def _twelve(at: time, sep: str = ":", space: str = " ", am: str = "am", pm: str = "pm", bare: bool = True) -> str:
    hour = at.hour % 12 or 12
    suffix = am if at.hour < 12 else pm
    return f"{hour}{space}{suffix}" if bare and not at.minute else f"{hour}{sep}{at.minute:02d}{space}{suffix}"


ZONE_NAMES = {
    "Europe/Berlin": "Berlin time",
    "Europe/Paris": "Paris time",
    "Europe/London": "London time",
    "Europe/Lisbon": "Lisbon time",
    "America/New_York": "New York time",
    "America/Los_Angeles": "Los Angeles time",
    "UTC": "UTC",
}


def _abbreviation(at: datetime) -> str | None:
    """The zone's abbreviation at `at` when a reader takes it for this zone's time ("CET"); None when it is not
    letters or names another zone's time too ("IST" in Dublin's summer is read as India's)."""
    name = at.tzname() or ""
    if not name.isalpha():
        return None
    known = zone_named(name)
    if known is not None and at.astimezone(as_tzinfo(known)).utcoffset() != at.utcoffset():
        return None
    return name


def _in(at: datetime, zone: str) -> datetime:
    return at.astimezone(ZoneInfo(zone))


def _offset(at: datetime) -> str:
    off = at.utcoffset() or timedelta(0)
    minutes = int(off.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


TimeForm = Callable[[datetime, datetime], str | None]
"""A way to write an instant `at` (in the reader's zone); the second argument is the same instant in UTC."""


def _other_zone(at: datetime, zone: str) -> str | None:
    """`at` written in `zone` with the zone named, when that keeps its day (else the date would change)."""
    there = _in(at, zone)
    if there.date() != at.date() or there.utcoffset() == at.utcoffset():
        return None
    return f"{there:%H:%M} {ZONE_NAMES.get(zone, zone)}"


TIME_FORMS: list[TimeForm] = [
    lambda at, _: f"{at:%H:%M}",  # 15:30
    lambda at, _: _twelve(at.time()),  # 3:30 pm
    lambda at, _: _twelve(at.time(), space=""),  # 3:30pm
    lambda at, _: _twelve(at.time(), sep=".", space="", bare=False),  # 3.30pm
    lambda at, _: f"{at.hour}h{at.minute:02d}",  # 15h30
    lambda at, _: _twelve(at.time(), am="AM", pm="PM"),  # 3:30 PM
    lambda at, _: _twelve(at.time(), am="a.m.", pm="p.m."),  # 3:30 p.m.
    lambda at, _: f"{at:%H:%M} {_abbreviation(at)}" if _abbreviation(at) else None,  # 15:30 CET
    lambda at, u: f"{u:%H:%M} UTC" if u.date() == at.date() else None,  # 14:30 UTC
    lambda at, _: f"{at:%H:%M} {ZONE_NAMES[str(at.tzinfo)]}" if str(at.tzinfo) in ZONE_NAMES else None,
    lambda at, _: f"{at:%H:%M} ({_offset(at)})",  # 15:30 (UTC+01:00)
    lambda at, _: f"{_twelve(at.time())} {_abbreviation(at)}" if _abbreviation(at) else None,  # 3:30 pm CET
    lambda at, _: _other_zone(at, "Europe/London"),  # 14:30 London time
    lambda at, _: _other_zone(at, "America/New_York"),  # 09:30 New York time
    lambda at, _: f"{at:%H:%M} {at.tzinfo}",  # 15:30 Europe/Berlin
    lambda at, _: f"{at:%H:%M} my time",  # 15:30 my time (the writer's zone; "your time" is the recipient's)
    lambda at, _: f"{at:%H:%M}:00",  # 15:30:00
    lambda at, _: _twelve(at.time(), bare=False),  # 3:00 pm
    lambda at, _: f"{at:%H:%M} local time",  # 15:30 local time
    lambda at, _: (
        f"{at:%H:%M} {_abbreviation(at)} ({_other_zone(at, 'UTC')})"
        if _abbreviation(at) and _other_zone(at, "UTC")
        else None
    ),
    lambda at, _: f"{at:%H.%M}",  # 15.30
    lambda at, _: _twelve(at.time(), space="", am="AM", pm="PM"),  # 3:30PM
]
"""Ways to write an instant of the reader's zone (None: the form does not apply to it)."""


SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}
WORDS = {"EUR": "euros", "USD": "dollars", "GBP": "pounds"}


def _grouped(value: Decimal, group: str, point: str, cents: bool | None = None) -> str:
    whole, _, frac = f"{value:.2f}".partition(".")
    parts: list[str] = []
    while len(whole) > 3:
        parts.insert(0, whole[-3:])
        whole = whole[:-3]
    parts.insert(0, whole)
    number = group.join(parts)
    keep = frac != "00" if cents is None else cents
    return f"{number}{point}{frac}" if keep else number


AmountForm = Callable[[Decimal, str], str | None]

AMOUNT_FORMS: list[AmountForm] = [
    lambda v, c: f"{SYMBOLS[c]}{_grouped(v, ',', '.')}" if c in SYMBOLS else None,  # €1,249.50
    lambda v, c: f"{_grouped(v, '', '.')} {c}",  # 1249.50 EUR
    lambda v, c: f"{c} {_grouped(v, ',', '.')}",  # EUR 1,249.50
    lambda v, c: f"{_grouped(v, '.', ',')} {SYMBOLS[c]}" if c in SYMBOLS else None,  # 1.249,50 €
    lambda v, c: f"{_grouped(v, ' ', ',')} {c}",  # 1 249,50 EUR
    lambda v, c: f"{_grouped(v, ',', '.')} {WORDS[c]}" if c in WORDS else None,  # 1,249.50 euros
    lambda v, c: f"{SYMBOLS[c]}{_grouped(v, '', '.', cents=True)}" if c in SYMBOLS else None,  # €1249.50
    lambda v, c: f"{_grouped(v, ',', '.', cents=True)} {c}",  # 1,249.50 EUR (cents always)
    lambda v, c: f"{SYMBOLS[c]} {_grouped(v, ',', '.')}" if c in SYMBOLS else None,  # € 1,249.50
    lambda v, c: f"{_grouped(v, '.', ',', cents=True)} {c}",  # 1.249,50 EUR
    lambda v, c: f"{c}{_grouped(v, ',', '.')}",  # EUR1,249.50
    lambda v, c: f"{_grouped(v, '', ',')} {c}",  # 1249,50 EUR
    lambda v, c: f"{_grouped(v, '', '.')} {WORDS[c]}" if c in WORDS else None,  # 1249.50 euros
    lambda v, c: f"{_grouped(v, ' ', ',')} {SYMBOLS[c]}" if c in SYMBOLS else None,  # 1 249,50 €
    lambda v, c: f"{c} {_grouped(v, '', '.', cents=True)}",  # EUR 1249.50
    lambda v, c: f"{SYMBOLS[c]}{_grouped(v, ',', '.', cents=True)}" if c in SYMBOLS else None,  # €1,249.50
    lambda v, c: f"{_grouped(v, ',', '.')} {c.lower()}",  # 1,249.50 eur
    lambda v, c: f"{_grouped(v, '.', ',')} {WORDS[c]}" if c in WORDS else None,  # 1.249,50 euros
    lambda v, c: f"{_grouped(v, ',', '.')}{SYMBOLS[c]}" if c in SYMBOLS else None,  # 1,249.50€
    lambda v, c: f"{c} {_grouped(v, '.', ',')}",  # EUR 1.249,50
    lambda v, c: f"{_grouped(v, ' ', '.')} {c}",  # 1 249.50 EUR
]
"""Ways to write an amount of money (None: the currency has no sign or word)."""

UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()  # noqa: E501
TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}


def in_words(n: int) -> str | None:
    """A count from 0 to 99 in words ("fourteen", "thirty-four"); None above."""
    if n < 20:
        return UNITS[n]
    if n < 100:
        return TENS[n // 10] + (f"-{UNITS[n % 10]}" if n % 10 else "")
    return None


CountForm = Callable[[int], str | None]

COUNT_FORMS: list[CountForm] = [
    lambda n: f"{n:,}",  # 14, 1,200
    lambda n: in_words(n),  # fourteen
    lambda n: f"exactly {n}",
    lambda n: f"a total of {in_words(n)}" if in_words(n) else None,
    lambda n: f"all {n}",
    lambda n: f"a group of {n}",
    lambda n: f"precisely {in_words(n)}" if in_words(n) else None,
]
"""Ways to write a count (a number of things)."""


# -- the text around the facts -------------------------------------------------------------------------

GREETING = re.compile(r"^\s*(?:hi|hello|hey|dear|good\s+(?:morning|afternoon))\b[^\n,]*,[ \t]*\n?", re.I)
SIGN_OFF = re.compile(r"(?:\n|\s)(?:thanks|thank you|best|regards|cheers|kind regards|many thanks)\b[^\n]*$", re.I)

OPENERS = [
    "Hope you're well. ",
    "Quick update from my side. ",
    "Following up on this. ",
    "As promised, here are the details. ",
    "Sorry for the slow reply. ",
    "",
    "Good news. ",
]
CLOSERS = [
    " Thanks a lot for your help!",
    "\n\nThank you, and have a good day.",
    " Much appreciated.",
    "\n\nAppreciate you sorting this out.",
    " Many thanks in advance.",
    "",
    "\n\n(Sent from the shared inbox.)",
]
"""Politeness and context lines that state no date, time, amount, count, hedge or question."""


def frame(text: str, k: int) -> str:
    """`text` with the `k`th opener after its greeting and closer before its sign-off; every third wording
    also has its sentences (after the greeting, before the sign-off) in another order when none of them writes
    a time (a time takes its date from the sentences before it)."""
    greeting = GREETING.match(text)
    head = greeting.group(0) if greeting else ""
    rest = text[len(head) :]
    tail_match = SIGN_OFF.search(rest)
    tail = rest[tail_match.start() :] if tail_match else ""
    core = rest[: len(rest) - len(tail)] if tail else rest
    if k % 3 == 2:
        core = _reordered(core)
    opener = OPENERS[k % len(OPENERS)]
    closer = CLOSERS[(k // len(OPENERS) + k) % len(CLOSERS)]
    if head and not head.endswith(("\n", " ")):
        head += " "
    core = core.strip()
    if opener and core[:1].islower():
        core = core[:1].upper() + core[1:]
    return f"{head}{opener}{core}{closer}{tail}"


SENTENCE = re.compile(r"[^.!?\n]+[.!?]+(?=\s|$)")


def _reordered(core: str) -> str:
    sentences = [m.group(0).strip() for m in SENTENCE.finditer(core)]
    if len(sentences) < 2 or "".join(sentences).replace(" ", "") != re.sub(r"\s", "", core):
        return core
    if find_times(core, date(2000, 1, 1)):
        return core
    return " ".join(sentences[1:] + sentences[:1])


# -- rewriting -----------------------------------------------------------------------------------------


def write(fact: Fact, k: int, reader: Reader) -> str:
    """`fact` in its `k`th form (the next one that applies); codes, links and ranges as they are."""
    if fact.ranged:
        return fact.text
    by_kind: dict[str, list[Any]] = {
        "date": DATE_FORMS,
        "time": TIME_FORMS,
        "amount": AMOUNT_FORMS,
        "count": COUNT_FORMS,
    }
    forms = by_kind.get(fact.kind, [])
    for step in range(len(forms)):
        form = forms[(k + step) % len(forms)]
        written = _apply(form, fact, reader)
        if written:
            return written
    return fact.text


def _apply(form: Any, fact: Fact, reader: Reader) -> str | None:
    if fact.kind == "date":
        return form(fact.value, reader.today)
    if fact.kind == "time":
        at = fact.value.astimezone(reader.zone)
        written = form(at, at.astimezone(ZoneInfo("UTC")))
        if written and not fact.dated and re.search(r"UTC|London|New York", written) and "(" not in written:
            return None  # a time without a date is compared by time of day: keep it in the reader's zone
        return written
    if fact.kind == "amount":
        return form(*fact.value)
    return form(fact.value)


def substitute(text: str, found: list[Fact], written: list[str]) -> str:
    """`text` with each fact's span replaced by its new wording."""
    out, at = [], 0
    for fact, new in zip(found, written, strict=True):
        out += [text[at : fact.start], new]
        at = fact.end
    return "".join(out) + text[at:]


def reword(text: str, k: int, reader: Reader, framed: bool = True, keep: Callable[[Fact], bool] | None = None) -> str:
    """The `k`th wording of `text`: every fact in another form (those `keep` accepts, when given), inside another
    frame."""
    found = [f for f in facts(text, reader) if keep is None or keep(f)]
    written = [write(f, k, reader) for f in found]
    if written and found[0].start == 0 and written[0][:1].islower():
        written[0] = written[0][:1].upper() + written[0][1:]
    out = substitute(text, found, written)
    return frame(out, k) if framed else out


WORDINGS = max(len(DATE_FORMS), len(TIME_FORMS), len(AMOUNT_FORMS))
"""How many wordings a text gets: every form of every kind is used once."""


# -- wrong values of the same kind ---------------------------------------------------------------------


def another(fact: Fact) -> Fact:
    """The same fact with a different value of its kind (a day later, an hour later, more people, a higher amount,
    the next code), as written in the text's own form where possible."""
    if fact.kind == "date":
        return replace(fact, value=fact.value + timedelta(days=1), text=f"{fact.value + timedelta(days=1):%A %-d %B}")
    if fact.kind == "time":
        later = fact.value + timedelta(hours=1)
        return replace(fact, value=later, text=f"{later:%H:%M}")
    if fact.kind == "amount":
        value, currency = fact.value
        more = (value * Decimal("1.1")).quantize(Decimal("0.01"))
        return replace(fact, value=(more, currency), text=f"{_grouped(more, ',', '.')} {currency}")
    if fact.kind == "count":
        return replace(fact, value=fact.value + 2, text=str(fact.value + 2))
    if fact.kind == "code":
        head, _, number = fact.value.rpartition("-")
        code = f"{head}-{int(number) + 1}"
        return replace(fact, value=code, text=code)
    return replace(fact, text=fact.text.rstrip("/") + "-old", value=fact.text.rstrip("/") + "-old")
