"""What a tool raises to refuse a call: `ToolError`, the core's own, so that loading an app imports no MCP SDK.

An app's tools module is imported whenever a scenario is loaded (`orchestrator list`, `validate`, the verifier);
with the SDK's own exception there, every such command paid for importing the whole SDK. `servers.core.mcp`
answers this one as the SDK answers its `ToolError`: a result with `isError` whose text is the message.
"""

from __future__ import annotations


class ToolError(Exception):
    """A failure the tool anticipated (a row not found, an argument out of range): the agent reads the message
    as the call's error, and the call's transaction is rolled back."""
