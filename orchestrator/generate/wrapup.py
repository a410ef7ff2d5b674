"""A wrap-up twist's names and checks: the tracking ticket and its owner, the notes doc naming the ticket's key
(stated, not hedged) and shared with the team, the doc's link on the ticket, the team told both, and a linked
wrap-up's second ticket, titled as asked and linked to the first either way round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orchestrator.generate.build import Person
from orchestrator.generate.family import join, stated_key


def _says(title: str) -> dict[str, Any]:
    """A title that says this phrase (a fixed title the instruction gives)."""
    return {"says": {"phrase": [title], "claimed": False}}


@dataclass(frozen=True)
class Wrap:
    """What a wrap-up names: the project, the tracking ticket's title and owner, the doc, the team, the review."""

    project: str
    title: str
    doc: str
    owner: Person
    team: list[Person]
    review: str | None
    """A linked wrap-up's second ticket (None: not linked)."""

    @property
    def emails(self) -> list[str]:
        return [p.email for p in self.team]

    def ticket_ref(self, field: str, title: str | None = None) -> dict[str, Any]:
        """The `field` of the added ticket titled `title` (default: the tracking ticket)."""
        return {
            "from": {
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": {"title": _says(title or self.title)},
                "field": field,
            }
        }

    def key_stated(self) -> dict[str, Any]:
        """The tracking ticket's key, stated (`stated_key`)."""
        return stated_key({"title": _says(self.title)})

    def doc_ref(self, field: str) -> dict[str, Any]:
        return {
            "from": {
                "app": "docs",
                "table": "documents",
                "added": True,
                "where": {"title": _says(self.doc)},
                "field": field,
            }
        }


def wrap_checks(wrap: Wrap) -> list[dict[str, Any]]:
    """What a wrap-up is judged by: the ticket and its owner, the doc naming its key and shared with each teammate,
    the comment with the doc's link, the team told both (and a linked wrap-up's link)."""
    doc = {"app": "docs", "table": "documents", "added": True}
    checks: list[dict[str, Any]] = [
        {
            "name": f'a {wrap.project} ticket "{wrap.title}" for {wrap.owner.name}',
            "app": "tickets",
            "table": "tickets",
            "added": True,
            "where": {"title": _says(wrap.title)},
            "expect": {"count": 1, "all": {"project": wrap.project, "assignee": wrap.owner.email}},
        },
        {
            "name": f'a doc "{wrap.doc}" that names the ticket\'s key',
            **doc,
            "where": {"title": _says(wrap.doc), "content": wrap.key_stated()},
        },
        *(
            {
                "name": f"{p.name} can edit the doc",
                **doc,
                "where": {"title": _says(wrap.doc), "shared_with": {"has": {"email": p.email, "role": "editor"}}},
            }
            for p in wrap.team
        ),
        {
            "name": "the ticket has a comment with the doc's link",
            "app": "tickets",
            "table": "comments",
            "added": True,
            "where": {"body": {"links": wrap.doc_ref("url")}},
        },
        {
            "name": f"{join([p.first_name for p in wrap.team])} told the key and the link",
            "told": {
                "who": wrap.emails,
                "facts": [wrap.key_stated(), {"links": wrap.doc_ref("url")}],
            },
        },
    ]
    if wrap.review is not None:
        review, ticket = {"equals": wrap.ticket_ref("key", wrap.review)}, {"equals": wrap.ticket_ref("key")}
        checks += [
            {
                "name": f'a {wrap.project} ticket "{wrap.review}"',
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": {"title": _says(wrap.review)},
                "expect": {"count": 1, "all": {"project": wrap.project}},
            },
            {
                "name": f'"{wrap.review}" is linked to "{wrap.title}" as related',
                "app": "tickets",
                "table": "links",
                "added": True,
                "where": {
                    "type": "relates_to",
                    "any": [{"source": review, "target": ticket}, {"source": ticket, "target": review}],
                },
                "expect": {"count": 1},
            },
        ]
    return checks
