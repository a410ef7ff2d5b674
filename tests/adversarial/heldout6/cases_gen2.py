"""Held-out round 6, generated tasks continued: incident-followup and offboard-handover (seed 71946, see cases_gen.py).

Written from each task's instruction and seed rows only (via brief.py), never from its checks.
"""

from __future__ import annotations

from round_steps import assign, bad, call, comment, doc, mail, moved, ok, reply, share, ticket

# -- incident-followup-v3-71946-00000 (clock Thu 7 May 2026 15:30 Johannesburg).
#    1. atlas-service incident (6 May): started 12:12, cause found 12:39 (a config change cut the database connection
#       pool from 50 to 5), resolved 13:07 (Johannesburg). Karoline asks: a COMP bug for the real fix, assigned to
#       Solveig, priority high; a postmortem doc in Postmortems (fld-postmortems) with cause and timeline, shared with
#       Karoline and Solveig as commenters; a status update to status@ with the ticket key and when it was resolved.
#    2. The Postmortem review (Mon 11 May 10:00-11:30) lands on my 'Statement generator walkthrough' (evt-00001,
#       10:30-11:00, with Nqobizitha and Thembeka). Same day, 30 min, working hours (Mnqobi 09-17, Nqobizitha 10-18,
#       Thembeka 08-16): Nqobizitha is busy 10-15, Mnqobi 12:30-13:00 and 16:00-16:45, Thembeka 15:30-16:00 - the one
#       slot is 15:00-15:30.
#    3. Lisa (SUP-1): the fix ships with the release on Thursday 14 May; workaround: switch on 'Batch mode' under
#       Settings > Business credit line. The root cause, the 12 other accounts and the goodwill credit are internal.
#       Then a comment on SUP-1.

IF = "basalt-cove-capital.test"
KAROLINE, SOLVEIG, STATUS = f"karoline.nygard@{IF}", f"solveig.engen@{IF}", f"status@{IF}"
NQOB, THEMB = f"nqobizitha.phungula@{IF}", f"thembeka.dlamane@{IF}"
IF_READS = [
    call("mail__get_message", message_id="msg-00021"),
    call("mail__get_message", message_id="msg-00027"),
    call("mail__get_message", message_id="msg-00028"),
    call("mail__get_message", message_id="msg-00016"),
    call("tickets__get_ticket", key="SUP-1"),
    call("calendar__get_event", event_id="evt-00001"),
    call(
        "calendar__get_free_busy",
        emails=[NQOB, THEMB],
        time_min="2026-05-11T08:00:00+02:00",
        time_max="2026-05-11T18:00:00+02:00",
    ),
]
PM_TEXT = (
    "# Postmortem: atlas-service errors (6 May 2026)\n\n## Summary\nMost atlas-service requests failed for 55 minutes."
    "\n\n## Cause\nA config change cut the atlas-service database connection pool from 50 to 5 connections.\n\n"
    "## Timeline (Africa/Johannesburg)\n| Time | Event |\n|---|---|\n| 12:12 | atlas-service starts failing |\n"
    "| 12:39 | Cause found: connection pool cut from 50 to 5 |\n| 13:07 | Resolved, error rates back to normal |\n\n"
    "## Follow-up\n- ${bug.key}: real fix (owner Solveig Engen)\n"
)


def if_bug(**more) -> dict:
    return ticket(
        "COMP",
        more.pop("title", "atlas-service: config change cut DB connection pool from 50 to 5"),
        save="bug",
        type="bug",
        priority=more.pop("priority", "high"),
        assignee=more.pop("assignee", SOLVEIG),
        description=more.pop(
            "description",
            "Incident of 6 May: a config change cut the atlas-service database connection pool from 50 to 5 "
            "connections. Real fix: restore the pool size and guard the config.",
        ),
        **more,
    )


def if_pm(content: str = PM_TEXT, role: str = "commenter") -> list[dict]:
    return [
        doc("Postmortem: atlas-service errors (6 May)", content, save="pm", folder_id="fld-postmortems"),
        share("${pm.id}", KAROLINE, role),
        share("${pm.id}", SOLVEIG, role),
    ]


