"""Docker figures, side by side in one run:

- compose up to all services healthy;
- one episode's overhead (seed four sandboxes, open the gateway, verify,
  delete) on warm local processes vs warm containers;
- resetting a sandbox inside a running container vs restarting the container.

    python benchmarks/bench_docker.py [--quick]

Needs the Docker engine, `docker compose` (v2) or docker-compose (1.29) and
the clawgym/apps image (images/build.sh).

Whatever way it ends (done, failed, Ctrl-C, SIGTERM), it removes what it
started: its compose projects (`down -v`) and the docker backend's containers,
network and volumes it created; those that were there before it stay.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import anyio
import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.backends.docker import (  # noqa: E402
    MANAGED,
    DockerBackend,
    compose_command,
    container_name,
    engine,
    project_name,
)
from orchestrator.backends.local import LocalBackend  # noqa: E402
from orchestrator.episode.episode import Episode  # noqa: E402
from servers.core import SandboxSpec  # noqa: E402

TRAVEL = scenarios.load(ROOT / "scenarios" / "travel.yaml")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


HEALTHY_TIMEOUT_S = 180.0


def compose_up(runs: int) -> list[float]:
    compose = compose_command()
    client = engine()
    samples = []
    secrets = Path(tempfile.mkdtemp(prefix="clawgym-bench-secrets-"))
    try:
        subprocess.run([str(ROOT / "images" / "secrets.sh"), str(secrets)], check=True, capture_output=True)
        for _ in range(runs):
            project = f"clawgym-bench-{uuid.uuid4().hex[:6]}"
            env = os.environ | {"CLAWGYM_SECRETS": str(secrets), "CLAWGYM_GATEWAY_PORT": "0"}
            args = [*compose, "--project-name", project, "--file", str(ROOT / "compose.yaml")]
            started = time.perf_counter()
            try:
                subprocess.run([*args, "up", "-d"], env=env, check=True, capture_output=True, cwd=ROOT)
                while True:
                    containers = client.containers.list(filters={"label": f"com.docker.compose.project={project}"})
                    if len(containers) == 5 and all(
                        c.attrs["State"].get("Health", {}).get("Status") == "healthy" for c in containers
                    ):
                        break
                    if time.perf_counter() - started > HEALTHY_TIMEOUT_S:
                        raise RuntimeError(f"compose project {project}: not healthy in {HEALTHY_TIMEOUT_S:g} s")
                    time.sleep(0.1)
                samples.append(time.perf_counter() - started)
            finally:
                with _shielded():  # a second Ctrl-C must not leave the project running
                    _down(client, args, env, project)
    finally:
        shutil.rmtree(secrets, ignore_errors=True)
    return samples


def _down(client: Any, args: list[str], env: dict[str, str], project: str) -> None:
    """`down -v` until nothing of the project is left: a `compose up` stopped by Ctrl-C may still have a container
    being created by the engine when the first `down` runs."""
    label = {"label": f"com.docker.compose.project={project}"}
    for _ in range(20):
        subprocess.run([*args, "down", "-v", "--remove-orphans"], env=env, capture_output=True, cwd=ROOT)
        if not client.containers.list(all=True, filters=label) and not client.volumes.list(filters=label):
            return
        time.sleep(0.5)


async def episode_overhead(episodes: int) -> tuple[list[float], list[float]]:
    local_samples: list[float] = []
    docker_samples: list[float] = []
    async with LocalBackend() as local, DockerBackend() as docker:
        endpoints = {"local": await local.start(TRAVEL.apps), "docker": await docker.start(TRAVEL.apps)}
        for _ in range(episodes):  # interleaved, so noise hits both alike
            for name, samples in (("local", local_samples), ("docker", docker_samples)):
                started = time.perf_counter()
                async with Episode(TRAVEL, endpoints[name]) as episode:
                    await episode.verify()
                samples.append(time.perf_counter() - started)
    return local_samples, docker_samples


async def reset_vs_restart(resets: int, restarts: int) -> tuple[list[float], list[float]]:
    sandbox = f"bench-{uuid.uuid4().hex[:6]}"
    async with DockerBackend() as backend:
        endpoint = (await backend.start(["calendar"]))["calendar"]
        await endpoint.create_sandbox(sandbox, TRAVEL.sandbox_spec("calendar"))
        reset_samples = []
        for _ in range(resets):
            started = time.perf_counter()
            await endpoint.reset(sandbox)
            reset_samples.append(time.perf_counter() - started)
        await endpoint.delete(sandbox)
        await endpoint.create_sandbox(sandbox, SandboxSpec())
    calendar = container_name(project_name(), "calendar")
    container = engine().containers.get(calendar)
    restart_samples = []
    for _ in range(restarts):
        started = time.perf_counter()
        container.restart(timeout=10)
        container.reload()
        port = container.attrs["NetworkSettings"]["Ports"]["8000/tcp"][0]["HostPort"]
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.02)
            if time.perf_counter() - started > HEALTHY_TIMEOUT_S:
                raise RuntimeError(f"{calendar}: not healthy {HEALTHY_TIMEOUT_S:g} s after a restart")
        restart_samples.append(time.perf_counter() - started)
    async with DockerBackend() as backend:
        await (await backend.start(["calendar"]))["calendar"].delete(sandbox)
    return reset_samples, restart_samples


@contextlib.contextmanager
def _shielded():
    """SIGINT and SIGTERM wait while the cleanup inside runs, then take effect."""
    caught: list[int] = []
    handlers = {
        sig: signal.signal(sig, lambda number, _: caught.append(number)) for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        if caught:
            raise KeyboardInterrupt


def managed() -> dict[str, set[str]]:
    """The ids of the docker backend's containers, networks and volumes that exist now (org.clawgym.managed)."""
    client = engine()
    selector = {"label": f"{MANAGED}=true"}
    found = {
        "containers": {c.id for c in client.containers.list(all=True, filters=selector)},
        "networks": {n.id for n in client.networks.list(filters=selector)},
        "volumes": {v.name for v in client.volumes.list(filters=selector)},
    }
    client.close()
    return found


