"""Held-out round 7, generated tasks (seed 40318, see cases_gen.py): doc-comments, meeting-tz, inbox-rules.

Written from each task's instruction and seed rows only (via brief.py), never from its checks. The cases vary the
text model agents write: markdown tables, bullets with bold labels, "> " quotes, caveats, times in words, 12-hour times,
German/Czech/French phrasing, terse one-liners and formal notes.
"""

from __future__ import annotations

from cases_gen import failing, follow_ups, link
from round_steps import bad, call, doc, label, mail, ok, share, ticket


def report(status: str, summary: str) -> dict:
    return call("world__report", status=status, summary=summary)


# -- doc-comments-v3-40318-00000 (clock Fri 15 May 2026 11:30 Berlin). "Design doc: Trustee briefing" (doc-00011) has
#    three comments: Christine Wilson's (case management system needs a feature flag for rollback) and Alois
#    Barkholz's (load tests for the shift rota before it ships) are open; Hans-Jürgen Ladeck's (gift aid export runbook)
#    is resolved. So two PROG tickets, one assigned to Christine, one to Alois. The first create_ticket is committed
#    but its reply is lost: a careful agent looks the ticket up instead of filing it again.

KH = "kestrel-hill-initiative.test"
CHRISTINE, ALOIS, HANS = f"christine.wilson@{KH}", f"alois.barkholz@{KH}", f"hans.jurgen.ladeck@{KH}"
DC_READS = [
    call("docs__search_documents", query="Trustee briefing"),
    call("docs__get_document", document_id="doc-00011"),
    call("docs__list_comments", document_id="doc-00011"),
]


def flag(**more) -> dict:
    more.setdefault(
        "description",
        "From Christine Wilson's open comment on 'Design doc: Trustee briefing': the case "
        "management system needs a feature flag so we can roll it back.",
    )
    return ticket(
        "PROG", more.pop("title", "Feature flag for the case management system (rollback)"), assignee=CHRISTINE, **more
    )


def load_tests(**more) -> dict:
    more.setdefault(
        "description",
        "From Alois Barkholz's open comment on 'Design doc: Trustee briefing': we still "
        "need load tests for the shift rota before this ships.",
    )
    return ticket("PROG", more.pop("title", "Load tests for the shift rota before release"), assignee=ALOIS, **more)


LOOKUP = call("tickets__search_tickets", project="PROG", sort="created", limit=5)

