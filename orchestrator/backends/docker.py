"""The docker backend: one container per app, driven through the Docker Engine API.

Containers belong to a project, named as Docker Compose names its own: the
project is `CLAWGYM_PROJECT` when set, else `clawgym-` and the name of the
working folder (lower case, letters, digits, `-` and `_`), so runs from
different checkouts or users never share or replace each other's containers.
A project's containers are `PROJECT-APP-1` on the network `PROJECT_default`,
with their sandboxes on the volume `PROJECT_APP-data`; they run the image
built by `images/build.sh`, publish their port on loopback only, and carry
the labels `org.clawgym.managed=true` and `org.clawgym.project=PROJECT`.
Within a project they are reused across episodes and runs as long as their
image and settings are the current ones: an episode creates and deletes
sandboxes inside them, it never restarts them. `orchestrator down` removes
one project's containers, network and volumes (this folder's, or
`--project`), or with `--all-projects` every one ClawGym labelled, and
nothing else.

Each container is confined: memory, CPU and PID limits, every capability
dropped, `no-new-privileges`, a read-only root filesystem with a tmpfs at
/tmp and the data volume at /data. Its admin token is its own: written into
its data volume (0600, owned by the server's user) before it first starts,
read back from there by the next run, never in its environment, command line
or labels, so `docker inspect` does not show it.

Several runs may start the same containers at once: whoever loses a race to
create the network or a container uses the winner's.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import tarfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import anyio

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, protocol_of, wait_healthy

IMAGE = os.environ.get("CLAWGYM_IMAGE", "clawgym/apps:latest")
MANAGED = "org.clawgym.managed"
PROJECT = "org.clawgym.project"
CONTAINER_PORT = "8000/tcp"
READY_TIMEOUT_S = float(os.environ.get("CLAWGYM_DOCKER_READY_TIMEOUT", "60"))
"""Seconds a container has to become healthy (env CLAWGYM_DOCKER_READY_TIMEOUT: a busy machine needs more)."""
AMBIGUOUS_NETWORK_TRIES = 50
"""Starts tried, 0.2 s apart, while another run's duplicate of the network is still there (see `_container`)."""
SERVER_UID = 10001
"""The image's `clawgym` user, who must be able to read its token."""
TOKEN_DIR = ".clawgym"
TOKEN_PATH = f"/data/{TOKEN_DIR}/admin_token"
LIMITS: dict[str, Any] = {
    "mem_limit": os.environ.get("CLAWGYM_DOCKER_MEMORY", "512m"),
    "nano_cpus": int(float(os.environ.get("CLAWGYM_DOCKER_CPUS", "1")) * 1e9),
    "pids_limit": int(os.environ.get("CLAWGYM_DOCKER_PIDS", "128")),
}
"""Per container; env CLAWGYM_DOCKER_MEMORY, CLAWGYM_DOCKER_CPUS, CLAWGYM_DOCKER_PIDS."""
CONFINEMENT: dict[str, Any] = {
    "cap_drop": ["ALL"],
    "security_opt": ["no-new-privileges:true"],
    "read_only": True,
    "tmpfs": {"/tmp": "rw,noexec,nosuid,nodev,size=64m"},
}
SETTINGS = "3"
"""Bumped when the way containers are made changes, so older ones are replaced rather than reused."""


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


def compose_command() -> list[str]:
    """The Compose command this machine has, for `compose.yaml` (which works with both): `docker compose` (the v2
    plugin) when it answers, else `docker-compose` (v1, as Debian's 1.29); a `BackendError` naming both when
    neither is installed. The docker backend itself needs neither: it drives the Engine API."""
    import shutil
    import subprocess

    docker = shutil.which("docker")
    if docker:
        try:
            plugin = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            plugin = None
        if plugin is not None and plugin.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy:
        return [legacy]
    raise BackendError(
        "neither `docker compose` (the Compose v2 plugin) nor `docker-compose` (v1) is installed: install one "
        "(for example `apt-get install docker-compose`, or Docker's docker-compose-plugin package)"
    )


def project_name(name: str | None = None) -> str:
    """The project whose containers a run uses, as Compose names one: `name`, else `CLAWGYM_PROJECT`, else `clawgym-`
    and the working folder's name; lower case, letters, digits, `-` and `_`, starting with a letter or digit."""
    raw = name or os.environ.get("CLAWGYM_PROJECT") or f"clawgym-{Path.cwd().name}"
    cleaned = re.sub(r"[^a-z0-9_-]", "", raw.lower()).lstrip("-_")
    if not cleaned:
        raise BackendError(f"project name {raw!r}: needs a letter or digit (CLAWGYM_PROJECT)")
    return cleaned


