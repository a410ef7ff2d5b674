"""Start-up: `orchestrator --help` and `orchestrator list` import no MCP SDK, web server or app server machinery.

Each runs the real CLI in a fresh interpreter and reads `sys.modules` afterwards: listing the library loads every
scenario, so every app's seed model and tools (whose `ToolError` is the core's own, `servers.core.errors`, not
the SDK's), and none of that may pull in the SDK that only running an episode needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import ROOT

NOT_AT_START = ("mcp", "mcp_types", "starlette", "uvicorn", "sse_starlette", "httpx", "httpx2", "ray", "docker")

PROBE = """
import json, sys
from orchestrator.cli import app
sys.argv = ["orchestrator", *sys.argv[1:]]
try:
    app()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
print("\\n" + json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def started_with(*args: str) -> tuple[int, set[str], str]:
    """Run the CLI with `args` in a fresh interpreter: its exit code, the top-level modules it loaded, its output."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return last["code"], set(last["modules"]), done.stdout


@pytest.mark.parametrize("args", [["--help"], ["run", "--help"], ["list"], ["list", "scenarios/", "--json"]])
def test_help_and_list_import_no_mcp_sdk_or_web_server(args: list[str]) -> None:
    code, modules, output = started_with(*args)
    assert code in (0, None), output
    assert "mcp" not in modules
    assert not modules & set(NOT_AT_START), sorted(modules & set(NOT_AT_START))


def test_list_still_loads_every_app_it_validates_seeds_with() -> None:
    """The listing really read the scenarios: their apps' tools modules were imported (without the SDK)."""
    code, modules, output = started_with("list", "scenarios/", "--json")
    assert code in (0, None)
    listed = json.loads(output[: output.rindex("\n{")])
    assert len(listed["scenarios"]) > 3 and listed["invalid"] == []
    assert {"servers", "orchestrator", "pydantic", "yaml"} <= modules
    probe = (
        "import sys\nfrom orchestrator import scenario\nscenario.load('scenarios/travel.yaml')\n"
        "print(sorted(m for m in sys.modules if m.endswith('.tools') and m.startswith('servers.')))\n"
        "print('mcp' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    tools, mcp_loaded = done.stdout.strip().splitlines()
    assert "servers.mail.tools" in tools and mcp_loaded == "False"


def test_run_on_local_starts_the_server_launcher_before_it_imports_the_mcp_sdk() -> None:
    """The launcher's imports overlap the orchestrator's only if it starts first: nothing `orchestrator run` does
    before `prestart` (parsing its options, checking `--noise`, piped output's help width) may import the SDK, nor
    typer's help layer (rich's Markdown and pygments)."""
    probe = (
        "import json, sys\n"
        "from orchestrator.backends import launch\n"
        "def prestart():\n"
        "    print(json.dumps(sorted(sys.modules)))\n"
        "    raise SystemExit(0)\n"
        "launch.prestart = prestart\n"
        "from orchestrator.cli import main\n"
        "sys.argv = ['orchestrator', 'run', 'scenarios/travel.yaml', '--backend', 'local', '--noise', 'mild']\n"
        "main()\n"
    )
    piped = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}  # as a pipe has it
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=piped, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip(), done.stderr
    modules = set(json.loads(done.stdout.strip().splitlines()[-1]))
    loaded = {m.split(".")[0] for m in modules}
    assert "orchestrator" in loaded
    assert not loaded & set(NOT_AT_START), sorted(loaded & set(NOT_AT_START))
    assert not modules & {"typer.rich_utils", "rich.markdown", "pygments"}, sorted(modules & {"typer.rich_utils"})
