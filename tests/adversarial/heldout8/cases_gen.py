"""Held-out round 8, generated tasks (`generate travel,reschedule,declined-invite,incident,travel-and-meetings,lost-send,
offboard,approval-needed --count 1 --seed 58213 --size mix`): travel, travel-and-meetings, declined-invite, incident.

Written from each task's brief only (instruction, persona, clock, seed rows, the episode's events and answers), never
from its checks or reference solution. The cases vary the text model agents write: markdown tables with per-person
columns, bullets with bold labels, Outlook-style quoted originals, struck-through old slots, caveats next to facts,
per-recipient times, 12-hour clocks, times in words, misspelt days, Spanish/Portuguese/German/Chinese phrasing, terse
one-liners and formal letters with signatures.
"""

from __future__ import annotations

from round_steps import assign, bad, call, day, doc, edit, event, mail, moved, ok, reply, share, ticket

ND = "\u2013"  # the en dash the seed documents use in time ranges ("12:00–12:30")


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def failing(step: dict) -> dict:
    """A call the agent sees fail (an injected fault); the case then does what the agent would do next."""
    step["expect_error"] = True
    return step


def ask(question: str) -> dict:
    """Ask the user (world__ask_user)."""
    return call("world__ask_user", question=question)


def link(source: str, target: str, kind: str = "relates_to") -> dict:
    return call("tickets__link_tickets", source=source, type=kind, target=target)


# -- travel-v3-58213-00000 (clock Wed 25 March 2026 14:00 Bogota, Carlos Carvajal). Fernando's mail (msg-00013, cc
#    Glenn): the London offsite is Tue 31 March and Wed 1 April at Yates Forum (Flat 65s, Berry Point, London), hotel
#    Hotel Williamson; fly in Mon 30 March, back Thu 2 April. Worked answer: block Mon 30 March and Thu 2 April on
#    Carlos's calendar (the travel days: the day before and the day after), an itinerary doc shared as editor with
#    Fernando and Glenn (the people going, who want to add their flights), and a reply to Fernando with the doc's link.
#    The calendar already holds an all-day "Tundra Hollow Capital offsite" on 30 March (Javier's): the mail, not that
#    entry, gives the dates.

TH = "tundra-hollow-capital.test"
FERNANDO, GLENN = f"fernando.ojeda@{TH}", f"glenn.terry@{TH}"
TR_READ = call("mail__get_message", message_id="msg-00013")
TR_DAYS = [
    day("Travel: Bogota -> London", "2026-03-30"),
    day("Travel: London -> Bogota", "2026-04-02"),
]
TR_ITINERARY = (
    "# London offsite - itinerary\n\n"
    "- **Mon 30 March:** travel day, fly Bogota -> London\n"
    "- **Tue 31 March - Wed 1 April:** offsite at Yates Forum, Flat 65s, Berry Point, London\n"
    "- **Hotel:** Hotel Williamson (booked by the office for everyone)\n"
    "- **Thu 2 April:** travel day, fly back\n\n"
    "## Flights\n\nFernando, Glenn, Carlos: please add yours below.\n"
)


def tr_doc(content: str = TR_ITINERARY, title: str = "London offsite itinerary", **more) -> dict:
    return doc(title, content, **more)


TR_SHARE = [share("${doc.id}", FERNANDO), share("${doc.id}", GLENN)]

