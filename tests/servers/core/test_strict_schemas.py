"""Every tool's input schema, as the MCP server lists it, is usable in OpenAI's strict tool-calling mode.

Strict mode (Structured Outputs) needs: an object at the root (not a union), `additionalProperties: false`
on every object, no `$ref`/`$defs`, and every property listed in `required`. The last one is what a client
converting the tools does for its API (it lists every argument and keeps the optional ones nullable or
defaulted); everything else must already hold in the schema the server publishes. The check runs the
`openai` SDK's own strict-schema helper over each schema and requires that it changes nothing else.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from helpers import in_memory

from servers import registry

openai_pydantic = pytest.importorskip("openai.lib._pydantic")

APPS = sorted(registry.BUILTIN)
STRING_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


async def listed_tools(app: str) -> list[Any]:
    async with in_memory(registry.load(app)) as (client, _):
        return (await client.list_tools()).tools


def nodes(schema: Any, path: str = "#") -> list[tuple[str, dict[str, Any]]]:
    """Every sub-schema with its JSON pointer."""
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(schema, dict):
        out.append((path, schema))
        for key in ("properties", "$defs", "definitions"):
            for name, sub in (schema.get(key) or {}).items():
                out += nodes(sub, f"{path}/{key}/{name}")
        if isinstance(schema.get("items"), dict):
            out += nodes(schema["items"], f"{path}/items")
        for key in ("anyOf", "allOf", "oneOf"):
            for i, sub in enumerate(schema.get(key) or []):
                out += nodes(sub, f"{path}/{key}/{i}")
    return out


def strict_problems(schema: dict[str, Any]) -> list[str]:
    problems = []
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("# is not a plain object")
    for path, node in nodes(schema):
        if "$ref" in node or "$defs" in node or "definitions" in node:
            problems.append(f"{path} uses $ref/$defs")
        if node.get("type") == "object" and node.get("additionalProperties") is not False:
            problems.append(f"{path} is an object without additionalProperties: false")
        if "oneOf" in node or "allOf" in node or "not" in node or "patternProperties" in node:
            problems.append(f"{path} uses a keyword strict mode does not support")
        if node.get("format") is not None and node["format"] not in STRING_FORMATS:
            problems.append(f"{path} has format {node['format']!r}, not one strict mode supports")
    converted = openai_pydantic._ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=copy.deepcopy(schema))
    if _without_required(converted) != _without_required(schema):
        problems.append("the SDK's strict conversion changes more than `required`")
    return problems


def _without_required(schema: Any) -> Any:
    """The schema with `required` lists and `default: null` taken out: what strict conversion may change."""
    if isinstance(schema, dict):
        return {
            k: _without_required(v) for k, v in schema.items() if k != "required" and not (k == "default" and v is None)
        }
    if isinstance(schema, list):
        return [_without_required(v) for v in schema]
    return schema


@pytest.mark.parametrize("app", APPS)
async def test_every_tool_schema_is_strict_mode_ready(app: str) -> None:
    tools = await listed_tools(app)
    assert tools, f"{app} lists no tools"
    bad = {t.name: strict_problems(t.input_schema) for t in tools}
    bad = {name: problems for name, problems in bad.items() if problems}
    assert not bad, json.dumps(bad, indent=1)


async def test_the_tools_that_failed_before_are_strict_now() -> None:
    """The four mail tools with attachments (a $ref before) and the three tools without arguments."""
    by_name = {t.name: t.input_schema for t in await listed_tools("mail")}
    for name in ("send_message", "reply", "create_draft", "update_draft"):
        schema = by_name[name]
        assert "$defs" not in json.dumps(schema)
        attachments = schema["properties"]["attachments"]
        array = attachments if "items" in attachments else attachments["anyOf"][0]
        assert array["maxItems"] == 20
        item = array["items"]
        assert item["type"] == "object" and item["additionalProperties"] is False
        assert set(item["properties"]) == {"name", "content"}
    empty = {"list_folders": "mail", "list_calendars": "calendar", "list_projects": "tickets"}
    for name, app in empty.items():
        schema = next(t.input_schema for t in await listed_tools(app) if t.name == name)
        assert schema["properties"] == {} and schema["additionalProperties"] is False


def test_the_check_catches_what_strict_mode_rejects() -> None:
    """The checker itself fails the schemas strict mode refuses, so a pass above means something."""
    assert strict_problems({"type": "object", "properties": {}})
    assert strict_problems(
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/A"}}},
            "$defs": {"A": {"type": "object", "additionalProperties": False, "properties": {}}},
        }
    )
    assert strict_problems(
        {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "object", "properties": {}}}}
    )
    assert not strict_problems(
        {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string", "maxLength": 5}}}
    )


async def test_a_tool_refuses_arguments_its_schema_does_not_list() -> None:
    """additionalProperties: false is what the server does, not only what it says."""
    async with in_memory(registry.load("calendar")) as (client, _):
        result = await client.call_tool("list_calendars", {"verbose": True})
    assert result.is_error
    assert "does not take 'verbose'" in result.content[0].text
