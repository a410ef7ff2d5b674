"""The HTTP server as a real process: admin API, sandbox routing and isolation, both protocol eras, Host checks."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2
import pytest
from helpers import ROOT, AppProcess, app_process, error_text, free_port, structured, wait_healthy
from mcp import Client

SEED = {
    "events": [
        {"id": "standup", "title": "Standup", "start": "2026-03-02T10:00", "end": "2026-03-02T10:15"},
        {"id": "review", "title": "Review", "start": "2026-03-03T14:00", "end": "2026-03-03T15:00"},
    ]
}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
PERSONA = {"name": "Dana", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server():
    with app_process("calendar") as proc:
        yield proc


def create(server: AppProcess, sandbox_id: str, **body) -> httpx2.Response:
    with server.admin() as admin:
        return admin.post(
            "/sandboxes", json={"id": sandbox_id, "seed": SEED, "clock": CLOCK, "persona": PERSONA, **body}
        )


def test_health_needs_no_token_and_admin_needs_the_right_one(server: AppProcess) -> None:
    health = httpx2.get(f"{server.url}/healthz").json()
    assert health["status"] == "ok" and health["app"] == "calendar"
    assert httpx2.get(f"{server.url}/admin/sandboxes").status_code == 401
    wrong = httpx2.get(f"{server.url}/admin/sandboxes", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "admin token" in wrong.json()["error"]
    with server.admin() as admin:
        info = admin.get("/info").json()
    assert info["tables"]["events"]["key"] == "id" and "create_event" in info["tools"]


def test_sandbox_lifecycle_over_the_admin_api(server: AppProcess) -> None:
    created = create(server, "life")
    assert created.status_code == 201, created.text
    assert created.json()["rows"] == 3 and created.json()["now"] == "2026-03-02T09:00:00+01:00"
    assert create(server, "life").status_code == 409
    with server.admin() as admin:
        seeded = admin.get("/sandboxes/life/snapshot").json()
        assert [e["id"] for e in seeded["events"]] == ["standup", "review"]
        assert "life" in [s["id"] for s in admin.get("/sandboxes").json()["sandboxes"]]
        assert (
            admin.post("/sandboxes/life/clock", json={"advance_seconds": 3600}).json()["now"]
            == "2026-03-02T10:00:00+01:00"
        )
        assert admin.get("/sandboxes/life/clock").json()["now"] == "2026-03-02T10:00:00+01:00"
        assert admin.post("/sandboxes/life/clock", json={"advance": 1}).status_code == 422
        reset = admin.post("/sandboxes/life/reset").json()
        assert reset["now"] == "2026-03-02T09:00:00+01:00" and reset["reset_ms"] < 50
        assert admin.get("/sandboxes/life/snapshot").json() == seeded
        assert admin.delete("/sandboxes/life").json() == {"deleted": "life"}
        for method, path in [("GET", "snapshot"), ("POST", "reset"), ("GET", "journal"), ("GET", "clock")]:
            missing = admin.request(method, f"/sandboxes/life/{path}")
            assert missing.status_code == 404 and missing.json()["error"] == "no sandbox with id 'life'"
        assert admin.delete("/sandboxes/life").status_code == 404


async def test_one_request_seeds_and_reads_back_and_one_reads_the_final_state(server: AppProcess) -> None:
    """`snapshot: true` on create answers the seeded state; `GET …/state` is the snapshot and the whole journal at
    once. Both say what the separate reads say, after real calls over MCP."""
    created = create(server, "both", snapshot=True)
    assert created.status_code == 201, created.text
    with server.admin() as admin:
        assert created.json()["snapshot"] == admin.get("/sandboxes/both/snapshot").json()
        assert "snapshot" not in create(server, "plain").json()
        async with server.client("both", created.json()["secret"]) as client:
            await client.call_tool(
                "create_event", {"title": "Retro", "start": "2026-03-04T16:00", "end": "2026-03-04T17:00"}
            )
            await client.call_tool("list_events", {})
        state = admin.get("/sandboxes/both/state").json()
        assert state["tables"] == admin.get("/sandboxes/both/snapshot").json()
        assert state["journal"] == admin.get("/sandboxes/both/journal").json()["entries"]
        assert [e["tool"] for e in state["journal"]] == ["create_event", "list_events"]
        assert "Retro" in [e["title"] for e in state["tables"]["events"]]
        for sandbox in ("both", "plain"):
            admin.delete(f"/sandboxes/{sandbox}")
        missing = admin.get("/sandboxes/both/state")
    assert missing.status_code == 404 and missing.json()["error"] == "no sandbox with id 'both'"


def test_bad_requests_are_422_naming_the_field(server: AppProcess) -> None:
    bad_seed = create(server, "bad", seed={"events": [{"title": "x", "start": "soon"}]})
    assert bad_seed.status_code == 422
    assert bad_seed.json()["problems"][0]["loc"] == "events[0].start"
    assert "calendar seed is invalid" in bad_seed.json()["error"]
    unknown_key = create(server, "bad", colour="red")
    assert unknown_key.status_code == 422 and unknown_key.json()["problems"][0]["loc"] == "colour"
    bad_id = create(server, "../x")
    assert bad_id.status_code == 422 and "invalid sandbox id" in bad_id.json()["error"]
    with server.admin() as admin:
        assert admin.post("/sandboxes", content=b"{not json").status_code == 400
        assert admin.get("/sandboxes/x/journal?after=abc").status_code in (400, 404)
    unknown = httpx2.post(server.mcp_url("nowhere"), json=INITIALIZE, headers=MCP_HEADERS)
    assert unknown.status_code == 404 and unknown.json() == {"error": "not found"}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_both_protocol_eras_reach_the_addressed_sandbox(server: AppProcess, mode: str) -> None:
    sandbox_id = f"era-{mode.replace('-', '')}"
    assert create(server, sandbox_id).status_code == 201
    async with server.client(sandbox_id, mode=mode) as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        listed = structured(await client.call_tool("list_events", {}))
        assert [e["id"] for e in listed["events"]] == ["standup", "review"]
        structured(await client.call_tool("create_event", {"title": f"via {mode}", "start": "2026-03-04T10:00"}))
        assert "No event" in error_text(await client.call_tool("get_event", {"event_id": "zzz"}))
    with server.admin() as admin:
        titles = [e["title"] for e in admin.get(f"/sandboxes/{sandbox_id}/snapshot").json()["events"]]
        journal = admin.get(f"/sandboxes/{sandbox_id}/journal").json()["entries"]
    assert titles == ["Standup", "Review", f"via {mode}"]
    assert [(j["tool"], j["is_error"]) for j in journal] == [
        ("list_events", False),
        ("create_event", False),
        ("get_event", True),
    ]


async def test_plain_mcp_path_is_the_default_sandbox(server: AppProcess) -> None:
    async with Client(server.mcp_url()) as client:
        created = structured(
            await client.call_tool("create_event", {"title": "default one", "start": "2026-03-04T10:00"})
        )
    with server.admin() as admin:
        events = admin.get("/sandboxes/default/snapshot").json()["events"]
    assert created["id"] in [e["id"] for e in events]


async def test_concurrent_sessions_never_touch_each_others_sandbox(server: AppProcess) -> None:
    for sandbox_id in ("iso-a", "iso-b"):
        assert create(server, sandbox_id).status_code == 201

    async def work(sandbox_id: str, mode: str) -> None:
        async with server.client(sandbox_id, mode=mode) as client:
            for i in range(8):
                structured(
                    await client.call_tool(
                        "create_event", {"title": f"{sandbox_id} {i}", "start": f"2026-03-05T0{i}:00"}
                    )
                )
                await anyio.sleep(0)
            structured(await client.call_tool("delete_event", {"event_id": "standup"}))

    async with anyio.create_task_group() as tg:
        tg.start_soon(work, "iso-a", "legacy")
        tg.start_soon(work, "iso-b", "2026-07-28")
    with server.admin() as admin:
        for mine in ("iso-a", "iso-b"):
            events = admin.get(f"/sandboxes/{mine}/snapshot").json()["events"]
            assert [e["title"] for e in events] == ["Review"] + [f"{mine} {i}" for i in range(8)]
            journal = admin.get(f"/sandboxes/{mine}/journal").json()["entries"]
            assert len(journal) == 9
            assert all(mine in json.dumps(j["arguments"]) for j in journal[:8])


async def test_fault_plan_over_admin_api(server: AppProcess) -> None:
    assert create(server, "faulty").status_code == 201
    with server.admin() as admin:
        plan = {"rules": [{"tool": "list_events", "calls": [1], "message": "upstream timeout"}]}
        assert admin.put("/sandboxes/faulty/faults", json=plan).json()["rules"][0]["calls"] == [1]
        assert admin.put("/sandboxes/faulty/faults", json={"rules": [{"tool": "x"}]}).status_code == 422
    async with server.client("faulty") as client:
        assert error_text(await client.call_tool("list_events", {})) == "upstream timeout"
        structured(await client.call_tool("list_events", {}))
    with server.admin() as admin:
        journal = admin.get("/sandboxes/faulty/journal").json()["entries"]
    assert journal[0]["fault"]["message"] == "upstream timeout" and journal[1]["fault"] is None


def test_dns_rebinding_protection_on_loopback(server: AppProcess) -> None:
    good = httpx2.post(server.mcp_url(), json=INITIALIZE, headers=MCP_HEADERS)
    assert good.status_code == 200
    evil_host = httpx2.post(server.mcp_url(), json=INITIALIZE, headers=MCP_HEADERS | {"Host": "evil.test"})
    assert evil_host.status_code == 421
    evil_origin = httpx2.post(server.mcp_url(), json=INITIALIZE, headers=MCP_HEADERS | {"Origin": "http://evil.test"})
    assert evil_origin.status_code == 403


def test_behind_a_container_hostname() -> None:
    """Bound to all interfaces (as in a container): the service name and the machine's hostname pass, others get 421."""
    with app_process("calendar", "--host", "0.0.0.0", "--allowed-host", "calendar") as proc:
        url = f"http://127.0.0.1:{proc.port}/mcp"
        for host in (f"calendar:{proc.port}", f"{socket.gethostname()}:{proc.port}", f"127.0.0.1:{proc.port}"):
            assert httpx2.post(url, json=INITIALIZE, headers=MCP_HEADERS | {"Host": host}).status_code == 200, host
        assert httpx2.post(url, json=INITIALIZE, headers=MCP_HEADERS | {"Host": "evil.test"}).status_code == 421


