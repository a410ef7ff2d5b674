"""A living world around an episode: events on the clock, time that moves with the work, people who answer.

- `spec`: the scenario's `world:` section as models (events, clock steps, waits, people, the user).
- `timeline`: the episode's one clock, moved by tool calls and by waiting, shared by every app.
- `people`: people's behaviour (mail replies, invitation responses, ticket comments) compiled to events.
- `events`: the event engine the gateway runs before each tool call, and the gateway's own tools
  (`world__wait`, `world__ask_user`, `world__report`).
- `noise`: faults and noisy data laid over any scenario (`--noise`).

`spec` imports only pydantic and `servers`; the others may import `scenario` and `backends`,
never `episode`, `verify`, agents or the CLI.
"""
