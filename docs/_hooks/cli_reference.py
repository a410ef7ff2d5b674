"""mkdocs hook: the command-line reference is generated from the typer commands, so it cannot drift from them.

A page holding the line `<!-- cli-reference -->` gets, in its place, typer's Markdown for every command of
`orchestrator.cli.app` (the same text `typer orchestrator.cli utils docs` prints).
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- cli-reference -->"


def cli_markdown() -> str:
    """Every command of the orchestrator's CLI, its arguments and options, as Markdown."""
    import typer
    from typer.cli import get_docs_for_click

    from orchestrator.cli import app

    command = typer.main.get_command(app)
    docs = get_docs_for_click(obj=command, ctx=typer.Context(command), name="orchestrator", title="orchestrator")
    # the page has its own title: typer's becomes a section
    return docs.replace("\n## ", "\n### ").replace("# orchestrator\n", "## `orchestrator`\n", 1)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replace the marker with the generated reference."""
    return markdown.replace(MARKER, cli_markdown()) if MARKER in markdown else markdown
