"""Threat: a scenario pack (downloaded, generated, or written by someone else) built to hurt whoever loads it: a
YAML alias bomb or deep nesting that eats gigabytes or the stack, a huge file, seed paths that read files outside
the pack (`../../`, absolute paths, a symlink) and serve them to the agent through the apps' tools, and a FIFO or
device as a seed or scenario that hangs the loader or fills memory (`list DIR` included).

Each is a clear error naming the file, at once.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.cli import app
from orchestrator.scenario import yamlpaths

BOMB = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
id: bomb
"""


def problems(path: Path) -> list[str]:
    with pytest.raises(scenarios.ScenarioError) as caught:
        scenarios.load(path)
    return [str(p) for p in caught.value.problems]


def within(seconds: float, work: Any) -> Any:
    """`work()`'s value, failing the test (not hanging it) when it takes longer than `seconds`."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_an_alias_bomb_is_a_clear_error_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    started = time.perf_counter()
    found = within(10, lambda: problems(path))
    took = time.perf_counter() - started
    assert took < 1.0, f"took {took:.2f} s"
    assert len(found) == 1 and "aliases" in found[0] and "1,000,000" in found[0] and str(path) in found[0], found


def test_an_alias_that_contains_itself_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("id: x\napps: &a {calendar: *a}\n")
    assert any("refers to a value that contains it" in p for p in within(10, lambda: problems(path)))


@pytest.mark.parametrize("text", ["[" * 100_000, "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 2_000))])
def test_deep_nesting_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    found = within(10, lambda: problems(path))
    assert len(found) == 1 and "nested more than 100 levels deep" in found[0], found


def test_a_huge_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w") as out:
        out.write("id: huge\nnotes: '")
        out.write("x" * (yamlpaths.MAX_FILE_BYTES + 10))
        out.write("'\n")
    found = within(10, lambda: problems(path))
    assert len(found) == 1 and f"larger than {yamlpaths.MAX_FILE_BYTES:,} bytes" in found[0], found


def with_seed(tmp_path: Path, seed: str) -> Path:
    """The travel scenario, written into `tmp_path/pack/`, with the calendar seeded from the file `seed`."""
    data = yaml.safe_load(TRAVEL_PATH.read_text())
    data["apps"]["calendar"] = seed
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    path = pack / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize(
    "seed", ["../secret.yaml", "../../../../../../../../etc/hostname", "/etc/hostname", "seeds/../../secret.yaml"]
)
def test_seed_paths_outside_the_scenarios_folder_are_refused(tmp_path: Path, seed: str) -> None:
    (tmp_path / "secret.yaml").write_text(
        "events: [{id: secret, title: The answer, start: '2026-03-02T09:00', end: '2026-03-02T10:00'}]\n"
    )
    found = problems(with_seed(tmp_path, seed))
    assert any(f"seed file {seed}: must be a path relative to the scenario's folder" in p for p in found), found


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("events: []\n")
    path = with_seed(tmp_path, "seeds/cal.yaml")
    (path.parent / "seeds").mkdir()
    (path.parent / "seeds" / "cal.yaml").symlink_to(tmp_path / "secret.yaml")
    assert any("inside it" in p for p in problems(path))


def test_a_seed_inside_the_folder_still_loads(tmp_path: Path) -> None:
    path = with_seed(tmp_path, "seeds/cal.yaml")
    (path.parent / "seeds").mkdir()
    (path.parent / "seeds" / "cal.yaml").write_text("events: []\n")
    assert scenarios.load(path).apps["calendar"] == {"events": []}


def test_a_device_or_fifo_as_a_seed_is_refused_at_once(tmp_path: Path) -> None:
    path = with_seed(tmp_path, "seeds/cal.yaml")
    (path.parent / "seeds").mkdir()
    os.mkfifo(path.parent / "seeds" / "cal.yaml")
    assert any("is a FIFO; expected a regular file" in p for p in within(10, lambda: problems(path)))
    (path.parent / "seeds" / "cal.yaml").unlink()
    (path.parent / "seeds" / "cal.yaml").symlink_to("/dev/zero")
    found = within(10, lambda: problems(path))
    assert any("must be a path relative" in p for p in found), found  # resolved out of the folder
    (path.parent / "seeds" / "cal.yaml").unlink()
    with pytest.raises(yamlpaths.YamlFileError, match="is a device; expected a regular file"):
        within(10, lambda: yamlpaths.load(Path("/dev/zero")))


def test_list_does_not_hang_on_a_fifo_named_yaml(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "good.yaml").write_text(TRAVEL_PATH.read_text())
    os.mkfifo(tmp_path / "pack" / "trap.yaml")
    result = within(30, lambda: CliRunner().invoke(app, ["list", str(tmp_path / "pack"), "--json"]))
    assert "is a FIFO; expected a regular file" in result.output and "trap.yaml" in result.output, result.output


def travel_with(tmp_path: Path, start: str | None = None, instruction: str | None = None) -> Path:
    """The travel scenario (full of relative dates) with another clock start or instruction."""
    data = yaml.safe_load(TRAVEL_PATH.read_text())
    if start is not None:
        data["clock"]["start"] = start
    if instruction is not None:
        data["instruction"] = instruction
    path = tmp_path / "dates.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize(
    ("start", "instruction", "expected"),
    [
        ("9999-12-31T23:00:00+01:00", None, "is out of range: the date must stay within the years 1-9999"),
        ("0001-01-01T00:30:00+01:00", None, "clock.start: out of range in the persona's time zone"),
        (None, "Book it for {{ today +99999999999d }}.", "offset +99999999999d in"),
        (None, "Book it for {{ today +" + "9" * 5_000 + "d }}.", "is too large: the date must stay within"),
        (None, "Book it for {{ today -3000000d }}.", "is out of range"),
    ],
    ids=["year-9999", "year-1", "huge-offset", "5000-digit-offset", "offset-before-year-1"],
)
def test_dates_off_the_calendar_are_clear_errors(tmp_path: Path, start: str, instruction: str, expected: str) -> None:
    found = problems(travel_with(tmp_path, start, instruction))
    assert any(expected in p for p in found), found


def test_an_app_servers_seed_file_is_a_regular_file(tmp_path: Path) -> None:
    """`python -m servers.<app> --seed FILE` refuses a FIFO or a device at once instead of hanging or filling memory."""
    from servers.core.cli import load_spec

    os.mkfifo(tmp_path / "seed.yaml")
    for path in (tmp_path / "seed.yaml", Path("/dev/zero")):
        with pytest.raises(SystemExit, match="is not a regular file"):
            within(10, lambda path=path: load_spec(path))
    (tmp_path / "ok.yaml").write_text("{}\n")
    assert load_spec(tmp_path / "ok.yaml") is not None
