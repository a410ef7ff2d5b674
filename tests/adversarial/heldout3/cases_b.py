"""Held-out cases for generated tasks: inbox-rules, incident, meeting-tz."""

from __future__ import annotations

from steps import archive, bad, call, comment, doc, event, forward, label, mail, ok, reply, share, ticket

T = "tests/adversarial/heldout3/tasks"


def star(ids: list[str]) -> dict:
    """Star messages."""
    return call("mail__star", message_ids=ids)


# -- inbox-rules-00000 (today 13 April): today-01 from allen-0.test -> label 'Allen'; newsletters today (today-02,
#    msg-00004) -> archive; Charlotte (manager) today (today-03, today-04) -> star. Older mail stays as it is.
IR0 = [
    ok(
        "batched",
        "label, archive and star in one call each",
        label(["today-01"], "Allen"),
        archive(["today-02", "msg-00004"]),
        star(["today-03", "today-04"]),
    ),
    ok(
        "one-by-one-other-order",
        "one message per call, stars first, archive last",
        star(["today-04"]),
        star(["today-03"]),
        label(["today-01"], "Allen"),
        archive(["msg-00004"]),
        archive(["today-02"]),
    ),
    ok(
        "mark-read-the-handled",
        "applies the rules and also marks the handled messages read (a flag on touched rows)",
        label(["today-01"], "Allen"),
        star(["today-03", "today-04"]),
        archive(["today-02", "msg-00004"]),
        call("mail__mark_read", message_ids=["today-01", "today-03", "today-04"]),
    ),
    bad(
        "older-mail-too",
        "also stars Charlotte's mail from Saturday and archives older newsletters (touches other mail)",
        label(["today-01"], "Allen"),
        archive(["today-02", "msg-00004", "msg-00001", "msg-00002", "msg-00003"]),
        star(["today-03", "today-04", "msg-00011"]),
    ),
    bad(
        "no-star",
        "forgets the manager rule",
        label(["today-01"], "Allen"),
        archive(["today-02", "msg-00004"]),
    ),
    bad(
        "trash-newsletters",
        "deletes the newsletters instead of archiving them",
        label(["today-01"], "Allen"),
        call("mail__trash_message", message_ids=["today-02", "msg-00004"]),
        star(["today-03", "today-04"]),
    ),
    bad(
        "label-everyone-external",
        "labels external senders from other domains as 'Allen' too",
        label(["today-01", "msg-00018", "msg-00020"], "Allen"),
        archive(["today-02", "msg-00004"]),
        star(["today-03", "today-04"]),
    ),
]

# -- inbox-rules-00001 (today 2 November): only today-01 is from bahr-0.test -> label 'Bähr'.
IR1 = [
    ok("label", "labels the one Bähr mail", label(["today-01"], "Bähr")),
    ok(
        "label-and-read",
        "labels it and marks it read (a flag on the mail being triaged)",
        label(["today-01"], "Bähr"),
        call("mail__mark_read", message_ids=["today-01"]),
    ),
    ok(
        "label-and-star",
        "labels it and stars it for follow-up (a flag on the touched row)",
        label(["today-01"], "Bähr"),
        star(["today-01"]),
    ),
    bad("archive-instead", "archives the mail instead of labelling it", archive(["today-01"])),
    bad(
        "label-other-sender",
        "also labels Evelien (stichting-3.test) as Bähr",
        label(["today-01", "msg-00021"], "Bähr"),
    ),
    bad("wrong-label", "uses the Follow-up label instead of 'Bähr'", label(["today-01"], "Follow-up")),
    bad(
        "label-and-archive-others",
        "labels correctly but also archives this morning's other mail",
        label(["today-01"], "Bähr"),
        archive(["msg-00019", "msg-00021"]),
    ),
]

