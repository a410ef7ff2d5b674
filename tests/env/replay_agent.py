"""A `cmd:` agent that replays fixed tool calls through the gateway: `CLAWGYM_REPLAY` (passed with `--agent-env`)
is a JSON object mapping a task's text to its calls, `[[tool, arguments], ...]`; the task is `CLAWGYM_TASK` (an
agent is told no scenario id).

    orchestrator run scenarios/travel.yaml --agent "cmd:python tests/env/replay_agent.py" --agent-env CLAWGYM_REPLAY
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from mcp import Client


async def main() -> int:
    calls = json.loads(os.environ["CLAWGYM_REPLAY"])[os.environ["CLAWGYM_TASK"]]
    async with Client(os.environ["CLAWGYM_MCP_URL"]) as client:
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            print(name, "error" if result.is_error else "ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
