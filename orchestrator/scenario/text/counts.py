"""Counts a text states (`mentions_count`): "14 people", "fourteen guests", "we are 14", "about 34 other companies".

A count is a whole number in digits or words (up to ninety-nine, and "a dozen"), not part of a time ("14:00",
"2pm"), a date ("14 March", "March 14", "3/14", "14th"), a code or version ("OPS-14", "v14"), a link, an amount of
money ("€14") or a percentage.
"""

from __future__ import annotations

import re

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
DIGITS = re.compile(r"(?<![\w$€£¥#/.:,-])(?P<n>\d{1,3}(?:[,\u202f\u00a0 ]\d{3})*|\d+)(?![\w%/:]|[.,]\d|-\d)")
NOT_AFTER = re.compile(
    r"\s*(?:[ap]\.?m\b|h\b|hrs?\b|uhr\b|o'clock|"
    + MONTH
    + r"\b|[€$£¥]|(?-i:[A-Z]{3})\b|euros?\b|dollars?\b|pounds?\b|percent)",
    re.I,
)
WORD_TIME_AFTER = re.compile(r"\s*(?:[ap]\.?m\b|o'clock)", re.I)
NOT_BEFORE = re.compile(r"(?:" + MONTH + r"\.?|\bat|\bv|\bversion|\bno\.|\bnumber|#|[€$£¥])\s*$", re.I)


def find_counts(text: str) -> list[tuple[int, int, int]]:
    """The counts `text` states, as (value, start, end)."""
    links = url_spans(text)
    out = []
    for m in DIGITS.finditer(text):
        if (
            inside(m.start(), links)
            or NOT_AFTER.match(text, m.end())
            or NOT_BEFORE.search(text[max(0, m.start() - 12) : m.start()])
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
    return sorted(out, key=lambda c: c[1])


def _forms(noun: str) -> set[str]:
    """A noun and its singular or plural ("companies", "company"); "others" stays itself, so "3 other days"
    is not a count of others."""
    noun = noun.lower()
    if noun == "others":
        return {noun}
    if noun.endswith("ies"):
        return {noun, noun[:-3] + "y"}
    if noun.endswith("y"):
        return {noun, noun[:-1] + "ies"}
    if noun.endswith("s"):
        return {noun, noun[:-1]}
    return {noun, noun + "s"}


def counts_of(text: str, end: int, nouns: list[str]) -> bool:
    """Whether one of `nouns` (singular or plural) is among the three words after a count ending at `end`
    ("34 other companies", "14 hungry guests", "32 others")."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text[end : end + 60])[:3]]
    forms = set().union(*(_forms(n) for n in nouns))
    return any(w in forms for w in words)


def check_count(text: str, wanted: int, of: list[str] | None = None, approx: float = 0.0) -> tuple[bool, list[str]]:
    """Whether `text` states the count `wanted` (within the share `approx` of it: "about 40" for 37 with 0.25; of
    one of the nouns `of`, when given); also every count it states, as written."""
    own = read(text)
    found = find_counts(own)
    hit = any(abs(v - wanted) <= approx * wanted and (not of or counts_of(own, e, of)) for v, _, e in found)
    return hit, [own[s:e] for _, s, e in found]
