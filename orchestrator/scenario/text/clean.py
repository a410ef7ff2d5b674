"""What of a text is read: not what it quotes, not its links' insides.

Quoted lines and forwarded messages are blanked (offsets hold), so that quoting a message does not state its
content; `url_spans` lets the readers skip numbers inside links.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

R = TypeVar("R")

CACHED_TEXT = 20_000
"""Characters of the longest text whose readings are kept (`per_text`); longer ones are read each time."""


def per_text(fn: Callable[..., R]) -> Callable[..., R]:
    """`fn(text, *args)` remembered for the last 4,096 texts (and arguments) it read, for a pure reading whose result
    is never changed by its callers (a string, a bool, a tuple): the same mail is read by many checks of a verdict,
    and the same seeded texts in every episode of a scenario. Texts over `CACHED_TEXT` characters are not kept."""
    cached = functools.lru_cache(maxsize=4096)(fn)

    @functools.wraps(fn)
    def read(text: str, *args: Any) -> R:
        if len(text) > CACHED_TEXT:
            return fn(text, *args)
        return cached(text, *args)

    read.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return read


QUOTE_HEADER = re.compile(r"^\s*On .{3,200}wrote:\s*$", re.I)
ORIGINAL_BLOCK = re.compile(r"^\s*-{3,}\s*(?:Forwarded message|Original Message)\s*-{3,}\s*$", re.I)


@per_text
def unquoted(text: str) -> str:
    """The text without what it quotes: `>` lines, their "On ... wrote:" header, and a forwarded or
    original message below its separator line (blanked to the same length, so offsets hold)."""
    out = []
    quoting = False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        quoting = quoting or ORIGINAL_BLOCK.match(body) is not None
        if quoting or body.lstrip().startswith(">") or QUOTE_HEADER.match(body):
            out.append(" " * len(body) + line[len(body) :])
        else:
            out.append(line)
    return "".join(out)


def as_text(value: object) -> str | None:
    """The text of a value (a string, or a list of strings joined by lines); None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+", re.I)


def url_spans(text: str) -> list[tuple[int, int]]:
    """Where the links of a text are, so numbers inside them are not read as times or dates."""
    return [m.span() for m in URL.finditer(text)]


def inside(pos: int, spans: Iterable[tuple[int, int]]) -> bool:
    """Whether `pos` falls in one of `spans`."""
    return any(a <= pos < b for a, b in spans)
