"""The README matches the code: every app's tools and every CLI command are documented."""

from __future__ import annotations

import re

import pytest
from helpers import ROOT
from typer.main import get_command

from orchestrator.cli import app as cli
from servers import registry

README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("app", sorted(registry.BUILTIN))
def test_every_tool_is_listed_in_its_app_section(app: str) -> None:
    section = re.search(rf"^### {app}\n(.*?)(?=^#)", README, re.S | re.M)
    assert section, f"README has no '### {app}' section"
    missing = [t for t in registry.load(app).tools.tools if f"`{t}`" not in section.group(1)]
    assert not missing, f"README's {app} section does not list: {missing}"


def test_every_command_is_in_the_readme() -> None:
    commands = get_command(cli).commands  # type: ignore[attr-defined]
    missing = [name for name in commands if f"orchestrator {name}" not in README]
    assert not missing, missing


def test_quick_start_commands_exist() -> None:
    quick = re.search(r"## Quick start\n(.*?)\n## ", README, re.S).group(1)
    blocks = re.findall(r"```\n(.*?)```", quick, re.S)
    assert blocks[0].strip().splitlines() == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'",
        ".venv/bin/orchestrator run scenarios/travel.yaml",
    ]
    assert blocks[1].strip() == ".venv/bin/python -m pytest -n auto"
    assert ".venv/bin/python -m pytest -n auto " in (ROOT / ".ci" / "run").read_text()  # CI runs the same command


def test_the_suite_run_comes_right_after_the_quick_start() -> None:
    sections = re.findall(r"^## (.+)$", README, re.M)
    assert sections[:3] == ["Quick start", "Benchmarking an agent: a suite run", "Looking at runs: `view` and `report`"]
    suite = re.search(r"## Benchmarking an agent: a suite run\n(.*?)\n## ", README, re.S).group(1)
    assert "orchestrator run scenarios/" in suite and "orchestrator view runs/" in suite
    from orchestrator.run import suite as suite_module

    # the summary fields the README names are the ones a suite writes
    for name in (
        "episodes",
        "passes",
        "score",
        "pass_at_k",
        "pass_hat_k",
        "stages",
        "calls",
        "duration_s",
        "cost_usd",
        "status",
    ):
        assert f"`{name}`" in suite and f'"{name}"' in (ROOT / "orchestrator" / "run" / "suite.py").read_text(), name
    assert suite_module.__doc__


def test_every_view_page_is_in_the_readme() -> None:
    from orchestrator.view.app import create_app

    section = re.search(r"## Looking at runs: `view` and `report`\n(.*?)\n## ", README, re.S).group(1)
    paths = {route.path for route in create_app([]).routes}  # type: ignore[attr-defined]
    assert paths == {"/", "/run/{rid:path}", "/group/{rid:path}", "/compare", "/healthz"}
    for words in (
        "list of runs",
        "a run:",
        "a suite or repeat",
        "side by side",
        "`report --html`",
        "`report --md`",
        "messages.json",
    ):
        assert words in section, words


@pytest.mark.parametrize("command", ["run", "export"])
def test_every_option_of_run_and_export_is_in_the_readme(command: str) -> None:
    params = get_command(cli).commands[command].params  # type: ignore[attr-defined]
    flags = [o for p in params for o in [*p.opts, *p.secondary_opts] if o.startswith("--")]
    missing = [
        flag for flag in flags if f"`{flag}" not in README and f"[{flag}" not in README and f" {flag} " not in README
    ]
    assert not missing, missing


def test_the_model_agents_are_documented() -> None:
    section = re.search(r"^### Evaluate a model\n(.*?)(?=^### )", README, re.S | re.M).group(1)
    for words in (
        "openai:MODEL",
        "anthropic:MODEL",
        "--base-url http://127.0.0.1:8000/v1",
        "11434",
        "cmd:claude",
        "cmd:codex",
        "agent_error",
        "messages.json",
        "orchestrator export",
        "--format",
        "sharegpt",
    ):
        assert words in section, words