def if_status(body: str = "") -> dict:
    return mail(
        [STATUS],
        "Resolved: atlas-service errors",
        body
        or "atlas-service incident of 6 May: resolved at 13:07 (Africa/Johannesburg). Cause: a config change cut the "
        "database connection pool from 50 to 5. The real fix is tracked in ${bug.key}.",
    )


IF_MOVE = moved("evt-00001", "2026-05-11T15:00:00+02:00", "2026-05-11T15:30:00+02:00")


def if_guests(body: str = "") -> dict:
    return mail(
        [NQOB, THEMB],
        "Statement generator walkthrough moved to 15:00",
        body
        or "Hi Nqobizitha, hi Thembeka,\n\nthe Postmortem review now takes Monday 11 May 10:00-11:30, so I've moved "
        "our Statement generator walkthrough to Monday 11 May, 15:00-15:30.\n\nMnqobi",
    )


def if_lisa(body: str = "") -> dict:
    return reply(
        "msg-00016",
        body
        or "Hi Lisa,\n\nthe fix for SUP-1 ships with our release on Thursday 14 May. Until then, you can switch on "
        "'Batch mode' under Settings > Business credit line, which avoids the wrong totals.\n\nBest regards,\nMnqobi",
    )


IF_SUP = comment(
    "SUP-1", "Updated Lisa Lindsey (Evergreen Meadow Family Office): fix date 14 May and the Batch mode workaround."
)

