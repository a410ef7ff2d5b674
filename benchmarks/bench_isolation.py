"""One sandbox cannot stall another: latencies with and without a heavy call running, side by side.

    python benchmarks/bench_isolation.py [--events N] [--seconds S]

Starts a calendar server over HTTP with two sandboxes: `heavy` (a crowded calendar, N events shared by 20
people) and `light` (empty). It measures, first with the server idle and then while `heavy` runs
free-slot searches over 92 days back to back, the median latency of `/healthz` and of a call to `light`,
and prints the medians side by side with the heavy call's own. A call runs on the event loop for at most one
slice (`servers.core.mcp.INLINE_SLICE_S`) and a tool seen to run past it runs in a worker thread from then on,
so the first two columns should stay close. The third column is the same measurement on a server patched so
that tools run wholly on the event loop: there every probe waits for the heavy call in progress.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parent.parent
PEOPLE = [f"p{i}@acme.test" for i in range(20)]
HEAVY_CALL = {
    "attendees": PEOPLE,
    "duration_minutes": 30,
    "time_min": "2026-03-02T00:00",
    "time_max": "2026-06-01T00:00",
    "working_hours_only": False,
}


def crowded(events: int) -> dict:
    return {
        "events": [
            {
                "id": f"e{i}",
                "title": f"Meeting {i}",
                "start": f"2026-03-{2 + i % 25:02d}T{8 + i % 9:02d}:{i % 4 * 15:02d}:00+00:00",
                "end": f"2026-03-{2 + i % 25:02d}T{8 + i % 9:02d}:{i % 4 * 15 + 10:02d}:00+00:00",
                "organizer": PEOPLE[i % 20],
                "attendees": [*PEOPLE[i % 7 : i % 7 + 4], "alex@example.test"],
            }
            for i in range(events)
        ]
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ON_LOOP = """
import anyio.to_thread

async def run_sync(fn, *args, **kwargs):
    return fn(*args)

anyio.to_thread.run_sync = run_sync  # tools run on the event loop, for comparison
from servers.calendar import APP
from servers.core.cli import main
main(APP)
"""


@contextlib.contextmanager
def server(port: int, token: str, on_loop: bool = False):
    start = ["-c", ON_LOOP] if on_loop else ["-m", "servers.calendar"]
    args = [
        sys.executable,
        *start,
        "--transport",
        "http",
        "--port",
        str(port),
        "--admin-token-stdin",
        "--call-timeout",
        "120",
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_ADMIN_TOKEN")}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(f"{token}\n".encode())
    proc.stdin.close()
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        with contextlib.suppress(httpx2.HTTPError):
            if httpx2.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        time.sleep(0.05)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@contextlib.asynccontextmanager
async def mcp(url: str, secret: str) -> AsyncIterator[Client]:
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"}) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            yield client


async def probe(
    http: httpx2.AsyncClient, light: Client, seconds: float, stop: anyio.Event | None = None
) -> tuple[list[float], list[float]]:
    """/healthz and a call to `light`, each in its own loop, until `seconds` pass or `stop` is set."""
    health: list[float] = []
    calls: list[float] = []
    started = time.monotonic()

    def running() -> bool:
        return not stop.is_set() if stop is not None else time.monotonic() - started < seconds

    async def health_loop() -> None:
        while running():
            t = time.perf_counter()
            (await http.get("/healthz")).raise_for_status()
            health.append(time.perf_counter() - t)
            await anyio.sleep(0.02)

    async def call_loop() -> None:
        while running():
            t = time.perf_counter()
            result = await light.call_tool("list_calendars", {})
            assert not result.is_error
            calls.append(time.perf_counter() - t)
            await anyio.sleep(0.02)

    async with anyio.create_task_group() as tg:
        tg.start_soon(health_loop)
        tg.start_soon(call_loop)
    return health, calls


async def measure(events: int, seconds: float, on_loop: bool) -> dict[str, list[float]]:
    token = secrets.token_hex(8)
    with server(free_port(), token, on_loop) as base:
        admin = httpx2.Client(base_url=f"{base}/admin", headers={"Authorization": f"Bearer {token}"}, timeout=120)
        keys = {}
        for name, seed in (("heavy", crowded(events)), ("light", {})):
            created = admin.post("/sandboxes", json={"id": name, "seed": seed})
            created.raise_for_status()
            keys[name] = created.json().get("secret", "")
        async with (
            mcp(f"{base}/s/heavy/mcp", keys["heavy"]) as heavy,
            mcp(f"{base}/s/light/mcp", keys["light"]) as light,
        ):
            async with httpx2.AsyncClient(base_url=base, timeout=120) as http:
                idle_health, idle_calls = await probe(http, light, seconds)
                heavy_times: list[float] = []
                busy: tuple[list[float], list[float]] = ([], [])
                stop = anyio.Event()

                async def run_heavy() -> None:
                    started = time.monotonic()
                    while time.monotonic() - started < seconds or len(heavy_times) < 2:
                        t = time.perf_counter()
                        result = await heavy.call_tool("find_free_slots", HEAVY_CALL)
                        assert not result.is_error, result.content[0].text
                        heavy_times.append(time.perf_counter() - t)
                    stop.set()

                async def run_probe() -> None:
                    nonlocal busy
                    await anyio.sleep(0.1)
                    busy = await probe(http, light, seconds, stop)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(run_heavy)
                    tg.start_soon(run_probe)
    return {
        "idle_health": idle_health,
        "idle_calls": idle_calls,
        "health": busy[0],
        "calls": busy[1],
        "heavy": heavy_times,
    }


async def main(events: int, seconds: float) -> None:
    shipped = await measure(events, seconds, on_loop=False)
    before = await measure(events, seconds, on_loop=True)

    def ms(samples: list[float]) -> str:
        return f"{statistics.median(samples) * 1000:.1f} ms" if samples else "-"

    print(f"calendar server, heavy sandbox of {events} events; medians over {seconds:g} s each")
    print(f"{'':38}{'idle':>10}{'heavy running':>16}{'heavy, tools on loop':>22}")
    rows = [("GET /healthz", "idle_health", "health"), ("list_calendars on another sandbox", "idle_calls", "calls")]
    for label, idle, busy in rows:
        print(f"{label:38}{ms(shipped[idle]):>10}{ms(shipped[busy]):>16}{ms(before[busy]):>22}")
    print(f"{'find_free_slots, 20 people, 92 days':38}{'':>10}{ms(shipped['heavy']):>16}{ms(before['heavy']):>22}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000, help="events in the heavy sandbox (default 3000)")
    parser.add_argument("--seconds", type=float, default=4.0, help="how long each phase runs (default 4)")
    args = parser.parse_args()
    anyio.run(main, args.events, args.seconds)
