"""Procedural worlds: a whole organization across calendar, mail, docs and tickets, from a seed and a size.

`build_world(seed, size)` returns a `World`: the organization (name, email
domains, offices), its people (names, addresses, time zones, working hours,
teams, roles, managers) and outside contacts (customers, vendors,
newsletters), the clock the scenarios start at, and `apps`, each app's seed
data in the format scenarios use (`apps:` validated by
`servers/<app>/seed.py`). Names, addresses and text come from Faker, seeded
from `seed`; every other choice from `random.Random(seed)`. The same seed and
size give the same world, byte for byte (`World.dump()`), with the same Faker
release.

Sizes: `small` (a dozen people, tens of rows per app, for tests), `medium`
(about 40 people, hundreds of rows per app) and `large` (about 150 people,
thousands of rows per app: distraction at scale).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import yaml
from faker import Faker

from orchestrator.generate.organization import OFFICES, SIZES, TEAMS, WORK_HOURS, Office, Size
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
        return {"email": self.email, "name": self.name, "timezone": self.timezone,
                "work_start": self.work_start, "work_end": self.work_end}  # fmt: skip

    def work_window(self, day: date) -> tuple[datetime, datetime]:
        """This person's working hours on `day` (a date in their own zone), as aware date-times."""
        tz = ZoneInfo(self.timezone)
        return (datetime.combine(day, time.fromisoformat(self.work_start), tz),
                datetime.combine(day, time.fromisoformat(self.work_end), tz))  # fmt: skip


@dataclass
class World:
    """A generated organization and its apps' seed data. Families copy it (`copy()`) before adding rows."""

    seed: int
    size: str
    org: str
    domains: list[str]
    offices: list[Office]
    persona: Person
    people: list[Person]
    """Everyone inside the organization except the persona."""
    outsiders: list[Person]
    """Customers, vendors and other outside contacts."""
    start: datetime
    """The clock every scenario over this world starts at: a Monday 09:00 in the persona's zone."""
    apps: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    edition: int = 1
    """The task-set edition the world was built for (1: release v1's worlds, byte for byte; 2: see `build_world`)."""
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
        raise KeyError(f"no person {email!r} in world {self.seed}")

    def colleagues(self, team: str | None = None) -> list[Person]:
        return [p for p in self.people if team is None or p.team == team]

    def tracker_users(self) -> list[Person]:
        """The colleagues who are users of the ticket tracker, in the world's order."""
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
            guests = [{"email": a, "response": "needsAction"} if isinstance(a, str)
                      else {"email": a["email"], "response": a.get("response", "needsAction")} for a in e.get("attendees", [])]  # fmt: skip
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
            row = {"timezone": person.timezone, "work_start": person.work_start, "work_end": person.work_end,
                   "work_days": [0, 1, 2, 3, 4]}  # fmt: skip
            free = subtract(intersect(free, working_windows(row, window)), self.busy(email))
        return [(s.astimezone(self.tz), e.astimezone(self.tz)) for s, e in free]

    # -- copying and writing ------------------------------------------------------

    def copy(self) -> World:
        return copy.deepcopy(self)

    def scenario_head(self) -> dict[str, Any]:
        """The persona (with the organization's domains) and the clock, as a scenario writes them."""
        return {
            "persona": {"name": self.persona.name, "email": self.persona.email, "timezone": self.persona.timezone,
                        "domains": list(self.domains)},
            "clock": {"start": iso(self.start), "mode": "frozen"},
        }  # fmt: skip

    def dump(self) -> str:
        """The whole world as YAML (deterministic)."""
        data = {"seed": self.seed, "size": self.size, "org": self.org, **self.scenario_head(), "apps": self.apps}
        return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True,
                         width=120)  # fmt: skip

    def digest(self) -> str:
        """A hash of the world's content as it is now."""
        data = {"seed": self.seed, "size": self.size, "org": self.org, **self.scenario_head(), "apps": self.apps}
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


# -- building -------------------------------------------------------------------


_FAKERS: dict[str, Faker] = {}


