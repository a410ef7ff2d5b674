"""Tool and message conversions of the model agents, on every app's real tools."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from anthropic.types import ToolParam
from helpers import in_memory
from openai.types.chat import ChatCompletionToolParam
from pydantic import TypeAdapter

from orchestrator.agents.models.convert import (
    anthropic_to_openai,
    anthropic_tools,
    drop_unset_nulls,
    openai_to_anthropic,
    openai_tools,
    result_text,
)
from orchestrator.agents.models.loop import parse_arguments, retry_after
from orchestrator.agents.models.options import parse_price
from orchestrator.episode.gateway import gateway_name
from servers import registry


async def every_tool() -> list[dict]:
    tools = []
    for app in sorted(registry.BUILTIN):
        async with in_memory(registry.load(app)) as (client, _):
            tools += [
                {"name": gateway_name(app, t.name), "description": t.description, "inputSchema": t.input_schema}
                for t in (await client.list_tools()).tools
            ]
    return tools


def objects(schema: object) -> list[dict]:
    out = []
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            out.append(schema)
        for value in schema.values():
            out += objects(value)
    elif isinstance(schema, list):
        for value in schema:
            out += objects(value)
    return out


async def test_every_tool_of_every_app_converts_to_a_strict_openai_tool() -> None:
    tools = await every_tool()
    assert len(tools) >= 68
    adapter = TypeAdapter(ChatCompletionToolParam)
    for tool, converted in zip(tools, openai_tools(tools), strict=True):
        adapter.validate_python(converted)
        function = converted["function"]
        assert function["strict"] is True and function["name"] == tool["name"]
        assert "$ref" not in json.dumps(function["parameters"]) and "$defs" not in function["parameters"]
        for node in objects(function["parameters"]):  # strict mode: every object closed, every property required
            assert node["additionalProperties"] is False, tool["name"]
            assert sorted(node.get("required", [])) == sorted(node.get("properties", {})), tool["name"]
        original = tool["inputSchema"]
        for name in set(original.get("properties", {})) - set(original.get("required", [])):
            assert {"type": "null"} in function["parameters"]["properties"][name]["anyOf"], (tool["name"], name)
        assert tool["inputSchema"] == original  # the source schema is left alone
    anthropic = TypeAdapter(ToolParam)
    for converted in anthropic_tools(tools):
        anthropic.validate_python(converted)


def test_nulls_for_optional_arguments_are_dropped_required_ones_kept() -> None:
    schema = {"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "required": ["a"]}
    assert drop_unset_nulls({"a": None, "b": None, "c": 1}, schema) == {"a": None, "c": 1}


def test_results_are_json_or_text_and_long_ones_are_cut_with_a_marker() -> None:
    structured = SimpleNamespace(structured_content={"id": "x", "n": 1}, content=[])
    assert json.loads(result_text(structured, 1000)) == {"id": "x", "n": 1}
    text = result_text({"content": [{"type": "text", "text": "y" * 500}]}, 100)
    assert (
        text.startswith("y" * 100)
        and text.endswith("[truncated: 100 of 500 characters shown]")
        and "y" * 101 not in text
    )


def test_malformed_arguments_are_named() -> None:
    assert parse_arguments('{"a": 1}') == ({"a": 1}, None)
    assert parse_arguments("{a: 1")[1].startswith("not valid JSON")
    assert parse_arguments("[1]")[1] == "expected a JSON object, got list"


def test_retry_after_headers() -> None:
    def exc(**headers: str) -> object:
        return SimpleNamespace(response=SimpleNamespace(headers=headers))

    assert retry_after(exc(**{"retry-after": "2"})) == 2.0
    assert retry_after(exc(**{"retry-after-ms": "250", "retry-after": "9"})) == 0.25
    assert retry_after(exc(**{"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0  # a date in the past: no wait
    assert retry_after(exc()) is None and retry_after(ValueError()) is None


def test_prices_inline_and_from_a_file(tmp_path: Path) -> None:
    price = parse_price("2,8,0.5", "m")
    assert price.cost(1_000_000, 1_000_000, 500_000) == pytest.approx(0.5 * 2 + 0.5 * 0.5 + 8)
    table = tmp_path / "prices.yaml"
    table.write_text("gpt-x: {input: 1, output: 4}\ndefault: [3, 15]\n")
    assert parse_price(str(table), "gpt-x").output == 4 and parse_price(str(table), "other").input == 3
    with pytest.raises(ValueError, match="INPUT,OUTPUT"):
        parse_price("cheap", "m")
    table.write_text("gpt-x: {input: 1}\n")
    with pytest.raises(ValueError, match="no entry for model 'y'"):
        parse_price(str(table), "y")


def test_conversations_convert_both_ways() -> None:
    openai = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "T"},
        {
            "role": "assistant",
            "content": "thinking",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "a__x", "arguments": '{"q": 1}'}},
                {"id": "c2", "type": "function", "function": {"name": "a__y", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "tool", "tool_call_id": "c2", "content": "Error: no"},
        {"role": "assistant", "content": "done"},
    ]
    system, messages = openai_to_anthropic(openai)
    assert system == "S" and [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "one"},
        {"type": "tool_result", "tool_use_id": "c2", "content": "no", "is_error": True},
    ]
    back = anthropic_to_openai(system, messages)
    assert back[:2] == [{"role": "system", "content": "S"}, {"role": "user", "content": "T"}]
    assert (
        back[2]["tool_calls"][0]["function"] == {"name": "a__x", "arguments": '{"q": 1}'}
        and back[4]["content"] == "Error: no"
    )
