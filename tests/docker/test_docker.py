"""The docker backend and compose.yaml against a real Docker engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import httpx2
import pytest
from helpers import ROOT, TRAVEL_PATH, free_port, structured
from mcp import Client

from orchestrator.backends.docker import (
    MANAGED,
    PROJECT,
    DockerBackend,
    compose_command,
    container_name,
    down,
    network_name,
    project_name,
    volume_name,
)
from servers.core import SandboxSpec

pytestmark = pytest.mark.docker


def orchestrator(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ | (env or {}),
    )


def managed(client, project: str | None = None) -> dict[str, object]:  # noqa: ANN001
    """The containers of a project (the tests' own by default)."""
    selector = {"label": f"{PROJECT}={project_name(project)}"}
    return {c.name: c for c in client.containers.list(all=True, filters=selector)}


def names(project: str | None = None) -> set[str]:
    return {container_name(project_name(project), app) for app in ("calendar", "mail", "docs", "tickets")}


def assert_confined(container) -> None:  # noqa: ANN001
    """Limits and confinement as `docker inspect` shows them, and as the server process has them."""
    host = container.attrs["HostConfig"]
    assert host["Memory"] and host["Memory"] <= 1024**3, host["Memory"]
    assert host["NanoCpus"] and host["NanoCpus"] <= 2e9, host["NanoCpus"]
    assert host["PidsLimit"] and 0 < host["PidsLimit"] <= 512, host["PidsLimit"]
    assert host["CapDrop"] == ["ALL"] and not host.get("CapAdd")
    assert host["ReadonlyRootfs"] is True and not host.get("Privileged")
    assert any(opt.startswith("no-new-privileges") for opt in host["SecurityOpt"] or [])
    assert "/tmp" in (host.get("Tmpfs") or {})
    assert container.attrs["Config"]["User"] == "clawgym"
    status = container.exec_run(["cat", "/proc/1/status"]).output.decode()
    caps = {line.split(":")[0]: line.split()[1] for line in status.splitlines() if line.startswith("Cap")}
    assert caps["CapEff"] == caps["CapPrm"] == caps["CapBnd"] == "0000000000000000", caps
    assert "NoNewPrivs:\t1" in status
    denied = container.exec_run(["touch", "/opt/clawgym/x"])
    assert denied.exit_code != 0 and b"Read-only file system" in denied.output
    assert container.exec_run(["touch", "/tmp/scratch"]).exit_code == 0


def test_oracle_passes_and_noop_fails(docker_client, tmp_path: Path) -> None:
    passed = orchestrator(
        "run", str(TRAVEL_PATH), "--backend", "docker", "--agent", "oracle", "--out", str(tmp_path / "oracle")
    )
    assert passed.returncode == 0, passed.stdout + passed.stderr
    result = json.loads((tmp_path / "oracle" / "results.json").read_text())
    assert result["passed"] and result["score"] == 1.0 and result["episode"]["backend"] == "docker"
    failed = orchestrator(
        "run", str(TRAVEL_PATH), "--backend", "docker", "--agent", "noop", "--out", str(tmp_path / "noop")
    )
    assert failed.returncode == 1
    assert json.loads((tmp_path / "noop" / "results.json").read_text())["passed"] is False


def test_containers_are_labeled_private_and_reused(docker_client, tmp_path: Path) -> None:
    assert orchestrator("run", str(TRAVEL_PATH), "--backend", "docker", "--out", str(tmp_path / "a")).returncode == 0
    before = {name: (c.id, c.attrs["State"]["StartedAt"]) for name, c in managed(docker_client).items()}
    assert set(before) >= names()
    assert orchestrator("run", str(TRAVEL_PATH), "--backend", "docker", "--out", str(tmp_path / "b")).returncode == 0
    after = managed(docker_client)
    for name, (container_id, started) in before.items():
        assert (after[name].id, after[name].attrs["State"]["StartedAt"]) == (container_id, started), name
    calendar = after[container_name(project_name(), "calendar")]
    assert calendar.labels[MANAGED] == "true" and calendar.labels["org.clawgym.app"] == "calendar"
    assert calendar.labels[PROJECT] == project_name()
    bindings = calendar.attrs["NetworkSettings"]["Ports"]["8000/tcp"]
    assert [b["HostIp"] for b in bindings] == ["127.0.0.1"]
    assert list(calendar.attrs["NetworkSettings"]["Networks"]) == [network_name(project_name())]
    assert calendar.attrs["Config"]["User"] == "clawgym"
    # Episodes delete their sandboxes: only 'default' is left in each server.
    assert json.loads((tmp_path / "b" / "results.json").read_text())["passed"]


def test_same_episode_same_final_state_on_local_and_docker(docker_client, tmp_path: Path) -> None:
    for backend in ("local", "docker"):
        done = orchestrator(
            "run", str(TRAVEL_PATH), "--backend", backend, "--seed", "3", "--out", str(tmp_path / backend)
        )
        assert done.returncode == 0, done.stderr
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    docker = json.loads((tmp_path / "docker" / "results.json").read_text())
    assert local["changes"] == docker["changes"] and len(local["changes"]) == 6
    assert [c["passed"] for c in local["checks"]] == [c["passed"] for c in docker["checks"]]


async def test_disk_state_survives_a_container_restart(docker_client) -> None:
    sandbox = f"restart-{uuid.uuid4().hex[:8]}"
    async with DockerBackend() as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        seed = {
            "projects": [{"key": "OPS", "name": "Operations"}],
            "tickets": [{"key": "OPS-1", "title": "Rotate keys"}],
        }
        await endpoint.create_sandbox(sandbox, SandboxSpec(seed=seed))
        async with endpoint.connect(sandbox) as client:
            structured(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_progress"}))
        before = await endpoint.snapshot(sandbox)
        journal = await endpoint.journal(sandbox)
    container = docker_client.containers.get(container_name(project_name(), "tickets"))
    started = container.attrs["State"]["StartedAt"]
    await anyio.to_thread.run_sync(container.restart)
    container.reload()
    assert container.attrs["State"]["StartedAt"] != started
    async with DockerBackend() as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        assert await endpoint.snapshot(sandbox) == before
        assert await endpoint.journal(sandbox) == journal
        assert before["tickets"][0]["status"] == "in_progress"
        await endpoint.reset(sandbox)
        assert (await endpoint.snapshot(sandbox))["tickets"][0]["status"] == "todo"
        await endpoint.delete(sandbox)


def test_clear_errors_for_a_missing_engine_or_image(tmp_path: Path) -> None:
    no_engine = orchestrator(
        "run",
        str(TRAVEL_PATH),
        "--backend",
        "docker",
        "--out",
        str(tmp_path / "a"),
        env={"DOCKER_HOST": f"unix://{tmp_path}/no-such.sock"},
    )
    assert no_engine.returncode == 2
    assert "Docker engine is not reachable" in no_engine.stderr and "--backend local" in no_engine.stderr


def test_missing_image_names_the_build_command(docker_client, tmp_path: Path) -> None:
    done = orchestrator(
        "run",
        str(TRAVEL_PATH),
        "--backend",
        "docker",
        "--out",
        str(tmp_path),
        env={"CLAWGYM_IMAGE": "clawgym/no-such-image:0"},
    )
    assert done.returncode == 2
    assert "clawgym/no-such-image:0 is missing" in done.stderr and "images/build.sh" in done.stderr


def test_compose_comes_up_healthy_and_serves_the_gateway(docker_client, tmp_path: Path) -> None:
    project = f"clawgym-test-{uuid.uuid4().hex[:6]}"
    port = free_port()
    secrets_dir = tmp_path / "secrets"
    made = subprocess.run([str(ROOT / "images" / "secrets.sh"), str(secrets_dir)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert secrets_dir.stat().st_mode & 0o777 == 0o700
    tokens = {f.name: f.read_text().strip() for f in secrets_dir.glob("*_admin_token")}
    assert len(set(tokens.values())) == 4  # one per app server
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_ADMIN_TOKEN")}
    env |= {"CLAWGYM_SECRETS": str(secrets_dir), "CLAWGYM_GATEWAY_PORT": str(port)}
    compose = [*compose_command(), "--project-name", project, "--file", str(ROOT / "compose.yaml")]
    try:
        up = subprocess.run([*compose, "up", "-d"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert up.returncode == 0, up.stderr
        containers = docker_client.containers.list(filters={"label": f"com.docker.compose.project={project}"})
        assert len(containers) == 5
        for container in containers:
            inspected = json.dumps(container.attrs)
            assert not any(token in inspected for token in tokens.values()), f"{container.name} shows a token"
            assert_confined(container)
            service = container.labels["com.docker.compose.service"]
            if service != "gateway":  # an app server sees its own token and no other
                visible = container.exec_run(["ls", "/run/secrets"], user="clawgym").output.decode().split()
                assert visible == [f"{service}_admin_token"]
        deadline = time.monotonic() + 120
        while True:
            for c in containers:
                c.reload()
            health = {c.name: c.attrs["State"].get("Health", {}).get("Status") for c in containers}
            if all(status == "healthy" for status in health.values()):
                break
            assert time.monotonic() < deadline, health
            time.sleep(1)
        published = {c.name: c.attrs["NetworkSettings"]["Ports"] for c in containers}
        for name, ports in published.items():
            host_ports = [b for bindings in ports.values() if bindings for b in bindings]
            if "gateway" in name:
                assert [(b["HostIp"], b["HostPort"]) for b in host_ports] == [("127.0.0.1", str(port))]
            else:
                assert host_ports == [], f"{name} publishes {host_ports}"

        async def use_gateway() -> None:
            secret = (secrets_dir / "gateway_secret").read_text().strip()  # the MCP URL's secret (compose.yaml)
            async with Client(f"http://127.0.0.1:{port}/{secret}/mcp") as client:
                calendars = structured(await client.call_tool("calendar__list_calendars", {}))
                assert calendars["calendars"][0]["owner"] == "dana@acme.test"

        anyio.run(use_gateway)
        assert httpx2.get(f"http://127.0.0.1:{port}/healthz").status_code == 200  # open, naming no scenario
        # The README's way out for the results: stop the gateway (it verifies), copy its runs folder, view it.
        stop = subprocess.run(
            [*compose, "stop", "gateway"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert stop.returncode == 0, stop.stderr
        gateway = subprocess.run(
            [*compose, "ps", "-aq", "gateway"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        ).stdout.strip()
        copied = subprocess.run(
            ["docker", "cp", f"{gateway}:/data/runs/latest", str(tmp_path / "runs")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert copied.returncode == 0, copied.stderr
        records = list((tmp_path / "runs").glob("travel-berlin-offsite-*/results.json"))
        assert len(records) == 1, list((tmp_path / "runs").iterdir())
        verdict = json.loads(records[0].read_text())
        assert verdict["scenario"] == "travel-berlin-offsite" and verdict["journal"]["calls"] == 1
        from orchestrator.record import verify_digest

        assert verify_digest(records[0].parent) == []  # sealed with this machine's key (secrets.sh's record_key)
        from orchestrator.view.records import Library

        assert [r.scenario for r in Library.scan([tmp_path / "runs"]).episodes()] == ["travel-berlin-offsite"]
    finally:
        subprocess.run(
            [*compose, "down", "-v", "--remove-orphans"], cwd=ROOT, env=env, capture_output=True, timeout=120
        )
    assert docker_client.volumes.list(filters={"label": f"com.docker.compose.project={project}"}) == []


def test_down_removes_what_clawgym_started_and_nothing_else(docker_client) -> None:
    assert (
        orchestrator(
            "run", str(TRAVEL_PATH), "--backend", "docker", "--agent", "noop", "--out", "/tmp/clawgym-down"
        ).returncode
        == 1
    )
    bystander = docker_client.containers.create(
        "clawgym/apps:latest", ["calendar"], name=f"bystander-{uuid.uuid4().hex[:6]}"
    )
    try:
        done = orchestrator("down", "--json")
        assert done.returncode == 0, done.stderr
        removed = json.loads(done.stdout)
        project = project_name()
        assert names() <= set(removed["containers"])
        assert network_name(project) in removed["networks"] and volume_name(project, "calendar") in removed["volumes"]
        assert managed(docker_client) == {}
        bystander.reload()
        assert bystander.status == "created"
    finally:
        bystander.remove(force=True, v=True)


def test_backend_containers_are_confined_and_show_no_token(docker_client) -> None:
    async def start() -> dict[str, str]:
        async with DockerBackend() as backend:
            endpoints = await backend.start(["calendar", "tickets"])
            secret = await endpoints["tickets"].create_sandbox("confined", SandboxSpec())
            assert secret
            await endpoints["tickets"].delete("confined")
            return {app: endpoint.admin.headers["Authorization"][7:] for app, endpoint in endpoints.items()}  # type: ignore[attr-defined]  # the Docker backend's endpoints are HTTP ones

    tokens = anyio.run(start)
    assert tokens["calendar"] != tokens["tickets"]
    for app, token in tokens.items():
        container = docker_client.containers.get(container_name(project_name(), app))
        assert token not in json.dumps(container.attrs), f"docker inspect shows the {app} token"
        assert not any(e.startswith("CLAWGYM_ADMIN_TOKEN") for e in container.attrs["Config"]["Env"])
        assert token not in " ".join(container.attrs["Config"]["Cmd"] or [])
        assert_confined(container)
        listed = container.exec_run(
            ["stat", "-c", "%a %U", "/data/.clawgym/admin_token"], user="clawgym"
        ).output.decode()
        assert listed.split() == ["600", "clawgym"]


COLD_START = """
import sys, anyio
from helpers import structured
from orchestrator.backends.docker import DockerBackend
from servers.core import SandboxSpec

async def main(tag):
    async with DockerBackend() as backend:
        endpoints = await backend.start(["calendar", "mail", "docs", "tickets"])
        for app, endpoint in endpoints.items():
            await endpoint.create_sandbox(f"cold-{tag}", SandboxSpec())
            async with endpoint.connect(f"cold-{tag}") as client:
                assert (await client.list_tools()).tools
            await endpoint.delete(f"cold-{tag}")
    print("ok", tag)

anyio.run(main, sys.argv[1])
"""


def test_two_cold_starts_at_once_both_succeed(docker_client) -> None:
    down()
    assert managed(docker_client) == {}
    env = os.environ | {"PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", COLD_START, tag],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    outcomes = [run.communicate(timeout=240) for run in runs]
    for run, (stdout, stderr) in zip(runs, outcomes, strict=True):
        assert run.returncode == 0, stderr[-3000:]
        assert stdout.startswith("ok")
    assert set(managed(docker_client)) == names()
    network = network_name(project_name())
    assert len([n for n in docker_client.networks.list(names=[network]) if n.name == network]) == 1


def test_a_start_waits_out_another_runs_duplicate_of_the_network(docker_client) -> None:
    """Two runs that create the network at once both make one (the engine lets them); the loser removes its own,
    but a container started in between finds the name ambiguous. The start is tried again once one is left."""
    down()
    backend = DockerBackend()
    backend._network()  # this run's network, the oldest
    network = backend.network_name
    labels = {MANAGED: "true", PROJECT: backend.project}
    duplicate = docker_client.networks.create(network, driver="bridge", labels=labels, check_duplicate=False)
    try:
        assert len([n for n in docker_client.networks.list(names=[network]) if n.name == network]) == 2
        container = backend._container("tickets")  # without the retry: APIError "network ... is ambiguous"
        container.reload()
        assert container.status == "running"
        assert [n.id for n in docker_client.networks.list(names=[network]) if n.name == network] != [duplicate.id]
        assert len([n for n in docker_client.networks.list(names=[network]) if n.name == network]) == 1
    finally:
        backend.client.close()
        down()


def test_down_copes_with_foreign_containers_on_its_network(docker_client) -> None:
    async def start() -> None:
        async with DockerBackend() as backend:
            await backend.start(["tickets"])

    anyio.run(start)
    network = network_name(project_name())
    foreign = docker_client.containers.run(
        "clawgym/apps:latest", ["tickets"], name=f"foreign-{uuid.uuid4().hex[:6]}", network=network, detach=True
    )
    try:
        removed = down()
        assert container_name(project_name(), "tickets") in removed["containers"] and network in removed["networks"]
        foreign.reload()
        assert foreign.status == "running" and network not in foreign.attrs["NetworkSettings"]["Networks"]
        assert managed(docker_client) == {}
    finally:
        foreign.remove(force=True, v=True)


def test_the_image_carries_no_wheelhouse(docker_client) -> None:
    image = docker_client.images.get("clawgym/apps:latest")
    steps = " ".join(layer.get("CreatedBy", "") for layer in image.history())
    assert "wheel" not in steps.lower(), steps
    probe = [
        "python",
        "-c",
        "import glob; print([p for d in ('/tmp', '/opt', '/data', '/root', '/srv') for p in glob.glob(d + '/**/*.whl', recursive=True)])",
    ]
    container = docker_client.containers.create(image.id, entrypoint=probe, network_mode="none")
    try:
        container.start()
        assert container.wait(timeout=60)["StatusCode"] == 0
        assert container.logs().decode().strip() == "[]"
    finally:
        container.remove(force=True, v=True)


def test_runs_in_two_projects_keep_apart_and_down_removes_only_its_own(docker_client, tmp_path: Path) -> None:
    # Compose's convention: a project's containers are PROJECT-APP-1; two projects never share or replace them (one
    # run after the other here: eight containers starting at once outlast the health timeout on a small machine), and
    # `down` removes one project's (this folder's, or --project), another project's never.
    other = f"{project_name()}-other"
    try:
        for project in (project_name(), other):
            done = orchestrator(
                "run",
                str(TRAVEL_PATH),
                "--backend",
                "docker",
                "--out",
                str(tmp_path / project),
                env={"CLAWGYM_PROJECT": project},
            )
            assert done.returncode == 0, done.stderr[-3000:]
        assert set(managed(docker_client)) == names() and set(managed(docker_client, other)) == names(other)
        mine = {c.id for c in managed(docker_client).values()}
        assert mine.isdisjoint(c.id for c in managed(docker_client, other).values())
        done = orchestrator("down", "--project", other, "--json")
        assert done.returncode == 0, done.stderr
        assert set(json.loads(done.stdout)["containers"]) == names(other)
        assert managed(docker_client, other) == {} and {c.id for c in managed(docker_client).values()} == mine
        assert docker_client.volumes.list(filters={"label": f"{PROJECT}={other}"}) == []
        done = orchestrator("down", "--json")  # this folder's project: the tests' own (CLAWGYM_PROJECT)
        assert set(json.loads(done.stdout)["containers"]) == names() and managed(docker_client) == {}
    finally:
        down(other)
