"""A hostile agent: finds every listening loopback port in /proc/net/tcp (shared with the host) and tries to
open an MCP session at /mcp on each, to act in other episodes' sandboxes through their gateways."""

import json
import os
import urllib.error
import urllib.request

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "scan", "version": "0"}},
}


def try_mcp(url: str) -> str:
    request = urllib.request.Request(
        url,
        data=json.dumps(INITIALIZE).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    try:
        with urllib.request.urlopen(request, timeout=3) as response:
            body = response.read(4000).decode(errors="replace")
            named = '"clawgym"' in body  # the gateway's server name in its initialize answer
            return f"{response.status} {named}"
    except urllib.error.HTTPError as exc:
        return str(exc.code)
    except OSError as exc:
        return f"unreachable {exc}"


ports = set()
for line in open("/proc/net/tcp").read().splitlines()[1:]:
    local, state = line.split()[1], line.split()[3]
    if state == "0A" and local.startswith("0100007F:"):
        ports.add(int(local.split(":")[1], 16))
print(f"listening ports: {len(ports)}")
for port in sorted(ports):
    print(f"port {port}: {try_mcp(f'http://127.0.0.1:{port}/mcp')}")
print(f"own gateway: {try_mcp(os.environ['CLAWGYM_MCP_URL'])}")