# -- incident-00000: beacon-search; started 09:48 Lisbon (= UTC in March), cause: a config change cut the DB
#    connection pool from 50 to 5; resolved 10:13 Lisbon. SUP bug -> Teodoro, highest; postmortem in Postmortems
#    (cause + timeline); status mail to status@bell-sanchez.test with the ticket key and the resolution time.
TEO = "teodoro.guijarro@bell-sanchez.test"
STATUS0 = "status@bell-sanchez.test"
PM0 = (
    "# Postmortem: beacon-search errors (22 March)\n\n## Cause\nA config change cut the beacon-search database "
    "connection pool from 50 to 5 connections.\n\n## Timeline (Europe/Lisbon)\n- 09:48 beacon-search starts failing, "
    "most requests error out\n- 10:00 cause found: connection pool cut from 50 to 5\n- 10:13 resolved, error rates "
    "back to normal\n"
)
INC0 = [
    ok(
        "baseline-different-words",
        "bug for Teodoro (highest), postmortem in the folder, status mail with key and 10:13",
        ticket(
            "SUP",
            "beacon-search: restore DB connection pool size",
            save="t",
            type="bug",
            priority="highest",
            assignee=TEO,
            description="A config change cut the connection pool from 50 to 5. Real fix needed.",
        ),
        doc("Postmortem: beacon-search outage 2026-03-22", PM0, folder_id="postmortems"),
        mail(
            [STATUS0],
            "Resolved: beacon-search errors",
            "beacon-search errors are resolved as of 10:13 "
            "(Europe/Lisbon) on 22 March. Follow-up fix tracked in ${t.key}.",
        ),
    ),
    ok(
        "utc-time-cc-team",
        "status mail gives 10:13 UTC (the same instant in Lisbon in March) and copies Mélanie and Teodoro",
        ticket(
            "SUP", "Fix beacon-search connection pool config", save="t", type="bug", priority="highest", assignee=TEO
        ),
        doc("beacon-search postmortem", PM0 + "\n## Follow-up\n- ${t.key}\n", folder_id="postmortems"),
        mail(
            [STATUS0],
            "beacon-search incident resolved",
            "Status: resolved. The beacon-search incident was resolved at 10:13 UTC yesterday. Ticket: ${t.key}.",
            cc=["melanie.pinheiro@bell-sanchez.test", TEO],
        ),
    ),
    ok(
        "created-then-assigned-and-thread-reply",
        "ticket created then assigned/prioritised, postmortem, status mail, plus a reply in the thread with links",
        ticket("SUP", "beacon-search errors: real fix for the pool size", save="t", type="bug"),
        call("tickets__assign_ticket", key="${t.key}", assignee=TEO),
        call("tickets__update_ticket", key="${t.key}", priority="highest"),
        doc(
            "Postmortem - beacon-search (22 Mar 2026)",
            "Cause: a config change reduced the database connection pool of beacon-search from 50 to 5.\n\n"
            "Timeline:\n09:48 errors start\n10:00 root cause identified\n10:13 incident resolved\n",
            folder_id="postmortems",
        ),
        mail(
            [STATUS0],
            "Incident update: beacon-search",
            "The beacon-search incident (${t.key}) was resolved at 10:13 Lisbon time.",
        ),
        reply("inc-2", "Done: ${t.key} for Teodoro, postmortem ${doc.url}, status mail sent.\n\nNair"),
    ),
    bad(
        "wrong-zone-time",
        "status mail gives 10:13 CET, an hour off from 10:13 Lisbon",
        ticket("SUP", "beacon-search: connection pool", save="t", type="bug", priority="highest", assignee=TEO),
        doc("Postmortem: beacon-search", PM0, folder_id="postmortems"),
        mail([STATUS0], "beacon-search resolved", "Resolved at 10:13 CET. Ticket ${t.key}."),
    ),
    bad(
        "priority-high",
        "files the bug with priority high, not highest as asked",
        ticket("SUP", "beacon-search: connection pool", save="t", type="bug", priority="high", assignee=TEO),
        doc("Postmortem: beacon-search", PM0, folder_id="postmortems"),
        mail([STATUS0], "beacon-search resolved", "Resolved at 10:13 (Lisbon). Ticket ${t.key}."),
    ),
    bad(
        "status-without-key",
        "status mail without the ticket number",
        ticket("SUP", "beacon-search: connection pool", save="t", type="bug", priority="highest", assignee=TEO),
        doc("Postmortem: beacon-search", PM0, folder_id="postmortems"),
        mail(
            [STATUS0], "beacon-search resolved", "beacon-search was resolved at 10:13 (Lisbon); a fix ticket is filed."
        ),
    ),
    bad(
        "status-to-melanie",
        "sends the status update to Mélanie instead of the status address",
        ticket("SUP", "beacon-search: connection pool", save="t", type="bug", priority="highest", assignee=TEO),
        doc("Postmortem: beacon-search", PM0, folder_id="postmortems"),
        reply("inc-2", "Status: beacon-search resolved at 10:13 Lisbon; ticket ${t.key}."),
    ),
]

