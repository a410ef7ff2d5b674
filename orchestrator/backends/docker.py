"""The docker backend: one container per app, driven through the Docker Engine API.

Containers run the image built by `images/build.sh` on a private network,
publish their port on loopback only, keep their sandboxes on a named volume,
and carry the label `org.clawgym.managed=true`. They are reused across
episodes and runs as long as their image is the current one: an episode
creates and deletes sandboxes inside them, it never restarts them.
`orchestrator down` removes every container, network and volume with that
label, and nothing else.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from typing import Any

import anyio

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, wait_healthy

IMAGE = os.environ.get("CLAWGYM_IMAGE", "clawgym/apps:latest")
NETWORK = "clawgym"
MANAGED = "org.clawgym.managed"
CONTAINER_PORT = "8000/tcp"
READY_TIMEOUT_S = 60.0


def engine() -> Any:
    """A client for the Docker engine, or a `BackendError` that says how to get one."""
    import docker
    from docker.errors import DockerException

    try:
        client = docker.from_env(timeout=30)
        client.ping()
    except DockerException as exc:
        where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        raise BackendError(
            f"the Docker engine is not reachable at {where} ({exc}). Start it (for example `dockerd &`, "
            "or `sudo systemctl start docker`), or run without Docker: --backend local"
        ) from None
    return client


def managed_labels(**extra: str) -> dict[str, str]:
    return {MANAGED: "true", **extra}


class DockerBackend(Backend):
    name = "docker"

    def __init__(self, image: str = IMAGE) -> None:
        super().__init__()
        self.image_name = image
        self._client: Any = None
        self._image_id: str | None = None

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = engine()
            from docker.errors import ImageNotFound

            try:
                self._image_id = self._client.images.get(self.image_name).id
            except ImageNotFound:
                raise BackendError(
                    f"the image {self.image_name} is missing; build it with images/build.sh "
                    "(it works without a registry too)"
                ) from None
        return self._client

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        wanted = [app for app in apps if app not in self.endpoints]
        if not wanted:
            return self.endpoints
        await anyio.to_thread.run_sync(self._network)
        started = {app: await anyio.to_thread.run_sync(self._container, app) for app in wanted}
        async with anyio.create_task_group() as tg:
            for app, container in started.items():
                tg.start_soon(self._ready, app, container)
        return self.endpoints

    def _network(self) -> Any:
        from docker.errors import NotFound

        try:
            return self.client.networks.get(NETWORK)
        except NotFound:
            return self.client.networks.create(NETWORK, driver="bridge", labels=managed_labels())

    def _container(self, app: str) -> Any:
        """The app's container: the running one when its image is current, otherwise a new one."""
        from docker.errors import NotFound

        name = f"clawgym-{app}"
        try:
            container = self.client.containers.get(name)
        except NotFound:
            container = None
        if container is not None:
            current = container.labels.get("org.clawgym.image") == self._image_id
            if current and container.status == "running":
                return container
            if current and container.status in ("created", "exited"):
                container.start()
                return container
            container.remove(force=True)
        token = secrets.token_urlsafe(24)
        return self.client.containers.run(
            self.image_name,
            command=[app],
            name=name,
            detach=True,
            environment={"CLAWGYM_ADMIN_TOKEN": token, "CLAWGYM_ALLOWED_HOSTS": f"{app},{name}"},
            labels=managed_labels(**{"org.clawgym.app": app, "org.clawgym.image": self._image_id or ""}),
            network=NETWORK,
            hostname=app,
            ports={CONTAINER_PORT: ("127.0.0.1", None)},
            volumes={self._volume(app): {"bind": "/data", "mode": "rw"}},
            restart_policy={"Name": "unless-stopped"},
        )

    def _volume(self, app: str) -> str:
        from docker.errors import NotFound

        name = f"clawgym-{app}-data"
        try:
            self.client.volumes.get(name)
        except NotFound:
            self.client.volumes.create(name, labels=managed_labels(**{"org.clawgym.app": app}))
        return name

    async def _ready(self, app: str, container: Any) -> None:
        async def probe() -> str | None:
            await anyio.to_thread.run_sync(container.reload)
            if container.status == "exited":
                logs = container.logs(tail=20).decode(errors="replace")
                raise BackendError(f"the {app} container exited:\n{logs}")
            bindings = (container.attrs["NetworkSettings"]["Ports"] or {}).get(CONTAINER_PORT) or []
            return f"http://127.0.0.1:{bindings[0]['HostPort']}" if bindings else None

        url = await wait_healthy(
            probe, timeout=READY_TIMEOUT_S, interval=0.1,
            failure=lambda: f"the {app} container did not become healthy within {READY_TIMEOUT_S:g} s",
        )  # fmt: skip
        env = dict(e.split("=", 1) for e in container.attrs["Config"]["Env"])
        self.endpoints[app] = HttpEndpoint(app, url, env["CLAWGYM_ADMIN_TOKEN"])

    async def close(self) -> None:
        # Containers stay up for the next episode or run; only connections close.
        await self.close_connections()
        if self._client is not None:
            self._client.close()
            self._client = None


def down() -> dict[str, list[str]]:
    """Remove every container, network and volume ClawGym started; returns what was removed."""
    client = engine()
    removed: dict[str, list[str]] = {"containers": [], "networks": [], "volumes": []}
    selector = {"label": f"{MANAGED}=true"}
    for container in client.containers.list(all=True, filters=selector):
        container.remove(force=True)
        removed["containers"].append(container.name)
    for network in client.networks.list(filters=selector):
        network.remove()
        removed["networks"].append(network.name)
    for volume in client.volumes.list(filters=selector):
        volume.remove(force=True)
        removed["volumes"].append(volume.name)
    client.close()
    return removed
