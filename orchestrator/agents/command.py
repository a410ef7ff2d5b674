"""`--agent cmd:COMMAND`: any agent that runs as a process and speaks MCP.

The command runs through `/bin/sh -c`, from the directory `orchestrator run`
was started in (so `python examples/agent.py` works as typed), with `python`
resolving to the orchestrator's own interpreter first on PATH. Its
environment is an allow-list, nothing else of the orchestrator's:

    PATH                the orchestrator's interpreter folder, then the caller's PATH
    HOME, TMPDIR        an empty scratch folder of its own, removed after the episode
    LANG, LC_ALL, LC_CTYPE, TERM, TZ, VIRTUAL_ENV   passed through when set
    PYTHONUNBUFFERED    1
    CLAWGYM_TASK        the task text (also the gateway's prompt `task`)
    CLAWGYM_MCP_URL     the gateway's Streamable HTTP URL
    CLAWGYM_MCP_CONFIG  a JSON file in the `mcpServers` format Claude Desktop,
                        Claude Code and Cursor read, naming the gateway `clawgym`
    CLAWGYM_SCENARIO    the scenario id
    NAME                each `--agent-env NAME` (API keys of model agents)

Isolation (`bwrap`, from Debian's `bubblewrap`): the agent runs in its own
PID, IPC and UTS namespaces with a read-only view of the file system. Who it
runs as depends on the orchestrator's user:

- root: bwrap runs without a user namespace (which would map the agent back
  to host uid 0) and the command is started by `setpriv` as host uid/gid
  65534 (`nobody`), no supplementary groups, no capabilities (bounding set
  emptied), `no_new_privs`. Its scratch folder is chowned to it. A folder it
  needs (the interpreter's prefix, the venv, its working directory) behind
  an ancestor others cannot enter (`/root` is 0700) is reached by a tmpfs
  (0755) over that ancestor with the needed folder bound back read-only.
  It may create user namespaces, like any unprivileged user; mounts made by
  bwrap are locked in them, so nothing hidden can be uncovered.
- anyone else: a user namespace in which the caller's uid is shown as
  `nobody` (its host uid stays the caller's: it cannot be less privileged
  than the caller here), and it cannot create further user namespaces.

`/tmp` is empty; the scenario file's folder and the files it
includes, the git store of the repository holding them, the run's output
folder (and `runs/` beside it), the host's unix
sockets under `/run` (Docker's included) are hidden; it sees only its own
processes. The network is shared, so
the gateway on loopback is reachable. When the agent's command exits, its
PID namespace ends and every process it started dies with it (`setsid`
children included). With `isolation: none` (no bwrap available, or asked
for) the agent runs as a plain child process group: it can read what the
orchestrator's user can read, and children that leave the group survive.

The agent's stdout and stderr reach `agent.log` through a pipe the
orchestrator reads; the agent never holds a file in the run folder.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import anyio
import yaml

from orchestrator.agents.base import Agent, AgentReport
from orchestrator.agents.process import LogCopier, SandboxInfo, describe_exit, stop_tree
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import task_text

Isolation = Literal["bwrap", "none"]
ISOLATION_CHOICES = ("auto", "bwrap", "none")
ENV_PASSED = ("LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ")
SOCKET_DIRS = (Path("/run"), Path("/var/run"))
NOBODY = 65534


class IsolationError(RuntimeError):
    """The requested isolation cannot be had on this machine."""


def mcp_config(url: str) -> dict:
    """The `mcpServers` file (Claude Desktop, Claude Code and Cursor read it) naming the gateway at `url` `clawgym`."""
    return {"mcpServers": {"clawgym": {"type": "http", "url": url}}}


# -- isolation ----------------------------------------------------------------------------------

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


def host_user_mode() -> bool:
    """Whether the agent becomes host uid 65534 (the orchestrator runs as root), rather than a user namespace's nobody."""
    return os.geteuid() == 0


def base_bwrap(host_user: bool) -> list[str]:
    """bwrap's options before the folders: without a user namespace when the agent becomes host uid 65534."""
    return list(SHARED_BWRAP) if host_user else list(BASE_BWRAP)