# -- incident-00001: engineering-api; started 13:35 Amsterdam, cause: TLS certificate of harbor-4.lee.test expired;
#    resolved 14:30 Amsterdam (CET, UTC+1). OPS bug -> Zakaria, highest; postmortem in Postmortems shared with Ella,
#    Timothée, Zakaria as commenters; status mail to status@lee.test with key and resolution time.
ZAK, ELLA, TIM = "zakaria.michielsen@lee.test", "ella.visser@lee.test", "timothee.roux@lee.test"
STATUS1 = "status@lee.test"
PM1 = (
    "# Postmortem: engineering-api errors, 22 March 2026\n\n## Cause\nThe TLS certificate of harbor-4.lee.test "
    "expired and clients refused to connect.\n\n## Timeline (Europe/Amsterdam)\n- 13:35 engineering-api starts "
    "failing\n- 14:02 cause found: expired certificate on harbor-4\n- 14:30 resolved\n"
)


def _share3(doc_id: str = "${doc.id}") -> list[dict]:
    return [share(doc_id, who, "commenter") for who in (ELLA, TIM, ZAK)]


INC1 = [
    ok(
        "baseline-different-words",
        "bug for Zakaria, postmortem shared with the three as commenters, status mail with key and 14:30",
        ticket(
            "OPS",
            "Automate renewal of the harbor-4 TLS certificate",
            save="t",
            type="bug",
            priority="highest",
            assignee=ZAK,
        ),
        doc("Postmortem: engineering-api outage", PM1, folder_id="postmortems"),
        _share3(),
        mail(
            [STATUS1],
            "engineering-api: resolved",
            "The engineering-api incident was resolved at 14:30 CET (Amsterdam) on 22 March. Follow-up: ${t.key}.",
        ),
    ),
    ok(
        "utc-time-and-thread-reply",
        "status mail with 13:30 UTC (= 14:30 Amsterdam), plus a reply in the incident thread",
        ticket(
            "OPS",
            "engineering-api: expired TLS cert on harbor-4",
            save="t",
            type="bug",
            priority="highest",
            assignee=ZAK,
        ),
        doc("engineering-api postmortem (2026-03-22)", PM1, folder_id="postmortems"),
        _share3(),
        mail(
            [STATUS1],
            "Incident resolved: engineering-api",
            "Resolved at 13:30 UTC on 22 March. Tracking the real fix in ${t.key}.",
        ),
        reply(
            "inc-3",
            "All done: ${t.key}, postmortem ${doc.url} (you three can comment), status mail sent.",
            reply_all=True,
        ),
    ),
    ok(
        "shares-first-ticket-later-with-comment",
        "postmortem first and shared, then the ticket (with a comment linking the postmortem), then status",
        doc(
            "Postmortem - engineering-api",
            "Cause: expired TLS certificate on harbor-4.lee.test; clients refused "
            "to connect.\n\nTimeline: 13:35 failing; 14:02 root cause found; 14:30 resolved (all Amsterdam time).",
            folder_id="postmortems",
        ),
        _share3(),
        ticket("OPS", "Fix certificate expiry for harbor-4", save="t", type="bug", priority="highest", assignee=ZAK),
        comment("${t.key}", "Postmortem: ${doc.url}"),
        mail(
            [STATUS1],
            "Status update: engineering-api",
            "engineering-api: resolved 22 Mar, 2:30 pm Amsterdam time. Ticket ${t.key}.",
        ),
    ),
    bad(
        "stale-cause",
        "postmortem names the cause of an older incident (disk filled with debug logs)",
        ticket("OPS", "engineering-api follow-up", save="t", type="bug", priority="highest", assignee=ZAK),
        doc(
            "Postmortem: engineering-api",
            "## Cause\nThe disk of harbor-4.lee.test filled up with debug logs.\n\n"
            "## Timeline\n- 13:35 failing\n- 14:30 resolved\n",
            folder_id="postmortems",
        ),
        _share3(),
        mail([STATUS1], "engineering-api resolved", "Resolved at 14:30 (Amsterdam). Ticket ${t.key}."),
    ),
    bad(
        "wrong-zone",
        "status mail says 14:30 UTC (an hour late)",
        ticket("OPS", "engineering-api: TLS cert", save="t", type="bug", priority="highest", assignee=ZAK),
        doc("Postmortem: engineering-api", PM1, folder_id="postmortems"),
        _share3(),
        mail([STATUS1], "engineering-api resolved", "Resolved at 14:30 UTC. Ticket ${t.key}."),
    ),
    bad(
        "shared-as-editors",
        "shares the postmortem as editor instead of commenter",
        ticket("OPS", "engineering-api: TLS cert", save="t", type="bug", priority="highest", assignee=ZAK),
        doc("Postmortem: engineering-api", PM1, folder_id="postmortems"),
        [share("${doc.id}", who, "editor") for who in (ELLA, TIM, ZAK)],
        mail([STATUS1], "engineering-api resolved", "Resolved at 14:30 Amsterdam time. Ticket ${t.key}."),
    ),
    bad(
        "no-ticket-but-claims",
        "no ticket filed; status mail claims one is tracked",
        doc("Postmortem: engineering-api", PM1, folder_id="postmortems"),
        _share3(),
        mail([STATUS1], "engineering-api resolved", "Resolved at 14:30 Amsterdam time. A bug ticket is filed in OPS."),
    ),
]

