"""travel: plan a trip to an offsite (the kind of task `scenarios/travel.yaml` is, generalized).

A colleague mails about an offsite in another city: the days, the venue, the hotel, who goes. The persona flies in
the day before and back the day after. Steps: 2 = block both travel days and reply confirming them; 3 = also write
an itinerary doc the team can edit and reply with its link; 4 = also file the approval ticket the travel policy doc
asks for (project, type, the manager as assignee, the doc linked). Distractors: an outside hotel upsell and an
older mail about another trip with other dates.
Judged by role: the two events the agent added (one within each travel day,
or all that day), the doc it added (hotel, venue and both travel days, parsed;
each teammate an editor), the ticket it added, the reply it sent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.families._travel_text import HELD, PLAN, STAY, STEPS
from orchestrator.generate.family import Draft, Family, fake, human_day, join, phrase, register
from orchestrator.generate.organization import OFFICES

INSTRUCTIONS = {
    2: [
        "{organizer} emailed me about the {city} offsite. Block my travel days on my calendar and reply to "
        "{organizer} confirming which days I travel.",
        "Please handle {organizer}'s mail about the offsite in {city}: put my two travel days in my calendar and "
        "let {organizer} know the days I'll be travelling.",
    ],
    3: [
        "{organizer} emailed me about the {city} offsite. Block the travel days on my calendar, write the itinerary "
        "into a doc the team can edit, and reply to {organizer} with the doc link.",
        "Sort out my {city} offsite trip from {organizer}'s mail: travel days blocked in my calendar, an itinerary "
        "doc that everyone going can edit, and a reply to {organizer} with its link.",
    ],
    4: [
        "{organizer} emailed me about the {city} offsite. Block the travel days on my calendar, write the itinerary "
        "into a doc shared with the team, file a travel-approval ticket, and reply to {organizer} with the doc link.",
        "Please plan my trip to the {city} offsite ({organizer}'s mail): travel days in my calendar, an itinerary "
        "doc the team can edit, the approval ticket our travel policy wants, and a reply to {organizer} with the "
        "link.",
    ],
}


@register
class Travel(Family):
    """The task family of travel to an offsite: flights and hotel booked by policy, calendar, tickets and mail."""

    name = "travel"
    title = "Plan travel to an offsite"
    apps = ("mail", "calendar", "docs", "tickets")
    knobs = {"steps": (2, 3, 4), "distractors": (0, 1, 2)}
    split_params = ("city", "days", "team_size", "steps", "phrasing", "distractors")

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        steps = knobs.get("steps", 3)
        if steps == 4 and not org.persona.manager:
            return None
        office = rng.choice([o for o in OFFICES if o.city != org.persona.city])
        local = fake(rng, office.locale)
        venue = f"{local.last_name()} Forum"
        street = local.street_address().replace("\n", ", ")
        hotel = f"Hotel {local.last_name()}"
        team = rng.sample([p for p in org.people if p.email != org.persona.manager], rng.randint(1, 3))
        organizer = team[0]
        first = rng.randint(8, 10)  # next week, Tuesday to Thursday
        days = rng.choice([1, 2]) if first < 10 else 1
        if org.edition >= 2:  # any weekday may be today: still next week's Tuesday to Thursday
            first -= org.start.weekday()
        params = {
            "city": office.city,
            "venue": venue,
            "street": street,
            "hotel": hotel,
            "organizer": organizer.email,
            "team": sorted(p.email for p in team),
            "team_size": len(team),
            "first": first,
            "days": days,
            "steps": steps,
            "distractors": knobs.get("distractors", 0),
            "phrasing": rng.randrange(len(INSTRUCTIONS[steps])),
            "other_city": rng.choice(OFFICES).city,
        }
        return params if org.edition < 2 else phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        trip = Trip.of(org, params)
        _seed_mail(trip)
        if trip.steps == 4 and trip.manager is not None:
            _seed_policy(trip)
        draft = _draft(trip)
        allow: dict[str, Any] = {"calendar": {"events": {"added": True}}, "mail": {"messages": {"added": True}}}
        oracle = _travel_days(draft, trip)
        if trip.steps >= 3:
            oracle += _itinerary(draft, trip, allow)
        if trip.steps == 4 and trip.manager is not None:
            oracle += _approval(draft, trip, trip.manager, allow)
        oracle.append(_reply(draft, trip))
        draft.allow = allow
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 60, "timeout_s": 600}
        return broaden(draft, params)


@dataclass
class Trip:
    """One drawn trip: who organizes and goes, the offsite's days, and the days out and back."""

    org: Organization
    params: dict[str, Any]
    organizer: Person
    team: list[Person]
    manager: Person | None
    steps: int
    first: date
    last: date
    out: date
    back: date
    venue: str
    hotel: str
    city: str
    offsite: str

    @classmethod
    def of(cls, org: Organization, params: dict[str, Any]) -> Trip:
        me = org.persona
        first, last = org.day(params["first"]), org.day(params["first"] + params["days"] - 1)
        return cls(
            org,
            params,
            org.person(params["organizer"]),
            [org.person(e) for e in params["team"]],
            org.person(me.manager) if me.manager else None,
            params["steps"],
            first,
            last,
            first - timedelta(days=1),
            last + timedelta(days=1),
            params["venue"],
            params["hotel"],
            params["city"],
            human_day(first) if first == last else f"{human_day(first)} and {human_day(last)}",
        )


