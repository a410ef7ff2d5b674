"""ClawGym's simulated applications, each an MCP server over resettable sandboxes."""

__version__ = "0.1.0"
