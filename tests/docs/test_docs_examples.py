"""Every Python example of the README and the docs runs, as a user runs it: saved as a file and started with
`python FILE` from the repository's root, it must exit 0.

A fence's options (`` ```python marks="ray" requires="ray" ``) say what an example needs:

- `marks`: pytest markers besides `slow` (every example starts an interpreter and imports the orchestrator, so each
  is marked `slow`): `ray`, `docker`, `e2e`.
- `requires`: a module of an optional extra; the example is skipped without it, unless `CI` is set.
- `needs`: something running that the example talks to, which the test starts and whose address it puts where the
  example names the usual one: `serve-env` (`orchestrator serve-env scenarios/travel.yaml`, at
  `http://127.0.0.1:8000/t/TOKEN`), `model` (an OpenAI-compatible model server that answers without calling a tool,
  at `http://127.0.0.1:8001/v1`), `exported-tasks` (run in a folder where `orchestrator export-tasks` wrote the
  library as `tasks-train` and `tasks.jsonl`).
A shell block runs only when its fence says `run="MARK"` (`` ```bash run="e2e" ``): its lines go to `bash -e` with
the venv first on `PATH`, in an empty folder that links the checkout's `scenarios/` and `examples/`, marked MARK;
the other shell blocks are checked by test_docs_commands.py (every command and option they name exists).

- `excerpt`: the block shows part of a source file (named by the option) and is not run; every line of its code
  (comments and lines with `...` aside) must be in that file, so the excerpt cannot drift from the code.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest
from docpages import ROOT, Block, all_blocks

PYTHON = [block for block in all_blocks() if block.language in ("python", "py")]
KNOWN_OPTIONS = {"marks", "requires", "needs", "excerpt"}
RUN_SHELL = [block for block in all_blocks() if block.language in ("bash", "sh", "") and "run" in block.options]
SERVE_ENV_URL = "http://127.0.0.1:8000/t/TOKEN"
MODEL_URL = "http://127.0.0.1:8001/v1"


def params() -> list:
    out = []
    for block in PYTHON:
        marks = [pytest.mark.slow] if "excerpt" not in block.options else []
        marks += [getattr(pytest.mark, m.strip()) for m in block.options.get("marks", "").split(",") if m.strip()]
        out.append(pytest.param(block, id=block.name, marks=marks))
    return out


def test_there_are_examples_and_their_options_are_known() -> None:
    assert len(PYTHON) >= 8, [b.name for b in PYTHON]
    for block in PYTHON:
        unknown = set(block.options) - KNOWN_OPTIONS
        assert not unknown, f"{block.name}: unknown fence options {unknown} (known: {sorted(KNOWN_OPTIONS)})"


def code_lines(source: str) -> list[str]:
    """The code of `source`, a line each: comments cut, whitespace collapsed, blank and `...` lines left out."""
    lines = []
    for line in source.splitlines():
        code = re.sub(r"\s+#.*$|^\s*#.*$", "", line)
        code = " ".join(code.split())
        if code and "..." not in code:
            lines.append(code)
    return lines


@pytest.mark.parametrize("block", [p for p in params() if "excerpt" in p.values[0].options])
def test_an_excerpt_is_in_its_file(block: Block) -> None:
    path = ROOT / block.options["excerpt"]
    assert path.is_file(), f"{block.name}: excerpt of {path}, which does not exist"
    source = "\n".join(code_lines(path.read_text()))
    missing = [line for line in code_lines(block.source) if line not in source]
    assert not missing, f"{block.name}: these lines are not in {block.options['excerpt']}: {missing}"


def installed(module: str) -> bool:
    """Whether a fresh interpreter imports `module` (this process's path has tests/, which holds folders so named)."""
    probe = subprocess.run([sys.executable, "-c", f"import {module}"], cwd="/", capture_output=True, timeout=120)
    return probe.returncode == 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve_env() -> Iterator[str]:
    """`orchestrator serve-env scenarios/travel.yaml` on a free port; its base URL."""
    port, token = free_port(), secrets.token_urlsafe(24)
    command = [str(Path(sys.executable).parent / "orchestrator"), "serve-env", "scenarios/travel.yaml"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--token", token], cwd=ROOT, start_new_session=True, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"serve-env exited: {process.stderr.read().decode()[-2000:]}"
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "serve-env did not listen within 60 s"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/t/{token}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        process.stderr.close()


@contextmanager
def model_server() -> Iterator[str]:
    """An OpenAI-compatible model on 127.0.0.1 that answers in text at once; its base URL (`…/v1`)."""
    sys.path.insert(0, str(ROOT / "tests" / "agents"))
    from fake_model import FakeModel, Served

    with Served(FakeModel([])) as served:
        yield served.url


def exported_tasks(folder: Path) -> None:
    """The library written by `orchestrator export-tasks` into `folder`, as the docs' commands write a set."""
    orchestrator = str(Path(sys.executable).parent / "orchestrator")
    for extra in ([], ["--format", "jsonl"]):
        out = "tasks.jsonl" if extra else "tasks-train"
        command = [orchestrator, "export-tasks", str(ROOT / "scenarios"), *extra, "--out", out]
        subprocess.run(command, cwd=folder, check=True, capture_output=True, timeout=300)


@pytest.mark.parametrize("block", [p for p in params() if "excerpt" not in p.values[0].options])
def test_the_example_runs(block: Block, tmp_path: Path) -> None:
    required = block.options.get("requires")
    if required and not installed(required):
        if os.environ.get("CI"):
            pytest.fail(f"{block.name} needs {required}, which CI installs")
        pytest.skip(f"{block.name} needs {required} (an optional extra)")
    source, cwd = block.source, ROOT
    env = {**os.environ, "OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "not-a-real-key")}
    needs = block.options.get("needs")
    running = {"serve-env": serve_env, "model": model_server}.get(needs or "", nullcontext)
    with running() as url:
        if needs == "serve-env":
            assert SERVE_ENV_URL in source, f"{block.name} names no {SERVE_ENV_URL} to talk to"
            source = source.replace(SERVE_ENV_URL, url)
        elif needs == "model":
            assert MODEL_URL in source, f"{block.name} names no {MODEL_URL} to talk to"
            source = source.replace(MODEL_URL, url)
        elif needs == "exported-tasks":
            exported_tasks(tmp_path)
            cwd = tmp_path
        elif needs:
            pytest.fail(f"{block.name}: unknown needs={needs!r}")
        script = tmp_path / f"example_{block.line}.py"
        script.write_text(source)
        command = [sys.executable, str(script)]
        run = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{block.name} exited {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"


def test_some_shell_blocks_run() -> None:
    assert RUN_SHELL, "no shell block says run=...: the quick walk-through of docs/getting-started.md runs"


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=b.name, marks=getattr(pytest.mark, b.options["run"])) for b in RUN_SHELL]
)
def test_the_shell_block_runs(block: Block, tmp_path: Path) -> None:
    for folder in ("scenarios", "examples"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = ["bash", "-euo", "pipefail", "-c", block.source]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{block.name} exited {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