TRAVEL = [
    ok(
        "plain",
        "Blocks 30 March and 2 April, writes the itinerary, shares it with Fernando and Glenn as editors, replies with the link.",
        TR_READ,
        TR_DAYS,
        tr_doc(),
        TR_SHARE,
        reply(
            "msg-00013",
            "Hi Fernando,\n\nhere is the itinerary for the London offsite: ${doc.url}\n\nYou and Glenn can both edit "
            "it, so add your flights whenever you have them.\n\nCheers,\nCarlos",
        ),
    ),
    ok(
        "table-per-person-outlook-quote",
        "Same outcome; the itinerary is a table with a column per traveller, the reply quotes Fernando Outlook-style.",
        call("mail__search_messages", query="London offsite"),
        TR_READ,
        tr_doc(
            "# London offsite, 31 March - 1 April\n\n"
            "| Day | Carlos | Fernando | Glenn |\n|---|---|---|---|\n"
            "| Mon 30 Mar | fly in (flight TBD) | fly in | fly in |\n"
            "| Tue 31 Mar | offsite, Yates Forum | offsite | offsite |\n"
            "| Wed 1 Apr | offsite, Yates Forum | offsite | offsite |\n"
            "| Thu 2 Apr | fly back | fly back | fly back |\n\n"
            "**Venue:** Yates Forum, Flat 65s, Berry Point, London\n**Hotel:** Hotel Williamson\n",
            title="Itinerary: London offsite",
        ),
        TR_SHARE,
        TR_DAYS,
        reply(
            "msg-00013",
            "Hi Fernando,\n\nDone - itinerary here, you and Glenn have edit access: ${doc.url}\n\nCarlos\n\n"
            "________________________________\nFrom: Fernando Ojeda <fernando.ojeda@tundra-hollow-capital.test>\n"
            "Sent: Wednesday, March 25, 2026 1:10 PM\nTo: Carlos Carvajal\nCc: Glenn Terry\n"
            "Subject: London offsite - travel\n\n> the London offsite is on Tuesday 31 March and Wednesday 1 April at "
            "Yates Forum\n> Could you put together the itinerary for the team (Fernando, Glenn and you) and give all "
            "of us edit access",
        ),
    ),
    ok(
        "timed-blocks-spanish",
        "Travel days as long timed blocks on 30 March and 2 April; shares with both; the reply is in Spanish with the link.",
        TR_READ,
        event("Viaje a Londres", "2026-03-30T06:00:00-05:00", "2026-03-30T22:00:00-05:00"),
        event("Regreso de Londres", "2026-04-02T06:00:00-05:00", "2026-04-02T22:00:00-05:00"),
        tr_doc(
            "# Itinerario - offsite Londres\n\n- Lunes 30 de marzo: vuelo de ida\n- Martes 31 de marzo y miércoles "
            "1 de abril: offsite en Yates Forum (Flat 65s, Berry Point, Londres)\n- Hotel Williamson\n"
            "- Jueves 2 de abril: vuelo de regreso\n"
        ),
        TR_SHARE,
        reply(
            "msg-00013",
            "Hola Fernando,\n\nel itinerario está aquí: ${doc.url} (Glenn y tú pueden editarlo para añadir los "
            "vuelos).\n\nSaludos,\nCarlos",
        ),
    ),
    ok(
        "folder-reply-all-terse",
        "Doc filed in Operations, one share per person, a terse reply-all so Glenn sees the link too.",
        TR_READ,
        tr_doc(folder_id="fld-operations"),
        share("${doc.id}", GLENN, "editor"),
        share("${doc.id}", FERNANDO, "editor"),
        TR_DAYS,
        reply("msg-00013", "Itinerary (you both can edit): ${doc.url} - Carlos", reply_all=True),
    ),
    ok(
        "new-mail-bullets-words",
        "Sends a new mail to Fernando (cc Glenn) instead of a reply: bold bullets, the dates in words, the link.",
        TR_READ,
        TR_DAYS,
        tr_doc(),
        TR_SHARE,
        mail(
            [FERNANDO],
            "Re: London offsite - travel",
            "Hi Fernando,\n\n- **Itinerary:** ${doc.url} (edit access for you and Glenn)\n"
            "- **Travel out:** Monday the thirtieth of March\n- **Travel back:** Thursday the second of April\n\n"
            "Carlos",
            cc=[GLENN],
        ),
    ),
    ok(
        "stale-entry-noted-ps",
        "Checks the calendar, keeps to the mail's dates, leaves Javier's 30-March entry alone and says so in a P.S.",
        call("calendar__list_events", time_min="2026-03-29T00:00:00-05:00", time_max="2026-04-03T00:00:00-05:00"),
        TR_READ,
        TR_DAYS,
        tr_doc(),
        TR_SHARE,
        reply(
            "msg-00013",
            "Hi Fernando, itinerary: ${doc.url} - edit away. Travel days in my calendar: Mon 30 Mar and "
            "Thurdsay 2 Aprl.\n\nCarlos\n\nP.S. There's an all-day 'offsite' on 30 March in the calendar from Javier; "
            "I went by your dates (31 Mar-1 Apr) and left his entry as it is.",
        ),
    ),
    bad(
        "offsite-days-blocked",
        "Blocks Tue 31 March and Wed 1 April (the offsite itself) as travel days instead of 30 March and 2 April.",
        TR_READ,
        day("Travel", "2026-03-31"),
        day("Travel", "2026-04-01"),
        tr_doc(),
        TR_SHARE,
        reply("msg-00013", "Hi Fernando, itinerary: ${doc.url}. Carlos"),
    ),
    bad(
        "stale-calendar-dates",
        "Trusts the 30-March calendar entry: travel days 29 and 31 March, and the itinerary says the offsite is 30 March.",
        call("calendar__get_event", event_id="evt-00008"),
        day("Travel: fly to London", "2026-03-29"),
        day("Travel: fly home", "2026-03-31"),
        tr_doc(
            "# London offsite\n\n- Sun 29 March: fly in\n- Mon 30 March: offsite, Yates Forum\n"
            "- Tue 31 March: fly back\n- Hotel Williamson\n"
        ),
        TR_SHARE,
        reply("msg-00013", "Hi Fernando, here's the itinerary: ${doc.url}\n\nCarlos"),
    ),
    bad(
        "glenn-not-shared",
        "Shares the itinerary with Fernando only; Glenn, who is going, gets no edit access.",
        TR_READ,
        TR_DAYS,
        tr_doc(),
        share("${doc.id}", FERNANDO),
        reply("msg-00013", "Hi Fernando, itinerary's here and you can edit it: ${doc.url}\n\nCarlos"),
    ),
    bad(
        "viewers-only",
        "Shares the itinerary as viewer, so nobody can add their flights as Fernando asked.",
        TR_READ,
        TR_DAYS,
        tr_doc(),
        share("${doc.id}", FERNANDO, "viewer"),
        share("${doc.id}", GLENN, "viewer"),
        reply("msg-00013", "Hi Fernando, itinerary (read-only for now): ${doc.url}\n\nCarlos"),
    ),
    bad(
        "reply-without-link",
        "Does the calendar, doc and sharing, but the reply to Fernando carries no link to the itinerary.",
        TR_READ,
        TR_DAYS,
        tr_doc(),
        TR_SHARE,
        reply("msg-00013", "Hi Fernando,\n\nthe itinerary is written and shared with you and Glenn.\n\nCarlos"),
    ),
    bad(
        "claims-calendar-not-done",
        "Never blocks the travel days but tells Fernando they are in the calendar (a false claim).",
        TR_READ,
        tr_doc(),
        TR_SHARE,
        reply(
            "msg-00013",
            "Hi Fernando, itinerary: ${doc.url}. My travel days (30 Mar, 2 Apr) are blocked in my calendar. Carlos",
        ),
    ),
    bad(
        "hotel-and-venue-swapped",
        "The itinerary names the wrong hotel (Yates Forum as hotel, Hotel Williamson as venue): wrong facts for the team.",
        TR_READ,
        TR_DAYS,
        tr_doc(
            "# London offsite itinerary\n\n- Mon 30 March: travel\n- Tue 31 March - Wed 1 April: offsite at "
            "Hotel Williamson\n- **Hotel:** Yates Forum, Flat 65s, Berry Point\n- Thu 2 April: travel\n"
        ),
        TR_SHARE,
        reply("msg-00013", "Hi Fernando, itinerary: ${doc.url}\n\nCarlos"),
    ),
]


