"""The ray backend: episodes on a Ray cluster, each Ray worker hosting the app servers in process.

Unlike the other backends, the app servers do not run beside the orchestrator: every Ray worker
process hosts them (the in-process backend) and runs whole episodes there, and
`orchestrator.cluster.episodes` ships episodes to the workers and brings their records back
(`orchestrator.cluster.envs.RayEnv` hosts environments there). This module only owns the connection to the cluster
(`orchestrator.cluster` re-exports it with the rest of ClawGym on Ray):

- `address` (`--address ADDR`): join a running cluster (`ray start --head` on one machine,
  `ray start --address=HEAD:PORT` on the others; every node needs `clawgym[ray]` installed);
- without it, a local Ray is started on 127.0.0.1 only (no dashboard, a small object store) and
  stopped when the backend closes.

Ray is an optional extra (`pip install 'clawgym[ray]'`); without it this backend refuses to start
and names the install command.

May import `orchestrator.backends.base` and `ray`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Iterable, Iterator
from typing import Any

from orchestrator.backends.base import AppEndpoint, Backend, BackendError

INSTALL = "pip install 'clawgym[ray]' (in a checkout: pip install -e '.[ray]')"
LOCAL_OBJECT_STORE_MB = 200
CPUS_PER_EPISODE_ENV = "CLAWGYM_RAY_CPUS_PER_EPISODE"


def import_ray() -> Any:
    """The `ray` module, or a `BackendError` naming the install command."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs Ray, an optional extra that is not installed: {INSTALL}") from None
    return ray


def _cpus_per_episode(value: float | None) -> float:
    if value is None:
        text = os.environ.get(CPUS_PER_EPISODE_ENV, "1")
        try:
            value = float(text)
        except ValueError:
            raise BackendError(
                f"{CPUS_PER_EPISODE_ENV}={text!r}: expected a number of CPUs above 0, e.g. 1 or 0.25"
            ) from None
    if not 0 < value <= 64:
        raise BackendError(f"{CPUS_PER_EPISODE_ENV}: expected a number of CPUs above 0 (at most 64), not {value:g}")
    return value


def _is_loopback(address: str) -> bool:
    host = address.rpartition(":")[0] if ":" in address else address
    return host.strip("[]") in ("127.0.0.1", "localhost", "::1")


def _reachable_or_fail(address: str, timeout_s: float = 5.0) -> None:
    """Fail at once when nothing answers at `address` (Ray itself retries for a minute and a half)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise BackendError(
            f"--address {address!r}: expected HOST:PORT of the Ray cluster's head (e.g. 10.0.0.5:6379), or auto"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise BackendError(
            f"--address {address}: no Ray cluster answers there ({exc.strerror or exc}); "
            "start one with `ray start --head`, or leave --address out for a local Ray"
        ) from None


@contextlib.contextmanager
def _loopback(ray: Any, wanted: bool) -> Iterator[None]:
    """Keep 127.0.0.1 as it is while Ray starts or connects.

    Ray replaces a loopback address with the machine's network address unless it is told that the
    cluster is this one machine (its `RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0` switch, read here at call time):
    a local Ray would then listen on the network and a cluster bound to 127.0.0.1 could not be reached."""
    constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
    if constants is None or not hasattr(
        constants, "ENABLE_RAY_CLUSTER"
    ):  # another Ray: the address check after start still holds
        yield
        return
    before = constants.ENABLE_RAY_CLUSTER
    if wanted:
        constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = before


class RayBackend(Backend):
    """A Ray cluster that runs whole episodes (see `orchestrator.cluster.episodes`); it hands out no endpoints here.

    `cpus_per_episode` is what each episode asks Ray for (default 1, or `CLAWGYM_RAY_CPUS_PER_EPISODE`):
    Ray runs as many episodes at once on a node as its CPUs allow; below 1 packs more I/O-bound
    episodes (model agents waiting on their API) onto each CPU, one worker process each.
    """

    name = "ray"
    runs_episodes = True
    """Episodes run on the cluster's workers, not beside this process: `run_many` runs them with the episode function
    its caller gives (`orchestrator.cluster.run_episode_on_ray`), and starts no apps here."""

    def __init__(
        self,
        address: str | None = None,
        *,
        cpus_per_episode: float | None = None,
        num_cpus: int | None = None,
        object_store_mb: int = LOCAL_OBJECT_STORE_MB,
    ) -> None:
        super().__init__()
        self.ray = import_ray()
        self.address = address.strip() if address else None
        if address is not None and not self.address:
            raise BackendError("--address: expected a Ray cluster address such as 10.0.0.5:6379, got an empty string")
        self.cpus_per_episode = _cpus_per_episode(cpus_per_episode)
        self.num_cpus = num_cpus
        self.object_store_mb = object_store_mb
        self.started_here = False
        self.connected = False
        self.owns_connection = False
        self.cache: dict[Any, Any] = {}
        """Object refs of what many episodes share (a scenario is put in the object store once), for `orchestrator.cluster`."""

    def connect(self) -> None:
        """Join the cluster at `address`, or start a local one on 127.0.0.1. Idempotent."""
        if self.connected:
            return
        ray = self.ray
        if ray.is_initialized():  # a program that set Ray up itself (e.g. a training loop): use its connection
            self.connected = True
            return
        self.owns_connection = True
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        common: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING, "include_dashboard": False}
        where = f"the Ray cluster at {self.address}" if self.address else "a local Ray on 127.0.0.1"
        if self.address and self.address != "auto":
            _reachable_or_fail(self.address)
        # A local Ray turns token authentication on by itself and says so on every start: keep that line off the console.
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        try:
            with _loopback(ray, not self.address or _is_loopback(self.address)):
                if self.address:
                    ray.init(address=self.address, **common)
                else:
                    ray.init(
                        address="local",
                        _node_ip_address="127.0.0.1",
                        num_cpus=self.num_cpus or os.cpu_count() or 1,
                        object_store_memory=self.object_store_mb * 1024 * 1024,
                        **common,
                    )
                    self.started_here = True
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError … from ray.init
            raise BackendError(
                f"--backend ray: cannot connect to {where}: {type(exc).__name__}: {str(exc).strip()}"
            ) from None
        self.connected = True
        if self.started_here and (ip := ray.util.get_node_ip_address()) != "127.0.0.1":
            self.ray.shutdown()
            self.connected = self.owns_connection = self.started_here = False
            raise BackendError(
                f"--backend ray: the local Ray came up on {ip}, not 127.0.0.1 only; refusing to run episodes on it"
            )

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        """No endpoints here: the apps run on the workers, inside each episode's task."""
        raise BackendError(
            "the ray backend runs whole episodes on its workers and has no app endpoints here: use it with "
            "`orchestrator run --backend ray`, or orchestrator.cluster.RayEnv for the environment API"
        )

    def cluster_cpus(self) -> float:
        self.connect()
        return float(self.ray.cluster_resources().get("CPU", 0))

    async def __aenter__(self) -> RayBackend:
        self.connect()
        return self

    async def close(self) -> None:
        self.cache.clear()
        if self.connected and self.owns_connection:
            with contextlib.suppress(Exception):
                self.ray.shutdown()  # stops the local Ray this backend started; only disconnects from a cluster
        self.connected = self.owns_connection = self.started_here = False
