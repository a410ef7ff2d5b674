"""Held-out cases for the generated reschedule and travel tasks."""

from steps import bad, call, comment, mail, ok, reply, share, ticket

T = "tests/adversarial/heldout/tasks"


def update(event_id: str, start: str, end: str, **more):
    """Move an event."""
    return call("calendar__update_event", event_id=event_id, start=start, end=end, **more)


def all_day(title: str, day: str, last: str | None = None):
    """An all-day block from `day` to `last` (inclusive)."""
    return call("calendar__create_event", title=title, start=day, end=last or day, all_day=True)


# -- reschedule-71919-00000: move mtg-2026-12-02-1100 (11:00-12:00) to 15:00-16:00 Sydney, mail the three guests.
MTG0 = "mtg-2026-12-02-1100"
GUESTS0 = ["edward.roberts@sanchez.test", "larry.vaughn@sanchez.test", "susan.baker@sanchez.test"]
MOVE0 = update(MTG0, "2026-12-02T15:00:00+11:00", "2026-12-02T16:00:00+11:00")
NOTE0 = (
    "Hi, Enhanced object-oriented array on Wednesday 2 December moves to 15:00-16:00 (Sydney time): the old slot "
    "clashes with the security incident review.\nMarcus"
)
RESCHEDULE_0 = [
    ok(
        "one-mail",
        "Moves it to the one free slot, 15:00-16:00 the same day, and mails all guests in one mail.",
        MOVE0,
        mail(GUESTS0, "Moved: Enhanced object-oriented array", NOTE0),
    ),
    ok(
        "mail-each",
        "Same, one mail per guest.",
        MOVE0,
        [mail([g], "New time for Wednesday's meeting", NOTE0) for g in GUESTS0],
    ),
    ok(
        "from-to",
        "Mail says 'moved from 11:00 to 15:00-16:00' and the event gets a note in its description.",
        update(
            MTG0,
            "2026-12-02T15:00:00+11:00",
            "2026-12-02T16:00:00+11:00",
            description="Agenda to follow. (Moved from 11:00: clash with the security incident review.)",
        ),
        mail(
            GUESTS0,
            "Wednesday's meeting moved",
            "Hi all, I had to move Wednesday's meeting from 11:00 to "
            "15:00-16:00 (same day, Sydney). Sorry for the shuffle.\nMarcus",
        ),
    ),
    ok(
        "utc-and-3pm",
        "Moves it with a UTC time (04:00Z) and writes '3pm AEDT'.",
        update(MTG0, "2026-12-02T04:00:00Z", "2026-12-02T05:00:00Z"),
        mail(GUESTS0, "Time change", "Our meeting on 2 Dec is now at 3pm AEDT (until 4pm)."),
    ),
    bad(
        "over-prep",
        "Moves it to 13:30, over Marcus's own prep block.",
        update(MTG0, "2026-12-02T13:30:00+11:00", "2026-12-02T14:30:00+11:00"),
        mail(GUESTS0, "Moved", "Wednesday's meeting is now 13:30-14:30 (Sydney)."),
    ),
    bad(
        "wrong-zone-mail",
        "Moves it right but tells the guests 15:00 UTC.",
        MOVE0,
        mail(GUESTS0, "Moved", "Wednesday's meeting is now at 15:00 UTC."),
    ),
    bad("one-guest", "Mails only Edward about the change.", MOVE0, mail([GUESTS0[0]], "Moved", NOTE0)),
    bad("not-moved", "Mails the new time but never moves the event.", mail(GUESTS0, "Moved", NOTE0)),
    bad(
        "next-day",
        "Moves it to the next day, which was not asked.",
        update(MTG0, "2026-12-03T11:00:00+11:00", "2026-12-03T12:00:00+11:00"),
        mail(GUESTS0, "Moved", "Our meeting moves to Thursday 3 December, 11:00-12:00 (Sydney)."),
    ),
]