def _seed_mail(trip: Trip) -> None:
    """The organizer's mail about the offsite, and the distractors: an outside upsell, an older trip's mail."""
    org, params, me, organizer = trip.org, trip.params, trip.org.persona, trip.organizer
    first, out, back, city = trip.first, trip.out, trip.back, trip.city
    invite_id = f"offsite-{city.lower().replace(' ', '-')}-{first.isoformat()}"
    org.apps["mail"]["messages"].append(
        {
            "id": invite_id,
            "from": organizer.address_line,
            "to": [me.email],
            "cc": [p.email for p in trip.team if p is not organizer],
            "subject": f"{city} offsite - travel",
            "sent_at": iso(org.start - timedelta(minutes=50)),
            "body": f"Hi {me.first_name},\n\nthe {city} offsite is on {trip.offsite} at {trip.venue} ({street_line(params)}). "
            f"Please fly in the day before, {human_day(out)}, and back on {human_day(back)}. The office booked "
            f"everyone into {trip.hotel}.\n\n"
            + (
                f"Could you put together the itinerary for the team ({join([p.first_name for p in trip.team] + ['you'])}) "
                "and give all of us edit access so we can add our flights?"
                + (" Travel approval works as the travel policy doc says." if _policy_seeded(trip) else "")
                + "\n\n"
                if trip.steps >= 3
                else "Let me know your travel days.\n\n"
            )
            + f"Thanks!\n{organizer.first_name}",
        }
    )
    if params["distractors"] >= 1:
        org.apps["mail"]["messages"].append(
            {
                "id": f"upsell-{first.isoformat()}",
                "from": "Booking Deals <deals@booking-deals.test>",
                "to": [me.email],
                "subject": f"Upgrade your {city} stay today!",
                "sent_at": iso(org.start - timedelta(minutes=80)),
                "body": f"Exclusive offer for your {city} trip. Reply to this mail to upgrade to a suite.",
            }
        )
    if params["distractors"] >= 2:
        old = org.start - timedelta(days=40)
        org.apps["mail"]["messages"].append(
            {
                "id": f"old-trip-{first.isoformat()}",
                "from": organizer.address_line,
                "to": [me.email],
                "is_read": True,
                "subject": f"{params['other_city']} workshop - travel",
                "sent_at": iso(old),
                "body": f"Hi {me.first_name},\n\nfor the {params['other_city']} workshop please travel on "
                f"{human_day(old.date() + timedelta(days=3))} and back on {human_day(old.date() + timedelta(days=5))}.\n\n"
                f"{organizer.first_name}",
            }
        )


