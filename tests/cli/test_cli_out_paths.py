"""Where a command writes (`--out`, `report --html/--md`) must be a place for files: a path under /proc, /sys or
/dev, a FIFO, a device, a file where a folder is wanted (or the reverse), or a path under a file is refused at once
with exit 2 naming the option and the path, where it was a traceback half way (or a write into a device). A folder
or file that does not exist yet, /dev/shm and `--md -` still work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app

FOLDER_COMMANDS = {
    "run": ["run", str(TRAVEL_PATH), "--backend", "inprocess", "--out"],
    "generate": ["generate", "travel", "--count", "1", "--out"],
    "inject": ["inject", str(TRAVEL_PATH), "--out"],
    "serve": ["serve", str(TRAVEL_PATH), "--transport", "http", "--out"],
    "config claude-desktop": ["config", "claude-desktop", str(TRAVEL_PATH), "--out"],
}
FILE_COMMANDS = {
    "export": ["export", str(ROOT / "runs-that-need-not-exist"), "--out"],
    "report --html": ["report", str(ROOT / "runs-that-need-not-exist"), "--html"],
    "report --md": ["report", str(ROOT / "runs-that-need-not-exist"), "--md"],
}
EITHER = {"export-tasks": ["export-tasks", str(TRAVEL_PATH), "--format", "jsonl", "--out"]}


def invoke(args: list[str]):  # noqa: ANN201
    return CliRunner().invoke(app, args, env={"COLUMNS": "400"})


def assert_refused(result, option: str, path: str, why: str) -> None:  # noqa: ANN001
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    text = " ".join(result.output.split())
    assert f"Invalid value for '{option}'" in text and path in text and why in text, text


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    return {
        "fifo": str(fifo),
        "file": str(tmp_path / "a-file"),
        "folder": str(tmp_path / "a-folder"),
        "under-file": str(tmp_path / "a-file" / "x"),
    }


@pytest.mark.parametrize("command", [*FOLDER_COMMANDS, *FILE_COMMANDS, *EITHER])
@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/proc/self/x", "under /proc"),
        ("/proc/self/fd/1", "under /proc"),
        ("/sys/kernel/x", "under /sys"),
        ("/dev/null", "under /dev"),
    ],
)
def test_kernel_folders_are_refused(command: str, path: str, why: str) -> None:
    args = {**FOLDER_COMMANDS, **FILE_COMMANDS, **EITHER}[command]
    assert_refused(invoke([*args, path]), args[-1], path, why)


def test_a_symlink_into_proc_is_refused(tmp_path: Path) -> None:
    (tmp_path / "innocent").symlink_to("/proc/self")
    path = str(tmp_path / "innocent" / "x")
    assert_refused(invoke([*FOLDER_COMMANDS["run"], path]), "--out", path, "under /proc")


@pytest.mark.parametrize("command", FOLDER_COMMANDS)
def test_a_folder_option_refuses_files_fifos_and_paths_under_a_file(command: str, places: dict[str, str]) -> None:
    args = FOLDER_COMMANDS[command]
    assert_refused(invoke([*args, places["file"]]), "--out", places["file"], "is a file; expected a folder")
    assert_refused(invoke([*args, places["fifo"]]), "--out", places["fifo"], "is a FIFO; expected a folder")
    assert_refused(invoke([*args, places["under-file"]]), "--out", places["under-file"], "is not a folder")


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_file_option_refuses_folders_and_fifos(command: str, places: dict[str, str]) -> None:
    args = FILE_COMMANDS[command]
    assert_refused(invoke([*args, places["folder"]]), args[-1], places["folder"], "is a folder; expected a file")
    assert_refused(invoke([*args, places["fifo"]]), args[-1], places["fifo"], "is a FIFO; expected a file")


def test_export_tasks_refuses_a_fifo(places: dict[str, str]) -> None:
    assert_refused(invoke([*EITHER["export-tasks"], places["fifo"]]), "--out", places["fifo"], "is a FIFO")


def test_new_paths_dev_shm_and_stdout_still_work(tmp_path: Path) -> None:
    done = invoke([*FOLDER_COMMANDS["run"], str(tmp_path / "new" / "run")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "new" / "run" / "results.json").is_file()
    listing = invoke(["report", str(tmp_path / "new"), "--md", "-"])
    assert listing.exit_code == 0 and "travel-berlin-offsite" in listing.stdout
    if Path("/dev/shm").is_dir() and os.access("/dev/shm", os.W_OK):
        target = Path("/dev/shm") / f"clawgym-test-{os.getpid()}.md"
        try:
            assert invoke(["report", str(tmp_path / "new"), "--md", str(target)]).exit_code == 0
            assert "travel-berlin-offsite" in target.read_text()
        finally:
            target.unlink(missing_ok=True)
