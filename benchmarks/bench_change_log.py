"""The change log's cost per write: a mail send with the change-log triggers against the same send without them.

    python benchmarks/bench_change_log.py [--calls N]

Prints both medians (in-process MCP calls on a seeded mail sandbox) and their ratio. The target is a write
with the triggers within 1.5x (+0.5 ms) of one without; tests/servers/core/test_changes.py checks only what
the triggers log, since a timing ratio flakes on a loaded machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import anyio
from mcp import Client

from servers.core import SandboxSpec, SandboxStore, build_mcp_server
from servers.mail import APP as MAIL

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
SEED = {"contacts": [{"email": "priya@acme.test", "name": "Priya Shah"}]}


async def median_send_ms(calls: int, with_triggers: bool) -> float:
    """Median milliseconds of `send_message` over `calls` calls (the first tenth left out as warm-up)."""
    store = SandboxStore(MAIL)
    sandbox = store.create("default", SandboxSpec(seed=SEED, persona=PERSONA, clock=CLOCK))
    if not with_triggers:
        for (name,) in sandbox.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            sandbox.db.execute(f'DROP TRIGGER "{name}"')
    samples = []
    async with Client(build_mcp_server(MAIL, store), raise_exceptions=True) as client:
        for i in range(calls):
            started = time.perf_counter()
            await client.call_tool("send_message", {"to": ["priya@acme.test"], "subject": f"s{i}", "body": "b" * 200})
            samples.append(time.perf_counter() - started)
    store.close()
    return statistics.median(samples[calls // 10 :]) * 1000


def main() -> None:
    """Measure both medians and print them with the target."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300, help="calls per variant (default 300)")
    calls = parser.parse_args().calls
    without = anyio.run(median_send_ms, calls, False)
    with_log = anyio.run(median_send_ms, calls, True)
    ok = with_log < without * 1.5 + 0.5
    print(
        f"send_message median: {without:.3f} ms without the change log, {with_log:.3f} ms with it "
        f"({with_log / without:.2f}x; target < 1.5x + 0.5 ms: {'ok' if ok else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