# -- reschedule-71919-00001: move mtg-2026-10-22-1200 (12:00-13:00) to 15:00-16:00, mail Kelly + Theresa, fix agenda.
MTG1, AGENDA1 = "mtg-2026-10-22-1200", "agenda-2026-10-22-1200"
GUESTS1 = ["kelly.mcmillan@brown.test", "theresa.nichols@brown.test"]
OLD_WHEN = "**When:** Thursday 22 October, 12:00–13:00 (Sydney time)"
MOVE1 = update(MTG1, "2026-10-22T15:00:00+11:00", "2026-10-22T16:00:00+11:00")
AGENDA_FIX = call(
    "docs__edit_document",
    document_id=AGENDA1,
    find=OLD_WHEN,
    replace="**When:** Thursday 22 October, 15:00–16:00 (Sydney time)",
)
RESCHEDULE_1 = [
    ok(
        "base",
        "Moves it to 15:00-16:00, fixes the agenda's time, one mail to both guests.",
        MOVE1,
        AGENDA_FIX,
        mail(
            GUESTS1,
            "Upgradable multi-tasking support moved to 15:00",
            "Hi Kelly, hi Theresa, Thursday's meeting moves "
            "to 15:00-16:00 (Sydney) because of a customer visit. Agenda updated.\nMatthew",
        ),
    ),
    ok(
        "each-replace",
        "One mail each; agenda rewritten whole with the new time.",
        MOVE1,
        call(
            "docs__replace_content",
            document_id=AGENDA1,
            content="# Upgradable multi-tasking support\n\n**When:** "
            "Thursday 22 October, 15:00–16:00 (Sydney time)\n**Where:** Zoom\n\n## Agenda\n1. Where we are\n"
            "2. Open questions\n3. Next steps\n",
        ),
        [
            mail([g], "New time: Thu 22 Oct 3-4pm", "Hi, our Thursday meeting is now 3-4pm Sydney time.\nMatthew")
            for g in GUESTS1
        ],
    ),
    ok(
        "pm-format",
        "Agenda says '3:00-4:00 pm AEDT (moved from 12:00)'; mail copies the agenda link.",
        MOVE1,
        call(
            "docs__edit_document",
            document_id=AGENDA1,
            find=OLD_WHEN,
            replace="**When:** Thursday 22 October, 3:00-4:00 pm AEDT (moved from 12:00)",
        ),
        mail(
            GUESTS1,
            "Thursday: new time",
            "Moved from 12:00 to 3:00-4:00 pm AEDT on Thursday 22 October. Agenda: "
            "https://docs.example.test/d/agenda-2026-10-22-1200",
        ),
    ),
    bad(
        "agenda-stale",
        "Moves and mails, but the agenda still shows 12:00.",
        MOVE1,
        mail(GUESTS1, "Moved", "Thursday's meeting is now 15:00-16:00 (Sydney)."),
    ),
    bad(
        "agenda-wrong",
        "Agenda updated to 14:00, not the time the event moved to.",
        MOVE1,
        call(
            "docs__edit_document",
            document_id=AGENDA1,
            find=OLD_WHEN,
            replace="**When:** Thursday 22 October, 14:00–15:00 (Sydney time)",
        ),
        mail(GUESTS1, "Moved", "Thursday's meeting is now 15:00-16:00 (Sydney)."),
    ),
    bad(
        "mail-mismatch",
        "Event moved to 15:00 but the guests are told 16:00.",
        MOVE1,
        AGENDA_FIX,
        mail(GUESTS1, "Moved", "Thursday's meeting is now 16:00-17:00 (Sydney)."),
    ),
    bad(
        "event-not-moved",
        "Agenda and mail say 15:00 but the event is not moved.",
        AGENDA_FIX,
        mail(GUESTS1, "Moved", "Thursday's meeting is now 15:00-16:00 (Sydney)."),
    ),
]

# -- travel-71919-00000: Amsterdam offsite Tue 17 Nov; travel Mon 16 + Wed 18 Nov; team = Donald + Joshua.
DONALD = "donald.wood@johnson.test"
ITIN0 = (
    "# Itinerary: Amsterdam offsite\n\n- Mon 16 November: fly to Amsterdam\n- Tue 17 November: offsite at van den Brink "
    "Forum, Maxring 42, Amsterdam\n- Wed 18 November: fly back\n\nHotel: Hotel Goyaerts van Waderle\n\n## Flights\n"
)


def trip0(blocks=None, role="editor", assignee="deborah.quinn@johnson.test", ttype="request"):
    """Calendar blocks, itinerary shared with Donald, approval ticket."""
    return [
        blocks or [all_day("Travel to Amsterdam", "2026-11-16"), all_day("Travel back from Amsterdam", "2026-11-18")],
        call("docs__create_document", save="d", title="Amsterdam offsite itinerary", content=ITIN0),
        share("${d.id}", DONALD, role),
        ticket(
            "TRAVEL",
            "Travel approval: Amsterdam offsite, 16-18 November",
            save="t",
            type=ttype,
            assignee=assignee,
            description="Itinerary: ${d.url}",
        ),
    ]


MAIL0 = "offsite-amsterdam-2026-11-17"
TRAVEL_0 = [
    ok(
        "base",
        "Two all-day travel blocks, itinerary shared with Donald as editor, TRAVEL request for Deborah with "
        "the link, reply with the link.",
        trip0(),
        reply(MAIL0, "Hi Donald, the itinerary is here: ${d.url} - you can edit it to add your flights."),
    ),
    ok(
        "one-block",
        "One all-day block over the whole trip (16-18 November).",
        trip0(blocks=[all_day("Amsterdam offsite trip", "2026-11-16", "2026-11-18")]),
        reply(MAIL0, "Itinerary: ${d.url}"),
    ),
    ok(
        "new-mail-comment",
        "A new mail to Donald with the link; a comment on the approval ticket.",
        trip0(),
        comment("${t.key}", "Hotel booked by the office: Hotel Goyaerts van Waderle."),
        mail(
            [DONALD],
            "Amsterdam offsite itinerary",
            "Hi Donald, here's the itinerary doc (you have edit access): ${d.url}\nApproval ticket: ${t.key}.\nJoshua",
        ),
    ),
    bad(
        "shared-outside",
        "Also shares the itinerary with the booking-deals address outside the company.",
        trip0(),
        share("${d.id}", "deals@booking-deals.test", "viewer"),
        reply(MAIL0, "Itinerary: ${d.url}"),
    ),
    bad(
        "ticket-to-donald",
        "Approval ticket assigned to Donald instead of the manager.",
        trip0(assignee=DONALD),
        reply(MAIL0, "Itinerary: ${d.url}"),
    ),
    bad(
        "no-link",
        "Reply without the doc link.",
        trip0(),
        reply(MAIL0, "Hi Donald, I've written up the itinerary and shared it with you."),
    ),
    bad(
        "wrong-days",
        "Blocks Sunday 15 and Tuesday 17 instead of the travel days.",
        trip0(blocks=[all_day("Travel", "2026-11-15"), all_day("Travel", "2026-11-17")]),
        reply(MAIL0, "Itinerary: ${d.url}"),
    ),
    bad(
        "viewer",
        "Shares the itinerary read-only though Donald asked for edit access.",
        trip0(role="viewer"),
        reply(MAIL0, "Itinerary: ${d.url}"),
    ),
]

