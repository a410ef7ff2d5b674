"""doc-comments: turn a document's open review comments into tickets.

A design document the persona owns has review comments from colleagues, each
asking for one concrete piece of work on a named component. The persona is
asked to file one ticket per open comment in the team's project, assigned to
whoever raised it, and (with two steps) to resolve each comment once its
ticket exists. Distractors: comments already resolved (their work is done,
so no ticket), and another document's comments.

Judged by role and value: exactly as many new tickets as open comments; for
each comment, one new ticket that names its component (in the title or the
description), in the project, assigned to the comment's author; no ticket
for a resolved comment; each open comment resolved (two steps).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from orchestrator.generate.family import Draft, Family, fake, phrase, register
from orchestrator.generate.world import World, iso

INSTRUCTIONS = [
    'People left review comments on my doc "{title}". Please turn every open comment into a ticket in {project}, '
    "assigned to the person who raised it.",
    'Could you go through the open comments on "{title}" and file one {project} ticket for each, assigned to its '
    "commenter?",
    'Please make sure each unresolved comment on my document "{title}" becomes a ticket in the {project} project, '
    "owned by whoever wrote the comment.",
]
RESOLVE = " Once a comment has its ticket, resolve the comment."

COMPONENTS = (
    "exporter",
    "cache",
    "webhook",
    "importer",
    "dashboard",
    "scheduler",
    "retry queue",
    "audit log",
    "rate limiter",
)
ASKS = (
    "We still need load tests for the {component} before this ships.",
    "The {component} has no alerting yet; can we add it?",
    "Please document how the {component} fails over.",
    "The {component} needs a feature flag so we can roll it back.",
    "Who owns the {component}? It needs an on-call runbook.",
)


@register
class DocComments(Family):
    """The task family of a document's open comments turned into tickets."""

    name = "doc-comments"
    title = "Summarize a document's comments into tickets"
    apps = ("docs", "tickets")
    knobs = {"steps": (1, 2), "distractors": (0, 1, 2)}
    split_params = ("open_count", "resolved_count", "steps", "phrasing", "asks")
    phrasings = len(INSTRUCTIONS)

    def sample(self, world: World, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = world.tracker_users()
        if len(people) < 3:
            return None
        open_count = rng.choice([1, 2, 3])
        resolved_count = knobs.get("distractors", 0)
        text = fake(rng)
        names: list[str] = []
        while len(names) < open_count + resolved_count:
            name = f"{text.word().capitalize()} {rng.choice(COMPONENTS)}"
            if all(name.split()[0].lower() != n.split()[0].lower() for n in names):
                names.append(name)
        return {
            "title": f"Design doc: {text.catch_phrase()}", "project": world.apps["tickets"]["projects"][0]["key"],
            "components": names, "authors": [rng.choice(people).email for _ in names],
            "asks": [rng.randrange(len(ASKS)) for _ in names], "open_count": open_count, "resolved_count": resolved_count,
            "steps": knobs.get("steps", 1), "phrasing": rng.randrange(len(INSTRUCTIONS)),
            "paragraphs": [text.paragraph(nb_sentences=3) for _ in range(3)],
        }  # fmt: skip

    def build(self, world: World, params: dict[str, Any]) -> Draft:
        me = world.persona
        project, title, resolve = params["project"], params["title"], params["steps"] >= 2
        components = params["components"]
        n_open = params["open_count"]
        sentences = [f"The {c} is part of the first release." for c in components]
        body = [f"# {title}", "", params["paragraphs"][0], "", "## Components", ""] + [f"- {s}" for s in sentences]
        body += ["", "## Rollout", "", params["paragraphs"][1], ""]
        authors = [world.person(a) for a in params["authors"]]
        shares = {}
        for a in authors:
            shares[a.email] = {"email": a.email, "role": "commenter"}
        world.apps["docs"]["documents"].append({
            "id": "design-doc", "title": title, "owner": me.email, "content": "\n".join(body) + "\n",
            "shared_with": list(shares.values()), "updated_at": iso(world.start - timedelta(days=4)),
        })  # fmt: skip
        comments = world.apps["docs"].setdefault("comments", [])
        for i, (component, author) in enumerate(zip(components, authors, strict=True)):
            done = i >= n_open
            row = {"id": f"review-{i + 1}", "document_id": "design-doc", "author": author.email,
                   "body": ASKS[params["asks"][i]].format(component=component), "quote": sentences[i],
                   "created_at": iso(world.start - timedelta(days=3, hours=-i))}  # fmt: skip
            if done:
                row["resolved"] = True
                row["body"] += " (Done: handled in the last sprint.)"
            comments.append(row)
        instruction = phrase(INSTRUCTIONS, params["phrasing"], title=title, project=project) + (
            RESOLVE if resolve else ""
        )
        draft = Draft(world, title="Turn review comments into tickets", instruction=instruction,
                      description=f"{n_open} open comment(s) on \"{title}\" become {project} tickets for their authors"
                      + (", and are resolved." if resolve else "."),
                      tags=["generated", "doc-comments", "docs", "tickets"])  # fmt: skip
        checks: list[dict[str, Any]] = [
            {"name": f"exactly {n_open} new ticket(s), all in {project}", "app": "tickets", "table": "tickets", "added": True,
             "expect": {"count": n_open, "all": {"project": project}}},
        ]  # fmt: skip
        for component, author in list(zip(components, authors, strict=True))[:n_open]:
            checks.append({"name": f"one ticket about the {component}, assigned to {author.name}", "app": "tickets",
                           "table": "tickets", "added": True,
                           "where": {"any": [{"title": {"says": {"phrase": component, "claimed": False}}}, {"description": {"says": {"phrase": component, "claimed": False}}}]},
                           "expect": {"count": 1, "all": {"assignee": author.email}}})  # fmt: skip
        draft.stage("one ticket per open comment", checks, weight=2)
        draft.forbid = [
            {"name": f"no ticket for the resolved comment about the {component}", "app": "tickets", "table": "tickets",
             "change": "added", "where": {"any": [{"title": {"says": {"phrase": component, "claimed": False}}}, {"description": {"says": {"phrase": component, "claimed": False}}}]}}
            for component in components[n_open:]
        ]  # fmt: skip
        draft.allow = {"tickets": {"tickets": {"added": True, "where": {"project": project}}}}
        oracle: list[dict[str, Any]] = [
            {"tool": "docs__search_documents", "args": {"query": title}},
            {"tool": "docs__list_comments", "args": {"document_id": "design-doc"}},
        ]
        for i, (component, author) in enumerate(list(zip(components, authors, strict=True))[:n_open]):
            oracle.append({"tool": "tickets__create_ticket", "args": {
                "project": project, "title": f"{component}: {ASKS[params['asks'][i]].format(component=component)[:80]}",
                "description": f"From {author.name}'s review comment on \"{title}\": "
                               f"{ASKS[params['asks'][i]].format(component=component)}",
                "assignee": author.email}, "unchecked": ["title", "description"]})  # fmt: skip
        if resolve:
            ids = [f"review-{i + 1}" for i in range(n_open)]
            draft.stage("the comments are resolved", [
                {"name": f"comment {cid} is resolved", "app": "docs", "table": "comments", "where": {"id": cid, "resolved": True}}
                for cid in ids
            ])  # fmt: skip
            draft.allow["docs"] = {
                "comments": {"changed": ["resolved", "resolved_by", "resolved_at"], "where": {"id": {"one_of": ids}}}
            }
            oracle += [{"tool": "docs__resolve_comment", "args": {"comment_id": cid}} for cid in ids]
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 30, "timeout_s": 600}
        return draft