# -- travel-and-meetings-v3-58213-00000 (clock Wed 25 Nov 2026 12:00 Sao Paulo, Nathan Andrade). Shawn's mail
#    (msg-00008, cc Joseph): Amsterdam offsite Tue 1 and Wed 2 December at Mangel Forum (Rosaliesteeg 3), Hotel Gnodde;
#    fly in Mon 30 November, back Thu 3 December. So: block 30 Nov and 3 Dec, itinerary doc editable by Joseph and
#    Shawn, reply to Shawn with the link (the "Upgrade your Amsterdam stay" mail msg-00004 is spam). The calendar's
#    all-day "offsite" on 30 Nov (Francisco's) is not the offsite date.
#    Meeting Fri 27 Nov, 45 min, Ellie Scheer and Ronya Ertl (Vienna, UTC+1), Maria Julia Camara and Nathan (Sao Paulo,
#    UTC-3). Common working hours: 09:00-12:00 Sao Paulo (Ronya ends 16:00 Vienna). Busy: Ellie 09:00-09:30 and
#    11:45-12:00, Maria Julia 09:30-10:30 (and the 09:30 stand-up), Nathan 09:30-09:45, Ronya 10:30-11:00. The only
#    45 minutes: 11:00-11:45 Sao Paulo = 15:00-15:45 Vienna = 14:00-14:45 UTC. Then ask the user: Francisco Monteiro.

UI = "umber-island-financial.test"
SHAWN, JOSEPH = f"shawn.griffin@{UI}", f"joseph.wall@{UI}"
ELLIE, MJC, RONYA = f"ellie.scheer@{UI}", f"maria.julia.camara@{UI}", f"ronya.ertl@{UI}"
FRANCISCO = f"francisco.monteiro@{UI}"
TM_READ = call("mail__get_message", message_id="msg-00008")
TM_DAYS = [day("Travel to Amsterdam", "2026-11-30"), day("Travel home from Amsterdam", "2026-12-03")]
TM_ITINERARY = (
    "# Amsterdam offsite - itinerary\n\n"
    "- Mon 30 Nov: fly Sao Paulo -> Amsterdam\n- Tue 1 Dec - Wed 2 Dec: offsite, Mangel Forum, Rosaliesteeg 3\n"
    "- Hotel Gnodde (booked by the office)\n- Thu 3 Dec: fly back\n\nFlights: Joseph, Shawn, Nathan - add yours.\n"
)
TM_SHARE = [share("${doc.id}", JOSEPH), share("${doc.id}", SHAWN)]
TM_REPLY = reply(
    "msg-00008",
    "Hi Shawn,\n\nthe itinerary is here, you and Joseph can edit it: ${doc.url}\n\nNathan",
)
TM_BUSY = call(
    "calendar__get_free_busy",
    emails=[ELLIE, MJC, RONYA],
    time_min="2026-11-27T08:00:00-03:00",
    time_max="2026-11-27T18:00:00-03:00",
)
TM_ASK = ask("All done. Who should hear about it?")
TM_NOTE = mail(
    [FRANCISCO], "Amsterdam trip and model validation meeting: done", "Hi Francisco,\n\nall set, it's done.\n\nNathan"
)


def tm_meet(start: str = "2026-11-27T11:00:00-03:00", end: str = "2026-11-27T11:45:00-03:00", **more) -> dict:
    more.setdefault("attendees", [ELLIE, MJC, RONYA])
    return event(more.pop("title", "Model validation"), start, end, **more)


def tm_travel() -> list:
    return [TM_READ, TM_DAYS, doc("Amsterdam offsite itinerary", TM_ITINERARY), TM_SHARE, TM_REPLY]