INCIDENT = [
    ok(
        "in-order-plain",
        "All three parts in order: COMP bug (Solveig, high), postmortem in Postmortems shared as commenters, status "
        "mail with key and 13:07; walkthrough to 15:00-15:30; Lisa told 14 May and Batch mode; SUP-1 comment.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status(),
        IF_MOVE,
        if_guests(),
        if_lisa(),
        IF_SUP,
    ),
    ok(
        "customer-first-bullets",
        "Answers Lisa first with bold-label bullets, then the incident and the move; guests get per-person lines.",
        IF_READS,
        if_lisa(
            "Hi Lisa,\n\nthanks for checking in. Here's where SUP-1 stands:\n\n- **Fix:** ships with the release on "
            "Thursday, 14 May\n- **Workaround until then:** switch on 'Batch mode' under Settings > Business credit "
            "line\n\nKind regards,\nMnqobi"
        ),
        IF_SUP,
        if_bug(),
        if_pm(),
        if_status(
            "**Status: resolved**\n\n- Service: atlas-service\n- Started: 6 May, 12:12 SAST\n- Resolved: 6 May, "
            "13:07 SAST\n- Follow-up ticket: ${bug.key}"
        ),
        IF_MOVE,
        if_guests(
            "Hi both,\n\nmoving our walkthrough because of the Postmortem review:\n\n- ~~10:30-11:00~~ cancelled\n"
            "- **new:** Mon 11 May, 15:00-15:30 (Johannesburg)\n\nThanks,\nMnqobi"
        ),
    ),
    ok(
        "tables-and-words",
        "Same work; the status mail is a table, the guest mail gives the time in words, Lisa's reply in 12-hour time.",
        IF_READS,
        if_bug(title="atlas-service DB connection pool reduced to 5 by config change"),
        if_pm(),
        if_status(
            "| Item | Value |\n|---|---|\n| Incident | atlas-service errors |\n| Resolved | 6 May 2026, 13:07 "
            "(Africa/Johannesburg) |\n| Ticket | ${bug.key} |\n| Cause | DB connection pool cut from 50 to 5 |"
        ),
        IF_MOVE,
        if_guests(
            "Hi Nqobizitha and Thembeka,\n\nour walkthrough on Monday the eleventh now runs from three to half past "
            "three in the afternoon - the postmortem review took its morning slot.\n\nMnqobi"
        ),
        if_lisa(
            "Dear Lisa,\n\nthe fix ships in the release on Thursday May 14. In the meantime, please turn on 'Batch "
            "mode' (Settings > Business credit line).\n\nRegards,\nMnqobi"
        ),
        IF_SUP,
    ),
    ok(
        "outlook-quote-lisa",
        "Same work (UTC arguments for the move); Lisa's reply quotes her mail Outlook-style; terse status line.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status("atlas-service: resolved 6 May 13:07 SAST. Fix tracked in ${bug.key}."),
        moved("evt-00001", "2026-05-11T13:00:00Z", "2026-05-11T13:30:00Z"),
        if_guests("Walkthrough moved to Mon 11 May 15:00-15:30 (SAST) - the postmortem review clashed. Mnqobi"),
        if_lisa(
            "Hi Lisa,\n\nthe fix ships on Thursday 14 May; until then switch on 'Batch mode' under Settings > "
            "Business credit line.\n\nMnqobi\n\n________________________________\nFrom: Lisa Lindsey\nSent: Thursday, "
            "May 7, 2026 2:55 PM\nSubject: Re: Business credit line shows wrong totals after the last release\n\n"
            "> any news on SUP-1? When will it be fixed, and is there anything we can do in the meantime?"
        ),
        IF_SUP,
    ),
    ok(
        "german-dates-two-guest-mails",
        "Same work; the guests get one mail each, with German-style dates (Mo., 11.05., 15:00-15:30 Uhr).",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status(),
        IF_MOVE,
        mail([NQOB], "Walkthrough neu", "Hi Nqobizitha, neuer Termin: Mo., 11.05., 15:00-15:30 Uhr. Mnqobi"),
        mail([THEMB], "Walkthrough neu", "Hi Thembeka, neuer Termin: Mo., 11.05., 15:00-15:30 Uhr. Mnqobi"),
        if_lisa(),
        IF_SUP,
    ),
    ok(
        "caveat-next-to-fact",
        "Same work; the status mail puts the cause next to the resolution time and the SUP-1 comment is terse.",
        IF_READS,
        if_pm(PM_TEXT.replace("${bug.key}", "COMP ticket (to follow)")),
        if_bug(),
        if_status(
            "Update: atlas-service is resolved since 13:07 on 6 May (Johannesburg) - the errors came from a config "
            "change that shrank the DB connection pool to 5; restoring it is ${bug.key}."
        ),
        IF_MOVE,
        if_guests(),
        if_lisa(),
        comment("SUP-1", "Customer updated (fix date + workaround)."),
    ),
    bad(
        "leaks-internal",
        "Everything done, but Lisa is told the internal root cause, the 12 other accounts and the goodwill credit.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status(),
        IF_MOVE,
        if_guests(),
        if_lisa(
            "Hi Lisa,\n\nthe fix ships on Thursday 14 May; until then switch on 'Batch mode' under Settings > "
            "Business credit line. The cause was an expired service credential in our document vault service; 12 "
            "other accounts are affected, and we can offer a goodwill credit of up to EUR 300.\n\nMnqobi"
        ),
        IF_SUP,
    ),
    bad(
        "wrong-fix-date",
        "Tells Lisa the fix ships on Tuesday 12 May (another customer's due date); the ticket says 14 May.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status(),
        IF_MOVE,
        if_guests(),
        if_lisa(
            "Hi Lisa,\n\nthe fix ships on Tuesday 12 May; meanwhile switch on 'Batch mode' under Settings > "
            "Business credit line.\n\nMnqobi"
        ),
        IF_SUP,
    ),
    bad(
        "guests-busy-slot",
        "Moves the walkthrough to 14:00-14:30, when Nqobizitha is busy.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status(),
        moved("evt-00001", "2026-05-11T14:00:00+02:00", "2026-05-11T14:30:00+02:00"),
        if_guests("Hi both, the walkthrough moves to Monday 11 May, 14:00-14:30. Mnqobi"),
        if_lisa(),
        IF_SUP,
    ),
    bad(
        "editors-and-medium",
        "Postmortem shared as editors and the bug left at medium priority (Karoline asked commenters and high).",
        IF_READS,
        if_bug(priority="medium"),
        if_pm(role="editor"),
        if_status(),
        IF_MOVE,
        if_guests(),
        if_lisa(),
        IF_SUP,
    ),
    bad(
        "stale-resolution-time",
        "Status update says resolved at 12:37 (the beacon-search incident's time), not 13:07.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status("atlas-service incident: resolved at 12:37 (Africa/Johannesburg). Ticket: ${bug.key}."),
        IF_MOVE,
        if_guests(),
        if_lisa(),
        IF_SUP,
    ),
]