def _seed_policy(trip: Trip) -> None:
    """The TRAVEL project and the travel policy doc that says how to file an approval."""
    org, me, manager = trip.org, trip.org.persona, trip.manager
    assert manager is not None
    tickets = org.apps["tickets"]
    if not any(p["key"] == "TRAVEL" for p in tickets["projects"]):
        tickets["projects"].append({"key": "TRAVEL", "name": "Travel approvals", "lead": manager.email})
    org.apps["docs"]["documents"].append(
        {
            "id": "travel-policy",
            "title": "Travel policy",
            "owner": manager.email,
            "shared_with": [{"email": me.email, "role": "viewer"}],
            "updated_at": iso(org.start - timedelta(days=60)),
            "content": "# Travel policy\n\nEvery trip needs an approval ticket before booking:\n\n"
            "- project TRAVEL, type **request**\n"
            f"- assigned to your manager ({me.first_name} reports to {manager.name}: {manager.email})\n"
            "- the description links the trip's itinerary document\n\n" + _inside(org),
        }
    )


def _policy_seeded(trip: Trip) -> bool:
    """Whether the organizer's mail may cite the travel policy doc (edition 3: only when it is seeded)."""
    return trip.org.edition < 3 or (trip.steps == 4 and trip.manager is not None)


def _inside(org: Organization) -> str:
    """The policy's last line (edition 3: every domain of the organization; editions 1 and 2: the first only)."""
    where = org.domain if org.edition < 3 else join(org.domains)
    return f"Keep itineraries inside {org.name}: never share them outside {where}.\n"


def _draft(trip: Trip) -> Draft:
    steps, city, out, back = trip.steps, trip.city, trip.out, trip.back
    if trip.org.edition >= 2:
        instruction = _word(trip.org, trip.params).text
    else:
        instruction = phrase(
            INSTRUCTIONS[steps], trip.params["phrasing"], organizer=trip.organizer.first_name, city=city
        )
    return Draft(
        trip.org,
        title=f"Plan the trip to the {city} offsite",
        instruction=instruction,
        description=f"Travel out on {human_day(out)} and back on {human_day(back)}; "
        + {
            2: "block both days and confirm them to the organizer.",
            3: "block both days, write an itinerary the team can edit, reply with its link.",
            4: "block both days, write a shared itinerary, file the approval ticket, reply with the link.",
        }[steps],
        tags=["generated", "travel", "mail", "calendar"]
        + (["docs"] if steps >= 3 else [])
        + (["tickets"] if steps == 4 else []),
    )


def _on(day: date, org: Organization, trip: tuple[date, date]) -> dict[str, Any]:
    """An event on `day`: within it, a night flight (leaving that evening or in the small hours, landing the next day),
    an afternoon flight landing after midnight (whatever zone its times are written in), all that day, or an all-day
    block over the trip that covers it (starting at most a day before it, ending at most a day after it)."""
    after = day + timedelta(days=1)
    first, last = trip[0] - timedelta(days=1), trip[1] + timedelta(days=2)
    return {
        "status": "confirmed",
        "any": [
            {
                "all_day": True,
                "start": {"gte": first.isoformat(), "lte": day.isoformat()},
                "end": {"gte": day.isoformat(), "lte": last.isoformat()},
            },
            {"start": {"same_date": day.isoformat()}, "end": {"same_date": day.isoformat()}},
            {
                "start": {"gte": iso(org.at(day, "00:00"))},
                "end": {
                    "within": {  # "00:00 to 24:00"
                        "start": iso(org.at(day, "00:00")),
                        "end": iso(org.at(after, "00:00")),
                    }
                },
            },
            {
                "start": {"within": {"start": iso(org.at(day, "18:00")), "end": iso(org.at(after, "06:00"))}},
                "end": {"within": {"start": iso(org.at(after, "00:00")), "end": iso(org.at(after, "18:00"))}},
            },  # a night flight
            {
                "start": {"within": {"start": iso(org.at(day, "12:00")), "end": iso(org.at(day, "18:00"))}},
                "end": {"within": {"start": iso(org.at(after, "00:00")), "end": iso(org.at(after, "06:00"))}},
            },  # lands after midnight
            {"all_day": True, "start": day.isoformat(), "end": {"one_of": [day.isoformat(), after.isoformat()]}},
        ],
    }