TRAVEL_AND_MEETINGS = [
    ok(
        "plain",
        "Blocks 30 Nov and 3 Dec, itinerary shared with Joseph and Shawn, reply with the link, meeting Fri 11:00-11:45, "
        "asks, mails Francisco.",
        tm_travel(),
        TM_BUSY,
        tm_meet(),
        TM_ASK,
        TM_NOTE,
    ),
    ok(
        "utc-args-per-city-table",
        "Meeting booked with UTC arguments (14:00-14:45Z); the invite's description is a per-city table; itinerary table.",
        TM_READ,
        TM_DAYS,
        doc(
            "Itinerary: Amsterdam offsite",
            "| | Nathan | Joseph | Shawn |\n|---|---|---|---|\n| Mon 30 Nov | fly in | fly in | fly in |\n"
            "| Tue 1 - Wed 2 Dec | Mangel Forum | Mangel Forum | Mangel Forum |\n"
            "| Thu 3 Dec | fly back | fly back | fly back |\n\n**Hotel:** Hotel Gnodde\n"
            "**Venue:** Mangel Forum, Rosaliesteeg 3, Amsterdam\n",
        ),
        TM_SHARE,
        TM_REPLY,
        TM_BUSY,
        tm_meet(
            "2026-11-27T14:00:00Z",
            "2026-11-27T14:45:00Z",
            description="| City | Time |\n|---|---|\n| Sao Paulo (Nathan, Maria Julia) | 11:00-11:45 |\n"
            "| Vienna (Ellie, Ronya) | 15:00-15:45 |\n\nThe only 45 minutes all four of us are free: Ronya's day "
            "ends at 16:00.",
        ),
        TM_ASK,
        TM_NOTE,
    ),
    ok(
        "find-slots-outlook-portuguese",
        "Uses find_free_slots, books with naive local times, an Outlook-quoted reply to Shawn, the note in Portuguese.",
        TM_READ,
        call(
            "calendar__find_free_slots",
            attendees=[ELLIE, MJC, RONYA],
            duration_minutes=45,
            time_min="2026-11-27T00:00:00-03:00",
            time_max="2026-11-28T00:00:00-03:00",
        ),
        tm_meet("2026-11-27T11:00:00", "2026-11-27T11:45:00", title="Model validation (45 min)"),
        TM_DAYS,
        doc("Amsterdam offsite itinerary", TM_ITINERARY),
        TM_SHARE,
        reply(
            "msg-00008",
            "Hi Shawn, itinerary with edit access for you and Joseph: ${doc.url}\n\nNathan\n\n"
            "-----Original Message-----\nFrom: Shawn Griffin <shawn.griffin@umber-island-financial.test>\n"
            "Sent: Wednesday, November 25, 2026 11:10 AM\nTo: Nathan Andrade\nCc: Joseph Wall\n"
            "Subject: Amsterdam offsite - travel\n\n> Could you put together the itinerary for the team (Joseph, "
            "Shawn and you) and give all of us edit access so we can add our flights?",
        ),
        ask("Which colleague should I tell that it's done?"),
        mail(
            [FRANCISCO],
            "Tudo pronto",
            "Oi Francisco,\n\ntudo pronto: viagem a Amsterdã no calendário (30/11 e 03/12), itinerário compartilhado "
            "e reunião de validação de modelo marcada para sexta, 27/11, das 11h às 11h45.\n\nAbraço,\nNathan",
        ),
    ),
    ok(
        "meeting-first-timed-travel-reply-all",
        "Meeting first; the travel days as timed blocks; reply-all so Joseph sees the link; a terse note.",
        TM_BUSY,
        tm_meet(description="45 min on model validation."),
        TM_READ,
        event("Flight to Amsterdam", "2026-11-30T07:00:00-03:00", "2026-11-30T23:00:00-03:00"),
        event("Flight back from Amsterdam", "2026-12-03T07:00:00-03:00", "2026-12-03T23:00:00-03:00"),
        doc("Amsterdam offsite itinerary", TM_ITINERARY),
        TM_SHARE,
        reply("msg-00008", "Itinerary, editable by all three of us: ${doc.url} - N.", reply_all=True),
        TM_ASK,
        mail([FRANCISCO], "done", "Francisco - done. N."),
    ),
    ok(
        "german-invite-formal-note",
        "The invite's description in German with the Vienna time; travel blocked; a formal note with a signature.",
        tm_travel(),
        tm_meet(
            description="Freitag, 27. November, 15:00-15:45 Wiener Zeit (11:00-11:45 in São Paulo). Thema: "
            "Modellvalidierung."
        ),
        ask("Everything is booked. Who would you like me to tell?"),
        mail(
            [FRANCISCO],
            "Amsterdam travel and model validation meeting",
            "Dear Francisco,\n\nThis is to let you know that the Amsterdam travel arrangements and the model "
            "validation meeting (Friday 27 November, 11:00-11:45) are done.\n\nKind regards,\n\nNathan Andrade\n"
            "Umber Island Financial",
        ),
    ),
    ok(
        "twelve-hour-bold-bullets",
        "Same outcome; the itinerary in bold bullets, the note to Francisco with 12-hour times and a misspelt day.",
        TM_READ,
        TM_DAYS,
        doc(
            "Amsterdam offsite itinerary",
            "- **Out:** Mon 30 Nov\n- **Offsite:** Tue 1 - Wed 2 Dec, Mangel Forum, Rosaliesteeg 3\n"
            "- **Hotel:** Hotel Gnodde\n- **Back:** Thu 3 Dec\n",
        ),
        TM_SHARE,
        TM_REPLY,
        tm_meet(),
        TM_ASK,
        mail(
            [FRANCISCO],
            "Done",
            "Hi Francisco - travel is sorted and the model validation call is on Fridy 27 Nov, 11 am-11:45 am. Nathan",
        ),
    ),
    ok(
        "lowercase-ranges-spanish-note",
        "Same outcome with lowercase city names and date ranges (Tue-Wed, 1-2 Dec); the note to Francisco in Spanish.",
        TM_READ,
        TM_DAYS,
        doc(
            "amsterdam trip",
            "**amsterdam offsite**, Tue\u2013Wed, 1\u20132 Dec: Mangel Forum, Rosaliesteeg 3; hotel Gnodde.\n"
            "Travel: Mon 30 Nov out (são paulo \u2192 amsterdam), Thu 3 Dec back.\n",
        ),
        TM_SHARE,
        reply(
            "msg-00008", "Shawn - itinerary for amsterdam (Tue\u2013Wed, 1\u20132 Dec), editable: ${doc.url}\n\nNathan"
        ),
        TM_BUSY,
        tm_meet(),
        TM_ASK,
        mail(
            [FRANCISCO],
            "Listo",
            "Hola Francisco: viaje a amsterdam en el calendario y reunión de validación de modelos el viernes 27 "
            "de noviembre, de 11:00 a 11:45 (hora de São Paulo). Nathan",
        ),
    ),
    bad(
        "meeting-1030-ronya-busy",
        "Books the meeting at 10:30-11:15 Sao Paulo, when Ronya is busy (10:30-11:00).",
        tm_travel(),
        tm_meet("2026-11-27T10:30:00-03:00", "2026-11-27T11:15:00-03:00"),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "meeting-one-hour",
        "Books an hour (11:00-12:00) instead of 45 minutes; Ellie is busy from 11:45 and Ronya's day has ended.",
        tm_travel(),
        tm_meet("2026-11-27T11:00:00-03:00", "2026-11-27T12:00:00-03:00"),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "ronya-not-invited",
        "Books 11:00-11:45 but invites only Ellie and Maria Julia; Ronya is left out.",
        tm_travel(),
        tm_meet(attendees=[ELLIE, MJC]),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "meeting-after-vienna-hours",
        "Books 13:00-13:45 Sao Paulo, 17:00 in Vienna: outside Ellie's and Ronya's working hours.",
        tm_travel(),
        tm_meet("2026-11-27T13:00:00-03:00", "2026-11-27T13:45:00-03:00"),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "note-to-wrong-people",
        "Asks who should hear, but mails Shawn and Joseph instead of Francisco.",
        tm_travel(),
        tm_meet(),
        TM_ASK,
        mail([SHAWN, JOSEPH], "All done", "Hi both, all done. Nathan"),
    ),
    bad(
        "link-sent-to-spam",
        "Answers the 'Upgrade your Amsterdam stay' spam with the itinerary link instead of replying to Shawn.",
        TM_READ,
        TM_DAYS,
        doc("Amsterdam offsite itinerary", TM_ITINERARY),
        TM_SHARE,
        reply("msg-00004", "Hi, here is our itinerary: ${doc.url}\n\nNathan"),
        tm_meet(),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "stale-offsite-entry",
        "Takes the calendar's 30-Nov 'offsite' entry as the offsite: travel days 29 Nov and 1 Dec.",
        call("calendar__get_event", event_id="evt-00016"),
        day("Travel to Amsterdam", "2026-11-29"),
        day("Travel home", "2026-12-01"),
        doc("Amsterdam offsite itinerary", "Sun 29 Nov fly in; Mon 30 Nov offsite; Tue 1 Dec fly back."),
        TM_SHARE,
        TM_REPLY,
        tm_meet(),
        TM_ASK,
        TM_NOTE,
    ),
    bad(
        "wrong-vienna-time-in-invite",
        "Right slot, but the invite tells Ellie and Ronya it is 14:00 their time (it is 15:00 in Vienna).",
        tm_travel(),
        tm_meet(description="Ellie, Ronya: that's 14:00-14:45 your time (Vienna). Maria Julia: 11:00-11:45 Sao Paulo."),
        TM_ASK,
        TM_NOTE,
    ),
]


