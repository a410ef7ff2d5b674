"""The local backend binds each server's port itself and hands the listening socket over.

Choosing a free port and letting the server bind it later leaves a moment in
which another process (or another app of the same run) can take the port; the
orchestrator would then talk to a server that does not know its token.
"""

from __future__ import annotations

import socket
import subprocess
import sys

import httpx2
from helpers import ROOT

from orchestrator.backends.local import LocalBackend
from servers import registry


async def test_every_app_answers_on_its_own_port_with_its_own_token() -> None:
    apps = list(registry.available())
    async with LocalBackend() as local:
        await local.start(apps)
        ports = {app: local.apps[app].port for app in apps}
        async with httpx2.AsyncClient(timeout=10) as http:
            for app in apps:
                url = f"http://127.0.0.1:{ports[app]}"
                assert (await http.get(f"{url}/healthz")).json()["app"] == app
                token = {"Authorization": f"Bearer {local.apps[app].token}"}
                assert (await http.get(f"{url}/admin/sandboxes", headers=token)).status_code == 200, app
    assert len(set(ports.values())) == len(apps)
    for port in ports.values():  # the orchestrator kept no copy of a socket: once the servers stop, nothing listens
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0


def test_a_listen_fd_that_is_no_socket_is_a_one_line_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "servers.mail", "--transport", "http", "--listen-fd", "0"],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "--listen-fd 0" in done.stderr and "Traceback" not in done.stderr, done.stderr
