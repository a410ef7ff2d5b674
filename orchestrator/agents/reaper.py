"""`python -I reaper.py COMMAND...`: runs COMMAND as a child subreaper's child and leaves no descendant behind.

The `none` tier's guarantee that nothing the agent starts outlives it: this process marks itself a child subreaper
(`prctl(PR_SET_CHILD_SUBREAPER)`), so every orphan of the agent's tree (a `setsid` or double-forked child) becomes its
child instead of init's; when COMMAND exits, or SIGTERM asks it to stop (passed on to COMMAND, then SIGKILL after
`GRACE_S`), it kills its children until it has none, and exits with COMMAND's status. An agent running as the same
user can still kill it first: `none` holds against accidents, not against an adversary.

Runs with `-I` from its own file: it imports the standard library only.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
GRACE_S = 2.0


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
    return found


def sweep() -> None:
    """Kill and reap every descendant: each killed child's own children become ours, so repeat until none is left."""
    me = os.getpid()
    while True:
        kids = children(me)
        for kid in kids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(kid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            if not kids:
                return
        if kids:
            time.sleep(0.01)


def main(argv: list[str]) -> int:
    """Run `argv`, wait for it, sweep its leftovers, and return its exit status as a shell would."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    deadline: list[float] = []

    def stop(_signo: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline.append(time.monotonic() + GRACE_S)

    signal.signal(signal.SIGTERM, stop)
    status = 0
    while True:
        if deadline and time.monotonic() > deadline[0]:
            sweep()
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            break
        if done == pid:
            break
        time.sleep(0.02)
    sweep()
    return os.waitstatus_to_exitcode(status) if status else 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.exit(128 - code if code < 0 else code)
