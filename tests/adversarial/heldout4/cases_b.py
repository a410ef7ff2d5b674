"""Held-out round 4, generated tasks (part B): incident, meeting-tz, offboard, reschedule, travel.

Written from each task's instruction and seed rows only (ids, mails, docs, tickets, events), never from its checks.
"""

from __future__ import annotations

from round_steps import assign, bad, call, comment, day, decline, doc, event, mail, moved, ok, reply, share, ticket

# -- incident-91437-00000: harbor-search, 29 Mar (Lisbon, WEST): 11:35 start, 12:22 cause, 13:10 resolved ---------------

DANIEL, FRANCISCA = "daniel.mendes@jones-smith.test", "francisca.assuncao@jones-smith.test"
STATUS_0 = "status@jones-smith.test"
PM_0 = (
    "# Postmortem: harbor-search errors, 29 March\n\n## Cause\nA retry storm from the product worker overloaded the "
    "harbor-search API after a deploy.\n\n## Timeline (Europe/Lisbon)\n- 11:35 harbor-search starts failing, most "
    "requests error out\n- 12:22 cause found: retry storm from the product worker after a deploy\n- 13:10 resolved, "
    "error rates back to normal\n"
)


def pm_shares(doc_save: str, people: list[str]) -> list[dict]:
    """Share the saved postmortem with each person as commenter."""
    return [share(f"${{{doc_save}.id}}", p, "commenter") for p in people]


INCIDENT_0 = [
    ok(
        "as-asked",
        "High-priority PROD bug for Francisca, postmortem in Postmortems shared as commenters, status mail with key and time.",
        ticket(
            "PROD",
            "harbor-search: retry storm from the product worker overloads the API",
            save="bug",
            type="bug",
            priority="high",
            assignee=FRANCISCA,
        ),
        doc("Postmortem: harbor-search errors (29 March)", PM_0, save="pm", folder_id="postmortems"),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail(
            [STATUS_0],
            "Resolved: harbor-search errors",
            "The harbor-search incident is resolved: it was fixed at 13:10 (Europe/Lisbon) on 29 March. "
            "The follow-up fix is tracked in ${bug.key}.",
        ),
    ),
    ok(
        "pm-first-12h-and-reply",
        "Doc first, ticket key added to it afterwards; time written '1:10 pm Lisbon time'; tells Daniel in his thread.",
        doc("harbor-search incident - postmortem", PM_0, save="pm", folder_id="postmortems"),
        ticket(
            "PROD",
            "Stop the product worker's retry storm against harbor-search",
            save="bug",
            type="bug",
            priority="high",
            assignee=FRANCISCA,
            description="Root cause of yesterday's harbor-search incident: a retry storm from the product worker "
            "after a deploy. Postmortem: ${pm.url}",
        ),
        call("docs__append_content", document_id="${pm.id}", text="\nFix tracked in ${bug.key}."),
        pm_shares("pm", [FRANCISCA, DANIEL]),
        mail(
            [STATUS_0],
            "harbor-search incident resolved",
            "Status update: harbor-search errors were resolved at 1:10 pm Lisbon time yesterday (29 March). "
            "Bug for the permanent fix: ${bug.key}.",
        ),
        reply("inc-2", "Done: ${bug.key} filed for Francisca, postmortem started (${pm.url}), status update sent."),
    ),
    ok(
        "reads-thread-utc-too",
        "Reads the thread first; status mail gives '13h10 (12:10 UTC)'; ticket description quotes the cause.",
        call("mail__search_messages", query="harbor-search"),
        call("docs__list_folder", folder_id="postmortems"),
        ticket(
            "PROD",
            "Fix retry storm from product worker hitting harbor-search",
            save="bug",
            type="bug",
            priority="high",
            assignee=FRANCISCA,
            description="A retry storm from the product worker overloaded the harbor-search API after a deploy.",
        ),
        doc("Postmortem - harbor-search - 2026-03-29", PM_0, save="pm", folder_id="postmortems"),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail(
            [STATUS_0],
            "[Resolved] harbor-search",
            "harbor-search is back to normal since 13h10 Lisbon time (12:10 UTC) on Sunday 29 March. Ticket: ${bug.key}.",
        ),
    ),
    bad(
        "older-incidents-cause",
        "Uses the cause of last week's orbit-search incident (connection pool cut to 5), the wrong incident.",
        ticket(
            "PROD",
            "harbor-search: DB connection pool cut from 50 to 5",
            save="bug",
            type="bug",
            priority="high",
            assignee=FRANCISCA,
        ),
        doc(
            "Postmortem: harbor-search",
            "# Postmortem\n\nCause: a config change cut the database connection pool from 50 to 5.\n\n"
            "Timeline: 11:35 start, 12:22 cause found, 13:10 resolved.",
            save="pm",
            folder_id="postmortems",
        ),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail([STATUS_0], "Resolved: harbor-search", "Resolved at 13:10 (Europe/Lisbon). Ticket ${bug.key}."),
    ),
    bad(
        "resolved-time-wrong-zone",
        "Status mail says 13:10 UTC; it was resolved at 13:10 Lisbon time, 12:10 UTC.",
        ticket("PROD", "harbor-search retry storm", save="bug", type="bug", priority="high", assignee=FRANCISCA),
        doc("Postmortem: harbor-search", PM_0, save="pm", folder_id="postmortems"),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail([STATUS_0], "Resolved: harbor-search", "Resolved at 13:10 UTC on 29 March. Ticket ${bug.key}."),
    ),
    bad(
        "postmortem-not-shared",
        "Everything but sharing the postmortem with Daniel and Francisca.",
        ticket("PROD", "harbor-search retry storm", save="bug", type="bug", priority="high", assignee=FRANCISCA),
        doc("Postmortem: harbor-search", PM_0, save="pm", folder_id="postmortems"),
        mail(
            [STATUS_0], "Resolved: harbor-search", "Resolved at 13:10 (Europe/Lisbon) on 29 March. Ticket ${bug.key}."
        ),
    ),
    bad(
        "status-claims-ticket-not-filed",
        "Status mail names a ticket (PROD-9) that was never filed; the bug ticket is missing.",
        doc("Postmortem: harbor-search", PM_0, save="pm", folder_id="postmortems"),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail([STATUS_0], "Resolved: harbor-search", "Resolved at 13:10 (Europe/Lisbon) on 29 March. Ticket PROD-9."),
    ),
    bad(
        "wrong-owner-and-priority",
        "The bug goes to Daniel with medium priority instead of Francisca, high.",
        ticket("PROD", "harbor-search retry storm", save="bug", type="bug", priority="medium", assignee=DANIEL),
        doc("Postmortem: harbor-search", PM_0, save="pm", folder_id="postmortems"),
        pm_shares("pm", [DANIEL, FRANCISCA]),
        mail(
            [STATUS_0], "Resolved: harbor-search", "Resolved at 13:10 (Europe/Lisbon) on 29 March. Ticket ${bug.key}."
        ),
    ),
]

