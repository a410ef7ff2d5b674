"""The tiers of a `cmd:` agent's isolation and the command lines that make them.

Both sandboxing tiers build the same file system, an allow-list (`View`): the system's folders (`SYSTEM_DIRS`)
read-only, a fresh `/proc`, a minimal `/dev`, an empty `/tmp`, the folders and files the view shows (read-only), and
the scratch folder (writable). Nothing else of the host exists inside. `orchestrator.agents.view` decides what a view
shows.

- `bwrap` (Debian's `bubblewrap`): `bwrap_command`, on bwrap's own empty root, with its own PID, IPC and UTS
  namespaces.
- `unshare` (util-linux, on every Debian and Ubuntu machine): `unshare_command`, the same without bwrap. util-linux
  `unshare` makes a PID, mount, IPC and UTS namespace (and, when the orchestrator is not root, an unprivileged user
  namespace in which the caller is root); a shell script inside it mounts a tmpfs on an empty folder, binds the view
  into it, makes it the root (`pivot_root`, the old root detached), makes every mount but /proc, /dev, /tmp and the
  scratch folder read-only, and `exec`s the command as the namespace's init through `setpriv`: host uid/gid 65534, no
  groups, no capabilities, `no_new_privs` when root; root of the user namespace with no capabilities otherwise. When
  that init exits, the kernel kills everything left in its PID namespace (`setsid` and double-forked children
  included).
- `none`: a plain process group under `reaper` (a child subreaper that kills every descendant the agent leaves).

`resolve_isolation` picks the tier (`auto`: bwrap, else unshare, else none) from probes that run a trivial sandbox.

May import nothing of the project (the standard library only).
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
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


# -- what the agent sees ---------------------------------------------------------------------------

SYSTEM_DIRS = tuple(Path(p) for p in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"))
"""The system's folders every sandbox shows read-only (a merged-/usr system's `/bin` and the like stay links)."""
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")


@dataclass(frozen=True)
class View:
    """What an agent's file system holds besides the system's folders (`SYSTEM_DIRS`), a fresh `/proc`, `/dev` and
    `/tmp`: an allow-list. Everything not named here is absent, wherever it is on disk.

    `read_only`: folders and files shown read-only at their own paths (the interpreter, the agent's program);
    `covers`: folders inside them shown empty (an installed ClawGym package); `blanks`: files inside them shown empty;
    `scratch`: the agent's own writable folder; `cwd`: its working directory (an empty folder unless shown)."""

    cwd: Path
    scratch: Path
    read_only: tuple[Path, ...] = ()
    covers: tuple[Path, ...] = ()
    blanks: tuple[Path, ...] = ()

    def shown(self) -> list[Path]:
        """`read_only`, outermost first, without those inside another (already shown with it)."""
        paths = sorted({Path(p) for p in self.read_only}, key=lambda p: (len(p.parts), str(p)))
        kept: list[Path] = []
        for path in paths:
            if path.exists() and not any(_within(path, other) for other in kept):
                kept.append(path)
        return kept


def system_entries() -> list[tuple[Path, str | None]]:
    """(folder, its link target or None) for each of `SYSTEM_DIRS` this machine has."""
    found: list[tuple[Path, str | None]] = []
    for folder in SYSTEM_DIRS:
        if folder.is_symlink():
            found.append((folder, os.readlink(folder)))
        elif folder.is_dir():
            found.append((folder, None))
    return found


# -- bwrap ------------------------------------------------------------------------------------------

# What both modes share: an empty root, fresh /proc, /dev and /tmp, its own PID, IPC and UTS namespaces.
SHARED_BWRAP = [
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--share-net",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
]
# Not root: a user namespace in which the caller's uid shows as `nobody` (the agent keeps the caller's host uid).
USERNS_BWRAP = ["--unshare-user", "--disable-userns", "--uid", str(NOBODY), "--gid", str(NOBODY)]
BASE_BWRAP = [*SHARED_BWRAP, *USERNS_BWRAP]
# Root: bwrap mounts as root (no user namespace, which would map the agent back to host uid 0), then
# setpriv turns the command into host uid/gid 65534 with no groups and no capabilities.
SETPRIV = [
    "--reuid",
    str(NOBODY),
    "--regid",
    str(NOBODY),
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
]
# Not root, under unshare: the agent stays root of its user namespace, without any capability.
SETPRIV_USERNS = ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]


def host_user_mode() -> bool:
    """Whether the agent becomes host uid 65534 (the orchestrator runs as root), rather than a user namespace's user."""
    return os.geteuid() == 0


def base_bwrap(host_user: bool) -> list[str]:
    """bwrap's options before the folders: without a user namespace when the agent becomes host uid 65534."""
    return list(SHARED_BWRAP) if host_user else list(BASE_BWRAP)


