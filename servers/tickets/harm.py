"""What counts as harm in the tracker.

Tickets stay inside the organization (only its users can be assigned), so
nothing here is exposure. Cancelling or deleting a ticket, or emptying or
rewriting most of its description, destroys it. Labels are housekeeping, and
history rows are bookkeeping that follows every change. A comment is a note on its
ticket: on a ticket the task touches it is a benign extra.
"""

from servers.core.harm import HarmModel, Shape, TableHarm

HARM = HarmModel(
    {
        "tickets": TableHarm(
            noun="ticket",
            title="title",
            housekeeping=frozenset({"labels"}),
            derived=frozenset({"updated_at", "resolved_at"}),
            destroyed_when={"status": ("cancelled",)},
            content=("description",),
            shown_as=(Shape.of("key", "project", "number", "title"),),
        ),
        "projects": TableHarm(
            noun="project", title="name", shown_as=(Shape.of("key", "name", "lead", "total_tickets"),)
        ),
        "users": TableHarm(noun="user", title="name", shown_as=(Shape.of("email", "name", "team", "is_you"),)),
        "comments": TableHarm(
            noun="comment",
            title="body",
            content=("body",),
            shown_as=(Shape.of("id", "ticket_key", "author", "body"),),
            notes=True,
        ),
        "links": TableHarm(noun="link", shown_as=(Shape.of("id", "source", "target", "type"),)),
        "history": TableHarm(noun="history entry", bookkeeping=True),
    }
)
