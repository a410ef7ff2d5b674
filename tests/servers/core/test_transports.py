"""Every app over stdio (as Claude Desktop launches it) and over Streamable HTTP, in both protocol eras."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, app_process, structured
from mcp import Client, StdioServerParameters

from servers import registry

APPS = sorted(registry.BUILTIN)


async def exercise(client: Client, app: str) -> None:
    """List the tools and call every read-only tool that needs no arguments."""
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == set(registry.load(app).tools.tools)
    no_args = [
        t for t in tools if t.annotations and t.annotations.read_only_hint and not t.input_schema.get("required")
    ]
    assert no_args, f"{app} has no argument-free read-only tool to call"
    for tool in no_args:
        if tool.name.startswith("search"):
            continue
        structured(await client.call_tool(tool.name, {}))


@pytest.mark.parametrize("app", APPS)
async def test_stdio(app: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump({"persona": {"name": "Dana", "email": "dana@acme.test"}, "rng_seed": 3}))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", f"servers.{app}", "--transport", "stdio", "--seed", str(spec)], cwd=ROOT
    )
    async with Client(params) as client:
        assert client.server_info is not None and client.server_info.name == f"clawgym-{app}"
        await exercise(client, app)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("app", APPS)
async def test_streamable_http(app: str, mode: str) -> None:
    with app_process(app) as server:
        async with Client(server.mcp_url(), mode=mode) as client:
            await exercise(client, app)
        with server.admin() as admin:
            journal = admin.get("/sandboxes/default/journal").json()["entries"]
        assert journal and not any(j["is_error"] for j in journal)


def test_a_bad_seed_file_names_the_file_and_field(tmp_path: Path) -> None:
    spec = tmp_path / "broken.yaml"
    spec.write_text("persona: {email: nobody}\nclock: {mode: sideways}\n")
    done = subprocess.run(
        [sys.executable, "-m", "servers.calendar", "--seed", str(spec)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert str(spec) in done.stderr
    assert "persona.email" in done.stderr and "clock.mode" in done.stderr
    seedless = tmp_path / "seed.yaml"
    seedless.write_text("seed: {events: [{title: x, start: soon}]}\n")
    done = subprocess.run(
        [sys.executable, "-m", "servers.calendar", "--seed", str(seedless)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode != 0 and "events[0].start" in done.stderr and str(seedless) in done.stderr
