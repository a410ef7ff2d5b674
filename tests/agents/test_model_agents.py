"""`--agent openai:MODEL` and `--agent anthropic:MODEL` through the real CLI against a fake model server.

The fake server (`fake_model.py`) speaks the Chat Completions and Messages wire formats, streaming and not;
the SDKs, the loop, the gateway, the apps and the verifier are all real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_model import FakeModel, Served
from helpers import ROOT, TRAVEL_PATH, free_port

from orchestrator.scenario import load

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]
ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")
}


@pytest.fixture(scope="module")
def fake() -> Any:
    model = FakeModel(load(TRAVEL_PATH).oracle)
    with Served(model) as served:
        yield served


def run(
    served: Served | None, api: str, model: str, out: Path, *extra: str, base_url: str | None = None
) -> subprocess.CompletedProcess[str]:
    url = base_url or (served.url if api == "openai" else served.root)  # type: ignore[union-attr]  # served is running when no base_url is given
    return subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--backend",
            "inprocess",
            "--agent",
            f"{api}:{model}",
            "--base-url",
            url,
            "--out",
            str(out),
            *extra,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env=ENV,
    )


def requests_of(served: Served, api: str, model: str) -> list[dict[str, Any]]:
    return [r["body"] for r in served.model.requests if r["api"] == api and r["body"]["model"] == model]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.e2e
def test_a_model_that_emits_the_reference_calls_passes(fake: Served, tmp_path: Path, api: str, stream: bool) -> None:
    served = fake
    before = len(served.model.requests)
    done = run(
        served, api, "oracle", tmp_path, *(["--stream"] if stream else []), "--price", "2,8,0.5", "--model-seed", "7"
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["passed"] and results["status"] == "completed"
    agent = results["episode"]["agent"]
    steps = len(load(TRAVEL_PATH).oracle)
    assert agent["agent"] == f"{api}:oracle" and agent["tool_calls"] == steps and agent["api_error"] is None
    assert len(agent["turns"]) == steps + 1 and agent["usage"]["turns"] == steps + 1
    assert [t["stop_reason"] for t in agent["turns"]] == ["tool_calls" if api == "openai" else "tool_use"] * steps + [
        "stop" if api == "openai" else "end_turn"
    ]
    assert all(
        t["latency_ms"] > 0 and t["input_tokens"] > 100 and t["output_tokens"] == 12 and t["cached_tokens"] == 100
        for t in agent["turns"]
    )
    usage = agent["usage"]
    expected = (
        (usage["input_tokens"] - usage["cached_tokens"]) * 2 + usage["cached_tokens"] * 0.5 + usage["output_tokens"] * 8
    ) / 1e6
    assert usage["cost_usd"] == pytest.approx(expected, abs=1e-6)

    # what the API was sent: persona, time zone and clock in the system prompt, the task as the user's message
    sent = served.model.requests[before:]
    first = sent[0]["body"]
    assert first["stream"] is True if stream else not first.get("stream")
    system = first["messages"][0]["content"] if api == "openai" else first["system"]
    for words in ("Dana Lee", "dana@acme.test", "Europe/Berlin", "Monday 02 March 2026, 09:00"):
        assert words in system, words
    task = first["messages"][1 if api == "openai" else 0]["content"]
    assert task == load(TRAVEL_PATH).instruction.strip()
    if api == "openai":
        assert first["seed"] == 7 and first["parallel_tool_calls"] is True and first["max_tokens"] == 4096
        assert len(first["tools"]) == 68 and all(t["function"]["strict"] is True for t in first["tools"])
        assert all(
            set(t["function"]["parameters"]["required"]) == set(t["function"]["parameters"]["properties"])
            for t in first["tools"]
        )
    else:
        assert "seed" not in first and first["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": False}
        assert len(first["tools"]) == 68 and all("input_schema" in t for t in first["tools"])

    # messages.json: the whole conversation in the API's own format, the tools included
    transcript = json.loads((tmp_path / "messages.json").read_text())
    assert transcript["api"] == api and transcript["model"] == "oracle" and len(transcript["tools"]) == 68
    last = sent[-1]["body"]["messages"]
    assert transcript["messages"][: len(last)] == last  # what was sent last, then the final answer
    assert len(transcript["messages"]) == len(last) + 1


@pytest.mark.slow
def test_malformed_arguments_come_back_as_an_error_the_model_recovers_from(fake: Served, tmp_path: Path) -> None:
    done = run(fake, "openai", "malformed", tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    transcript = json.loads((tmp_path / "messages.json").read_text())
    error = transcript["messages"][3]
    assert error["role"] == "tool" and error["content"].startswith(
        "Error: the arguments of mail__search_messages could not be used: not valid JSON"
    )
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["passed"] and results["episode"]["agent"]["tool_calls"] == len(load(TRAVEL_PATH).oracle) + 1
    # the malformed call never reached the apps: 12 journal entries, not 13
    assert results["journal"]["calls"] == len(load(TRAVEL_PATH).oracle)


@pytest.mark.e2e
def test_an_unknown_tool_comes_back_flagged_is_error_to_anthropic(fake: Served, tmp_path: Path) -> None:
    done = run(fake, "anthropic", "malformed", tmp_path, "--stream")
    assert done.returncode == 0, done.stderr[-3000:]
    transcript = json.loads((tmp_path / "messages.json").read_text())
    result = transcript["messages"][2]["content"][0]
    assert (
        result["type"] == "tool_result"
        and result["is_error"] is True
        and "no tool named 'mail__no_such_tool'" in result["content"]
    )
    assert all(
        "is_error" not in block for m in transcript["messages"][3:] if m["role"] == "user" for block in m["content"]
    )


@pytest.mark.parametrize("api", ["openai", "anthropic"])
@pytest.mark.e2e
def test_429_twice_then_success_is_retried_and_passes(fake: Served, tmp_path: Path, api: str) -> None:
    fake.model.counts.pop("flaky", None)
    done = run(fake, api, "flaky", tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    agent = results["episode"]["agent"]
    assert results["passed"] and agent["turns"][0]["retries"] == 2 and agent["usage"]["retries"] == 2
    assert all(t["retries"] == 0 for t in agent["turns"][1:])
    assert fake.model.counts["flaky"] == len(agent["turns"]) + 2


@pytest.mark.e2e
def test_a_request_over_the_timeout_is_retried(fake: Served, tmp_path: Path) -> None:
    done = run(fake, "openai", "slow", tmp_path, "--request-timeout", "1", "--stream")
    assert done.returncode == 0, done.stderr[-3000:]
    agent = json.loads((tmp_path / "results.json").read_text())["episode"]["agent"]
    assert agent["turns"][0]["retries"] == 1 and fake.model.counts["slow"] == len(agent["turns"]) + 1


def test_a_model_that_never_stops_hits_max_turns_and_fails_cleanly(fake: Served, tmp_path: Path) -> None:
    done = run(fake, "openai", "loop", tmp_path, "--max-turns", "3")
    assert done.returncode == 1, done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    agent = results["episode"]["agent"]
    assert results["status"] == "completed" and not results["passed"]
    assert agent["tool_calls"] == 3 and len(agent["turns"]) == 3
    assert any("--max-turns" in e for e in agent["errors"])
    assert len(json.loads((tmp_path / "messages.json").read_text())["messages"]) == 2 + 3 * 2


@pytest.mark.e2e
def test_a_server_that_is_down_gives_exit_2_and_agent_error(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = run(None, "openai", "any-model", tmp_path, "--max-retries", "1", base_url=url)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert "MODEL API ERROR" in done.stderr and "Connection error" in done.stderr and url in done.stderr
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["status"] == "agent_error" and "after 2 attempts" in results["error"]
    assert (tmp_path / "messages.json").exists()


@pytest.mark.e2e
def test_a_server_error_that_persists_shows_the_api_message(fake: Served, tmp_path: Path) -> None:
    done = run(fake, "anthropic", "broken", tmp_path, "--max-retries", "1")
    assert done.returncode == 2
    assert "HTTP 503" in done.stderr and "the model is overloaded: try again later" in done.stderr
    assert json.loads((tmp_path / "results.json").read_text())["status"] == "agent_error"


@pytest.mark.e2e
def test_repeat_in_parallel_keeps_to_the_endpoint_limit(tmp_path: Path) -> None:
    model = FakeModel(load(TRAVEL_PATH).oracle, delay_s=0.05)
    with Served(model) as served:
        done = run(
            served, "openai", "oracle", tmp_path, "--repeat", "3", "--parallel", "3", "--max-concurrent-requests", "1"
        )
        assert done.returncode == 0, done.stderr[-3000:]
        assert model.peak == 1
        summary = json.loads((tmp_path / "results.json").read_text())
        assert summary["passes"] == 3 and summary["pass_at_k"]["3"] == 1.0
        assert all((tmp_path / f"episode-00{i}" / "messages.json").exists() for i in (1, 2, 3))
        model.peak = 0
        done = run(
            served,
            "openai",
            "oracle",
            tmp_path / "wide",
            "--repeat",
            "3",
            "--parallel",
            "3",
            "--max-concurrent-requests",
            "3",
        )
        assert done.returncode == 0 and model.peak > 1  # the limit is what held it to one


@pytest.mark.e2e
def test_usage_errors_are_clear(tmp_path: Path) -> None:
    done = subprocess.run(
        [*ORCHESTRATOR, "run", str(TRAVEL_PATH), "--agent", "openai:gpt-x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert done.returncode == 2 and "OPENAI_API_KEY is not set" in done.stderr
    done = subprocess.run(
        [*ORCHESTRATOR, "run", str(TRAVEL_PATH), "--agent", "anthropic:"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert done.returncode == 2 and "needs a model name" in done.stderr
    done = subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            "openai:m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--price",
            "cheap",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert done.returncode == 2 and "--price 'cheap'" in done.stderr


@pytest.mark.e2e
def test_a_timeout_keeps_the_turns_so_far_and_the_transcript(tmp_path: Path) -> None:
    model = FakeModel(load(TRAVEL_PATH).oracle, delay_s=0.3)
    with Served(model) as served:
        done = run(served, "anthropic", "loop", tmp_path, "--timeout", "4")
    assert done.returncode == 1, done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    agent = results["episode"]["agent"]
    assert results["status"] == "timeout" and agent["timed_out"]
    assert agent["usage"]["turns"] == len(agent["turns"]) >= 2
    transcript = json.loads((tmp_path / "messages.json").read_text())
    assert len([m for m in transcript["messages"] if m["role"] == "assistant"]) >= len(agent["turns"]) - 1