def remove_new(before: dict[str, set[str]]) -> list[str]:
    """Remove the docker backend's containers, networks and volumes not in `before` (what this run created)."""
    from docker.errors import APIError, NotFound

    client = engine()
    selector = {"label": f"{MANAGED}=true"}
    removed = []
    for container in client.containers.list(all=True, filters=selector):
        if container.id not in before["containers"]:
            with contextlib.suppress(NotFound, APIError):
                container.remove(force=True)
                removed.append(container.name)
    for network in client.networks.list(filters=selector):
        if network.id not in before["networks"]:
            with contextlib.suppress(NotFound, APIError):
                network.remove()
                removed.append(network.name)
    for volume in client.volumes.list(filters=selector):
        if volume.name not in before["volumes"]:
            with contextlib.suppress(NotFound, APIError):
                volume.remove(force=True)
                removed.append(volume.name)
    client.close()
    return removed


STOPPED: list[int] = []
"""The signals that asked the benchmark to stop: one an event loop swallowed (asyncio turns Ctrl-C into a task's
cancellation, which a task may absorb) still stops it at the next phase."""


def _terminate(number: int, _: object) -> None:
    STOPPED.append(number)
    raise KeyboardInterrupt  # SIGTERM cleans up as Ctrl-C does


def _phase(run: Any, *args: Any) -> Any:
    """Run one phase, then stop if a signal came meanwhile (raised or not)."""
    result = run(*args)
    if STOPPED:
        raise KeyboardInterrupt
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    ups, episodes, resets, restarts = (1, 5, 30, 2) if args.quick else (3, 20, 100, 5)

    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, _terminate)  # ours, so an event loop does not take Ctrl-C over
    before = managed()
    interrupted = False
    try:
        up = _phase(compose_up, ups)
        local, docker = _phase(anyio.run, episode_overhead, episodes)
        reset, restart = _phase(anyio.run, reset_vs_restart, resets, restarts)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: removing what the benchmark started", file=sys.stderr)
    finally:
        with _shielded():
            removed = remove_new(before)
        if removed:
            print(f"removed {len(removed)} container(s), network(s) and volume(s) it started", file=sys.stderr)
    if interrupted or STOPPED:
        # Everything it started is removed. A worker thread may still be blocked in a Docker call that this made
        # moot (a health wait on a container now gone): exit without waiting for it.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)

    print(f"compose up to all 5 services healthy   median {median_ms(up) / 1000:8.2f} s    ({len(up)} runs)")
    print(f"episode overhead, local processes      median {median_ms(local):8.1f} ms   ({len(local)} episodes)")
    print(f"episode overhead, docker containers    median {median_ms(docker):8.1f} ms")
    print(f"  ratio docker / local                        {median_ms(docker) / median_ms(local):8.2f} x")
    print(f"reset a sandbox inside the container   median {median_ms(reset):8.2f} ms   ({len(reset)} resets)")
    print(f"restart the container to healthy       median {median_ms(restart):8.1f} ms   ({len(restart)} restarts)")
    print(f"  ratio restart / reset                       {median_ms(restart) / median_ms(reset):8.0f} x")


if __name__ == "__main__":
    main()
