"""Pattern checks on prose, refused: `validate` reports every `regex`, `contains` or `icontains` (and their
negations) on a column people write in (a body, a description, a title, a quote; a tool call's summary or question),
in checks, forbid rules and the rules of the people who answer, with the operator to use instead.

A pattern on prose passes or fails on wording: "is approved already" misses `already approved|was approved`,
"4pm" misses `16[:.]00`, and the word "which" in an aside satisfies a check for a question. Patterns stay
available for what is not prose: ids, codes, addresses and links (a literal without spaces that holds a digit,
`@`, `/`, `-`, `_` or `.`, such as `OPS-142` or `priya@acme.test`), and values read from the final state (`from`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from orchestrator.scenario.checks import Expect, JournalCheck, JudgeCheck, RowCheck, ToldCheck
from orchestrator.scenario.model import Scenario

PROSE_COLUMNS = {
    "body",
    "content",
    "description",
    "text",
    "subject",
    "title",
    "summary",
    "notes",
    "location",
    "reply",
    "quote",
    "question",
    "answer",
    "comment",
    "message",
}
PATTERN_OPERATORS = {"regex", "contains", "icontains", "not_contains", "not_icontains"}
_JOINED = re.compile(r"[^\W_][@/_]|[A-Za-z]:|[@/]|[^\W_]\.[A-Za-z]|[A-Za-z]\.[^\W_]|[A-Za-z]-\d|\d-[A-Za-z]")


def code_token(word: str) -> bool:
    """Whether a literal names a thing rather than says something: an address, a link, a key or a version
    (`OPS-142`, `priya@acme.test`, `docs.example.test`, `msg_`, `https:`): letters or digits joined by `@ / _`, a
    dot or a colon after a letter, or a dash between a letter and a digit. A word (`approved`), a hyphenated word
    (`sign-off`), a number (`180`, `2.8`), a time (`16:00`) or a date (`2026-03-05`) is prose."""
    return " " not in word and bool(_JOINED.search(word))


_FLAGS = re.compile(r"\(\?[aiLmsux-]+\)|\(\?[:=!]|\(\?<[=!]")
_CLASSES = re.compile(r"\\[bBsSdDwWAZ]")
_ESCAPED = re.compile(r"\\(.)")
_META = re.compile(r"[\s()|^$*+?{}\[\],!=<>]+")
INSTEAD = (
    "use a text operator instead: says (a name or fixed phrase), mentions_date, mentions_time, mentions_amount, "
    "mentions_count, mentions_person, mentions_code (ids and codes), links; a told check for what someone must be "
    "told; a judge check for an idea people put in many words"
)


def literal_words(pattern: str) -> list[str]:
    """The written-out pieces of a pattern: its literal runs between the regex syntax (flags, groups, classes,
    alternation, repetition), escaped characters kept (`acme\\.test` gives `acme.test`)."""
    text = _CLASSES.sub(" ", _FLAGS.sub(" ", pattern))
    text = re.sub(r"\[(?:\\.|[^\]\\])*\]", "\x01", text)  # a character class stands for one character
    text = _ESCAPED.sub(lambda m: "\x00" if m.group(1) == "." else m.group(1), text)
    text = re.sub(r"(?<![\w\x00])\.|\.(?![\w\x00])", " ", text)  # a bare `.` is "any character"
    words = (w.replace("\x00", ".").replace("\x01", "") for w in _META.split(text))
    return [w for w in words if re.search(r"[^\W_]", w)]


def code_pattern(pattern: str) -> bool:
    """Whether a pattern only names ids, codes, addresses, links or versions: every literal run in it reads as one
    (`OPS-4[12]`, `@acme\\.test$`), none is a word or a number of prose (`approv`, `release`, `180`)."""
    return all(code_token(word) for word in literal_words(pattern))


def _literal(operand: Any, op: str) -> bool:
    """A pattern operand that is written out (not read from the final state) and not an id, code or address."""
    if isinstance(operand, Mapping):
        return "from" not in operand
    if not isinstance(operand, str):
        return False
    if op == "regex":
        return not code_pattern(operand)
    return not code_token(operand.strip())


def _conditions(where: Mapping[str, Any], path: str) -> Iterator[tuple[str, str, Any]]:
    """(path, column, condition) of every column condition in `where`, `any` alternatives included."""
    for column, condition in where.items():
        if column == "any" and isinstance(condition, list):
            for i, alternative in enumerate(condition):
                if isinstance(alternative, Mapping):
                    yield from _conditions(alternative, f"{path}.any[{i}]")
        elif column == "related" and isinstance(condition, Mapping):
            yield from _conditions(condition.get("where") or {}, f"{path}.related.where")
        else:
            yield f"{path}.{column}", column, condition


def _patterns(condition: Any, path: str) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(condition, Mapping):
        return
    for op, operand in condition.items():
        if op in PATTERN_OPERATORS:
            yield f"{path}.{op}", op, operand
        elif op in ("not", "has") and isinstance(operand, Mapping):
            yield from _patterns(operand, f"{path}.{op}")


def _wheres(scenario: Scenario) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for check_id, _, check in scenario.checks():
        if isinstance(check, RowCheck):
            yield f"{check_id}.where", check.where
            expect = check.expectation()
            if isinstance(expect, Expect) and expect.all:
                yield f"{check_id}.expect.all", expect.all
        elif isinstance(check, ToldCheck):
            for i, fact in enumerate(check.told.facts):
                for j, alternative in enumerate(fact["any"] if set(fact) == {"any"} else [fact]):
                    yield f"{check_id}.told.facts[{i}]" + (f".any[{j}]" if "any" in fact else ""), {"text": alternative}
        elif isinstance(check, JudgeCheck):
            yield f"{check_id}.judge.where", check.judge.where
        elif isinstance(check, JournalCheck):
            yield f"{check_id}.journal.args", check.journal.args
    for i, rule in enumerate(scenario.forbid):
        yield f"forbid[{i}].where", rule.where
    world = getattr(scenario, "world", None)
    for i, person in enumerate(world.people if world is not None else []):
        for kind in ("mail", "tickets"):  # who answers what: a reply that waits on the wording is judged by it too
            for j, rule in enumerate(getattr(person, kind, None) or []):
                yield f"world.people[{i}].{kind}[{j}].match", rule.match


def prose_patterns(scenario: Scenario) -> list[str]:
    """Every pattern check on prose in the scenario's checks and forbid rules, each with what to use instead."""
    out = []
    for at, where in _wheres(scenario):
        for path, column, condition in _conditions(where, at):
            if column not in PROSE_COLUMNS:
                continue
            for where_, op, operand in _patterns(condition, path):
                if _literal(operand, op):
                    out.append(f"{where_}: {op} {operand!r} checks the wording of prose; {INSTEAD}")
    return out