# -- declined-invite-v3-58213-00000 (clock Wed 14 Jan 2026 11:30 Phoenix, Amanda Reed). "Hiring calibration" evt-00009,
#    Thu 15 January 12:00-12:30 with Brian Porter and Eric Garcia; agenda doc-00001 says "Thursday 15 January,
#    12:00–12:30 (Phoenix time)". At 11:45 Brian declines (audit interview 11:45-12:30) and says any other free time that
#    day works. Working hours (Phoenix): Amanda 10:00-18:00, Brian 09:00-17:30, Eric 10:00-18:00. Busy on the 15th:
#    Eric 10:00-10:30 and 17:00-17:30; Brian 10:30-13:00 (several blocks), 14:00-15:00 (weekly sync), 15:00-16:30;
#    Amanda 13:00-14:00 (demo), 14:00-15:00 (weekly sync). The only 30 minutes all three are free: 16:30-17:00 Phoenix
#    (23:30-24:00 UTC). Wait for the decline, move the event there, fix the agenda's time, tell Brian and Eric.

BP = "birch-point-community-services.test"
BRIAN, ERIC = f"brian.porter@{BP}", f"eric.garcia@{BP}"
DI_GET = call("calendar__get_event", event_id="evt-00009")
DI_DECLINE = call("mail__get_message", message_id="msg-00009")
DI_BUSY = call(
    "calendar__get_free_busy",
    emails=[BRIAN, ERIC],
    time_min="2026-01-15T08:00:00-07:00",
    time_max="2026-01-15T18:00:00-07:00",
)
DI_MOVE = moved("evt-00009", "2026-01-15T16:30:00-07:00", "2026-01-15T17:00:00-07:00")
DI_DOC = edit("doc-00001", f"12:00{ND}12:30", f"16:30{ND}17:00")
DI_TELL = mail(
    [BRIAN, ERIC],
    "Hiring calibration moved to 16:30 tomorrow",
    "Hi Brian, hi Eric,\n\nthe hiring calibration moves to Thursday 15 January, 16:30-17:00 (Phoenix time), "
    "same Zoom. The agenda doc is updated.\n\nAmanda",
)

