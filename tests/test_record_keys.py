"""A `cmd:` agent run with --isolation none that steals what it can of the record keys and re-seals its own record as
`isolation: unshare` with a pass is untrusted to verify-digest and to the viewer; runs with isolation (the oracle, a
`cmd:` agent under unshare) stay trusted, the ones sealed before the unisolated run included. Real runs of the CLI,
each in its own process, with this machine's key folder moved to a temporary one ($XDG_DATA_HOME)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from starlette.testclient import TestClient

from orchestrator import record, record_keys

pytestmark = pytest.mark.slow  # real runs of the CLI and of cmd: agents

STEAL = """
import json, secrets, shutil, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from orchestrator.record_keys import _from_material, _public_bytes
keys, stash = Path({keys!r}), Path({stash!r})
stash.mkdir(parents=True, exist_ok=True)
for path in [*keys.glob("*"), *map(Path, {extra!r})]:  # every key and the ledger it can read
    if path.is_file():
        shutil.copy(path, stash / path.name)
material = secrets.token_hex(32)  # a key of its own, planted in the ledger as never exposed
(stash / "planted.key").write_text(material)
planted = _from_material(material.encode())
ledger = keys / "keys.json"
data = json.loads(ledger.read_text()) if ledger.is_file() else {{"keys": {{}}}}
for entry in data["keys"].values():
    entry.pop("exposed_at", None)
data["keys"][planted.id] = {{"public": _public_bytes(planted.private.public_key()).hex(), "added_at": "2020-01-01"}}
ledger.write_text(json.dumps(data))
own = secrets.token_hex(32)  # and a key file of its own where the record key is looked for
(stash / "own.key").write_text(own)
Path({replace!r}).write_text(own + "\\n")
Path({replace!r}).chmod(0o600)
print("stole", sorted(p.name for p in stash.iterdir()))
"""


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run(env: dict[str, str], out: Path, agent: str, isolation: str = "auto") -> dict:
    done = cli(
        env,
        "run",
        str(TRAVEL_PATH),
        "--agent",
        agent,
        "--isolation",
        isolation,
        "--backend",
        "inprocess",
        "--out",
        str(out),
    )
    assert done.returncode in (0, 1) and (out / "results.json").is_file(), done.stdout + done.stderr
    return json.loads((out / "results.json").read_text())


def forge(folder: Path, material: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rewrite the record as a pass of an agent under unshare and re-seal it with the stolen key `material`."""
    data = json.loads((folder / "results.json").read_text())
    data.update(passed=True, score=1.0)
    data["episode"]["isolation"] = "unshare"
    data["episode"].pop("untrusted", None)
    (folder / "results.json").write_text(json.dumps(data))
    with monkeypatch.context() as m:
        m.setenv(record.KEY_FILE_ENV, str(material))
        record.reseal(folder)


def verdict(env: dict[str, str], folder: Path) -> tuple[int, str]:
    done = cli(env, "verify-digest", str(folder))
    return done.returncode, " ".join(done.stdout.split())


def listed(runs: Path, name: str) -> str:
    from orchestrator.view.app import create_app

    page = TestClient(create_app([runs]), base_url="http://127.0.0.1").get("/").text
    return page.split(f'href="/run/{name}"')[1].split("</tr>")[0]


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This machine's key folder in tmp_path: the environment of the CLI's runs (and of this process)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(record.KEY_ENV, raising=False)
    monkeypatch.delenv(record.KEY_FILE_ENV, raising=False)
    record_keys._keys.clear()
    yield dict(os.environ)
    record_keys._keys.clear()


def steal(tmp_path: Path, extra: tuple[str, ...] = (), replace: Path | None = None) -> str:
    """The agent: copies every key file it can read, plants a key of its own in the ledger and another in the key
    file (`replace`, by default this machine's)."""
    script = tmp_path / "steal.py"
    keys = record_keys.key_path().parent
    replace = replace or record_keys.key_path()
    script.write_text(
        STEAL.format(
            root=str(ROOT), keys=str(keys), stash=str(tmp_path / "stolen"), extra=list(extra), replace=str(replace)
        )
    )
    return f"cmd:{sys.executable} {script}"


