"""`orchestrator export`: episodes as training data, every line a valid request for the vendor's own SDK types."""

from __future__ import annotations

import collections.abc
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from fake_model import FakeModel, Served
from helpers import TRAVEL_PATH
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from pydantic import TypeAdapter
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.scenario import load

OPENAI_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)
ANTHROPIC_REQUEST = TypeAdapter(MessageCreateParamsNonStreaming)


def drain(value: Any) -> Any:
    """Validated TypedDicts hold lazy iterators for `Iterable` fields: consuming them runs their validation."""
    if isinstance(value, dict):
        return {k: drain(v) for k, v in value.items()}
    if isinstance(value, str | bytes):
        return value
    if isinstance(value, collections.abc.Iterable):
        return [drain(v) for v in value]
    return value


def valid(adapter: TypeAdapter[Any], request: dict[str, Any]) -> bool:
    """The SDK's request type accepts `request` and drops nothing from it (a TypedDict ignores unknown keys)."""
    return drain(adapter.validate_python(request)) == request


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    env = {
        k: os.environ.pop(k)
        for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")
        if k in os.environ
    }
    try:
        with Served(FakeModel(load(TRAVEL_PATH).oracle)) as served:
            for name, agent, url in [
                ("a-openai", "openai:oracle", served.url),
                ("b-anthropic", "anthropic:malformed", served.root),
            ]:
                done = cli(
                    "run",
                    str(TRAVEL_PATH),
                    "--backend",
                    "inprocess",
                    "--agent",
                    agent,
                    "--base-url",
                    url,
                    "--out",
                    str(root / name),
                )
                assert done.exit_code == 0, done.output
        assert (
            cli(
                "run", str(TRAVEL_PATH), "--backend", "inprocess", "--agent", "oracle", "--out", str(root / "c-oracle")
            ).exit_code
            == 0
        )
        assert (
            cli(
                "run", str(TRAVEL_PATH), "--backend", "inprocess", "--agent", "noop", "--out", str(root / "d-noop")
            ).exit_code
            == 1
        )
    finally:
        os.environ.update(env)
    return root


def export(runs: Path, out: Path, *extra: str) -> list[dict[str, Any]]:
    done = cli("export", str(runs), "--out", str(out), *extra)
    assert done.exit_code == 0, done.output
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.slow
def test_openai_lines_are_valid_chat_completions_requests(runs: Path, tmp_path: Path) -> None:
    lines = export(runs, tmp_path / "openai.jsonl", "--format", "openai")
    assert [Path(line["folder"]).name for line in lines] == ["a-openai", "b-anthropic", "c-oracle", "d-noop"]
    for line in lines:
        assert valid(OPENAI_REQUEST, {"model": "m", "messages": line["messages"], "tools": line["tools"]}), line[
            "folder"
        ]
        assert line["scenario"] == "travel-berlin-offsite" and line["seed"] == 0
        assert len(line["tools"]) == (
            0 if line["folder"].endswith("d-noop") else 68
        )  # a trace has the tools of the apps called
        assert [s["name"] for s in line["stages"]] == [s.name for s in load(TRAVEL_PATH).stages]
    by = {Path(line["folder"]).name: line for line in lines}
    assert by["a-openai"]["source"] == "messages.json" and by["c-oracle"]["source"] == "trace"
    assert by["a-openai"]["messages"] == json.loads((runs / "a-openai" / "messages.json").read_text())["messages"]
    assert by["d-noop"]["passed"] is False and by["d-noop"]["score"] < 1 and by["c-oracle"]["score"] == 1.0
    # the oracle's trace made a conversation: the task, then one call and its result per tool call
    oracle = by["c-oracle"]["messages"]
    assert oracle[0] == {"role": "user", "content": load(TRAVEL_PATH).instruction.strip()}
    assert [m["tool_calls"][0]["function"]["name"] for m in oracle if m["role"] == "assistant"] == [
        s.tool for s in load(TRAVEL_PATH).oracle
    ]
    # the anthropic run's error result keeps its flag as the text's prefix
    assert any(
        m["role"] == "tool" and m["content"].startswith("Error: there is no tool")
        for m in by["b-anthropic"]["messages"]
    )