def setpriv_prefix() -> list[str]:
    """The `setpriv` command that drops the agent to host uid/gid 65534 without groups or capabilities (as root)."""
    return [shutil.which("setpriv") or "setpriv", *SETPRIV]


@functools.cache
def bwrap_problem() -> str | None:
    """Why bwrap cannot isolate an agent here, or None when it can (probed once per process)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    host_user = host_user_mode()
    if host_user and shutil.which("setpriv") is None:
        return "setpriv is not installed (Debian/Ubuntu: apt-get install util-linux); as root it makes the agent an unprivileged user"
    argv = [
        bwrap,
        *base_bwrap(host_user),
        *(setpriv_prefix() if host_user else []),
        "/bin/sh",
        "-c",
        f'test "$(id -u)" = {NOBODY}',
    ]
    try:
        probe = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap did not run: {exc}"
    if probe.returncode != 0:
        return f"bwrap cannot create a sandbox here (user namespaces disabled?): {probe.stderr.strip() or probe.returncode}"
    return None


def resolve_isolation(requested: str) -> tuple[Isolation, str | None]:
    """(`bwrap` or `none`, a warning to show loudly when the agent will run without isolation).

    `auto` takes bwrap when it works; `bwrap` raises `IsolationError` when it does not."""
    if requested not in ISOLATION_CHOICES:
        raise IsolationError(f"--isolation must be one of {', '.join(ISOLATION_CHOICES)}, not {requested!r}")
    if requested == "none":
        return (
            "none",
            "the agent runs WITHOUT isolation (--isolation none): it can read the scenario and tamper with the run",
        )
    problem = bwrap_problem()
    if problem is None:
        return "bwrap", None
    if requested == "bwrap":
        raise IsolationError(f"--isolation bwrap: {problem}")
    return "none", f"the agent runs WITHOUT isolation: {problem}; it can read the scenario and tamper with the run"


def scenario_sources(episode: Episode) -> list[Path]:
    """The files an episode's scenario was read from (its YAML and the seed files it names), hidden from the agent."""
    path = episode.scenario.path
    if path is None:
        return []
    path = path.resolve()
    files = [path]
    with contextlib.suppress(OSError, yaml.YAMLError, UnicodeDecodeError):
        data = yaml.safe_load(path.read_text())
        apps = data.get("apps") if isinstance(data, dict) else None
        for seed in (apps or {}).values() if isinstance(apps, dict) else ():
            if isinstance(seed, str):
                files.append((path.parent / seed).resolve())
    return files


def git_stores(files: Iterable[Path]) -> list[Path]:
    """The git object stores of the repositories holding `files`: their history has every committed scenario."""
    found: set[Path] = set()
    for file in files:
        for folder in file.parents:
            marker = folder / ".git"
            if marker.is_dir():
                found.add(marker.resolve())
            elif marker.is_file():  # a worktree or submodule: `gitdir: PATH`, whose `commondir` has the objects
                with contextlib.suppress(OSError, ValueError):
                    gitdir = (folder / marker.read_text().split("gitdir:", 1)[1].strip()).resolve()
                    found.add(gitdir)
                    common = gitdir / "commondir"
                    if common.is_file():
                        found.add((gitdir / common.read_text().strip()).resolve())
            else:
                continue
            break
    return sorted(found)


def host_sockets(roots: Iterable[Path] = SOCKET_DIRS, depth: int = 3) -> list[Path]:
    """Unix sockets under /run (the Docker daemon's, D-Bus …): connecting to one ignores read-only mounts."""
    found: set[Path] = set()

    def walk(folder: Path, level: int) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISSOCK(mode):
                found.add(Path(entry.path).resolve())
            elif stat.S_ISDIR(mode) and level < depth:
                walk(Path(entry.path), level + 1)

    for root in roots:
        if root.exists():
            walk(root.resolve(), 1)
    docker_host = os.environ.get("DOCKER_HOST", "")
    if docker_host.startswith("unix://") and Path(docker_host[7:]).exists():
        found.add(Path(docker_host[7:]).resolve())
    return sorted(found)


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _traversable(folder: Path) -> bool:
    """Whether another user (the agent's uid, in no group of the owner's) can pass through `folder`."""
    try:
        return bool(os.stat(folder).st_mode & stat.S_IXOTH)
    except OSError:
        return True  # missing: nothing to open up