def test_a_forged_unisolated_record_is_untrusted_and_earlier_isolated_ones_stay_trusted(
    tmp_path: Path, machine: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path / "runs"
    run(machine, runs / "oracle", "oracle")
    shared = run(machine, runs / "shared", "cmd:true", "unshare")
    assert shared["episode"]["isolation"] == "unshare"
    before = record_keys.material_key_id()
    assert verdict(machine, runs / "oracle")[0] == 0 and verdict(machine, runs / "shared")[0] == 0

    plain = run(machine, runs / "plain", steal(tmp_path), "none")
    assert plain["episode"]["isolation"] == "none"
    stolen = tmp_path / "stolen"
    assert (stolen / "keys.json").is_file() and not (stolen / "record.key").exists()  # no private key to steal
    ledger = record_keys.ledger()
    assert "retired_at" in ledger[before] and "exposed_at" not in ledger[before]  # its records stay trusted
    assert all("exposed_at" in e for k, e in ledger.items() if k != before)  # the planted key and the episode's

    own = record_keys._from_material((stolen / "own.key").read_text().encode()).id
    assert not record_keys.key_path().exists() and "exposed_at" in ledger[own]  # the key file it left: retired
    for key in ("planted.key", "own.key"):  # the key it planted in the ledger, the one it put in the key file
        forge(runs / "plain", stolen / key, monkeypatch)
        assert json.loads((runs / "plain" / "results.json").read_text())["episode"]["isolation"] == "unshare"
        code, said = verdict(machine, runs / "plain")
        assert code == 1 and "untrusted" in said and "exposed" in said, said
        assert "untrusted" in listed(runs, "plain")

    for name in ("oracle", "shared"):  # sealed before the unisolated run, by the retired key
        code, said = verdict(machine, runs / name)
        assert code == 0 and "untrusted" not in said, said
        row = listed(runs, name)
        assert not any(word in row for word in ("untrusted", "unsealed", "seal broken", "seal unchecked")), row
    run(machine, runs / "after", "oracle")  # a fresh key, made after the agent's run
    after = json.loads((runs / "after" / "results.json").read_text())["digest"]["key"]
    assert after not in (before, *ledger) and verdict(machine, runs / "after")[0] == 0


def test_a_record_signed_with_a_stolen_key_the_agent_could_read_is_untrusted(
    tmp_path: Path, machine: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator's key ($CLAWGYM_RECORD_KEY_FILE) cannot be taken away from the agent: it is marked exposed, and
    every record it sealed, before the unisolated run or after, is untrusted (a signature does not say when)."""
    given = tmp_path / "operator.key"
    given.write_text(os.urandom(32).hex() + "\n")
    env = {**machine, record.KEY_FILE_ENV: str(given)}
    monkeypatch.setenv(record.KEY_FILE_ENV, str(given))
    runs = tmp_path / "runs"
    run(env, runs / "oracle", "oracle")
    assert verdict(env, runs / "oracle")[0] == 0
    run(env, runs / "plain", steal(tmp_path, (str(given),), replace=given), "none")
    assert given.read_text().strip() == (tmp_path / "stolen" / "own.key").read_text()  # the agent replaced it
    run(env, runs / "after", "oracle")  # sealed with the key the agent wrote into the operator's file
    for key in ("operator.key", "own.key"):
        forge(runs / "plain", tmp_path / "stolen" / key, monkeypatch)
        for name in ("plain", "oracle", "after"):
            code, said = verdict(env, runs / name)
            assert code == 1 and "untrusted" in said and "exposed" in said, said
            assert "untrusted" in listed(runs, name)


def test_a_legacy_hmac_seal_under_a_stolen_key_is_not_trusted(
    tmp_path: Path, machine: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sealed the old way (HMAC) with the machine's key stolen before it was retired: its seal no longer checks."""
    runs = tmp_path / "runs"
    run(machine, runs / "oracle", "oracle")
    material = record_keys.key_path().read_text()
    run(machine, runs / "plain", "cmd:true", "none")
    import hashlib
    import hmac

    data = json.loads((runs / "plain" / "results.json").read_text())
    data["passed"], data["episode"]["isolation"] = True, "unshare"
    data["episode"].pop("untrusted", None)
    digest = {k: v for k, v in data.pop("digest").items() if k not in ("seal", "key")}
    digest |= {"algorithm": record.LEGACY_SEAL, "verdict": record.verdict_digest(data)}
    signed = record._signed(digest)
    digest["seal"] = hmac.new(material.strip().encode(), signed, hashlib.sha256).hexdigest()
    (runs / "plain" / "results.json").write_text(json.dumps({**data, "digest": digest}))
    code, said = verdict(machine, runs / "plain")
    assert code == 1 and "retired" in said, said
    assert "untrusted" not in listed(runs, "oracle")


def test_a_record_resealed_here_whose_agent_ran_without_isolation_is_sealed_with_an_exposed_key(
    tmp_path: Path, machine: dict[str, str]
) -> None:
    """A Ray worker's episode, resealed on the head (`reseal`): with isolation none it gets a key of its own, marked
    exposed, not this machine's."""
    run(machine, tmp_path / "ray", "oracle")
    data = json.loads((tmp_path / "ray" / "results.json").read_text())
    data["episode"] |= {"isolation": "none", "agent": {"agent": "cmd:true"}, "untrusted": "isolation none: ..."}
    (tmp_path / "ray" / "results.json").write_text(json.dumps(data))
    record.reseal(tmp_path / "ray")
    data = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert record.verify_digest(tmp_path / "ray") == []
    assert data["digest"]["key"] != record_keys.material_key_id() and "exposed" in str(record.untrusted_reason(data))
