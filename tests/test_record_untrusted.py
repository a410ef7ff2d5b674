"""An episode whose `cmd:` agent ran with --isolation none is untrusted to verify-digest as to the viewer: the agent
ran as a plain process that could read the checks and the record key, so its seal vouches for nothing. verify-digest
says so and exits 1 even when the digest matches; in-process agents (the oracle), which record isolation none too,
stay trusted. Real runs through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import TRAVEL_PATH
from starlette.testclient import TestClient
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.record import untrusted_reason, verify_digest
from orchestrator.view.app import create_app


@pytest.mark.slow  # a cmd: agent's process
def test_verify_digest_and_the_viewer_refuse_an_isolation_none_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the unisolated run retires the key it finds there
    runner = CliRunner()
    plain = tmp_path / "runs" / "plain"
    done = runner.invoke(
        app,
        [
            "run",
            str(TRAVEL_PATH),
            "--agent",
            "cmd:true",
            "--isolation",
            "none",
            "--backend",
            "inprocess",
            "--out",
            str(plain),
        ],
    )
    assert done.exit_code == 1, done.output
    oracle = tmp_path / "runs" / "oracle"
    assert (
        runner.invoke(
            app, ["run", str(TRAVEL_PATH), "--agent", "oracle", "--backend", "inprocess", "--out", str(oracle)]
        ).exit_code
        == 0
    )
    record = json.loads((plain / "results.json").read_text())
    assert record["episode"]["isolation"] == "none" and verify_digest(plain) == []  # intact, and still untrusted
    assert "exposed" in str(untrusted_reason(record))  # sealed with the episode's own key, exposed to its agent
    assert "exposed" not in str(untrusted_reason({**record, "digest": {}}))
    checked = runner.invoke(app, ["verify-digest", str(plain)])
    assert checked.exit_code == 1 and "untrusted" in checked.output and "exposed" in checked.output
    checked = runner.invoke(app, ["verify-digest", str(oracle)])
    assert checked.exit_code == 0 and "untrusted" not in checked.output
    # without the field that says so, the agent and its isolation still do (a record written before `untrusted`)
    del record["episode"]["untrusted"], record["digest"]
    assert "isolation none" in str(untrusted_reason(record))
    listing = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1").get("/").text
    assert "untrusted" in listing.split('href="/run/plain"')[1].split("</tr>")[0]
    assert "untrusted" not in listing.split('href="/run/oracle"')[1].split("</tr>")[0]
