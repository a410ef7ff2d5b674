"""Living and long as knobs of every family (edition 3): a generic layer that adds, per task, a living twist (a fault
on an app the reference uses, a colleague who answers, the user who answers) and a long extension (a wrap-up that
needs tickets, docs and mail, so the task makes 10 or more reference calls across 3 or more apps), each with its
instruction sentence, its reference steps and its checks.

Twists come in two kinds. `TRAIN` twists may be added to any task; `HELD_OUT` twists (a lost reply instead of an
outage, the user instead of a colleague, a wrap-up whose review ticket is linked to the tracking ticket with
`tickets__link_tickets`, a tool only it uses) are added only to tasks of test-ood organizations, which always carry
one. A task's twists are drawn from its id (`choose`), so the same task gets the same twists; `apply` adds those
that fit (the draft gains their sentences, steps and checks) and returns their names.

Every sentence a twist adds is a phrasing part (`phrasing.pick`, ids `twist/<name>/<kind>/<n>`, recorded in the
row's `twist_parts`): a train twist's on the organization's side of the split, a held-out twist's own words only ever in
test-ood tasks (a linked wrap-up's first sentence is the wrap-up's, on the test side), so no twist wording is in both
train and test.

May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, Person
from orchestrator.generate.family import Draft, canonical, digest, join
from orchestrator.generate.wrapup import Wrap, wrap_checks

LIVING_SHARE = 0.5
"""How often a task that is not living gets a living twist (and a task that is not long a long extension)."""
LIVING = ("outage", "colleague")
LONG = ("wrap-up",)
HELD_OUT_LIVING = ("lost-reply", "ask-user")
HELD_OUT_LONG = ("wrap-up-linked",)
TRAIN = (*LIVING, *LONG)
HELD_OUT = (*HELD_OUT_LIVING, *HELD_OUT_LONG)
"""Twists only test-ood tasks carry (with the tools only they use)."""
_READ = re.compile(r"__(search|get|list|find|read)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def is_living(measured: dict[str, Any]) -> bool:
    """Events, people who answer, the user, or faults."""
    return bool(measured["events"] or measured["responders"] or measured["ask_user"] or measured["faults"])


def is_long(measured: dict[str, Any]) -> bool:
    """10 or more reference calls across 3 or more apps."""
    return measured["calls"] >= 10 and len(measured["apps"]) >= 3


def choose(task_id: str, *, ood: bool, living: bool, long: bool) -> list[str]:
    """The twists task `task_id` is drawn with: a living one (when it is not living) and a long one (when it is not
    long), each half the time; a test-ood task always carries a held-out one."""
    rng = random.Random(f"twists:{task_id}")
    want_living = not living and rng.random() < LIVING_SHARE
    want_long = not long and rng.random() < LIVING_SHARE
    kinds = (HELD_OUT_LIVING, HELD_OUT_LONG) if ood else (LIVING, LONG)
    out = [rng.choice(kinds[0])] * want_living + [rng.choice(kinds[1])] * want_long
    if ood and not out:
        out = [rng.choice([*HELD_OUT_LIVING, *HELD_OUT_LONG])]
    return out


def apply(draft: Draft, twists: list[str], rng: random.Random) -> list[str]:
    """Add the twists to the draft (in order); returns those that fit (a fault needs a write call to hit, a
    colleague two teammates the task does not name …)."""
    applied = []
    for name in twists:
        if TWISTS[name](draft, rng, name):
            applied.append(name)
    return applied


# -- what twists share -------------------------------------------------------------------------------------------


def _named(draft: Draft) -> set[str]:
    """Every address the task already names (instruction, checks, forbids, reference, world)."""
    text = canonical([draft.instruction, draft.stages, draft.forbid, draft.oracle, draft.extra])
    return set(_EMAIL.findall(text))


def _people(draft: Draft, rng: random.Random, count: int) -> list[Person] | None:
    """`count` tracker users the task does not name yet, whose first names appear nowhere in its instruction."""
    org: Organization = draft.org
    named = _named(draft)
    pool = [
        p
        for p in org.tracker_users()
        if p.email not in named
        and p.first_name != org.persona.first_name
        and p.first_name not in draft.instruction
        and p.last_name not in draft.instruction
    ]
    rng.shuffle(pool)
    chosen: list[Person] = []
    for p in pool:
        if all(p.first_name != c.first_name for c in chosen):
            chosen.append(p)
        if len(chosen) == count:
            return chosen
    return None


class _AnySide:
    split = None


def _pick(org: Organization, seed: int, name: str, kind: str, parts: tuple[str, ...]) -> tuple[str, str]:
    """A part of a twist's list: on the organization's side of the split; any part of a held-out twist's list (only test-ood
    tasks, all on the test side, carry those)."""
    return phrasing.pick(_AnySide() if name in HELD_OUT else org, seed, "twist", name, kind, parts)


def _say(draft: Draft, name: str, sentences: tuple[str, ...], rng: random.Random, **values: Any) -> None:
    """Append one of the twist's sentences (on the organization's side of the split) to the instruction."""
    text, part = _pick(draft.org, rng.randrange(1 << 30), name, "sentence", sentences)
    draft.instruction = f"{draft.instruction.rstrip()}\n\n{phrasing.tidy(text.format(**values))}"
    draft.tags = list(dict.fromkeys([*draft.tags, f"twist-{name}"]))
    draft.extra.setdefault("_parts", []).append(part)


def _steps(draft: Draft, steps: list[dict[str, Any]]) -> None:
    """Reference steps appended to the reference and to every alternative reference."""
    draft.oracle = [*draft.oracle, *steps]
    draft.oracles = [[*alt, *steps] for alt in draft.oracles]
    limits = dict(draft.limits)
    limits["max_tool_calls"] = int(limits.get("max_tool_calls", 40)) + 3 * len(steps)
    draft.limits = limits


def _let_mail_through(draft: Draft, emails: list[str]) -> None:
    """Mail forbids confined to some recipients also let `emails` through (the twist asks for mail to them)."""
    from orchestrator.generate.families.composite import widen  # noqa: PLC0415

    draft.forbid = [widen(f, emails) if f.get("app") == "mail" else f for f in draft.forbid]


def _allow(draft: Draft, allow: dict[str, Any]) -> None:
    from orchestrator.generate.families.composite import _merge_allow  # noqa: PLC0415

    if draft.allow:
        _merge_allow(draft.allow, allow)


def _world(draft: Draft) -> dict[str, Any]:
    """The draft's `world:` section, made with a clock that moves a minute a call when there is none."""
    from orchestrator.generate.families._living import world_section  # noqa: PLC0415

    if "world" not in draft.extra:
        draft.extra["world"] = world_section()
    return draft.extra["world"]


