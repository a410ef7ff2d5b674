"""Calendar: calendars, events with guests and time zones, free/busy and free-slot search (like Google Calendar).

May import: `servers.core` only; no other app, nothing of the orchestrator.
"""

from servers.calendar.harm import HARM
from servers.calendar.schema import SCHEMA
from servers.calendar.seed import Seed, load, load_more
from servers.calendar.tools import tools
from servers.core import App

APP = App(
    "calendar",
    title="Calendar",
    instructions=(
        "The user's calendar. Times are ISO 8601; a time without an offset is read in the user's time zone "
        "unless a tool says otherwise. Find events with list_events (a time window) or search_events (words, "
        "guests); check availability with find_free_slots before proposing or booking a meeting."
    ),
    schema=SCHEMA,
    seed_model=Seed,
    load_seed=load,
    load_more=load_more,
    tools=tools,
    harm=HARM,
)

__all__ = ["APP"]
