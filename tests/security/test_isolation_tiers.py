"""Threat: on a machine without bubblewrap (the README's quick start installs none), the hostile agent reads the
scenario, other runs and episodes, server tokens and sibling gateways' URLs, and forges the verdict.

The `unshare` tier (util-linux only) must stop the same attacks bwrap stops; each test runs the attack under it
(and under bwrap where the attack is new) with the same agent under `none` as the control that shows it is real.
`auto` takes unshare when bwrap is missing or does not work, and says loudly when neither does."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from hostile import ORCHESTRATOR, marker, processes_matching, requires_bwrap, run_agent, wait_until
from test_agent_forges_results import forger

from orchestrator.agents.isolation import NOBODY, unshare_problem

requires_unshare = pytest.mark.skipif(
    unshare_problem() is not None and not os.environ.get("CLAWGYM_REQUIRE_BWRAP"),
    reason=f"util-linux unshare cannot isolate here: {unshare_problem()}",
)
TIERS = [pytest.param("unshare", marks=requires_unshare), pytest.param("bwrap", marks=requires_bwrap)]
SECRET = "oracle:"  # only the scenario file holds its reference solution
SNOOP = (
    f"cat {TRAVEL_PATH}; cat scenarios/*.yaml; git show HEAD:scenarios/travel.yaml; "
    "for p in /proc/[0-9]*; do echo \"== $p $(tr '\\0' ' ' < $p/cmdline)\"; tr '\\0' '\\n' < $p/environ; done; "
    "cat /dev/shm/clawgym-shm-*; id -u; echo attempted"
)


@pytest.fixture
def shared_memory() -> Iterator[str]:
    """A file another process left in the host's /dev/shm, readable by anyone."""
    path = Path("/dev/shm") / f"clawgym-shm-{os.getpid()}"
    path.write_text("SHM-LEFT-BY-ANOTHER-PROCESS\n")
    path.chmod(0o644)
    try:
        yield path.read_text().strip()
    finally:
        path.unlink(missing_ok=True)


@requires_unshare
def test_unshare_hides_the_scenario_its_history_and_the_servers(tmp_path: Path, shared_memory: str) -> None:
    env = os.environ | {"CLAWGYM_ADMIN_TOKEN": "orchestrator-admin-secret"}
    run = run_agent(tmp_path / "out", SNOOP, isolation="unshare", env=env)
    assert "attempted" in run.log and shared_memory not in run.log
    assert SECRET not in run.log and "stages:" not in run.log
    assert "--parent-pid" not in run.log and "orchestrator-admin-secret" not in run.log
    assert "orchestrator.cli" not in run.log  # the orchestrator's command line is not visible
    episode = run.result["episode"]
    assert episode["isolation"] == "unshare" and "untrusted" not in episode
    if os.geteuid() == 0:
        assert f"\n{NOBODY}\n" in run.log and episode["agent_uid"] == NOBODY


@pytest.mark.slow
@requires_unshare
def test_the_same_snoop_without_isolation_reads_everything(tmp_path: Path, shared_memory: str) -> None:
    """The control, which also checks that `none` is said loudly on the console and in the record."""
    env = os.environ | {"CLAWGYM_ADMIN_TOKEN": "orchestrator-admin-secret"}
    run = run_agent(tmp_path / "out", SNOOP, isolation="none", env=env)
    assert (
        shared_memory in run.log
        and SECRET in run.log
        and "--parent-pid" in run.log
        and "orchestrator-admin-secret" in run.log
    )
    assert run.result["episode"]["isolation"] == "none"
    assert "isolation none" in run.result["episode"]["untrusted"]
    warning = [line for line in run.done.stderr.splitlines() if "WITHOUT isolation" in line]
    assert len(warning) == 1 and "not to be trusted" in warning[0]


@pytest.mark.slow
@requires_unshare
def test_unshare_hides_sibling_episodes_and_the_working_directory_stays_read_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = (
        f"ls {out} {out}/episode-001; cat {out}/episode-001/results.json; echo forged > {out}/results.json; "
        "touch planted-in-cwd; echo note > $HOME/note && cat $HOME/note; ls /tmp | wc -l; echo attempted"
    )
    run = run_agent(out, command, "--repeat", "2", isolation="unshare")
    second = (out / "episode-002" / "agent.log").read_text(errors="replace")
    assert "attempted" in second and "note" in second  # its own HOME is writable
    assert '"scenario"' not in second and "episode-001\n" not in second
    assert not (ROOT / "planted-in-cwd").exists()
    assert run.result["episodes"] == 2 and "forged" not in (out / "results.json").read_text()


