"""The documentation's pages and their code blocks, as the tests of tests/docs read them.

The pages are the README and every Markdown page under docs/, plus the files the site includes whole
(`--8<-- "PATH"`: scenarios/README.md, servers/README.md). Blocks are read with markdown-it (CommonMark), so a
fence inside a list or a quote is found as GitHub and mkdocs find it.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
INCLUDE = re.compile(r'^--8<-- "([^"]+)"\s*$', re.M)


def pages() -> list[Path]:
    """The README, every page of docs/ and every file a page includes, each once, in a stable order."""
    found = [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)]
    included = [ROOT / m for page in found for m in INCLUDE.findall(page.read_text())]
    return list(dict.fromkeys([*found, *included]))


def text() -> str:
    """All the pages' text, one after another: where the tests look for what the docs name."""
    return "\n".join(page.read_text() for page in pages())


@dataclass
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int  # 1-based line of the opening fence
    language: str
    options: dict[str, str] = field(default_factory=dict)  # `key="value"` pairs after the language
    source: str = ""

    @property
    def name(self) -> str:
        """`page:line`, the test id."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """Every fenced code block of `page`."""
    found = []
    for token in MarkdownIt("commonmark").parse(page.read_text()):
        if token.type != "fence":
            continue
        info = token.info.strip()
        language, _, rest = info.partition(" ")
        options = dict(pair.split("=", 1) for pair in shlex.split(rest) if "=" in pair)
        found.append(Block(page, token.map[0] + 1, language.lower(), options, token.content))
    return found


def all_blocks() -> list[Block]:
    """Every fenced code block of every page."""
    return [block for page in pages() for block in blocks(page)]


def inline_code(page: Path) -> list[str]:
    """Every inline code span of `page`, outside code blocks."""
    spans = []
    for token in MarkdownIt("commonmark").parse(page.read_text()):
        if token.type == "inline":
            spans += [child.content for child in token.children or [] if child.type == "code_inline"]
    return spans
