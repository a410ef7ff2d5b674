"""Threat: the agent connects to a unix socket of the host (the Docker daemon's gives root on the machine);
read-only mounts do not stop `connect()`."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap


@pytest.mark.slow
def test_agent_cannot_reach_a_socket_under_run(tmp_path: Path) -> None:
    folder = Path("/run") / f"clawgym-test-{os.getpid()}"
    try:
        folder.mkdir()
    except OSError as exc:
        pytest.skip(f"cannot make a socket under /run: {exc}")
    path = folder / "daemon.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen()

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"root-shell-granted\n")
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    probe = (
        'python -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(100))" '
        f"{path}; echo attempted"
    )
    try:
        with socket.socket(socket.AF_UNIX) as check:  # the socket works for whoever may reach it
            check.connect(str(path))
            assert check.recv(100) == b"root-shell-granted\n"
        run = run_agent(tmp_path / "out", probe)
        assert "attempted" in run.log and "root-shell-granted" not in run.log
        control = run_agent(tmp_path / "control", probe, isolation="none")
        assert "root-shell-granted" in control.log
    finally:
        server.close()
        path.unlink(missing_ok=True)
        folder.rmdir()
