"""Names, fixed phrases and codes a text states: `says` and `mentions_code`.

`says` matches a phrase as words: any case, any punctuation or line breaks between them, a hyphen or none where
the phrase has a space ("e-mail", "email"), and a plural or possessive `s` on its last word. A phrase the text
sets aside ("not Motel One", "instead of Motel One", "rather than", "cancelled the Motel One") is not said.
It is meant for names (a hotel, a venue, a product) and fixed expressions, not for ideas: an idea a reader could
put in many words is a claim for the judge.

`mentions_code` matches an id or code ("OPS-142", "INV 2026-0031") as a whole token; with `only`, no other code
of the same shape appears (a mail listing every key does not state the new one).
"""

from __future__ import annotations

import functools
import re

from orchestrator.scenario.text.clean import per_text

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
SET_ASIDE_BEFORE = re.compile(
    r"(?:\bnot|n['’]t|\bno|\bnever|\binstead\s+of|\brather\s+than|\bno\s+longer|\bexcept|\bcancel(?:l?ed|l?ing|s)?|"
    r"\bdropp(?:ed|ing)|\bwithout|\bother\s+than|\bunlike)"
    r"(?:\s+(?:at|in|to|for|via|with|the|a|an|our|your|that|this|from|on|going|staying|booking|booked)){0,3}\s*$",
    re.I,
)


def _norm(word: str) -> str:
    word = word.lower().replace("’", "'")
    return word[:-2] if word.endswith("'s") else word


@per_text
def _words(text: str) -> tuple[tuple[str, int, int], ...]:
    return tuple((_norm(m.group(0)), m.start(), m.end()) for m in WORD.finditer(text))


@functools.lru_cache(maxsize=1024)
def _phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(_norm(w) for w in WORD.findall(phrase))


def _same(word: str, wanted: str, last: bool) -> bool:
    return word == wanted or (last and word in (wanted + "s", wanted + "es"))