# -- living twists ---------------------------------------------------------------------------------------------------


def _first_write(draft: Draft, lost: bool = False) -> tuple[str, str] | None:
    """The app and tool of the reference's first write call that no fault rule hits yet (`lost`: not a mail to
    people who answer)."""
    faults = draft.extra.get("faults") or {}
    for step in draft.oracle:
        full = str(step.get("tool", ""))
        app, _, tool = full.partition("__")
        if not tool or app == "world" or _READ.search(full):
            continue
        rules = (faults.get(app) or {}).get("rules") or []
        if any(r.get("tool") in (tool, "*") for r in rules):
            continue
        if lost and app == "mail" and (draft.extra.get("world") or {}).get("people"):
            continue  # a lost send is never redone, and people answer what they were sent: keep their thread whole
        return app, tool
    return None


def _fault(draft: Draft, rng: random.Random, name: str) -> bool:
    """A fault on the reference's first write call: an outage (503, retried) or a lost reply (never redone)."""
    lost = name == "lost-reply"
    found = _first_write(draft, lost)
    if found is None:
        return False
    app, tool = found
    rule: dict[str, Any] = {"tool": tool, "calls": [1]} | ({"kind": "lost_reply"} if lost else {})
    faults = draft.extra.setdefault("faults", {})
    faults.setdefault(app, {}).setdefault("rules", []).append(rule)
    if lost:
        check = {
            "name": f"the {app} call whose reply was lost is not made twice",
            "journal": {"no_duplicate_after_lost_reply": f"{app}__{tool}"},
            "required": True,
        }
    else:
        check = {
            "name": f"the {app} call that met an outage is made again",
            "journal": {"retried_after_fault": f"{app}__{tool}"},
            "required": True,
        }
    draft.stage("the failed call is recovered", [check])
    draft.tags = list(dict.fromkeys([*draft.tags, f"twist-{name}"]))
    return True


