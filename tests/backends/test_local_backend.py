"""The local backend binds each server's port itself and hands the listening socket over.

Choosing a free port and letting the server bind it later leaves a moment in
which another process (or another app of the same run) can take the port; the
orchestrator would then talk to a server that does not know its token.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

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


async def test_a_suite_starts_every_app_of_its_scenarios_before_its_first_episode(tmp_path: Path) -> None:
    """approval-wait needs tickets, changed-request mail: both servers are up, started together, before either
    scenario's first episode, and serve the whole suite."""
    from orchestrator import scenario
    from orchestrator.agents.base import OracleAgent
    from orchestrator.run.suite import ScenarioRun, SuiteOptions, run_suite

    files = [ROOT / "scenarios" / "approval-wait.yaml", ROOT / "scenarios" / "changed-request.yaml"]
    runs = [ScenarioRun(file=path, scenario=scenario.load(path)) for path in files]
    up_at_first_start: list[set[str]] = []
    async with LocalBackend() as local:

        def on_event(kind: str, run: ScenarioRun, index: int, text: str) -> None:
            if kind == "start" and not up_at_first_start:
                up_at_first_start.append(set(local.endpoints))

        record = await run_suite(runs, local, OracleAgent, SuiteOptions(out=tmp_path, parallel=2), on_event)
        pids = {app: local.apps[app].process.pid for app in local.apps}  # type: ignore[union-attr]
    assert up_at_first_start == [{"tickets", "mail"}]
    assert sorted(pids) == ["mail", "tickets"]
    assert record.summary["total"]["passes"] == 2, record.summary["total"]
