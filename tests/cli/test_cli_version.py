"""`--version`, `-h` on every level, and `clawgym` as a second name for the command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from orchestrator.cli import app
from servers import __version__


def test_version_is_printed_and_exits_0() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"clawgym {__version__}"


def test_h_is_help_at_every_level() -> None:
    for args in ([], ["run"], ["config"], ["config", "claude-desktop"], ["export"]):
        short, long = CliRunner().invoke(app, [*args, "-h"]), CliRunner().invoke(app, [*args, "--help"])
        assert short.exit_code == 0 and "Usage:" in short.output, args
        assert short.output == long.output, args


def test_clawgym_is_the_same_command() -> None:
    script = Path(sys.executable).parent / "clawgym"
    assert script.exists() or shutil.which("clawgym"), "the clawgym script is installed with the package"
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"clawgym {__version__}"