# -- incident-91437-00001: relay-api, 2 Aug (São Paulo): 14:48 start, 15:00 cause, 15:13 resolved ----------------------

ISABELA, RAVI, REBECCA = "isabela.machado@fowler.test", "ravi.lucca.da.cruz@fowler.test", "rebecca.moore@fowler.test"
STATUS_1 = "status@fowler.test"
PM_1 = (
    "# Postmortem: relay-api errors (2 August)\n\n## Root cause\nA retry storm from the product worker overloaded the "
    "relay-api API after a deploy.\n\n## Timeline (America/Sao_Paulo)\n- 14:48 relay-api starts failing\n- 15:00 "
    "Rebecca finds the cause: retry storm from the product worker\n- 15:09 customer-facing error rate dropping\n"
    "- 15:13 resolved\n"
)

INCIDENT_1 = [
    ok(
        "as-asked",
        "High-priority ENG bug for Rebecca, postmortem in Postmortems shared with the three as commenters, status mail.",
        ticket(
            "ENG", "relay-api: product worker retry storm", save="bug", type="bug", priority="high", assignee=REBECCA
        ),
        doc("Postmortem: relay-api errors", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [ISABELA, RAVI, REBECCA]),
        mail(
            [STATUS_1],
            "relay-api incident resolved",
            "relay-api was resolved at 15:13 (America/Sao_Paulo) on 2 August. Follow-up fix: ${bug.key}.",
        ),
    ),
    ok(
        "utc-and-reply-all",
        "Status mail gives '3:13 pm São Paulo time (18:13 UTC)'; a reply-all in the thread tells the team it is done.",
        ticket(
            "ENG",
            "Throttle product worker retries against relay-api",
            save="bug",
            type="bug",
            priority="high",
            assignee=REBECCA,
            description="Cause of the 2 Aug relay-api incident: a retry storm from the product worker after a deploy.",
        ),
        doc("relay-api incident 2026-08-02 - postmortem", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [REBECCA, RAVI, ISABELA]),
        mail(
            [STATUS_1],
            "[Resolved] relay-api errors",
            "Resolved yesterday at 3:13 pm São Paulo time (18:13 UTC). Ticket for the fix: ${bug.key}.",
        ),
        reply(
            "inc-3", "Wrapped up: ${bug.key} for Rebecca, postmortem at ${pm.url}, status update sent.", reply_all=True
        ),
    ),
    ok(
        "reads-first-comment-on-bug",
        "Reads the thread, files the bug, links the postmortem on it by a comment, then shares and sends the update.",
        call("mail__search_messages", query="relay-api"),
        doc("Postmortem: relay-api", PM_1, save="pm", folder_id="postmortems"),
        ticket("ENG", "Fix relay-api retry storm", save="bug", type="bug", priority="high", assignee=REBECCA),
        comment("${bug.key}", "Postmortem: ${pm.url}"),
        pm_shares("pm", [ISABELA, RAVI, REBECCA]),
        mail(
            [STATUS_1],
            "relay-api: resolved",
            "Incident over. relay-api recovered at 15h13 BRT on Sunday 2 August; fix tracked as ${bug.key}.",
        ),
    ),
    bad(
        "misses-ravi",
        "Shares the postmortem with Isabela and Rebecca only; Ravi Lucca was asked too.",
        ticket("ENG", "relay-api retry storm", save="bug", type="bug", priority="high", assignee=REBECCA),
        doc("Postmortem: relay-api", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [ISABELA, REBECCA]),
        mail([STATUS_1], "relay-api resolved", "Resolved at 15:13 (America/Sao_Paulo) on 2 August. Ticket ${bug.key}."),
    ),
    bad(
        "wrong-resolved-time",
        "Status mail gives 15:09 (when the error rate was only dropping) as the resolution time.",
        ticket("ENG", "relay-api retry storm", save="bug", type="bug", priority="high", assignee=REBECCA),
        doc("Postmortem: relay-api", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [ISABELA, RAVI, REBECCA]),
        mail([STATUS_1], "relay-api resolved", "Resolved at 15:09 (America/Sao_Paulo) on 2 August. Ticket ${bug.key}."),
    ),
    bad(
        "resolved-in-utc-clock",
        "Says 15:13 UTC; it was 15:13 in São Paulo (18:13 UTC).",
        ticket("ENG", "relay-api retry storm", save="bug", type="bug", priority="high", assignee=REBECCA),
        doc("Postmortem: relay-api", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [ISABELA, RAVI, REBECCA]),
        mail([STATUS_1], "relay-api resolved", "Resolved at 15:13 UTC on 2 August. Ticket ${bug.key}."),
    ),
    bad(
        "no-status-mail",
        "Files the bug and the postmortem but tells Isabela the status update went out when it did not.",
        ticket("ENG", "relay-api retry storm", save="bug", type="bug", priority="high", assignee=REBECCA),
        doc("Postmortem: relay-api", PM_1, save="pm", folder_id="postmortems"),
        pm_shares("pm", [ISABELA, RAVI, REBECCA]),
        reply("inc-3", "All done, including the status update."),
    ),
]

