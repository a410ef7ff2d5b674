"""Help reads as prose: a command's paragraphs are wrapped at the console's width, never at the docstring's own line
breaks, and an option's `[default: ...]` is shown, not taken for rich markup and dropped."""

from __future__ import annotations

import inspect

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from orchestrator.cli import app


def help_of(*args: str, columns: int = 400) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output


def paragraphs(doc: str) -> list[str]:
    return [" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n")]


@pytest.mark.parametrize("command", ["run", "retry", "serve", "generate", "validate", "down", "export-tasks"])
def test_each_paragraph_of_a_commands_help_is_one_line_on_a_wide_console(command: str) -> None:
    text = help_of(command)
    lines = [" ".join(line.strip(" │").split()) for line in text.splitlines()]
    doc = get_command(app).commands[command].callback.__doc__  # type: ignore[attr-defined,union-attr]  # typer's root command is a group; each command has a callback
    for paragraph in paragraphs(doc):
        assert paragraph in lines, f"{command}: {paragraph!r} is broken over lines:\n{text}"


def test_an_options_stated_default_is_shown() -> None:
    text = " ".join(help_of("run").split())
    assert "Folder for results.json and trace.jsonl [default: runs/ID-TIME]." in text
    assert "Seconds the agent gets [default: the scenario's]." in text
    assert "[default: the run's, as recorded]" in " ".join(help_of("retry").split())