def system_bwrap() -> list[str]:
    """bwrap arguments showing the system's folders read-only (and its links as links)."""
    args: list[str] = []
    for folder, target in system_entries():
        args += ["--symlink", target, str(folder)] if target is not None else ["--ro-bind", str(folder), str(folder)]
    return args


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
    check = f'PATH={SYSTEM_PATH}; test "$(id -u)" = {NOBODY} && ! ls /root /home /var /srv /opt /mnt 2>/dev/null'
    return _probe(
        [bwrap, *base_bwrap(host_user), *system_bwrap(), "--remount-ro", "/", *prefix, "/bin/sh", "-c", check], "bwrap"
    )


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def bwrap_command(
    command: str,
    *,
    view: View,
    env: dict[str, str],
    info_fd: int | None = None,
    host_user: bool = False,
) -> list[str]:
    """The bwrap command line running `command` in `view` (see `orchestrator.agents.command` for what it isolates).

    `host_user`: bwrap runs as root and the command as host uid 65534 (`setpriv`). Folders on the way to a shown
    path are bwrap's own (0755), so a path behind a folder only its owner may enter (`/root`) is reachable alone."""
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, *base_bwrap(host_user), *system_bwrap()]
    shown = view.shown()
    fixed = [*SYSTEM_DIRS, *shown]
    ways = {folder for path in [*shown, view.scratch, view.cwd] for folder in path.parents}
    for folder in sorted(ways | {view.cwd}, key=lambda p: len(p.parts)):  # bwrap's own would be 0700
        if folder not in (Path("/"), Path("/tmp")) and not any(_within(folder, other) for other in fixed):
            args += ["--perms", "0755", "--dir", str(folder)]
    for path in shown:
        args += ["--ro-bind", str(path), str(path)]
    for folder in sorted(set(view.covers)):
        if folder.is_dir():
            args += ["--tmpfs", str(folder)]
    for file in sorted(set(view.blanks)):
        if file.exists() and not file.is_dir():
            args += ["--ro-bind", "/dev/null", str(file)]
    args += ["--bind", str(view.scratch), str(view.scratch), "--remount-ro", "/"]
    args += ["--chdir", str(view.cwd)]
    for name, value in env.items():
        args += ["--setenv", name, value]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    return [*args, *(setpriv_prefix() if host_user else []), "/bin/sh", "-c", command]


def bwrap_through_fd(argv: list[str], host_user: bool) -> tuple[list[str], int]:
    """`argv` (from `bwrap_command`) with bwrap's options moved into a memory file read through `--args FD` (returned
    open, to pass to the child and close after): bwrap stays the sandbox's init, and its command line, which the agent
    can read in /proc, would otherwise list every shown path and the agent's environment."""
    tail = 3 + (len(SETPRIV) + 1 if host_user else 0)
    options, rest = argv[1:-tail], argv[-tail:]
    fd = os.memfd_create("bwrap-args", 0)
    os.write(fd, b"".join(os.fsencode(option) + b"\0" for option in options))
    os.lseek(fd, 0, os.SEEK_SET)
    return [argv[0], "--args", str(fd), *rest], fd


# -- unshare ----------------------------------------------------------------------------------------

# Mounts left as they are when the rest is made read-only: the fresh /proc, the device nodes and /tmp.
KEEP_WRITABLE = ("/proc", "/proc/*", "/dev", "/dev/*", "/tmp")


def unshare_prefix(host_user: bool) -> list[str]:
    """`setpriv --pdeathsig KILL unshare …`: the namespaces (a user namespace when not root), ending with the
    orchestrator; the child of `unshare` is the PID namespace's init, which the kernel kills when `unshare` dies."""
    setpriv, unshare = shutil.which("setpriv") or "setpriv", shutil.which("unshare") or "unshare"
    user = [] if host_user else ["--user", "--map-root-user"]
    return [
        setpriv,
        "--pdeathsig",
        "KILL",
        unshare,
        *user,
        "--pid",
        "--fork",
        "--kill-child",
        "--mount",
        "--propagation",
        "private",
        "--mount-proc",
        "--ipc",
        "--uts",
    ]


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))


def _show(lines: list[str], source: Path | str, target: str, *, folder: bool) -> None:
    """Bind `source` at `target` (a path under the new root): its mount point is made first."""
    if folder:
        lines.append(f"mkdir -p {target}")
    else:
        lines += [f"mkdir -p $(dirname {target})", f"touch {target}"]
    lines.append(f"mount --no-canonicalize --rbind {_q(source)} {target}")


