"""What the living families (edition 2) share: generic openers and closers, the instruction composed from a seed
kept in the parameters, one free slot on a day, the tracking ticket, seeded mail, and the world's time settings.

Not a family (it registers nothing): `ask_colleague`, `changed_request`, `declined_invite`, `approval_needed` and
`ask_the_user` import it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.scheduling import aligned_starts, day_window, fill

OPENERS = [
    "I'm swamped today, so over to you.",
    "Something for you while I'm in meetings.",
    "I'm travelling today and mostly offline.",
    "One more for your list.",
    "Picking this up from my inbox:",
    "Before I forget:",
    "I'm heads-down on a deadline, so:",
    "Could you take this off my plate?",
    "This one has been sitting with me too long.",
    "I'm out this afternoon, so handing this over.",
    "Following up on something from yesterday:",
    "For today, if you can:",
]
CLOSERS = [
    "Thanks!",
    "Appreciate it.",
    "Let me know if anything is unclear.",
    "No need to check with me on the details.",
    "Ping me only if something goes wrong.",
    "Many thanks in advance.",
    "That would be a big help.",
    "Keep it short with people, they're busy.",
    "No rush, but today would be great.",
    "Shout if you get stuck.",
    "Thanks, you're a star.",
    "I'll check in later.",
]
LIVING_CLOCK = {"per_call": "1m"}
"""Every tool call moves the episode's clock a minute (so events and answers come in order)."""
LIVING_WAIT = {"max": "2h", "total": "6h"}


def compose(
    org: Organization, seed: int, family: str, intent: str, requests: Sequence[str], values: dict[str, Any]
) -> phrasing.Composition:
    """The instruction, its template id and its parts, drawn from `seed` (the task's `wording`, so `build` words the
    same instruction `sample` chose): a request of the organization's split side with the shared openers and closers."""
    made = phrasing.word(org, seed, family, intent, phrasing.Phrasebook(requests, OPENERS, CLOSERS), values)
    if org.edition >= 3:  # the request came in today: nothing of it is from yesterday
        made = phrasing.Composition(made.text.replace("from yesterday:", "from earlier:"), made.template, made.parts)
    return made


def one_slot(
    org: Organization, rng: random.Random, emails: list[str], minutes: int, offsets: Sequence[int]
) -> tuple[int, datetime] | None:
    """A day offset and a slot start (on the half-hour grid) when the persona and `emails` are all free, or None."""
    for offset in rng.sample(list(offsets), len(offsets)):
        starts = aligned_starts(org.free_windows(emails, day_window(org, offset)), minutes)
        starts = [s for s in starts if s >= org.start + timedelta(hours=2)]
        if starts:
            return offset, rng.choice(starts)
    return None


def keep_only(draft: Any, emails: list[str], offset: int, start: datetime, minutes: int) -> None:
    """Busy blocks that leave `start` the only time that day when the persona and `emails` are all free."""
    for block in fill(draft.org, emails, day_window(draft.org, offset), (start, start + timedelta(minutes=minutes))):
        draft.add("calendar", "busy", block)


def project_key(org: Organization) -> str:
    """The persona's team's project in the tracker (the first project)."""
    return org.apps["tickets"]["projects"][0]["key"]


def next_number(org: Organization, project: str, rng: random.Random) -> int:
    """A ticket number of `project` beyond the organization's own tickets."""
    taken = [int(t["key"].split("-")[1]) for t in org.apps["tickets"]["tickets"] if t["key"].startswith(project + "-")]
    return max(taken, default=0) + rng.randint(3, 40)


def ticket(
    draft: Any, key: str, title: str, description: str, reporter: Person, *, status: str = "todo"
) -> dict[str, Any]:
    """A ticket assigned to the persona, reported by `reporter` a day ago."""
    org = draft.org
    created = org.start - timedelta(hours=22)
    return draft.add(
        "tickets",
        "tickets",
        {
            "key": key,
            "title": title,
            "description": description,
            "type": "task",
            "status": status,
            "priority": "medium",
            "assignee": org.persona.email,
            "reporter": reporter.email,
            "created_at": iso(created),
            "updated_at": iso(created),
        },
    )


def mail(draft: Any, msg_id: str, sender: Person, subject: str, body: str, minutes_ago: int, **extra: Any) -> None:
    """A message to the persona, `minutes_ago` before the clock starts."""
    org = draft.org
    draft.add(
        "mail",
        "messages",
        {
            "id": msg_id,
            "from": sender.address_line,
            "to": [org.persona.email],
            "subject": subject,
            "sent_at": iso(org.start - timedelta(minutes=minutes_ago)),
            "body": body,
            **extra,
        },
    )


def world_section(**parts: Any) -> dict[str, Any]:
    """A `world:` section with the living families' clock and wait bounds."""
    return {"clock": dict(LIVING_CLOCK), "wait": dict(LIVING_WAIT), **parts}


def overlap_hours(org: Organization, person: Person) -> float:
    """How many of the persona's working hours on the first working day are also `person`'s."""
    day = org.day(1)
    mine, theirs = org.persona.work_window(day), person.work_window(day)
    return max(0.0, (min(mine[1], theirs[1]) - max(mine[0], theirs[0])).total_seconds() / 3600)


def teammates(
    org: Organization, rng: random.Random, count: int, *, avoid: Sequence[str] = (), near: bool = False
) -> list[Person] | None:
    """`count` different colleagues who use the tracker, none named in `avoid`, none sharing a first name with the
    persona or with each other (`near`: only those who share at least five working hours with the persona)."""
    pool = [
        p
        for p in org.tracker_users()
        if p.email not in avoid and p.first_name != org.persona.first_name and (not near or overlap_hours(org, p) >= 5)
    ]
    rng.shuffle(pool)
    chosen: list[Person] = []
    for p in pool:
        if all(p.first_name != c.first_name for c in chosen):
            chosen.append(p)
        if len(chosen) == count:
            return chosen
    return None


def read_first(tool: str, entity: dict[str, Any], name: str) -> dict[str, Any]:
    """A required process check: the `entity` rows were read before the first call of `tool`."""
    return {"name": name, "journal": {"read_first": tool, "entity": entity}, "required": True}