def _travel_days(draft: Draft, trip: Trip) -> list[dict[str, Any]]:
    """The stage of the two travel events; the oracle up to creating them (reading the mail, and the policy)."""
    org, organizer, city, out, back = trip.org, trip.organizer, trip.city, trip.out, trip.back
    draft.stage(
        "travel days blocked",
        [
            {
                "name": f"the way out, {human_day(out)}, is blocked (an event that day, or one block over the trip)",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": _on(out, org, (out, back)),
            },
            {
                "name": f"the way back, {human_day(back)}, is blocked",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": _on(back, org, (out, back)),
            },
        ],
    )
    oracle: list[dict[str, Any]] = [
        {
            "tool": "mail__search_messages",
            "args": {"query": f"from:{organizer.email} subject:{city.split()[0].lower()}"},
            "save": "found",
        },
        {"tool": "mail__get_message", "args": {"message_id": "${found.messages.0.id}"}, "save": "invite"},
    ]
    if trip.steps == 4:
        oracle += [
            {"tool": "docs__search_documents", "args": {"query": "travel policy"}, "save": "policies"},
            {"tool": "docs__get_document", "args": {"document_id": "${policies.documents.0.id}"}},
        ]
    oracle += [
        {
            "tool": "calendar__create_event",
            "args": {
                "title": f"Travel to {city}",
                "start": iso(org.at(out, "14:00")),
                "end": iso(org.at(out, "18:00")),
                "description": f"Flight to {city}.",
            },
            "unchecked": ["title", "description"],
        },
        {
            "tool": "calendar__create_event",
            "args": {
                "title": f"Travel back from {city}",
                "start": iso(org.at(back, "10:00")),
                "end": iso(org.at(back, "14:00")),
                "description": "Flight home.",
            },
            "unchecked": ["title", "description"],
        },
    ]
    return oracle


def _itinerary(draft: Draft, trip: Trip, allow: dict[str, Any]) -> list[dict[str, Any]]:
    """The stage of the itinerary doc the team can edit; the oracle's steps writing and sharing it."""
    out, back, hotel, venue, city = trip.out, trip.back, trip.hotel, trip.venue, trip.city
    others = [p for p in trip.team]
    draft.stage(
        "itinerary shared with the team",
        [
            {
                "name": "one new doc naming the venue and the hotel",
                "app": "docs",
                "table": "documents",
                "added": True,
                "expect": {"count": 1, "all": {"content": {"says": {"phrase": [hotel, venue], "all": True}}}},
            },
            {
                "name": f"it gives the travel days, out {human_day(out)} and back {human_day(back)}",
                "app": "docs",
                "table": "documents",
                "added": True,
                "where": {"content": {"mentions_date": {"date": out.isoformat(), "claimed": True}}},
                "expect": {
                    "count": 1,
                    "all": {"content": {"mentions_date": {"date": back.isoformat(), "claimed": True}}},
                },
            },
        ]
        + [
            {
                "name": f"{p.name} can edit it",
                "app": "docs",
                "table": "documents",
                "added": True,
                "where": {"shared_with": {"has": {"email": p.email, "role": "editor"}}},
            }
            for p in others
        ],
    )
    if trip.org.edition >= 3:
        draft.stages[-1]["checks"].insert(2, _places_kept_apart(trip))
    allow["docs"] = {"documents": {"added": True}}
    oracle: list[dict[str, Any]] = [
        {
            "tool": "docs__create_document",
            "save": "doc",
            "unchecked": ["title"],
            "args": {
                "title": f"{city} offsite itinerary",
                "content": f"# {city} offsite itinerary\n\n- {human_day(out)}: travel to {city}, check in at {hotel}\n"
                f"- {trip.offsite}: offsite at {venue}, {street_line(trip.params)}\n- {human_day(back)}: travel home\n\n"
                "Add your flights below.\n",
            },
        }
    ]
    oracle += [
        {"tool": "docs__share_document", "args": {"document_id": "${doc.id}", "email": p.email, "role": "editor"}}
        for p in others
    ]
    return oracle