def test_admin_is_disabled_without_a_token_off_loopback() -> None:
    port = free_port()
    args = [sys.executable, "-m", "servers.calendar", "--transport", "http", "--host", "0.0.0.0", "--port", str(port)]
    env = {k: v for k, v in os.environ.items() if k != "CLAWGYM_ADMIN_TOKEN"}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        refused = httpx2.get(f"http://127.0.0.1:{port}/admin/sandboxes", headers={"Authorization": "Bearer x"})
        assert refused.status_code == 403 and "disabled" in refused.json()["error"]
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=10)
    assert "admin API is disabled" in stderr


def test_a_token_is_generated_and_printed_on_loopback() -> None:
    port = free_port()
    args = [sys.executable, "-m", "servers.calendar", "--transport", "http", "--port", str(port)]
    env = {k: v for k, v in os.environ.items() if k != "CLAWGYM_ADMIN_TOKEN"}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        token = line.rsplit(" ", 1)[-1].strip()
        assert "generated admin token" in line and len(token) > 20
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        ok = httpx2.get(f"http://127.0.0.1:{port}/admin/sandboxes", headers={"Authorization": f"Bearer {token}"})
        assert ok.status_code == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_disk_state_survives_a_restart(tmp_path: Path) -> None:
    with app_process("calendar", data_dir=tmp_path, token="t0k") as first:
        assert create(first, "durable").status_code == 201

        async def change() -> None:
            async with first.client("durable") as client:
                structured(await client.call_tool("cancel_event", {"event_id": "review"}))

        anyio.run(change)
        with first.admin() as admin:
            before = admin.get("/sandboxes/durable/snapshot").json()
    with app_process("calendar", data_dir=tmp_path, token="t0k") as second:
        with second.admin() as admin:
            assert admin.get("/sandboxes/durable/snapshot").json() == before
            assert admin.get("/sandboxes/durable/journal").json()["entries"][0]["tool"] == "cancel_event"
            admin.post("/sandboxes/durable/reset")
            statuses = [e["status"] for e in admin.get("/sandboxes/durable/snapshot").json()["events"]]
    assert statuses == ["confirmed", "confirmed"]