class _Builder:
    def __init__(self, seed: int, size: Size) -> None:
        self.seed = seed
        self.size = size
        self.rng = random.Random(f"world:{seed}:{size.name}")
        self.fakers: dict[str, Faker] = {}
        self.text = self.faker("en_US")
        self.emails: set[str] = set()

    def faker(self, locale: str) -> Faker:
        if locale not in self.fakers:
            if locale not in _FAKERS:  # creating one is slow (it scans its providers); seeding is not
                _FAKERS[locale] = Faker(locale)
            fake = _FAKERS[locale]
            fake.seed_instance(
                int(hashlib.sha256(f"{self.seed}:{self.size.name}:{locale}".encode()).hexdigest()[:12], 16)
            )
            self.fakers[locale] = fake
        return self.fakers[locale]

    def email(self, first: str, last: str, domain: str) -> str:
        base = f"{ascii_slug(first)}.{ascii_slug(last)}".strip(".") or "someone"
        candidate, n = f"{base}@{domain}", 2
        while candidate in self.emails:
            candidate, n = f"{base}{n}@{domain}", n + 1
        self.emails.add(candidate)
        return candidate

    def human(self, office: Office, domain: str, *, internal: bool = True, company: str = "") -> Person:
        fake = self.faker(office.locale)
        first, last = fake.first_name(), fake.last_name()
        start, end = self.rng.choice(WORK_HOURS)
        street = fake.street_address().replace("\n", ", ")
        return Person(
            email=self.email(first, last, domain), name=f"{first} {last}", first_name=first, last_name=last,
            timezone=office.timezone, city=office.city, address=f"{street}, {fake.postcode()} {office.city}, {office.country}",
            work_start=start, work_end=end, internal=internal, company=company,
        )  # fmt: skip

    def build(self) -> World:
        rng, size = self.rng, self.size
        org_fake = self.faker("en_US")
        org = org_fake.company().replace(",", "")
        slug = ascii_slug(org.split()[0], "-") or "org"
        domains = [f"{slug}.test"] + [f"{slug}-{ascii_slug(o, '-')}.test" for o in ("labs", "cloud", "studio")][
            : size.domains - 1
        ]
        offices = rng.sample(OFFICES, size.offices)
        persona = self.human(offices[0], domains[0])
        teams = list(TEAMS)
        persona.team, persona.role = rng.choice(teams[:4]), ""
        persona.role = rng.choice(TEAMS[persona.team]["roles"])
        people: list[Person] = []
        for i in range(size.people - 1):
            office = offices[0] if i < 2 else rng.choice(offices)
            domain = domains[0] if i < 4 else rng.choice(domains)
            p = self.human(office, domain)
            p.team = persona.team if i < 4 else rng.choice(teams)
            people.append(p)
        # Team leads first, then roles and managers: the lead of a team manages its members.
        leads: dict[str, Person] = {}
        for p in people:
            if p.team not in leads:
                leads[p.team] = p
                p.role = TEAMS[p.team]["lead"]
            else:
                p.role = rng.choice(TEAMS[p.team]["roles"])
        for p in [persona, *people]:
            lead = leads.get(p.team)
            p.manager = lead.email if lead is not None and lead is not p else None
        outsiders: list[Person] = []
        for _ in range(size.customers):
            office = rng.choice(OFFICES)
            company = self.faker(office.locale).company().replace(",", "")
            p = self.human(office, f"{ascii_slug(company.split()[0], '-') or 'customer'}-{len(outsiders)}.test",
                           internal=False, company=company)  # fmt: skip
            p.role = "Customer"
            outsiders.append(p)
        monday = date(START_YEAR, 1, 5) + timedelta(weeks=rng.randrange(0, 48))
        start = datetime.combine(monday, time(9), ZoneInfo(persona.timezone))
        world = World(self.seed, size.name, org, domains, offices, persona, people, outsiders, start)
        world.apps = {
            "calendar": self.calendar(world),
            "mail": self.mail(world),
            "docs": self.docs(world),
            "tickets": self.tickets(world),
        }
        return world

    # -- calendar ---------------------------------------------------------------

    def working_days(self, world: World) -> list[date]:
        days = [world.day(d) for d in range(-self.size.days_before, self.size.days_after)]
        return [d for d in days if d.weekday() < 5]

    def calendar(self, world: World) -> dict[str, Any]:
        rng, me = self.rng, world.persona
        team = [p for p in world.people if p.team == me.team][:6]
        events: list[dict[str, Any]] = []
        n = 0

        def event(title: str, start: datetime, minutes: int, attendees: list[Person], **extra: Any) -> None:
            nonlocal n
            n += 1
            events.append({"id": f"evt-{n:05d}", "title": title, "start": iso(start),
                           "end": iso(start + timedelta(minutes=minutes)),
                           "attendees": [{"email": a.email, "response": rng.choice(["accepted", "accepted", "tentative", "needsAction"])}
                                         for a in attendees], **extra})  # fmt: skip

        days = self.working_days(world)
        manager = next((p for p in world.people if p.email == me.manager), None)
        for d in days:
            # Recurring: a daily stand-up, a weekly 1:1 with the manager, a weekly team sync.
            event(f"{me.team} stand-up", world.at(d, "09:30"), 15, team, location="Zoom",
                  description="Daily stand-up (recurring).")  # fmt: skip
            if d.weekday() == 1 and manager is not None:
                event(f"1:1 {me.first_name} / {manager.first_name}", world.at(d, "11:00"), 30, [manager],
                      description="Weekly 1:1 (recurring).")  # fmt: skip
            if d.weekday() == 3:
                event(f"{me.team} weekly sync", world.at(d, "14:00"), 60, team, location="Zoom",
                      description="Weekly team sync (recurring).")  # fmt: skip
            # One-off meetings at free half hours of the day.
            for _ in range(self._count(self.size.meetings_per_day)):
                for _attempt in range(6):
                    clock = f"{rng.randrange(10, 17):02d}:{rng.choice(['00', '30'])}"
                    start = world.at(d, clock)
                    minutes = rng.choice([30, 30, 45, 60])
                    if not any(
                        bounds(e)[0] < start + timedelta(minutes=minutes) and start < bounds(e)[1] for e in events[-8:]
                    ):
                        guests = rng.sample(world.people, min(len(world.people), rng.randint(1, 3)))
                        topic = self.text.catch_phrase()
                        event(topic[:1].upper() + topic[1:], start, minutes, guests, location=rng.choice(["Zoom", "Google Meet", f"Room {self.text.last_name()}"]),
                              description=self.text.sentence(nb_words=10))  # fmt: skip
                        break
        # A company holiday as an all-day event.
        holiday = days[len(days) // 2]
        n += 1
        events.append({"id": f"evt-{n:05d}", "title": f"{world.org} summer party" if holiday.month in (6, 7, 8) else f"{world.org} offsite",
                       "all_day": True, "start": holiday.isoformat(), "end": holiday.isoformat(), "organizer": world.people[0].email,
                       "attendees": [me.email]})  # fmt: skip
        busy = []
        for p in world.people:
            for d in days:
                for _ in range(self._count(self.size.busy_per_day)):
                    open_, close = p.work_window(d)
                    span = int((close - open_).total_seconds() // 1800) - 1
                    begin = open_ + timedelta(minutes=30 * rng.randrange(0, max(span, 1)))
                    busy.append(
                        {
                            "email": p.email,
                            "start": iso(begin),
                            "end": iso(begin + timedelta(minutes=rng.choice([30, 60, 90]))),
                        }
                    )
        people = [me.calendar_person(), *(p.calendar_person() for p in world.people)]
        return {"people": people, "events": events, "busy": busy}

    def _count(self, mean: float) -> int:
        whole = int(mean)
        return whole + (1 if self.rng.random() < mean - whole else 0)

    # -- mail ---------------------------------------------------------------------

    def mail(self, world: World) -> dict[str, Any]:
        rng, me, text = self.rng, world.persona, self.text
        messages: list[dict[str, Any]] = []
        span = max(self.size.days_before, 3)

        def when(max_days: int = span) -> datetime:
            back = timedelta(minutes=rng.randrange(30, max_days * 24 * 60))
            return world.start - back

        def add(**row: Any) -> dict[str, Any]:
            row = {"id": f"msg-{len(messages) + 1:05d}", **row}
            row["sent_at"] = iso(row["sent_at"])
            messages.append(row)
            return row

        senders = []
        for _ in range(max(2, self.size.newsletters // 10)):
            name = text.company().replace(",", "")
            senders.append((f"{name} Weekly", f"newsletter@{ascii_slug(name.split()[0], '-')}-news.test"))
        for _ in range(self.size.newsletters):
            name, address = rng.choice(senders)
            at = when()
            add(**{"from": f"{name} <{address}>", "subject": f"{name}: {text.catch_phrase()}", "sent_at": at,
                   "body": "\n\n".join(text.paragraphs(nb=2)) + f"\n\nYou are receiving this because you subscribed to {name}. Unsubscribe any time.",
                   "is_read": at < world.start - timedelta(days=1), "labels": ["Newsletters"]})  # fmt: skip
        for _ in range(self.size.notifications):
            project = rng.choice(list(TEAMS.values()))["project"]
            at = when()
            add(**{"from": f"Tickets <notifications@{world.domain}>", "sent_at": at,
                   "subject": f"[{project}-{rng.randint(1, 400)}] {text.bs().capitalize()}: status changed",
                   "body": f"{rng.choice(world.people).name} moved the ticket to {rng.choice(['in progress', 'in review', 'done'])}.",
                   "is_read": True})  # fmt: skip
        for _ in range(self.size.threads):
            peer = rng.choice(world.people)
            topic = text.bs().capitalize()
            at = when()
            first = add(**{"from": peer.address_line, "to": [me.email], "subject": topic, "sent_at": at,
                           "body": f"Hi {me.first_name},\n\n{text.paragraph(nb_sentences=3)}\n\n{peer.first_name}", "is_read": True})  # fmt: skip
            for k in range(rng.randint(0, 2)):
                at += timedelta(minutes=rng.randrange(20, 600))
                if at >= world.start:
                    break
                mine = k % 2 == 0
                add(**{"from": me.address_line if mine else peer.address_line, "to": [peer.email if mine else me.email],
                       "subject": f"Re: {topic}", "sent_at": at, "in_reply_to": messages[-1]["id"],
                       "body": f"{text.paragraph(nb_sentences=2)}\n\n{me.first_name if mine else peer.first_name}",
                       "is_read": True})  # fmt: skip
            del first
        for _ in range(self.size.customer_mails):
            c = rng.choice(world.outsiders)
            at = when()
            add(**{"from": c.address_line, "to": [me.email], "subject": f"Question about {text.bs()}", "sent_at": at,
                   "body": f"Hello,\n\n{text.paragraph(nb_sentences=3)}\n\nBest regards,\n{c.name}, {c.company}",
                   "is_read": at < world.start - timedelta(days=1)})  # fmt: skip
        messages.sort(key=lambda m: (m["sent_at"], m["id"]))
        # Replies must come after what they answer: sorting by time keeps that, as a reply is always later.
        contacts = [{"email": p.email, "name": p.name} for p in [*world.people, *world.outsiders]]
        return {"labels": ["Newsletters", "Receipts", "Follow-up"], "contacts": contacts, "messages": messages}

    # -- docs ---------------------------------------------------------------------

    def docs(self, world: World) -> dict[str, Any]:
        rng, me, text = self.rng, world.persona, self.text
        teams = sorted({p.team for p in world.people} | {me.team})
        folders = [{"id": f"fld-{ascii_slug(t, '-')}", "name": t} for t in teams]
        directory = ["# Team directory", "", f"Who works at {world.org}, where, and when.", "",
                     "| Name | Email | Team | Role | Office | Time zone | Hours | Address |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for p in [me, *world.people]:
            directory.append(f"| {p.name} | {p.email} | {p.team} | {p.role} | {p.city} | {p.timezone} | "
                             f"{p.work_start}-{p.work_end} | {p.address} |")  # fmt: skip
        documents: list[dict[str, Any]] = [{
            "id": "doc-directory", "title": "Team directory", "owner": world.people[-1].email, "folder_id": f"fld-{ascii_slug('People', '-')}"
            if "People" in teams else None, "shared_with": [{"email": me.email, "role": "viewer"}],
            "content": "\n".join(directory) + "\n", "updated_at": iso(world.start - timedelta(days=10)),
        }]  # fmt: skip
        kinds = ["Meeting notes", "Design doc", "Runbook", "Proposal", "Retrospective", "Plan"]
        for i in range(self.size.docs):
            owner = me if rng.random() < 0.35 else rng.choice(world.people)
            kind = rng.choice(kinds)
            title = f"{kind}: {text.catch_phrase()}"
            body = [f"# {title}", ""]
            for _ in range(rng.randint(1, 3)):
                body += [f"## {text.bs().capitalize()}", "", text.paragraph(nb_sentences=4), ""]
            shares = []
            if owner is not me:
                shares.append({"email": me.email, "role": rng.choice(["viewer", "commenter", "editor"])})
            for peer in rng.sample(world.people, min(len(world.people), rng.randint(0, 3))):
                if peer is not owner and all(s["email"] != peer.email for s in shares):
                    shares.append({"email": peer.email, "role": rng.choice(["viewer", "commenter", "editor"])})
            updated = world.start - timedelta(days=rng.randrange(1, 120), minutes=rng.randrange(0, 600))
            documents.append({"id": f"doc-{i + 1:05d}", "title": title, "owner": owner.email,
                              "folder_id": f"fld-{ascii_slug(owner.team, '-')}", "shared_with": shares,
                              "content": "\n".join(body), "updated_at": iso(updated)})  # fmt: skip
        return {"folders": folders, "documents": documents}

    # -- tickets ------------------------------------------------------------------

    def tickets(self, world: World) -> dict[str, Any]:
        rng, text = self.rng, self.text
        everyone = [world.persona, *world.people]
        users = [{"email": p.email, "name": p.name, "team": p.team, "role": p.role} for p in everyone]
        teams = [world.persona.team] + [t for t in TEAMS if t != world.persona.team]
        projects = []
        for team in teams[: self.size.projects]:
            members = [p for p in everyone if p.team == team] or everyone
            lead = next((p for p in members if p.role == TEAMS[team]["lead"]), members[0])
            projects.append({"key": TEAMS[team]["project"], "name": team, "lead": lead.email,
                             "description": f"Work of the {team} team."})  # fmt: skip
        tickets, comments = [], []
        numbers = {p["key"]: 0 for p in projects}
        for _ in range(self.size.tickets):
            project = rng.choice(projects)
            numbers[project["key"]] += 1
            key = f"{project['key']}-{numbers[project['key']]}"
            members = [p for p in everyone if p.team == project["name"]] or everyone
            status = rng.choice(
                ["todo", "todo", "in_progress", "in_progress", "in_review", "done", "done", "cancelled"]
            )
            created = world.start - timedelta(days=rng.randrange(1, 90), minutes=rng.randrange(0, 600))
            updated = created + timedelta(days=rng.randrange(0, 5), minutes=rng.randrange(0, 300))
            updated = min(updated, world.start - timedelta(minutes=5))
            summary = text.bs()
            tickets.append({
                "key": key, "title": summary[:1].upper() + summary[1:], "description": text.paragraph(nb_sentences=2),
                "type": rng.choice(["task", "task", "bug", "story"]), "status": status,
                "priority": rng.choice(["low", "medium", "medium", "high"]),
                "assignee": rng.choice(members).email if status != "todo" or rng.random() < 0.5 else None,
                "reporter": rng.choice(everyone).email, "created_at": iso(created), "updated_at": iso(updated),
            })  # fmt: skip
            for _ in range(rng.choice([0, 0, 1, 2])):
                comments.append({"ticket_key": key, "author": rng.choice(members).email, "body": text.sentence(nb_words=12),
                                 "created_at": iso(min(updated, created + timedelta(hours=rng.randrange(1, 48))))})  # fmt: skip
        return {"projects": projects, "users": users, "tickets": tickets, "comments": comments}


_CACHE: dict[tuple[int, str], World] = {}


def build_world(seed: int, size: str = "small") -> World:
    """The world of this seed and size (cached; callers get a copy they may change)."""
    if size not in SIZES:
        raise ValueError(f"unknown world size {size!r}; expected one of {', '.join(SIZES)}")
    key = (seed, size)
    if key not in _CACHE:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = _Builder(seed, SIZES[size]).build()
    return _CACHE[key].copy()


def validate_apps(world: World) -> list[str]:
    """Problems the apps' seed models find in the world's data (none for a sound world)."""
    from servers import registry  # noqa: PLC0415

    problems = []
    for app, data in world.apps.items():
        try:
            registry.load(app).seed_model.model_validate(json.loads(json.dumps(data)))
        except Exception as exc:  # pydantic.ValidationError
            problems.append(f"{app}: {exc}")
    return problems
