"""Tickets: projects, tickets with a status workflow, assignees, comments and links (like Jira or Linear).

May import: `servers.core` only; no other app, nothing of the orchestrator.
"""

from servers.core import App
from servers.tickets.harm import HARM
from servers.tickets.schema import SCHEMA
from servers.tickets.seed import Seed, load, load_more
from servers.tickets.tools import tools

APP = App(
    "tickets",
    title="Tickets",
    instructions=(
        "The team's issue tracker. Tickets belong to projects and are keyed PROJECT-NUMBER, e.g. OPS-12. "
        "You are the signed-in user: tickets you create are reported by you and comments are written as you. "
        "Find tickets with search_tickets and read one with get_ticket (comments, links, history and the "
        "statuses it can move to). Change fields with update_ticket, the status with transition_ticket and the "
        "assignee with assign_ticket; list_users gives the emails you can assign to."
    ),
    schema=SCHEMA,
    seed_model=Seed,
    load_seed=load,
    load_more=load_more,
    tools=tools,
    harm=HARM,
)

__all__ = ["APP"]
