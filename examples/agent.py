"""A minimal ClawGym agent: connects to the gateway with `mcp.Client` and looks around.

    orchestrator run scenarios/travel.yaml --agent "cmd:python examples/agent.py"

It reads the task (the prompt `task`), lists the tools, and calls the
read-only `list_*` tools that need no arguments, printing what it sees. It
does not solve the task: put a model where `decide` is to make it a real
agent (pass its API key with `--agent-env NAME`).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

try:
    from mcp import Client
except ImportError:
    sys.exit(f"this agent needs the mcp package; {sys.executable} has none (run it through `orchestrator run`)")


def decide(task: str, tools: list[Any], observations: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The next tool calls to make. A real agent asks a model here; this one stops."""
    return []


def looks_around(tool: Any) -> bool:
    """A read-only `list_*` tool that needs no arguments: safe to call with `{}`."""
    read_only = tool.annotations is not None and tool.annotations.read_only_hint
    short_name = tool.name.split("__", 1)[-1]
    return bool(read_only) and short_name.startswith("list_") and not tool.input_schema.get("required")


def shown(result: Any) -> str:
    if result.is_error:
        return "error: " + " ".join(c.text for c in result.content if getattr(c, "text", None))
    return json.dumps(result.structured_content)[:200]


async def main() -> int:
    url = os.environ.get("CLAWGYM_MCP_URL")
    if not url:
        print(
            "CLAWGYM_MCP_URL is not set: run me with orchestrator run --agent 'cmd:python examples/agent.py'",
            file=sys.stderr,
        )
        return 2
    async with Client(url) as client:
        prompt = await client.get_prompt("task")
        task = prompt.messages[0].content.text
        print(f"task: {task}")
        tools = (await client.list_tools()).tools
        print(f"{len(tools)} tools: {', '.join(t.name for t in tools)}")
        observations: dict[str, Any] = {}
        for tool in filter(looks_around, tools):
            result = await client.call_tool(tool.name, {})
            observations[tool.name] = None if result.is_error else result.structured_content
            print(f"{tool.name}: {shown(result)}")
        for name, arguments in decide(task, tools, observations):
            print(f"{name}: {shown(await client.call_tool(name, arguments))}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
