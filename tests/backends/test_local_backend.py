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
import pytest
from helpers import ROOT

from orchestrator.backends.local import LocalBackend
from servers import registry
from servers.core import SandboxSpec


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
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
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
        pids = {app: local.apps[app].process.pid for app in local.apps}  # type: ignore[union-attr]  # started apps have a process
    assert up_at_first_start == [{"tickets", "mail"}]
    assert sorted(pids) == ["mail", "tickets"]
    assert record.summary["total"]["passes"] == 2, record.summary["total"]


def _status(pid: int, field: str) -> str:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return next(line.split(":", 1)[1].strip() for line in lines if line.startswith(f"{field}:"))


async def test_the_servers_of_one_start_are_forked_by_one_launcher_and_show_their_own_command_line() -> None:
    """One launcher imports the MCP SDK once and forks every server of a start; each server shows the command line
    it would have had on its own (`ps` tells them apart), and none outlives `close`, nor does the launcher."""
    import os

    apps = list(registry.available())
    async with LocalBackend() as local:
        await local.start(apps)
        pids = {app: local.apps[app].process.pid for app in apps}  # type: ignore[union-attr]  # started apps have a process
        launchers = {int(_status(pid, "PPid")) for pid in pids.values()}
        assert len(launchers) == 1
        (launcher,) = launchers
        assert b"servers.launcher" in Path(f"/proc/{launcher}/cmdline").read_bytes()
        for app, pid in pids.items():
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
            assert registry.server_module(app).encode() in cmdline, (app, cmdline)
            assert cmdline[cmdline.index(b"--parent-pid") + 1] == str(os.getpid()).encode()
            assert int(_status(pid, "Pid")) == pid and os.getsid(pid) == pid  # a session of its own
    for pid in [*pids.values(), launcher]:
        assert not Path(f"/proc/{pid}").exists(), pid


async def test_a_server_that_cannot_start_is_named_with_its_exit_code_and_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server the launcher forked but that exits at once (here its socket is not a listening TCP socket) is a
    BackendError naming the app, its exit code and the tail of its log; the others are stopped."""
    from orchestrator.backends import BackendError
    from orchestrator.backends import local as local_module

    def udp_socket(host: str = "127.0.0.1") -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((host, 0))
        return sock

    monkeypatch.setattr(local_module, "listening_socket", udp_socket)
    backend = LocalBackend(tmp_path / "logs")
    with pytest.raises(BackendError) as caught:
        async with backend:
            await backend.start(["mail"])
    message = str(caught.value)
    assert "the mail server exited during startup (code 1)" in message, message
    assert f"log {tmp_path / 'logs' / 'mail.log'}" in message, message


async def test_later_starts_use_the_same_launcher_and_a_prestarted_one_is_taken() -> None:
    """`orchestrator run --backend local` starts the launcher before it loads anything (`prestart`); the backend
    takes that one, and a later start of another app forks from it too."""
    from orchestrator.backends import launch

    launch.prestart()
    prestarted = launch._prestarted
    assert prestarted is not None
    async with LocalBackend() as local:
        await local.start(["mail"])
        await local.start(["tickets"])
        assert local.launcher is prestarted and launch._prestarted is None
        parents = {int(_status(local.apps[app].process.pid, "PPid")) for app in ("mail", "tickets")}  # type: ignore[union-attr]  # started apps have a process
        assert parents == {prestarted.process.pid}
    assert prestarted.process.poll() is not None  # ended with its servers


async def test_a_server_told_to_stop_while_a_call_runs_answers_it_first() -> None:
    """A server stops at once when nothing is open (the backend closes its connections first), but a stop that comes
    while a call runs waits for the call: its answer arrives whole, and only then does the server end."""
    import signal

    import anyio
    from helpers import structured

    from servers.core import FaultPlan, FaultRule, SandboxSpec

    spec = SandboxSpec(
        seed={"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]}
    )
    slow = FaultPlan(rules=[FaultRule(tool="transition_ticket", kind="latency", latency_ms=800, calls=[1])])
    async with LocalBackend() as local:
        endpoint = (await local.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("busy", spec)
        await endpoint.set_faults("busy", slow)
        server = local.apps["tickets"]
        answers = []

        async def transition() -> None:
            async with endpoint.connect("busy") as client:
                answers.append(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "done"}))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(transition)
            await anyio.sleep(0.3)  # the call waits out its latency
            server.terminate()
            await anyio.sleep(0.1)
            assert server.process is not None and server.process.poll() is None  # still serving the call
        code = await anyio.to_thread.run_sync(server.process.wait, 10)
    assert [a.is_error for a in answers] == [False], answers
    assert structured(answers[0])["status"] == "done"
    assert code == -signal.SIGTERM


async def test_the_servers_run_on_uvloop_and_parse_http_with_httptools() -> None:
    """The dependencies that make a server's requests cheap are the ones its process has loaded (uvicorn falls back
    to asyncio's own loop and h11 without a word when they are missing)."""
    async with LocalBackend() as local:
        await local.start(["mail"])
        process = local.apps["mail"].process
        assert process is not None and process.pid is not None
        loaded = Path(f"/proc/{process.pid}/maps").read_text()
    assert "/uvloop/" in loaded and "/httptools/" in loaded


async def test_servers_still_start_when_the_launcher_cannot_prepare_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Preparing the apps before the fork is only a head start: when it fails in the launcher, each forked server
    sets itself up and serves as before."""
    import os

    (tmp_path / "sitecustomize.py").write_text(
        "import servers.core.cli as cli\n"
        "def prepare(apps):\n"
        "    raise RuntimeError('no head start')\n"
        "cli.prepare = prepare\n"
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(ROOT)]))
    async with LocalBackend() as local:
        endpoint = (await local.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("plain", SandboxSpec())
        async with endpoint.connect("plain") as client:
            listed = await client.list_tools()
        assert {t.name for t in listed.tools} == set(registry.load("tickets").tools.tools)


async def test_a_server_killed_mid_episode_makes_the_episode_an_error_not_a_failed_task(tmp_path: Path) -> None:
    """The calendar server dies under an agent that keeps calling: the next call through the gateway raises (the
    server is unreachable), and the episode is written as an infrastructure error naming the app, never scored."""
    import os
    import signal

    from orchestrator.agents.base import Agent, AgentReport
    from orchestrator.run.runner import run_episode
    from orchestrator.scenario import load

    scenario = load(ROOT / "scenarios" / "travel.yaml")

    class KillsTheServer(Agent):
        name = "kills-the-server"

        def __init__(self, local: LocalBackend) -> None:
            self.local = local

        async def run(self, episode) -> AgentReport:  # noqa: ANN001
            async with episode.connect(trusted=True) as client:
                assert not (await client.call_tool("calendar__list_events", {})).is_error
                os.kill(self.local.apps["calendar"].process.pid, signal.SIGKILL)
                self.local.apps["calendar"].process.wait()
                await client.call_tool("calendar__list_events", {})
            return AgentReport(agent=self.name)

    async with LocalBackend() as local:
        result = await run_episode(scenario, local, KillsTheServer(local), folder=tmp_path / "ep", rng_seed=1)
    assert result.status == "error", (result.status, result.error)
    assert "calendar" in (result.error or "") and result.score == 0.0 and not result.passed
    assert (tmp_path / "ep" / "results.json").exists()
