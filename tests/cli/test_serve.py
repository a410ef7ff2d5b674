"""`orchestrator serve`: real MCP clients on the gateway over stdio (as Claude Desktop launches it) and HTTP."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from helpers import ROOT, TRAVEL_PATH, free_port, wait_healthy
from mcp import Client, StdioServerParameters

from orchestrator import scenario as scenarios
from orchestrator.agents import substitute

SCENARIO = scenarios.load(TRAVEL_PATH)
TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


async def replay_oracle(client: Client) -> None:
    saved: dict[str, Any] = {}
    for step in SCENARIO.oracle:
        result = await client.call_tool(step.tool, substitute(step.args, saved))
        assert not result.is_error, result.content[0].text
        if step.save:
            saved[step.save] = result.structured_content


async def inspect_gateway(client: Client) -> None:
    tools = (await client.list_tools()).tools
    assert len(tools) > 40 and all(TOOL_NAME.match(t.name) for t in tools)
    assert {t.name.split("__")[0] for t in tools} == {"mail", "calendar", "docs", "tickets"}
    get_event = next(t for t in tools if t.name == "calendar__get_event")
    assert get_event.annotations.read_only_hint is True and get_event.output_schema["type"] == "object"
    prompts = (await client.list_prompts()).prompts
    assert [p.name for p in prompts] == ["task"]
    prompt = await client.get_prompt("task")
    assert prompt.messages[0].content.text == SCENARIO.instruction.strip()
    resources = (await client.list_resources()).resources
    assert [str(r.uri) for r in resources] == ["clawgym://task"]
    assert (await client.list_resource_templates()).resource_templates == []
    text = (await client.read_resource("clawgym://task")).contents[0].text
    assert text == SCENARIO.instruction.strip()
    # Nothing of how the task is judged reaches the agent.
    exposed = json.dumps([t.model_dump(mode="json") for t in tools]) + json.dumps(prompt.model_dump(mode="json")) + text
    for secret in ("oracle", "Motel One Berlin-Mitte itinerary", "stages", "forbid", SCENARIO.stages[1].checks[0].name):
        assert secret not in exposed
    unknown = await client.call_tool("calendar__no_such_tool", {})
    assert unknown.is_error and "Unknown tool" in unknown.content[0].text
    bad = await client.call_tool("calendar__get_event", {"event_id": "nope"})
    assert bad.is_error and "No event with id 'nope'" in bad.content[0].text


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.e2e
async def test_stdio_as_claude_desktop_launches_it(mode: str, tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "orchestrator.cli", "serve", str(TRAVEL_PATH), "--transport", "stdio", "--out", str(tmp_path)],
        cwd=ROOT,
    )
    async with Client(params, mode=mode) as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        await inspect_gateway(client)
        await replay_oracle(client)
    deadline = time.monotonic() + 20
    while not (tmp_path / "latest" / "results.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    result = json.loads((tmp_path / "latest" / "results.json").read_text())
    assert result["passed"] is True and result["score"] == 1.0
    assert result["journal"]["errors"] == 1  # the unknown event id above


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.e2e
async def test_streamable_http_until_sigterm(mode: str, tmp_path: Path) -> None:
    port = free_port()
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
            str(tmp_path),
            "--secret",
            "served-test-secret-0123",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        async with Client(f"http://127.0.0.1:{port}/served-test-secret-0123/mcp", mode=mode) as client:
            await inspect_gateway(client)
            created = await client.call_tool(
                "calendar__create_event", {"title": "Travel to Berlin", "start": "2026-03-10T15:00"}
            )
            assert not created.is_error
        evil = httpx2.post(
            f"http://127.0.0.1:{port}/served-test-secret-0123/mcp",
            json={},
            headers={"Host": "evil.test", "Content-Type": "application/json"},
        )
        assert evil.status_code == 421
    finally:
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    assert stdout == ""
    assert proc.returncode == 1, stderr  # only one step of the task was done
    assert "Traceback" not in stderr and "CancelledError" not in stderr, stderr
    result = json.loads((tmp_path / "latest" / "results.json").read_text())
    assert result["episode"]["stopped_by"] == "SIGTERM"
    assert result["passed"] is False and result["score"] < 1
    assert [c["kind"] for c in result["changes"]] == ["added"]


def serve_args(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "orchestrator.cli",
        "serve",
        str(TRAVEL_PATH),
        "--backend",
        "inprocess",
        "--out",
        str(out),
        *extra,
    ]


def initialize(proc: subprocess.Popen) -> None:
    """The MCP handshake by hand, as a client that keeps stdin open afterwards."""
    assert proc.stdin and proc.stdout
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    proc.stdin.write(json.dumps(hello) + "\n")
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    assert answer["id"] == 1 and "resources" in answer["result"]["capabilities"]
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "calendar__create_event",
            "arguments": {"title": "Travel to Berlin", "start": "2026-03-10T15:00"},
        },
    }
    proc.stdin.write(json.dumps(call) + "\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 2


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_stdio_stops_on_a_signal_while_stdin_is_open(stop: signal.Signals, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        serve_args(tmp_path), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        initialize(proc)
        proc.send_signal(stop)
        returncode = proc.wait(timeout=30)  # stdin stays open: the signal alone must end serving
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = proc.stderr.read()
    assert returncode == 1, stderr
    assert f"{stop.name}: stopping" in stderr and "Traceback" not in stderr
    result = json.loads((tmp_path / "latest" / "results.json").read_text())
    assert result["episode"]["stopped_by"] == stop.name
    assert [c["kind"] for c in result["changes"]] == ["added"]  # the call made before the signal counts
    proc.stdin.close()


@pytest.mark.e2e
def test_each_served_episode_keeps_its_own_folder(tmp_path: Path) -> None:
    folders = []
    for _ in range(2):
        done = subprocess.run(
            serve_args(tmp_path), cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 1, done.stderr
        folders.append(Path(re.search(r"results: (\S+)/results.json", done.stderr).group(1)))
    assert folders[0] != folders[1] and all(f.parent == tmp_path for f in folders)
    assert all((f / "results.json").exists() and (f / "trace.jsonl").exists() for f in folders)
    latest = tmp_path / "latest"
    assert latest.is_symlink() and not Path(latest.readlink()).is_absolute()  # survives copying the folder
    assert latest.resolve() == folders[1].resolve()
    assert json.loads((latest / "results.json").read_text())["episode"]["stopped_by"] == "end of stdin"
