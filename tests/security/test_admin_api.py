"""Threat: hostile or broken values sent to the admin API crash a request (500) or the whole server.

Every bad value is a 422 naming what was wrong; a create over an existing
sandbox or folder is a 409; a damaged sandbox database is skipped at startup;
sandboxes a crashed run left behind are removed when the next run starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from helpers import ROOT, AppProcess, app_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator.backends.base import OWNER, OWNER_PREFIX, HttpEndpoint, is_stale

SEED = {"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]}


@pytest.fixture(scope="module")
def server():
    with app_process("tickets") as proc:
        with proc.admin() as admin:
            assert admin.post("/sandboxes", json={"id": "box", "seed": SEED}).status_code == 201
        yield proc


CLOCK_BODIES = [
    b'{"advance_seconds": 1e12}',
    b'{"advance_seconds": -1e12}',
    b'{"advance_seconds": 1e308}',
    b'{"advance_seconds": NaN}',
    b'{"advance_seconds": Infinity}',
    b'{"advance_seconds": -Infinity}',
    b'{"advance_seconds": 20000000000}',
    b'{"advance_seconds": "soon"}',
    b'{"set": "9999-12-31T23:59:59+00:00", "advance_seconds": 86400}',
    b'{"set": "0001-01-01T00:00:00+00:00", "advance_seconds": -86400}',
    b'{"set": "2026-03-02T09:00:00"}',
    b'{"set": "not a date"}',
    b"[1, 2]",
    b'"text"',
]


@pytest.mark.parametrize("body", CLOCK_BODIES)
def test_clock_changes_out_of_range_are_422(server: AppProcess, body: bytes) -> None:
    with server.admin() as admin:
        before = admin.get("/sandboxes/box/clock").json()
        answer = admin.post("/sandboxes/box/clock", content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]
        assert admin.get("/sandboxes/box/clock").json() == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seconds=st.floats(allow_nan=True, allow_infinity=True) | st.integers(min_value=-(10**30), max_value=10**30))
def test_any_clock_advance_is_applied_or_refused_never_a_crash(server: AppProcess, seconds: float) -> None:
    with server.admin() as admin:
        answer = admin.post(
            "/sandboxes/box/clock",
            content=f'{{"advance_seconds": {seconds!r}}}'.replace("nan", "NaN").replace("inf", "Infinity"),
        )
        assert answer.status_code in (200, 422), answer.text
        admin.post("/sandboxes/box/reset")


@pytest.mark.parametrize(
    "query",
    [
        "after=1e20",
        "after=100000000000000000000",
        f"after={2**63}",
        "after=-1",
        "after=abc",
        "limit=1e3",
        f"limit={2**64}",
        "after=%00",
    ],
)
def test_journal_queries_out_of_range_are_422(server: AppProcess, query: str) -> None:
    with server.admin() as admin:
        answer = admin.get(f"/sandboxes/box/journal?{query}")
    assert answer.status_code == 422, answer.text


def test_journal_at_the_top_of_the_range_is_empty(server: AppProcess) -> None:
    with server.admin() as admin:
        assert admin.get(f"/sandboxes/box/journal?after={2**63 - 1}").json()["entries"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"persona": {"timezone": "America"}},
        {"persona": {"timezone": "Europe"}},
        {"persona": {"timezone": "America/"}},
        {"persona": {"timezone": "a" * 5000}},
        {"persona": {"timezone": "../../../../etc/passwd"}},
        {"persona": {"timezone": "UTC\u0000"}},
        {"persona": {"email": "nobody"}},
        {"rng_seed": "x"},
        {"clock": {"start": "2026-03-02T09:00:00"}},
        {"clock": {"mode": "sideways"}},
        {"owner": "x" * 1000},
        {"replace": "maybe"},
    ],
)
def test_bad_sandbox_specs_are_422(server: AppProcess, body: dict) -> None:
    with server.admin() as admin:
        answer = admin.post("/sandboxes", json={"id": "fuzzed", "replace": True, **body})
    assert answer.status_code == 422, answer.text
    assert answer.json()["problems"]


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b"null", b"1e999"])
def test_bodies_that_are_not_json_objects_are_4xx(server: AppProcess, body: bytes) -> None:
    with server.admin() as admin:
        for path in ("/sandboxes", "/sandboxes/box/clock", "/sandboxes/box/faults"):
            method = "PUT" if path.endswith("faults") else "POST"
            answer = admin.request(method, path, content=body)
            assert answer.status_code in (400, 422), (path, body[:20], answer.status_code, answer.text[:200])
    assert httpx2.get(f"{server.url}/healthz").status_code == 200


def test_create_without_replace_over_an_existing_sandbox_is_409(server: AppProcess) -> None:
    with server.admin() as admin:
        assert admin.post("/sandboxes", json={"id": "twice", "seed": SEED}).status_code == 201
        again = admin.post("/sandboxes", json={"id": "twice", "seed": {}})
        assert again.status_code == 409 and "replace" in again.json()["error"]
        assert admin.get("/sandboxes/twice/snapshot").json()["tickets"][0]["key"] == "OPS-1"


@pytest.mark.slow
def test_a_damaged_sandbox_is_skipped_at_startup_and_its_folder_is_not_overwritten(tmp_path: Path) -> None:
    with app_process("tickets", data_dir=tmp_path) as first:
        with first.admin() as admin:
            for sandbox_id in ("good", "bad"):
                assert admin.post("/sandboxes", json={"id": sandbox_id, "seed": SEED}).status_code == 201
    (tmp_path / "bad" / "state.db").write_bytes(b"this is not a database" * 100)
    for leftover in (tmp_path / "bad").glob("state.db-*"):
        leftover.unlink()
    with app_process("tickets", data_dir=tmp_path) as second:
        with second.admin() as admin:
            ids = [s["id"] for s in admin.get("/sandboxes").json()["sandboxes"]]
            assert "good" in ids and "bad" not in ids
            assert admin.get("/sandboxes/good/snapshot").json()["tickets"][0]["key"] == "OPS-1"
            over = admin.post("/sandboxes", json={"id": "bad", "seed": SEED})
            assert over.status_code == 409
            assert admin.post("/sandboxes", json={"id": "bad", "seed": SEED, "replace": True}).status_code == 201
            assert admin.get("/sandboxes/bad/snapshot").json()["tickets"][0]["key"] == "OPS-1"
        assert second.proc is not None and second.proc.poll() is None
    # The error was logged naming the sandbox (stderr of the second server).
    assert second.proc is not None and second.proc.stderr is not None
    assert b"skipping sandbox 'bad'" in second.proc.stderr.read()


def test_leftovers_are_told_apart_from_live_and_hand_made_sandboxes() -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    host = OWNER[len(OWNER_PREFIX) :].split(":")[0]
    assert is_stale(f"{OWNER_PREFIX}{host}:{dead.stdout.strip()}:12345", time.time())
    assert is_stale(f"{OWNER_PREFIX}{host}:{os.getppid()}:0", time.time())  # a live pid, but a different start: reused
    assert not is_stale(OWNER, time.time() - 10 * 24 * 3600)  # our own, however old
    assert not is_stale(None, 0) and not is_stale("someone by hand", 0)
    assert not is_stale(f"{OWNER_PREFIX}other-host:1:1", time.time())
    assert is_stale(f"{OWNER_PREFIX}other-host:1:1", time.time() - 2 * 24 * 3600)


async def test_a_new_run_removes_what_a_crashed_run_left(tmp_path: Path) -> None:
    """A run killed with -9 leaves its sandboxes in a durable server; the next run's endpoint removes them."""
    with app_process("tickets", data_dir=tmp_path) as server:
        crashed = subprocess.run(
            [
                sys.executable,
                "-c",
                (
                    "import anyio, sys\n"
                    "from orchestrator.backends.base import HttpEndpoint\n"
                    "from servers.core import SandboxSpec\n"
                    "async def main():\n"
                    f"    e = HttpEndpoint('tickets', {server.url!r}, {server.token!r})\n"
                    "    await e.create_sandbox('left-behind', SandboxSpec())\n"
                    "    import os, signal; os.kill(os.getpid(), signal.SIGKILL)\n"
                    "anyio.run(main)\n"
                ),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert crashed.returncode == -9, crashed.stderr
        with server.admin() as admin:
            assert admin.post("/sandboxes", json={"id": "by-hand"}).status_code == 201
        endpoint = HttpEndpoint("tickets", server.url, server.token)
        try:
            await endpoint.create_sandbox("mine-live", _spec())
            assert await endpoint.remove_leftovers() == ["left-behind"]
        finally:
            await endpoint.aclose()
        with server.admin() as admin:
            ids = {s["id"] for s in admin.get("/sandboxes").json()["sandboxes"]}
        assert ids == {"default", "by-hand", "mine-live"}


def _spec():  # noqa: ANN202
    from servers.core import SandboxSpec

    return SandboxSpec(seed=SEED)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
FIELDS = {
    "/sandboxes": ["id", "seed", "persona", "clock", "rng_seed", "replace", "owner"],
    "/sandboxes/box/clock": ["advance_seconds", "set"],
    "/sandboxes/box/faults": ["rules"],
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(sorted(FIELDS)), data=st.data())
@pytest.mark.slow
def test_fuzzed_admin_bodies_never_crash_a_request(server: AppProcess, path: str, data: st.DataObject) -> None:
    """Right field names with any JSON values (and JSON's NaN and infinities): an answer below 500, every time."""
    fields = FIELDS[path]
    body = data.draw(st.dictionaries(st.sampled_from(fields), JSON, max_size=len(fields)))
    if path == "/sandboxes":
        body["id"] = data.draw(st.sampled_from(["fuzz", "box", body.get("id")]))
    method = "PUT" if path.endswith("faults") else "POST"
    with server.admin() as admin:
        answer = admin.request(method, path, content=json.dumps(body).encode())
        assert answer.status_code < 500, (body, answer.text)
        if path != "/sandboxes":
            admin.put("/sandboxes/box/faults", json={"rules": []})
            admin.post("/sandboxes/box/reset")
