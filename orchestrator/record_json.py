"""Reading a run record's JSON tolerantly: nesting bounded (`loads`), a file that does not read is None
(`read_json`), a JSON-lines file whose bad lines are skipped and counted (`parse_jsonl`, `read_jsonl`), and the
folders a search for records walks (`run_folders`).
`orchestrator.record` re-exports all of it.

May import: nothing of the project (the standard library only).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SKIP_DIRS = frozenset({"logs", "home", ".git", "__pycache__"})
"""Folders never searched for records: app server logs, a command agent's home (it could plant a results.json)."""

MAX_DEPTH = 100
"""How deeply a record's JSON may nest. A run's own records nest a few levels; deeper is a crafted or corrupt file,
which would exhaust the stack of every reader that walks it (the digest, export, the viewer's templates)."""


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads(text: str) -> Any:
    """`json.loads` that refuses, with a ValueError, JSON nested deeper than `MAX_DEPTH`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)")
    return value


def read_json(path: Path) -> Any:
    """The JSON in `path`, or None when it cannot be read, is not JSON or nests deeper than `MAX_DEPTH`."""
    try:
        return loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None


@dataclass
class JsonLines:
    """The JSON objects of a JSON-lines file, and how many non-blank lines were skipped because they were not one."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0


def parse_jsonl(text: str) -> JsonLines:
    """Every line of `text` that is a JSON object (nested at most `MAX_DEPTH` deep); other non-blank lines are
    counted in `skipped`."""
    lines = JsonLines()
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except ValueError:
            entry = None
        if isinstance(entry, dict):
            lines.entries.append(entry)
        else:
            lines.skipped += 1
    return lines


def read_jsonl(path: Path) -> JsonLines:
    """`parse_jsonl` of a file (bytes that are not UTF-8 replaced); a missing or unreadable file has no lines."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return JsonLines()
    return parse_jsonl(text)


def run_folders(root: Path) -> Iterator[Path]:
    """`root` and every folder below it that may hold a record, in sorted order; hidden folders and `SKIP_DIRS` are
    not searched, and symlinks (like `latest`) are not followed, so nothing shows twice."""
    yield root
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in dirnames:
            yield Path(dirpath) / name