COLLEAGUE = (
    "Once that's done, ask {asked} by email who should hear that it's finished, wait for the answer, and send that "
    "person a short note saying it's done.",
    "When you've finished, check with {asked} (by mail) who needs to know it's done, then send them a brief note.",
    "Afterwards, email {asked} to ask who should be told this is finished; once {asked_first} answers, let that "
    "person know by mail.",
    "One last step: {asked} knows who should hear about this. Ask them by email, wait for the reply, and mail that "
    "person a short note that it's done.",
    "Then mail {asked} and ask who to tell that this is done; when the answer comes in, send that person a short note.",
    "After that, find out from {asked} by email who should be told it's finished, and send that person a note once "
    "you know.",
    "Please also ask {asked} over email who should be told this is wrapped up, and send that colleague a short note "
    "when {asked_first} replies.",
    "Finally, {asked_first} will know who needs a heads-up: ask them by mail, wait for their answer, and send that "
    "person a brief note that it's done.",
)
ASK_USER = (
    "When it's done, ask me who should get a short note that it's finished, and send them that note by email.",
    "Once finished, check with me who needs to hear it's done, then email that person a short note.",
    "Afterwards, ask me whom to tell that this is finished, and send them a brief email saying so.",
    "Then ask me who should be told it's done and mail that person a short note.",
    "Last step: I'll tell you who should hear about this; ask me, then email them a short note that it's done.",
    "When that's all done, ask me who needs a heads-up, and send that person a short email saying it's finished.",
    "Finally, ask me who should get a quick note that this is done, and email it to them.",
    "After finishing, ask me which colleague should be told, then send them a short note by email.",
)


def _note(told: Person, persona: Person) -> dict[str, Any]:
    return {
        "tool": "mail__send_message",
        "args": {
            "to": [told.email],
            "subject": "Done",
            "body": f"Hi {told.first_name},\n\na short note: that's done now.\n\n{persona.first_name}",
        },
        "unchecked": ["subject", "body"],
    }


def _colleague(draft: Draft, rng: random.Random, name: str) -> bool:
    """A colleague who answers: the agent asks them by mail who should be told, and tells that person."""
    world = draft.extra.get("world") or {}
    if world.get("people") or world.get("events"):
        return False
    people = _people(draft, rng, 2)
    if people is None:
        return False
    asked, told = people
    persona = draft.org.persona
    _say(draft, name, COLLEAGUE, rng, asked=asked.name, asked_first=asked.first_name)
    _world(draft)["people"] = [
        {
            "email": asked.email,
            "name": asked.name,
            "mail": [
                {
                    "reply": f"Hi $persona_first,\n\nplease let {told.name} ({told.email}) know.\n\n$first_name",
                    "delay": "20m",
                }
            ],
        }
    ]
    _steps(
        draft,
        [
            {
                "tool": "mail__send_message",
                "args": {
                    "to": [asked.email],
                    "subject": "Who should hear about this?",
                    "body": f"Hi {asked.first_name},\n\nwho should I tell that this is done?\n\n{persona.first_name}",
                },
                "unchecked": ["subject", "body"],
                "save": "tw_asked",
            },
            {"tool": "world__wait", "args": {}},
            {"tool": "mail__get_thread", "args": {"thread_id": "${tw_asked.thread_id}"}},
            _note(told, persona),
        ],
    )
    draft.stage(
        f"{told.first_name} is told, as {asked.first_name} answered",
        [
            {"name": f"{asked.name} is asked", "told": {"who": [asked.email]}},
            {"name": f"{told.name} gets the note", "told": {"who": [told.email]}},
        ],
    )
    _let_mail_through(draft, [asked.email, told.email])
    _allow(draft, {"mail": {"messages": {"added": True}}})
    return True


def _ask_user(draft: Draft, rng: random.Random, name: str) -> bool:
    """The user answers: the agent asks who should be told (`world__ask_user`), and tells that person."""
    world = draft.extra.get("world") or {}
    if world.get("user"):
        return False
    people = _people(draft, rng, 1)
    if people is None:
        return False
    told = people[0]
    _say(draft, name, ASK_USER, rng)
    answer = f"Please send it to {told.name} ({told.email})."
    _world(draft)["user"] = {
        "answers": [{"match": "who|whom|which|tell|send|note", "answer": answer}],
        "otherwise": answer,
    }
    _steps(
        draft,
        [
            {"tool": "world__ask_user", "args": {"question": "Who should get the note that this is done?"}},
            _note(told, draft.org.persona),
        ],
    )
    draft.stage(
        f"{told.first_name} is told, as the user answered",
        [{"name": f"{told.name} gets the note", "told": {"who": [told.email]}}],
    )
    _let_mail_through(draft, [told.email])
    _allow(draft, {"mail": {"messages": {"added": True}}})
    return True


