"""What one tool call may cost: its time budget, the stored size of a sandbox, and how much of a
call's arguments and result a journal or trace entry keeps.

Arguments are kept whole up to the largest values the tools accept (scenario
checks read them); results and errors are cut sooner. A value too large to
keep is cut, and the cut says so: a string keeps its
start and ends with a marker naming its full length and the sha256 digest
of the whole string; a list keeps its first items and ends with such a
marker. So an entry stays readable and checkable (the digest identifies the
full value) while its size stays bounded whatever the agent sends.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from servers.core.errors import ToolError

DEFAULT_CALL_TIMEOUT = 5.0
"""Seconds a tool call may run before it is stopped, rolled back and answered with an error."""

DEFAULT_MAX_SANDBOX_MB = 64.0
"""Megabytes of SQLite pages a sandbox may use (its tables and journal); a call that would exceed it fails."""

STRING_LIMIT = 4_000
"""Characters of one string kept in a journal or trace entry."""

LIST_LIMIT = 100
"""Items of one list kept in a journal or trace entry."""

ENTRY_LIMIT = 64_000
"""Characters of JSON one journal or trace value may take after strings and lists are cut."""

ARGUMENT_STRING_LIMIT = 200_000
"""Characters of one argument string kept in a journal entry: the longest any tool accepts, so the arguments of a
call that succeeded are kept whole (scenario checks read them) and only oversized, refused ones are cut."""

ARGUMENT_LIMIT = 1_200_000
"""Characters of JSON a journal entry's arguments may take: above the largest message a tool accepts."""

TRUNCATED = "[truncated]"


class CallTimeout(ToolError):
    """A tool call ran past its time budget; it was stopped and changed nothing."""


def digest(text: str) -> str:
    """The sha256 hex digest of `text` (lone surrogates kept), as a cut value's marker names it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _cut_string(text: str, limit: int) -> str:
    return f"{text[:limit]}…{TRUNCATED} {len(text)} characters in all, sha256 {digest(text)}"


def _fits(value: Any, string_limit: int, list_limit: int) -> bool:
    """Whether `bounded` would cut nothing in `value`: plain JSON containers, string keys, nothing too long."""
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is str:
            if len(node) > string_limit:
                return False
        elif kind is dict:
            if len(node) > list_limit or not all(type(k) is str for k in node):
                return False
            stack.extend(node.values())
        elif kind is list:
            if len(node) > list_limit:
                return False
            stack.extend(node)
        elif isinstance(node, str | dict | list | tuple):
            return False  # tuples become lists, subclasses plain containers: `cut` copies them
    return True


def bounded(
    value: Any, *, string_limit: int = STRING_LIMIT, list_limit: int = LIST_LIMIT, limit: int = ENTRY_LIMIT
) -> Any:
    """`value` (JSON-like) with long strings and lists cut, each cut marked with the full size and a digest.

    If the result is still over `limit` characters of JSON, it is replaced by
    `{"truncated": true, "chars": N, "sha256": ..., "preview": "..."}`.
    """

    if _fits(value, string_limit, list_limit):
        # The common case: nothing to cut, so the value is kept as it is (no copy) if its JSON fits.
        text = json.dumps(value, default=str)
        if len(text) <= limit:
            return value
        return {"truncated": True, "chars": len(text), "sha256": digest(text), "preview": text[: limit // 2]}

    def cut(node: Any) -> Any:
        if isinstance(node, str):
            return node if len(node) <= string_limit else _cut_string(node, string_limit)
        if isinstance(node, dict):
            items: list[Any] = list(node.items())
            out = {str(k): cut(v) for k, v in items[:list_limit]}
            if len(items) > list_limit:
                rest = json.dumps(dict(items), default=str, sort_keys=True)
                out[TRUNCATED] = f"{len(items)} keys in all, sha256 {digest(rest)}"
            return out
        if isinstance(node, list | tuple):
            items = [cut(v) for v in node[:list_limit]]
            if len(node) > list_limit:
                whole = json.dumps(list(node), default=str)
                items.append(f"{TRUNCATED} {len(node)} items in all, sha256 {digest(whole)}")
            return items
        return node

    out = cut(value)
    text = json.dumps(out, default=str)
    if len(text) <= limit:
        return out
    whole = json.dumps(value, default=str)
    return {"truncated": True, "chars": len(whole), "sha256": digest(whole), "preview": text[: limit // 2]}


def bounded_line(entry: dict[str, Any], keys: tuple[str, ...]) -> str:
    """`entry` as one line of JSON with each of its `keys` bounded as `bounded` bounds it (a value that is cut is
    replaced in `entry`). An entry whose values fit, the common case, is encoded once: its JSON within `ENTRY_LIMIT`
    means each value's own JSON is too, so `bounded` would keep every one of them as it is."""
    if all(_fits(entry[key], STRING_LIMIT, LIST_LIMIT) for key in keys if key in entry):
        text = json.dumps(entry, default=str)
        if len(text) <= ENTRY_LIMIT:
            return text
    for key in keys:
        if key in entry:
            entry[key] = bounded(entry[key])
    return json.dumps(entry, default=str)


def bounded_arguments(arguments: Any) -> Any:
    """A call's arguments as a journal entry keeps them: whole for anything a tool accepts, cut beyond."""
    return bounded(arguments, string_limit=ARGUMENT_STRING_LIMIT, limit=ARGUMENT_LIMIT)


def bounded_text(text: str | None, limit: int = ENTRY_LIMIT) -> str | None:
    """An error message or other text, cut to `limit` characters with the same marker."""
    if text is None or len(text) <= limit:
        return text
    return _cut_string(text, limit)
