"""An env's actions: a `ToolCall` (a gateway tool, or `submit` to end the episode) and `parse_action`, which reads
one from what a caller or a model produced (a dict, an OpenAI tool call, an Anthropic `tool_use` block …).

May import nothing of the orchestrator.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SUBMIT = "submit"
"""The action that ends an episode: `{"name": "submit", "arguments": {"message": "..."}}` (no app tool has this name)."""

SUBMIT_TOOL: dict[str, Any] = {
    "name": SUBMIT,
    "description": "End the episode: call this once the task is done (or cannot be done), with a short summary of "
    "what you did. No other tool can be called afterwards.",
    "inputSchema": {
        "type": "object",
        "properties": {"message": {"type": "string", "description": "A short summary of what you did."}},
        "required": ["message"],
        "additionalProperties": False,
    },
}
"""The `submit` action as an MCP tool entry; observations list it after the scenario's tools."""


class ToolCall(BaseModel):
    """An action: call the gateway tool `name` (`app__tool`) with `arguments`, or `submit` to end the episode."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str | None = Field(
        None, description="The caller's id for the call (an OpenAI/Anthropic tool-call id), echoed in info."
    )


ActionLike = ToolCall | Mapping[str, Any] | Any


def parse_action(action: ActionLike) -> ToolCall:
    """A `ToolCall` from what a caller or a model produced.

    Accepted: a `ToolCall`; `{"name", "arguments"}` (arguments a mapping or a JSON string); an OpenAI tool call
    (`{"type": "function", "id", "function": {"name", "arguments": "<json>"}}`, or the SDK's object); an Anthropic
    `tool_use` block (`{"type": "tool_use", "id", "name", "input"}`, or the SDK's object). Raises `ValueError`
    saying what was expected; arguments that are not a JSON object raise `ValueError` too."""
    if isinstance(action, ToolCall):
        action = {"name": action.name, "arguments": action.arguments, "id": action.id}
    if not isinstance(action, Mapping):
        if hasattr(action, "model_dump"):
            action = action.model_dump()
        elif hasattr(action, "__dict__"):
            action = vars(action)
        else:
            raise ValueError(
                f"an action is a ToolCall or a mapping with 'name' and 'arguments', not {type(action).__name__}"
            )
    call_id = action.get("id")
    if isinstance(action.get("function"), Mapping) or hasattr(action.get("function"), "name"):
        function = action["function"]
        function = function if isinstance(function, Mapping) else vars(function)
        name, arguments = function.get("name"), function.get("arguments")
    elif "input" in action and "arguments" not in action:
        name, arguments = action.get("name"), action.get("input")
    else:
        name, arguments = action.get("name"), action.get("arguments")
    if not isinstance(name, str) or not name:
        raise ValueError(
            f"the action has no tool name: expected {{'name': 'app__tool', 'arguments': {{...}}}}, got {dict(action)!r}"
        )
    if arguments is None or arguments == "":
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError as exc:
            raise ValueError(f"the arguments of {name!r} are not valid JSON: {exc}") from None
    if not isinstance(arguments, Mapping):
        raise ValueError(f"the arguments of {name!r} must be a JSON object, got {type(arguments).__name__}")
    try:  # what reaches the gateway is plain JSON, as over the wire: no NaN, no Python objects, bounded nesting
        arguments = json.loads(json.dumps(arguments, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"the arguments of {name!r} are not plain JSON: {exc}") from None
    return ToolCall(name=name, arguments=arguments, id=call_id if isinstance(call_id, str) else None)
