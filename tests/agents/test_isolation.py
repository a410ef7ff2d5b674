"""`orchestrator.agents.isolation`'s unshare tier as an unprivileged user (the orchestrator not root): a user
namespace of its own, in which a folder outside the view does not exist, the view is read-only, the command is the PID
namespace's init, and no capability is left to undo any of it. Run as root, the test drops to uid 65534 first."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.agents.isolation import NOBODY, View, unshare_command

DROP = ["setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups"] if os.geteuid() == 0 else []


def userns_allowed() -> bool:
    """Whether the (dropped) user may make a user namespace here."""
    try:
        probe = subprocess.run([*DROP, "unshare", "--user", "--map-root-user", "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    shutil.which("unshare") is None or not userns_allowed(), reason="no unprivileged user namespaces here"
)


@pytest.fixture
def folders() -> Iterator[dict[str, Path]]:
    """A working directory, a scratch folder of the (dropped) user's and a folder to hide, none under /tmp."""
    root = Path(tempfile.mkdtemp(prefix="clawgym-userns-", dir="/var/tmp"))
    root.chmod(0o755)
    made = {name: root / name for name in ("cwd", "scratch", "hidden", "root")}
    for folder in made.values():
        folder.mkdir()
    (made["hidden"] / "answer.txt").write_text("THE-ANSWER\n")
    (made["cwd"] / "agent.py").write_text("print('agent code')\n")
    if DROP:
        os.chown(made["scratch"], NOBODY, NOBODY)
        os.chown(made["root"], NOBODY, NOBODY)
    try:
        yield made
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_unshare_without_root_confines_the_command(folders: dict[str, Path]) -> None:
    cwd, scratch, hidden = folders["cwd"], folders["scratch"], folders["hidden"]
    command = (
        f"echo pid=$$; cat {hidden}/answer.txt; cat agent.py; touch {cwd}/planted; echo note > {scratch}/note && "
        f"cat {scratch}/note; ls /tmp | wc -l; unshare --user --map-root-user --mount umount {hidden} || echo nested-refused; "
        f"mount -t tmpfs none {cwd} || echo mount-refused; echo done"
    )
    view = View(cwd=cwd, scratch=scratch, read_only=(cwd,))  # the hidden folder is simply not in it
    argv = unshare_command(command, view=view, root=folders["root"], host_user=False)
    done = subprocess.run([*DROP, *argv], capture_output=True, text=True, timeout=60, env={"PATH": os.defpath})
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "done" in out, out
    assert "pid=1" in out and "agent code" in out and "note" in out
    assert "THE-ANSWER" not in out and not (cwd / "planted").exists()
    assert "nested-refused" in out and "mount-refused" in out
    assert "\n0\n" in out  # a /tmp of its own, empty


def test_the_probes_work_when_path_names_only_a_folder_the_sandbox_does_not_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CI takes bwrap off PATH with a link farm of the system's programs in the venv: PATH then names no system folder,
    and the sandbox (an allow-list) does not show the farm to a probe. `auto` must still find unshare."""
    from orchestrator.agents.isolation import bwrap_problem, unshare_problem

    farm = Path(tempfile.mkdtemp(prefix="clawgym-farm-", dir="/var/tmp"))
    try:
        for name in {p.name for p in [*Path("/usr/bin").iterdir(), *Path("/bin").iterdir()]} - {"bwrap"}:
            (farm / name).symlink_to(Path("/usr/bin", name) if Path("/usr/bin", name).exists() else Path("/bin", name))
        monkeypatch.setenv("PATH", f"{farm}:/usr/local/sbin:/usr/sbin:/sbin")
        assert unshare_problem.__wrapped__() is None
        assert "bwrap is not installed" in (bwrap_problem.__wrapped__() or "")
    finally:
        shutil.rmtree(farm, ignore_errors=True)
