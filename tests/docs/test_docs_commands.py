"""Every `orchestrator` command line the README and the docs show exists: its command (and subcommand), and every
`--option` it names, in shell blocks and inline code alike. Synopses count: `[--seed N]`, `[--fail-fast|--no-fail-fast]`.

Only the orchestrator's own command line is checked here, against its typer commands in process; what a line hands
to another program (`--agent 'cmd:claude --mcp-config ...'`) is that program's.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest
from docpages import ROOT, Block, all_blocks, inline_code, pages
from typer.main import get_command

from orchestrator.cli import app

CLI = get_command(app)
PROGRAMS = {"orchestrator", "clawgym", ".venv/bin/orchestrator", ".venv/bin/clawgym"}
SHELL = {"", "bash", "sh", "shell", "console"}


def invocations(source: str) -> list[list[str]]:
    """The orchestrator command lines in a piece of shell: continuation lines joined, comments cut, each command of a
    `&&`, `;` or `|` chain apart, environment assignments before the program skipped."""
    found = []
    for line in source.replace("\\\n", " ").splitlines():
        line = re.sub(r"^\$ ", "", line.strip())
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:  # an unbalanced quote: a synopsis or prose, not a command
            tokens = line.split()
        command: list[str] = []
        for token in [*tokens, "&&"]:
            if token in ("&&", ";", "|", "||", "&"):
                while command and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", command[0]):
                    command.pop(0)
                if command and command[0] in PROGRAMS:
                    found.append(command[1:])
                command = []
            else:
                command.append(token)
    return found


def resolve(args: list[str]) -> tuple[Any, list[str]]:
    """The (click) command the arguments name, a group's subcommand too, and the arguments after it."""
    command = CLI
    while hasattr(command, "commands") and args and not args[0].startswith("-"):
        name = args[0]
        if re.fullmatch(r"[A-Z][A-Z_|.]*", name):  # a placeholder (`orchestrator COMMAND --help`)
            break
        if name not in command.commands:
            if command is CLI:
                raise LookupError(f"no command {name!r} (commands: {', '.join(sorted(command.commands))})")
            break  # an argument of a group that takes one
        command, args = command.commands[name], args[1:]
    return command, args


def flags(args: list[str]) -> list[str]:
    """The options the arguments name: `[--a X]`, `--a|--b`, `--a=X` and `--a` alike."""
    named = []
    for arg in args:
        for part in re.split(r"[|\[\]]", arg):
            match = re.fullmatch(r"(--[a-z][a-z0-9-]*)(=.*)?", part)
            if match:
                named.append(match.group(1))
    return named


def problems(args: list[str]) -> list[str]:
    """What is wrong with one command line (nothing: it names a command and options that exist)."""
    try:
        command, rest = resolve(args)
    except LookupError as exc:
        return [str(exc)]
    known = {o for p in command.params for o in [*p.opts, *p.secondary_opts]} | {"--help"}
    return [f"{command.name}: no option {flag}" for flag in flags(rest) if flag not in known]


def shell_blocks() -> list[Block]:
    return [block for block in all_blocks() if block.language in SHELL]


def test_the_reader_finds_command_lines() -> None:
    assert invocations("X=1 orchestrator run a.yaml --seed 2 && orchestrator view runs/  # see\n") == [
        ["run", "a.yaml", "--seed", "2"],
        ["view", "runs/"],
    ]
    assert flags(["[--fail-fast|--no-fail-fast]", "--limit=2", "[--noise", "none|mild]", "-n"]) == [
        "--fail-fast",
        "--no-fail-fast",
        "--limit",
        "--noise",
    ]
    assert problems(["run", "--no-such-option"]) == ["run: no option --no-such-option"]
    assert problems(["no-such-command"])[0].startswith("no command 'no-such-command'")
    assert problems(["config", "claude-desktop", "x.yaml"]) == []
    assert problems(["config", "claude-desktop", "--no-such-option"]) == ["claude-desktop: no option --no-such-option"]
    assert problems(["COMMAND", "--help"]) == []
    # a flag inside an argument given to another program is that program's
    assert problems(["run", "x", "--agent", "cmd:claude --mcp-config f"]) == []


def test_the_docs_show_many_command_lines() -> None:
    lines = [args for block in shell_blocks() for args in invocations(block.source)]
    assert len(lines) > 60, len(lines)
    assert len({resolve(args)[0].name for args in lines}) >= 12


@pytest.mark.parametrize("block", shell_blocks(), ids=lambda block: block.name)
def test_every_command_line_of_a_block_exists(block: Block) -> None:
    found = [f"{' '.join(args)}: {p}" for args in invocations(block.source) for p in problems(args)]
    assert not found, f"{block.name}:\n" + "\n".join(found)


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_command_in_inline_code_exists(page) -> None:
    found = []
    for span in inline_code(page):
        for args in invocations(span):
            found += [f"`{span}`: {p}" for p in problems(args)]
    assert not found, f"{page}:\n" + "\n".join(found)