def container_name(project: str, app: str) -> str:
    """An app's container in a project, as Compose names a service's first container."""
    return f"{project}-{app}-1"


def network_name(project: str) -> str:
    """A project's network, as Compose names its default network."""
    return f"{project}_default"


def volume_name(project: str, app: str) -> str:
    """The volume of an app's sandboxes in a project, as Compose names a project's volume."""
    return f"{project}_{app}-data"


def managed_labels(project: str, **extra: str) -> dict[str, str]:
    """The Docker labels that mark a container, network or volume as this backend's in `project` (to find and remove
    it), plus `extra`."""
    return {MANAGED: "true", PROJECT: project, **extra}


class DockerBackend(Backend):
    """Runs each app server in its own Docker container on a private network, from the ClawGym image."""

    name = "docker"

    def __init__(self, image: str = IMAGE, project: str | None = None) -> None:
        super().__init__()
        self.image_name = image
        self.project = project_name(project)
        self.network_name = network_name(self.project)
        self._client: Any = None
        self._image_id: str | None = None
        self._network_id: str | None = None

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
        """The project's network. Two runs may both create it (the engine does not stop them):
        everyone then keeps the oldest and the others are removed."""
        from docker.errors import APIError, NotFound

        name = self.network_name
        for _ in range(5):
            found = [n for n in self.client.networks.list(names=[name]) if n.name == name]
            if not found:
                try:
                    self.client.networks.create(
                        name, driver="bridge", labels=managed_labels(self.project), check_duplicate=True
                    )
                except APIError as exc:
                    if exc.status_code != 409:  # 409: another run created it first
                        raise
                continue
            oldest = min(found, key=lambda n: (n.attrs.get("Created", ""), n.id))
            for other in found:
                if other.id != oldest.id:
                    with contextlib.suppress(NotFound, APIError):
                        other.remove()
            self._network_id = oldest.id
            return oldest
        raise BackendError(f"could not create or find the Docker network {name!r}")

    def _container(self, app: str) -> Any:
        """The app's container (see `_reuse_or_create`). A run that lost the race to create the network may still
        have its duplicate for a moment, and a container cannot start while the name matches two networks: the
        start is tried again once the loser has removed its own."""
        from docker.errors import APIError

        for _ in range(AMBIGUOUS_NETWORK_TRIES):
            try:
                return self._reuse_or_create(app)
            except APIError as exc:
                if "ambiguous" not in str(exc):
                    raise
                time.sleep(0.2)
                self._network()
        raise BackendError(
            f"could not start the container {container_name(self.project, app)}: the network name "
            f"{self.network_name!r} stays ambiguous"
        )

    def _reuse_or_create(self, app: str) -> Any:
        """The app's container: the current one when it is reusable, otherwise a new one."""
        from docker.errors import APIError, NotFound

        name = container_name(self.project, app)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                container = self.client.containers.get(name)
            except NotFound:
                container = None
            if container is not None:
                labels = container.labels
                if labels.get(MANAGED) != "true" or labels.get(PROJECT) != self.project:
                    raise BackendError(
                        f"a container named {name} that is not this project's is in the way ({self.project}); remove "
                        "it, or run in another project (CLAWGYM_PROJECT)"
                    )
                current = (
                    labels.get("org.clawgym.image") == self._image_id and labels.get("org.clawgym.settings") == SETTINGS
                )
                if current and container.status in ("running", "restarting"):
                    return container
                if current and container.status in ("created", "exited") and self._token(container):
                    container.start()
                    return container
                if current and container.status == "created" and time.time() - _created(container) < READY_TIMEOUT_S:
                    # Another run is creating it right now; it writes the token and starts it.
                    time.sleep(0.2)
                    continue
                try:
                    container.remove(force=True)
                except NotFound:
                    pass
                except APIError as exc:  # being removed by another run already
                    if exc.status_code != 409:
                        raise
                    time.sleep(0.2)
                    continue
            try:
                return self._create(app, name)
            except APIError as exc:
                if exc.status_code != 409:  # 409: another run created it between our look and our create
                    raise
        raise BackendError(f"could not create or reuse the container {name}: other runs keep replacing it")

    def _create(self, app: str, name: str) -> Any:
        container = self.client.containers.create(
            self.image_name,
            command=[app, "--admin-token-file", TOKEN_PATH],
            name=name,
            detach=True,
            environment={"CLAWGYM_ALLOWED_HOSTS": f"{app},{name}"},
            labels=managed_labels(
                self.project,
                **{"org.clawgym.app": app, "org.clawgym.image": self._image_id or "", "org.clawgym.settings": SETTINGS},
            ),
            network=self._network_id or self.network_name,
            hostname=app,
            ports={CONTAINER_PORT: ("127.0.0.1", None)},
            volumes={self._volume(app): {"bind": "/data", "mode": "rw"}},
            restart_policy={"Name": "unless-stopped"},
            **LIMITS,
            **CONFINEMENT,
        )
        container.put_archive("/data", _token_archive(secrets.token_urlsafe(32)))
        container.start()
        return container

    @staticmethod
    def _token(container: Any) -> str | None:
        """The container's admin token, read from its data volume; None when it has none yet."""
        from docker.errors import NotFound

        try:
            stream, _ = container.get_archive(TOKEN_PATH)
        except NotFound:
            return None
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
            member = archive.extractfile("admin_token")
            return member.read().decode().strip() if member is not None else None

    def _volume(self, app: str) -> str:
        from docker.errors import NotFound

        name = volume_name(self.project, app)
        try:
            self.client.volumes.get(name)
        except NotFound:
            self.client.volumes.create(name, labels=managed_labels(self.project, **{"org.clawgym.app": app}))
        return name

    async def _ready(self, app: str, container: Any) -> None:
        async def probe() -> str | None:
            await anyio.to_thread.run_sync(container.reload)
            if container.status == "exited":
                logs = container.logs(tail=20).decode(errors="replace")
                raise BackendError(f"the {app} container exited:\n{logs}")
            bindings = (container.attrs["NetworkSettings"]["Ports"] or {}).get(CONTAINER_PORT) or []
            return f"http://127.0.0.1:{bindings[0]['HostPort']}" if bindings else None

        url, health = await wait_healthy(
            probe,
            timeout=READY_TIMEOUT_S,
            interval=0.1,
            failure=lambda: f"the {app} container did not become healthy within {READY_TIMEOUT_S:g} s",
        )
        token = await anyio.to_thread.run_sync(self._token, container)
        if not token:
            raise BackendError(
                f"the {app} container has no admin token in its data volume; run `orchestrator down` and retry"
            )
        endpoint = HttpEndpoint(app, url, token, protocol=protocol_of(health))
        await endpoint.remove_leftovers()
        self.endpoints[app] = endpoint

    async def close(self) -> None:
        # Containers stay up for the next episode or run; only connections close.
        await self.close_connections()
        if self._client is not None:
            self._client.close()
            self._client = None