DECLINED_INVITE = [
    ok(
        "wait-move-edit-mail",
        "Waits for Brian's decline, moves the calibration to 16:30-17:00 the same day, fixes the agenda, mails both.",
        DI_GET,
        wait(),
        DI_DECLINE,
        DI_BUSY,
        DI_MOVE,
        DI_DOC,
        DI_TELL,
    ),
    ok(
        "reply-to-decline-twelve-hour",
        "Replies on Brian's decline with Eric in cc, 12-hour times; the agenda rewritten whole with the new time.",
        DI_GET,
        wait(20),
        call("mail__search_messages", query="from:brian.porter@birch-point-community-services.test"),
        DI_BUSY,
        DI_MOVE,
        call(
            "docs__replace_content",
            document_id="doc-00001",
            content=f"# Hiring calibration\n\n**When:** Thursday 15 January, 16:30{ND}17:00 (Phoenix time)\n\n"
            "**Where:** Zoom\n\n## Agenda\n\n1. Status\n\n2. Decisions needed\n\n3. Next steps\n",
        ),
        reply(
            "msg-00009",
            "No problem, Brian - moved it to 4:30-5:00 pm tomorrow (Thu), the only half hour all three of us are "
            "free. Agenda updated.\n\nAmanda",
            cc=[ERIC],
        ),
    ),
    ok(
        "cancel-rebook-table-strikethrough",
        "Cancels and rebooks at 16:30-17:00 with both guests and the agenda link; a table mail strikes the old slot.",
        wait(),
        DI_DECLINE,
        DI_BUSY,
        call("calendar__cancel_event", event_id="evt-00009"),
        event(
            "Hiring calibration",
            "2026-01-15T16:30:00-07:00",
            "2026-01-15T17:00:00-07:00",
            location="Zoom",
            description="Agenda: https://docs.example.test/d/doc-00001",
            attendees=[BRIAN, ERIC],
        ),
        DI_DOC,
        mail(
            [BRIAN, ERIC],
            "New time: Hiring calibration",
            "Hi both,\n\n| | Thu 15 Jan (Phoenix) |\n|---|---|\n| Old | ~~12:00-12:30~~ cancelled |\n"
            "| **New** | **16:30-17:00** |\n\nSame Zoom; the agenda doc shows the new time.\n\nAmanda",
        ),
    ),
    ok(
        "utc-args-per-person-mails",
        "Moves the event with UTC arguments (23:30-00:00Z), updates the agenda, one mail each (Eric's in Spanish).",
        DI_GET,
        wait(),
        DI_DECLINE,
        moved("evt-00009", "2026-01-15T23:30:00Z", "2026-01-16T00:00:00Z"),
        DI_DOC,
        mail(
            [BRIAN],
            "Re: Declined: Hiring calibration",
            "Hi Brian, thanks for letting me know - it's now 4:30 to 5 in the afternoon tomorrow, Thursday. "
            "Your calendar is clear then.\n\nAmanda",
        ),
        mail(
            [ERIC],
            "Calibración de contratación: nueva hora",
            "Hola Eric,\n\nBrian no podía a las 12:00, así que la calibración pasa al jueves 15 de enero, de 16:30 a "
            "17:00 (hora de Phoenix). La agenda ya está actualizada.\n\nAmanda",
        ),
    ),
    ok(
        "outlook-quoted-reply-all-bullets",
        "Moves to 16:30-17:00 and edits the agenda; the mail has bold bullets and Brian's decline quoted Outlook-style.",
        wait(15),
        DI_DECLINE,
        DI_BUSY,
        DI_MOVE,
        edit("doc-00001", f"Thursday 15 January, 12:00{ND}12:30", f"Thursday 15 January, 16:30{ND}17:00"),
        reply(
            "msg-00009",
            "Hi Brian, Eric,\n\n- **New time:** Thu 15 January, 16:30-17:00 (Phoenix)\n- **Where:** Zoom, as before\n"
            "- **Agenda:** updated\n\nAmanda\n\nFrom: Brian Porter\nSent: Wednesday, January 14, 2026 11:45 AM\n"
            "To: Amanda Reed\nSubject: Declined: Hiring calibration\n\n> sorry, I can't make 12:00 on Thursday 15 "
            "January: the quarterly audit interview got put there.",
            cc=[ERIC],
        ),
    ),
    ok(
        "terse",
        "Terse throughout: waits, reads the decline, moves, edits the agenda, one-line mail to both.",
        wait(),
        DI_DECLINE,
        DI_MOVE,
        DI_DOC,
        mail(
            [BRIAN, ERIC], "Calibration -> 4:30pm Thu", "Calibration moved: Thu 15 Jan 4:30-5pm AZ. Agenda updated. -A"
        ),
    ),
    bad(
        "moves-before-decline",
        "Moves the calibration to 16:30 at once, before Brian has answered (nobody has declined yet).",
        DI_GET,
        DI_BUSY,
        DI_MOVE,
        DI_DOC,
        DI_TELL,
    ),
    bad(
        "slot-1600-brian-busy",
        "Moves it to 16:00-16:30, when Brian is still busy (15:00-16:30).",
        wait(),
        DI_DECLINE,
        moved("evt-00009", "2026-01-15T16:00:00-07:00", "2026-01-15T16:30:00-07:00"),
        edit("doc-00001", f"12:00{ND}12:30", f"16:00{ND}16:30"),
        mail([BRIAN, ERIC], "Hiring calibration moved", "Hi both, it's now Thu 16:00-16:30. Amanda"),
    ),
    bad(
        "next-day",
        "Moves the calibration to Friday 16 January 12:00 instead of another time the same day.",
        wait(),
        DI_DECLINE,
        moved("evt-00009", "2026-01-16T12:00:00-07:00", "2026-01-16T12:30:00-07:00"),
        edit("doc-00001", f"Thursday 15 January, 12:00{ND}12:30", f"Friday 16 January, 12:00{ND}12:30"),
        mail([BRIAN, ERIC], "Hiring calibration moved to Friday", "Hi both, moved to Fri 16 Jan 12:00. Amanda"),
    ),
    bad(
        "agenda-not-fixed",
        "Moves the event and tells both, but the agenda doc still says 12:00-12:30.",
        wait(),
        DI_DECLINE,
        DI_MOVE,
        DI_TELL,
    ),
    bad(
        "one-hour",
        "Moves it to 16:30-17:30: an hour instead of 30 minutes, and Eric is busy from 17:00.",
        wait(),
        DI_DECLINE,
        moved("evt-00009", "2026-01-15T16:30:00-07:00", "2026-01-15T17:30:00-07:00"),
        edit("doc-00001", f"12:00{ND}12:30", f"16:30{ND}17:30"),
        mail([BRIAN, ERIC], "Hiring calibration moved", "Hi both, it's now Thu 16:30-17:30. Amanda"),
    ),
    bad(
        "ps-noon",
        "Moves and updates correctly, but the mail's P.S. tells them to join at noon as planned (contradiction).",
        wait(),
        DI_DECLINE,
        DI_MOVE,
        DI_DOC,
        mail(
            [BRIAN, ERIC],
            "Hiring calibration: new time",
            "Hi both,\n\nnew time: Thursday 16:30-17:00.\n\nAmanda\n\nP.S. See you both at noon tomorrow on Zoom!",
        ),
    ),
    bad(
        "tentative-hedge",
        "Moves the event but tells both the new time is only tentative and probably works, asking them to confirm.",
        wait(),
        DI_DECLINE,
        DI_MOVE,
        DI_DOC,
        mail(
            [BRIAN, ERIC],
            "Hiring calibration - tentative new time",
            "Hi both,\n\nI've tentatively pencilled the calibration in for 16:30 tomorrow; probably works, but "
            "let me know and I may move it again.\n\nAmanda",
        ),
    ),
]