@pytest.mark.slow
@requires_unshare
def test_unshare_kills_a_setsid_child_and_the_verdict_is_the_verifiers(tmp_path: Path) -> None:
    out, mark = tmp_path / "out", f"forger-{marker()}"
    run = run_agent(out, forger(out, mark), isolation="unshare")
    assert "child-started" in run.log
    assert processes_matching(mark) == []
    time.sleep(2)
    assert json.loads((out / "results.json").read_text()) == run.result and run.result["checks"]
    assert not (out / "forged.json").exists()
    from orchestrator.record import verify_digest

    assert verify_digest(out) == []


@pytest.mark.slow
def test_without_isolation_no_setsid_child_outlives_the_agent(tmp_path: Path) -> None:
    """`none` still reaps: a setsid or double-forked child is killed when the agent exits, before verification."""
    out, mark = tmp_path / "out", f"forger-{marker()}"
    double = f"(sh -c 'sleep 30 # {mark}-double' &) ; "
    run = run_agent(out, double + forger(out, mark), isolation="none")
    assert "child-started" in run.log
    assert processes_matching(mark) == []  # both the setsid and the double-forked child are gone
    time.sleep(2)
    assert not (out / "forged.json").exists()
    assert json.loads((out / "results.json").read_text()) == run.result and run.result["checks"]


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder under /var/tmp, open to others like a user's own folders (out of the fresh /tmp's reach)."""
    folder = Path(tempfile.mkdtemp(prefix="clawgym-tiers-", dir="/var/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def scratch_snoop() -> str:
    """Lists the folder its own scratch folder is in and prints every gateway URL found in a sibling's MCP config."""
    return (
        'own=$(dirname "$TMPDIR"); top=$(dirname "$own"); sleep 2; ls -a "$top"; '
        'for f in "$top"/clawgym-agent-*/mcp.json; do [ "$(dirname "$f")" = "$own" ] || cat "$f"; done; echo attempted'
    )


@pytest.mark.slow
@pytest.mark.parametrize("tier", [*TIERS, "none"])
def test_sibling_scratch_is_private_whatever_tmpdir_is(tmp_path: Path, outside: Path, tier: str) -> None:
    """With `TMPDIR` other than /tmp, both episodes' scratch folders are in it (and, as root, both are uid 65534):
    one agent would read the other's gateway URL and act in its episode."""
    tmpdir = outside / "tmpdir"
    tmpdir.mkdir()
    tmpdir.chmod(tmpdir.stat().st_mode | stat.S_IRWXO | stat.S_ISVTX)
    out = tmp_path / "out"
    run_agent(
        out,
        scratch_snoop(),
        "--repeat",
        "2",
        "--parallel",
        "2",
        env=os.environ | {"TMPDIR": str(tmpdir)},
        isolation=tier,
    )
    urls = {
        e: json.loads((out / e / "results.json").read_text())["episode"]["gateway"]
        for e in ("episode-001", "episode-002")
    }
    logs = {e: (out / e / "agent.log").read_text(errors="replace") for e in urls}
    assert all("attempted" in log for log in logs.values()), logs
    leaked = urls["episode-002"] in logs["episode-001"] or urls["episode-001"] in logs["episode-002"]
    assert leaked == (tier == "none"), logs


@pytest.mark.slow
@pytest.mark.parametrize("tier", [*TIERS, "none"])
def test_the_generation_manifest_is_hidden(tmp_path: Path, outside: Path, tier: str) -> None:
    """`generate` then `run`: the generation root's `tasks.jsonl` has the parameters the checks look for."""
    root = outside / "generated"
    (root / "travel").mkdir(parents=True)
    scenario = root / "travel" / "travel-0001.yaml"
    shutil.copy(TRAVEL_PATH, scenario)
    (root / "tasks.jsonl").write_text(json.dumps({"id": "travel-0001", "parameters": {"hotel": "HOTEL-ANSWER"}}) + "\n")
    (root / "other").mkdir()
    (root / "other" / "sibling.yaml").write_text("oracle: SIBLING-ANSWER\n")
    command = f"cat {root}/tasks.jsonl {root}/other/sibling.yaml; ls {root}; echo attempted"
    run = run_agent(tmp_path / "out", command, scenario=scenario, isolation=tier)
    assert "attempted" in run.log
    hidden = "HOTEL-ANSWER" not in run.log and "SIBLING-ANSWER" not in run.log
    assert hidden == (tier != "none"), run.log


