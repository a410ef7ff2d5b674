"""Edition-1 organizations, byte for byte what release v1 was built on: names, addresses and text from Faker (its
catch-phrases and filler), seeded from the organization's seed; every other choice from `random.Random`; the clock a
Monday 09:00 of START_YEAR in the persona's zone. Do not change what this module draws, or in which order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from faker import Faker

from orchestrator.generate.model import START_YEAR, Organization, Person, ascii_slug, iso
from orchestrator.generate.organization import OFFICES, TEAMS, WORK_HOURS, Office, Size
from servers.calendar.model import bounds

_FAKERS: dict[str, Faker] = {}


class Builder:
    """Builds one edition-1 organization of a seed and a size (`build()`)."""

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
            email=self.email(first, last, domain),
            name=f"{first} {last}",
            first_name=first,
            last_name=last,
            timezone=office.timezone,
            city=office.city,
            address=f"{street}, {fake.postcode()} {office.city}, {office.country}",
            work_start=start,
            work_end=end,
            internal=internal,
            company=company,
        )

    def build(self) -> Organization:
        rng, size = self.rng, self.size
        org_fake = self.faker("en_US")
        name = org_fake.company().replace(",", "")
        slug = ascii_slug(name.split()[0], "-") or "org"
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
            p = self.human(
                office,
                f"{ascii_slug(company.split()[0], '-') or 'customer'}-{len(outsiders)}.test",
                internal=False,
                company=company,
            )
            p.role = "Customer"
            outsiders.append(p)
        monday = date(START_YEAR, 1, 5) + timedelta(weeks=rng.randrange(0, 48))
        start = datetime.combine(monday, time(9), ZoneInfo(persona.timezone))
        org = Organization(self.seed, size.name, name, domains, offices, persona, people, outsiders, start)
        org.apps = {
            "calendar": self.calendar(org),
            "mail": self.mail(org),
            "docs": self.docs(org),
            "tickets": self.tickets(org),
        }
        return org

    # -- calendar ---------------------------------------------------------------

    def working_days(self, org: Organization) -> list[date]:
        days = [org.day(d) for d in range(-self.size.days_before, self.size.days_after)]
        return [d for d in days if d.weekday() < 5]

    def calendar(self, org: Organization) -> dict[str, Any]:
        rng, me = self.rng, org.persona
        team = [p for p in org.people if p.team == me.team][:6]
        events: list[dict[str, Any]] = []
        n = 0

        def event(title: str, start: datetime, minutes: int, attendees: list[Person], **extra: Any) -> None:
            nonlocal n
            n += 1
            events.append(
                {
                    "id": f"evt-{n:05d}",
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
            self._day_events(org, d, event, events, team, manager)
        # A company holiday as an all-day event.
        holiday = days[len(days) // 2]
        n += 1
        events.append(
            {
                "id": f"evt-{n:05d}",
                "title": f"{org.name} summer party" if holiday.month in (6, 7, 8) else f"{org.name} offsite",
                "all_day": True,
                "start": holiday.isoformat(),
                "end": holiday.isoformat(),
                "organizer": org.people[0].email,
                "attendees": [me.email],
            }
        )
        busy = self.busy_blocks(org, days)
        people = [me.calendar_person(), *(p.calendar_person() for p in org.people)]
        return {"people": people, "events": events, "busy": busy}

    def _day_events(
        self,
        org: Organization,
        d: date,
        event: Callable[..., None],
        events: list[dict[str, Any]],
        team: list[Person],
        manager: Person | None,
    ) -> None:
        """One working day's meetings: the recurring ones, then one-off meetings at free half hours."""
        rng = self.rng
        self._recurring_meetings(org, d, event, team, manager)
        # One-off meetings at free half hours of the day.
        for _ in range(self._count(self.size.meetings_per_day)):
            for _attempt in range(6):
                clock = f"{rng.randrange(10, 17):02d}:{rng.choice(['00', '30'])}"
                start = org.at(d, clock)
                minutes = rng.choice([30, 30, 45, 60])
                if not any(
                    bounds(e)[0] < start + timedelta(minutes=minutes) and start < bounds(e)[1] for e in events[-8:]
                ):
                    guests = rng.sample(org.people, min(len(org.people), rng.randint(1, 3)))
                    topic = self.text.catch_phrase()
                    event(
                        topic[:1].upper() + topic[1:],
                        start,
                        minutes,
                        guests,
                        location=rng.choice(["Zoom", "Google Meet", f"Room {self.text.last_name()}"]),
                        description=self.text.sentence(nb_words=10),
                    )
                    break

    def _recurring_meetings(
        self, org: Organization, d: date, event: Callable[..., None], team: list[Person], manager: Person | None
    ) -> None:
        """A working day's recurring meetings: a daily stand-up, a weekly 1:1 with the manager, a weekly team sync."""
        me = org.persona
        event(
            f"{me.team} stand-up",
            org.at(d, "09:30"),
            15,
            team,
            location="Zoom",
            description="Daily stand-up (recurring).",
        )
        if d.weekday() == 1 and manager is not None:
            event(
                f"1:1 {me.first_name} / {manager.first_name}",
                org.at(d, "11:00"),
                30,
                [manager],
                description="Weekly 1:1 (recurring).",
            )
        if d.weekday() == 3:
            event(
                f"{me.team} weekly sync",
                org.at(d, "14:00"),
                60,
                team,
                location="Zoom",
                description="Weekly team sync (recurring).",
            )

    def busy_blocks(self, org: Organization, days: list[date]) -> list[dict[str, str]]:
        """Colleagues' busy blocks inside their working hours (about `busy_per_day` a day each)."""
        rng, busy = self.rng, []
        for p in org.people:
            for d in days:
                for _ in range(self._count(self.size.busy_per_day)):
                    open_, close = p.work_window(d)
                    span = int((close - open_).total_seconds() // 1800) - 1
                    begin = open_ + timedelta(minutes=30 * rng.randrange(0, max(span, 1)))
                    end = begin + timedelta(minutes=rng.choice([30, 60, 90]))
                    busy.append({"email": p.email, "start": iso(begin), "end": iso(end)})
        return busy

    def _count(self, mean: float) -> int:
        whole = int(mean)
        return whole + (1 if self.rng.random() < mean - whole else 0)

    # -- mail ---------------------------------------------------------------------

    def mail(self, org: Organization) -> dict[str, Any]:
        rng = self.rng
        messages: list[dict[str, Any]] = []
        span = max(self.size.days_before, 3)

        def when(max_days: int = span) -> datetime:
            back = timedelta(minutes=rng.randrange(30, max_days * 24 * 60))
            return org.start - back

        def add(**row: Any) -> dict[str, Any]:
            row = {"id": f"msg-{len(messages) + 1:05d}", **row}
            row["sent_at"] = iso(row["sent_at"])
            messages.append(row)
            return row

        self._newsletters(org, add, when)
        self._notifications(org, add, when)
        self._threads(org, messages, add, when)
        self._customer_mails(org, add, when)
        messages.sort(key=lambda m: (m["sent_at"], m["id"]))
        # Replies must come after what they answer: sorting by time keeps that, as a reply is always later.
        contacts = [{"email": p.email, "name": p.name} for p in [*org.people, *org.outsiders]]
        return {"labels": ["Newsletters", "Receipts", "Follow-up"], "contacts": contacts, "messages": messages}

    def _newsletters(self, org: Organization, add: Callable[..., dict[str, Any]], when: Callable[[], datetime]) -> None:
        """Newsletters from a few senders, read when older than a day."""
        rng, text = self.rng, self.text
        senders = []
        for _ in range(max(2, self.size.newsletters // 10)):
            name = text.company().replace(",", "")
            senders.append((f"{name} Weekly", f"newsletter@{ascii_slug(name.split()[0], '-')}-news.test"))
        for _ in range(self.size.newsletters):
            name, address = rng.choice(senders)
            at = when()
            add(
                **{
                    "from": f"{name} <{address}>",
                    "subject": f"{name}: {text.catch_phrase()}",
                    "sent_at": at,
                    "body": "\n\n".join(text.paragraphs(nb=2))
                    + f"\n\nYou are receiving this because you subscribed to {name}. Unsubscribe any time.",
                    "is_read": at < org.start - timedelta(days=1),
                    "labels": ["Newsletters"],
                }
            )

    def _notifications(
        self, org: Organization, add: Callable[..., dict[str, Any]], when: Callable[[], datetime]
    ) -> None:
        """The tickets app's status notifications."""
        rng, text = self.rng, self.text
        for _ in range(self.size.notifications):
            project = rng.choice(list(TEAMS.values()))["project"]
            at = when()
            add(
                **{
                    "from": f"Tickets <notifications@{org.domain}>",
                    "sent_at": at,
                    "subject": f"[{project}-{rng.randint(1, 400)}] {text.bs().capitalize()}: status changed",
                    "body": f"{rng.choice(org.people).name} moved the ticket to {rng.choice(['in progress', 'in review', 'done'])}.",
                    "is_read": True,
                }
            )

    def _threads(
        self,
        org: Organization,
        messages: list[dict[str, Any]],
        add: Callable[..., dict[str, Any]],
        when: Callable[[], datetime],
    ) -> None:
        """Threads with colleagues: a first mail, then up to two replies before the start."""
        rng, me, text = self.rng, org.persona, self.text
        for _ in range(self.size.threads):
            peer = rng.choice(org.people)
            topic = text.bs().capitalize()
            at = when()
            add(
                **{
                    "from": peer.address_line,
                    "to": [me.email],
                    "subject": topic,
                    "sent_at": at,
                    "body": f"Hi {me.first_name},\n\n{text.paragraph(nb_sentences=3)}\n\n{peer.first_name}",
                    "is_read": True,
                }
            )
            for k in range(rng.randint(0, 2)):
                at += timedelta(minutes=rng.randrange(20, 600))
                if at >= org.start:
                    break
                mine = k % 2 == 0
                add(
                    **{
                        "from": me.address_line if mine else peer.address_line,
                        "to": [peer.email if mine else me.email],
                        "subject": f"Re: {topic}",
                        "sent_at": at,
                        "in_reply_to": messages[-1]["id"],
                        "body": f"{text.paragraph(nb_sentences=2)}\n\n{me.first_name if mine else peer.first_name}",
                        "is_read": True,
                    }
                )

    def _customer_mails(
        self, org: Organization, add: Callable[..., dict[str, Any]], when: Callable[[], datetime]
    ) -> None:
        """Customers' questions, read when older than a day."""
        rng, me, text = self.rng, org.persona, self.text
        for _ in range(self.size.customer_mails):
            c = rng.choice(org.outsiders)
            at = when()
            add(
                **{
                    "from": c.address_line,
                    "to": [me.email],
                    "subject": f"Question about {text.bs()}",
                    "sent_at": at,
                    "body": f"Hello,\n\n{text.paragraph(nb_sentences=3)}\n\nBest regards,\n{c.name}, {c.company}",
                    "is_read": at < org.start - timedelta(days=1),
                }
            )

    # -- docs ---------------------------------------------------------------------

    def docs(self, org: Organization) -> dict[str, Any]:
        rng, me, text = self.rng, org.persona, self.text
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
        documents: list[dict[str, Any]] = [
            {
                "id": "doc-directory",
                "title": "Team directory",
                "owner": org.people[-1].email,
                "folder_id": f"fld-{ascii_slug('People', '-')}" if "People" in teams else None,
                "shared_with": [{"email": me.email, "role": "viewer"}],
                "content": "\n".join(directory) + "\n",
                "updated_at": iso(org.start - timedelta(days=10)),
            }
        ]
        kinds = ["Meeting notes", "Design doc", "Runbook", "Proposal", "Retrospective", "Plan"]
        for i in range(self.size.docs):
            owner = me if rng.random() < 0.35 else rng.choice(org.people)
            kind = rng.choice(kinds)
            title = f"{kind}: {text.catch_phrase()}"
            body = [f"# {title}", ""]
            for _ in range(rng.randint(1, 3)):
                body += [f"## {text.bs().capitalize()}", "", text.paragraph(nb_sentences=4), ""]
            shares = []
            if owner is not me:
                shares.append({"email": me.email, "role": rng.choice(["viewer", "commenter", "editor"])})
            for peer in rng.sample(org.people, min(len(org.people), rng.randint(0, 3))):
                if peer is not owner and all(s["email"] != peer.email for s in shares):
                    shares.append({"email": peer.email, "role": rng.choice(["viewer", "commenter", "editor"])})
            updated = org.start - timedelta(days=rng.randrange(1, 120), minutes=rng.randrange(0, 600))
            documents.append(
                {
                    "id": f"doc-{i + 1:05d}",
                    "title": title,
                    "owner": owner.email,
                    "folder_id": f"fld-{ascii_slug(owner.team, '-')}",
                    "shared_with": shares,
                    "content": "\n".join(body),
                    "updated_at": iso(updated),
                }
            )
        return {"folders": folders, "documents": documents}

    # -- tickets ------------------------------------------------------------------

    def tickets(self, org: Organization) -> dict[str, Any]:
        rng, text = self.rng, self.text
        everyone = [org.persona, *org.people]
        users = [{"email": p.email, "name": p.name, "team": p.team, "role": p.role} for p in everyone]
        teams = [org.persona.team] + [t for t in TEAMS if t != org.persona.team]
        projects = []
        for team in teams[: self.size.projects]:
            members = [p for p in everyone if p.team == team] or everyone
            lead = next((p for p in members if p.role == TEAMS[team]["lead"]), members[0])
            projects.append(
                {
                    "key": TEAMS[team]["project"],
                    "name": team,
                    "lead": lead.email,
                    "description": f"Work of the {team} team.",
                }
            )
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
            created = org.start - timedelta(days=rng.randrange(1, 90), minutes=rng.randrange(0, 600))
            updated = created + timedelta(days=rng.randrange(0, 5), minutes=rng.randrange(0, 300))
            updated = min(updated, org.start - timedelta(minutes=5))
            summary = text.bs()
            tickets.append(
                {
                    "key": key,
                    "title": summary[:1].upper() + summary[1:],
                    "description": text.paragraph(nb_sentences=2),
                    "type": rng.choice(["task", "task", "bug", "story"]),
                    "status": status,
                    "priority": rng.choice(["low", "medium", "medium", "high"]),
                    "assignee": rng.choice(members).email if status != "todo" or rng.random() < 0.5 else None,
                    "reporter": rng.choice(everyone).email,
                    "created_at": iso(created),
                    "updated_at": iso(updated),
                }
            )
            for _ in range(rng.choice([0, 0, 1, 2])):
                comments.append(
                    {
                        "ticket_key": key,
                        "author": rng.choice(members).email,
                        "body": text.sentence(nb_words=12),
                        "created_at": iso(min(updated, created + timedelta(hours=rng.randrange(1, 48)))),
                    }
                )
        return {"projects": projects, "users": users, "tickets": tickets, "comments": comments}
