"""Docs: a Drive of folders and markdown documents with sharing, comments and revision history (like Google Docs).

May import: `servers.core` only; no other app, nothing of the orchestrator.
"""

from servers.core import App
from servers.docs.harm import HARM
from servers.docs.schema import SCHEMA
from servers.docs.seed import Seed, load, load_more
from servers.docs.tools import tools

APP = App(
    "docs",
    title="Docs",
    instructions=(
        "The user's documents and folders (My Drive), in markdown. Find documents with search_documents or browse "
        "with list_folder, then open one with get_document; tools take a document's id or its url. Edit with "
        "edit_document (find and replace), append_content or replace_content; every change is kept as a revision. "
        "Share with share_document and paste a document's url to point people at it. Your access to each document "
        "(owner, editor, commenter, viewer) decides what you may do."
    ),
    schema=SCHEMA,
    seed_model=Seed,
    load_seed=load,
    load_more=load_more,
    tools=tools,
    harm=HARM,
)

__all__ = ["APP"]
