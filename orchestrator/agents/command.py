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
    CLAWGYM_EPISODE     a name for its logs that maps to nothing (never the
                        scenario id, task id, family or seed)
    NAME                each `--agent-env NAME` (API keys of model agents)

Isolation, in tiers (`orchestrator.agents.isolation` builds them; `auto`
takes the first that works here): `bwrap` (Debian's `bubblewrap`), else
`unshare` (util-linux's `unshare`, `setpriv`, `mount` and `pivot_root`, on
every Debian and Ubuntu machine), else `none`. Under `bwrap` and `unshare`
the agent runs in its own PID, IPC and UTS namespaces, and its file system
is an allow-list (`orchestrator.agents.view`), read-only but for its
scratch folder:

- the system's folders (/usr, /etc, /bin, /lib …), a fresh /proc, a minimal
  /dev and an empty /tmp;
- the interpreter the orchestrator runs on (its venv and base installation),
  with ClawGym's packages covered: `import orchestrator` fails;
- its program: the working directory when it holds nothing of ClawGym's,
  else only the files the command names there, and a script the command
  names elsewhere;
- its scratch folder (HOME, TMPDIR and its mcp.json).

Nothing else exists for it: no ClawGym checkout or installed package, no
scenario file or git store, no release, no run record or generation root,
no record key, no host socket, wherever they are on disk.

Who it runs as depends on the orchestrator's user:

- root: the sandbox is set up without a user namespace (which would map the
  agent back to host uid 0) and the command is started by `setpriv` as host
  uid/gid 65534 (`nobody`), no supplementary groups, no capabilities
  (bounding set emptied), `no_new_privs`. Its scratch folder is chowned to
  it. A shown folder behind an ancestor others cannot enter (`/root` is
  0700) is reachable alone: the folders on the way are the sandbox's own.
- anyone else: a user namespace; under bwrap the caller's uid is shown as
  `nobody` and it cannot create further user namespaces; under unshare it is
  root of its user namespace without any capability. Its host uid stays the
  caller's: it cannot be less privileged than the caller here.

It sees only its own processes. The network is shared, so the gateway on
loopback is reachable. When the agent's command exits, its PID namespace
ends and every process it started dies with it (`setsid` children
included). With `isolation: none` (neither works, or asked for) the agent
runs as a plain process group under a child subreaper
(`orchestrator/agents/reaper.py`) that kills whatever it leaves behind: it
can read what the orchestrator's user can read, and results.json says its
verdict is untrusted (`episode.untrusted`).

The agent's stdout and stderr reach `agent.log` through a pipe the
orchestrator reads; the agent never holds a file in the run folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import anyio
import yaml

from orchestrator.agents.agent_process import LogCopier, SandboxInfo, describe_exit, stop_tree
from orchestrator.agents.base import Agent, AgentReport
from orchestrator.agents.isolation import (
    ISOLATION_CHOICES,
    NOBODY,
    UNTRUSTED,
    Isolation,
    IsolationError,
    View,
    bwrap_command,
    bwrap_problem,
    bwrap_through_fd,
    host_user_mode,
    reaper_command,
    resolve_isolation,
    unshare_command,
    unshare_problem,
)
from orchestrator.agents.view import agent_view
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import task_text

__all__ = [
    "ISOLATION_CHOICES",
    "CommandAgent",
    "IsolationError",
    "bwrap_problem",
    "resolve_isolation",
    "unshare_problem",
    "mcp_config",
]

ENV_PASSED = ("LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ")
MANIFEST = "tasks.jsonl"
"""A generation root's manifest (`orchestrator generate`): its rows hold what the checks look for."""


def episode_name() -> str:
    """A name for the agent's logs that maps to nothing: not the scenario, its task, family or seed."""
    return f"ep-{secrets.token_hex(8)}"


def mcp_config(url: str) -> dict:
    """The `mcpServers` file (Claude Desktop, Claude Code and Cursor read it) naming the gateway at `url` `clawgym`."""
    return {"mcpServers": {"clawgym": {"type": "http", "url": url}}}


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


def generation_roots(files: Iterable[Path], depth: int = 3) -> list[Path]:
    """The folders up to `depth` levels above `files` that hold a generation manifest (`tasks.jsonl`)."""
    found: set[Path] = set()
    for file in files:
        for folder in list(file.parents)[:depth]:
            if (folder / MANIFEST).is_file():
                found.add(folder)
    return sorted(found)


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
        self.host_user = self.isolation != "none" and host_user_mode()
        """Whether the agent runs as host uid 65534 (bwrap or unshare as root); else as the caller's uid (in a user
        namespace, or none)."""

    @property
    def host_uid(self) -> int | None:
        """The host user the agent runs as when it is not the orchestrator's own (started as root)."""
        return NOBODY if self.host_user else None

    @property
    def untrusted(self) -> str | None:
        """Why the verdict of this agent's episode is not to be trusted (isolation none), for results.json."""
        return UNTRUSTED if self.isolation == "none" else None

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
            "CLAWGYM_EPISODE": episode_name(),
        }
        return env

    def forbidden(self, episode: Episode) -> list[Path]:
        """This run's own places, never shown to the agent: the scenario and its includes, the git store holding
        them, a generation root, the run folders, other episodes' scratch folders, the record key's folder."""
        scenario = scenario_sources(episode)
        places = [*scenario, *git_stores(scenario), *generation_roots(scenario)]
        for file in scenario:  # its sibling scenarios (and their solutions)
            places += [p.resolve() for p in file.parent.glob("*.y*ml")]
        temp = Path(tempfile.gettempdir()).resolve()  # other episodes' scratch folders, whatever TMPDIR is
        if temp not in (Path("/"), Path("/tmp")):
            places.append(temp)
        # The record key's folder (orchestrator.record.key_path): an agent running as the user could read it.
        places.append(Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "clawgym")
        places += [*self.hide, *([episode.workdir.resolve()] if episode.workdir else []), self.cwd / "runs"]
        return [p.resolve() for p in places]

    def view(self, episode: Episode, scratch: Path) -> tuple[View, list[str]]:
        """What the agent's file system shows (`orchestrator.agents.view`), and notes for its log."""
        return agent_view(
            self.command,
            cwd=self.cwd,
            scratch=scratch,
            interpreter=interpreter_folders(),
            forbidden=self.forbidden(episode),
        )

    async def run(self, episode: Episode) -> AgentReport:
        """Start the command with its MCP config and scratch folder, copy its output to `agent.log`, and wait for
        it to exit or the episode's timeout; its whole process tree is stopped either way. The report has its exit
        code or timeout and the tool calls the gateway saw."""
        assert episode.gateway_url, "a command agent needs the gateway served over HTTP"
        workdir = (episode.workdir or Path(tempfile.mkdtemp(prefix="clawgym-run-"))).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="clawgym-agent-")).resolve()
        root = scratch.parent / f"{scratch.name}.root"  # where `unshare` builds its file system (empty outside)
        root.mkdir(mode=0o700)
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
            process, info = self._spawn(episode, env, scratch, workdir)
            if self.host_user and (closed := closed_to_agent([self.cwd, *interpreter_folders()])):
                with (workdir / "agent.log").open("a") as log:  # said before the agent's own output
                    log.write(
                        f"[the agent runs as uid {NOBODY}, which cannot open {', '.join(map(str, closed))} "
                        "(only its owner may): run it from a folder others can read]\n"
                    )
            copier = LogCopier(process.stdout, workdir / "agent.log")  # type: ignore[arg-type]  # stdout is a pipe: the process was started with stdout=PIPE
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
            shutil.rmtree(root, ignore_errors=True)
        report.exit_code = process.returncode
        report.duration_s = time.perf_counter() - started
        if report.timed_out:
            report.errors.append(f"stopped after the {timeout:g} s timeout")
        elif report.exit_code:
            report.errors.append(f"{describe_exit(report.exit_code)}; see {workdir / 'agent.log'}")
        report.tool_calls = sum(1 for e in episode.trace.entries if e["method"] == "tools/call")
        return report

    def _spawn(
        self, episode: Episode, env: dict[str, str], scratch: Path, workdir: Path
    ) -> tuple[subprocess.Popen[bytes], SandboxInfo]:
        info = SandboxInfo()
        common: dict[str, Any] = {
            "stdin": subprocess.DEVNULL,
            "stdout": subprocess.PIPE,
            "stderr": subprocess.STDOUT,
            "start_new_session": True,
        }
        if self.isolation == "none":
            process = subprocess.Popen(reaper_command(self.command), env=env, cwd=self.cwd, **common)
            return process, info
        view, notes = self.view(episode, scratch)
        if notes:
            with (workdir / "agent.log").open("a") as log:  # said before the agent's own output
                log.writelines(f"[{note}]\n" for note in notes)
        if self.isolation == "unshare":
            argv = unshare_command(
                self.command, view=view, root=scratch.parent / f"{scratch.name}.root", host_user=self.host_user
            )
            process = subprocess.Popen(argv, env=env, cwd="/", **common)
            info.start_child_of(process.pid)
            return process, info
        read_end, write_end = os.pipe()
        argv = bwrap_command(self.command, view=view, env=env, info_fd=write_end, host_user=self.host_user)
        try:
            argv, args_fd = bwrap_through_fd(argv, self.host_user)
        except BaseException:
            os.close(write_end)
            os.close(read_end)
            raise
        try:
            process = subprocess.Popen(
                argv, env={"PATH": os.environ.get("PATH", os.defpath)}, cwd="/", pass_fds=(write_end, args_fd), **common
            )
        finally:
            os.close(write_end)
            os.close(args_fd)
        info.start(read_end)
        return process, info
