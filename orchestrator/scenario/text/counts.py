"""Counts a text states (`mentions_count`): "14 people", "fourteen guests", "we are 14", "about 34 other companies".

A count is a whole number in digits or words (up to ninety-nine, and "a dozen"), not part of a time ("14:00",
"2pm"), a date ("14 March", "March 14", "3/14", "14th"), a code or version ("OPS-14", "v14"), a link, an amount of
money ("€14") or a percentage.
"""

from __future__ import annotations

import os
import re

from rapidfuzz.distance import OSA

from orchestrator.scenario.text.clean import inside, url_spans
from orchestrator.scenario.text.parse import MONTH, read

UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
WORDS = re.compile(
    r"\b(?:(?P<tens>"
    + "|".join(TENS)
    + r")(?:[\s-](?P<unit>"
    + "|".join(UNITS[1:10])
    + r"))?|(?P<small>"
    + "|".join(UNITS)
    + r")|(?P<dozen>a\s+dozen|dozen))(?P<dozens>\s+dozen)?\b",
    re.I,
)
FOREIGN_NUMBERS = {
    **dict.fromkeys(("zwei", "deux", "dos", "duas", "twee"), 2),
    **dict.fromkeys(("drei", "trois", "tres", "três", "tre", "drie"), 3),
    **dict.fromkeys(("vier", "quatre", "cuatro", "quattro", "quatro"), 4),
    **dict.fromkeys(("fünf", "cinq", "cinco", "cinque", "vijf"), 5),
    **dict.fromkeys(("sechs", "seis", "sei", "zes"), 6),
    **dict.fromkeys(("sieben", "siete", "sette", "sete", "zeven"), 7),
    **dict.fromkeys(("acht", "huit", "ocho", "oito"), 8),
    **dict.fromkeys(("neun", "neuf", "nueve", "nove", "negen"), 9),
    **dict.fromkeys(("zehn", "dix", "diez", "dieci", "dez", "tien"), 10),
    **dict.fromkeys(("zwölf", "douze", "doce", "dodici", "doze", "twaalf"), 12),
}
"""Small numbers in German, French, Spanish, Portuguese, Italian and Dutch that are no English word ("due", "once",
"sept" and "otto" are left out)."""
FOREIGN_WORDS = re.compile(r"(?<![\w-])(" + "|".join(FOREIGN_NUMBERS) + r")(?![\w-])", re.I)
DIGITS = re.compile(r"(?<![\w$€£¥#/.:,-])(?P<n>\d{1,3}(?:[,\u202f\u00a0 ]\d{3})*|\d+)(?![\w%/:]|[.,]\d|-\d)")
NOT_AFTER = re.compile(
    r"\s*(?:[ap]\.?m\b|h\b|hrs?\b|uhr\b|o'clock|"
    + MONTH
    + r"\b|[€$£¥]|(?-i:[A-Z]{3})\b|euros?\b|dollars?\b|pounds?\b|percent)",
    re.I,
)
WORD_TIME_AFTER = re.compile(r"\s*(?:[ap]\.?m\b|o'clock)", re.I)
# a month before a number makes it a day ("March 5", "Jan. 5"), not a month that ends a sentence ("January. 5 people")
NOT_BEFORE = re.compile(
    r"(?:(?<![\w.])" + MONTH + r"(?:(?<=\b\w{3})\.)?|\bat|\bv|\bversion|\bno\.|\bnumber|#|[€$£¥]|"
    r"\b(?:part|phase|step|stage|round|level|tier|floor|room|gate|car|coach|platform|track|wave|batch|dock|bay|row|"
    r"seat|berth|unit|building|terminal|option|slot|item|line|page|section|clause|chapter|table)s?)\s*$",
    re.I,
)
"""A number after a month is a day; after a name of a thing's place in a series ("part 2", "dock 4", "car 7",
"Room 4"), an identifier."""
DATE_ENDS = re.compile(r"\b\d{1,2}\s+" + MONTH + r"\.\s*$", re.I)
"""A month that ends a date and its sentence ("Fri 11 Dec. 4 seats"): the number after it is no day."""
HOURS = re.compile(r"(?<![\w:.,])(?<!\bat\s)(?<!\bà\s)(?<!\bum\s)(\d{1,3})\s?(?:h|hrs?)\b(?![:.]?\d)", re.I)
"""Hours written short ("SLA now 4h"), read as a count when hours are counted (not "at 14h", a time)."""