# -- incident-v3-58213-00000 (clock Thu 26 Feb 2026 14:30 Singapore, Xia Liu). The corporate-api thread (msg-00020,
#    msg-00017, msg-00015), Wed 25 February: failing from 14:20 SGT; cause (Lewis, 14:47): a config change cut the
#    corporate-api database connection pool from 50 to 8 connections; resolved 15:15 SGT. Jayne asks: a bug in LIT for
#    the real fix, assigned to Lewis Tucker, priority high; a postmortem doc in the Postmortems folder (fld-postmortems)
#    with the cause and the timeline; the status update to status@vantage-hollow-legal-services.test with the ticket
#    number and when it was resolved. Not the corporate-service (18 Feb, migration 122) or quartz-search (22 Feb, TLS
#    certificate) threads. Afterwards ask the user: Na He gets a short note.

VH = "vantage-hollow-legal-services.test"
LEWIS, JAYNE, STATUS, NA_HE = f"lewis.tucker@{VH}", f"jayne.fraser@{VH}", f"status@{VH}", f"na.he@{VH}"
IN_READS = [
    call("mail__search_messages", query="corporate-api"),
    call("mail__get_message", message_id="msg-00015"),
    call("mail__get_message", message_id="msg-00017"),
]
IN_BUG_TEXT = (
    "corporate-api outage on 25 Feb (14:20-15:15 SGT): a config change cut the database connection pool from 50 to "
    "8 connections. Mitigated; this ticket is the real fix (restore the pool size and guard the config)."
)
IN_TIMELINE = (
    "# Postmortem: corporate-api errors, 25 February 2026\n\n"
    "## Cause\nA config change cut the corporate-api database connection pool from 50 to 8 connections.\n\n"
    "## Timeline (Asia/Singapore)\n- 14:20 corporate-api starts failing, most requests error out\n"
    "- 14:47 Lewis finds the cause (connection pool 50 -> 8)\n- 15:15 resolved, error rates back to normal\n\n"
    "## Follow-up\n- ${bug.key}: the real fix (Lewis Tucker)\n"
)
IN_ASK = ask("Which colleague should be told that the incident follow-up is done?")
IN_NOTE = mail(
    [NA_HE],
    "corporate-api incident follow-up done",
    "Hi Na,\n\nshort note: the corporate-api follow-up is done - bug ${bug.key} filed for Lewis, postmortem started, "
    "status update sent.\n\nXia",
)


def in_bug(**more) -> dict:
    more.setdefault("description", IN_BUG_TEXT)
    more.setdefault("assignee", LEWIS)
    more.setdefault("priority", "high")
    more.setdefault("type", "bug")
    return ticket(
        more.pop("project", "LIT"),
        more.pop("title", "corporate-api: restore the DB connection pool"),
        save="bug",
        **more,
    )


def in_pm(content: str = IN_TIMELINE, **more) -> dict:
    more.setdefault("folder_id", "fld-postmortems")
    return doc(more.pop("title", "Postmortem: corporate-api errors (25 Feb)"), content, **more)


def in_status(body: str, subject: str = "Status update: corporate-api incident resolved", **more) -> dict:
    return mail(more.pop("to", [STATUS]), subject, body, **more)


IN_STATUS = in_status(
    "corporate-api incident, Wednesday 25 February: resolved at 15:15 (Asia/Singapore); error rates are back to "
    "normal. The fix is tracked in ${bug.key}."
)