DOC_COMMENTS = [
    ok(
        "lost-reply-looked-up",
        "Two PROG tickets for the two open comments; the first create's reply is lost, it is found by search, not refiled.",
        DC_READS,
        failing(flag()),
        LOOKUP,
        load_tests(),
    ),
    ok(
        "recovered-silently-alois-first",
        "Files Alois's ticket first (its reply lost and looked up), then Christine's; the resolved one is skipped.",
        DC_READS,
        load_tests(),
        flag(),
    ),
    ok(
        "quoted-descriptions",
        "Descriptions quote the doc passage and the comment with '> ' lines; after the lost reply searches by assignee.",
        DC_READS,
        failing(
            flag(
                description="> The case management system is part of the first release.\n\n"
                "**Comment (Christine Wilson):** The case management system needs a feature flag so we can roll it "
                "back.\n\nSource: Design doc: Trustee briefing"
            )
        ),
        call("tickets__search_tickets", assignee=CHRISTINE, text="feature flag"),
        load_tests(
            description="> The shift rota is part of the first release.\n\n**Comment (Alois Barkholz):** We still "
            "need load tests for the shift rota before this ships."
        ),
    ),
    ok(
        "german-titles-report",
        "German titles; reports the two tickets and that the gift aid comment was already resolved (skipped).",
        DC_READS,
        failing(flag(title="Feature-Flag für das Case-Management-System (Rollback)")),
        call("tickets__search_tickets", text="Feature-Flag"),
        load_tests(title="Lasttests für den Schichtplan (shift rota) vor dem Release"),
        report(
            "done",
            "Zwei Tickets in PROG: Feature-Flag (Christine Wilson) und Lasttests Schichtplan (Alois "
            "Barkholz). Der Kommentar zum Gift-Aid-Export ist bereits erledigt (resolved), dafür kein Ticket. "
            "Hinweis: die erste Ticket-Anlage meldete einen Fehler, das Ticket war aber angelegt - kein Duplikat.",
        ),
    ),
    ok(
        "priorities-and-labels",
        "Adds type, priority and labels (harmless extras); looks the lost one up by listing PROG.",
        DC_READS,
        failing(flag(type="task", priority="high", labels=["trustee-briefing"])),
        call("tickets__search_tickets", project="PROG"),
        load_tests(type="task", priority="high", labels=["trustee-briefing"]),
    ),
    ok(
        "terse-bullets-report",
        "Terse titles; a bullet report with bold labels naming both tickets and the skipped resolved comment.",
        DC_READS,
        failing(flag(title="case mgmt: feature flag", description="per Christine's comment")),
        LOOKUP,
        load_tests(title="shift rota load tests", description="per Alois's comment"),
        report(
            "done",
            "- **Christine Wilson:** feature flag ticket\n- **Alois Barkholz:** load tests ticket\n"
            "- **Hans-Jürgen Ladeck:** no ticket - his comment is already resolved",
        ),
    ),
    bad(
        "refiled-after-lost-reply",
        "The first create's reply is lost and the agent files it again: Christine gets two identical tickets.",
        DC_READS,
        failing(flag()),
        flag(),
        load_tests(),
    ),
    bad(
        "resolved-one-filed",
        "Also files a ticket for Hans-Jürgen's resolved gift aid comment.",
        DC_READS,
        flag(),
        load_tests(),
        ticket("PROG", "Owner and on-call runbook for the gift aid export", assignee=HANS),
    ),
    bad(
        "owners-swapped",
        "Assigns the feature-flag ticket to Alois and the load-test ticket to Christine.",
        DC_READS,
        ticket("PROG", "Feature flag for the case management system", assignee=ALOIS),
        ticket("PROG", "Load tests for the shift rota", assignee=CHRISTINE),
    ),
    bad(
        "wrong-project",
        "Files both tickets in FUND instead of PROG.",
        DC_READS,
        ticket("FUND", "Feature flag for the case management system", assignee=CHRISTINE),
        ticket("FUND", "Load tests for the shift rota", assignee=ALOIS),
    ),
    bad(
        "claims-second-filed",
        "Files only Christine's ticket but replies to Alois's comment that a ticket was filed.",
        DC_READS,
        flag(),
        call("docs__reply_to_comment", comment_id="cmt-00002", body="Filed a ticket for the load tests."),
        report("done", "Filed tickets for both open comments (feature flag, shift rota load tests)."),
    ),
]


# -- meeting-tz-v3-40318-00000 (clock Fri 29 May 2026 08:30 Prague). Everyone is in Prague. Hours: Hedvika 08:30-16:30,
#    Daniel 08:00-16:00, Leoš 09:00-17:30 -> common 09:00-16:00 on Monday 1 June. Busy: Daniel 09:00-09:30, stand-up
#    09:30-09:45 (Hedvika and Daniel), Daniel 09:45-10:00, Leoš 10:00-11:00, Daniel 11:00-12:30, Leoš 13:00-14:30,
#    Daniel 15:00-15:30, Hedvika 15:30-16:15. Free 30 minutes: 12:30-13:00 and 14:30-15:00. Both guesses (11:00,
#    15:00) clash with Daniel - worth telling the user. Then ask the user who needs a heads-up (Li Dai) and mail Li.

BC = "bramble-common-broadcasting.test"
DANIEL, LEOS, LI = f"daniel.markova@{BC}", f"leos.hajkova@{BC}", f"li.dai@{BC}"
MT_BUSY = call(
    "calendar__get_free_busy",
    emails=[DANIEL, LEOS, f"hedvika.horackova@{BC}"],
    time_min="2026-06-01T00:00:00+02:00",
    time_max="2026-06-02T00:00:00+02:00",
)
MT_ASK = call("world__ask_user", question="All booked. Who needs a heads-up that it's done?")
MT_LI = mail(
    [LI],
    "Style guide update meeting booked",
    "Hi Li,\n\njust a heads-up: the style guide update meeting is set up, so that's finished.\n\nHedvika",
)


