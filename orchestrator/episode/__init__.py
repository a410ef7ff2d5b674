"""One run of a scenario: its sandboxes, the gateway that exposes them to an agent, and serving it.

- `episode`: `Episode`, which seeds, opens the gateway, reads journals and final state, and verifies.
- `gateway`: the one MCP server an agent sees, with every app's tools named `app__tool`.
- `serving`: the gateway over Streamable HTTP or stdio.

May import `scenario`, `verify`, `backends` and `world`; never agents or the CLI.
"""

from orchestrator.episode.episode import Episode

__all__ = ["Episode"]
