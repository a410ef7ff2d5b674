"""Formats: MCP tools in each API's tool format, tool results as text, conversations between formats.

The OpenAI (Chat Completions) format is the pivot: an Anthropic conversation converts to it and back, and
ShareGPT is made from it. `trace_messages` builds an OpenAI-format conversation out of any episode's trace
(a `cmd:` agent or the oracle has no messages of its own, but its tool calls and results are in the trace).
"""

from __future__ import annotations

import copy
import json
from typing import Any

TRUNCATED = "\n…[truncated: {shown} of {total} characters shown]"


# ---- tools -----------------------------------------------------------------------------------------------


def _tool_fields(tool: Any) -> tuple[str, str, dict[str, Any]]:
    """(name, description, input schema) of an MCP tool object or a tools/list JSON entry."""
    if isinstance(tool, dict):
        return tool["name"], tool.get("description") or "", tool.get("inputSchema") or tool.get("input_schema") or {}
    return tool.name, tool.description or "", tool.input_schema


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The tool's schema as OpenAI strict mode wants it: every property required, optional ones nullable.

    The schemas are strict-ready at the source (no $ref, `additionalProperties: false` everywhere); what the
    conversion adds is `required` listing every property (through the `openai` SDK's own helper), with the
    top-level arguments that were optional made nullable, so the model can send `null` for "not given"
    (`drop_unset_nulls` takes those out again before the call)."""
    from openai.lib._pydantic import _ensure_strict_json_schema

    schema = copy.deepcopy(schema) or {"type": "object", "properties": {}, "additionalProperties": False}
    optional = set(schema.get("properties") or {}) - set(schema.get("required") or [])
    for name in optional:
        prop = schema["properties"][name]
        if not _nullable(prop):
            prop.pop("default", None)
            schema["properties"][name] = (
                {"anyOf": [prop, {"type": "null"}]}
                if "anyOf" not in prop
                else {**prop, "anyOf": [*prop["anyOf"], {"type": "null"}]}
            )
    return _ensure_strict_json_schema(schema, path=(), root=schema)


def _nullable(prop: dict[str, Any]) -> bool:
    kind = prop.get("type")
    return (
        kind == "null"
        or (isinstance(kind, list) and "null" in kind)
        or any(isinstance(p, dict) and p.get("type") == "null" for p in prop.get("anyOf") or [])
    )


def openai_tools(tools: list[Any], *, strict: bool = True) -> list[dict[str, Any]]:
    """MCP tools as Chat Completions function tools; `strict` gives each its `strict_schema` and asks the API to
    keep to it."""
    out = []
    for tool in tools:
        name, description, schema = _tool_fields(tool)
        function: dict[str, Any] = {
            "name": name,
            "description": description,
            "parameters": strict_schema(schema) if strict else schema,
        }
        if strict:
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out


def anthropic_tools(tools: list[Any]) -> list[dict[str, Any]]:
    """MCP tools as Messages API tools (name, description, input_schema)."""
    out = []
    for tool in tools:
        name, description, schema = _tool_fields(tool)
        out.append(
            {"name": name, "description": description, "input_schema": schema or {"type": "object", "properties": {}}}
        )
    return out


def openai_tools_to_anthropic(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat Completions function tools as Messages API tools."""
    return [
        {
            "name": t["function"]["name"],
            "description": t["function"].get("description", ""),
            "input_schema": t["function"].get("parameters") or {"type": "object", "properties": {}},
        }
        for t in tools
    ]


def anthropic_tools_to_openai(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages API tools as Chat Completions function tools (not strict)."""
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": t.get("input_schema") or {},
            },
        }
        for t in tools
    ]


def drop_unset_nulls(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments without the `null`s the model sent for optional arguments (strict mode makes it send them)."""
    required = set(schema.get("required") or [])
    return {k: v for k, v in arguments.items() if v is not None or k in required}


# ---- tool results ----------------------------------------------------------------------------------------


def result_text(result: Any, limit: int) -> str:
    """An MCP tool result as the text a model reads: structured content as JSON, else the text parts;
    cut to `limit` characters with a marker."""
    if isinstance(result, dict):
        structured = result.get("structuredContent")
        content = result.get("content") or []
    else:
        structured = result.structured_content
        content = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in result.content or []]
    if structured is not None:
        text = json.dumps(structured, ensure_ascii=False)
    else:
        parts = [c.get("text", "") if c.get("type") == "text" else json.dumps(c, ensure_ascii=False) for c in content]
        text = "\n".join(parts)
    return truncate(text, limit)


def truncate(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with a marker saying how much was shown of how much."""
    if len(text) <= limit:
        return text
    return text[:limit] + TRUNCATED.format(shown=limit, total=len(text))


ERROR_PREFIX = "Error: "


# ---- conversations ---------------------------------------------------------------------------------------


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", "")) for part in content if isinstance(part, dict) and part.get("type") == "text"
        )
    return "" if content is None else str(content)


def anthropic_to_openai(system: str | None, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An Anthropic conversation as Chat Completions messages (tool_use → tool_calls, tool_result → tool)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])
        if message["role"] == "assistant":
            text = "\n".join(b["text"] for b in blocks if b.get("type") == "text" and b.get("text"))
            calls = [
                {
                    "id": b["id"],
                    "type": "function",
                    "function": {"name": b["name"], "arguments": json.dumps(b.get("input") or {}, ensure_ascii=False)},
                }
                for b in blocks
                if b.get("type") == "tool_use"
            ]
            item: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                item["tool_calls"] = calls
            out.append(item)
            continue
        texts = []
        for block in blocks:
            if block.get("type") == "tool_result":
                text = _text_of(block.get("content"))
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": block["tool_use_id"],
                        "content": ERROR_PREFIX + text if block.get("is_error") else text,
                    }
                )
            elif block.get("type") == "text":
                texts.append(block["text"])
        if texts:
            out.append({"role": "user", "content": "\n".join(texts)})
    return out


def openai_to_anthropic(messages: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    """Chat Completions messages as (system, Anthropic messages); consecutive tool results share one user turn."""
    system = "\n\n".join(_text_of(m.get("content")) for m in messages if m["role"] in ("system", "developer")) or None
    out: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})

    for message in messages:
        role = message["role"]
        if role in ("system", "developer"):
            continue
        if role == "assistant":
            blocks: list[dict[str, Any]] = []
            text = _text_of(message.get("content"))
            if text:
                blocks.append({"type": "text", "text": text})
            for call in message.get("tool_calls") or []:
                try:
                    arguments = json.loads(call["function"].get("arguments") or "{}")
                except ValueError:
                    arguments = None
                if not isinstance(arguments, dict):  # malformed arguments: kept, so the error result after makes sense
                    arguments = {"arguments": call["function"].get("arguments")}
                blocks.append(
                    {"type": "tool_use", "id": call["id"], "name": call["function"]["name"], "input": arguments}
                )
            add("assistant", blocks or [{"type": "text", "text": ""}])
        elif role == "tool":
            text = _text_of(message.get("content"))
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": text}
            if text.startswith(ERROR_PREFIX):
                block = {**block, "content": text[len(ERROR_PREFIX) :], "is_error": True}
            add("user", [block])
        else:
            add("user", [{"type": "text", "text": _text_of(message.get("content"))}])
    return system, out


def openai_to_sharegpt(messages: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, str]]]:
    """(system, conversations) in the ShareGPT tool format: human, gpt, function_call, observation.

    An assistant turn with several calls is one `function_call` holding a JSON list; their results are one
    `observation` holding a JSON list, so the turns alternate as ShareGPT trainers expect."""
    system = "\n\n".join(_text_of(m.get("content")) for m in messages if m["role"] in ("system", "developer")) or None
    out: list[dict[str, str]] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append(
                {
                    "from": "observation",
                    "value": pending[0] if len(pending) == 1 else json.dumps(pending, ensure_ascii=False),
                }
            )
            pending.clear()

    for message in messages:
        role = message["role"]
        if role == "tool":
            pending.append(_text_of(message.get("content")))
            continue
        flush()
        if role == "user":
            out.append({"from": "human", "value": _text_of(message.get("content"))})
        elif role == "assistant":
            calls = []
            for call in message.get("tool_calls") or []:
                try:
                    arguments: Any = json.loads(call["function"].get("arguments") or "{}")
                except ValueError:
                    arguments = call["function"].get("arguments")
                calls.append({"name": call["function"]["name"], "arguments": arguments})
            if calls:
                out.append(
                    {
                        "from": "function_call",
                        "value": json.dumps(calls[0] if len(calls) == 1 else calls, ensure_ascii=False),
                    }
                )
            else:
                out.append({"from": "gpt", "value": _text_of(message.get("content"))})
    flush()
    return system, out


def trace_messages(
    trace: list[dict[str, Any]], instruction: str, system: str | None = None, limit: int = 20_000
) -> list[dict[str, Any]]:
    """A Chat Completions view of an episode's gateway trace: the task, then one assistant tool call and its
    result per `tools/call`, in order (for agents that keep no messages of their own)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": instruction})
    for entry in trace:
        if entry.get("source") != "gateway" or entry.get("method") != "tools/call":
            continue
        params = entry.get("params") or {}
        call_id = f"call_{entry.get('seq', len(messages))}"
        arguments = params.get("arguments") or {}
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": str(params.get("name")),
                            "arguments": json.dumps(arguments, ensure_ascii=False),
                        },
                    }
                ],
            }
        )
        result = entry.get("result")
        if isinstance(result, dict) and result.get("truncated"):
            text, failed = truncate(str(result.get("preview", "")), limit), bool(entry.get("is_error"))
        elif isinstance(result, dict):
            text, failed = result_text(result, limit), bool(result.get("isError") or entry.get("is_error"))
        else:
            text, failed = str(entry.get("error") or ""), True
        messages.append({"role": "tool", "tool_call_id": call_id, "content": ERROR_PREFIX + text if failed else text})
    return messages
