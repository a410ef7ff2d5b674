"""The docker backend and compose.yaml against a real Docker engine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import httpx2
import pytest
from helpers import ROOT, free_port, structured
from mcp import Client

from orchestrator.backends.docker import MANAGED, DockerBackend
from servers.core import SandboxSpec

pytestmark = pytest.mark.docker
TRAVEL = ROOT / "scenarios" / "travel.yaml"


def orchestrator(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env=os.environ | (env or {}),
    )  # fmt: skip


def managed(client) -> dict[str, object]:  # noqa: ANN001
    return {c.name: c for c in client.containers.list(all=True, filters={"label": f"{MANAGED}=true"})}


def test_oracle_passes_and_noop_fails(docker_client, tmp_path: Path) -> None:
    passed = orchestrator("run", str(TRAVEL), "--backend", "docker", "--agent", "oracle", "--out", str(tmp_path / "oracle"))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    result = json.loads((tmp_path / "oracle" / "results.json").read_text())
    assert result["passed"] and result["score"] == 1.0 and result["episode"]["backend"] == "docker"
    failed = orchestrator("run", str(TRAVEL), "--backend", "docker", "--agent", "noop", "--out", str(tmp_path / "noop"))
    assert failed.returncode == 1
    assert json.loads((tmp_path / "noop" / "results.json").read_text())["passed"] is False


def test_containers_are_labeled_private_and_reused(docker_client, tmp_path: Path) -> None:
    assert orchestrator("run", str(TRAVEL), "--backend", "docker", "--out", str(tmp_path / "a")).returncode == 0
    before = {name: (c.id, c.attrs["State"]["StartedAt"]) for name, c in managed(docker_client).items()}
    assert set(before) >= {"clawgym-calendar", "clawgym-mail", "clawgym-docs", "clawgym-tickets"}
    assert orchestrator("run", str(TRAVEL), "--backend", "docker", "--out", str(tmp_path / "b")).returncode == 0
    after = managed(docker_client)
    for name, (container_id, started) in before.items():
        assert (after[name].id, after[name].attrs["State"]["StartedAt"]) == (container_id, started), name
    calendar = after["clawgym-calendar"]
    assert calendar.labels[MANAGED] == "true" and calendar.labels["org.clawgym.app"] == "calendar"
    bindings = calendar.attrs["NetworkSettings"]["Ports"]["8000/tcp"]
    assert [b["HostIp"] for b in bindings] == ["127.0.0.1"]
    assert list(calendar.attrs["NetworkSettings"]["Networks"]) == ["clawgym"]
    assert calendar.attrs["Config"]["User"] == "clawgym"
    # Episodes delete their sandboxes: only 'default' is left in each server.
    assert json.loads((tmp_path / "b" / "results.json").read_text())["passed"]


def test_same_episode_same_final_state_on_local_and_docker(docker_client, tmp_path: Path) -> None:
    for backend in ("local", "docker"):
        done = orchestrator("run", str(TRAVEL), "--backend", backend, "--seed", "3", "--out", str(tmp_path / backend))
        assert done.returncode == 0, done.stderr
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    docker = json.loads((tmp_path / "docker" / "results.json").read_text())
    assert local["changes"] == docker["changes"] and len(local["changes"]) == 6
    assert [c["passed"] for c in local["checks"]] == [c["passed"] for c in docker["checks"]]


async def test_disk_state_survives_a_container_restart(docker_client) -> None:
    sandbox = f"restart-{uuid.uuid4().hex[:8]}"
    async with DockerBackend() as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        seed = {"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]}
        await endpoint.create_sandbox(sandbox, SandboxSpec(seed=seed))
        async with endpoint.connect(sandbox) as client:
            structured(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_progress"}))
        before = await endpoint.snapshot(sandbox)
        journal = await endpoint.journal(sandbox)
    container = docker_client.containers.get("clawgym-tickets")
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
    no_engine = orchestrator("run", str(TRAVEL), "--backend", "docker", "--out", str(tmp_path / "a"),
                             env={"DOCKER_HOST": f"unix://{tmp_path}/no-such.sock"})  # fmt: skip
    assert no_engine.returncode == 2
    assert "Docker engine is not reachable" in no_engine.stderr and "--backend local" in no_engine.stderr


def test_missing_image_names_the_build_command(docker_client, tmp_path: Path) -> None:
    done = orchestrator("run", str(TRAVEL), "--backend", "docker", "--out", str(tmp_path),
                        env={"CLAWGYM_IMAGE": "clawgym/no-such-image:0"})  # fmt: skip
    assert done.returncode == 2
    assert "clawgym/no-such-image:0 is missing" in done.stderr and "images/build.sh" in done.stderr


def compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return ["docker", "compose"]


def test_compose_comes_up_healthy_and_serves_the_gateway(docker_client, tmp_path: Path) -> None:
    project = f"clawgym-test-{uuid.uuid4().hex[:6]}"
    port = free_port()
    env = os.environ | {"CLAWGYM_ADMIN_TOKEN": uuid.uuid4().hex, "CLAWGYM_GATEWAY_PORT": str(port)}
    compose = [*compose_command(), "--project-name", project, "--file", str(ROOT / "compose.yaml")]
    try:
        up = subprocess.run([*compose, "up", "-d"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert up.returncode == 0, up.stderr
        containers = docker_client.containers.list(filters={"label": f"com.docker.compose.project={project}"})
        assert len(containers) == 5
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
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                calendars = structured(await client.call_tool("calendar__list_calendars", {}))
                assert calendars["calendars"][0]["owner"] == "dana@acme.test"

        anyio.run(use_gateway)
        assert httpx2.get(f"http://127.0.0.1:{port}/healthz").json()["scenario"] == "travel-berlin-offsite"
    finally:
        subprocess.run([*compose, "down", "-v", "--remove-orphans"], cwd=ROOT, env=env, capture_output=True, timeout=120)


def test_down_removes_what_clawgym_started_and_nothing_else(docker_client) -> None:
    assert orchestrator("run", str(TRAVEL), "--backend", "docker", "--agent", "noop", "--out", "/tmp/clawgym-down").returncode == 1
    bystander = docker_client.containers.create("clawgym/apps:latest", ["calendar"], name=f"bystander-{uuid.uuid4().hex[:6]}")
    try:
        done = orchestrator("down", "--json")
        assert done.returncode == 0, done.stderr
        removed = json.loads(done.stdout)
        assert {"clawgym-calendar", "clawgym-mail", "clawgym-docs", "clawgym-tickets"} <= set(removed["containers"])
        assert "clawgym" in removed["networks"] and "clawgym-calendar-data" in removed["volumes"]
        assert managed(docker_client) == {}
        bystander.reload()
        assert bystander.status == "created"
    finally:
        bystander.remove(force=True)
