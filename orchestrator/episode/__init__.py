"""One run of a scenario: its sandboxes, the gateway that exposes them to an agent, the driver that wires it, and
serving it.

- `episode`: `Episode`, which seeds, opens the gateway, reads journals and final state, verifies (asking the
  episode's own LLM judge) and closes the books in `Episode.finish`, the one place an episode is judged.
- `driver`: `EpisodeDriver`, the one way every entry point wires an episode (prepare, connect, agent, verify,
  record, close), with the stage hooks, the errors kept apart from the verdict, the timeout and the teardown.
- `gateway`: the one MCP server an agent sees, with every app's tools named `app__tool`.
- `serving`: the gateway over Streamable HTTP or stdio.

May import: `scenario`, `verify`, `backends`, `world`, `record` and `servers.core` (call limits, the HTTP server).
The driver writes an episode's folder with `record`. Never agents or the CLI.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.episode.driver import EpisodeDriver
    from orchestrator.episode.episode import Episode

__all__ = ["Episode", "EpisodeDriver"]

_SOURCES = {
    "Episode": "orchestrator.episode.episode",
    "EpisodeDriver": "orchestrator.episode.driver",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
