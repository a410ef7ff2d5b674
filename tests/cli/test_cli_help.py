"""`--help` of the command line and of each command group exits 0 and lists what is there; listing them loads no
heavy dependency (the MCP SDK, Ray, the vendor SDKs, Docker, Faker, a web server)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import ROOT
from typer.main import get_command
from typer.testing import CliRunner

from orchestrator.cli import app

COMMANDS = [
    "show",
    "list",
    "generate",
    "inject",
    "validate",
    "run",
    "retry",
    "serve",
    "config",
    "export",
    "verify-digest",
    "view",
    "report",
    "export-tasks",
    "serve-env",
    "down",
    "tasks",
]
GROUPS = ["config", "tasks"]
HEAVY = ("mcp", "ray", "openai", "anthropic", "docker", "faker", "uvicorn", "starlette")


def help_of(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_top_level_help_lists_every_command_in_order() -> None:
    text = help_of()
    assert "Run agents against ClawGym scenarios" in text
    in_order = [c for c in COMMANDS if c not in GROUPS] + GROUPS  # the groups come after the commands
    listed = [line.split()[1] for line in text.splitlines() if line.startswith("│ ") and line.split()[1] in COMMANDS]
    assert listed == in_order
    assert list(get_command(app).commands) == in_order  # type: ignore[attr-defined]  # typer's root command is a group


def test_no_arguments_shows_the_help() -> None:
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 2 and "Usage:" in result.output and "run" in result.output


def test_the_config_group_lists_its_command() -> None:
    text = help_of("config")
    assert "Print MCP client configuration for a scenario." in text and "claude-desktop" in text


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in GROUPS] + ["config claude-desktop", "tasks get"])
def test_each_command_has_help(command: str) -> None:
    text = help_of(*command.split())
    assert "Usage: " in text and command in text


def test_run_help_groups_the_model_agent_options() -> None:
    text = help_of("run")
    panel = text[text.index("Model agents (openai:MODEL, anthropic:MODEL)") :]
    for flag in (
        "--base-url",
        "--max-turns",
        "--max-tokens",
        "--temperature",
        "--model-seed",
        "--parallel-tool-calls",
        "--request-timeout",
        "--max-retries",
        "--max-concurrent-requests",
        "--stream",
        "--max-result-chars",
        "--price",
    ):
        assert flag in panel, flag


def modules_loaded_by(*args: str) -> list[str]:
    """The heavy top-level modules a fresh interpreter has loaded after running the CLI with `args`."""
    code = (  # printed as the script exits (`leave` runs the exit handlers)
        "import atexit, json, sys\nfrom orchestrator.cli import main\nsys.argv = ['orchestrator', *sys.argv[1:]]\n"
        f"atexit.register(lambda: print('\\n' + json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))))\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_help_loads_no_heavy_dependency() -> None:
    assert modules_loaded_by("--help") == []
    assert modules_loaded_by("run", "--help") == []


def test_listing_scenarios_loads_no_agent_cluster_or_container_dependency() -> None:
    assert not set(modules_loaded_by("list", "scenarios/")) & {"ray", "openai", "anthropic", "docker", "faker"}


def test_reading_scenarios_and_records_loads_no_mcp_sdk() -> None:
    """A scenario's model (whose seeds are checked with `servers.core.sandbox`), the verdict, the record and the
    scenario's words import no MCP SDK or web server: only running a tool does. (Loading a scenario file still
    imports its apps' tools, which raise the SDK's `ToolError`.)"""
    code = (
        "import sys\nimport orchestrator.scenario.model, orchestrator.verify.verdict, orchestrator.record, "
        "orchestrator.show, servers.core.sandbox\n"
        f"print(__import__('json').dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_help_piped_to_a_file_or_pager_shows_whole_option_names() -> None:
    """Piped (no terminal, no COLUMNS), help is laid out wide enough that no option name is cut with '…';
    COLUMNS, when set, still decides."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH", "LINES")}
    piped = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "run", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert piped.returncode == 0, piped.stderr
    for flag in ("--max-concurrent-requests", "--parallel-tool-calls", "--no-parallel-tool-calls", "--request-timeout"):
        assert flag in piped.stdout, flag
    assert max(len(line) for line in piped.stdout.splitlines()) >= 100
    narrow = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "run", "--help"],
        cwd=ROOT,
        env={**env, "COLUMNS": "90"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 90
