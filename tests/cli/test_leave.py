"""How the `orchestrator` script leaves (`orchestrator.cli.leave`): the exit status `sys.exit` would give, the exit
handlers run and the output flushed, without the interpreter's teardown; a running thread is still waited for."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT


def script(body: str) -> subprocess.CompletedProcess[str]:
    code = "import atexit, sys, threading, time\nfrom orchestrator.cli import leave\n" + body
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("code", "status"), [("None", 0), ("0", 0), ("3", 3), ("'no such file'", 1)])
def test_the_status_is_sys_exits(code: str, status: int) -> None:
    done = script(f"leave({code})")
    assert done.returncode == status
    assert done.stderr == ("no such file\n" if status == 1 else "")


def test_exit_handlers_run_and_buffered_output_is_flushed() -> None:
    done = script(
        "atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
        "sys.stdout.write('x' * 100000)\n"  # buffered: a pipe is not a terminal
        "leave(0)\nprint('never')"
    )
    assert done.returncode == 0 and done.stdout == "x" * 100000 and done.stderr == "handler ran\n"


def test_a_running_thread_is_waited_for() -> None:
    done = script(
        "def late():\n    time.sleep(0.3)\n    print('thread done', flush=True)\n"
        "threading.Thread(target=late).start()\nleave(4)"
    )
    assert done.returncode == 4 and done.stdout == "thread done\n"


def test_the_cli_leaves_with_its_commands_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "run", "no-such.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "no-such.yaml" in done.stderr
