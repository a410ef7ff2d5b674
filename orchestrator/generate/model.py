"""What a generated organization is: `Person` (a colleague or an outside contact) and `Organization` (the organization, its
people, its clock and its apps' seed data), with the lookups and free-time arithmetic families use.

`build.build_organization` builds them (`build1` for edition 1, `build2` for edition 2); families import these names
from `build`.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from orchestrator.generate.organization import Office
from servers.calendar.model import bounds, intersect, involves, merge, subtract, working_windows

START_YEAR = 2026


@dataclass
class Person:
    """Someone in a generated world: name, address, time zone, working hours, team, role, manager (colleagues and
    outsiders)."""

    email: str
    name: str
    first_name: str
    last_name: str
    timezone: str
    city: str
    address: str
    work_start: str = "09:00"
    work_end: str = "17:00"
    team: str = ""
    role: str = ""
    manager: str | None = None
    company: str = ""
    internal: bool = True

    @property
    def address_line(self) -> str:
        """'Name <email>' as mail headers write it."""
        return f"{self.name} <{self.email}>"

    def calendar_person(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "name": self.name,
            "timezone": self.timezone,
            "work_start": self.work_start,
            "work_end": self.work_end,
        }

    def work_window(self, day: date) -> tuple[datetime, datetime]:
        """This person's working hours on `day` (a date in their own zone), as aware date-times."""
        tz = ZoneInfo(self.timezone)
        return (
            datetime.combine(day, time.fromisoformat(self.work_start), tz),
            datetime.combine(day, time.fromisoformat(self.work_end), tz),
        )


@dataclass
class Organization:
    """A generated organization and its apps' seed data. Families copy it (`copy()`) before adding rows."""

    seed: int
    size: str
    name: str
    """The organization's name (written as `org` in `dump()` and `digest()`)."""
    domains: list[str]
    offices: list[Office]
    persona: Person
    people: list[Person]
    """Everyone inside the organization except the persona."""
    outsiders: list[Person]
    """Customers, vendors and other outside contacts."""
    start: datetime
    """The clock every scenario over this organization starts at, in the persona's zone: edition 1 a Monday 09:00, edition 2
    any weekday at 08:00-16:00 (on the hour or half hour)."""
    apps: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    edition: int = 1
    """The task-set edition the organization was built for (1: release v1's organizations, byte for byte; 2: see `build_organization`)."""
    split: str | None = None
    """Edition 2: the split the organization belongs to (`train` or `test`); families word their instructions with
    that side's phrasings (`phrasing.compose`). None: no split (every phrasing may be used)."""
    industry: str = ""
    """Edition 2: the organization's industry (its vocabulary); empty for edition 1."""

    @property
    def org_id(self) -> str:
        """The organization's id in a manifest: `org-<seed>`."""
        return f"org-{self.seed}"

    # -- looking things up ------------------------------------------------------

    @property
    def domain(self) -> str:
        return self.domains[0]

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.persona.timezone)

    def person(self, email: str) -> Person:
        for p in [self.persona, *self.people, *self.outsiders]:
            if p.email == email:
                return p
        raise KeyError(f"no person {email!r} in organization {self.seed}")

    def colleagues(self, team: str | None = None) -> list[Person]:
        return [p for p in self.people if team is None or p.team == team]

    def tracker_users(self) -> list[Person]:
        """The colleagues who are users of the ticket tracker, in the organization's order."""
        users = {u["email"] for u in self.apps["tickets"]["users"]}
        return [p for p in self.people if p.email in users]

    def day(self, offset: int) -> date:
        """The date `offset` days after the clock's start, in the persona's zone."""
        return self.start.date() + timedelta(days=offset)

    def at(self, day: date, clock: str, tz: str | None = None) -> datetime:
        """An aware date-time: `clock` ("14:30") on `day`, in `tz` (default the persona's zone)."""
        return datetime.combine(day, time.fromisoformat(clock), ZoneInfo(tz or self.persona.timezone))

    def busy(self, email: str) -> list[tuple[datetime, datetime]]:
        """When `email` is busy according to the calendar seed (the events they take part in and their busy
        blocks), merged, the way the calendar app's free/busy computes it."""
        intervals = []
        cal = self.apps.get("calendar", {})
        for e in cal.get("events", []):
            if e.get("all_day") or e.get("status", "confirmed") == "cancelled":
                continue
            guests = [
                {"email": a, "response": "needsAction"}
                if isinstance(a, str)
                else {"email": a["email"], "response": a.get("response", "needsAction")}
                for a in e.get("attendees", [])
            ]
            row = {"organizer": e.get("organizer") or self.persona.email, "attendees": guests}
            if involves(row, email):
                intervals.append(bounds({"start": e["start"], "end": e["end"]}))
        for b in cal.get("busy", []):
            if b["email"] == email:
                intervals.append(bounds(b))
        return merge(intervals)

    def free(self, email: str, window: tuple[datetime, datetime]) -> bool:
        return not any(s < window[1] and window[0] < e for s, e in self.busy(email))

    def free_windows(self, emails: list[str], window: tuple[datetime, datetime]) -> list[tuple[datetime, datetime]]:
        """When the persona and everyone in `emails` are all free inside their working hours in `window`,
        the way the calendar app's find_free_slots computes it, in the persona's zone."""
        free = [window]
        for email in dict.fromkeys([self.persona.email, *emails]):
            person = self.person(email)
            row = {
                "timezone": person.timezone,
                "work_start": person.work_start,
                "work_end": person.work_end,
                "work_days": [0, 1, 2, 3, 4],
            }
            free = subtract(intersect(free, working_windows(row, window)), self.busy(email))
        return [(s.astimezone(self.tz), e.astimezone(self.tz)) for s, e in free]

    # -- copying and writing ------------------------------------------------------

    def copy(self) -> Organization:
        """A copy sharing nothing with this organization (through pickle: 2-30 times faster than a deep copy)."""
        return pickle.loads(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))

    def scenario_head(self) -> dict[str, Any]:
        """The persona (with the organization's domains) and the clock, as a scenario writes them."""
        return {
            "persona": {
                "name": self.persona.name,
                "email": self.persona.email,
                "timezone": self.persona.timezone,
                "domains": list(self.domains),
            },
            "clock": {"start": iso(self.start), "mode": "frozen"},
        }

    def dump(self) -> str:
        """The whole organization as YAML (deterministic)."""
        data = {"seed": self.seed, "size": self.size, "org": self.name, **self.scenario_head(), "apps": self.apps}
        return yaml.dump(
            data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True, width=120
        )

    def digest(self) -> str:
        """A hash of the organization's content as it is now."""
        data = {"seed": self.seed, "size": self.size, "org": self.name, **self.scenario_head(), "apps": self.apps}
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def rows(self) -> dict[str, int]:
        return {f"{app}.{table}": len(rows) for app, tables in self.apps.items() for table, rows in tables.items()}


def iso(when: datetime) -> str:
    """A date-time as scenario files write it (ISO 8601, to the second)."""
    return when.isoformat(timespec="seconds")


def ascii_slug(text: str, sep: str = ".") -> str:
    """Lower-case ASCII words of `text` joined by `sep` (for email addresses and ids)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", sep, plain.lower()).strip(sep)
