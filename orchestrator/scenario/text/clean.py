"""Small helpers of the readers: a cache of readings per text (`per_text`), a value as text (`as_text`), and
where a text's links are (`url_spans`), so numbers inside them are not read. What of a text is read at all
(not what it quotes, nor its signature) is decided by its one parse (text/parse.py).
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

    read.cache_clear = cached.cache_clear  # type: ignore[attr-defined]  # the cache's own clear, kept on the wrapper as lru_cache does
    return read


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
