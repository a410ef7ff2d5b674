"""What a `cmd:` agent's file system shows (`isolation.View`): an allow-list, and the tests that keep ClawGym out of it.

Shown, read-only: the interpreter the orchestrator runs on (its venv and the installation it was made from) with
ClawGym's own packages covered, and the agent's program: its working directory when that holds nothing of ClawGym's,
else only the files its command names there (`python examples/agent.py` from a checkout shows `examples/agent.py`),
and a script it names elsewhere (`python /path/agent.py`). Never shown, wherever it is: a ClawGym checkout or
installed package, a scenario file, a run record (`results.json` and its episode folders), a generation root
(`tasks.jsonl`), a release, the record key. A path is judged by what it is and holds, not by its name alone.

May import `orchestrator.agents.isolation` only (and the standard library).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import re
import shlex
from collections.abc import Iterable
from pathlib import Path

from orchestrator.agents.isolation import SYSTEM_DIRS, View, _within

PACKAGES = ("orchestrator", "servers")
"""ClawGym's top-level packages: covered wherever the agent's interpreter would find them."""
RECORD_FILES = frozenset({"results.json", "tasks.jsonl", "tasks.jsonl.gz", "record.key", "suite.json", "repeat.json"})
"""Files that make their folder a run record, a generation root or a release."""
CHECKOUT_PARTS = ("orchestrator", "servers", "scenarios", "releases", "runs", ".git", "benchmarks", "images")
SCENARIO_KEYS = re.compile(rb"^(?:oracle|stages|forbid|checks)\s*:|\"oracle\"\s*:", re.MULTILINE)
PROGRAM_SUFFIXES = frozenset({".py", ".sh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl"})
SCAN_LIMIT = 4000
"""Entries a shown folder may hold; a larger one is not shown whole (its named files are)."""
SCAN_SKIP = frozenset({"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"})
READ_LIMIT = 1 << 20


def installed_packages() -> list[Path]:
    """Where ClawGym's packages and its distribution's metadata are installed (a checkout, site-packages, both)."""
    found: set[Path] = set()
    for name in PACKAGES:
        with contextlib.suppress(ImportError, ValueError):
            spec = importlib.util.find_spec(name)
            for location in (spec.submodule_search_locations or []) if spec else []:
                found.add(Path(location).resolve())
    with contextlib.suppress(importlib.metadata.PackageNotFoundError):
        dist = importlib.metadata.distribution("clawgym")
        meta = getattr(dist, "_path", None)
        if meta is not None:
            found.add(Path(meta).resolve())
    return sorted(found)


def editable_hooks(folders: Iterable[Path]) -> list[Path]:
    """The `.pth` files and import finders of an editable install in the site-packages under `folders`: they name the
    checkout (absent from the view, but no need to say where it is)."""
    hooks: set[Path] = set()
    for folder in folders:
        for site in folder.glob("lib/python*/site-packages"):
            hooks.update(p for p in site.glob("*clawgym*") if p.is_file())
    return sorted(hooks)


def is_checkout(folder: Path) -> bool:
    """Whether `folder` is a ClawGym checkout (or an unpacked source tree)."""
    return (folder / "orchestrator" / "__init__.py").is_file() and (
        (folder / "pyproject.toml").is_file() or (folder / "scenarios").is_dir()
    )


def is_package(folder: Path) -> bool:
    """Whether `folder` is ClawGym's orchestrator package (installed or in a checkout)."""
    return folder.name == "orchestrator" and (folder / "__init__.py").is_file() and (folder / "generate").is_dir()


def _scenario_text(file: Path) -> bool:
    if file.suffix not in (".yaml", ".yml", ".json", ".jsonl", ".gz"):
        return False
    try:
        with file.open("rb") as stream:
            head = stream.read(READ_LIMIT)
    except OSError:
        return True  # unreadable to us: not shown
    if file.suffix == ".gz":
        return True
    return bool(SCENARIO_KEYS.search(head))