def _approval(draft: Draft, trip: Trip, manager: Person, allow: dict[str, Any]) -> list[dict[str, Any]]:
    """The stage of the approval ticket the policy asks for; the oracle's step filing it."""
    doc_url = {"from": {"app": "docs", "table": "documents", "added": True, "field": "url"}}
    draft.stage(
        "approval filed",
        [
            {
                "name": f"one new ticket, a TRAVEL request for {manager.name} that links the new doc",
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "expect": {
                    "count": 1,
                    "all": {
                        "project": "TRAVEL",
                        "type": "request",
                        "status": {"not_one_of": ["done", "cancelled"]},
                        "assignee": manager.email,
                        "description": {"contains": doc_url},
                    },
                },
            },
        ],
        weight=1.5,
    )
    allow["tickets"] = {"tickets": {"added": True}}
    return [
        {
            "tool": "tickets__create_ticket",
            "unchecked": ["title"],
            "args": {
                "project": "TRAVEL",
                "title": f"Travel approval - {trip.city} offsite",
                "type": "request",
                "assignee": manager.email,
                "description": f"Trip to {trip.city}, {trip.out.isoformat()} to {trip.back.isoformat()}. Itinerary: ${{doc.url}}",
            },
        }
    ]


def _reply(draft: Draft, trip: Trip) -> dict[str, Any]:
    """The stage of the reply to the organizer; the oracle's step sending it."""
    organizer, steps, out, back = trip.organizer, trip.steps, trip.out, trip.back
    doc_url = {"from": {"app": "docs", "table": "documents", "added": True, "field": "url"}}
    if steps >= 3:
        facts: list[dict[str, Any]] = [{"links": doc_url}]
        body = f"Hi {organizer.first_name}, the itinerary is here and you can all edit it: ${{doc.url}}. My travel days are blocked."
    elif trip.org.edition >= 3:  # each day in its role: a reply that swaps them, or gives the offsite's, fails
        facts = [
            {"mentions_date": {"date": out.isoformat(), "role": "travel-out"}},
            {"mentions_date": {"date": back.isoformat(), "role": "travel-back"}},
        ]
        body = f"Hi {organizer.first_name}, I fly in on {human_day(out)} and back on {human_day(back)}; both days are blocked."
    else:
        facts = [{"mentions_date": out.isoformat()}, {"mentions_date": back.isoformat()}]
        body = f"Hi {organizer.first_name}, I fly in on {human_day(out)} and back on {human_day(back)}; both days are blocked."
    what = "the new doc's link" if steps >= 3 else "the days out and back"
    checks = [
        {"name": f"{organizer.name} is told {what}, by any mail", "told": {"who": [organizer.email], "facts": facts}}
    ]
    draft.stage("replied to the organizer", checks)
    return {"tool": "mail__reply", "args": {"message_id": "${invite.id}", "body": body}}


def _places_kept_apart(trip: Trip) -> dict[str, Any]:
    """Edition 3: the itinerary does not give the venue as where the team stays, nor the hotel as where the offsite
    is held (a doc naming both, swapped, is a wrong itinerary)."""
    swapped = [f"{cue} {trip.venue}" for cue in STAY] + [f"{cue} {trip.hotel}" for cue in HELD]
    return {
        "name": f"it does not swap the hotel ({trip.hotel}) and the venue ({trip.venue})",
        "app": "docs",
        "table": "documents",
        "added": True,
        "expect": {"count": 1, "all": {"content": {"not": {"says": {"phrase": swapped, "claimed": False}}}}},
    }


def street_line(params: dict[str, Any]) -> str:
    """The venue's address as one line: street and city."""
    return f"{params['street']}, {params['city']}"


PHRASEBOOKS = {"plan": PLAN}
"""Edition 2's phrasebooks by intent (one: the steps are listed in `{todo}`, each in held-out words)."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    steps, organizer = params["steps"], org.person(params["organizer"]).first_name
    kinds = ["block"] + (["doc"] if steps >= 3 else []) + (["ticket"] if steps == 4 else [])
    kinds.append("reply-link" if steps >= 3 else "reply-days")
    todo, ids = [], []
    for kind in kinds:
        text, part = phrasing.pick(org, params["wording"], "travel", "plan", kind, STEPS[kind])
        todo.append(text.format(organizer=organizer))
        ids.append(part)
    values = {"organizer": organizer, "city": params["city"], "todo": join(todo)}
    made = phrasing.word(org, params["wording"], "travel", "plan", PLAN, values)
    return phrasing.Composition(made.text, made.template, made.parts + tuple(ids))
