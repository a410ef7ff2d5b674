"""A release manifest's bytes: one JSON row per line, keys sorted, gzipped without a timestamp when the file's name
ends in .gz, so the same rows always give the same bytes (release.py and parts.py read and write them here)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any


def lines(rows: list[dict[str, Any]]) -> str:
    """The manifest's text: a row per line, its keys sorted."""
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of a manifest (`.jsonl` or `.jsonl.gz`)."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write a manifest, gzipped without a timestamp when its name ends in .gz."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = lines(rows).encode("utf-8")
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0) if path.suffix == ".gz" else data)
