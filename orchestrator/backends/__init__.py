"""Backends: where the app servers run. `make_backend` picks one by name.

May import: `servers.core` and `servers.registry` (the apps through the registry only); nothing else of the
orchestrator.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint

BACKENDS = ("local", "inprocess", "docker", "remote", "ray")


def make_backend(name: str, log_dir: Path | None = None, *, address: str | None = None) -> Backend:
    """`address` is a Ray cluster's (`ray` only; without it a local Ray is started on 127.0.0.1)."""
    if address is not None and name != "ray":
        raise ValueError(f"--address is the Ray cluster's address: it goes with --backend ray, not --backend {name}")
    if name == "local":
        from orchestrator.backends.local import LocalBackend

        return LocalBackend(log_dir)
    if name == "inprocess":
        from orchestrator.backends.inprocess import InProcessBackend

        return InProcessBackend()
    if name == "docker":
        from orchestrator.backends.docker import DockerBackend

        return DockerBackend()
    if name == "remote":
        from orchestrator.backends.remote import RemoteBackend

        return RemoteBackend()
    if name == "ray":
        from orchestrator.backends.ray import RayBackend

        return RayBackend(address)
    raise ValueError(f"unknown backend {name!r}; use one of {', '.join(BACKENDS)}")


def __getattr__(name: str) -> Any:
    """`Backend`, `BackendError` and the endpoints, imported from `base` on first use: importing this package (or
    `backends.launch`, which `orchestrator run` starts before anything else) costs no MCP SDK import."""
    if name in ("AppEndpoint", "Backend", "BackendError", "HttpEndpoint"):
        from orchestrator.backends import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BACKENDS", "AppEndpoint", "Backend", "BackendError", "HttpEndpoint", "make_backend"]
