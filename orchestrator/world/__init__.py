"""A living world around an episode: events on the clock, time that moves with the work, people who answer.

It runs the scenario's `world:` section, whose models are `orchestrator.scenario.worldspec`.

- `timeline`: the episode's one clock, moved by tool calls and by waiting, shared by every app.
- `people`: people's behaviour (mail replies, invitation responses, ticket comments) compiled to events.
- `events`: the event engine the gateway runs before each tool call, and the gateway's own tools
  (`world__wait`, `world__ask_user`, `world__report`).
- `noise`: faults and noisy data laid over any scenario (`--noise`).

May import: `scenario`, `backends`, `servers.core`, `servers.registry`; never `episode`, `verify`, agents or the CLI.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.world.events import WorldEngine, make_engine
    from orchestrator.world.timeline import Timeline

__all__ = [
    "Timeline",
    "WorldEngine",
    "make_engine",
]

_SOURCES = {
    "Timeline": "orchestrator.world.timeline",
    "WorldEngine": "orchestrator.world.events",
    "make_engine": "orchestrator.world.events",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
