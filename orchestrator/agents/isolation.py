"""The tiers of a `cmd:` agent's isolation and the command lines that make them.

- `bwrap` (Debian's `bubblewrap`): `bwrap_command`, its own PID, IPC and UTS namespaces and a read-only view of
  the file system with what it must not see hidden.
- `unshare` (util-linux, on every Debian and Ubuntu machine): `unshare_command`, the same without bwrap. util-linux
  `unshare` makes a PID, mount, IPC and UTS namespace (and, when the orchestrator is not root, an unprivileged user
  namespace in which the caller is root); a shell script inside it makes every mount read-only, mounts a fresh `/tmp`,
  `/dev/shm` and `/proc`, covers what is hidden with empty tmpfs folders (files with `/dev/null`), binds back the working
  directory, the interpreter and the scratch folder (from file descriptors opened before anything was covered), and
  `exec`s the command as the namespace's init through `setpriv`: host uid/gid 65534, no groups, no capabilities,
  `no_new_privs` when root; root of the user namespace with no capabilities otherwise. When that init exits, the
  kernel kills everything left in its PID namespace (`setsid` and double-forked children included).
- `none`: a plain process group under `reaper` (a child subreaper that kills every descendant the agent leaves).

`resolve_isolation` picks the tier (`auto`: bwrap, else unshare, else none) from probes that run a trivial sandbox.

May import nothing of the project (the standard library only).
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

Isolation = Literal["bwrap", "unshare", "none"]
ISOLATION_CHOICES = ("auto", "bwrap", "unshare", "none")
NOBODY = 65534
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
NONE_WARNING = "the agent runs WITHOUT isolation ({why}): it can read the scenario and tamper with the run; its verdict is not to be trusted"
"""The console's one-line warning for `none` (what results.json's `episode.untrusted` says too)."""
UNTRUSTED = "isolation none: the agent could read the scenario's checks and rewrite this record"


class IsolationError(RuntimeError):
    """The requested isolation cannot be had on this machine."""


# -- bwrap ------------------------------------------------------------------------------------------

# What both modes share: a read-only view, fresh /proc, /dev and /tmp, its own PID, IPC and UTS namespaces.
SHARED_BWRAP = [
    "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--share-net",
    "--die-with-parent", "--new-session", "--clearenv",
]  # fmt: skip
# Not root: a user namespace in which the caller's uid shows as `nobody` (the agent keeps the caller's host uid).
USERNS_BWRAP = ["--unshare-user", "--disable-userns", "--uid", str(NOBODY), "--gid", str(NOBODY)]
BASE_BWRAP = [*SHARED_BWRAP, *USERNS_BWRAP]
# Root: bwrap mounts as root (no user namespace, which would map the agent back to host uid 0), then
# setpriv turns the command into host uid/gid 65534 with no groups and no capabilities.
SETPRIV = [
    "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups",
    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs",
]  # fmt: skip
# Not root, under unshare: the agent stays root of its user namespace, without any capability.
SETPRIV_USERNS = ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]


def host_user_mode() -> bool:
    """Whether the agent becomes host uid 65534 (the orchestrator runs as root), rather than a user namespace's user."""
    return os.geteuid() == 0


def base_bwrap(host_user: bool) -> list[str]:
    """bwrap's options before the folders: without a user namespace when the agent becomes host uid 65534."""
    return list(SHARED_BWRAP) if host_user else list(BASE_BWRAP)


def setpriv_prefix() -> list[str]:
    """The `setpriv` command that drops the agent to host uid/gid 65534 without groups or capabilities (as root)."""
    return [_system_tool("setpriv"), *SETPRIV]


def _system_tool(name: str) -> str:
    """A tool's real path (not a link in a folder the sandbox may hide), else its bare name."""
    found = shutil.which(name)
    return os.path.realpath(found) if found else name


