"""A minimal ClawGym agent: connects to the gateway with `mcp.Client` and looks around.

    orchestrator run scenarios/travel.yaml --agent "cmd:python examples/agent.py"

It reads the task (the prompt `task`), lists the tools, and calls every
read-only tool that needs no arguments, printing what it sees. It does not
solve the task: put a model where `decide` is to make it a real agent.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from mcp import Client


def decide(task: str, tools: list, observations: dict) -> list[tuple[str, dict]]:
    """The next tool calls to make. A real agent asks a model here; this one stops."""
    return []


async def main() -> int:
    url = os.environ.get("CLAWGYM_MCP_URL")
    if not url:
        print("CLAWGYM_MCP_URL is not set: run me with orchestrator run --agent 'cmd:python examples/agent.py'", file=sys.stderr)
        return 2
    async with Client(url) as client:
        prompt = await client.get_prompt("task")
        task = prompt.messages[0].content.text
        print(f"task: {task}")
        tools = (await client.list_tools()).tools
        print(f"{len(tools)} tools: {', '.join(t.name for t in tools)}")
        observations = {}
        for tool in tools:
            read_only = tool.annotations is not None and tool.annotations.read_only_hint
            if read_only and not tool.input_schema.get("required"):
                result = await client.call_tool(tool.name, {})
                observations[tool.name] = result.structured_content
                print(f"{tool.name}: {json.dumps(result.structured_content)[:200]}")
        for name, arguments in decide(task, tools, observations):
            await client.call_tool(name, arguments)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
