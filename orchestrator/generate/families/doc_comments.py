"""doc-comments: turn a document's open review comments into tickets.

A design document the persona owns has review comments from colleagues, each
asking for one concrete piece of work on a named component. The persona is
asked to file one ticket per open comment in the team's project, assigned to
whoever raised it, and (with two steps) to resolve each comment once its
ticket exists. Distractors: comments already resolved (their work is done,
so no ticket), and another document's comments.

Judged by role and value: exactly as many new tickets as open comments; for
each comment, one new ticket that names its component (in the title or the
description; in edition 3 its ask does too, when no other comment shares it),
in the project, assigned to the comment's author; no ticket
for a resolved comment; each open comment resolved (two steps). Edition 3
may ask for a reply on each comment (with its ticket's key) before it is
resolved, and for one comment on the document listing the tickets.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from orchestrator.generate import phrasing, vocab
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, phrase, register, stated_key

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

ASK_WORDS = (
    ["load test"],
    ["alerting", "alert"],
    ["fail over", "fails over"],
    ["feature flag"],
    ["runbook", "run book"],
)
"""Edition 3: the words of each ask that name its comment as well as its component does ("cms: feature flag")."""


@register
class DocComments(Family):
    """The task family of a document's open comments turned into tickets."""

    name = "doc-comments"
    title = "Summarize a document's comments into tickets"
    apps = ("docs", "tickets")
    knobs = {"steps": (1, 2), "distractors": (0, 1, 2)}
    split_params = ("open_count", "resolved_count", "steps", "phrasing", "asks")
    phrasings = len(INSTRUCTIONS)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = org.tracker_users()
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
        params = {
            "title": f"Design doc: {text.catch_phrase()}",
            "project": org.apps["tickets"]["projects"][0]["key"],
            "components": names,
            "authors": [rng.choice(people).email for _ in names],
            "asks": [rng.randrange(len(ASKS)) for _ in names],
            "open_count": open_count,
            "resolved_count": resolved_count,
            "steps": knobs.get("steps", 1),
            "phrasing": rng.randrange(len(INSTRUCTIONS)),
            "paragraphs": [text.paragraph(nb_sentences=3) for _ in range(3)],
        }
        if org.edition < 2:
            return params
        if not _words2(org, rng, params):
            return None
        if org.edition >= 3 and params["steps"] >= 2:  # edition 3: a reply with the ticket's key before resolving
            params["reply"] = rng.random() < 0.5
        if org.edition >= 3:  # edition 3: a comment on the whole document listing the new tickets
            params["summary"] = rng.random() < 0.3
        return phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        project, title, resolve = params["project"], params["title"], params["steps"] >= 2
        n_open = params["open_count"]
        authors = _seed(org, params)
        if org.edition >= 2:
            instruction = _word(org, params).text
        else:
            instruction = phrase(INSTRUCTIONS, params["phrasing"], title=title, project=project) + (
                RESOLVE if resolve else ""
            )
        draft = Draft(
            org,
            title="Turn review comments into tickets",
            instruction=instruction,
            description=f'{n_open} open comment(s) on "{title}" become {project} tickets for their authors'
            + (", and are resolved." if resolve else "."),
            tags=["generated", "doc-comments", "docs", "tickets"],
        )
        wheres = _tickets(draft, params, authors)
        oracle: list[dict[str, Any]] = [
            {"tool": "docs__search_documents", "args": {"query": title}},
            {"tool": "docs__list_comments", "args": {"document_id": "design-doc"}},
        ]
        components = params["components"]
        for i, (component, author) in enumerate(list(zip(components, authors, strict=True))[:n_open]):
            oracle.append(
                {
                    "tool": "tickets__create_ticket",
                    "args": {
                        "project": project,
                        "title": f"{component}: {ASKS[params['asks'][i]].format(component=component)[:80]}",
                        "description": f'From {author.name}\'s review comment on "{title}": '
                        f"{ASKS[params['asks'][i]].format(component=component)}",
                        "assignee": author.email,
                    },
                    "unchecked": ["title", "description"],
                    **({"save": f"ticket{i}"} if params.get("reply") or params.get("summary") else {}),
                }
            )
        if params.get("summary"):
            oracle += _summary(draft, n_open, wheres, components)
        if resolve:
            if params.get("reply"):
                oracle += _replied(draft, n_open, wheres)
            oracle += _resolved(draft, n_open)
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 30, "timeout_s": 600}
        return broaden(draft, params)


