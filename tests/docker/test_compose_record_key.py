"""Compose shares this machine's record key with its gateway, so the records the gateway seals verify here.

images/secrets.sh copies the record key (as `orchestrator.record.record_key` finds it, made when missing) into the
secrets folder; compose.yaml mounts it into the gateway and points $CLAWGYM_RECORD_KEY_FILE at it. Without a Docker
engine this runs what the gateway does: an `orchestrator run`'s records sealed by a process that reads the
key only from that file, checked by `verify-digest` on the machine's own key (test_docker.py's compose test checks
the records of the real gateway container)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, TRAVEL_PATH

pytestmark = pytest.mark.e2e


def orchestrator(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args], env=env, capture_output=True, text=True, timeout=240
    )


def test_compose_mounts_the_record_key_into_the_gateway() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    gateway = compose["services"]["gateway"]
    assert "record_key" in gateway["secrets"]
    assert gateway["environment"]["CLAWGYM_RECORD_KEY_FILE"] == "/run/secrets/record_key"
    assert compose["secrets"]["record_key"] == {"file": "${CLAWGYM_SECRETS:-./.secrets}/record_key"}
    for name, service in compose["services"].items():  # the app servers never see it
        assert name == "gateway" or "record_key" not in service.get("secrets", []), name


def test_records_sealed_with_the_compose_key_verify_on_this_machine(tmp_path: Path) -> None:
    home = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_RECORD_KEY")}
    home |= {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data")}
    secrets = tmp_path / "secrets"
    made = subprocess.run([str(ROOT / "images" / "secrets.sh"), str(secrets)], env=home, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    key = tmp_path / "data" / "clawgym" / "record.key"
    assert key.stat().st_mode & 0o777 == 0o600  # made as orchestrator makes it
    assert (secrets / "record_key").read_text().strip() == key.read_text().strip()
    assert len(key.read_text().strip()) == 64
    # The gateway: no key of its own (another HOME), only the file compose mounts.
    gateway = home | {
        "HOME": str(tmp_path / "gateway-home"),
        "XDG_DATA_HOME": str(tmp_path / "gateway-data"),
        "CLAWGYM_RECORD_KEY_FILE": str(secrets / "record_key"),
    }
    out = tmp_path / "runs" / "compose"
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", "oracle", "--out", str(out), env=gateway)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "gateway-data").exists()  # it made no key of its own
    checked = orchestrator("verify-digest", str(tmp_path / "runs"), env=home)
    assert checked.returncode == 0 and "sealed, digest matches" in checked.stdout, checked.stdout + checked.stderr
    assert json.loads((out / "results.json").read_text())["passed"] is True
    # A gateway with a key of its own (what compose did before): its records do not verify here.
    alone = home | {"HOME": str(tmp_path / "alone-home"), "XDG_DATA_HOME": str(tmp_path / "alone-data")}
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", "oracle", "--out", str(tmp_path / "other" / "x"), env=alone)
    assert done.returncode == 0, done.stderr
    checked = orchestrator("verify-digest", str(tmp_path / "other"), env=home)
    assert checked.returncode == 1 and "another record key" in checked.stdout


@pytest.mark.docker
def test_the_compose_gateways_records_verify_on_this_machine(docker_client, tmp_path: Path) -> None:
    """compose up, an episode served by the gateway container, stopped (it verifies and seals), copied out as the
    docs say: `verify-digest` on this machine says sealed, and the viewer shows it trusted."""
    import time
    import uuid

    import anyio
    from helpers import free_port
    from mcp import Client

    from orchestrator.backends.docker import compose_command
    from orchestrator.record import verify_digest
    from orchestrator.view.records import Library, trust

    project, port, secrets = f"clawgym-test-{uuid.uuid4().hex[:6]}", free_port(), tmp_path / "secrets"
    made = subprocess.run([str(ROOT / "images" / "secrets.sh"), str(secrets)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_ADMIN_TOKEN")}
    env |= {"CLAWGYM_SECRETS": str(secrets), "CLAWGYM_GATEWAY_PORT": str(port)}
    compose = [*compose_command(), "--project-name", project, "--file", str(ROOT / "compose.yaml")]
    try:
        up = subprocess.run([*compose, "up", "-d"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert up.returncode == 0, up.stderr
        containers = docker_client.containers.list(filters={"label": f"com.docker.compose.project={project}"})
        deadline = time.monotonic() + 120
        while not all(c.reload() or c.attrs["State"].get("Health", {}).get("Status") == "healthy" for c in containers):
            assert time.monotonic() < deadline, "compose did not come up healthy"
            time.sleep(1)

        async def use_gateway() -> None:
            secret = (secrets / "gateway_secret").read_text().strip()  # the URL's secret, as compose.yaml says
            async with Client(f"http://127.0.0.1:{port}/{secret}/mcp") as client:
                await client.call_tool("calendar__list_calendars", {})

        anyio.run(use_gateway)
        stop = subprocess.run(
            [*compose, "stop", "gateway"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert stop.returncode == 0, stop.stderr
        gateway = subprocess.run(
            [*compose, "ps", "-aq", "gateway"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        ).stdout.strip()
        copied = subprocess.run(
            ["docker", "cp", f"{gateway}:/data/runs/latest", str(tmp_path / "runs")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert copied.returncode == 0, copied.stderr
    finally:
        subprocess.run(
            [*compose, "down", "-v", "--remove-orphans"], cwd=ROOT, env=env, capture_output=True, timeout=120
        )
    folders = [p.parent for p in (tmp_path / "runs").glob("travel-berlin-offsite-*/results.json")]
    assert len(folders) == 1, list((tmp_path / "runs").iterdir())
    assert verify_digest(folders[0]) == []
    episodes = Library.scan([tmp_path / "runs"]).episodes()
    assert len(episodes) == 1 and trust(episodes[0]).seal == "sealed"