def _probe(argv: list[str], what: str) -> str | None:
    try:
        probe = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{what} did not run: {exc}"
    if probe.returncode != 0:
        return f"{what} cannot create a sandbox here (user namespaces disabled?): {probe.stderr.strip() or probe.returncode}"
    return None


@functools.cache
def bwrap_problem() -> str | None:
    """Why bwrap cannot isolate an agent here, or None when it can (probed once per process)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    host_user = host_user_mode()
    if host_user and shutil.which("setpriv") is None:
        return "setpriv is not installed (Debian/Ubuntu: apt-get install util-linux); as root it makes the agent an unprivileged user"
    prefix = setpriv_prefix() if host_user else []
    return _probe([bwrap, *base_bwrap(host_user), *prefix, "/bin/sh", "-c", f'test "$(id -u)" = {NOBODY}'], "bwrap")


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _traversable(folder: Path) -> bool:
    """Whether another user (the agent's uid, in no group of the owner's) can pass through `folder`."""
    try:
        return bool(os.stat(folder).st_mode & stat.S_IXOTH)
    except OSError:
        return True  # missing: nothing to open up


def blocked_folders(needed: Iterable[Path]) -> tuple[list[Path], dict[Path, Path]]:
    """(covers, needed folder -> its cover): the first ancestor of each needed folder that others cannot enter, to be
    covered by an empty tmpfs (0755) with the needed folder bound back; covers inside other covers are left out."""
    blocked: dict[Path, Path] = {}
    for path in {Path(p) for p in needed}:
        for folder in reversed(path.parents):
            if folder != path and not _traversable(folder):
                blocked[path] = folder
                break
    covers = sorted({c for c in blocked.values() if not any(o in c.parents for o in blocked.values())})
    return covers, blocked


def reopen(needed: Iterable[Path]) -> list[str]:
    """bwrap arguments giving the agent's uid a way to `needed` folders behind folders only their owner can enter.

    The first such ancestor is covered by an empty tmpfs (mode 0755), the folders on the way are created
    there (0755), and the needed folder is bound back read-only: its siblings stay out of sight."""
    covers, blocked = blocked_folders(needed)
    args: list[str] = []
    for cover in covers:
        args += ["--perms", "0755", "--tmpfs", str(cover)]
    made: set[Path] = set(covers)
    for path in sorted(blocked, key=lambda p: len(p.parts)):
        if any(_within(path, other) for other in blocked if other != path):
            continue  # inside another folder bound back
        for folder in reversed(path.parents):
            if any(cover in folder.parents for cover in covers) and folder not in made:
                args += ["--perms", "0755", "--dir", str(folder)]
                made.add(folder)
        args += ["--ro-bind", str(path), str(path)]
    return args


def bwrap_command(
    command: str,
    *,
    cwd: Path,
    scratch: Path,
    env: dict[str, str],
    hide_dirs: Iterable[Path],
    hide_files: Iterable[Path],
    info_fd: int | None = None,
    host_user: bool = False,
    needed: Iterable[Path] = (),
) -> list[str]:
    """The bwrap command line running `command` (see `orchestrator.agents.command` for what it isolates).

    `host_user`: bwrap runs as root and the command as host uid 65534 (`setpriv`); `needed` are the
    folders it must reach (the interpreter's), opened up when an ancestor shuts other users out."""
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, *base_bwrap(host_user)]
    if host_user:
        args += reopen([*needed, cwd, scratch])
    args += ["--ro-bind", str(cwd), str(cwd)]
    for folder in sorted(set(hide_dirs)):
        if folder.is_dir():
            args += ["--tmpfs", str(folder)]
    for file in sorted(set(hide_files)):
        if file.exists() and not file.is_dir():
            args += ["--ro-bind", "/dev/null", str(file)]
    args += ["--bind", str(scratch), str(scratch), "--chdir", str(cwd)]
    for name, value in env.items():
        args += ["--setenv", name, value]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    return [*args, *(setpriv_prefix() if host_user else []), "/bin/sh", "-c", command]


