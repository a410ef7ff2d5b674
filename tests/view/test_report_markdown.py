"""`report --md` writes text, never markup: HTML in a run's folder name, a check's name or an error is escaped, so a
pull request that shows the table shows the text and runs nothing. A real run (the noop agent on a copy of the travel
scenario whose check names carry HTML), reported by the CLI."""

from __future__ import annotations

from pathlib import Path

import anyio
import yaml
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents.base import NoopAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.run.runner import RunOptions, run_many

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"


def test_report_md_escapes_html(tmp_path: Path) -> None:
    data = yaml.safe_load(TRAVEL_PATH.read_text())
    for stage in data["stages"]:
        for check in stage["checks"]:
            check["name"] = f"{IMG} {SCRIPT} {check.get('name', '')}"
    path = tmp_path / "travel-html.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    folder = tmp_path / "runs" / IMG

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(scenarios.load(path), backend, NoopAgent, RunOptions(out=folder, seed=1))

    anyio.run(main)
    done = CliRunner().invoke(app, ["report", str(tmp_path / "runs"), "--md", "-"])
    assert done.exit_code == 0, done.output
    text = done.stdout
    assert "failed run" in text and "alert(1)" in text and "alert(2)" in text  # the row is there, as text
    assert "<img" not in text and "<script" not in text and "</script" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text and "&lt;script&gt;alert(2)&lt;/script&gt;" in text
