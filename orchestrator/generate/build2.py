"""Edition-2 organizations: a thousand organizations, each worded in its industry's curated vocabulary.

The seed picks the organization (`vocab.organization_name`: its name, distinct for seeds below
`vocab.ORGANIZATIONS`, and its industry, whose teams, products, components and sentences every row is
written with, through `vocab.Writer`). Faker gives people's names (romanized where its locale writes
another script) and street addresses only; offices come from `organization.OFFICES_V2`; the clock
starts on any weekday of START_YEAR (1-2 January and 24-31 December aside) at 08:00-16:00 on the hour
or half hour, in the persona's zone; no two people of an organization share a first name. The same seed and
size give the same organization, byte for byte.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.generate import vocab
from orchestrator.generate.build1 import Builder
from orchestrator.generate.model import START_YEAR, Organization, Person, ascii_slug, iso
from orchestrator.generate.organization import OFFICES_V2, WORK_HOURS, Office, Size
from servers.calendar.model import bounds

NAME_TRIES = 25
"""Redraws of a first name already taken in the organization before the name is drawn from en_US instead."""


def clock_days() -> list[date]:
    """The days an edition-2 clock may start on: every weekday of START_YEAR but New Year and late December."""
    first, days = date(START_YEAR, 1, 3), []
    while first.year == START_YEAR and (first.month, first.day) < (12, 24):
        if first.weekday() < 5:
            days.append(first)
        first += timedelta(days=1)
    return days


CLOCK_TIMES = [time(h, m) for h in range(8, 17) for m in (0, 30) if (h, m) <= (16, 0)]
"""08:00, 08:30 … 16:00: when an edition-2 clock may start."""


class Builder2(Builder):
    """Builds one edition-2 organization of a seed and a size (`build()`)."""

    def __init__(self, seed: int, size: Size) -> None:
        super().__init__(seed, size)
        self.rng = random.Random(f"world2:{seed}:{size.name}")
        self.first_names: set[str] = set()
        self.org_name, self.industry = vocab.organization_name(seed)

    def faker(self, locale: str) -> Any:
        """The organization's Faker of `locale`, seeded apart from edition 1's."""
        if locale not in self.fakers:
            fake = super().faker(locale)
            fake.seed_instance(f"world2:{self.seed}:{self.size.name}:{locale}")
        return self.fakers[locale]

    def human(self, office: Office, domain: str, *, internal: bool = True, company: str = "") -> Person:
        """A person of `office` whose first name nobody else in the organization has."""
        fake = self.faker(office.locale)
        romanized = hasattr(fake, "first_romanized_name")
        for attempt in range(NAME_TRIES + 1):
            if attempt == NAME_TRIES:
                fake, romanized = self.faker("en_US"), False
            first = fake.first_romanized_name() if romanized else fake.first_name()
            if ascii_slug(first) not in self.first_names:
                break
        while (
            ascii_slug(first) in self.first_names
        ):  # en_US has thousands; an organization has at most a few hundred people
            first = fake.first_name()
        self.first_names.add(ascii_slug(first))
        last = fake.last_romanized_name() if romanized else fake.last_name()
        start, end = self.rng.choice(WORK_HOURS)
        local = self.faker(office.locale)
        street = local.street_address().replace("\n", ", ")
        return Person(
            email=self.email(first, last, domain),
            name=f"{first} {last}",
            first_name=first,
            last_name=last,
            timezone=office.timezone,
            city=office.city,
            address=f"{street}, {local.postcode()} {office.city}, {office.country}",
            work_start=start,
            work_end=end,
            internal=internal,
            company=company,
        )

    def build(self) -> Organization:
        rng, size, industry = self.rng, self.size, self.industry
        slug = ascii_slug(self.org_name, "-")
        domains = [f"{slug}.test"] + [f"{slug}-{x}.test" for x in ("group", "intl", "mail")][: size.domains - 1]
        offices = self.offices()
        teams = {t.name: t for t in industry.teams}
        persona = self.human(offices[0], domains[0])
        persona.team = rng.choice(list(teams)[:4])
        persona.role = rng.choice(teams[persona.team].roles)
        people = self.colleagues(offices, domains, persona.team, list(teams))
        leads: dict[str, Person] = {}
        for p in people:
            if p.team not in leads:
                leads[p.team] = p
                p.role = teams[p.team].lead
            else:
                p.role = rng.choice(teams[p.team].roles)
        for p in [persona, *people]:
            lead = leads.get(p.team)
            p.manager = lead.email if lead is not None and lead is not p else None
        outsiders = self.outsiders()
        start = datetime.combine(rng.choice(clock_days()), rng.choice(CLOCK_TIMES), ZoneInfo(persona.timezone))
        org = Organization(self.seed, size.name, self.org_name, domains, offices, persona, people, outsiders, start)
        org.industry = industry.name
        self.now, self.tz = start.astimezone(UTC), start.tzinfo
        self.writer = vocab.Writer(
            industry, rng, [p.first_name for p in people], [o.company for o in outsiders], sorted(leads)
        )
        org.apps = {
            "calendar": self.calendar(org),
            "mail": self.mail(org),
            "docs": self.docs(org),
            "tickets": self.tickets(org),
        }
        return org

    def iso(self, instant: datetime) -> str:
        """An instant as the persona's zone writes it. History is counted back from the clock in real time (in UTC),
        so a daylight-saving change in between neither shifts it nor makes a wall time that does not exist."""
        return iso(instant.astimezone(self.tz))

    def offices(self) -> list[Office]:
        """The organization's offices, no two in zones that keep the same time (so N offices are N time zones)."""
        chosen: list[Office] = []
        seen: set[tuple[Any, ...]] = set()
        for office in self.rng.sample(OFFICES_V2, len(OFFICES_V2)):
            zone = ZoneInfo(office.timezone)
            key = tuple(zone.utcoffset(datetime(START_YEAR, month, 1)) for month in (1, 4, 7, 10))
            if key not in seen:
                seen.add(key)
                chosen.append(office)
            if len(chosen) == self.size.offices:
                break
        return chosen

    def colleagues(self, offices: list[Office], domains: list[str], home: str, teams: list[str]) -> list[Person]:
        """Everyone inside the organization but the persona: the first four on the persona's team."""
        people = []
        for i in range(self.size.people - 1):
            office = offices[0] if i < 2 else self.rng.choice(offices)
            domain = domains[0] if i < 4 else self.rng.choice(domains)
            p = self.human(office, domain)
            p.team = home if i < 4 else self.rng.choice(teams)
            people.append(p)
        return people

    def outsiders(self) -> list[Person]:
        """Customers and vendors, each of a company whose first word no other company (nor the organization) has."""
        taken = {self.org_name.split()[0]}
        out = []
        for n in range(self.size.customers):
            name = vocab.company(self.rng, self.industry, taken)
            taken.add(name.split()[0])
            office = self.rng.choice(OFFICES_V2)
            p = self.human(office, f"{ascii_slug(name, '-')}.test", internal=False, company=name)
            p.role = "Vendor" if n % 4 == 3 else "Customer"
            out.append(p)
        return out

    # -- calendar ---------------------------------------------------------------

    def calendar(self, org: Organization) -> dict[str, Any]:
        rng, me = self.rng, org.persona
        team = [p for p in org.people if p.team == me.team][:6]
        events: list[dict[str, Any]] = []

        def event(title: str, start: datetime, minutes: int, attendees: list[Person], **extra: Any) -> None:
            events.append(
                {
                    "id": f"evt-{len(events) + 1:05d}",
                    "title": title,
                    "start": iso(start),
                    "end": iso(start + timedelta(minutes=minutes)),
                    "attendees": [
                        {"email": a.email, "response": rng.choice(["accepted", "accepted", "tentative", "needsAction"])}
                        for a in attendees
                    ],
                    **extra,
                }
            )

        days = self.working_days(org)
        manager = next((p for p in org.people if p.email == me.manager), None)
        for d in days:
            self._recurring_meetings(org, d, event, team, manager)
            for _ in range(self._count(self.size.meetings_per_day)):
                for _attempt in range(6):
                    start = org.at(d, f"{rng.randrange(10, 17):02d}:{rng.choice(['00', '30'])}")
                    minutes = rng.choice([30, 30, 45, 60])
                    end = start + timedelta(minutes=minutes)
                    if not any(bounds(e)[0] < end and start < bounds(e)[1] for e in events[-8:]):
                        guests = rng.sample(org.people, min(len(org.people), rng.randint(1, 3)))
                        title, room, about = self.writer.meeting()
                        event(title, start, minutes, guests, location=room, description=about)
                        break
        holiday = days[len(days) // 2]
        events.append(
            {
                "id": f"evt-{len(events) + 1:05d}",
                "title": f"{org.name} offsite",
                "all_day": True,
                "start": holiday.isoformat(),
                "end": holiday.isoformat(),
                "organizer": org.people[0].email,
                "attendees": [me.email],
            }
        )
        people = [me.calendar_person(), *(p.calendar_person() for p in org.people)]
        return {"people": people, "events": events, "busy": self.busy_blocks(org, days)}

    # -- mail ---------------------------------------------------------------------

    def mail(self, org: Organization) -> dict[str, Any]:
        rng, me, writer = self.rng, org.persona, self.writer
        messages: list[dict[str, Any]] = []
        span = max(self.size.days_before, 3)

        def when() -> datetime:
            return self.now - timedelta(minutes=rng.randrange(30, span * 24 * 60))

        def add(**row: Any) -> None:
            row = {"id": f"msg-{len(messages) + 1:05d}", **row, "sent_at": self.iso(row["sent_at"])}
            messages.append(row)

        senders = []
        for name in rng.sample(
            self.industry.newsletters, min(len(self.industry.newsletters), max(2, self.size.newsletters // 10))
        ):
            senders.append((name, f"newsletter@{ascii_slug(name, '-')}.test"))
        for _ in range(self.size.newsletters):
            name, address = rng.choice(senders)
            subject, body = writer.newsletter(name)
            at = when()
            add(
                **{
                    "from": f"{name} <{address}>",
                    "subject": subject,
                    "sent_at": at,
                    "body": f"{body}\n\nYou are receiving this because you subscribed to {name}. Unsubscribe any time.",
                    "is_read": at < self.now - timedelta(days=1),
                    "labels": ["Newsletters"],
                }
            )
        projects = [t.project for t in self.industry.teams]
        for _ in range(self.size.notifications):
            _kind, summary, _ = writer.ticket()
            add(
                **{
                    "from": f"Tickets <notifications@{org.domain}>",
                    "sent_at": when(),
                    "subject": f"[{rng.choice(projects)}-{rng.randint(1, 400)}] {summary}: status changed",
                    "body": f"{rng.choice(org.people).name} moved the ticket to {rng.choice(['in progress', 'in review', 'done'])}.",
                    "is_read": True,
                }
            )
        for _ in range(self.size.threads):
            self.thread(org, rng.choice(org.people), when(), add, messages)
        for _ in range(self.size.customer_mails):
            c = rng.choice(org.outsiders)
            subject, body = writer.customer()
            at = when()
            add(
                **{
                    "from": c.address_line,
                    "to": [me.email],
                    "subject": subject,
                    "sent_at": at,
                    "body": f"Hello {me.first_name},\n\n{body}\n\nBest regards,\n{c.name}, {c.company}",
                    "is_read": at < self.now - timedelta(days=1),
                }
            )
        messages.sort(key=lambda m: (datetime.fromisoformat(m["sent_at"]), m["id"]))  # instants, not wall clocks
        contacts = [{"email": p.email, "name": p.name} for p in [*org.people, *org.outsiders]]
        return {"labels": ["Newsletters", "Receipts", "Follow-up"], "contacts": contacts, "messages": messages}

    def thread(self, org: Organization, peer: Person, at: datetime, add: Any, messages: list[dict[str, Any]]) -> None:
        """A colleague's mail to the persona and up to two replies back and forth (all before the clock)."""
        me = org.persona
        subject, body = self.writer.thread()
        add(
            **{
                "from": peer.address_line,
                "to": [me.email],
                "subject": subject,
                "sent_at": at,
                "body": f"Hi {me.first_name},\n\n{body}\n\n{peer.first_name}",
                "is_read": True,
            }
        )
        for k in range(self.rng.randint(0, 2)):
            at += timedelta(minutes=self.rng.randrange(20, 600))
            if at >= self.now:
                break
            mine = k % 2 == 0
            sender, to = (me, peer) if mine else (peer, me)
            add(
                **{
                    "from": sender.address_line,
                    "to": [to.email],
                    "subject": f"Re: {subject}",
                    "sent_at": at,
                    "in_reply_to": messages[-1]["id"],
                    "body": f"{self.writer.reply()}\n\n{sender.first_name}",
                    "is_read": True,
                }
            )

    # -- docs ---------------------------------------------------------------------

    def docs(self, org: Organization) -> dict[str, Any]:
        rng, me = self.rng, org.persona
        teams = sorted({p.team for p in org.people} | {me.team})
        folders = [{"id": f"fld-{ascii_slug(t, '-')}", "name": t} for t in teams]
        directory = [
            "# Team directory",
            "",
            f"Who works at {org.name}, where, and when.",
            "",
            "| Name | Email | Team | Role | Office | Time zone | Hours | Address |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for p in [me, *org.people]:
            directory.append(
                f"| {p.name} | {p.email} | {p.team} | {p.role} | {p.city} | {p.timezone} | "
                f"{p.work_start}-{p.work_end} | {p.address} |"
            )
        people_folder = next((f["id"] for f in folders if f["name"] in ("People", "HR")), None)
        documents: list[dict[str, Any]] = [
            {
                "id": "doc-directory",
                "title": "Team directory",
                "owner": org.people[-1].email,
                "folder_id": people_folder,
                "shared_with": [{"email": me.email, "role": "viewer"}],
                "content": "\n".join(directory) + "\n",
                "updated_at": self.iso(self.now - timedelta(days=10)),
            }
        ]
        roles = ["viewer", "commenter", "editor"]
        for i in range(self.size.docs):
            owner = me if rng.random() < 0.35 else rng.choice(org.people)
            title, body = self.writer.document()
            shares = [] if owner is me else [{"email": me.email, "role": rng.choice(roles)}]
            for peer in rng.sample(org.people, min(len(org.people), rng.randint(0, 3))):
                if peer is not owner and all(s["email"] != peer.email for s in shares):
                    shares.append({"email": peer.email, "role": rng.choice(roles)})
            updated = self.now - timedelta(days=rng.randrange(1, 120), minutes=rng.randrange(0, 600))
            documents.append(
                {
                    "id": f"doc-{i + 1:05d}",
                    "title": title,
                    "owner": owner.email,
                    "folder_id": f"fld-{ascii_slug(owner.team, '-')}",
                    "shared_with": shares,
                    "content": "\n".join(body),
                    "updated_at": self.iso(updated),
                }
            )
        return {"folders": folders, "documents": documents}

    # -- tickets ------------------------------------------------------------------

    def tickets(self, org: Organization) -> dict[str, Any]:
        rng = self.rng
        everyone = [org.persona, *org.people]
        users = [{"email": p.email, "name": p.name, "team": p.team, "role": p.role} for p in everyone]
        teams = {t.name: t for t in self.industry.teams}
        order = [org.persona.team] + [t for t in teams if t != org.persona.team]
        projects = []
        for name in order[: self.size.projects]:
            members = [p for p in everyone if p.team == name] or everyone
            lead = next((p for p in members if p.role == teams[name].lead), members[0])
            projects.append(
                {
                    "key": teams[name].project,
                    "name": name,
                    "lead": lead.email,
                    "description": f"Work of the {name} team.",
                }
            )
        tickets, comments = [], []
        numbers = {p["key"]: 0 for p in projects}
        statuses = ["todo", "todo", "in_progress", "in_progress", "in_review", "done", "done", "cancelled"]
        for _ in range(self.size.tickets):
            project = rng.choice(projects)
            numbers[project["key"]] += 1
            key = f"{project['key']}-{numbers[project['key']]}"
            members = [p for p in everyone if p.team == project["name"]] or everyone
            status = rng.choice(statuses)
            created = self.now - timedelta(days=rng.randrange(1, 90), minutes=rng.randrange(0, 600))
            updated = created + timedelta(days=rng.randrange(0, 5), minutes=rng.randrange(0, 300))
            updated = min(updated, self.now - timedelta(minutes=5))
            kind, summary, description = self.writer.ticket()
            tickets.append(
                {
                    "key": key,
                    "title": summary,
                    "description": description,
                    "type": kind,
                    "status": status,
                    "priority": rng.choice(["low", "medium", "medium", "high"]),
                    "assignee": rng.choice(members).email if status != "todo" or rng.random() < 0.5 else None,
                    "reporter": rng.choice(everyone).email,
                    "created_at": self.iso(created),
                    "updated_at": self.iso(updated),
                }
            )
            for _ in range(rng.choice([0, 0, 1, 2])):
                comments.append(
                    {
                        "ticket_key": key,
                        "author": rng.choice(members).email,
                        "body": self.writer.comment(),
                        "created_at": self.iso(min(updated, created + timedelta(hours=rng.randrange(1, 48)))),
                    }
                )
        return {"projects": projects, "users": users, "tickets": tickets, "comments": comments}
