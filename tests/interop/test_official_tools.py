"""The official MCP Inspector CLI and conformance suite against the gateway and an app server.

Both need Node >= 22 and their npm packages; `.ci/install-node-tools` puts them
under `.cache/node-tools`. Without them these tests are skipped with the
reason, unless CLAWGYM_REQUIRE_INTEROP=1 (CI), which makes a skip a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH, app_process, free_port, wait_healthy

pytestmark = pytest.mark.e2e  # the official Node tools drive the gateway and app servers as processes

TOOLS = Path(os.environ.get("CLAWGYM_NODE_TOOLS", ROOT / ".cache" / "node-tools"))
# Server scenarios that apply to a server without the suite's fixture tools.
CONFORMANCE = [
    "server-initialize",
    "ping",
    "tools-list",
    "prompts-list",
    "resources-list",
    "dns-rebinding-protection",
    "server-sse-multiple-streams",
]


def node_env() -> dict[str, str]:
    bin_dirs = [*sorted(TOOLS.glob("node_modules/node-linux-*/bin")), TOOLS / "node_modules" / ".bin"]
    return os.environ | {"PATH": os.pathsep.join([*map(str, bin_dirs), os.environ.get("PATH", "")])}


def tool(name: str) -> str:
    found = shutil.which(name, path=node_env()["PATH"])
    if found is None:
        reason = f"{name} (Node >= 22) is not installed; run .ci/install-node-tools"
        if os.environ.get("CLAWGYM_REQUIRE_INTEROP") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), env=node_env(), capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    out = tmp_path_factory.mktemp("gateway")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "serve",
            str(TRAVEL_PATH),
            "--transport",
            "http",
            "--port",
            str(port),
            "--out",
            str(out),
            "--secret",
            "interop-test-secret-0123",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wait_healthy(f"http://127.0.0.1:{port}", proc)
    yield f"http://127.0.0.1:{port}/interop-test-secret-0123/mcp"
    proc.terminate()
    proc.wait(30)


@pytest.fixture(scope="module")
def app_server() -> Iterator[str]:
    with app_process("tickets") as server:
        yield server.mcp_url()


@pytest.mark.parametrize("scenario", CONFORMANCE)
def test_conformance_gateway(gateway: str, scenario: str) -> None:
    done = run(tool("conformance"), "server", "--url", gateway, "--scenario", scenario)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 failed" in done.stdout


@pytest.mark.parametrize("scenario", CONFORMANCE)
def test_conformance_app_server(app_server: str, scenario: str) -> None:
    done = run(tool("conformance"), "server", "--url", app_server, "--scenario", scenario)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 failed" in done.stdout


def test_inspector_http(gateway: str) -> None:
    inspector = tool("mcp-inspector")
    listed = run(inspector, "--cli", gateway, "--transport", "http", "--method", "tools/list")
    assert listed.returncode == 0, listed.stderr
    names = {t["name"] for t in json.loads(listed.stdout)["tools"]}
    assert {"mail__reply", "calendar__create_event", "docs__share_document", "tickets__create_ticket"} <= names
    called = run(
        inspector,
        "--cli",
        gateway,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "tickets__get_ticket",
        "--tool-arg",
        "key=OPS-3",
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"]["title"] == "Rotate staging credentials"


def test_inspector_stdio(tmp_path: Path) -> None:
    inspector = tool("mcp-inspector")
    serve = [
        sys.executable,
        "-m",
        "orchestrator.cli",
        "serve",
        str(TRAVEL_PATH),
        "--transport",
        "stdio",
        "--out",
        str(tmp_path),
    ]
    listed = run(inspector, "--cli", *serve, "--method", "tools/list")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["tools"]) > 40
    called = run(inspector, "--cli", *serve, "--method", "tools/call", "--tool-name", "calendar__list_calendars")
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"]["calendars"][0]["id"] == "primary"


def test_inspector_app_server(app_server: str) -> None:
    listed = run(tool("mcp-inspector"), "--cli", app_server, "--transport", "http", "--method", "tools/list")
    assert listed.returncode == 0, listed.stderr
    assert "transition_ticket" in {t["name"] for t in json.loads(listed.stdout)["tools"]}
