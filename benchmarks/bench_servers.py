"""App-server figures: reset, tool-call latency in memory and over HTTP, memory per sandbox.

    python benchmarks/bench_servers.py [--quick]

Prints medians measured side by side in one run. Targets: reset of a
~200-row sandbox <= 1 ms; a tool call over HTTP <= 1.2x the same call to a
minimal one-tool MCPServer; 1,000 seeded sandboxes in one process < 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from servers.calendar import APP  # noqa: E402
from servers.core import SandboxSpec, SandboxStore, build_mcp_server  # noqa: E402


def seed_200() -> dict:
    """A calendar of 200 rows: 2 calendars, 20 people, 150 events, 28 busy blocks."""
    people = [{"email": f"p{i}@acme.test", "name": f"Person {i}", "timezone": "Europe/Berlin"} for i in range(20)]
    events = [
        {
            "id": f"e{i}",
            "title": f"Meeting {i}",
            "description": "Agenda: " + "x" * 80,
            "start": f"2026-03-{2 + i % 20:02d}T{8 + i % 9:02d}:00",
            "end": f"2026-03-{2 + i % 20:02d}T{8 + i % 9:02d}:45",
            "attendees": [f"p{(i + k) % 20}@acme.test" for k in range(3)],
            "calendar_id": "primary" if i % 4 else "team",
        }
        for i in range(150)
    ]
    busy = [
        {"email": f"p{i % 20}@acme.test", "start": "2026-03-03T10:00", "end": "2026-03-03T11:00"} for i in range(28)
    ]
    calendars = [{"id": "primary", "name": "Me", "primary": True}, {"id": "team", "name": "Team", "access": "writer"}]
    return {"calendars": calendars, "people": people, "events": events, "busy": busy}


SPEC = SandboxSpec(seed=seed_200(), clock={"start": "2026-03-02T09:00:00+01:00"})


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bench_reset(n: int, data_dir: Path | None) -> tuple[int, float]:
    store = SandboxStore(APP, data_dir)
    sandbox = store.create("bench", SPEC)
    rows = sandbox.size()
    samples = []
    for _ in range(n):
        with sandbox.transaction():
            sandbox.update("events", "e1", {"title": "changed"})
            sandbox.delete("events", "e2")
        start = time.perf_counter()
        sandbox.reset()
        samples.append(time.perf_counter() - start)
    store.close()
    return rows, median_ms(samples)


async def bench_in_memory(n: int) -> float:
    store = SandboxStore(APP)
    store.create("default", SPEC)
    samples = []
    async with Client(build_mcp_server(APP, store)) as client:
        for _ in range(n):
            start = time.perf_counter()
            result = await client.call_tool("get_event", {"event_id": "e7"})
            samples.append(time.perf_counter() - start)
            assert not result.is_error
    return median_ms(samples)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx2.get(url, timeout=1)
            return
        except httpx2.HTTPError:
            time.sleep(0.05)
    raise TimeoutError(url)


async def bench_http(n: int) -> tuple[float, float]:
    app_port, base_port = free_port(), free_port()
    token = "bench"
    app = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "servers.calendar",
            "--transport",
            "http",
            "--port",
            str(app_port),
            "--admin-token-stdin",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        text=True,
    )
    assert app.stdin is not None
    app.stdin.write(f"{token}\n")
    app.stdin.close()
    base = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "minimal_server.py"), str(base_port)], cwd=ROOT)
    try:
        wait_healthy(f"http://127.0.0.1:{app_port}/healthz")
        wait_healthy(f"http://127.0.0.1:{base_port}/mcp")
        created = httpx2.post(
            f"http://127.0.0.1:{app_port}/admin/sandboxes",
            headers={"Authorization": f"Bearer {token}"},
            json={"id": "bench", **json.loads(SPEC.model_dump_json())},
            timeout=30,
        )
        created.raise_for_status()
        ours, theirs = [], []
        async with (
            create_mcp_http_client(headers={"Authorization": f"Bearer {created.json()['secret']}"}) as http,
            Client(
                streamable_http_client(f"http://127.0.0.1:{app_port}/s/bench/mcp", http_client=http), mode="legacy"
            ) as a,
            Client(f"http://127.0.0.1:{base_port}/mcp", mode="legacy") as b,
        ):
            for client, name, args in ((a, "get_event", {"event_id": "e7"}), (b, "echo", {"text": "hi"})):
                for _ in range(20):  # warm up
                    await client.call_tool(name, args)
            for _ in range(n):  # interleaved, so noise hits both alike
                start = time.perf_counter()
                assert not (await a.call_tool("get_event", {"event_id": "e7"})).is_error
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                assert not (await b.call_tool("echo", {"text": "hi"})).is_error
                theirs.append(time.perf_counter() - start)
        return median_ms(ours), median_ms(theirs)
    finally:
        for proc in (app, base):
            proc.terminate()
            proc.wait(10)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def bench_memory(count: int) -> None:
    """Run in a fresh process so the figure is only sandboxes."""
    store = SandboxStore(APP)
    store.create("warm", SPEC)
    store.delete("warm")
    before = rss_mib()
    start = time.perf_counter()
    for i in range(count):
        store.create(f"s{i}", SPEC)
    took = time.perf_counter() - start
    after = rss_mib()
    rows = store.get("s0").size()
    print(json.dumps({"count": count, "rows": rows, "before_mib": before, "after_mib": after, "seed_s": took}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and 200 sandboxes instead of 1,000")
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        bench_memory(args.memory_child)
        return
    n = 100 if args.quick else 500
    sandboxes = 200 if args.quick else 1000

    rows, reset_mem = bench_reset(n, None)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        _, reset_disk = bench_reset(max(20, n // 5), Path(tmp))
    in_memory = anyio.run(bench_in_memory, n)
    ours, baseline = anyio.run(bench_http, n)
    child = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(sandboxes)], capture_output=True, text=True, check=True
    )
    memory = json.loads(child.stdout)
    used = memory["after_mib"] - memory["before_mib"]

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    print(
        f"reset, {rows}-row sandbox, in memory     median {reset_mem:8.3f} ms   target <= 1 ms    {verdict(reset_mem <= 1)}"
    )
    print(f"reset, {rows}-row sandbox, on disk       median {reset_disk:8.3f} ms   (for reference)")
    print(f"tool call in memory (get_event)        median {in_memory:8.3f} ms")
    print(f"tool call over HTTP (get_event)        median {ours:8.3f} ms")
    print(f"minimal one-tool MCPServer over HTTP   median {baseline:8.3f} ms")
    ratio = ours / baseline
    print(f"  ratio app / minimal                         {ratio:8.2f} x    target <= 1.2 x   {verdict(ratio <= 1.2)}")
    print(
        f"{memory['count']} sandboxes of {memory['rows']} rows in one process: {used:.0f} MiB"
        f" ({used * 1024 / memory['count']:.0f} KiB each, seeded in {memory['seed_s']:.1f} s)"
        f"   target < 1 GiB   {verdict(used * 1000 / memory['count'] < 1024)}"
    )


if __name__ == "__main__":
    main()
