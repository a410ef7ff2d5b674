"""One run of a scenario: its sandboxes, the gateway that exposes them to an agent, and serving it.

- `episode`: `Episode`, which seeds, opens the gateway, reads journals and final state, verifies (asking the
  episode's own LLM judge) and closes the books in `Episode.finish`, the one place an episode is judged.
- `gateway`: the one MCP server an agent sees, with every app's tools named `app__tool`.
- `serving`: the gateway over Streamable HTTP or stdio.

May import: `scenario`, `verify`, `backends`, `world` and `servers.core` (call limits, the HTTP server).
Never agents or the CLI.
"""

from orchestrator.episode.episode import Episode

__all__ = ["Episode"]