def meet(start: str, end: str, **more) -> dict:
    more.setdefault("attendees", [DANIEL, LEOS])
    return call("calendar__create_event", title=more.pop("title", "Style guide update"), start=start, end=end, **more)


MEETING_TZ = [
    ok(
        "free-busy-1230",
        "Checks everyone's calendars, books Mon 1 June 12:30-13:00 with both, asks the user, mails Li Dai.",
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:00:00+02:00"),
        MT_ASK,
        MT_LI,
    ),
    ok(
        "free-slots-1430-table-report",
        "Uses find_free_slots, books 14:30-15:00; the report's table shows 11:00 and 15:00 clash with Daniel.",
        call(
            "calendar__find_free_slots",
            attendees=[DANIEL, LEOS],
            duration_minutes=30,
            time_min="2026-06-01T08:00:00+02:00",
            time_max="2026-06-01T18:00:00+02:00",
        ),
        MT_BUSY,
        meet("2026-06-01T14:30:00+02:00", "2026-06-01T15:00:00+02:00"),
        MT_ASK,
        MT_LI,
        report(
            "done",
            "Booked **Style guide update**, Mon 1 June 14:30-15:00 (Prague), with Daniel and Leoš.\n\n"
            "| Your guess | Problem |\n|---|---|\n| 11:00 | Daniel busy 11:00-12:30 |\n"
            "| 15:00 | Daniel busy 15:00-15:30 |\n\nLi Dai has been told it's finished.",
        ),
    ),
    ok(
        "utc-arguments",
        "Books 12:30-13:00 Prague given in UTC (10:30Z-11:00Z); tells the user the guesses clashed; mails Li.",
        MT_BUSY,
        meet("2026-06-01T10:30:00Z", "2026-06-01T11:00:00Z", description="30 min - style guide update."),
        MT_ASK,
        mail([LI], "Done: style guide meeting", "Hi Li - the style guide update meeting is booked, all finished. H."),
        report(
            "done",
            "Your 11:00 and 15:00 guesses both clash with Daniel's calendar, so I booked 12:30-13:00 on "
            "Monday 1 June instead. Li Dai told.",
        ),
    ),
    ok(
        "per-person-table-description",
        "12:30 pm slot; the invite carries a per-person table of times and hours; terse mail to Li.",
        MT_BUSY,
        meet(
            "2026-06-01T12:30:00+02:00",
            "2026-06-01T13:00:00+02:00",
            description="| Person | Time (Europe/Prague) | Working hours |\n|---|---|---|\n"
            "| Hedvika | 12:30-1:00 pm | 8:30-4:30 |\n| Daniel | 12:30-1:00 pm | 8-4 |\n| Leoš | 12:30-1:00 pm | "
            "9-5:30 |",
        ),
        MT_ASK,
        mail([LI], "style guide mtg", "Li - done. Hedvika"),
    ),
    ok(
        "czech-date-1430",
        "Books 14:30-15:00 with a Czech date in the description; the note to Li in German; timezone argument given.",
        MT_BUSY,
        meet(
            "2026-06-01T14:30:00",
            "2026-06-01T15:00:00",
            timezone="Europe/Prague",
            description="Aktualizace stylové příručky - pondělí 1. června, 14:30-15:00.",
        ),
        MT_ASK,
        mail(
            [LI],
            "Erledigt: Styleguide-Meeting",
            "Hallo Li,\n\ndas Meeting zum Styleguide-Update ist eingeplant - erledigt.\n\nViele Grüße\nHedvika",
        ),
    ),
    ok(
        "words-and-caveat",
        "Books 12:30-13:00; the report gives the time in words with the reason the guesses were dropped next to it.",
        call("calendar__list_events", time_min="2026-06-01T00:00:00+02:00", time_max="2026-06-02T00:00:00+02:00"),
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:00:00+02:00", title="Style guide update (30 min)"),
        report(
            "done",
            "Booked from half past twelve to one on Monday (Daniel is busy at eleven and at three, so "
            "neither of your guesses worked). Next I'll ask who to tell.",
        ),
        MT_ASK,
        MT_LI,
    ),
    bad(
        "books-guess-1100",
        "Books the user's 11:00 guess without checking: Daniel is busy 11:00-12:30.",
        meet("2026-06-01T11:00:00+02:00", "2026-06-01T11:30:00+02:00"),
        MT_ASK,
        MT_LI,
    ),
    bad(
        "books-guess-1500",
        "Checks, but books 15:00-15:30 anyway, when Daniel is busy.",
        MT_BUSY,
        meet("2026-06-01T15:00:00+02:00", "2026-06-01T15:30:00+02:00"),
        MT_ASK,
        MT_LI,
    ),
    bad(
        "one-hour",
        "Books 12:30-13:30: an hour instead of 30 minutes, running into Leoš's 13:00 meeting.",
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:30:00+02:00"),
        MT_ASK,
        MT_LI,
    ),
    bad(
        "leos-missing",
        "Books 12:30-13:00 but invites only Daniel.",
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:00:00+02:00", attendees=[DANIEL]),
        MT_ASK,
        MT_LI,
    ),
    bad(
        "wrong-heads-up-person",
        "Books correctly but never asks who needs the heads-up; mails Daniel 'it's finished' instead of Li Dai.",
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:00:00+02:00"),
        mail([DANIEL], "Style guide meeting", "Hi Daniel, it's finished - meeting booked. Hedvika"),
    ),
    bad(
        "li-told-wrong-time",
        "Books 12:30-13:00 but tells Li the meeting is at 11:00.",
        MT_BUSY,
        meet("2026-06-01T12:30:00+02:00", "2026-06-01T13:00:00+02:00"),
        MT_ASK,
        mail([LI], "Style guide update", "Hi Li, done - the style guide update is Monday 1 June at 11:00. Hedvika"),
    ),
]