def phrase_spans(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where `phrase` is written in `text`, as words (see the module's docstring)."""
    wanted = _phrase_words(phrase)
    if not wanted:
        return []
    words = _words(text)
    joined = "".join(wanted)
    spans = []
    for i in range(len(words)):
        n = len(wanted)
        if i + n <= len(words) and all(_same(words[i + k][0], wanted[k], k == n - 1) for k in range(n)):
            spans.append((words[i][1], words[i + n - 1][2]))
            continue
        for k in range(1, min(n + 2, len(words) - i) + 1):  # "e-mail" for "email", "checkin" for "check in"
            if "".join(w for w, _, _ in words[i : i + k]) == joined and k != n:
                spans.append((words[i][1], words[i + k - 1][2]))
                break
        if n > 1 and _same(words[i][0], joined, True):
            spans.append((words[i][1], words[i][2]))
    return spans


def times_said(text: str, phrases: list[str]) -> int:
    """How many places of `text` write one of `phrases` (overlapping writings of two alternatives count once)."""
    spans = sorted({span for phrase in phrases for span in phrase_spans(text, phrase)})
    count, end = 0, -1
    for a, b in spans:
        if a >= end:
            count += 1
            end = b
    return count


@per_text
def says(text: str, phrase: str) -> bool:
    """Whether `text` says `phrase` and does not set it aside."""
    return any(not SET_ASIDE_BEFORE.search(text[max(0, a - 60) : a]) for a, _ in phrase_spans(text, phrase))


def _shape(code: str) -> re.Pattern[str] | None:
    """Codes of the same shape as `code`: its letters, then any digits in the same groups ("OPS-142" → OPS-<n>)."""
    m = re.fullmatch(r"([A-Za-z]+)([\s_-]?)(\d+)(?:([\s_-])(\d+))?", code.strip())
    if not m:
        return None
    tail = rf"{re.escape(m.group(4))}\d+" if m.group(4) else ""
    return re.compile(rf"(?<![\w-]){re.escape(m.group(1))}{re.escape(m.group(2))}\d+{tail}(?![\w-])", re.I)


def code_pattern(code: str) -> re.Pattern[str]:
    """`code` as a whole token, any case."""
    return re.compile(rf"(?<![\w-]){re.escape(code.strip())}(?![\w-]|\.\d)", re.I)


CODE_SET_ASIDE = re.compile(
    r"(?:\b(?:not|instead\s+of|rather\s+than|dup(?:e|licate)?\s+of|merged|typo|wrong|old|cancell?ed|"
    r"superseded\s+by|replaced|replaces|ignore|no\s+longer)\b[^.!?\n]{0,12})$",
    re.I,
)


def mentions_code(text: str, code: str, only: bool = False, claimed: bool = False) -> bool:
    """Whether `text` names `code`; with `only`, and no other code of its shape; with `claimed`, somewhere it does
    not set the code aside ("not K9TWQA", "dupe of HD-4410", "merged OPS-7710 into ...", "4471-A was cancelled")."""
    found = list(code_pattern(code).finditer(text))
    if claimed:
        found = [m for m in found if not _code_aside(text, m.start(), m.end())]
    if not found or (claimed and _swapped_twin(text, code.strip())):
        return False
    if not only:
        return True
    shape = _shape(code)
    return shape is None or all(m.group(0).lower() == code.strip().lower() for m in shape.finditer(text))


CODE_GONE_AFTER = re.compile(
    r"\s*(?:\([^)]*\)\s*)?(?:was|is|has\s+been)\s+(?:cancell?ed|closed|wrong|void|superseded)", re.I
)


CODE_HEDGED_BEFORE = re.compile(
    r"\b(?:probably|maybe|perhaps|possibly|presumably|likely|I\s+think|I\s+believe|I\s+guess|might\s+be|could\s+be|"
    r"should\s+be)\s+(?:(?:in|is|be|under|as)\s+)?$",
    re.I,
)
CODE_UNDERCUT_AFTER = re.compile(
    r"\s*(?:\((?:[^)]{0,20}\b(?:not|un)\s*(?:yet\s+)?(?:confirmed|sure|final|verified|certain)|tb[cd]|to\s+be\s+"
    r"confirmed|I\s+think|probably|maybe)[^)]{0,20}\)|,?\s+(?:I\s+think|probably|maybe|if\s+I'm\s+not\s+mistaken)\b|"
    r"\s*\((?:tb[cd]|\?)\))",
    re.I,
)
"""A code hedged where it is written: "probably OPS-12", "OPS-12 (not confirmed yet)", "OPS-12 (?)", "OPS-12, I
think": the writer does not state it (a hedge elsewhere in the sentence, about something else, leaves it stated)."""


_OTHER_CODE = r"(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,}\b"
CODE_OR_AFTER = re.compile(r"\s+(?:or|and/or)\s+(?:maybe\s+|possibly\s+|perhaps\s+)?" + _OTHER_CODE)
CODE_OR_BEFORE = re.compile(r"\b" + _OTHER_CODE + r"\s+(?:or|and/or)\s+(?:maybe\s+|possibly\s+|perhaps\s+)?$")
"""A code offered against another ("SUP-1 or SUP-2"): neither is stated."""


def _code_aside(text: str, start: int, end: int) -> bool:
    """The code written at `start:end` is set aside ("not K9TWQA", "dupe of HD-4410", "4471-A was cancelled"),
    hedged where it is written ("probably OPS-12", "OPS-12 (not confirmed yet)") or offered against another ("OPS-12
    or OPS-13")."""
    before = text[max(0, start - 30) : start]
    return bool(
        CODE_SET_ASIDE.search(before)
        or CODE_GONE_AFTER.match(text[end : end + 40])
        or CODE_HEDGED_BEFORE.search(before)
        or CODE_UNDERCUT_AFTER.match(text[end : end + 60])
        or CODE_OR_AFTER.match(text[end : end + 40])
        or CODE_OR_BEFORE.search(before)
    )


def _swapped_twin(text: str, code: str) -> bool:
    """The text also names `code` with two neighbouring characters swapped ("ref QL7TX2 ... quote QL7XT2",
    "HR-4410 ... HR-4401"), and does not set that one aside ("not INV-2201"): the commonest slip in copying a code,
    so neither one is asserted."""
    lower = text.lower()
    if len(lower) != len(text):
        return False
    code = code.lower()
    for i in range(len(code) - 1):
        if code[i] == code[i + 1]:
            continue
        twin = code[:i] + code[i + 1] + code[i] + code[i + 2 :]
        at = lower.find(twin)
        while at != -1:
            end = at + len(twin)
            if (
                (at == 0 or not (lower[at - 1].isalnum() or lower[at - 1] in "_-"))
                and (end == len(lower) or not (lower[end].isalnum() or lower[end] in "_-"))
                and not _code_aside(text, at, end)
            ):
                return True
            at = lower.find(twin, at + 1)
    return False


def code_about(sentences: list[str], code: str, about: list[str]) -> bool:
    """Whether a text (its `sentences`) names `code` beside what it is for: in each sentence that says one of the
    `about` phrases and names codes of `code`'s shape, the code nearest the phrase is `code` (a list item, a table
    row, "CHK-12 (mockups)"), and there is at least one such sentence. A key swapped with another item's fails."""
    shape, nearest = _shape(code) or code_pattern(code), set[str]()
    for line in sentences:
        codes = list(shape.finditer(line))
        for phrase in about:
            for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", line, re.I) if codes else ():
                gap = [max(c.start() - m.end(), m.start() - c.end(), 0) for c in codes]
                nearest.add(codes[gap.index(min(gap))].group(0).lower())
    return nearest == {code.strip().lower()}


def codes_of_shape(text: str, code: str) -> list[str]:
    """The codes of `code`'s shape that `text` names, for failure reports."""
    shape = _shape(code)
    return sorted({m.group(0) for m in shape.finditer(text)}) if shape else []
