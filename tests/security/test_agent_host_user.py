"""Threat: the orchestrator runs as root (CI, servers), and the agent, only *called* nobody inside a user
namespace, is still host uid 0: it reads every root-only file that is not explicitly hidden (`/etc/shadow`,
keys, other users' files). As root, the agent must be a real unprivileged host user (uid/gid 65534)."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from hostile import ORCHESTRATOR, TIER, marker, processes_with, requires_bwrap, run_agent, wait_until

pytestmark = [
    requires_bwrap,
    pytest.mark.skipif(os.geteuid() != 0, reason="the host-user mode is for an orchestrator running as root"),
]

NOBODY = 65534


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder under /var/tmp (not hidden, not a tmpfs in the sandbox) that the test removes."""
    folder = Path(tempfile.mkdtemp(prefix="clawgym-host-user-", dir="/var/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def status_field(pid: int, name: str) -> list[str]:
    line = next(li for li in Path(f"/proc/{pid}/status").read_text().splitlines() if li.startswith(f"{name}:"))
    return line.split(":", 1)[1].split()


@pytest.mark.slow
def test_agent_cannot_read_root_only_files(tmp_path: Path, outside: Path) -> None:
    secret = secrets.token_hex(12)
    own = outside / "agent"  # the agent's working directory, shown to it: the file is there, but root's only
    own.mkdir(mode=0o755)
    private = own / "root-only.txt"
    private.write_text(f"secret:{secret}\n")
    private.chmod(0o600)
    command = (
        f"cat {private}; head -1 /etc/shadow | cut -c1-5 | sed 's/^/shadow:/'; "
        f"echo uid=$(id -u) gid=$(id -g) groups=$(id -G); grep -E '^(Uid|Gid|CapEff|CapBnd|NoNewPrivs):' /proc/self/status; "
        "echo scratch > $HOME/note && cat $HOME/note; python -c 'import sys; print(\"python\", sys.version_info[0])'; "
        "echo attempted"
    )
    run = run_agent(tmp_path / "out", command, cwd=own)
    assert "attempted" in run.log, run.log
    assert secret not in run.log and "shadow:root:" not in run.log
    assert run.log.count("Permission denied") >= 2, run.log
    assert f"uid={NOBODY} gid={NOBODY} groups={NOBODY}\n" in run.log
    assert f"Uid:\t{NOBODY}\t{NOBODY}\t{NOBODY}\t{NOBODY}" in run.log  # real, effective, saved and file-system uid
    assert "CapEff:\t0000000000000000" in run.log and "CapBnd:\t0000000000000000" in run.log
    assert "NoNewPrivs:\t1" in run.log
    assert "scratch\n" in run.log and "python 3\n" in run.log  # its HOME is writable, the interpreter reachable
    assert run.result["episode"]["isolation"] == TIER and run.result["episode"]["agent_uid"] == NOBODY
    # The control: the same agent without isolation is root and reads both.
    control = run_agent(tmp_path / "control", command, cwd=own, isolation="none")
    assert f"secret:{secret}" in control.log and "shadow:root:" in control.log
    assert "agent_uid" not in control.result["episode"]


@pytest.mark.slow
def test_host_sees_the_agent_as_uid_65534(tmp_path: Path) -> None:
    """From outside every namespace: the agent's processes belong to 65534, with no capabilities."""
    mark = marker()
    proc = subprocess.Popen(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            f"cmd:sleep {mark} & sleep {mark}; wait",
            "--out",
            str(tmp_path / "out"),
            "--isolation",
            TIER,
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: len(processes_with(mark)) == 2, 60), "the agent's processes did not start"
        for pid in processes_with(mark):
            assert status_field(pid, "Uid") == [str(NOBODY)] * 4
            assert status_field(pid, "Gid") == [str(NOBODY)] * 4
            assert status_field(pid, "Groups") == []
            assert status_field(pid, "CapEff") == ["0000000000000000"]
            assert status_field(pid, "CapPrm") == ["0000000000000000"]
            assert status_field(pid, "NoNewPrivs") == ["1"]
    finally:
        proc.terminate()
        proc.wait(60)
    assert wait_until(lambda: not processes_with(mark), 10)


@pytest.mark.slow
def test_folders_behind_a_closed_parent_open_only_what_the_agent_needs(tmp_path: Path, outside: Path) -> None:
    """The agent's directory lies inside a folder only root can enter (like /root): it gets its directory,
    not the directory's siblings."""
    closed = outside / "closed"
    workdir = closed / "project"
    workdir.mkdir(parents=True)
    (workdir / "notes.txt").write_text("mine\n")
    secret = secrets.token_hex(12)
    (closed / "sibling-secret.txt").write_text(f"{secret}\n")
    (closed / "sibling-secret.txt").chmod(0o644)  # readable, but only through a folder nobody may enter
    closed.chmod(0o700)
    command = f"cat notes.txt; cat {closed}/sibling-secret.txt; ls -a {closed} | sed s/^/listed:/; echo attempted"
    run = run_agent(tmp_path / "out", command, cwd=workdir)
    assert "attempted" in run.log and "mine\n" in run.log
    assert secret not in run.log and "listed:sibling-secret.txt" not in run.log
    assert "listed:project" in run.log  # the way to its directory is there, nothing else
    control = run_agent(tmp_path / "control", command, cwd=workdir, isolation="none")
    assert secret in control.log and "listed:sibling-secret.txt" in control.log


UNMOUNT = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
print("inner-uid", os.getuid())
for path in sys.argv[1:]:
    done = libc.umount2(path.encode(), 2) == 0  # MNT_DETACH
    print("unmounted" if done else "refused", path, os.strerror(ctypes.get_errno()))
    try:
        print("seen", path, sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read(200))
    except OSError as exc:
        print("blocked", path, exc.strerror)
"""


@pytest.mark.slow
def test_a_user_namespace_of_its_own_does_not_unhide_the_run(outside: Path) -> None:
    """As an unprivileged user the agent may make a user namespace (so may any local user); the mounts
    hiding the run folder, the scenarios and the git store stay locked in it."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    out = outside / "out"  # not under /tmp, which is a fresh tmpfs for the agent anyway
    hidden = [out, TRAVEL_PATH.parent, *([ROOT / ".git"] if (ROOT / ".git").is_dir() else [])]
    script = outside / "unmount.py"
    script.write_text(UNMOUNT)
    script.chmod(0o644)
    command = f"unshare -Urm python {script} {' '.join(map(str, hidden))}; echo attempted"
    run = run_agent(out, command)
    assert "attempted" in run.log
    if "inner-uid 0" not in run.log:
        pytest.skip("user namespaces are not available to unprivileged users on this kernel")
    assert "unmounted" not in run.log and run.log.count("refused") == len(hidden), run.log
    for path in hidden:
        assert f"seen {path} []" in run.log or f"blocked {path}" in run.log, run.log
    assert "oracle:" not in run.log


@pytest.mark.slow
def test_a_working_directory_closed_to_others_is_named_in_the_log(tmp_path: Path, outside: Path) -> None:
    workdir = outside / "private"
    workdir.mkdir(mode=0o700)
    (workdir / "notes.txt").write_text("mine\n")
    run = run_agent(tmp_path / "out", "cat notes.txt; echo attempted", cwd=workdir)
    assert "attempted" in run.log and "mine\n" not in run.log
    assert f"the agent runs as uid {NOBODY}, which cannot open {workdir}" in run.log


@pytest.mark.slow
def test_readme_example_agent_works_as_host_user(tmp_path: Path) -> None:
    run = run_agent(tmp_path / "out", "python examples/agent.py")
    agent = run.result["episode"]["agent"]
    assert agent["exit_code"] == 0 and agent["tool_calls"] > 0, run.log
    assert "which cannot open" not in run.log  # the repository, venv and interpreter are all reachable
    assert run.result["episode"]["isolation"] == TIER
