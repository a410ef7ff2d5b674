"""Threat: whoever can write a run folder after the verifier (an agent's surviving child, a user wanting a better
number, a tool rewriting files) makes a failed episode read as passed, or rewrites what the agent did, and
`verify-digest` still says the record is intact.

The record is sealed: the verdict, the trace and the journal signed together under a key the agent never sees.
Each test edits a real run's folder the way such a writer would and expects `verify-digest` to fail.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import stat
from pathlib import Path

import anyio
import pytest
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import record
from orchestrator import scenario as scenarios
from orchestrator.agents.base import NoopAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.record import RESULTS, TRACE, journal_digest, journal_of, verify_digest
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.records import Library


@pytest.fixture(scope="module")
def failed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real episode that failed: the noop agent on the travel scenario."""
    root = tmp_path_factory.mktemp("sealed")

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(scenarios.load(TRAVEL_PATH), backend, NoopAgent, RunOptions(out=root / "run", seed=1))

    anyio.run(main)
    return root / "run"


@pytest.fixture
def episode(failed: Path, tmp_path: Path) -> Path:
    """A copy of the failed episode to edit."""
    shutil.copytree(failed, tmp_path / "run")
    return tmp_path / "run"


def read(folder: Path) -> dict:
    return json.loads((folder / RESULTS).read_text())


def write(folder: Path, data: dict) -> None:
    (folder / RESULTS).write_text(json.dumps(data, indent=2))


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()


def test_a_fresh_record_is_sealed_and_verifies(episode: Path) -> None:
    digest = read(episode)["digest"]
    assert digest["algorithm"] == "ed25519" and set(digest) >= {"trace", "journal", "verdict", "key", "seal"}
    assert verify_digest(episode) == []
    result = CliRunner().invoke(app, ["verify-digest", str(episode)])
    assert result.exit_code == 0 and "sealed, digest matches" in result.output, result.output


@pytest.mark.parametrize(
    "edit",
    [
        lambda r: r.update(passed=True),
        lambda r: r.update(score=1.0),
        lambda r: [c.update(passed=True) for c in r["checks"]],
        lambda r: r.update(passed=True, score=1.0, checks=[{**c, "passed": True} for c in r["checks"]]),
        lambda r: r.update(status="agent_error", error="the model API failed"),  # a failure hidden as errored
    ],
    ids=["passed", "score", "checks", "everything", "status"],
)
def test_an_edited_verdict_fails(episode: Path, edit) -> None:
    data = read(episode)
    assert data["passed"] is False
    edit(data)
    write(episode, data)
    problems = verify_digest(episode)
    assert problems and any("verdict" in p for p in problems), problems
    result = CliRunner().invoke(app, ["verify-digest", str(episode)])
    assert result.exit_code == 1 and "digest matches" not in result.output


def forge(folder: Path, key: bytes | None) -> None:
    """Rewrite the trace and the verdict to a pass and recompute every hash of the digest, as one who read
    orchestrator.record would: signed with `key` (an attacker's own), or with the seal left as it was (None)."""
    entries = [json.loads(line) for line in (folder / TRACE).read_text().splitlines()]
    entries.append({"source": "app:mail", "tool": "mail__send_message", "arguments": {"to": "sam@example.com"}})
    raw = "".join(json.dumps(e) + "\n" for e in entries).encode()
    (folder / TRACE).write_bytes(raw)
    data = read(folder)
    data.update(passed=True, score=1.0)
    verdict = {k: v for k, v in data.items() if k != "digest"}
    canonical = json.dumps(verdict, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = dict(data["digest"], trace=sha(raw), journal=journal_digest(journal_of(entries)), verdict=sha(canonical))
    if key is not None:
        signed = json.dumps(
            {n: digest[n] for n in ("trace", "journal", "verdict")}, sort_keys=True, separators=(",", ":")
        )
        digest["seal"] = hmac.new(key, signed.encode(), hashlib.sha256).hexdigest()
    write(folder, {**data, "digest": digest})


@pytest.mark.parametrize("key", [None, b"attacker's own key, not the record key"], ids=["kept-seal", "own-key"])
def test_a_recomputed_digest_fails(episode: Path, key: bytes | None) -> None:
    forge(episode, key)
    problems = verify_digest(episode)
    assert len(problems) == 1 and "seal" in problems[0] and "does not match" in problems[0], problems


def test_a_digest_recomputed_without_a_seal_is_unsealed_and_fails(episode: Path) -> None:
    forge(episode, None)
    data = read(episode)
    data["digest"] = {k: v for k, v in data["digest"].items() if k in ("trace", "journal")} | {"algorithm": "sha256"}
    write(episode, data)
    problems = verify_digest(episode)
    assert len(problems) == 1 and problems[0].startswith("unsealed:"), problems
    result = CliRunner().invoke(app, ["verify-digest", str(episode)])
    assert result.exit_code == 1 and "unsealed" in result.output


def test_an_edited_trace_or_journal_fails(episode: Path) -> None:
    with (episode / TRACE).open("a") as trace:  # a gateway entry: the trace, not the journal
        trace.write(json.dumps({"source": "gateway", "tool": "calendar__list_events", "result": "ok"}) + "\n")
    assert verify_digest(episode) == [f"{TRACE} does not match the digest in {RESULTS}"]
    with (episode / TRACE).open("a") as trace:  # an app call the agent never made, in the journal
        trace.write(json.dumps({"source": "app:mail", "tool": "mail__send_message", "arguments": {}}) + "\n")
    problems = verify_digest(episode)
    assert f"the journal in {TRACE} does not match the digest in {RESULTS}" in problems


def test_a_record_written_before_seals_still_reads(episode: Path) -> None:
    """An old record (sha256 digest, no seal) is unsealed to verify-digest, and read as before everywhere else."""
    data = read(episode)
    data["digest"] = {"algorithm": "sha256", "trace": data["digest"]["trace"], "journal": data["digest"]["journal"]}
    write(episode, data)
    assert verify_digest(episode)[0].startswith("unsealed:")
    library = Library.scan([episode.parent])
    assert [r.folder.resolve() for r in library.episodes()] == [episode.resolve()] and not library.problems


def test_the_key_file_is_made_private_and_refused_when_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(record.KEY_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    key = record.record_key()
    path = tmp_path / "data" / "clawgym" / "record.key"
    assert record.key_path() == path and path.read_text().strip().encode() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    record._keys.clear()
    os.chmod(path, 0o644)
    with pytest.raises(record.RecordKeyError, match="chmod 600"):
        record.record_key()
    record._keys.clear()


def test_a_record_sealed_under_another_key_fails(failed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(failed, tmp_path / "run")
    assert verify_digest(tmp_path / "run") == []
    monkeypatch.setenv(record.KEY_ENV, "a different machine's record key")
    problems = verify_digest(tmp_path / "run")
    assert len(problems) == 1 and "another record key" in problems[0]


def test_the_record_key_cannot_be_passed_to_an_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(record.KEY_ENV, "the user's own record key, long enough")
    result = CliRunner().invoke(
        app,
        ["run", str(TRAVEL_PATH), "--agent", "cmd:true", "--agent-env", record.KEY_ENV, "--out", str(tmp_path / "o")],
    )
    assert result.exit_code == 2 and "the record key is never given to an agent" in result.output, result.output
    assert not (tmp_path / "o").exists()