def reopen(needed: Iterable[Path]) -> list[str]:
    """bwrap arguments giving the agent's uid a way to `needed` folders behind folders only their owner can enter.

    The first such ancestor is covered by an empty tmpfs (mode 0755), the folders on the way are created
    there (0755), and the needed folder is bound back read-only: its siblings stay out of sight."""
    blocked: dict[Path, Path] = {}  # needed folder -> its first ancestor others cannot enter
    for path in {Path(p) for p in needed}:
        for folder in reversed(path.parents):
            if folder != path and not _traversable(folder):
                blocked[path] = folder
                break
    covers = sorted({c for c in blocked.values() if not any(o in c.parents for o in blocked.values())})
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
    """The bwrap command line running `command` (see the module docstring for what it isolates).

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


def interpreter_folders() -> list[Path]:
    """The folders the agent's `python` needs: the venv and the interpreter it was made from."""
    folders = {Path(sys.prefix), Path(sys.base_prefix).resolve(), Path(sys.executable).resolve().parent.parent}
    return sorted(folder for folder in folders if folder.is_dir() and folder != Path("/"))


def closed_to_agent(folders: Iterable[Path]) -> list[Path]:
    """Of `folders`, those host uid 65534 cannot list and enter themselves (their ancestors are reopened)."""
    closed = []
    for folder in folders:
        with contextlib.suppress(OSError):
            info = os.stat(folder)
            if info.st_uid != NOBODY and info.st_mode & 0o005 != 0o005:
                closed.append(folder)
    return closed


# -- the agent ------------------------------------------------------------------------------------


