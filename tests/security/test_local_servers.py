"""Threat: a running `view` or `serve-env` on loopback tells whoever reaches it every check and expected value. An
agent finds the port through /proc/net/tcp and fetches the pages; a web page in the user's browser drives sessions
over a WebSocket (any Origin) or reads verdicts through a name it rebinds to 127.0.0.1; `--host 0.0.0.0` opens it to
the network without a word; and stateless /reset requests run episodes past `--max-sessions`.

Both servers need a token (printed in the URL they show), answer loopback Host names and Origins only, warn on a
non-loopback bind, and count stateless requests with the sessions.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from orchestrator import scenario as scenarios
from orchestrator.agents.base import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.app import create_app

TOKEN = "a-token-of-the-users-0123456789"
SCENARIO = SCENARIOS / "reschedule-conflict.yaml"
LOCAL = {"Host": "127.0.0.1:8000"}
"""A WebSocket of the test client names its host `testserver` unless told."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("served")

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(scenarios.load(TRAVEL_PATH), backend, OracleAgent, RunOptions(out=root / "oracle", seed=1))

    anyio.run(main)
    return root


def test_the_viewer_needs_its_token(runs: Path) -> None:
    client = TestClient(create_app([runs], TOKEN), base_url="http://127.0.0.1")
    for path in ("/", "/run/oracle", "/compare?run=oracle"):
        refused = client.get(path)
        assert refused.status_code == 401 and "travel" not in refused.text and "token" in refused.text, path
    assert client.get("/", headers={"Authorization": "Bearer not-the-token"}).status_code == 401
    assert client.get("/?token=not-the-token").status_code == 401
    assert client.get("/healthz").status_code == 200  # a health check tells nothing
    opened = client.get(f"/?token={TOKEN}")  # the URL the viewer prints
    assert opened.status_code == 200 and "travel" in opened.text
    assert "HttpOnly" in opened.headers["set-cookie"] and "SameSite=Strict" in opened.headers["set-cookie"]
    assert client.get("/run/oracle").status_code == 200  # then its links work, by the cookie
    fresh = TestClient(create_app([runs], TOKEN), base_url="http://127.0.0.1")
    assert fresh.get("/run/oracle", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_the_viewer_refuses_other_hosts_and_origins_even_with_the_token(runs: Path) -> None:
    client = TestClient(create_app([runs], TOKEN), base_url="http://127.0.0.1")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    rebound = client.get("/run/oracle", headers={**auth, "Host": "attacker.example:8780"})
    assert rebound.status_code == 403 and "travel" not in rebound.text
    cross = client.get("/run/oracle", headers={**auth, "Origin": "http://attacker.example"})
    assert cross.status_code == 403 and "travel" not in cross.text
    assert (
        client.get("/", headers={**auth, "Origin": "http://localhost:8780", "Host": "localhost:8780"}).status_code
        == 200
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_the_view_command_prints_a_url_with_a_fresh_token(runs: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", "view", str(runs), "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        url = line.split(" at ", 1)[1].split()[0]
        assert url.startswith(f"http://127.0.0.1:{port}/?token=") and len(url.split("token=")[1]) >= 32, line
        found = httpx2.get(f"http://127.0.0.1:{port}/run/oracle", timeout=30)  # what an agent that found the port gets
        assert found.status_code == 401 and "travel" not in found.text
        assert httpx2.get(url, timeout=30).status_code == 200
    finally:
        proc.terminate()
        proc.wait(20)


# -- serve-env ---------------------------------------------------------------------------------------------------


def env_app(max_sessions: int = 4):  # type: ignore[no-untyped-def]  # a Starlette app
    pytest.importorskip("openenv")
    from orchestrator.env.openenv import make_app

    return make_app([SCENARIO], max_sessions=max_sessions, token=TOKEN)


def test_serve_env_needs_its_token_and_refuses_other_hosts_and_origins() -> None:
    client = TestClient(env_app(), base_url="http://127.0.0.1")
    refused = client.post("/reset", json={"scenario": "reschedule-conflict", "seed": 0})
    assert refused.status_code == 401
    assert client.get("/state").status_code == 401 and client.get("/schema").status_code == 401
    assert client.get("/health").status_code == 200
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws", headers=LOCAL) as ws:  # no token
            ws.receive_text()
    with pytest.raises(WebSocketDisconnect):  # a page in the user's browser, with the token even
        with client.websocket_connect(f"/t/{TOKEN}/ws", headers={**LOCAL, "Origin": "http://attacker.example"}) as ws:
            ws.receive_text()
    rebound = client.get(f"/t/{TOKEN}/schema", headers={"Host": "attacker.example:8000"})
    assert rebound.status_code == 403
    assert client.get(f"/t/{TOKEN}/schema").status_code == 200
    with client.websocket_connect(f"/t/{TOKEN}/ws", headers={**LOCAL, "Origin": "http://127.0.0.1:8000"}) as ws:
        ws.send_json({"type": "reset", "data": {"scenario": "reschedule-conflict", "seed": 0}})
        assert "observation" in ws.receive_text()


def test_stateless_requests_count_against_max_sessions() -> None:
    client = TestClient(env_app(max_sessions=1), base_url="http://127.0.0.1")
    with client.websocket_connect(f"/t/{TOKEN}/ws", headers=LOCAL) as ws:  # the one session allowed, held
        ws.send_json({"type": "reset", "data": {"scenario": "reschedule-conflict", "seed": 0}})
        ws.receive_text()
        busy = client.post(f"/t/{TOKEN}/reset", json={"scenario": "reschedule-conflict", "seed": 0})
        assert busy.status_code == 503 and "--max-sessions" in busy.text
    done = client.post(f"/t/{TOKEN}/reset", json={"scenario": "reschedule-conflict", "seed": 0})
    assert done.status_code == 200, done.text


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(env_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the OpenEnv server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=20)


async def test_openenvs_own_client_works_with_the_printed_base_url(served: str) -> None:
    from openenv import GenericEnvClient

    async with GenericEnvClient(base_url=f"{served}/t/{TOKEN}") as env:
        reset = await env.reset(scenario="reschedule-conflict", seed=0)
        assert reset.observation["tools"]
    with pytest.raises(ConnectionError):
        async with GenericEnvClient(base_url=served) as env:  # without the token
            await env.reset(scenario="reschedule-conflict", seed=0)


@pytest.mark.slow
def test_serve_env_prints_its_url_and_warns_on_a_non_loopback_bind() -> None:
    pytest.importorskip("openenv")
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "serve-env",
            str(SCENARIO),
            "--port",
            str(port),
            "--host",
            "0.0.0.0",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        warning, shown = proc.stderr.readline(), proc.stderr.readline()
        assert warning.startswith("WARNING: serving on 0.0.0.0, which is not loopback"), warning
        assert f"http://0.0.0.0:{port}/t/" in shown, shown
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.slow
def test_a_big_run_does_not_hold_up_the_viewer(runs: Path, tmp_path: Path) -> None:
    """A run whose agent flooded its trace (15,000 refused calls of 4,000 characters) takes seconds to render; the
    viewer's other pages and /healthz answer meanwhile."""
    import shutil

    import uvicorn

    big = tmp_path / "runs" / "big"
    shutil.copytree(runs / "oracle", big)
    entry = {
        "source": "gateway",
        "wall": "2026-03-02T09:00:00.000",
        "method": "tools/call",
        "result": None,
        "params": {"name": "world__report", "arguments": {"summary": "S" * 4_000}},
        "is_error": True,
        "error": "refused",
        "latency_ms": 0.1,
    }
    with (big / "trace.jsonl").open("a") as trace:
        for i in range(15_000):
            trace.write(json.dumps({"seq": 1_000 + i, **entry}) + "\n")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app([tmp_path / "runs"], TOKEN), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    base, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {TOKEN}"}
    took: dict[str, float] = {}

    def render() -> None:
        started = time.perf_counter()
        assert httpx2.get(f"{base}/run/big", headers=auth, timeout=120).status_code == 200
        took["page"] = time.perf_counter() - started

    try:
        page = threading.Thread(target=render)
        page.start()
        time.sleep(0.3)
        waits = []
        while page.is_alive() and len(waits) < 20:
            started = time.perf_counter()
            assert httpx2.get(f"{base}/healthz", timeout=60).status_code == 200
            waits.append(time.perf_counter() - started)
            time.sleep(0.1)
        page.join(120)
        print(f"page {took.get('page', 0):.2f} s; /healthz meanwhile: max {max(waits or [0]):.3f} s over {len(waits)}")
        assert len(waits) >= 2 and took["page"] > 0.6, "the page rendered too fast to show anything"
        # The render shares the GIL, never the event loop: a blocked loop would keep /healthz waiting for the rest of
        # the render (the page's time less the 0.3 s before the first /healthz, more than half of it as the page
        # takes over 0.6 s), while one step of the render that holds the GIL took up to 0.8 s of a 2 s page on a slow
        # machine.
        assert max(waits) < min(1.5, took["page"] / 2)
    finally:
        server.should_exit = True
        thread.join(20)


def test_a_deeply_nested_action_is_refused_and_the_session_goes_on() -> None:
    """A 2,000-deep action made OpenEnv's parser fail the session, losing its episode; it is an error message now."""
    client = TestClient(env_app(), base_url="http://127.0.0.1")
    deep = "[" * 2_000 + "]" * 2_000
    with client.websocket_connect(f"/t/{TOKEN}/ws", headers=LOCAL) as ws:
        ws.send_json({"type": "reset", "data": {"scenario": "reschedule-conflict", "seed": 0}})
        assert json.loads(ws.receive_text())["type"] == "observation"
        ws.send_text(
            '{"type": "step", "data": {"type": "call_tool", "tool_name": "calendar__list_events", '
            f'"arguments": {{"x": {deep}}}}}}}'
        )
        refused = json.loads(ws.receive_text())
        assert refused["type"] == "error" and "deeper than 100 levels" in refused["data"]["message"]
        ws.send_json(
            {"type": "step", "data": {"type": "call_tool", "tool_name": "calendar__list_events", "arguments": {}}}
        )
        after = json.loads(ws.receive_text())
        assert after["type"] == "observation" and after["data"]["observation"]["result"]["is_error"] is False
    body = '{"scenario": ' + deep + "}"
    assert (
        client.post(f"/t/{TOKEN}/reset", content=body, headers={"content-type": "application/json"}).status_code == 400
    )