def _seed(org: Organization, params: dict[str, Any]) -> list[Any]:
    """The design document and its review comments (the first `open_count` open); returns the comments' authors."""
    me, title, components = org.persona, params["title"], params["components"]
    sentences = [f"The {c} is part of the first release." for c in components]
    body = [f"# {title}", "", params["paragraphs"][0], "", "## Components", ""] + [f"- {s}" for s in sentences]
    body += ["", "## Rollout", "", params["paragraphs"][1], ""]
    authors = [org.person(a) for a in params["authors"]]
    shares = {}
    for a in authors:
        shares[a.email] = {"email": a.email, "role": "commenter"}
    org.apps["docs"]["documents"].append(
        {
            "id": "design-doc",
            "title": title,
            "owner": me.email,
            "content": "\n".join(body) + "\n",
            "shared_with": list(shares.values()),
            "updated_at": iso(org.start - timedelta(days=4)),
        }
    )
    comments = org.apps["docs"].setdefault("comments", [])
    for i, (component, author) in enumerate(zip(components, authors, strict=True)):
        done = i >= params["open_count"]
        row: dict[str, Any] = {
            "id": f"review-{i + 1}",
            "document_id": "design-doc",
            "author": author.email,
            "body": ASKS[params["asks"][i]].format(component=component),
            "quote": sentences[i],
            "created_at": iso(org.start - timedelta(days=3, hours=-i)),
        }
        if done:
            row["resolved"] = True
            row["body"] += " (Done: handled in the last sprint.)"
        comments.append(row)
    return authors


def _tickets(draft: Draft, params: dict[str, Any], authors: list[Any]) -> list[dict[str, Any]]:
    """The stage of one ticket per open comment, no ticket for a resolved one, tickets only in the project; returns
    the where that picks each open comment's ticket."""
    project, components, n_open = params["project"], params["components"], params["open_count"]
    checks: list[dict[str, Any]] = [
        {
            "name": f"exactly {n_open} new ticket(s), all in {project}",
            "app": "tickets",
            "table": "tickets",
            "added": True,
            "expect": {"count": n_open, "all": {"project": project}},
        },
    ]
    wheres: list[dict[str, Any]] = []
    for i, (component, author) in enumerate(list(zip(components, authors, strict=True))[:n_open]):
        named: str | list[str] = component
        if draft.org.edition >= 3 and params["asks"].count(params["asks"][i]) == 1:
            named = [component, *ASK_WORDS[params["asks"][i]]]  # "cms: feature flag": its ask names it too
        where = {
            "any": [
                {"title": {"says": {"phrase": named, "claimed": False}}},
                {"description": {"says": {"phrase": named, "claimed": False}}},
            ]
        }
        wheres.append(where)
        checks.append(
            {
                "name": f"one ticket about the {component}, assigned to {author.name}",
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": where,
                "expect": {"count": 1, "all": {"assignee": author.email}},
            }
        )
    draft.stage("one ticket per open comment", checks, weight=2)
    draft.forbid = [
        {
            "name": f"no ticket for the resolved comment about the {component}",
            "app": "tickets",
            "table": "tickets",
            "change": "added",
            "where": {
                "any": [
                    {"title": {"says": {"phrase": component, "claimed": False}}},
                    {"description": {"says": {"phrase": component, "claimed": False}}},
                ]
            },
        }
        for component in components[n_open:]
    ]
    draft.allow = {"tickets": {"tickets": {"added": True, "where": {"project": project}}}}
    return wheres