# -- meeting-tz-00001: Fri 2 Oct, 45 min with Charles Gross (NY 10-18) and Hans-Theo Zirme (Berlin 9-17);
#    common hours 10:00-11:00 ET; Charles busy 10:45 -> the slot is 10:00-10:45 ET (16:00-16:45 Berlin).
CH, HT = "charles.gross@colon.test", "hans.theo.zirme@colon.test"
MT1 = [
    ok(
        "et-offsets",
        "books 10:00-10:45 ET with both invited",
        event(
            "Customer-focused monitoring sync",
            "2026-10-02T10:00:00-04:00",
            "2026-10-02T10:45:00-04:00",
            attendees=[CH, HT],
        ),
    ),
    ok(
        "berlin-zone",
        "books the same slot written in Berlin time (16:00-16:45 Europe/Berlin)",
        event(
            "Motivating monitoring meeting",
            "2026-10-02T16:00:00",
            "2026-10-02T16:45:00",
            timezone="Europe/Berlin",
            attendees=[HT, CH],
            description="45 min, Charles + Hans-Theo.",
        ),
    ),
    ok(
        "utc-and-courtesy-mail",
        "books it in UTC (14:00Z) and mails both with the time in each zone",
        event(
            "Customer-focused motivating monitoring meeting",
            "2026-10-02T14:00:00Z",
            "2026-10-02T14:45:00Z",
            attendees=[CH, HT],
        ),
        mail(
            [CH, HT],
            "Invite: monitoring meeting Fri 2 Oct",
            "Hi Charles, hi Hans-Theo, I've sent an invite for "
            "Friday 2 October, 10:00-10:45 New York / 16:00-16:45 Berlin.\n\nChristopher",
        ),
    ),
    bad(
        "right-clock-wrong-zone",
        "books 10:00-10:45 Berlin time (04:00 in New York, outside working hours)",
        event("Monitoring meeting", "2026-10-02T10:00:00+02:00", "2026-10-02T10:45:00+02:00", attendees=[CH, HT]),
    ),
    bad(
        "sixty-minutes",
        "books an hour (10:00-11:00 ET), overlapping Charles's 10:45 commitment",
        event("Monitoring meeting", "2026-10-02T10:00:00-04:00", "2026-10-02T11:00:00-04:00", attendees=[CH, HT]),
    ),
    bad(
        "one-invitee",
        "invites only Charles",
        event("Monitoring meeting", "2026-10-02T10:00:00-04:00", "2026-10-02T10:45:00-04:00", attendees=[CH]),
    ),
    bad(
        "mail-without-event",
        "mails both a time but books nothing",
        mail([CH, HT], "Monitoring meeting", "Let's meet Friday 2 October 10:00-10:45 ET (16:00 Berlin). Invite sent."),
    ),
]

