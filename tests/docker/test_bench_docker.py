"""benchmarks/bench_docker.py stopped half way (Ctrl-C while compose is up, SIGTERM while the docker backend's
containers run) removes what it started: no compose project, container, network or volume of it is left, and the
docker backend's containers that were there before it stay. A real engine, the real benchmark process."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from helpers import ROOT

from orchestrator.backends.docker import MANAGED, container_name, project_name

pytestmark = pytest.mark.docker

BENCH = ROOT / "benchmarks" / "bench_docker.py"


def _managed(client) -> dict[str, set[str]]:  # noqa: ANN001
    selector = {"label": f"{MANAGED}=true"}
    return {
        "containers": {c["Id"] for c in client.api.containers(all=True, filters=selector)},
        "networks": {n.id for n in client.networks.list(filters=selector)},
        "volumes": {v.name for v in client.volumes.list(filters=selector)},
    }


def _bench_projects(client) -> dict[str, list[str]]:  # noqa: ANN001
    """The benchmark's compose projects' containers and volumes (its projects are named clawgym-bench-…). Read from
    the engine's list alone: a container the benchmark removes meanwhile is not inspected after it is gone."""
    containers = [
        _name(c)
        for c in client.api.containers(all=True)
        if (c.get("Labels") or {}).get("com.docker.compose.project", "").startswith("clawgym-bench-")
    ]
    volumes = [
        v.name
        for v in client.volumes.list()
        if (v.attrs.get("Labels") or {}).get("com.docker.compose.project", "").startswith("clawgym-bench-")
    ]
    return {"containers": containers, "volumes": volumes}


def _remove_bench_projects(client) -> None:  # noqa: ANN001
    """Remove the benchmark's compose projects' containers and volumes (after a failure killed it half way)."""
    for listed in client.api.containers(all=True):
        if (listed.get("Labels") or {}).get("com.docker.compose.project", "").startswith("clawgym-bench-"):
            client.api.remove_container(listed["Id"], force=True)
    for name in _bench_projects(client)["volumes"]:
        client.api.remove_volume(name, force=True)


def _name(listed: dict) -> str:
    return (listed.get("Names") or ["/"])[0].lstrip("/")


def _running(client) -> set[str]:  # noqa: ANN001
    """The names of the running containers, from the engine's list alone (see `_bench_projects`)."""
    return {_name(c) for c in client.api.containers()}


def _wait(condition, timeout: float, proc: subprocess.Popen) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"the benchmark ended before the moment to stop it: {proc.communicate()}"
        assert time.monotonic() < deadline, "the benchmark never reached the moment to stop it"
        time.sleep(0.2)


@pytest.mark.parametrize("number, phase", [(signal.SIGINT, "compose"), (signal.SIGTERM, "backend")])
def test_a_stopped_benchmark_leaves_nothing_it_started(docker_client, number: int, phase: str) -> None:  # noqa: ANN001
    before = _managed(docker_client)
    assert _bench_projects(docker_client) == {"containers": [], "volumes": []}
    proc = subprocess.Popen(
        [sys.executable, str(BENCH), "--quick"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        if phase == "compose":
            _wait(lambda: len(_bench_projects(docker_client)["containers"]) >= 4, 240, proc)
        else:  # compose is done and the docker backend's containers are up (or, if they were there before, reused)
            _wait(lambda: bool(_bench_projects(docker_client)["containers"]), 240, proc)
            _wait(lambda: not _bench_projects(docker_client)["containers"], 240, proc)
            wanted = {container_name(project_name(), app) for app in ("calendar", "mail", "docs", "tickets")}
            _wait(lambda: wanted <= _running(docker_client), 240, proc)
        proc.send_signal(number)
        _, stderr = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:  # the test failed before the signal: kill the benchmark, remove what it left
            proc.kill()
            proc.wait()
            _remove_bench_projects(docker_client)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    assert _bench_projects(docker_client) == {"containers": [], "volumes": []}
    assert _managed(docker_client) == before  # its own containers, network and volumes gone; the others kept