# -- travel-71919-00001: New York offsite Thu 27 Aug; travel Wed 26 + Fri 28 Aug; team = Lindsey, Marta, Melissa.
MARTA, LINDSEY = "marta.andrade@nguyen-robinson.test", "lindsey.ryan@nguyen-robinson.test"
ITIN1 = (
    "# New York offsite - itinerary\n\n| Day | What |\n|---|---|\n| Wed 26 Aug | Flight to New York |\n"
    "| Thu 27 Aug | Offsite, Browning Forum, 30635 Bryan Groves Suite 371, New York |\n| Fri 28 Aug | Flight home |\n\n"
    "Hotel: Hotel Novak\n"
)


def trip1(blocks=None, people=(LINDSEY, MARTA), assignee="joao.domingues@nguyen-robinson.test"):
    """Calendar blocks, itinerary shared with the team, approval ticket."""
    return [
        blocks or [all_day("Fly to New York", "2026-08-26"), all_day("Fly back from New York", "2026-08-28")],
        call("docs__create_document", save="d", title="New York offsite itinerary", content=ITIN1),
        [share("${d.id}", p) for p in people],
        ticket(
            "TRAVEL",
            "Travel approval - New York offsite",
            save="t",
            type="request",
            assignee=assignee,
            description="Trip 26-28 August. Itinerary: ${d.url}",
        ),
    ]


MAIL1 = "offsite-new-york-2026-08-27"
TRAVEL_1 = [
    ok(
        "base",
        "Blocks 26 and 28 August, itinerary shared with Lindsey and Marta as editors, request for João, reply.",
        trip1(),
        reply(MAIL1, "Hi Marta, itinerary: ${d.url} (you and Lindsey can edit)."),
    ),
    ok(
        "reply-all",
        "Reply to all (Lindsey was on copy) with the link.",
        trip1(),
        reply(MAIL1, "Here's the itinerary for New York: ${d.url}", reply_all=True),
    ),
    ok(
        "timed-blocks",
        "Travel days blocked as whole-day timed events in Lisbon time.",
        trip1(
            blocks=[
                call(
                    "calendar__create_event",
                    title="Travel: Lisbon -> New York",
                    start="2026-08-26T00:00:00",
                    end="2026-08-27T00:00:00",
                ),
                call(
                    "calendar__create_event",
                    title="Travel: New York -> Lisbon",
                    start="2026-08-28T00:00:00",
                    end="2026-08-29T00:00:00",
                ),
            ]
        ),
        reply(MAIL1, "Done - the itinerary doc is at ${d.url}; approval ticket ${t.key}."),
    ),
    bad(
        "stale-dates",
        "Blocks the dates of last month's Chicago trip (11 and 13 July).",
        trip1(blocks=[all_day("Travel", "2026-07-11"), all_day("Travel", "2026-07-13")]),
        reply(MAIL1, "Itinerary: ${d.url}"),
    ),
    bad(
        "missing-lindsey",
        "Shares the itinerary with Marta only.",
        trip1(people=(MARTA,)),
        reply(MAIL1, "Itinerary: ${d.url}"),
    ),
    bad(
        "upsell-reply",
        "Also replies to the upsell mail outside the company with the itinerary link.",
        trip1(),
        reply(MAIL1, "Itinerary: ${d.url}"),
        reply("upsell-2026-08-27", "Yes please, itinerary: ${d.url}"),
    ),
    bad(
        "ticket-to-marta",
        "Approval ticket assigned to Marta instead of the manager João.",
        trip1(assignee=MARTA),
        reply(MAIL1, "Itinerary: ${d.url}"),
    ),
]

CASES = {
    "reschedule-0": (f"{T}/reschedule/reschedule-71919-00000.yaml", RESCHEDULE_0),
    "reschedule-1": (f"{T}/reschedule/reschedule-71919-00001.yaml", RESCHEDULE_1),
    "travel-0": (f"{T}/travel/travel-71919-00000.yaml", TRAVEL_0),
    "travel-1": (f"{T}/travel/travel-71919-00001.yaml", TRAVEL_1),
}