# -- meeting-tz-91437-00000: Tue 28 Apr, 30 min; only 14:00-14:30 UTC fits (16:00 Madrid/Amsterdam, 10:00 New York) ---

MILAN, STEPHEN = "milan.van.beek@jones-brown.test", "stephen.simmons@jones-brown.test"

MEETING_0 = [
    ok(
        "madrid-time",
        "16:00-16:30 Madrid on 28 April, both invited: the only half hour all three are free in working hours.",
        event(
            "Balanced exuding utilization",
            "2026-04-28T16:00:00+02:00",
            "2026-04-28T16:30:00+02:00",
            attendees=[MILAN, STEPHEN],
        ),
    ),
    ok(
        "utc-after-slot-search",
        "Searches free slots first, then books 14:00Z-14:30Z (the same time written in UTC).",
        call(
            "calendar__find_free_slots",
            attendees=[MILAN, STEPHEN],
            duration_minutes=30,
            time_min="2026-04-28T00:00:00+02:00",
            time_max="2026-04-29T00:00:00+02:00",
        ),
        event(
            "Call: Milan / Stephen / Victoriano",
            "2026-04-28T14:00:00Z",
            "2026-04-28T14:30:00Z",
            attendees=[STEPHEN, MILAN],
        ),
    ),
    ok(
        "new-york-time-with-note",
        "Books 10:00 New York (= 16:00 Madrid) and mails both a courtesy note with the time in their zones.",
        event(
            "Balanced exuding utilization call",
            "2026-04-28T10:00:00",
            "2026-04-28T10:30:00",
            timezone="America/New_York",
            attendees=[MILAN, STEPHEN],
        ),
        mail(
            [MILAN, STEPHEN],
            "Call on Tuesday 28 April",
            "Hi both, I've sent an invite for Tuesday 28 April, 16:00-16:30 Amsterdam/Madrid time (10:00-10:30 in "
            "New York). Victoriano",
        ),
    ),
    bad(
        "right-clock-wrong-zone",
        "Books 16:00 New York time (22:00 in Madrid), outside everyone's hours but Stephen's.",
        event(
            "Balanced exuding utilization",
            "2026-04-28T16:00:00",
            "2026-04-28T16:30:00",
            timezone="America/New_York",
            attendees=[MILAN, STEPHEN],
        ),
    ),
    bad(
        "busy-slot",
        "Books 14:00 Madrid, over my 14:00-14:45 meeting.",
        event(
            "Balanced exuding utilization",
            "2026-04-28T14:00:00+02:00",
            "2026-04-28T14:30:00+02:00",
            attendees=[MILAN, STEPHEN],
        ),
    ),
    bad(
        "stephen-not-invited",
        "Right time, but only Milan is invited.",
        event(
            "Balanced exuding utilization", "2026-04-28T16:00:00+02:00", "2026-04-28T16:30:00+02:00", attendees=[MILAN]
        ),
    ),
    bad(
        "mail-not-calendar",
        "Proposes the right time by mail but puts nothing in the calendar (the words without the action).",
        mail([MILAN, STEPHEN], "Call Tuesday", "Shall we talk on Tuesday 28 April at 16:00 Madrid time (10:00 NY)?"),
    ),
]