def unshare_script(command: str, *, view: View, root: Path, host_user: bool) -> str:
    """The shell script that builds the agent's file system on a tmpfs at `root` (an empty folder), makes it the
    root (`pivot_root`, the old root detached), and `exec`s `command` through `setpriv`."""

    def at(path: Path | str) -> str:
        return _q(f"{root}{path}")

    # The setup's own tools come from the system's folders: the caller's PATH may point into /tmp, which the fresh
    # /tmp hides; the agent gets the caller's PATH back.
    lines = ["set -e", "umask 022", 'AGENT_PATH="$PATH"', f"PATH={SYSTEM_PATH}"]
    lines.append(f"mount -t tmpfs -o mode=0755,size=16m tmpfs {_q(root)}")
    for folder, target in system_entries():
        if target is not None:
            lines.append(f"ln -s {_q(target)} {at(folder)}")
        else:
            _show(lines, folder, at(folder), folder=True)
    lines += [f"mkdir -p {at('/proc')} {at('/dev')} {at('/tmp')}", f"mount --rbind /proc {at('/proc')}"]
    lines.append(f"mount -t tmpfs -o mode=0755,size=1m tmpfs {at('/dev')}")
    for device in DEVICES:
        if Path("/dev", device).exists():
            _show(lines, f"/dev/{device}", at(f"/dev/{device}"), folder=False)
    lines += [
        f"ln -s /proc/self/fd {at('/dev/fd')}",
        *(f"ln -s /proc/self/fd/{n} {at('/dev/' + name)}" for n, name in enumerate(("stdin", "stdout", "stderr"))),
        f"mkdir -p {at('/dev/shm')} {at('/dev/pts')} {at('/dev/mqueue')}",
        f"mount -t tmpfs -o mode=1777,size=64m tmpfs {at('/dev/shm')}",  # not the host's
        f"mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts {at('/dev/pts')} 2>/dev/null && "
        f"ln -s pts/ptmx {at('/dev/ptmx')} || true",
        f"mount -t mqueue mqueue {at('/dev/mqueue')} 2>/dev/null || true",  # its IPC namespace's
        f"mount -t tmpfs -o mode=1777,size=1g tmpfs {at('/tmp')}",
    ]
    for path in view.shown():
        _show(lines, path, at(path), folder=path.is_dir())
    for folder in sorted(set(view.covers)):
        if folder.is_dir():
            lines.append(f"mount -t tmpfs -o mode=0755,size=1m tmpfs {at(folder)}")
    for file in sorted(set(view.blanks)):
        if file.exists() and not file.is_dir():
            lines.append(f"mount --bind /dev/null {at(file)}")
    _show(lines, view.scratch, at(view.scratch), folder=True)
    lines += [
        f"mkdir -p {at(view.cwd)} {at('/.old')}",
        f"cd {_q(root)}",
        "pivot_root . .old",
        "cd /",
        "umount -l /.old",
        "rmdir /.old",
    ]
    keep = " | ".join([*KEEP_WRITABLE, _q(view.scratch)])
    lines.append(
        "awk '{print $5}' /proc/self/mountinfo | while read -r m; do "
        f'm=$(printf "$m"); case "$m" in {keep}) continue;; esac; '
        'mount -o remount,bind,ro "$m" 2>/dev/null || true; done'
    )
    # The root and what it shows are read-only, or nothing runs.
    lines.append('if touch /.clawgym-writable 2>/dev/null; then echo "the sandbox root is writable" >&2; exit 1; fi')
    lines += [f"cd {_q(view.cwd)}", 'PATH="$AGENT_PATH"']
    drop = setpriv_prefix() if host_user else [_system_tool("setpriv"), *SETPRIV_USERNS]
    lines.append(f"exec {shlex.join(drop)} /bin/sh -c {shlex.quote(command)}")
    return "\n".join(lines) + "\n"


def unshare_command(command: str, *, view: View, root: Path, host_user: bool) -> list[str]:
    """The command line running `command` under the `unshare` tier (`unshare_script`'s keywords)."""
    return [
        *unshare_prefix(host_user),
        "/bin/sh",
        "-c",
        unshare_script(command, view=view, root=root, host_user=host_user),
    ]


@functools.cache
def unshare_problem() -> str | None:
    """Why the unshare tier cannot isolate an agent here, or None when it can (probed once per process)."""
    missing = [tool for tool in ("unshare", "setpriv", "mount", "pivot_root") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not installed (Debian/Ubuntu: apt-get install util-linux mount)"
    host_user = host_user_mode()
    expect = NOBODY if host_user else 0
    # The caller's PATH may name folders the sandbox does not show (a link farm in a venv): the probe names its own.
    check = (
        f'PATH={SYSTEM_PATH}; test "$(id -u)" = {expect} && test "$$" = 1 && ! touch /etc/.clawgym-probe 2>/dev/null '
        "&& ! ls /root /home /var /srv /opt /mnt 2>/dev/null"
    )
    with tempfile.TemporaryDirectory(prefix="clawgym-probe-") as folder:
        scratch, root = Path(folder, "scratch").resolve(), Path(folder, "root").resolve()
        scratch.mkdir()
        root.mkdir()
        view = View(cwd=scratch, scratch=scratch)
        script = unshare_script(check, view=view, root=root, host_user=host_user)
        problem = _probe([*unshare_prefix(host_user), "/bin/sh", "-c", script], "unshare")
    if problem and not host_user:
        problem += (
            " (unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu "
            "kernel.apparmor_restrict_unprivileged_userns=0; or install bubblewrap)"
        )
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