def _summary(draft: Draft, n_open: int, wheres: list[dict[str, Any]], components: list[str]) -> list[dict[str, Any]]:
    """Edition 3: the stage of one comment of the persona on the document listing the new tickets (each one's key,
    stated); the reference's."""
    me = draft.org.persona
    mine = {"document_id": "design-doc", "author": me.email}
    listed = [
        {
            "name": f"the comment gives the key of the ticket about the {component}",
            "app": "docs",
            "table": "comments",
            "added": True,
            "where": {**mine, "body": stated_key(where)},
        }
        for where, component in zip(wheres, components, strict=False)
    ]
    draft.stage(
        "a comment on the document lists the tickets",
        [
            {
                "name": f"{me.name} left a comment on the design doc",
                "app": "docs",
                "table": "comments",
                "added": True,
                "where": mine,
            },
            *listed,
        ],
    )
    draft.allow.setdefault("docs", {})["comments"] = [
        {"added": True, "where": {"document_id": "design-doc", "author": me.email}}
    ]
    keys = ", ".join(f"${{ticket{i}.key}}" for i in range(n_open))
    return [{"tool": "docs__add_comment", "args": {"document_id": "design-doc", "body": f"Tickets filed: {keys}."}}]


def _replied(draft: Draft, n_open: int, wheres: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Edition 3: the stage of a reply of the persona on each open comment, naming its ticket's key; the reference's
    replies (each key saved by the ticket calls before)."""
    me = draft.org.persona
    ids = [f"review-{i + 1}" for i in range(n_open)]
    draft.stage(
        "each comment has a reply from me with its ticket's key",
        [
            {
                "name": f"comment {cid} has a reply from {me.name} giving its ticket's key",
                "app": "docs",
                "table": "comments",
                "where": {"id": cid, "replies": {"has": {"author": me.email, "body": stated_key(where)}}},
            }
            for cid, where in zip(ids, wheres, strict=False)
        ],
    )
    return [
        {"tool": "docs__reply_to_comment", "args": {"comment_id": cid, "body": f"Filed as ${{ticket{i}.key}}."}}
        for i, cid in enumerate(ids)
    ]


def _resolved(draft: Draft, n_open: int) -> list[dict[str, Any]]:
    """The stage of the open comments resolved, what may change for it; the reference's steps resolving them."""
    ids = [f"review-{i + 1}" for i in range(n_open)]
    draft.stage(
        "the comments are resolved",
        [
            {
                "name": f"comment {cid} is resolved",
                "app": "docs",
                "table": "comments",
                "where": {"id": cid, "resolved": True},
            }
            for cid in ids
        ],
    )
    changed = ["resolved", "resolved_by", "resolved_at"] + (["replies"] if draft.org.edition >= 3 else [])
    rule = {"changed": changed, "where": {"id": {"one_of": ids}}}
    summary = draft.allow.get("docs", {}).get("comments")
    draft.allow["docs"] = {"comments": [*summary, rule] if summary else rule}
    return [{"tool": "docs__resolve_comment", "args": {"comment_id": cid}} for cid in ids]


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

TICKETS = phrasing.Phrasebook(
    requests=[
        'People left review comments on my doc "{title}". Please turn every open comment into a ticket in '
        "{project}, assigned to the person who raised it.{resolve}",
        'Could you go through the open comments on "{title}" and file one {project} ticket for each, assigned to '
        "its commenter?{resolve}",
        'Please make sure each unresolved comment on my document "{title}" becomes a ticket in the {project} '
        "project, owned by whoever wrote the comment.{resolve}",
        'Can you sort out the review comments on "{title}"? Every comment that is still open should get its own '
        "{project} ticket, assigned to the person who left it.{resolve}",
        'The review of "{title}" left open comments. File a ticket in {project} per open comment and assign each to '
        "the comment's author, please.{resolve}",
        'I need the open feedback on "{title}" tracked: one ticket in {project} for each unresolved comment, with '
        "the commenter as assignee.{resolve}",
        'Please create {project} tickets from the open comments on my doc "{title}", one per comment, each assigned '
        "to whoever raised it.{resolve}",
        'Would you turn the unresolved review comments on "{title}" into {project} tickets? One ticket per comment, '
        "assigned to its author.{resolve}",
        'Go through "{title}" and, for every comment nobody has resolved yet, open a ticket in {project} assigned to '
        "the person who commented.{resolve}",
        'Each open comment on "{title}" should become a ticket in {project} assigned to its commenter. Can you do '
        "that?{resolve}",
        'Can you file tickets for the open review comments on "{title}"? Use the {project} project, one ticket per '
        "comment, assignee = the commenter.{resolve}",
        'Please log the outstanding comments on my document "{title}" as tickets in {project}: one each, assigned '
        "to the person who wrote it.{resolve}",
        'Review feedback on "{title}" needs to go into {project}. Make one ticket per open comment and assign it to '
        "the commenter.{resolve}",
        'Turn the still-open comments on "{title}" into work items: a ticket in {project} for each, assigned to the '
        "person who left the comment.{resolve}",
        'Could you convert every unresolved comment on "{title}" into a ticket in {project} owned by the comment\'s '
        "author?{resolve}",
        'For each open comment on my doc "{title}", create a ticket in {project} and assign it to the commenter, '
        "please.{resolve}",
        'My doc "{title}" has review comments that aren\'t resolved yet. Please file a ticket in {project} for each '
        "one, assigned to whoever made the comment.{resolve}",
        'I\'d like the open comments on "{title}" captured as {project} tickets, one per comment, with each '
        "commenter as the assignee.{resolve}",
        'Please go over the comments on "{title}" and raise a ticket in {project} for each one that is still open, '
        "assigned to the person who raised it.{resolve}",
        'Can you do the follow-up on the review of "{title}"? Every open comment gets a ticket in {project}, assigned '
        "to its author.{resolve}",
        'Tickets please: one in {project} for each open comment on "{title}", assigned to the commenter.{resolve}',
        'Take the open review comments on my doc "{title}" and make them {project} tickets, each assigned to the '
        "colleague who wrote the comment.{resolve}",
        'File one {project} ticket per unresolved comment on "{title}" and give each ticket to the person who left '
        "that comment.{resolve}",
        'Would you handle the open comments on "{title}"? I want each as a ticket in {project}, assigned to its '
        "commenter.{resolve}",
        '---------- Forwarded message ----------\nSubject: Comments on "{title}"\n\nYou have open review comments on '
        "your document.\n----------\n\nCan you turn each open comment into a ticket in {project} assigned to the "
        "person who left it?{resolve}",
        'Forwarding the review notification for "{title}": please file a ticket in {project} for each open comment, '
        "assigned to its author.{resolve}",
        'Please track the open comments on "{title}" in {project}, a ticket each, assigned to whoever '
        "commented.{resolve}",
    ],
    openers=[
        "The design review is done.",
        "Reviewers have had their say.",
        "I'd like to get the review feedback into the tracker.",
        "Admin from the design review.",
        "We're planning next sprint.",
        "The comments on my doc are piling up.",
        "Housekeeping for my design doc.",
        "I want to make sure no feedback gets lost.",
        "Sprint planning is tomorrow.",
        "Follow-up from the review.",
        "Tracker hygiene, please.",
        "Getting my doc's feedback organised.",
    ],
    closers=[
        "Skip the comments that are already resolved.",
        "Mention the component each comment is about in its ticket.",
        "One ticket per comment, no more.",
        "Resolved comments don't need tickets.",
        "Ignore comments on other documents.",
        "Don't edit the document itself.",
        "Don't assign them to me.",
        "Keep each ticket about one comment.",
        "No tickets for anything already done.",
        "Use the component names from the comments.",
        "Only the open ones.",
        "Don't file duplicates.",
        "Each ticket goes to the person who wrote that comment.",
        "Leave the comment text as it is.",
        "Tickets only for what's still open.",
    ],
)
RESOLVES = [
    " Once a comment has its ticket, resolve the comment.",
    " Then resolve each comment once its ticket exists.",
    " After filing, mark those comments resolved.",
    " And resolve each comment after you've created its ticket.",
    " Please resolve the comments once they're ticketed.",
    " When a comment has a ticket, close the comment (resolve it).",
    " Resolve every comment you've turned into a ticket.",
    " Mark each of those comments as resolved when its ticket is in.",
]
REPLIES = [
    " Reply to each comment with its ticket's key, then resolve the comment.",
    " Then answer each comment with the key of its ticket and resolve it.",
    " Leave a reply on every comment naming its ticket, and resolve it afterwards.",
    " Once a ticket exists, reply on its comment with the ticket key and mark the comment resolved.",
    " Please reply to each of those comments with the ticket key before resolving it.",
    " Reply on each comment with where it's tracked (the ticket key), then resolve it.",
    " After filing, reply to each comment with the new ticket's key and resolve the comment.",
    " Each comment should get a reply with its ticket key, and then be resolved.",
]
"""Edition 3: the second step as a reply naming the ticket, then the comment resolved."""
PHRASEBOOKS = {"tickets": TICKETS}


def _words2(org: Organization, rng: random.Random, params: dict[str, Any]) -> bool:
    """Edition 2: the doc's title, components (first words distinct) and paragraphs in the organization's industry words;
    False when the industry has too few components."""
    industry, writer = vocab.INDUSTRIES[org.industry], vocab.Writer.of(org, rng)
    names: list[str] = []
    for name in rng.sample(industry.components, len(industry.components)):
        if all(name.split()[0].lower() != n.split()[0].lower() for n in names):
            names.append(name)
    if len(names) < len(params["components"]):
        return False
    subject = rng.choice(industry.docs)
    params.update(
        title=f"Design doc: {subject[:1].upper() + subject[1:]}",
        components=names[: len(params["components"])],
        paragraphs=[writer.sentences(vocab.DOC_SENTENCES, 3) for _ in range(3)],
    )
    return True


"""Edition 2's phrasebooks by intent."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    values = {"title": params["title"], "project": params["project"], "resolve": ""}
    summary: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    if params.get("reply"):
        values["resolve"], resolve_id = phrasing.pick(
            org, params["wording"], "doc-comments", "tickets", "reply-resolve", REPLIES
        )
    elif params["steps"] >= 2:
        values["resolve"], resolve_id = phrasing.pick(
            org, params["wording"], "doc-comments", "tickets", "resolve", RESOLVES
        )
        extra = (resolve_id,)
    made = phrasing.word(org, params["wording"], "doc-comments", "tickets", TICKETS, values)
    text = made.text
    if params.get("summary"):
        sentence, summary_id = phrasing.pick(org, params["wording"], "doc-comments", "tickets", "summary", SUMMARIES)
        text, summary = f"{text} {sentence}", (summary_id,)
    return phrasing.Composition(text, made.template, made.parts + extra + summary)


SUMMARIES = [
    "When you're done, leave one comment on the doc itself listing the tickets you filed.",
    "Finally, add a comment on the document with the keys of the new tickets.",
    "Also put a comment on the doc that lists the new ticket keys, so reviewers can find them.",
    "Please finish with a comment on the document naming every ticket you created.",
    "Add one general comment on the doc with the ticket keys at the end.",
    "Then comment on the doc (not on a single comment) with the list of new tickets.",
]
"""Edition 3: a last step, one comment on the document listing the tickets."""