def _created(container: Any) -> float:
    from datetime import datetime

    stamp = container.attrs.get("Created", "")[:26].rstrip("Z")
    try:
        return datetime.fromisoformat(stamp + "+00:00").timestamp()
    except ValueError:
        return 0.0


def _token_archive(token: str) -> bytes:
    """A tar of `.clawgym/admin_token`, readable by the server's user only."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        folder = tarfile.TarInfo(TOKEN_DIR)
        folder.type, folder.mode, folder.uid, folder.gid = tarfile.DIRTYPE, 0o700, SERVER_UID, SERVER_UID
        archive.addfile(folder)
        data = f"{token}\n".encode()
        file = tarfile.TarInfo(f"{TOKEN_DIR}/admin_token")
        file.size, file.mode, file.uid, file.gid = len(data), 0o600, SERVER_UID, SERVER_UID
        archive.addfile(file, io.BytesIO(data))
    return buffer.getvalue()


def down(project: str | None = None, *, all_projects: bool = False) -> dict[str, list[str]]:
    """Remove the containers, network and volumes of one project (`project_name(project)`: by default this folder's),
    or with `all_projects` of every project ClawGym started; returns what was removed.

    Containers ClawGym did not start are never removed: one attached to its
    network is disconnected from it, and a volume one of them still uses is kept.
    """
    from docker.errors import APIError, NotFound

    selector = {"label": f"{MANAGED}=true" if all_projects else f"{PROJECT}={project_name(project)}"}
    client = engine()
    removed: dict[str, list[str]] = {"containers": [], "networks": [], "volumes": []}
    for container in client.containers.list(all=True, filters=selector):
        try:
            container.remove(force=True)
        except NotFound:
            continue
        removed["containers"].append(container.name)
    for network in client.networks.list(filters=selector):
        try:
            network.reload()
            for foreign in network.containers:
                network.disconnect(foreign, force=True)
            network.remove()
        except NotFound:
            continue
        removed["networks"].append(network.name)
    for volume in client.volumes.list(filters=selector):
        try:
            volume.remove(force=True)
        except NotFound:
            continue
        except APIError as exc:
            if exc.status_code != 409:  # 409: in use by a container ClawGym did not start: keep it
                raise
            continue
        removed["volumes"].append(volume.name)
    client.close()
    return removed
