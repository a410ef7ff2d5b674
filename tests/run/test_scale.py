"""Many episodes at once on real app server processes: no call may be lost, and the servers stay bounded.

At 64 episodes at once, episodes used to die with "server disconnected without
sending a response": the app servers closed idle keep-alive connections after
5 s, exactly when the client's pool still counted them as reusable (httpx also
expires them at 5 s), so a request sent at that moment met a closing socket.
"""

from __future__ import annotations

import http.client
import json
import os
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from helpers import app_process

from orchestrator.agents.base import OracleAgent
from orchestrator.backends import make_backend
from orchestrator.backends.aio import KEEPALIVE_S
from orchestrator.backends.base import MAX_CONNECTIONS
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.scenario import load

SCENARIO = """\
id: scale-reply
title: Answer Priya
persona: {name: Dana Lee, email: dana@acme.test, timezone: Europe/Berlin}
clock: {start: "2026-03-02T09:00:00+01:00", mode: frozen}
instruction: Priya asked whether her Berlin trip is approved. It is; tell her.
apps:
  mail:
    contacts: [{email: priya@acme.test, name: Priya Shah}]
    messages:
      - id: ask
        from: Priya Shah <priya@acme.test>
        to: [dana@acme.test]
        subject: Berlin trip
        sent_at: "{{ today 08:12 }}"
        body: Hi Dana, is my Berlin trip approved? Priya
stages:
  - name: reply
    checks:
      - {app: mail, table: messages, where: {folder: sent, to: {contains: priya@acme.test}}}
allow: {mail: {messages: [added]}}
oracle:
  - {tool: mail__search_messages, args: {query: Berlin}}
  - {tool: mail__get_message, args: {message_id: ask}}
  - {tool: mail__reply, args: {message_id: ask, body: "Yes, your Berlin trip is approved."}}
"""


@pytest.mark.slow
def test_an_idle_connection_outlives_the_clients_pool_expiry() -> None:
    """The server keeps an idle connection open longer than a client keeps it in its pool, so the client
    always gives it up first and never sends a request into a connection the server is closing."""
    client_expiry = KEEPALIVE_S  # the orchestrator's pool (httpx's own is the same 5 s)
    with app_process("mail") as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/healthz")
        assert connection.getresponse().read() and connection.sock is not None
        sock = connection.sock
        time.sleep(client_expiry + 1)
        try:
            connection.request("GET", "/healthz")  # on the same socket: http.client reopens only a closed one
            response = connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError) as exc:
            raise AssertionError(f"the server closed an idle connection a client still pools: {exc!r}") from None
        assert response.status == 200 and connection.sock is sock
        connection.close()


def server_fds(backend: object) -> dict[str, int]:
    return {name: len(os.listdir(f"/proc/{app.process.pid}/fd")) for name, app in backend.apps.items()}  # type: ignore[attr-defined]  # the local backend's apps have a process


@pytest.mark.parametrize("parallel", [64])
@pytest.mark.slow
def test_parallel_episodes_on_local_lose_no_call(tmp_path: Path, parallel: int) -> None:
    """`orchestrator run --repeat N --parallel N` on the local backend: every episode completes and passes, every
    call the oracle made was answered by the app, and the servers end with no sandboxes and few open files."""
    path = tmp_path / "scale.yaml"
    path.write_text(SCENARIO)
    scenario = load(path)

    async def main() -> tuple[object, dict[str, int], dict[str, int], int]:
        async with make_backend("local", tmp_path / "logs") as backend:
            await backend.start(scenario.apps)
            before = server_fds(backend)
            async with httpx2.AsyncClient() as http:
                health = f"{backend.endpoints['mail'].base_url}/healthz"  # type: ignore[attr-defined]  # the local backend's endpoints are HTTP ones
                there = (await http.get(health)).json()["sandboxes"]
            options = RunOptions(out=tmp_path / "out", repeat=parallel, parallel=parallel)
            record = await run_many(scenario, backend, OracleAgent, options)
            after = server_fds(backend)
            async with httpx2.AsyncClient() as http:
                left = (await http.get(health)).json()["sandboxes"] - there
        return record, before, after, left

    started = time.monotonic()
    record, before, after, left = anyio.run(main)
    took = time.monotonic() - started
    results = record.results  # type: ignore[attr-defined]  # a single run's record
    problems = [
        f"{d.name}: {r.status} {r.error}"
        for d, r in zip(record.dirs, results, strict=True)
        if r.status != "completed" or not r.passed
    ]  # type: ignore[attr-defined]  # a single run's record
    assert not problems, problems[:5]
    for folder in record.dirs:  # type: ignore[attr-defined]  # a single run's record
        trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
        asked = [e for e in trace if e["source"] == "gateway" and e["method"] == "tools/call"]
        answered = [e for e in trace if e["source"] == "app:mail"]
        assert len(asked) == len(answered) == len(scenario.oracle), folder
        assert not any(e.get("error") or e.get("is_error") for e in asked + answered), folder
    calls = json.loads((tmp_path / "out" / "results.json").read_text())["calls"]
    assert calls["count"] == parallel * len(scenario.oracle) and calls["errors"] == 0
    assert 0 < calls["p50_ms"] <= calls["p99_ms"] <= calls["max_ms"]
    assert left == 0, "sandboxes were left behind"
    # Connections are pooled, not one per episode: the server keeps at most the pools' idle connections open.
    kept = 2 * min(parallel, MAX_CONNECTIONS)  # at most one per episode at once, on the admin plane and on MCP
    assert after["mail"] - before["mail"] <= kept + 4, (before, after)
    print(f"{parallel} episodes at once in {took:.1f} s")
