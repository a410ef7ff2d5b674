"""Scheduling helpers the meeting families share: a day's window, slot starts on a grid, busy blocks that
leave exactly one free slot (or two: `second_slot`), and guests spread over time zones.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate.build import Organization, Person, iso


def day_window(org: Organization, offset: int) -> tuple[datetime, datetime]:
    """The persona's day `offset` days after the start, from midnight (or now, if later) to midnight."""
    day = org.day(offset)
    start = org.at(day, "00:00")
    return max(start, org.start), start + timedelta(days=1)


def workday(org: Organization, offset: int) -> int:
    """The first offset from `offset` on whose day (in the persona's zone) is a weekday (edition-2 clocks start on
    any weekday, so `offset` days on may be a weekend)."""
    while org.day(offset).weekday() >= 5:
        offset += 1
    return offset


def aligned_starts(free: list[tuple[datetime, datetime]], minutes: int, step: int = 30) -> list[datetime]:
    """Starts on the `step`-minute grid of every slot of `minutes` inside the free windows."""
    out = []
    for s, e in free:
        first = s + timedelta(minutes=(-s.minute) % step, seconds=-s.second)
        at = first
        while at + timedelta(minutes=minutes) <= e:
            out.append(at)
            at += timedelta(minutes=step)
    return out


def fill(
    org: Organization,
    guests: list[str],
    window: tuple[datetime, datetime],
    keep: tuple[datetime, datetime],
    *more: tuple[datetime, datetime],
) -> list[dict[str, Any]]:
    """Busy blocks that leave `keep` (and each of `more`: disjoint slots) the only times in `window` when the persona
    and `guests` are all free."""
    free = org.free_windows(guests, window)
    keeps = sorted([keep, *more])
    blocks: list[dict[str, Any]] = []
    for n, (s, e) in enumerate(free):
        pieces, at = [], s
        for k0, k1 in keeps:
            pieces.append((at, min(e, k0)))
            at = max(at, k1)
        for piece in (*pieces, (at, e)):
            if piece[0] < piece[1]:
                who = guests[(n + len(blocks)) % len(guests)]
                blocks.append({"email": who, "start": iso(piece[0]), "end": iso(piece[1])})
    return blocks


def second_slot(starts: list[datetime], slot: datetime, minutes: int) -> datetime | None:
    """Another valid start among `starts`, at least two meetings' length from `slot` (so no third start fits between
    them once both are kept free): the middle one of those; None when there is none."""
    apart = [s for s in starts if abs(s - slot) >= timedelta(minutes=2 * minutes)]
    return apart[len(apart) // 2] if apart else None


def pick_guests(org: Organization, rng: random.Random, count: int, spread: int) -> list[Person] | None:
    """`count` colleagues whose time zones, with the persona's, are `spread` different zones."""
    home = org.persona.timezone
    by_zone: dict[str, list[Person]] = {}
    for p in org.people:
        by_zone.setdefault(p.timezone, []).append(p)
    others = sorted(z for z in by_zone if z != home)
    if spread - 1 > len(others) or (spread == 1 and len(by_zone.get(home, [])) < count) or count < spread - 1:
        return None
    zones = rng.sample(others, spread - 1)
    chosen = [rng.choice(by_zone[z]) for z in zones]
    pool = [p for z in ([home] if spread == 1 else zones + [home]) for p in by_zone.get(z, []) if p not in chosen]
    if spread > 1:
        pool = [p for p in pool if p.timezone in zones or p.timezone == home]
    rest = count - len(chosen)
    if rest > len(pool):
        return None
    chosen += rng.sample(pool, rest)
    return sorted(chosen, key=lambda p: p.email)


def moved_in_place(event_id: str, guests: int, everyone: list[str]) -> list[dict[str, Any]]:
    """The checks of a meeting moved where it is: the same event keeps exactly its guests (no one added), and no new
    event stands in for it."""
    return [
        {
            "name": "its guests are unchanged",
            "app": "calendar",
            "table": "events",
            "where": {"id": event_id, "attendees": {"length": guests}},
            "expect": {"count": 1, "all": {"attendees": {"not": {"has": {"email": {"not_one_of": everyone}}}}}},
        },
        {
            "name": "no new event stands in for it",
            "app": "calendar",
            "table": "events",
            "added": True,
            "where": {"status": {"not_equals": "cancelled"}},
            "expect": {"count": 0},
        },
    ]
