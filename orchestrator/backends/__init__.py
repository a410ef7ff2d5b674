"""Backends: where the app servers run. `make_backend` picks one by name."""

from __future__ import annotations

from pathlib import Path

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint

BACKENDS = ("local", "inprocess", "docker", "remote")


def make_backend(name: str, log_dir: Path | None = None) -> Backend:
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
    raise ValueError(f"unknown backend {name!r}; use one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "AppEndpoint", "Backend", "BackendError", "HttpEndpoint", "make_backend"]