# -- meeting-tz-91437-00001: Tue 31 Mar, 30 min; only 07:00-07:30 UTC (08:00 Lisbon, 09:00 Amsterdam, 12:30 Kolkata) ---

BART, LADLI = "bart.dachgeldt@jones-smith.test", "ladli.vaidya@jones-smith.test"

MEETING_1 = [
    ok(
        "lisbon-time",
        "08:00-08:30 Lisbon on 31 March with Bart and Ladli: the only common free half hour.",
        event(
            "Secured zero tolerance secured line",
            "2026-03-31T08:00:00+01:00",
            "2026-03-31T08:30:00+01:00",
            attendees=[BART, LADLI],
        ),
    ),
    ok(
        "kolkata-time",
        "The same slot written as 12:30 Kolkata time.",
        event(
            "Call with Bart and Ladli",
            "2026-03-31T12:30:00",
            "2026-03-31T13:00:00",
            timezone="Asia/Kolkata",
            attendees=[LADLI, BART],
        ),
    ),
    ok(
        "amsterdam-time-with-note",
        "Books 09:00 Amsterdam (= 08:00 Lisbon) after a free/busy read, plus a courtesy mail with each one's time.",
        call(
            "calendar__get_free_busy",
            emails=[BART, LADLI],
            time_min="2026-03-31T00:00:00+01:00",
            time_max="2026-04-01T00:00:00+01:00",
        ),
        event(
            "Secured zero tolerance secured line",
            "2026-03-31T09:00:00",
            "2026-03-31T09:30:00",
            timezone="Europe/Amsterdam",
            attendees=[BART, LADLI],
        ),
        mail([BART, LADLI], "Tuesday call", "Invite sent: Tue 31 March, 9:00 Amsterdam / 12:30 Kolkata / 8:00 Lisbon."),
    ),
    bad(
        "right-clock-wrong-zone",
        "Books 08:00 Amsterdam time (07:00 Lisbon), before my working hours start.",
        event(
            "Secured zero tolerance secured line",
            "2026-03-31T08:00:00",
            "2026-03-31T08:30:00",
            timezone="Europe/Amsterdam",
            attendees=[BART, LADLI],
        ),
    ),
    bad(
        "bart-busy",
        "Books 09:00 Lisbon, when Bart is busy.",
        event(
            "Secured zero tolerance secured line",
            "2026-03-31T09:00:00+01:00",
            "2026-03-31T09:30:00+01:00",
            attendees=[BART, LADLI],
        ),
    ),
    bad(
        "ladli-missing",
        "Right slot but Ladli is not invited.",
        event(
            "Secured zero tolerance secured line",
            "2026-03-31T08:00:00+01:00",
            "2026-03-31T08:30:00+01:00",
            attendees=[BART],
        ),
    ),
    bad(
        "wrong-day",
        "Books Monday 30 March at 08:00 instead of Tuesday 31 March.",
        event(
            "Secured zero tolerance secured line",
            "2026-03-30T08:00:00+01:00",
            "2026-03-30T08:30:00+01:00",
            attendees=[BART, LADLI],
        ),
    ),
]

# -- offboard-91437-00000: Luna -> Balhaar; PROD-9, handover-1, decline leaver-mtg-1 (5 Aug) -------------------------

BALHAAR = "balhaar.dora@ponce-thomas.test"