class CommandAgent(Agent):
    """`cmd:COMMAND`: an agent process speaking MCP to the gateway over HTTP, isolated as the module docstring says;
    `hide` adds folders it must not see (the run's output folders)."""

    name = "cmd"

    def __init__(
        self,
        command: str,
        timeout_s: float | None = None,
        *,
        isolation: Isolation | None = None,
        cwd: Path | None = None,
        env_names: Iterable[str] = (),
        hide: Iterable[Path] = (),
    ) -> None:
        self.command = command
        self.timeout_s = timeout_s
        self.isolation: Isolation = isolation or resolve_isolation("auto")[0]
        self.cwd = (cwd or Path.cwd()).resolve()
        self.env_names = list(env_names)
        self.hide = [Path(p).resolve() for p in hide]
        self.host_user = self.isolation == "bwrap" and host_user_mode()
        """Whether the agent runs as host uid 65534 (bwrap as root); else as the caller's uid (in a user namespace)."""

    @property
    def host_uid(self) -> int | None:
        """The host user the agent runs as when it is not the orchestrator's own (bwrap started as root)."""
        return NOBODY if self.host_user else None

    def environment(self, episode: Episode, scratch: Path, config: Path) -> dict[str, str]:
        """The agent's whole environment: the allow-list of the module docstring, nothing else of the orchestrator's."""
        assert episode.gateway_url
        interpreter = str(Path(sys.executable).parent)  # the venv's bin, not the resolved base interpreter
        env = {"PATH": os.pathsep.join([interpreter, os.environ.get("PATH", os.defpath)])}
        env |= {name: os.environ[name] for name in ENV_PASSED if name in os.environ}
        if sys.prefix != sys.base_prefix:
            env["VIRTUAL_ENV"] = sys.prefix
        env |= {"HOME": str(scratch / "home"), "TMPDIR": str(scratch / "tmp"), "PYTHONUNBUFFERED": "1"}
        env |= {name: os.environ[name] for name in self.env_names if name in os.environ}
        env |= {
            "CLAWGYM_TASK": task_text(episode.scenario),
            "CLAWGYM_MCP_URL": episode.gateway_url,
            "CLAWGYM_MCP_CONFIG": str(config),
            "CLAWGYM_SCENARIO": episode.scenario.id,
        }
        return env

    def hidden(self, episode: Episode) -> tuple[list[Path], list[Path]]:
        """(folders, files) the agent must not see: the scenario and its includes, run folders, host sockets."""
        folders, files = [], [*host_sockets()]
        scenario = scenario_sources(episode)
        for file in scenario:
            # The scenario's folder holds its siblings (and their solutions) too; hide it whole unless
            # the agent's own directory is inside it, then hide the files one by one.
            if _within(self.cwd, file.parent):
                files.append(file)
                files += [p.resolve() for p in file.parent.glob("*.y*ml")]
            else:
                folders.append(file.parent)
        folders += git_stores(scenario)  # `git show HEAD:scenarios/x.yaml` would read it back
        runs_root = self.cwd / "runs"
        for folder in [*self.hide, *([episode.workdir.resolve()] if episode.workdir else []), runs_root]:
            if not _within(self.cwd, folder):
                folders.append(folder)
        return folders, files

    async def run(self, episode: Episode) -> AgentReport:
        """Start the command with its MCP config and scratch folder, copy its output to `agent.log`, and wait for
        it to exit or the episode's timeout; its whole process tree is stopped either way. The report has its exit
        code or timeout and the tool calls the gateway saw."""
        assert episode.gateway_url, "a command agent needs the gateway served over HTTP"
        workdir = (episode.workdir or Path(tempfile.mkdtemp(prefix="clawgym-run-"))).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="clawgym-agent-")).resolve()
        (scratch / "home").mkdir()
        (scratch / "tmp").mkdir()
        config = scratch / "mcp.json"
        config_text = json.dumps(mcp_config(episode.gateway_url), indent=2) + "\n"
        config.write_text(config_text)
        if self.host_user:  # the scratch folder is the agent's own
            for path in (scratch, scratch / "home", scratch / "tmp", config):
                os.chown(path, NOBODY, NOBODY)
        (workdir / "mcp.json").write_text(config_text)  # for the record; the agent reads its own copy
        env = self.environment(episode, scratch, config)
        report = AgentReport(agent=f"cmd:{self.command}")
        timeout = self.timeout_s or episode.scenario.limits.timeout_s
        started = time.perf_counter()
        try:
            process, info = self._spawn(episode, env, scratch)
            if self.host_user and (closed := closed_to_agent([self.cwd, *interpreter_folders()])):
                with (workdir / "agent.log").open("a") as log:  # said before the agent's own output
                    log.write(f"[the agent runs as uid {NOBODY}, which cannot open {', '.join(map(str, closed))} "
                              "(only its owner may): run it from a folder others can read]\n")  # fmt: skip
            copier = LogCopier(process.stdout, workdir / "agent.log")  # type: ignore[arg-type]
            try:
                with anyio.move_on_after(timeout) as scope:
                    while process.poll() is None:
                        await anyio.sleep(0.05)
                report.timed_out = scope.cancelled_caught
            finally:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(stop_tree, process, info)
                    await anyio.to_thread.run_sync(copier.finish)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        report.exit_code = process.returncode
        report.duration_s = time.perf_counter() - started
        if report.timed_out:
            report.errors.append(f"stopped after the {timeout:g} s timeout")
        elif report.exit_code:
            report.errors.append(f"{describe_exit(report.exit_code)}; see {workdir / 'agent.log'}")
        report.tool_calls = sum(1 for e in episode.trace.entries if e["method"] == "tools/call")
        return report

    def _spawn(
        self, episode: Episode, env: dict[str, str], scratch: Path
    ) -> tuple[subprocess.Popen[bytes], SandboxInfo]:
        info = SandboxInfo()
        common: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.STDOUT,
                                  "start_new_session": True}  # fmt: skip
        if self.isolation == "none":
            process = subprocess.Popen(["/bin/sh", "-c", self.command], env=env, cwd=self.cwd, **common)
            return process, info
        folders, files = self.hidden(episode)
        read_end, write_end = os.pipe()
        argv = bwrap_command(
            self.command,
            cwd=self.cwd,
            scratch=scratch,
            env=env,
            hide_dirs=folders,
            hide_files=files,
            info_fd=write_end,
            host_user=self.host_user,
            needed=interpreter_folders(),
        )
        try:
            process = subprocess.Popen(argv, env={"PATH": os.environ.get("PATH", os.defpath)}, cwd="/",
                                       pass_fds=(write_end,), **common)  # fmt: skip
        finally:
            os.close(write_end)
        info.start(read_end)
        return process, info
