"""Which Compose runs `compose.yaml`: `docker compose` (v2) when the docker client has the plugin, else
`docker-compose` (v1, Debian's 1.29), else an error naming both. Real programs on a PATH made for each case: the
docker client and docker-compose this machine has, and a docker client without the plugin (one that answers
`compose` as a client without it does)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from orchestrator.backends.base import BackendError
from orchestrator.backends.docker import compose_command

NO_PLUGIN = """#!/bin/sh
if [ "$1" = compose ]; then echo "docker: unknown command: docker compose" >&2; exit 1; fi
exit 0
"""


def _path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **programs: str | None) -> None:
    """PATH = a folder holding only `programs` (name: a real program's path, or a script's text)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, what in programs.items():
        if what is None:
            continue
        target = folder / name
        if what.startswith("#!"):
            target.write_text(what)
            target.chmod(0o755)
        else:
            target.symlink_to(what)
    monkeypatch.setenv("PATH", str(folder))


def test_only_docker_compose_v1_is_taken_where_the_docker_client_has_no_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    legacy = shutil.which("docker-compose")
    if legacy is None:
        pytest.skip("docker-compose (v1) is not installed here")
    _path(tmp_path, monkeypatch, docker=NO_PLUGIN, **{"docker-compose": legacy})
    command = compose_command()
    assert command == [str(tmp_path / "bin" / "docker-compose")]
    done = subprocess.run([*command, "version"], capture_output=True, text=True, timeout=60, env=os.environ.copy())
    assert done.returncode == 0, done.stderr


def test_the_machines_compose_answers(tmp_path: Path) -> None:
    """Whichever is installed here (the plugin first) runs: `compose.yaml`'s tests and the benchmark use it."""
    if not shutil.which("docker-compose") and not shutil.which("docker"):
        pytest.skip("no docker client here")
    try:
        command = compose_command()
    except BackendError as exc:
        pytest.skip(str(exc))
    done = subprocess.run([*command, "version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_neither_is_an_error_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path(tmp_path, monkeypatch, docker=NO_PLUGIN)
    with pytest.raises(BackendError) as caught:
        compose_command()
    assert "docker compose" in str(caught.value) and "docker-compose" in str(caught.value)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no docker client at all
    with pytest.raises(BackendError):
        compose_command()