# -- long extensions -------------------------------------------------------------------------------------------------

TITLES = (
    "Follow-ups from this week",
    "Open loose ends",
    "Wrap-up checklist",
    "Remaining follow-up items",
    "Next steps to track",
    "Loose ends to close",
)
REVIEWS = ("Sign-off review", "Handover review", "Retro preparation", "Review with the team")
"""The second ticket of a linked wrap-up (no word of a `TITLES` title, so a title check finds one ticket)."""
WRAP_UP = (
    'To wrap up, file a ticket in {project} titled "{title}" assigned to {owner}, write a doc called "{doc}" that '
    "names the ticket's key, share the doc with {names} as editors, add the doc's link as a comment on the ticket, "
    "and email {names} the ticket's key and the doc's link.",
    'Then track the follow-ups: a {project} ticket "{title}" for {owner}, a document "{doc}" mentioning that '
    "ticket's key and shared with {names} (editors), a comment on the ticket with the doc's link, and a mail to "
    "{names} with the key and the link.",
    'Also, please open a ticket in {project} called "{title}", assigned to {owner}; write up a doc titled "{doc}" '
    "that gives the ticket's key, make {names} editors of it, put its link in a comment on the ticket, and send "
    "{names} an email with the ticket key and the doc link.",
    'Afterwards, record the follow-ups: file "{title}" in {project} for {owner}, create the doc "{doc}" with the '
    "ticket's key in it, give {names} edit access, comment the doc's link on the ticket, and mail {names} both the "
    "key and the link.",
    'Lastly, I want a paper trail: a ticket "{title}" in {project} owned by {owner}, a doc "{doc}" that cites the '
    "ticket's key, shared with {names} as editors, the doc's link commented on the ticket, and an email to {names} "
    "with the key and the link.",
    'When all that is done, create a {project} ticket "{title}" assigned to {owner} and a document "{doc}" naming '
    "its key; share the document with {names} as editors, comment its link on the ticket, and email {names} the key "
    "and the link.",
    'Please finish by filing "{title}" as a ticket in {project} for {owner}, writing a doc "{doc}" that includes the '
    "ticket's key, sharing it with {names} (edit access), linking it in a comment on the ticket, and emailing {names} "
    "the key and the link.",
    'Then set up the follow-up: ticket "{title}" in {project}, owned by {owner}; doc "{doc}" with the ticket key; '
    "{names} as editors of the doc; the doc's link as a comment on the ticket; and a mail to {names} with both.",
)
LINKED = (
    ' Also file a second {project} ticket, "{review}", and link it to the first as related.',
    ' Add a second ticket in {project} called "{review}" and link the two tickets as related.',
    ' Then create "{review}" in {project} too, linked to the first ticket (relates to).',
    ' On top of that, open "{review}" in {project} and link it to the follow-up ticket as related.',
    ' And please file "{review}" in {project} as well, linked to the first ticket as related.',
    ' Finally, a second {project} ticket "{review}", linked to the first one as related.',
    ' Also add the ticket "{review}" in {project} and mark it as related to the first.',
    ' Plus one more ticket, "{review}" in {project}, linked as related to the first.',
)