# -- unshare ----------------------------------------------------------------------------------------

# Mounts left as they are when the rest is made read-only: the fresh /proc and the device nodes.
KEEP_WRITABLE = ("/proc", "/dev", "/dev/pts", "/dev/mqueue", "/dev/shm")
FIRST_FD = 3
"""The first file descriptor the script opens on a folder to bind back (`sh` redirects single digits only)."""


def unshare_prefix(host_user: bool) -> list[str]:
    """`setpriv --pdeathsig KILL unshare …`: the namespaces (a user namespace when not root), ending with the
    orchestrator; the child of `unshare` is the PID namespace's init, which the kernel kills when `unshare` dies."""
    setpriv, unshare = shutil.which("setpriv") or "setpriv", shutil.which("unshare") or "unshare"
    user = [] if host_user else ["--user", "--map-root-user"]
    return [setpriv, "--pdeathsig", "KILL", unshare, *user, "--pid", "--fork", "--kill-child", "--mount",
            "--propagation", "private", "--mount-proc", "--ipc", "--uts"]  # fmt: skip


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))


def _bind_back(lines: list[str], fd: int, target: Path, writable: bool) -> None:
    lines += [
        f"mkdir -p {_q(target)}",
        f"mount --no-canonicalize --bind /proc/self/fd/{fd} {_q(target)}",
        f"mount -o remount,bind,{'rw' if writable else 'ro'} {_q(target)}",
    ]


def unshare_script(
    command: str,
    *,
    cwd: Path,
    scratch: Path,
    hide_dirs: Iterable[Path],
    hide_files: Iterable[Path],
    host_user: bool,
    needed: Iterable[Path] = (),
) -> str:
    """The shell script that sets up the mount namespace (as its root) and `exec`s `command` through `setpriv`."""
    needed = list(needed)
    covers, blocked = blocked_folders([*needed, cwd, scratch]) if host_user else ([], {})
    under_tmp = {Path(p) for p in needed if _within(Path(p), Path("/tmp"))}  # the fresh /tmp would hide them
    wanted = {*blocked, *under_tmp}
    back = sorted(p for p in wanted if not any(_within(p, o) for o in wanted if o != p) and p not in (cwd, scratch))
    keep = [*back, cwd, scratch]
    fds = {path: FIRST_FD + i for i, path in enumerate(keep)}
    if max(fds.values()) > 9:
        raise IsolationError(f"--isolation unshare: too many folders to bind back ({', '.join(map(str, keep))})")
    # The setup's own tools come from the system's folders: the caller's PATH may point into /tmp, which the fresh
    # /tmp below hides; the agent gets the caller's PATH back.
    lines = [
        "set -e",
        'AGENT_PATH="$PATH"',
        f"PATH={SYSTEM_PATH}",
        *(f"exec {fd}<{_q(path)}" for path, fd in fds.items()),
    ]
    skip = " | ".join(KEEP_WRITABLE)
    lines.append(
        "awk '{print $5}' /proc/self/mountinfo | sort -u | while read -r m; do "
        f'm=$(printf "$m"); case "$m" in {skip}) continue;; esac; '
        'mount -o remount,bind,ro "$m" 2>/dev/null || true; done'
    )
    lines.append("mount -t tmpfs -o mode=1777,size=1g tmpfs /tmp")
    lines.append("if [ -d /dev/shm ]; then mount -t tmpfs -o mode=1777,size=64m tmpfs /dev/shm; fi")  # not the host's
    lines.append("if [ -d /dev/mqueue ]; then mount -t mqueue mqueue /dev/mqueue 2>/dev/null || true; fi")  # its IPC's
    for cover in covers:
        lines.append(f"if [ -d {_q(cover)} ]; then mount -t tmpfs -o mode=0755,size=1m tmpfs {_q(cover)}; fi")
    for path in back:
        _bind_back(lines, fds[path], path, writable=False)
    if cwd != Path("/"):
        _bind_back(lines, fds[cwd], cwd, writable=False)
    for folder in sorted(set(hide_dirs)):
        if folder.is_dir() and not _within(cwd, folder):
            lines.append(f"if [ -d {_q(folder)} ]; then mount -t tmpfs -o mode=0755,size=1m tmpfs {_q(folder)}; fi")
    for file in sorted(set(hide_files)):
        if file.exists() and not file.is_dir():
            lines.append(f"if [ -e {_q(file)} ]; then mount --bind /dev/null {_q(file)}; fi")
    _bind_back(lines, fds[scratch], scratch, writable=True)
    lines += [f"exec {' '.join(f'{fd}<&-' for fd in fds.values())}", f"cd {_q(cwd)}", 'PATH="$AGENT_PATH"']
    drop = setpriv_prefix() if host_user else [_system_tool("setpriv"), *SETPRIV_USERNS]
    lines.append(f"exec {shlex.join(drop)} /bin/sh -c {shlex.quote(command)}")
    return "\n".join(lines) + "\n"