def find_counts(text: str) -> list[tuple[int, int, int]]:
    """The counts `text` states, as (value, start, end)."""
    links = url_spans(text)
    out = []
    for m in DIGITS.finditer(text):
        if (
            inside(m.start(), links)
            or NOT_AFTER.match(text, m.end())
            or (
                NOT_BEFORE.search(text[max(0, m.start() - 12) : m.start()])
                and not PART_OF_WHOLE.match(text, m.end())
                and not DATE_ENDS.search(text[max(0, m.start() - 16) : m.start()])
            )
        ):
            continue
        out.append((int(re.sub(r"\D", "", m["n"])), m.start(), m.end()))
    for m in WORDS.finditer(text):
        if NOT_AFTER.match(text, m.end()) and not re.match(
            r"^\s*(?:[€$£¥]|euros?|dollars?|pounds?)", text[m.end() :], re.I
        ):
            if re.match(r"^\s*(?:[ap]\.?m\b|o'clock)", text[m.end() :], re.I):
                continue
        if m["dozen"]:
            value = 12
        elif m["tens"]:
            value = TENS[m["tens"].lower()] + (UNITS.index(m["unit"].lower()) if m["unit"] else 0)
        else:
            value = UNITS.index(m["small"].lower())
        if m["small"] and m["small"].lower() == "one":
            continue  # "one" is mostly a pronoun ("the one you meant")
        if m["dozens"]:
            value *= 12  # "three dozen"
        out.append((value, m.start(), m.end()))
    for m in FOREIGN_WORDS.finditer(text):
        out.append((FOREIGN_NUMBERS[m.group(1).lower()], m.start(), m.end()))
    return sorted(out, key=lambda c: c[1])


TRANSLATIONS = {
    "people": ("personen", "personnes", "personas", "persone", "pessoas", "leute", "mensen"),
    "person": ("person", "personne", "persona", "pessoa", "persoon"),
    "nights": ("nächte", "nuits", "noches", "notti", "noites", "nachten", "übernachtungen"),
    "night": ("nacht", "nuit", "noche", "notte", "noite"),
    "rooms": ("zimmer", "chambres", "habitaciones", "camere", "quartos", "kamers"),
    "days": ("tage", "jours", "días", "dias", "giorni", "dagen"),
    "pallets": ("paletten", "palettes", "palés", "pallet", "bancali", "paletes"),
}
"""The same count nouns in German, French, Spanish, Italian, Portuguese and Dutch ("2 notti", "4 persone")."""


def _forms(noun: str) -> set[str]:
    """A noun and its singular or plural ("companies", "company"), and its forms in other languages; "others" stays
    itself, so "3 other days" is not a count of others."""
    noun = noun.lower().strip()
    if noun in TRANSLATIONS:
        return _english_forms(noun) | set(TRANSLATIONS[noun])
    return _english_forms(noun)


def _english_forms(noun: str) -> set[str]:
    noun = noun.lower().strip()
    if " " in noun:  # "docking stations", "votes in favour": the phrase, or its head noun
        head = noun.split()[-1] if " of " not in noun and " in " not in noun else noun.split()[0]
        return {noun} | _forms(head)
    if noun == "others":
        return {noun}
    if noun.endswith("ies"):
        return {noun, noun[:-3] + "y"}
    if noun.endswith("y"):
        return {noun, noun[:-1] + "ies"}
    if noun.endswith("s"):
        return {noun, noun[:-1]}
    return {noun, noun + "s"}


PEOPLE = frozenset(
    {
        "people",
        "person",
        "persons",
        "guests",
        "guest",
        "attendees",
        "participants",
        "pax",
        "heads",
        "adults",
        "colleagues",
        "members",
        "staff",
        "travellers",
        "travelers",
        "us",
        "covers",
        "seats",
        "diners",
        "headcount",
        "employees",
        "hires",
        "candidates",
        "personen",
        "personnes",
        "personas",
        "persone",
        "pessoas",
    }
)
PERSONS = re.compile(r"^(?:\w+\s)*\w+(?:or|er|ist|ian|ee|ant|ent|yer)s$", re.I)
"""A noun of people by its ending ("auditors", "interviewers", "technicians", "panelists", "lawyers"): counted in
the words of people too ("a team of 4", "two people from their side")."""
NOT_PERSONS = frozenset({"offers", "orders", "others", "numbers", "letters", "papers", "hours", "centers", "filters"})


def _same_noun(word: str, forms: set[str]) -> bool:
    """`word` is one of `forms`, or one of them with a slip ("attendess": two letters swapped or one wrong), or another form of the same stem
    ("registered" for registrants: the first six letters or more shared, and the noun of seven letters or more)."""
    if word in forms:
        return True
    for form in forms:
        if len(form) >= 6 and len(word) == len(form) and OSA.distance(word, form) == 1 and word[0] == form[0]:
            return True
        if len(form) >= 7 and len(word) >= 6 and " " not in form:
            shared = len(os.path.commonprefix([word, form]))
            if shared >= 6 and shared >= min(len(word), len(form)) - 4:
                return True
    return False


PEOPLE_BEFORE = re.compile(
    r"\b(?:party\s+of|table\s+for|group\s+of|team\s+of|for|serves|feeds|catering\s+for|we(?:'re|\s+are|'ll\s+be|"
    r"\s+will\s+be)|headcount(?:\s+(?:of|is|:))?|expecting|booked\s+for)\s*$",
    re.I,
)