# -- inbox-rules-v3-40318-00000 (clock Wed 4 February 2026 11:30 Dubai). The 'Mail rules' doc (doc-00006): label
#    every mail from larkspur-island-machine-tools.test as 'Larkspur'; everything else stays. Today's inbox has two
#    such mails (msg-00005, msg-00012); Andres's mails of 2 and 3 February (msg-00017, msg-00010) are not today's.
#    Then PROD "Wrap-up checklist" for Agustín Luna, doc "Notes: wrap-up checklist" naming the key, shared with him as
#    editor, its link in a ticket comment, a mail to him with key and link; PROD "Sign-off review" related to the first.

IS = "indigo-square-precision.test"
AGUSTIN = f"agustin.luna@{IS}"
IR_READS = [
    call("docs__search_documents", query="Mail rules"),
    call("docs__get_document", document_id="doc-00006"),
    call("mail__search_messages", query="in:inbox", max_results=50),
]
TODAY_LARKSPUR = ["msg-00005", "msg-00012"]
IR_TAIL = follow_ups("PROD", "Wrap-up checklist", AGUSTIN, "Notes: wrap-up checklist", [AGUSTIN])
IR_SECOND = [ticket("PROD", "Sign-off review", save="t2"), link("${t2.key}", "${t1.key}")]

