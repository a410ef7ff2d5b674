"""The docs match the code: every app's tools and every CLI command are documented, the README is the front page with
the quick start and a map of the docs, and each guide names what its feature has.

The docs are the README and the site under docs/ (tests/docs/docpages.py reads them); tests/docs checks that every
command and option they name exists, and runs their examples.
"""

from __future__ import annotations

import re
import sys

import pytest
import yaml
from helpers import ROOT
from typer.main import get_command

from orchestrator.cli import app as cli
from servers import registry

sys.path.insert(0, str(ROOT / "tests" / "docs"))
from docpages import text  # noqa: E402

README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"


def page(path: str) -> str:
    return (DOCS / path).read_text()


def nav_pages() -> list[str]:
    """Every page of the site's navigation (mkdocs.yml), as paths under docs/."""

    def walk(items: list) -> list[str]:
        found = []
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            found += walk(value) if isinstance(value, list) else [value]
        return found

    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)  # no tags to resolve here
    return walk(config["nav"])


@pytest.mark.parametrize("app", sorted(registry.BUILTIN))
def test_every_tool_is_listed_in_its_app_section(app: str) -> None:
    section = re.search(rf"^## {app}\n(.*?)(?=^#|\Z)", page("reference/apps.md"), re.S | re.M)
    assert section, f"docs/reference/apps.md has no '## {app}' section"
    missing = [t for t in registry.load(app).tools.tools if f"`{t}`" not in section.group(1)]
    assert not missing, f"docs/reference/apps.md's {app} section does not list: {missing}"


def test_every_command_is_in_the_docs() -> None:
    docs = text()
    commands = get_command(cli).commands  # type: ignore[attr-defined]  # typer's root command is a group
    missing = [name for name in commands if f"orchestrator {name}" not in docs]
    assert not missing, missing


@pytest.mark.parametrize("where", ["README.md", "docs/getting-started.md"])
def test_quick_start_commands_exist(where: str) -> None:
    quick = re.search(r"## Quick start\n(.*?)\n## ", (ROOT / where).read_text(), re.S).group(1)
    blocks = re.findall(r"```\n(.*?)```", quick, re.S)
    assert blocks[0].strip().splitlines() == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'",
        ".venv/bin/orchestrator run scenarios/travel.yaml",
    ]
    if where == "README.md":
        assert blocks[1].strip() == ".venv/bin/python -m pytest -n auto"
    else:
        assert ".venv/bin/python -m pytest -n auto" in (ROOT / where).read_text()
    assert ".venv/bin/python -m pytest -n auto " in (ROOT / ".ci" / "run").read_text()  # CI runs the same command


def test_the_readme_is_the_front_page_with_a_map_of_every_page() -> None:
    lines = README.splitlines()
    assert len(lines) <= 300, f"the README has {len(lines)} lines; the rest belongs in docs/"
    sections = re.findall(r"^## (.+)$", README, re.M)
    assert sections[0] == "Quick start", sections
    linked = set(re.findall(r"\]\(docs/([^)#]+)", README))
    missing = [p for p in nav_pages() if p not in linked and p != "index.md"]
    assert not missing, f"the README's map of the docs does not link: {missing}"
    every = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)
    assert sorted(nav_pages()) == every, "every page of docs/ is in mkdocs.yml's nav, and only those"


def test_the_suite_run_names_the_summary_fields_a_suite_writes() -> None:
    suite = page("guides/suite-runs.md")
    assert "orchestrator run scenarios/" in suite and "orchestrator view runs/" in suite
    from orchestrator.run import suite as suite_module

    # the summary fields the guide names are the ones a suite writes
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


def test_every_view_page_is_in_the_docs() -> None:
    from orchestrator.view.app import create_app

    section = page("guides/view-and-report.md")
    paths = {route.path for route in create_app([]).routes}  # type: ignore[attr-defined]  # starlette routes have a path
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
def test_every_option_of_run_and_export_is_in_the_docs(command: str) -> None:
    docs = text()
    params = get_command(cli).commands[command].params  # type: ignore[attr-defined]  # typer's root command is a group
    flags = [o for p in params for o in [*p.opts, *p.secondary_opts] if o.startswith("--")]
    missing = [flag for flag in flags if f"`{flag}" not in docs and f"[{flag}" not in docs and f" {flag} " not in docs]
    assert not missing, missing


def test_the_model_agents_are_documented() -> None:
    section = page("guides/evaluate-a-model.md")
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


def test_release_v2_and_the_image_name_are_documented() -> None:
    releases, docker = page("guides/releases.md"), page("guides/docker.md")
    assert "## Load release v2" in releases and "releases/v2/tasks.jsonl.gz" in releases
    assert "`CLAWGYM_IMAGE`" in docker
    assert (
        'os.environ.get("CLAWGYM_IMAGE", "clawgym/apps:latest")'
        in (ROOT / "orchestrator/backends/docker.py").read_text()
    )
    assert "${CLAWGYM_IMAGE:-clawgym/apps:latest}" in (ROOT / "images/build.sh").read_text()


def test_every_environment_variable_is_documented() -> None:
    sources = [*ROOT.glob("orchestrator/**/*.py"), *ROOT.glob("servers/**/*.py"), *ROOT.glob("images/*.sh")]
    used = {
        v for path in [*sources, ROOT / "compose.yaml"] for v in re.findall(r"CLAWGYM_[A-Z0-9_]+", path.read_text())
    }
    assert {"CLAWGYM_IMAGE", "CLAWGYM_RECORD_KEY", "CLAWGYM_TASK", "CLAWGYM_PORT"} <= used
    documented = set(re.findall(r"`(CLAWGYM_[A-Z0-9_]+)`", page("reference/environment.md")))
    assert not used - documented, f"docs/reference/environment.md does not name {sorted(used - documented)}"