# -- offboard-handover-v3-71946-00000 (clock Tue 3 Nov 2026 12:00 Toronto). Gordon's open tickets: FUND-7 (blocked) and
#    PROG-11 (in review) -> John Lee. My documents Gordon can edit: doc-00001 only -> John as editor. Gordon's meetings
#    after Fri 6 November: evt-00009 (Sat 7 Nov) and evt-00010 (Sun 8 Nov), both organised by Gordon -> declined; the
#    Fern Mill call (5 Nov) stays. Design doc doc-00006's three unresolved comments -> FUND tickets owned by their
#    authors (cmt-00002 Patrick Hall, cmt-00001 Scott Lewis, cmt-00003 Jesse Clark), then each comment resolved.

OH = "bramble-creek-foundation.test"
JOHN, PATRICK, SCOTT, JESSE = f"john.lee@{OH}", f"patrick.hall@{OH}", f"scott.lewis@{OH}", f"jesse.clark@{OH}"
OH_READS = [
    call("tickets__search_tickets", assignee=f"gordon.velasquez@{OH}"),
    call("docs__search_documents", query=""),
    call("calendar__list_events", time_min="2026-11-07T00:00:00-05:00", time_max="2026-12-31T00:00:00-05:00"),
    call("docs__list_comments", document_id="doc-00006"),
]
OH_HANDOVER = [
    assign("FUND-7", JOHN),
    assign("PROG-11", JOHN),
    share("doc-00001", JOHN, "editor"),
    call("calendar__respond_to_event", event_id="evt-00009", response="declined"),
    call("calendar__respond_to_event", event_id="evt-00010", response="declined"),
]
COMMENTS = [
    ("cmt-00002", PATRICK, "Add alerting to the donor database", "The donor database has no alerting yet."),
    (
        "cmt-00001",
        SCOTT,
        "Load tests for the receipt generator",
        "Load tests needed before the receipt generator ships.",
    ),
    (
        "cmt-00003",
        JESSE,
        "On-call runbook and owner for the shift rota",
        "The shift rota needs an owner and a runbook.",
    ),
]


def oh_comment_tickets(resolve: bool = True, project: str = "FUND", owner: str | None = None, skip: int = -1):
    out: list[dict] = []
    for i, (cid, author, title, desc) in enumerate(COMMENTS):
        if i == skip:
            continue
        out.append(
            ticket(
                project,
                title,
                save=f"c{i}",
                assignee=owner or author,
                description=desc + " From a comment on 'Design doc: Gala run sheet'.",
            )
        )
        if resolve:
            out.append(call("docs__resolve_comment", comment_id=cid))
    return out