OFFBOARD_0 = [
    ok(
        "as-asked",
        "PROD-9 to Balhaar, handover-1 shared with Balhaar as editor, Luna's 5 August meeting declined.",
        assign("PROD-9", BALHAAR),
        share("handover-1", BALHAAR, "editor"),
        decline("leaver-mtg-1"),
    ),
    ok(
        "with-handover-notes",
        "The same, plus a handover comment on PROD-9 and a courtesy mail to Balhaar.",
        assign("PROD-9", BALHAAR),
        comment("PROD-9", "Handed over from Luna (last day 4 August) to Balhaar."),
        share("handover-1", BALHAAR, "editor"),
        decline("leaver-mtg-1"),
        mail(
            [BALHAAR],
            "Taking over from Luna",
            "Hi Balhaar, PROD-9 is yours now and you can edit 'Brand cutting-edge schemas'.",
        ),
    ),
    ok(
        "reads-first-other-order",
        "Looks everything up first, then declines, shares and reassigns (a different order).",
        call("tickets__search_tickets", assignee="luna.alves@ponce-thomas.test", resolved=False),
        call("docs__search_documents", shared_with="luna.alves@ponce-thomas.test"),
        call("calendar__search_events", query="luna.alves@ponce-thomas.test"),
        decline("leaver-mtg-1"),
        share("handover-1", BALHAAR, "editor"),
        assign("PROD-9", BALHAAR),
    ),
    bad(
        "viewer-only",
        "Shares handover-1 with Balhaar as viewer, not editor.",
        assign("PROD-9", BALHAAR),
        share("handover-1", BALHAAR, "viewer"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "reassigns-tickets-luna-reported",
        "Also reassigns ENG-2 and PROD-3, which Luna only reported and others own (a misreading).",
        assign("PROD-9", BALHAAR),
        assign("ENG-2", BALHAAR),
        assign("PROD-3", BALHAAR),
        share("handover-1", BALHAAR, "editor"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "unshares-luna",
        "Does the handover but also removes Luna's access to the doc, which nobody asked for.",
        assign("PROD-9", BALHAAR),
        share("handover-1", BALHAAR, "editor"),
        call("docs__unshare_document", document_id="handover-1", email="luna.alves@ponce-thomas.test"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "no-decline",
        "Reassigns and shares but leaves Luna's 5 August meeting accepted.",
        assign("PROD-9", BALHAAR),
        share("handover-1", BALHAAR, "editor"),
    ),
]

# -- offboard-91437-00001: Alex -> Glen; SUP-13, handover-1, decline leaver-mtg-1 only (13 Feb) ---------------------

GLEN = "glen.wilson@barnes.test"

OFFBOARD_1 = [
    ok(
        "as-asked",
        "SUP-13 to Glen, handover-1 editable by Glen, only Alex's meeting after 12 Feb (13 Feb) declined.",
        assign("SUP-13", GLEN),
        share("handover-1", GLEN, "editor"),
        decline("leaver-mtg-1"),
    ),
    ok(
        "comment-and-mail",
        "The same, plus a handover comment on SUP-13 and one mail to Glen and Alex about the handover.",
        call("tickets__search_tickets", assignee="alex.randall@barnes.test"),
        assign("SUP-13", GLEN),
        comment("SUP-13", "Alex leaves after 12 Feb; Glen takes this over."),
        share("handover-1", GLEN, "editor"),
        decline("leaver-mtg-1"),
        mail(
            [GLEN, "alex.randall@barnes.test"],
            "Handover Alex -> Glen",
            "Glen now owns SUP-13 and can edit 'Productize cross-platform e-commerce'. I declined our 13 Feb meeting.",
        ),
    ),
    ok(
        "other-order",
        "Declines first, then shares and reassigns, with reads in between.",
        call("calendar__get_event", event_id="leaver-mtg-1"),
        decline("leaver-mtg-1"),
        call("docs__get_document", document_id="handover-1"),
        share("handover-1", GLEN, "editor"),
        assign("SUP-13", GLEN),
    ),
    bad(
        "declines-all",
        "Declines all three of Alex's meetings, including 10 and 11 Feb, before the last day.",
        assign("SUP-13", GLEN),
        share("handover-1", GLEN, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
        decline("leaver-mtg-3"),
    ),
    bad(
        "reassigns-closed",
        "Also reassigns Alex's done and cancelled tickets (SUP-1, ENG-5, SUP-14).",
        [assign(k, GLEN) for k in ("SUP-13", "SUP-1", "ENG-5", "SUP-14")],
        share("handover-1", GLEN, "editor"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "edit-on-read-only-docs",
        "Also gives Glen edit access to the two docs Alex could only read.",
        assign("SUP-13", GLEN),
        share("handover-1", GLEN, "editor"),
        share("read-only-1", GLEN, "editor"),
        share("read-only-2", GLEN, "editor"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "unassigns-instead",
        "Unassigns SUP-13 instead of giving it to Glen.",
        assign("SUP-13", None),
        share("handover-1", GLEN, "editor"),
        decline("leaver-mtg-1"),
    ),
]

# -- reschedule-91437-00000: mtg (28 Apr 15:00) -> Wed 29 Apr 16:30-17:30 Madrid (14:30Z), guests Collin, Stephen -----

COLLIN = "collin.bellemans@jones-brown.test"
MTG_0 = "mtg-2026-04-29-1500"

RESCHEDULE_0 = [
    ok(
        "move-and-mail",
        "Moves the meeting to Wed 29 April 16:30-17:30 Madrid (the only free hour) and mails both guests.",
        moved(MTG_0, "2026-04-29T16:30:00+02:00", "2026-04-29T17:30:00+02:00"),
        mail(
            [COLLIN, STEPHEN],
            "De-engineered homogeneous alliance moved",
            "Hi both, Fito's QBR now overlaps our meeting, so I moved it to Wednesday 29 April, 16:30-17:30 Madrid time.",
        ),
    ),
    ok(
        "one-mail-each-own-zone",
        "Same move; one mail per guest with the time in their own zone (16:30 Amsterdam, 10:30 am New York).",
        moved(MTG_0, "2026-04-29T16:30:00+02:00", "2026-04-29T17:30:00+02:00"),
        mail(
            [COLLIN],
            "Meeting moved",
            "Hi Collin, our meeting moves to Wednesday 29 April, 16:30-17:30 your time (Amsterdam).",
        ),
        mail(
            [STEPHEN],
            "Meeting moved",
            "Hi Stephen, our meeting moves to Wednesday 29 April, 10:30-11:30 am New York time.",
        ),
    ),
    ok(
        "utc-with-note",
        "Moves it with UTC times, notes the reason in the description, and says 'from Tuesday 15:00 to Wednesday 16:30'.",
        call("calendar__list_events", time_min="2026-04-28T00:00:00+02:00", time_max="2026-04-30T00:00:00+02:00"),
        call(
            "calendar__update_event",
            event_id=MTG_0,
            start="2026-04-29T14:30:00Z",
            end="2026-04-29T15:30:00Z",
            description="Agenda to follow. Moved from Tue 28 Apr because of the quarterly business review.",
        ),
        mail(
            [COLLIN, STEPHEN],
            "New time: Wednesday 29 April",
            "The meeting moved from Tuesday 15:00 to Wednesday 29 April, 16:30-17:30 CEST (10:30 in New York).",
        ),
    ),
    bad(
        "right-clock-wrong-zone",
        "Moves it to 16:30 New York time (22:30 in Madrid), outside my and Collin's hours.",
        call(
            "calendar__update_event",
            event_id=MTG_0,
            start="2026-04-29T16:30:00",
            end="2026-04-29T17:30:00",
            timezone="America/New_York",
        ),
        mail([COLLIN, STEPHEN], "Meeting moved", "Moved to Wednesday 29 April, 16:30-17:30."),
    ),
    bad(
        "same-day",
        "Keeps it on Tuesday 28 April (16:30) though the instruction asks for a time on Wednesday 29 April.",
        moved(MTG_0, "2026-04-28T16:30:00+02:00", "2026-04-28T17:30:00+02:00"),
        mail([COLLIN, STEPHEN], "Meeting moved", "Moved to Tuesday 28 April, 16:30-17:30."),
    ),
    bad(
        "no-mail",
        "Moves the meeting but never tells the guests.",
        moved(MTG_0, "2026-04-29T16:30:00+02:00", "2026-04-29T17:30:00+02:00"),
    ),
    bad(
        "declines-qbr-instead",
        "Declines Fito's QBR, which 'can't move' and must stay free, instead of moving my meeting.",
        decline("clash-2026-04-29-1500"),
        mail([COLLIN, STEPHEN], "Our meeting", "We keep our Tuesday 15:00 slot."),
    ),
    bad(
        "hedged-mail",
        "Moves it but tells the guests only 'probably Wednesday afternoon, I'll confirm'.",
        moved(MTG_0, "2026-04-29T16:30:00+02:00", "2026-04-29T17:30:00+02:00"),
        mail(
            [COLLIN, STEPHEN], "Meeting moving", "We'll probably move it to Wednesday afternoon; I'll confirm the time."
        ),
    ),
]

# -- reschedule-91437-00002: mtg (7 May 11:30 Lisbon, 30 min) -> 08:00-08:30 Lisbon same day; guests Gülay, José, Ross --

GULAY, JOSE, ROSS = "gulay.killer@dunn-calhoun.test", "jose.castro@dunn-calhoun.test", "ross.lewis@dunn-calhoun.test"
MTG_2 = "mtg-2026-05-07-1130"

RESCHEDULE_2 = [
    ok(
        "move-and-mail",
        "Moves the meeting to 08:00-08:30 Lisbon on 7 May (the only free half hour) and mails the three guests.",
        moved(MTG_2, "2026-05-07T08:00:00+01:00", "2026-05-07T08:30:00+01:00"),
        mail(
            [GULAY, JOSE, ROSS],
            "Total cohesive focus group moved to 08:00",
            "Hi all, the all-hands now overlaps our meeting, so I moved it to Thursday 7 May, 08:00-08:30 (Lisbon).",
        ),
    ),
    ok(
        "berlin-for-gulay",
        "Same move; one mail to all that gives '8 am Lisbon/London, 9 am Berlin'.",
        moved(MTG_2, "2026-05-07T08:00:00+01:00", "2026-05-07T08:30:00+01:00"),
        mail(
            [GULAY, JOSE, ROSS],
            "New time for Thursday's meeting",
            "Thursday's meeting is now at 8 am Lisbon/London time (9 am Berlin), 30 minutes, same Zoom.",
        ),
    ),
    ok(
        "reply-style-each",
        "Moves it written in Berlin time (09:00 Berlin) and mails each guest separately.",
        call(
            "calendar__update_event",
            event_id=MTG_2,
            start="2026-05-07T09:00:00",
            end="2026-05-07T09:30:00",
            timezone="Europe/Berlin",
        ),
        mail([GULAY], "Moved", "Gülay, our meeting is now 09:00-09:30 your time on Thursday 7 May."),
        mail([JOSE], "Moved", "José, our meeting is now 08:00-08:30 on Thursday 7 May."),
        mail([ROSS], "Moved", "Ross, our meeting is now 08:00-08:30 London time on Thursday 7 May."),
    ),
    bad(
        "right-clock-wrong-zone",
        "Moves it to 08:00 Berlin (07:00 Lisbon), before my working hours.",
        call(
            "calendar__update_event",
            event_id=MTG_2,
            start="2026-05-07T08:00:00",
            end="2026-05-07T08:30:00",
            timezone="Europe/Berlin",
        ),
        mail([GULAY, JOSE, ROSS], "Moved", "Moved to 08:00 on Thursday 7 May."),
    ),
    bad(
        "after-allhands-busy",
        "Moves it to 12:30 Lisbon, when José is busy and I have another meeting.",
        moved(MTG_2, "2026-05-07T12:30:00+01:00", "2026-05-07T13:00:00+01:00"),
        mail([GULAY, JOSE, ROSS], "Moved", "Moved to 12:30-13:00 on Thursday 7 May."),
    ),
    bad(
        "ross-not-told",
        "Moves it but mails only Gülay and José.",
        moved(MTG_2, "2026-05-07T08:00:00+01:00", "2026-05-07T08:30:00+01:00"),
        mail([GULAY, JOSE], "Moved", "Moved to 08:00-08:30 (Lisbon) on Thursday 7 May."),
    ),
    bad(
        "mail-old-time",
        "Moves it but the mail gives the old time (11:30) as the meeting time.",
        moved(MTG_2, "2026-05-07T08:00:00+01:00", "2026-05-07T08:30:00+01:00"),
        mail([GULAY, JOSE, ROSS], "Meeting", "Reminder: our meeting is on Thursday 7 May at 11:30."),
    ),
]

# -- travel-91437-00000: Kolkata offsite; travel Tue 23 June out, Thu 25 June back; reply to Alícia ---------------------

ALICIA = "alicia.barbosa@jacobs.test"
KOLKATA = "offsite-kolkata-2026-06-24"

TRAVEL_0 = [
    ok(
        "two-days-reply",
        "Blocks 23 and 25 June and replies to Alícia with those travel days.",
        day("Travel to Kolkata", "2026-06-23"),
        day("Travel back from Kolkata", "2026-06-25"),
        reply(KOLKATA, "Hi Alícia, I fly out on Tuesday 23 June and back on Thursday 25 June. Francisca"),
    ),
    ok(
        "reply-all-numeric-dates",
        "Blocks both days and replies to all (Edgar was in cc) with the dates as 23/06 and 25/06.",
        day("Kolkata offsite - travel day", "2026-06-23"),
        day("Kolkata offsite - travel day", "2026-06-25"),
        reply(KOLKATA, "Travel days confirmed: out on 23/06, back on 25/06.", reply_all=True),
    ),
    ok(
        "new-mail-timed-blocks",
        "Blocks both days as whole-day timed events and confirms by a new mail ('Tue Jun 23 and Thu Jun 25').",
        event("Flight to Kolkata", "2026-06-23T00:00:00+01:00", "2026-06-24T00:00:00+01:00"),
        event("Flight home from Kolkata", "2026-06-25T00:00:00+01:00", "2026-06-26T00:00:00+01:00"),
        mail(
            [ALICIA],
            "Kolkata offsite - my travel days",
            "Hi Alícia, my travel days are Tue Jun 23 (out) and Thu Jun 25 (back).",
        ),
    ),
    bad(
        "replies-to-upsell",
        "Blocks the days but sends the confirmation to the booking-deals mail instead of Alícia.",
        day("Travel to Kolkata", "2026-06-23"),
        day("Travel back from Kolkata", "2026-06-25"),
        reply("upsell-2026-06-24", "I travel on 23 June and back on 25 June."),
    ),
    bad(
        "offsite-day-only",
        "Blocks only the offsite day (24 June) and tells Alícia she travels that day (a misreading).",
        day("Kolkata", "2026-06-24"),
        reply(KOLKATA, "I travel on Wednesday 24 June."),
    ),
    bad(
        "hedged",
        "Blocks the days but tells Alícia 'probably the 23rd, return not decided yet'.",
        day("Travel to Kolkata", "2026-06-23"),
        day("Travel back from Kolkata", "2026-06-25"),
        reply(KOLKATA, "Probably flying out on the 23rd; not sure about the way back yet, I'll let you know."),
    ),
    bad(
        "no-calendar",
        "Confirms the days to Alícia but blocks nothing on the calendar.",
        reply(KOLKATA, "I travel on Tuesday 23 June and back on Thursday 25 June."),
    ),
]

# -- travel-91437-00001: New York offsite; travel Mon 5 Oct, back Wed 7 Oct; itinerary doc, TRAVEL request ---------------

ONVEER, TYLER, CINDY = "onveer.boase@williams.test", "tyler.alvarez@williams.test", "cindy.hodge@williams.test"
NY = "offsite-new-york-2026-10-06"
ITINERARY = (
    "# New York offsite - itinerary\n\n- Mon 5 Oct: fly to New York\n- Tue 6 Oct: offsite at White Forum, 286 Fox "
    "Shore Apt. 211, New York\n- Wed 7 Oct: fly back\n\nHotel: Hotel Scott (booked by the office).\n\n## Flights\n"
    "(add yours)\n"
)


def ny_trip(reply_body: str, *, editors: tuple[str, ...] = (ONVEER, TYLER), role: str = "editor") -> list[dict]:
    """Blocks, the itinerary shared with `editors`, the approval request for Cindy, and a reply to Onveer."""
    return [
        day("Travel to New York", "2026-10-05"),
        day("Travel back from New York", "2026-10-07"),
        doc("New York offsite itinerary", ITINERARY),
        [share("${doc.id}", p, role) for p in editors],
        ticket(
            "TRAVEL",
            "Travel approval: New York offsite 5-7 October",
            type="request",
            assignee=CINDY,
            description="Trip to the New York offsite, 5-7 October. Itinerary: ${doc.url}",
        ),
        reply(NY, reply_body),
    ]


TRAVEL_1 = [
    ok(
        "as-asked",
        "Days blocked, itinerary shared with Onveer and Tyler as editors, request for Cindy, link to Onveer.",
        call("docs__get_document", document_id="travel-policy"),
        ny_trip("Here's the itinerary: ${doc.url}"),
    ),
    ok(
        "reply-all-and-label",
        "Same, the reply goes to Onveer and Tyler; the request also carries a label.",
        day("NY offsite - outbound", "2026-10-05"),
        day("NY offsite - return", "2026-10-07"),
        doc("Itinerary - New York offsite (Oct 5-7)", ITINERARY),
        share("${doc.id}", TYLER, "editor"),
        share("${doc.id}", ONVEER, "editor"),
        ticket(
            "TRAVEL",
            "New York offsite travel approval",
            type="request",
            assignee=CINDY,
            labels=["travel"],
            description="Itinerary document: ${doc.url} (travel Mon 5 Oct, back Wed 7 Oct).",
        ),
        reply(NY, "Itinerary is ready, you both can edit it: ${doc.url}", reply_all=True),
    ),
    ok(
        "new-mail-and-comment",
        "Sends the link by a new mail and also comments the link on the approval ticket.",
        day("Travel to New York", "2026-10-05"),
        day("Travel back from New York", "2026-10-07"),
        doc("New York offsite itinerary", ITINERARY),
        share("${doc.id}", ONVEER, "editor"),
        share("${doc.id}", TYLER, "editor"),
        ticket(
            "TRAVEL",
            "Travel request: New York offsite",
            save="req",
            type="request",
            assignee=CINDY,
            description="Itinerary: ${doc.url}",
        ),
        comment("${req.key}", "Dates: out 5 Oct, back 7 Oct."),
        mail([ONVEER], "New York offsite itinerary", "Hi Onveer, the itinerary doc is here: ${doc.url}"),
    ),
    bad(
        "chicago-dates",
        "Blocks the old Chicago trip's days (22 and 24 August) instead of 5 and 7 October (stale information).",
        day("Travel", "2026-08-22"),
        day("Travel back", "2026-08-24"),
        doc("New York offsite itinerary", ITINERARY),
        share("${doc.id}", ONVEER, "editor"),
        share("${doc.id}", TYLER, "editor"),
        ticket("TRAVEL", "Travel approval", type="request", assignee=CINDY, description="Itinerary: ${doc.url}"),
        reply(NY, "Itinerary: ${doc.url}"),
    ),
    bad(
        "request-to-onveer",
        "The approval request is assigned to Onveer instead of the manager Cindy.",
        day("Travel to New York", "2026-10-05"),
        day("Travel back from New York", "2026-10-07"),
        doc("New York offsite itinerary", ITINERARY),
        share("${doc.id}", ONVEER, "editor"),
        share("${doc.id}", TYLER, "editor"),
        ticket("TRAVEL", "Travel approval", type="request", assignee=ONVEER, description="Itinerary: ${doc.url}"),
        reply(NY, "Itinerary: ${doc.url}"),
    ),
    bad(
        "shared-outside",
        "Also shares the itinerary with the outside booking-deals address, which the policy forbids.",
        ny_trip("Itinerary: ${doc.url}", editors=(ONVEER, TYLER, "deals@booking-deals.test")),
    ),
    bad(
        "viewers-only",
        "Shares the itinerary as viewers; Onveer asked for edit access.",
        ny_trip("Itinerary: ${doc.url}", role="viewer"),
    ),
    bad(
        "no-link-in-reply",
        "Replies to Onveer without the doc link.",
        ny_trip("The itinerary is done and shared with you."),
    ),
]
