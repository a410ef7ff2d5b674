"""Threat: an agent finds other episodes' gateways (their ports are in /proc/net/tcp, as the network is
shared) and calls tools in their sandboxes."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap


@pytest.mark.slow
def test_a_sibling_episodes_gateway_answers_only_at_its_secret_url(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_agent(
        out, "sleep 1; python tests/security/agents/scan_gateways.py; sleep 3", "--repeat", "2", "--parallel", "2"
    )
    urls = {
        e: json.loads((out / e / "results.json").read_text())["episode"]["gateway"]
        for e in ("episode-001", "episode-002")
    }
    for episode, sibling in (("episode-001", "episode-002"), ("episode-002", "episode-001")):
        log = (out / episode / "agent.log").read_text(errors="replace")
        assert "own gateway: 200 True" in log, log  # the probe works: its own gateway answers at its URL
        assert urlparse(urls[sibling]).path != "/mcp"  # the URL holds a secret
        port = urlparse(urls[sibling]).port
        seen = [line for line in log.splitlines() if line.startswith(f"port {port}:")]
        assert seen == [f"port {port}: 404"], log  # found, but no session
