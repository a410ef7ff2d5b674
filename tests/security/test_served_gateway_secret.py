"""Threat: `orchestrator serve --transport http` prints a URL with no secret, and any other local process that finds
the port (an agent of another episode, a scan of loopback) drives the served episode: it reads the inbox and sends
mail from it. The MCP endpoint answers only under a secret in its path; everything else is refused, and the open
`/healthz` names no scenario."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest
from helpers import ROOT, TRAVEL_PATH, free_port, wait_healthy
from mcp import Client

pytestmark = pytest.mark.e2e

URL = re.compile(r"http://127\.0\.0\.1:\d+/(?P<secret>[A-Za-z0-9_-]{16,})/mcp")


def read_url(proc: subprocess.Popen[str]) -> str:
    assert proc.stderr is not None
    for line in proc.stderr:
        if found := URL.search(line):
            return found.group(0)
    raise AssertionError("serve printed no URL with a secret")


async def test_the_served_gateway_answers_only_under_its_secret(tmp_path: Path) -> None:
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
            "--backend",
            "inprocess",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        url = read_url(proc)
        base = f"http://127.0.0.1:{port}"
        async with Client(url) as client:  # the holder of the URL: a real MCP client over Streamable HTTP
            found = await client.call_tool("mail__search_messages", {"query": "Berlin"})
            assert not found.is_error and found.structured_content["messages"]
        for guess in (f"{base}/mcp", f"{base}/{'x' * 24}/mcp", f"{base}/"):
            with pytest.raises(Exception):  # noqa: B017 - the SDK raises its transport's error for a 404
                async with Client(guess) as client:
                    await client.call_tool("mail__send_message", {"to": ["x@evil.test"], "subject": "s", "body": "b"})
            hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
            refused = httpx2.post(guess, json=hello, headers={"Accept": "application/json, text/event-stream"})
            assert refused.status_code == 404, (guess, refused.status_code)
        health = httpx2.get(f"{base}/healthz").json()
        assert health == {"status": "ok"}  # no scenario id for whoever finds the port
        secret = URL.search(url).group("secret")  # type: ignore[union-attr]  # the URL carries a secret: the test asserts its shape
        assert httpx2.get(f"{base}/{secret}/healthz").json()["scenario"] == "travel-berlin-offsite"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    results = (tmp_path / "latest" / "results.json").read_text()
    assert "x@evil.test" not in results  # no mail was sent by a guesser


def test_a_secret_too_short_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "serve",
            str(TRAVEL_PATH),
            "--transport",
            "http",
            "--secret",
            "abc",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--secret" in done.stderr and "at least 16" in done.stderr
