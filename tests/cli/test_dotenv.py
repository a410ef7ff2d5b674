"""`./.env` is read before `run` and `retry`: KEY=VALUE lines give API keys and endpoints, and never override what
the environment already says. A real model agent against the fake model server of tests/agents, through the
command line in process, from a working directory holding a .env."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, TRAVEL_PATH, free_port
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.cli.dotenv import load_dotenv, parse
from orchestrator.scenario import load

KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CLAWGYM_TEST_ONE", "CLAWGYM_TEST_TWO")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No key of the test in the environment (restored afterwards, whatever .env set), the cwd a fresh folder."""
    for key in KEYS:
        monkeypatch.setenv(key, "")  # records the value to restore
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_file_format() -> None:
    text = (
        "# keys\n\nOPENAI_API_KEY=sk-plain # a comment\nexport A_B='quoted # not a comment'\n"
        'C="double"\n  D = spaced  \nnot a line\n1BAD=x\nE=\nF=a=b\n'
    )
    assert parse(text) == {
        "OPENAI_API_KEY": "sk-plain",
        "A_B": "quoted # not a comment",
        "C": "double",
        "D": "spaced",
        "E": "",
        "F": "a=b",
    }


def test_the_environment_wins_over_the_file(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text("CLAWGYM_TEST_ONE=from-file\nCLAWGYM_TEST_TWO=from-file\n")
    monkeypatch.setenv("CLAWGYM_TEST_ONE", "from-env")
    assert load_dotenv() == ["CLAWGYM_TEST_TWO"]
    assert os.environ["CLAWGYM_TEST_ONE"] == "from-env" and os.environ["CLAWGYM_TEST_TWO"] == "from-file"
    assert load_dotenv(clean_env / "missing.env") == []


def _served() -> Any:
    spec = importlib.util.spec_from_file_location("fake_model", ROOT / "tests" / "agents" / "fake_model.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]  # the file exists: its spec is not None
    spec.loader.exec_module(module)  # type: ignore[union-attr]  # a source file's spec has a loader
    return module.Served(module.FakeModel(load(TRAVEL_PATH).oracle))


def test_run_reads_the_key_and_endpoint_from_dot_env(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _served() as served:
        (clean_env / ".env").write_text(f"OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL={served.url}\n")
        done = CliRunner().invoke(
            app, ["run", str(TRAVEL_PATH), "--backend", "inprocess", "--agent", "openai:oracle", "--out", "out"]
        )
        assert done.exit_code == 0, done.output
        assert json.loads((clean_env / "out" / "results.json").read_text())["passed"]
        # an endpoint set in the environment is the one used, whatever .env says
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
        done = CliRunner().invoke(
            app,
            [
                "run",
                str(TRAVEL_PATH),
                "--backend",
                "inprocess",
                "--agent",
                "openai:oracle",
                "--max-retries",
                "0",
                "--out",
                "down",
            ],
        )
        assert done.exit_code == 2 and "Connection error" in done.output