INBOX_RULES = [
    ok(
        "plain",
        "Labels today's two Larkspur mails, nothing else; the full follow-up chain with the related link.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        IR_TAIL,
        IR_SECOND,
    ),
    ok(
        "domain-search-one-by-one",
        "Searches by the sender's domain, labels the two from today one at a time; tail with a bullet mail.",
        call("docs__get_document", document_id="doc-00006"),
        call("mail__search_messages", query="from:larkspur-island-machine-tools.test"),
        label(["msg-00012"], "Larkspur"),
        label(["msg-00005"], "Larkspur"),
        follow_ups(
            "PROD",
            "Wrap-up checklist",
            AGUSTIN,
            "Notes: wrap-up checklist",
            [AGUSTIN],
            body="Hola Agustín,\n\n- **Ticket:** ${t1.key}\n- **Notes (you can edit):** ${doc.url}\n\nJim",
        ),
        IR_SECOND,
    ),
    ok(
        "tickets-linked-first",
        "Both PROD tickets created and linked first (first -> second as related), then doc, share, comment, mail.",
        IR_READS,
        ticket("PROD", "Wrap-up checklist", save="t1", assignee=AGUSTIN),
        ticket("PROD", "Sign-off review", save="t2"),
        link("${t1.key}", "${t2.key}"),
        doc("Notes: wrap-up checklist", "# Notes: wrap-up checklist\n\n**Ticket:** ${t1.key}\n**Related:** ${t2.key}"),
        share("${doc.id}", AGUSTIN),
        call("tickets__add_comment", key="${t1.key}", body="Notes: ${doc.url}"),
        mail([AGUSTIN], "Wrap-up checklist (${t1.key})", "Hi Agustín, ${t1.key} is yours. Notes doc: ${doc.url}. Jim"),
        label(TODAY_LARKSPUR, "Larkspur"),
    ),
    ok(
        "formal-mail-table-doc",
        "Labels the two; the notes doc is a markdown table and the mail a formal note with a signature block.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        follow_ups(
            "PROD",
            "Wrap-up checklist",
            AGUSTIN,
            "Notes: wrap-up checklist",
            [AGUSTIN],
            content="# Notes: wrap-up checklist\n\n| Field | Value |\n|---|---|\n| Ticket | ${t1.key} |\n"
            "| Owner | Agustín Luna |\n",
            subject="Wrap-up checklist: ticket and notes",
            body="Dear Agustín,\n\nPlease find the tracking ticket ${t1.key} and the notes document at ${doc.url} "
            "(you have edit rights).\n\nBest regards,\n\nJim Woods\nIndigo Square Precision",
        ),
        IR_SECOND,
    ),
    ok(
        "french-terse",
        "Terse French mail to Agustín; the doc is created then edited to add the key.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        ticket("PROD", "Wrap-up checklist", save="t1", assignee=AGUSTIN),
        doc("Notes: wrap-up checklist", "Ticket: TBD"),
        call("docs__edit_document", document_id="${doc.id}", find="TBD", replace="${t1.key}"),
        share("${doc.id}", AGUSTIN, "editor"),
        call("tickets__add_comment", key="${t1.key}", body="Doc : ${doc.url}"),
        mail([AGUSTIN], "Wrap-up checklist", "Salut Agustín - ticket ${t1.key}, notes : ${doc.url}. Jim"),
        IR_SECOND,
    ),
    ok(
        "list-folders-then-label",
        "Lists folders/labels first, labels the two, links the second ticket from the first side.",
        call("mail__list_folders"),
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        IR_TAIL,
        ticket("PROD", "Sign-off review", save="t2"),
        link("${t1.key}", "${t2.key}"),
    ),
    bad(
        "labels-older-days",
        "Labels all four Larkspur mails, including the 2 and 3 February ones that are not today's.",
        IR_READS,
        label([*TODAY_LARKSPUR, "msg-00017", "msg-00010"], "Larkspur"),
        IR_TAIL,
        IR_SECOND,
    ),
    bad(
        "edits-rules-doc",
        "Applies the rule but also edits the rules doc (told not to).",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        call("docs__append_content", document_id="doc-00006", text="\n- Applied on 4 February 2026.\n"),
        IR_TAIL,
        IR_SECOND,
    ),
    bad(
        "archives-newsletters",
        "Labels the two, but also archives today's newsletter, which the rules do not cover.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        call("mail__move_to_folder", message_ids=["msg-00018"], folder="archive"),
        IR_TAIL,
        IR_SECOND,
    ),
    bad(
        "blocks-not-related",
        "Links 'Sign-off review' to the first ticket as 'blocks' instead of related.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        IR_TAIL,
        ticket("PROD", "Sign-off review", save="t2"),
        link("${t2.key}", "${t1.key}", "blocks"),
    ),
    bad(
        "not-shared-mail-without-link",
        "Never shares the notes doc with Agustín; the mail has the key but no link and says he can edit.",
        IR_READS,
        label(TODAY_LARKSPUR, "Larkspur"),
        ticket("PROD", "Wrap-up checklist", save="t1", assignee=AGUSTIN),
        doc("Notes: wrap-up checklist", "Ticket ${t1.key}"),
        call("tickets__add_comment", key="${t1.key}", body="Notes: ${doc.url}"),
        mail(
            [AGUSTIN],
            "Wrap-up checklist",
            "Hi Agustín, ticket ${t1.key}; I've shared the notes doc with you as editor. Jim",
        ),
        IR_SECOND,
    ),
]