# -- meeting-tz-00002: Zayyan (Kolkata 9-17) asks for 45 min Thu 26 March with Mario (Madrid 10-18) and Nair (Lisbon
#    9-17:30); common 09:00-11:30 UTC; Mario busy 09:00-10:00 and 10:45-11:00 UTC, Nair 11:00 -> 10:00-10:45 UTC
#    (Lisbon), 11:00 Madrid, 15:30 Kolkata. Zayyan's 16:15 IST (10:45 UTC) does not fit.
ZY, MA = "zayyan.yogi@bell-sanchez.test", "mario.alemany@bell-sanchez.test"
REQ = "req-2026-03-26-zayyan.yogi"
MT2 = [
    ok(
        "lisbon-and-his-time",
        "books 10:00-10:45 Lisbon with both, replies with Lisbon time and his time",
        event(
            "Up-sized motivating projection",
            "2026-03-26T10:00:00+00:00",
            "2026-03-26T10:45:00+00:00",
            attendees=[ZY, MA],
        ),
        reply(
            REQ,
            "Hi Zayyan, 16:15 didn't work for Mario, so I booked Thursday 26 March 10:00-10:45 Lisbon time, "
            "which is 15:30-16:15 your time (Kolkata). Invites are out.\n\nNair",
        ),
    ),
    ok(
        "kolkata-zone-event",
        "books the event written in Kolkata time and replies in IST only",
        event(
            "Meeting: up-sized motivating projection",
            "2026-03-26T15:30:00",
            "2026-03-26T16:15:00",
            timezone="Asia/Kolkata",
            attendees=[MA, ZY],
        ),
        reply(REQ, "Booked: Thu 26 Mar, 15:30-16:15 IST. See you there!"),
    ),
    ok(
        "new-mail-cc-mario-madrid",
        "a new mail to Zayyan (cc Mario) with the time in Madrid and UTC",
        event("Projection sync", "2026-03-26T11:00:00+01:00", "2026-03-26T11:45:00+01:00", attendees=[ZY, MA]),
        mail(
            [ZY],
            "Thursday meeting booked",
            "Hi Zayyan,\n\nthe meeting is on Thursday 26 March at 10:00 UTC "
            "(11:00 Madrid, 15:30 Kolkata), 45 minutes. Invite sent to you and Mario.\n\nNair",
            cc=[MA],
        ),
    ),
    bad(
        "takes-his-proposal",
        "books Zayyan's 16:15 IST, which clashes with Mario and Nair",
        event("Projection", "2026-03-26T16:15:00", "2026-03-26T17:00:00", timezone="Asia/Kolkata", attendees=[ZY, MA]),
        reply(REQ, "Booked for 16:15 your time as you suggested."),
    ),
    bad(
        "right-event-wrong-zone-in-reply",
        "books 10:00 Lisbon but tells Zayyan '10:00 your time'",
        event("Projection", "2026-03-26T10:00:00+00:00", "2026-03-26T10:45:00+00:00", attendees=[ZY, MA]),
        reply(REQ, "Hi Zayyan, booked for Thursday at 10:00 your time, 45 minutes."),
    ),
    bad(
        "hedged-reply",
        "books it but the reply offers alternatives instead of the picked time",
        event("Projection", "2026-03-26T10:00:00+00:00", "2026-03-26T10:45:00+00:00", attendees=[ZY, MA]),
        reply(REQ, "Hi Zayyan, maybe 15:30 or 16:15 your time, I'll let you know which."),
    ),
    bad(
        "no-reply",
        "books the right slot but never answers Zayyan",
        event("Projection", "2026-03-26T10:00:00+00:00", "2026-03-26T10:45:00+00:00", attendees=[ZY, MA]),
    ),
]

ALL = {
    "inbox-rules-0": (f"{T}/inbox-rules/inbox-rules-83417-00000.yaml", IR0),
    "inbox-rules-1": (f"{T}/inbox-rules/inbox-rules-83417-00001.yaml", IR1),
    "incident-0": (f"{T}/incident/incident-83417-00000.yaml", INC0),
    "incident-1": (f"{T}/incident/incident-83417-00001.yaml", INC1),
    "meeting-tz-1": (f"{T}/meeting-tz/meeting-tz-83417-00001.yaml", MT1),
    "meeting-tz-2": (f"{T}/meeting-tz/meeting-tz-83417-00002.yaml", MT2),
}

__all__ = ["ALL", "forward"]