def unshare_command(command: str, **kwargs: object) -> list[str]:
    """The command line running `command` under the `unshare` tier (`unshare_script`'s keywords)."""
    host_user = bool(kwargs.get("host_user"))
    return [*unshare_prefix(host_user), "/bin/sh", "-c", unshare_script(command, **kwargs)]  # type: ignore[arg-type]


@functools.cache
def unshare_problem() -> str | None:
    """Why the unshare tier cannot isolate an agent here, or None when it can (probed once per process)."""
    missing = [tool for tool in ("unshare", "setpriv", "mount") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not installed (Debian/Ubuntu: apt-get install util-linux mount)"
    host_user = host_user_mode()
    expect = NOBODY if host_user else 0
    check = f'test "$(id -u)" = {expect} && test "$$" = 1 && ! touch /etc/.clawgym-probe 2>/dev/null'
    with tempfile.TemporaryDirectory(prefix="clawgym-probe-") as scratch:
        script = unshare_script(check, cwd=Path(scratch).resolve(), scratch=Path(scratch).resolve(), hide_dirs=(), hide_files=(),
                                host_user=host_user)  # fmt: skip
        problem = _probe([*unshare_prefix(host_user), "/bin/sh", "-c", script], "unshare")
    if problem and not host_user:
        problem += (" (unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu "
                    "kernel.apparmor_restrict_unprivileged_userns=0; or install bubblewrap)")  # fmt: skip
    return problem


# -- none ----------------------------------------------------------------------------------------------


def reaper_command(command: str) -> list[str]:
    """`command` under `orchestrator/agents/reaper.py`, a child subreaper that leaves no descendant behind."""
    return [sys.executable, "-I", str(Path(__file__).with_name("reaper.py")), "/bin/sh", "-c", command]


def resolve_isolation(requested: str) -> tuple[Isolation, str | None]:
    """(the tier, a warning to show loudly when the agent will run without isolation).

    `auto` takes bwrap when it works, else unshare, else none; `bwrap` and `unshare` raise `IsolationError` when
    they do not work here."""
    if requested not in ISOLATION_CHOICES:
        raise IsolationError(f"--isolation must be one of {', '.join(ISOLATION_CHOICES)}, not {requested!r}")
    if requested == "none":
        return "none", NONE_WARNING.format(why="--isolation none")
    if requested in ("auto", "bwrap"):
        problem = bwrap_problem()
        if problem is None:
            return "bwrap", None
        if requested == "bwrap":
            raise IsolationError(f"--isolation bwrap: {problem}")
    trouble = unshare_problem()
    if trouble is None:
        return "unshare", None
    if requested == "unshare":
        raise IsolationError(f"--isolation unshare: {trouble}")
    return "none", NONE_WARNING.format(why=f"{problem}; {trouble}")
