"""Threat: the agent searches the whole file system for its answer: the scenario's checks and reference solution,
the committed release, an earlier run's record beside its working folder, a second checkout, ClawGym's generator
(which rebuilds a generated task's reference solution from its id), `import orchestrator`.

The sandbox is an allow-list: none of these exists for the agent, under bwrap and under unshare alike, whether it
is started from the checkout (`python tests/security/agents/search_disk.py`) or from a folder of its own."""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, TRAVEL_PATH
from hostile import TIER, requires_bwrap, run_agent

pytestmark = [requires_bwrap, pytest.mark.slow]

AGENT = ROOT / "tests" / "security" / "agents" / "search_disk.py"
EARLIER = "EARLIER-RUN-EXPECTED-ROW-4f1c9b"


def needles(scenario: Path) -> list[str]:
    """Lines of the scenario's checks, forbids and reference solution that its task text does not hold."""
    data = yaml.safe_load(scenario.read_text())
    task = data["instruction"]
    start = scenario.read_text().index("\nstages:")
    lines = {line.strip().lstrip("- ").strip() for line in scenario.read_text()[start:].splitlines()}
    found = sorted(line for line in lines if len(line) >= 24 and line not in task)
    assert len(found) > 20
    return [*found, EARLIER]


@pytest.fixture
def disk() -> Iterator[Path]:
    """Beside the agent's own folder: an earlier run's record and a second checkout with its release and scenarios."""
    folder = Path(tempfile.mkdtemp(prefix="clawgym-disk-", dir="/var/tmp"))
    folder.chmod(0o755)
    (folder / "agent").mkdir()
    earlier = folder / "earlier-run" / "episode-001"
    earlier.mkdir(parents=True)
    (earlier.parent / "results.json").write_text(json.dumps({"expected": EARLIER}))
    (earlier / "results.json").write_text(json.dumps({"expected": EARLIER}))
    second = folder / "second-checkout"
    shutil.copytree(ROOT / "scenarios", second / "scenarios")
    shutil.copytree(ROOT / "releases", second / "releases")
    (second / "orchestrator" / "generate").mkdir(parents=True)
    (second / "orchestrator" / "__init__.py").write_text("")
    shutil.copy(ROOT / "pyproject.toml", second / "pyproject.toml")
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def search(out: Path, cwd: Path, agent: Path) -> str:
    arg = base64.b64encode(json.dumps(needles(TRAVEL_PATH)).encode()).decode()
    decode = "import base64,sys; open(sys.argv[2],'w').write(base64.b64decode(sys.argv[1]).decode())"
    command = f'python -c "{decode}" {arg} "$TMPDIR/needles.json" && python {agent} "$TMPDIR/needles.json"'
    run = run_agent(out, command, cwd=cwd)
    assert run.result["episode"]["isolation"] == TIER
    assert "SEARCHED" in run.log and "STOPPED early" not in run.log, run.log[-3000:]
    return run.log


def assert_nothing_found(log: str) -> None:
    files = int(log.split("SEARCHED", 1)[1].split()[0])
    assert files > 10_000, log[-2000:]  # it did search: the system's folders are there
    found = [line for line in log.splitlines() if line.startswith(("PATH ", "TEXT "))]
    assert found == [], "\n".join(found[:20])
    assert "IMPORT failed" in log and "GENERATE failed" in log


def test_an_agent_started_from_the_checkout_finds_nothing(tmp_path: Path, disk: Path) -> None:
    log = search(tmp_path / "out", ROOT, AGENT.relative_to(ROOT))
    assert_nothing_found(log)
    assert "the working directory" in log and "is not shown" in log  # the checkout: only the named script


def test_an_agent_in_a_folder_of_its_own_finds_nothing(tmp_path: Path, disk: Path) -> None:
    own = disk / "agent"
    shutil.copy(AGENT, own / "search_disk.py")
    (own / "search_disk.py").chmod(0o644)
    log = search(disk / "agent-run", own, Path("search_disk.py"))  # this run's record lands beside it too
    assert_nothing_found(log)
    assert "is not shown" not in log  # its own folder is shown whole


def test_the_search_finds_what_is_there_on_the_host(disk: Path) -> None:
    """The control: the same tests on the host's own paths find the checkout, the release, the earlier run."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("search_disk", AGENT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path in [
        ROOT / "releases" / "v2" / "tasks.jsonl.gz",
        ROOT / "scenarios" / "travel.yaml",
        disk / "earlier-run" / "results.json",
        ROOT / "orchestrator" / "generate" / "families" / "travel.py",
    ]:
        assert module.name_gives_away(str(path)), path
    text = module.read(str(disk / "second-checkout" / "scenarios" / "travel.yaml"))
    assert any(needle in text for needle in needles(TRAVEL_PATH))
    assert EARLIER in module.read(str(disk / "earlier-run" / "results.json"))
    assert os.path.exists(disk / "second-checkout" / "releases" / "v2" / "tasks.jsonl.gz")
