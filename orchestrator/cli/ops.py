"""Operations around the runs: `config claude-desktop` (an MCP client's configuration to serve a scenario) and
`down` (remove every Docker object ClawGym started)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from orchestrator.cli.common import console, fail_usage, load_or_exit
from orchestrator.cli.options import output_folder


def claude_desktop_config(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder the served episodes go to (one folder each, and latest) \\[default: runs/ID-claude-desktop].",
            callback=output_folder,
        ),
    ] = None,
) -> None:
    """Print the claude_desktop_config.json entry that serves this scenario over stdio (absolute paths).

    The command is this installation's own interpreter running `-m orchestrator.cli`, whatever else is on PATH."""
    loaded = load_or_exit(scenario)
    folder = (out or Path("runs") / f"{loaded.id}-claude-desktop").resolve()
    entry = {
        # Absolute but not resolved: a virtual environment's python is a symlink that must stay one.
        "command": str(Path(sys.executable).absolute()),
        "args": [
            "-m",
            "orchestrator.cli",
            "serve",
            str(scenario.resolve()),
            "--transport",
            "stdio",
            "--out",
            str(folder),
        ],
        "env": {"PYTHONUNBUFFERED": "1"},
    }
    print(json.dumps({"mcpServers": {f"clawgym-{loaded.id}": entry}}, indent=2))


def down_command(
    project: Annotated[
        str | None,
        typer.Option(
            "--project",
            help="The project whose containers go \\[default: CLAWGYM_PROJECT, else clawgym-FOLDER, as runs here make].",
        ),
    ] = None,
    all_projects: Annotated[
        bool, typer.Option("--all-projects", help="Every project's: all that ClawGym labelled on this engine.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was removed as JSON.")] = False,
) -> None:
    """Remove the Docker containers, network and volumes of one ClawGym project (the one runs from this folder use,
    or --project), or of every project with --all-projects; never anything else."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.docker import down, project_name

    if project is not None and all_projects:
        raise fail_usage("--project and --all-projects: give one of them")
    try:
        which = "every project" if all_projects else f"project {project_name(project)}"
        removed = down(project, all_projects=all_projects)
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    if as_json:
        print(json.dumps(removed, indent=2))
        return
    console.print(f"{which}:", highlight=False)
    for kind, names in removed.items():
        console.print(f"removed {len(names)} {kind}" + (f": {', '.join(names)}" if names else ""), highlight=False)