INCIDENT = [
    ok(
        "plain",
        "LIT bug (high, Lewis), postmortem in Postmortems with cause and timeline, status mail with key and 15:15; "
        "asks, notes Na He.",
        IN_READS,
        in_bug(),
        in_pm(),
        IN_STATUS,
        IN_ASK,
        IN_NOTE,
    ),
    ok(
        "table-timeline-bold-status",
        "Same outcome; the postmortem's timeline is a table, the status mail bold bullets with SGT and UTC.",
        IN_READS,
        in_bug(title="Restore corporate-api connection pool to 50 (config cut it to 8)"),
        in_pm(
            "# Postmortem - corporate-api, 25 Feb 2026\n\n**Cause:** config change cut the DB connection pool "
            "from 50 to 8 connections.\n\n| Time (SGT) | What happened |\n|---|---|\n| 14:20 | errors start |\n"
            "| 14:47 | cause found by Lewis |\n| 15:15 | resolved |\n\n**Fix:** ${bug.key}\n"
        ),
        in_status(
            "- **Service:** corporate-api\n- **Status:** resolved\n- **Resolved:** Wed 25 Feb, 15:15 SGT "
            "(07:15 UTC)\n- **Ticket:** ${bug.key}\n"
        ),
        IN_ASK,
        IN_NOTE,
    ),
    ok(
        "thread-move-doc-chinese-note",
        "Reads the thread, creates the postmortem at the top and moves it into Postmortems; the note to Na He in Chinese.",
        call("mail__search_messages", query="Incident: corporate-api errors", save="hits"),
        call("mail__get_thread", thread_id="${hits.messages.0.thread_id}"),
        IN_READS[1:],
        in_bug(),
        in_pm(folder_id=None),
        call("docs__move_document", document_id="${doc.id}", folder_id="fld-postmortems"),
        IN_STATUS,
        IN_ASK,
        mail(
            [NA_HE],
            "corporate-api 事故跟进已完成",
            "Na He 你好，\n\ncorporate-api 事故的跟进已完成：已为 Lewis 建立 bug ${bug.key}，事后分析文档已开始，"
            "状态更新已发出（2月25日 15:15 新加坡时间恢复）。\n\nXia",
        ),
    ),
    ok(
        "formal-status-words",
        "A formal status letter with a signature and the time in words; the rest as asked.",
        IN_READS,
        in_bug(),
        in_pm(),
        in_status(
            "Dear colleagues,\n\nThe corporate-api incident of Wednesday 25 February is resolved: service returned "
            "to normal at a quarter past three in the afternoon, Singapore time (15:15). The permanent fix is "
            "tracked in ticket ${bug.key}.\n\nKind regards,\n\nXia Liu\nAssociate, Litigation\n"
            "Vantage Hollow Legal Services",
        ),
        ask("Who should I tell about this?"),
        IN_NOTE,
    ),
    ok(
        "outlook-quote-twelve-hour",
        "The bug quotes Lewis's finding Outlook-style; the status mail says 3:15 pm SGT.",
        IN_READS,
        in_bug(
            description="Real fix for the corporate-api outage.\n\nFrom: Lewis Tucker\nSent: Wednesday, February 25, "
            "2026 2:47 PM\nSubject: Re: Incident: corporate-api errors\n\n> Found it: a config change that cut the "
            "corporate-api database connection pool from 50 to 8 connections."
        ),
        in_pm(),
        in_status(
            "Hi all - corporate-api was resolved on Wed 25 Feb at 3:15 pm SGT. Follow-up fix: ${bug.key}.",
            subject="[Resolved] corporate-api errors",
        ),
        IN_ASK,
        mail([NA_HE], "FYI", "Na - corporate-api follow-up is done (${bug.key}). Xia"),
    ),
    ok(
        "assign-after-create-caveat",
        "Files the bug, then assigns it to Lewis separately; the postmortem notes it is not the 18-Feb incident.",
        IN_READS,
        in_bug(assignee=None),
        assign("${bug.key}", LEWIS),
        in_pm(
            IN_TIMELINE + "\n_Not to be confused with the corporate-service incident of 18 February (migration 122)._\n"
        ),
        IN_STATUS,
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "wrong-incident",
        "Works from the corporate-service thread (18 Feb, migration 122, resolved 14:45) instead of corporate-api.",
        call("mail__get_message", message_id="msg-00009"),
        in_bug(
            title="corporate-service: migration 122 lock on ledger table",
            description="Migration 122 locked the ledger table during the deploy on 18 Feb.",
        ),
        in_pm(
            "# Postmortem: corporate-service\n\nCause: database migration 122 took a lock on the ledger table.\n\n"
            "- 14:20 errors start\n- 14:32 cause found\n- 14:45 resolved\n"
        ),
        in_status("corporate-service incident resolved at 14:45 SGT on 18 Feb. Ticket ${bug.key}."),
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "corp-project-medium",
        "Files the bug in CORP with medium priority, not in LIT with high as Jayne asked.",
        IN_READS,
        in_bug(project="CORP", priority="medium"),
        in_pm(),
        IN_STATUS,
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "status-without-ticket",
        "The status update gives the resolution time but not the ticket number.",
        IN_READS,
        in_bug(),
        in_pm(),
        in_status("corporate-api is resolved (25 Feb, 15:15 SGT); error rates are back to normal."),
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "status-wrong-time",
        "The status update says it was resolved at 14:45 (another incident's time), not 15:15.",
        IN_READS,
        in_bug(),
        in_pm(),
        in_status("corporate-api resolved at 14:45 SGT on 25 Feb. Ticket: ${bug.key}."),
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "postmortem-outside-folder",
        "Starts the postmortem at the top of Drive, not in the Postmortems folder Jayne named.",
        IN_READS,
        in_bug(),
        in_pm(folder_id=None),
        IN_STATUS,
        IN_ASK,
        IN_NOTE,
    ),
    bad(
        "note-to-jayne",
        "Asks who should be told (Na He), then sends the note to Jayne instead.",
        IN_READS,
        in_bug(),
        in_pm(),
        IN_STATUS,
        IN_ASK,
        mail([JAYNE], "corporate-api follow-up done", "Hi Jayne, all done (${bug.key}). Xia"),
    ),
    bad(
        "bug-for-jayne",
        "Assigns the bug to Jayne instead of Lewis.",
        IN_READS,
        in_bug(assignee=JAYNE),
        in_pm(),
        IN_STATUS,
        IN_ASK,
        IN_NOTE,
    ),
]
