"""`.env` files: API keys and other settings as `KEY=VALUE` lines in `./.env`, read before a command runs.

A line is `KEY=VALUE` or `export KEY=VALUE`; blank lines and lines starting with `#` are skipped; a value may be
quoted with '…' or "…" (then taken as written), else a ` #` starts a comment. A variable already set in the
environment is never overridden: the environment wins over the file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def parse(text: str) -> dict[str, str]:
    """The `KEY=VALUE` pairs of a `.env` file's text, in order (see the module docstring)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = LINE.match(line)
        if not found:
            continue
        key, value = found.groups()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def load_dotenv(path: Path = Path(".env")) -> list[str]:
    """Set the variables of `path` that the environment does not have; the names set (none: no such file)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    added = [key for key in parse(text) if key not in os.environ]
    values = parse(text)
    for key in added:
        os.environ[key] = values[key]
    return added