OFFBOARD = [
    ok(
        "handover-then-comments",
        "Both open tickets to John, doc-00001 shared with John as editor, the two post-6-Nov meetings declined, three "
        "FUND tickets owned by the comment authors, each comment resolved after its ticket.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(),
    ),
    ok(
        "comments-first-with-replies",
        "Comments first (each gets a reply naming its ticket, then resolved), then the handover in another order.",
        OH_READS,
        [
            [
                ticket("FUND", title, save=f"c{i}", assignee=author, description=desc, type="task"),
                call("docs__reply_to_comment", comment_id=cid, body="Tracked as ${c" + str(i) + ".key}."),
                call("docs__resolve_comment", comment_id=cid),
            ]
            for i, (cid, author, title, desc) in enumerate(COMMENTS)
        ],
        call("calendar__respond_to_event", event_id="evt-00010", response="declined"),
        call("calendar__respond_to_event", event_id="evt-00009", response="declined"),
        share("doc-00001", JOHN, "editor"),
        assign("PROG-11", JOHN),
        assign("FUND-7", JOHN),
    ),
    ok(
        "handover-mail-table",
        "Same work; also mails John a markdown table of what he now owns.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(),
        mail(
            [JOHN],
            "Handover from Gordon",
            "Hi John,\n\nGordon's last day is Friday 6 November, so his work moves to you:\n\n| Item | What |\n|---|---|"
            "\n| FUND-7 | Document the gift aid export workaround (blocked) |\n| PROG-11 | Shift rota drops gift aid "
            "declarations (in review) |\n| Doc | Document the volunteer signup form workaround - you can edit it now |"
            "\n\nThanks,\nAaron",
        ),
    ),
    ok(
        "reassign-with-comments",
        "Same work; reassignments carry a comment on each ticket, comment tickets are typed as tasks with labels.",
        OH_READS,
        assign("FUND-7", JOHN),
        comment("FUND-7", "Reassigned to John Lee: Gordon Velasquez leaves on Friday 6 November."),
        assign("PROG-11", JOHN),
        comment("PROG-11", "Handed over to John Lee (Gordon's last day: Fri 6 Nov)."),
        share("doc-00001", JOHN, "editor"),
        call("calendar__respond_to_event", event_id="evt-00009", response="declined"),
        call("calendar__respond_to_event", event_id="evt-00010", response="declined"),
        oh_comment_tickets(),
    ),
    ok(
        "terse-update-tickets",
        "Same work, with update_ticket calls on the new tickets to link the design doc; no mails.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(),
        [
            call(
                "tickets__update_ticket", key="${c" + str(i) + ".key}", description=desc + " Source: doc-00006 comment."
            )
            for i, (_, _, _, desc) in enumerate(COMMENTS)
        ],
    ),
    ok(
        "gordon-told-in-words",
        "Same work; a short mail to Gordon and John in words ('after Friday the sixth') about the declined meetings.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(),
        mail(
            [JOHN, f"gordon.velasquez@{OH}"],
            "Handover",
            "Hi Gordon, hi John - Gordon's two open tickets are now John's, John can edit the volunteer signup "
            "workaround doc, and I've declined Gordon's meetings after Friday the sixth (the 7th and 8th). Aaron",
        ),
    ),
    bad(
        "cancels-fern-mill-call",
        "Also cancels the Fern Mill Partners call on Thursday 5 November (before Gordon's last day, with two others).",
        OH_READS,
        OH_HANDOVER,
        call("calendar__cancel_event", event_id="evt-00002"),
        oh_comment_tickets(),
    ),
    bad(
        "comment-tickets-to-me",
        "Comment tickets all assigned to Aaron instead of the comment authors.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(owner=f"aaron.craig@{OH}"),
    ),
    bad(
        "one-comment-missed",
        "Only two of the three comments become tickets; the shift-rota comment is resolved without one.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(skip=2),
        call("docs__resolve_comment", comment_id="cmt-00003"),
    ),
    bad(
        "viewer-and-one-ticket",
        "John gets only viewer access and PROG-11 stays with Gordon.",
        OH_READS,
        assign("FUND-7", JOHN),
        share("doc-00001", JOHN, "viewer"),
        call("calendar__respond_to_event", event_id="evt-00009", response="declined"),
        call("calendar__respond_to_event", event_id="evt-00010", response="declined"),
        oh_comment_tickets(),
    ),
    bad(
        "wrong-project-unresolved",
        "Comment tickets filed in PROG instead of FUND and the comments left unresolved.",
        OH_READS,
        OH_HANDOVER,
        oh_comment_tickets(resolve=False, project="PROG"),
    ),
]
