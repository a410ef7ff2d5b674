"""Reused confidential wording (`leaks`): how much of a source's word pairs a text shares, and the section of a
document a check is about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    """How much of a source's wording a text reuses: the share of its word pairs, and the pairs shared."""

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