def file_problem(file: Path) -> str | None:
    """Why the file `file` is ClawGym's (a scenario, a record, a release, in a checkout's parts or a record's
    folder), or None."""
    if file.name in RECORD_FILES:
        return "a run record or release file"
    if _scenario_text(file):
        return "a scenario, release or record file"
    for folder in list(file.parents)[:4]:
        if any((folder / name).exists() for name in RECORD_FILES):
            return f"inside {folder}, a run record, generation root or release"
    for folder in file.parents:
        if is_checkout(folder):
            part = file.relative_to(folder).parts[0]
            return f"in {part}/ of the ClawGym checkout {folder}" if part in CHECKOUT_PARTS else None
        if is_package(folder):
            return f"inside ClawGym's package {folder}"
    return None


def folder_problem(folder: Path, limit: int = SCAN_LIMIT) -> str | None:
    """Why the folder `folder` may not be shown whole (it is in or holds something of ClawGym's, or is too large to
    tell), or None."""
    if problem := file_problem(folder / "_"):
        return problem
    if is_checkout(folder) or is_package(folder):
        return f"{folder} is ClawGym's"
    seen = 0
    for here, dirs, files in os.walk(folder, onerror=None, followlinks=False):
        at = Path(here)
        dirs[:] = [d for d in dirs if d not in SCAN_SKIP]
        seen += len(dirs) + len(files)
        if seen > limit:
            return f"{folder} holds more than {limit} entries"
        if is_checkout(at) or is_package(at):
            return f"{at} is ClawGym's"
        for name in files:
            if name in RECORD_FILES or _scenario_text(at / name):
                return f"{at / name} is a scenario, release or record file"
    return None


def named_paths(command: str, cwd: Path) -> list[Path]:
    """The existing paths `command` names (its words, relative to `cwd` unless absolute)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)  # `a.py;` and `a.py&&` name `a.py`
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        words = command.split()
    found = []
    for word in words:
        if not word or word.startswith("-") or "=" in word.split("/", 1)[0]:
            continue
        path = Path(word) if word.startswith("/") else cwd / word
        with contextlib.suppress(OSError, RuntimeError):
            if path.exists():
                found.append(path.resolve())
    return found


def _program(path: Path) -> bool:
    return path.is_file() and (path.suffix in PROGRAM_SUFFIXES or os.access(path, os.X_OK))


def agent_view(
    command: str,
    *,
    cwd: Path,
    scratch: Path,
    interpreter: Iterable[Path],
    forbidden: Iterable[Path] = (),
) -> tuple[View, list[str]]:
    """(the agent's view, notes for its log). `forbidden` are this run's own places (the scenario's folder, the run
    folder, the record key's folder …): nothing in or holding one is shown, whatever the tests above say."""
    forbidden = [Path(p) for p in forbidden if Path(p).exists()]
    packages = installed_packages()
    barred = [*forbidden, *packages]

    def problem(path: Path) -> str | None:
        for place in barred:
            if _within(path, place):
                return f"inside {place}"
            if path.is_dir() and _within(place, path):
                return f"holds {place}"
        return folder_problem(path) if path.is_dir() else file_problem(path)

    notes: list[str] = []
    shown = [Path(p) for p in interpreter]
    system = [*SYSTEM_DIRS, *shown]
    cwd_problem = problem(cwd)
    if cwd_problem is None:
        shown.append(cwd)
    else:
        notes.append(f"the working directory {cwd} is not shown ({cwd_problem}): only the files the command names")
    for path in named_paths(command, cwd):
        if any(_within(path, folder) for folder in [*system, *shown]):
            continue
        inside = _within(path, cwd)
        if not inside and not _program(path):
            continue  # outside its working directory, only a program it runs is the agent's
        if why := problem(path):
            notes.append(f"{path} is not shown ({why})")
            continue
        shown.append(path)
    covers = [p for p in packages if p.is_dir() and any(_within(p, s) for s in shown)]
    blanks = [*(p for p in packages if p.is_file()), *editable_hooks(interpreter)]
    view = View(cwd=cwd, scratch=scratch, read_only=tuple(shown), covers=tuple(covers), blanks=tuple(blanks))
    return view, notes