def _wrap_up(draft: Draft, rng: random.Random, name: str) -> bool:
    """A wrap-up over tickets, docs and mail, long enough that the task makes 10 or more reference calls."""
    org: Organization = draft.org
    projects = org.apps.get("tickets", {}).get("projects") or []
    if not projects:
        return False
    linked = name == "wrap-up-linked"
    people = _people(draft, rng, max(1, min(4, 6 - len(draft.oracle) - 2 * linked)))
    if people is None:
        return False
    title = rng.choice(TITLES)
    wrap = Wrap(
        projects[0]["key"], title, f"Notes: {title.lower()}", people[0], people, rng.choice(REVIEWS) if linked else None
    )
    values = {"project": wrap.project, "title": title, "owner": wrap.owner.name, "doc": wrap.doc}
    values["names"] = join([p.name for p in wrap.team])
    seed = rng.randrange(1 << 30)
    text, part = _pick(org, seed, "wrap-up", "sentence", WRAP_UP)  # its text on the organization's side
    text = text.format(**values)
    draft.extra.setdefault("_parts", []).append(part)
    if wrap.review is not None:
        more, more_part = _pick(org, seed, name, "link", LINKED)
        text += more.format(project=wrap.project, review=wrap.review)
        draft.extra["_parts"].append(more_part)
    draft.instruction = f"{draft.instruction.rstrip()}\n\n{phrasing.tidy(text)}"
    draft.tags = list(dict.fromkeys([*draft.tags, f"twist-{name}"]))
    _steps(draft, _wrap_steps(wrap, org.persona))
    _scope_out(draft, [title, *([wrap.review] if wrap.review else [])])
    draft.stage("the follow-ups are tracked and shared", wrap_checks(wrap))
    _let_mail_through(draft, wrap.emails)
    tickets: dict[str, Any] = {
        "tickets": {"added": True, "where": {"project": wrap.project}},
        "comments": {"added": True},
    }
    if linked:
        tickets["links"] = {"added": True}
    _allow(draft, {"tickets": tickets, "docs": {"documents": {"added": True}}, "mail": {"messages": {"added": True}}})
    return True


SCOPED = {("tickets", "tickets"), ("docs", "documents")}
"""The tables a wrap-up adds rows to, whose checks on added rows the task's own checks must not count them in."""


def _scope_out(draft: Draft, titles: list[str]) -> None:
    """The task's checks and forbids on added tickets and documents leave out the wrap-up's own (titled `titles`):
    "exactly one new ticket" still means the task's ticket."""
    for check in [c for stage in draft.stages for c in stage["checks"]] + draft.forbid:
        if (check.get("app"), check.get("table")) not in SCOPED or "title" in (check.get("where") or {}):
            continue
        if check.get("added") or check.get("change") == "added":
            check["where"] = {
                **(check.get("where") or {}),
                "title": {"not": {"says": {"phrase": titles, "claimed": False}}},
            }


def _wrap_steps(wrap: Wrap, persona: Person) -> list[dict[str, Any]]:
    """The reference calls of a wrap-up: ticket, doc, shares, comment (second ticket and link), mail."""
    steps: list[dict[str, Any]] = [
        {
            "tool": "tickets__create_ticket",
            "args": {
                "project": wrap.project,
                "title": wrap.title,
                "assignee": wrap.owner.email,
                "description": wrap.title + ".",
            },
            "unchecked": ["description"],
            "save": "tw_ticket",
        },
        {
            "tool": "docs__create_document",
            "args": {"title": wrap.doc, "content": f"# {wrap.doc}\n\nTracked in ${{tw_ticket.key}}.\n"},
            "save": "tw_doc",
        },
        *(
            {"tool": "docs__share_document", "args": {"document_id": "${tw_doc.id}", "email": e, "role": "editor"}}
            for e in wrap.emails
        ),
        {"tool": "tickets__add_comment", "args": {"key": "${tw_ticket.key}", "body": "Notes: ${tw_doc.url}"}},
    ]
    if wrap.review is not None:
        steps.append(
            {
                "tool": "tickets__create_ticket",
                "args": {"project": wrap.project, "title": wrap.review, "description": wrap.review + "."},
                "unchecked": ["description"],
                "save": "tw_review",
            }
        )
        link = {"source": "${tw_review.key}", "type": "relates_to", "target": "${tw_ticket.key}"}
        steps.append({"tool": "tickets__link_tickets", "args": link})
    body = f"Hi all,\n\nthe follow-ups are in ${{tw_ticket.key}}; notes: ${{tw_doc.url}}\n\n{persona.first_name}"
    steps.append(
        {
            "tool": "mail__send_message",
            "args": {"to": wrap.emails, "subject": wrap.title, "body": body},
            "unchecked": ["subject"],
        }
    )
    return steps


TWISTS: dict[str, Callable[[Draft, random.Random, str], bool]] = {
    "outage": _fault,
    "lost-reply": _fault,
    "colleague": _colleague,
    "ask-user": _ask_user,
    "wrap-up": _wrap_up,
    "wrap-up-linked": _wrap_up,
}


def parts(draft: Draft) -> list[str]:
    """The phrasing parts the twists used (taken out of the draft's extra keys, which the scenario file writes)."""
    return list(draft.extra.pop("_parts", []))


def twist_seed(task_id: str) -> random.Random:
    """The random stream a task's twists draw their people, titles and sentences from."""
    return random.Random(f"twist-draw:{digest(task_id)}")
