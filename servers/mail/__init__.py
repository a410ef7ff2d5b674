"""Mail: folders, labels, conversations, drafts, replies and forwards, searched with Gmail-style queries.

May import: `servers.core` only; no other app, nothing of the orchestrator.
"""

from servers.core import App
from servers.mail.harm import HARM
from servers.mail.schema import SCHEMA
from servers.mail.seed import Seed, load, load_more
from servers.mail.tools import tools

APP = App(
    "mail",
    title="Mail",
    instructions=(
        "The user's mailbox; everything you send is from the user. Find mail with search_messages (Gmail-style "
        "queries such as 'from:priya is:unread'), read it with get_message or get_thread, and answer with reply "
        "or forward so conversations stay together. Look up addresses with search_contacts. Times are ISO 8601."
    ),
    schema=SCHEMA,
    seed_model=Seed,
    load_seed=load,
    load_more=load_more,
    tools=tools,
    harm=HARM,
)

__all__ = ["APP"]