@pytest.mark.slow
def test_anthropic_lines_are_valid_messages_requests(runs: Path, tmp_path: Path) -> None:
    lines = export(runs, tmp_path / "anthropic.jsonl", "--format", "anthropic")
    assert len(lines) == 4
    for line in lines:
        request = {"model": "m", "max_tokens": 1024, "messages": line["messages"], "tools": line["tools"]}
        if line["system"]:
            request["system"] = line["system"]
        assert valid(ANTHROPIC_REQUEST, request), line["folder"]
        roles = [m["role"] for m in line["messages"]]
        assert roles[0] == "user" and all(a != b for a, b in zip(roles, roles[1:], strict=False))  # turns alternate
    by = {Path(line["folder"]).name: line for line in lines}
    native = json.loads((runs / "b-anthropic" / "messages.json").read_text())
    assert (
        by["b-anthropic"]["messages"][1:] == native["messages"][1:] and by["b-anthropic"]["system"] == native["system"]
    )
    flagged = [
        b
        for m in by["b-anthropic"]["messages"]
        if m["role"] == "user" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("is_error")
    ]
    assert len(flagged) == 1


def test_sharegpt_turns_alternate(runs: Path, tmp_path: Path) -> None:
    for line in export(runs, tmp_path / "sharegpt.jsonl", "--format", "sharegpt"):
        turns = [t["from"] for t in line["conversations"]]
        assert turns[0] == "human"
        assert all(
            (a in ("human", "observation")) != (b in ("human", "observation"))
            for a, b in zip(turns, turns[1:], strict=False)
        ), turns
        assert all(json.loads(t["value"])["name"] for t in line["conversations"] if t["from"] == "function_call")
        assert isinstance(json.loads(line["tools"]), list)


def test_filters_and_deterministic_order(runs: Path, tmp_path: Path) -> None:
    passed = export(runs, tmp_path / "p.jsonl", "--passed-only")
    assert [Path(line["folder"]).name for line in passed] == ["a-openai", "b-anthropic", "c-oracle"]
    assert all(line["score"] >= 0.9 for line in export(runs, tmp_path / "s.jsonl", "--min-score", "0.9"))
    export(runs, tmp_path / "again.jsonl", "--passed-only")
    assert (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "p.jsonl").read_bytes()
    one = export(runs / "c-oracle", tmp_path / "one.jsonl")
    assert len(one) == 1


def test_a_folder_without_runs_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = cli("export", str(tmp_path / "empty"), "--out", str(tmp_path / "x.jsonl"))
    assert done.exit_code == 2 and "holds no runs" in done.output
    done = cli("export", str(tmp_path / "nothing"), "--out", str(tmp_path / "x.jsonl"))
    assert done.exit_code == 2 and "no such file or folder" in done.output
    done = cli("export", str(tmp_path), "--format", "alpaca", "--out", str(tmp_path / "x.jsonl"))
    assert done.exit_code == 2 and "--format 'alpaca'" in done.output


def test_a_bad_trace_line_costs_only_that_line(runs: Path, tmp_path: Path) -> None:
    """A trace with a line cut short (a crash mid-write) or not UTF-8 still exports its good lines, as the viewer shows them."""
    from orchestrator.export import export as export_runs

    copy = tmp_path / "runs" / "c-oracle"
    shutil.copytree(runs / "c-oracle", copy)
    whole = export(copy, tmp_path / "whole.jsonl")[0]
    trace = copy / "trace.jsonl"
    lines = trace.read_bytes().splitlines(keepends=True)
    trace.write_bytes(lines[0] + b'{"source": "gateway", "meth\n' + b"\xff\xfe not json\n" + b"".join(lines[1:]))
    damaged = export(copy, tmp_path / "damaged.jsonl")[0]
    assert (
        len(whole["messages"]) > 2 and damaged["messages"] == whole["messages"] and damaged["tools"] == whole["tools"]
    )
    assert export_runs([copy], "openai", tmp_path / "counted.jsonl")["bad_lines"] == 2
