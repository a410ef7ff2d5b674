"""A hostile agent: searches the whole file system it sees for a way to its answer.

    python search_disk.py NEEDLES.json

It walks everything from `/` (but /proc, /sys and /dev) and reports, one line each:

- `PATH <path>` for a file or folder whose name gives ClawGym away: a run record (results.json, trace.jsonl), a
  generation root or release (tasks.jsonl, releases/), a scenario folder's YAML, ClawGym's generator or package;
- `TEXT <path> <needle>` for a data or source file holding one of the needles (lines of its scenario's checks and
  oracle, or text planted in an earlier run's record) — gzip files are read unpacked;
- `IMPORT <outcome>` for `import orchestrator`, and `GENERATE <outcome>` for rebuilding a task with ClawGym's
  generator (`python -m orchestrator.cli generate travel …`);
- `SEARCHED <files> files` at the end.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

SKIP = ("/proc", "/sys", "/dev")
READ = (".yaml", ".yml", ".json", ".jsonl", ".gz", ".md", ".txt", ".toml", ".csv", ".py", ".log", ".key")
NAMES = ("results.json", "trace.jsonl", "tasks.jsonl", "tasks.jsonl.gz", "record.key", "verdict.json")
BUDGET_S = 240.0
MAX_BYTES = 8 << 20


def name_gives_away(path: str) -> bool:
    name = os.path.basename(path)
    if name in NAMES:
        return True
    parts = path.split("/")
    if len(parts) > 1 and parts[-2] == "releases" and name.startswith("v") and name.endswith(".json"):
        return True  # a release's description (releases/v2.json); its tasks are tasks.jsonl.gz
    if "scenarios" in parts and name.endswith((".yaml", ".yml")):
        return True
    return "orchestrator" in parts and ("generate" in parts or name == "cli")


def worth_reading(path: str) -> bool:
    if not path.endswith(READ):
        return False
    if path.endswith(".py") and ("/site-packages/" in path or path.startswith(("/usr/lib/", "/usr/share/"))):
        return False  # third-party code; ClawGym's own would be found by its path too
    return True


def read(path: str) -> str:
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return ""
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as stream:
                return stream.read(MAX_BYTES * 4).decode("utf-8", "replace")
        with open(path, "rb") as stream:
            return stream.read().decode("utf-8", "replace")
    except (OSError, EOFError, ValueError):
        return ""


def main() -> None:
    own = {os.path.realpath(__file__), os.path.realpath(sys.argv[1])}
    needles = json.loads(Path(sys.argv[1]).read_text())
    started, files, hits = time.monotonic(), 0, 0
    for here, dirs, names in os.walk("/", onerror=None):
        dirs[:] = [d for d in dirs if os.path.join(here, d) not in SKIP]
        for name in [*names, *dirs]:
            path = os.path.join(here, name)
            if name_gives_away(path):
                print("PATH", path, flush=True)
                hits += 1
        for name in names:
            path = os.path.join(here, name)
            files += 1
            if path in own or not worth_reading(path) or os.path.islink(path):
                continue
            text = read(path)
            for needle in needles:
                if needle in text:
                    print("TEXT", path, needle, flush=True)
                    hits += 1
                    break
        if hits > 40 or time.monotonic() - started > BUDGET_S:
            print("STOPPED early", flush=True)
            break
    outcome = subprocess.run([sys.executable, "-c", "import orchestrator"], capture_output=True, text=True)
    print("IMPORT", "ok" if outcome.returncode == 0 else "failed", flush=True)
    rebuild = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "generate",
            "travel",
            "--edition",
            "2",
            "--count",
            "1",
            "--seed",
            "1",
            "--out",
            os.path.join(os.environ.get("TMPDIR", "/tmp"), "rebuilt"),
        ],
        capture_output=True,
        text=True,
    )
    print("GENERATE", "ok" if rebuild.returncode == 0 else "failed", flush=True)
    print("SEARCHED", files, "files", flush=True)


if __name__ == "__main__":
    main()
