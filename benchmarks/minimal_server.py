"""The baseline: a minimal one-tool MCPServer over Streamable HTTP, as the SDK serves it."""

import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

server = MCPServer("minimal", log_level="WARNING")


class Echo(BaseModel):
    text: str


@server.tool()
def echo(text: str) -> Echo:
    """Return the text."""
    return Echo(text=text)


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