PART_OF_WHOLE = re.compile(r"\s+(?:out\s+)?of\s+(?:the\s+)?(?:\d+|" + "|".join(UNITS[2:13]) + r")\b", re.I)


def counts_of(text: str, end: int, nouns: list[str], start: int | None = None) -> bool:
    """Whether one of `nouns` (singular or plural) is among the three words after a count ending at `end`
    ("34 other companies", "14 hungry guests", "32 others"), or, for a count starting at `start`, among the three
    words before it in its clause ("Hosts covered: 250", "headcount of 2"); a count of people is also written
    "four of us", "a party of 5", "table for 5", "we're 6"."""
    part = PART_OF_WHOLE.match(text, end)  # "two of the three panelists": a part counts the whole's noun
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", text[part.end() if part else end : end + 60])[:3]]
    forms = set().union(*(_forms(n) for n in nouns))
    if any(_same_noun(w, forms) for w in words):
        return True
    before = ""
    if start is not None:
        lead = text[max(0, start - 40) : start]
        before = re.split(r"[.;!?\n|()]", lead)[-1]
        if any(_same_noun(w.lower(), forms) for w in re.findall(r"[^\W\d_]+", before)[-3:]):
            return True
    if forms & PEOPLE or any(PERSONS.search(n) for n in nouns):
        if any(w in PEOPLE or PERSONS.match(w) and w not in NOT_PERSONS for w in words[:2]) or words[:2] in (
            ["of", "us"],
            ["of", "you"],
        ):
            return True
        return bool(PEOPLE_BEFORE.search(before))
    return False


ANOTHER_SET = re.compile(
    r"\b(?:other|another|remaining|rest\s+of\s+the|additional|extra|more|further|first|last|next|"
    r"(?:part|wave|phase|batch|stage|round|tranche|group|lot|day|week)\s+\d+)\s*\W*$",
    re.I,
)
PART_OF = re.compile(r"\b(?:\d+|" + "|".join(UNITS[1:13]) + r")\s+(?:out\s+)?of\s+(?:the\s+)?$", re.I)
WHOLE_OF = re.compile(r"^\s+(?:out\s+)?of\s+(?:the\s+)?\d", re.I)


def _another_set(text: str, start: int, end: int) -> bool:
    """A count of another set of the same things, which does not contradict the count read: "the other 2 pallets",
    "part 2 (2 items)", and either side of a part and its whole ("14 of 16 managers", "3 of 12 nodes")."""
    before = text[max(0, start - 25) : start]
    return bool(ANOTHER_SET.search(before) or PART_OF.search(before) or WHOLE_OF.match(text, end))


COUNT_SET_ASIDE = re.compile(
    r"(?:\b(?:not|no\s+longer|instead\s+of|rather\s+than|was|were|originally|previously|from|cancel(?:l?ed)?|"
    r"non|nicht|niet|não|(?:an)?statt|au\s+lieu\s+de|en\s+vez\s+de|invece\s+di|wanted|asked\s+for|"
    r"(?:earlier|previous|original|initial)(?:\s+[^\W\d_]+\s+(?:for|of))?)"
    r"(?:\s+(?:the|a|an|for|of))?)\s*$",
    re.I,
)


def check_count(text: str, wanted: int, of: list[str] | None = None, approx: float = 0.0) -> tuple[bool, list[str]]:
    """Whether `text` states the count `wanted` (within the share `approx` of it: "about 40" for 37 with 0.25; of
    one of the nouns `of`, when given); also every count it states, as written. A count set aside ("not 4", "was 6") neither; and with
    `of`, a second, other count of the same thing contradicts it ("party of 6" ... "table for eight")."""
    own = read(text)
    found = find_counts(own)

    def said(start: int) -> bool:
        before = own[max(0, start - 20) : start]
        return not COUNT_SET_ASIDE.search(before)

    counted = [(v, st, e) for v, st, e in found if said(st) and (not of or counts_of(own, e, of, st))]
    if of and {"hours", "hour"} & set().union(*(_forms(n) for n in of)):
        counted += [(int(m[1]), m.start(), m.end()) for m in HOURS.finditer(own) if said(m.start())]
    hit = any(abs(v - wanted) <= approx * wanted for v, _, _ in counted)
    if hit and of:  # another count of the very noun, written after it, contradicts ("5 rooms" ... "4 rooms")
        forms = set().union(*(_forms(n) for n in of))
        nouned = [
            v
            for v, st, e in counted
            if re.findall(r"[^\W\d_]+", own[e : e + 30])[:1]
            and re.findall(r"[^\W\d_]+", own[e : e + 30])[0].lower() in forms
            and not _another_set(own, st, e)
        ]
        if forms & PEOPLE:  # people are counted in many words: "14 guests" ... "the 12 of us"
            nouned += [v for v, st, e in counted if re.match(r"\s+of\s+(?:us|you)\b", own[e : e + 10])]
        hit = not any(abs(v - wanted) > approx * wanted for v in nouned)
    return hit, [own[s:e] for _, s, e in found]