def fake_tools(folder: Path, **tools: str) -> dict[str, str]:
    """An environment whose PATH finds `tools` (name -> shell body) in `folder` before the real ones."""
    folder.mkdir()
    for name, body in tools.items():
        (folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (folder / name).chmod(0o755)
    return os.environ | {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', os.defpath)}"}


@pytest.mark.slow
@requires_unshare
def test_auto_takes_unshare_when_bwrap_does_not_work(tmp_path: Path) -> None:
    """Ubuntu's AppArmor, or no bubblewrap at all: auto falls to unshare, not to none."""
    env = fake_tools(tmp_path / "bin", bwrap="echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1")
    run = run_agent(tmp_path / "out", f"cat {TRAVEL_PATH}; echo attempted", env=env, isolation="auto")
    assert "attempted" in run.log and SECRET not in run.log
    assert run.result["episode"]["isolation"] == "unshare"
    assert "WITHOUT isolation" not in run.done.stderr
    assert "isolation: unshare" in run.done.stderr and "Permission denied" in run.done.stderr  # why not bwrap


@pytest.mark.slow
def test_when_nothing_isolates_auto_says_so_and_unshare_is_refused(tmp_path: Path) -> None:
    import subprocess

    broken = "echo 'unshare: unshare failed: Operation not permitted' >&2; exit 1"
    env = fake_tools(tmp_path / "bin", bwrap="exit 1", unshare=broken)
    refused = subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            "cmd:true",
            "--isolation",
            "unshare",
            "--out",
            str(tmp_path / "refused"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        refused.returncode == 2
        and "--isolation unshare" in refused.stderr
        and "Operation not permitted" in refused.stderr
    )
    assert not (tmp_path / "refused" / "results.json").exists()
    run = run_agent(tmp_path / "out", "echo attempted", env=env, isolation="auto")
    assert run.result["episode"]["isolation"] == "none" and run.result["episode"]["untrusted"]
    assert "WITHOUT isolation" in run.done.stderr and "unshare" in run.done.stderr


@pytest.mark.slow
@requires_unshare
def test_unshare_timeout_ends_the_whole_namespace(tmp_path: Path) -> None:
    mark = marker()
    command = f"setsid sleep {mark} & (sleep {mark} &); sleep {mark}"
    started = time.monotonic()
    run = run_agent(tmp_path / "out", command, "--timeout", "3", isolation="unshare")
    assert run.result["episode"]["agent"]["timed_out"] is True
    assert wait_until(lambda: processes_matching(mark) == [], 5)
    assert time.monotonic() - started < 60


@pytest.mark.slow
@pytest.mark.parametrize("tier", [*TIERS, "none"])
def test_a_suite_hides_every_scenario_folder_of_the_suite(tmp_path: Path, outside: Path, tier: str) -> None:
    """`run A/x.yaml B/y.yaml`: the agent of x reads y's folder, whose checks and solution are x's siblings'."""
    import subprocess

    files = []
    for name in ("first", "second"):
        (outside / name).mkdir()
        text = TRAVEL_PATH.read_text().replace("id: travel-berlin-offsite", f"id: travel-{name}", 1)
        files.append(outside / name / f"{name}.yaml")
        files[-1].write_text(text)
    out = tmp_path / "out"
    command = f"cat {files[0]} {files[1]}; echo attempted"
    done = subprocess.run(
        [*ORCHESTRATOR, "run", *map(str, files), "--agent", f"cmd:{command}", "--out", str(out), "--isolation", tier],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    logs = [path.read_text(errors="replace") for path in sorted(out.rglob("agent.log"))]
    assert len(logs) == 2 and all("attempted" in log for log in logs), done.stderr + done.stdout
    assert any(SECRET in log for log in logs) == (tier == "none"), logs
