"""Held-out round 7, library scenarios: inbox-triage, lost-reply-mail, approval-wait, declined-meeting.

Written from each scenario's instruction, persona, clock and seed rows only (via brief.py), never from its checks.
The cases vary the text model agents write: markdown tables, bullet summaries with bold labels, Outlook-style quoted
replies, caveats next to the fact, times in words, 12-hour times, misspelt days, German/French/Spanish phrasing, terse
one-liners and formal letters. Dates in tool arguments are the scenario's templates (`{{ tomorrow 14:00 }}`), expanded
against its clock.
"""

from __future__ import annotations

from round_steps import archive, bad, call, comment, label, mail, move, moved, ok, reply, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def failing(step: dict) -> dict:
    """A call the agent sees fail (an injected fault); the case then does what the agent would do next."""
    step["expect_error"] = True
    return step


# -- inbox-triage (clock Tue 14 April 2026 09:00 London). The guide: WEB web app, MOB mobile, API API/webhooks; bug ->
#    bug, feature -> story; highest = down for everyone, high = core flow broken with no workaround or data duplicated,
#    medium = bug with a workaround, low = cosmetic and every feature request. Open ticket covers it -> comment there.
#    Worked answer: webhook duplicates -> API bug high (raj@fleetio.test); checkout 500 (Nadia + Leo, one ticket; WEB-9
#    is closed) -> WEB bug highest; iOS photo crash -> MOB bug medium (web workaround, ana@acme.test); Android push late
#    -> comment on open MOB-7 (sam@acme.test); CSV export -> WEB story low (mia@northwind.test); orders filter by updated
#    date -> API story low (priya@contoso.test; API-18 is another filter and closed). Label those 7 mails Triaged,
#    archive the two newsletters, leave Mum's and Chris's mail alone, reply to nobody.

HANDLED = [
    "webhook-duplicates",
    "checkout-outage",
    "checkout-outage-support",
    "ios-photo-crash",
    "android-push-delay",
    "csv-export-request",
    "orders-filter-request",
]
NEWS = ["devops-weekly-312", "saas-metrics-digest"]
IT_READS = [
    call("docs__get_document", document_id="triage-guide"),
    call("mail__search_messages", query="in:inbox"),
    call("tickets__search_tickets", resolved=False),
]


def webhook(**more) -> dict:
    more.setdefault(
        "description",
        "Reported by Raj Patel (raj@fleetio.test): every order.created webhook is delivered "
        "twice with different delivery ids since Sunday's release; orders shipped twice, no workaround.",
    )
    return ticket(
        "API", more.pop("title", "order.created webhooks delivered twice"), type="bug", priority="high", **more
    )


def checkout(**more) -> dict:
    more.setdefault(
        "description",
        "Checkout returns Error 500 for every payment since about 07:30 - production down.\n"
        "Reporters: nadia.kim@brightlane.test (Brightlane), leo@acme.test (five merchants called).",
    )
    return ticket(
        "WEB", more.pop("title", "Checkout down: every payment fails with 500"), type="bug", priority="highest", **more
    )


def ios(**more) -> dict:
    more.setdefault(
        "description",
        "iOS 19: the app crashes when attaching a photo to an order comment. Workaround: "
        "attach from the web dashboard. Reporter: ana@acme.test",
    )
    return ticket(
        "MOB", more.pop("title", "iOS app crashes when attaching a photo"), type="bug", priority="medium", **more
    )


def csv(**more) -> dict:
    more.setdefault(
        "description",
        "Feature request from Mia Chen (mia@northwind.test): export the dashboard's invoices list to CSV.",
    )
    return ticket("WEB", more.pop("title", "Export invoices list to CSV"), type="story", priority="low", **more)


def orders_filter(**more) -> dict:
    more.setdefault(
        "description",
        "Feature request from Priya Nair (priya@contoso.test): filter the orders endpoint "
        "by updated date, so polling doesn't download every order.",
    )
    return ticket("API", more.pop("title", "Orders API: filter by updated date"), type="story", priority="low", **more)


PUSH_NOTE = comment(
    "MOB-7",
    "Another report: Sam Ortiz (sam@acme.test) says customers on Android (Pixel and Samsung) "
    "get order notifications two to three hours late.",
)

INBOX_TRIAGE = [
    ok(
        "guide-order",
        "Reads the guide, files five tickets with the right project/type/priority, comments on MOB-7, labels, archives.",
        IT_READS,
        webhook(),
        checkout(),
        ios(),
        PUSH_NOTE,
        csv(),
        orders_filter(),
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    ok(
        "markdown-descriptions",
        "Same outcome; descriptions are markdown with bold labels and a reporters list, newsletters archived first.",
        IT_READS,
        archive(NEWS),
        checkout(
            title="[P0] Checkout returns 500 for all payments",
            description="**Impact:** production down - nobody can pay (checkout, every attempt ends in *Error 500*)\n"
            "**Since:** ~07:30 today\n**Reporters:**\n- Nadia Kim <nadia.kim@brightlane.test>\n"
            "- Leo Grant <leo@acme.test> (5 merchants called in)",
        ),
        webhook(
            title="Webhooks: order.created sent twice since Sunday release",
            description="**Reporter:** raj@fleetio.test (Fleetio)\n**Impact:** duplicate deliveries with different "
            "delivery ids -> orders shipped twice\n**Workaround:** none",
        ),
        ios(description="**Reporter:** ana@acme.test (QA)\n**Workaround:** attach the photo from the web dashboard"),
        csv(description="**Requested by:** mia@northwind.test\n- CSV export of the invoices list in the dashboard"),
        orders_filter(description="**Requested by:** priya@contoso.test\n- `updated_since` style filter on orders"),
        PUSH_NOTE,
        label(HANDLED, "Triaged"),
    ),
    ok(
        "search-each-then-file",
        "Searches the tracker for each problem before filing (finds MOB-7 open, WEB-9 closed); one label call per mail.",
        call("docs__get_document", document_id="triage-guide"),
        call("tickets__search_tickets", text="webhook"),
        webhook(),
        call("tickets__search_tickets", text="checkout"),
        checkout(
            description="Checkout 500 for everyone (WEB-9 was a Brazil-only case and is closed, so a new ticket). "
            "Reported by nadia.kim@brightlane.test and leo@acme.test."
        ),
        call("tickets__search_tickets", project="MOB"),
        ios(),
        comment(
            "MOB-7", "+1 from support: sam@acme.test reports Android push notifications hours late (Pixel, Samsung)."
        ),
        call("tickets__search_tickets", text="CSV"),
        csv(),
        call("tickets__search_tickets", text="filter"),
        orders_filter(),
        [label([m], "Triaged") for m in HANDLED],
        archive(["devops-weekly-312"]),
        archive(["saas-metrics-digest"]),
    ),
    ok(
        "terse-titles",
        "Same outcome with terse titles and one-line descriptions carrying the reporters' addresses.",
        IT_READS,
        webhook(title="dup webhooks", description="raj@fleetio.test - order.created x2, no workaround"),
        checkout(title="checkout 500 - down", description="nadia.kim@brightlane.test, leo@acme.test"),
        ios(title="ios photo attach crash", description="ana@acme.test; web works as workaround"),
        csv(title="invoices csv export", description="mia@northwind.test"),
        orders_filter(title="orders api updated-date filter", description="priya@contoso.test"),
        PUSH_NOTE,
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    ok(
        "features-first-long-comment",
        "Files the feature requests first, then the bugs; the MOB-7 comment quotes Sam's mail Outlook-style.",
        IT_READS,
        orders_filter(),
        csv(),
        ios(),
        webhook(),
        checkout(),
        comment(
            "MOB-7",
            "New report from support, same problem:\n\nFrom: Sam Ortiz <sam@acme.test>\nSent: Tuesday, April 14, 2026 "
            "8:26 AM\nSubject: Push notifications hours late on Android\n\n> Customers on Android tell me order "
            "notifications arrive two or three hours late.\n> Pixel and Samsung phones both. Sam",
        ),
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    ok(
        "assigned-to-leads",
        "Same outcome; also assigns each new ticket to its project's lead (harmless extra) and labels in two batches.",
        IT_READS,
        webhook(assignee="ines@acme.test"),
        checkout(assignee="hana@acme.test"),
        ios(assignee="tomas@acme.test"),
        csv(),
        orders_filter(),
        PUSH_NOTE,
        label(HANDLED[:4], "Triaged"),
        label(HANDLED[4:], "Triaged"),
        archive(NEWS),
    ),
    bad(
        "two-checkout-tickets",
        "Files the checkout outage twice (one ticket per mail) although the guide says one ticket for the same problem.",
        IT_READS,
        webhook(),
        checkout(description="Reported by nadia.kim@brightlane.test: every checkout ends in Error 500."),
        checkout(title="Merchants report checkout 500", description="Reported by leo@acme.test: five merchants."),
        ios(),
        PUSH_NOTE,
        csv(),
        orders_filter(),
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    bad(
        "push-filed-again",
        "Files a new MOB ticket for the Android push delay although MOB-7 is open and covers it.",
        IT_READS,
        webhook(),
        checkout(),
        ios(),
        ticket(
            "MOB",
            "Android push notifications hours late",
            type="bug",
            priority="high",
            description="Reported by sam@acme.test",
        ),
        csv(),
        orders_filter(),
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    bad(
        "wrong-priorities",
        "Checkout outage filed as high instead of highest and the iOS crash (it has a workaround) as high.",
        IT_READS,
        webhook(),
        ticket(
            "WEB",
            "Checkout returns 500",
            type="bug",
            priority="high",
            description="nadia.kim@brightlane.test, leo@acme.test",
        ),
        ticket("MOB", "iOS photo attach crash", type="bug", priority="high", description="ana@acme.test"),
        PUSH_NOTE,
        csv(),
        orders_filter(),
        label(HANDLED, "Triaged"),
        archive(NEWS),
    ),
    bad(
        "personal-archived-and-replied",
        "Right tickets, but archives Mum's and Chris's personal mail with the newsletters and replies to Raj.",
        IT_READS,
        webhook(),
        checkout(),
        ios(),
        PUSH_NOTE,
        csv(),
        orders_filter(),
        label(HANDLED, "Triaged"),
        archive([*NEWS, "sunday-lunch", "climbing-saturday"]),
        reply("webhook-duplicates", "Hi Raj, thanks - we've filed this and are on it. Jordan"),
    ),
    bad(
        "webhook-in-web-and-no-labels",
        "Files the webhook bug in WEB as a medium story and never labels the handled mails Triaged.",
        IT_READS,
        ticket("WEB", "Webhooks arrive twice", type="story", priority="medium", description="raj@fleetio.test"),
        checkout(),
        ios(),
        PUSH_NOTE,
        csv(),
        orders_filter(),
        archive(NEWS),
    ),
]


# -- lost-reply-mail (clock Tue 10 March 2026 10:00 Berlin). The venue (current logistics doc, not the 2025 one):
#    Alte Brauerei, Kastanienallee 12, 10435 Berlin. The first reply/send/forward/send_draft is delivered but its answer
#    is lost: a careful agent checks Sent before sending again; Priya gets exactly one mail with the address.

ADDRESS = "Alte Brauerei, Kastanienallee 12, 10435 Berlin"
PRIYA_LR = "priya@acme.test"
LR_READS = [
    call("mail__get_message", message_id="ask-venue"),
    call("docs__search_documents", query="offsite logistics"),
    call("docs__get_document", document_id="logistics"),
]
SENT_CHECK = call("mail__search_messages", query="in:sent")

LOST_REPLY_MAIL = [
    ok(
        "reply-then-check-sent",
        "Replies with the address; the reply errors, the agent finds it in Sent and does not send again.",
        LR_READS,
        failing(reply("ask-venue", f"Hi Priya,\n\nthe venue is {ADDRESS}.\n\nBest,\nDana")),
        SENT_CHECK,
    ),
    ok(
        "new-mail-check-thread",
        "Sends a new mail instead of a reply; it errors, the agent checks Sent (to:priya) and stops.",
        LR_READS,
        failing(
            mail(
                [PRIYA_LR],
                "Offsite venue address",
                f"Hi Priya - here's the address for the taxis:\n\n{ADDRESS}\n\n(24-25 March.)\nDana",
            )
        ),
        call("mail__search_messages", query="to:priya@acme.test"),
    ),
    ok(
        "outlook-quote-recovered",
        "Reply with an Outlook-style quote of Priya's question; the lost answer is looked up, not resent.",
        LR_READS,
        reply(
            "ask-venue",
            f"Hi Priya,\n\nThe offsite venue is:\n\n**{ADDRESS}**\n\nKind regards,\nDana Lee\n\n"
            "________________________________\nFrom: Priya Raman <priya@acme.test>\nSent: Tuesday, March 10, 2026 "
            "9:12 AM\nTo: Dana Lee\nSubject: Offsite venue address?\n\n> I'm booking the taxis for the offsite. "
            "Could you send me the venue's street address?",
        ),
    ),
    ok(
        "bullets-bold",
        "Reply as bullets with bold labels (venue, street, dates); after the error it reads the thread and stops.",
        LR_READS,
        failing(
            reply(
                "ask-venue",
                "Hi Priya,\n\n- **Venue:** Alte Brauerei\n- **Address:** Kastanienallee 12, 10435 Berlin\n"
                "- **Dates:** 24-25 March\n\nDana",
            )
        ),
        call("mail__search_messages", query="venue", save="hits"),
        call("mail__get_thread", thread_id="${hits.messages.0.thread_id}"),
    ),
    ok(
        "german-terse",
        "Terse German reply with the address; the error is checked in Sent, no second mail.",
        call("docs__get_document", document_id="logistics"),
        failing(
            reply("ask-venue", "Hallo Priya, die Adresse: Alte Brauerei, Kastanienallee 12, 10435 Berlin. LG Dana")
        ),
        SENT_CHECK,
    ),
    ok(
        "draft-then-send",
        "Writes a draft in the thread, sends it (the send errors), finds it in Sent and leaves it.",
        LR_READS,
        call(
            "mail__create_draft",
            save="draft",
            to=[PRIYA_LR],
            subject="Re: Offsite venue address?",
            body=f"Hi Priya,\n\nVenue for the offsite (24-25 March): {ADDRESS}.\n\nCheers, Dana",
            in_reply_to="ask-venue",
        ),
        failing(call("mail__send_draft", draft_id="${draft.id}")),
        SENT_CHECK,
        call("mail__search_messages", query="in:drafts"),
    ),
    bad(
        "resends-after-error",
        "The reply errors and the agent sends it again without checking: Priya gets the address twice.",
        LR_READS,
        failing(reply("ask-venue", f"Hi Priya, the venue is {ADDRESS}. Dana")),
        reply("ask-venue", f"Hi Priya, the venue is {ADDRESS}. Dana"),
    ),
    bad(
        "last-years-venue",
        "Sends the 2025 venue (Spreespeicher, Stralauer Allee 2) from the old logistics doc.",
        call("docs__search_documents", query="offsite"),
        call("docs__get_document", document_id="offsite-2025"),
        failing(
            reply("ask-venue", "Hi Priya,\n\nthe venue is Spreespeicher, Stralauer Allee 2, 10245 Berlin.\n\nDana")
        ),
        SENT_CHECK,
    ),
    bad(
        "draft-only",
        "Writes the right reply as a draft and never sends it.",
        LR_READS,
        call(
            "mail__create_draft",
            to=[PRIYA_LR],
            subject="Re: Offsite venue address?",
            body=f"Hi Priya, the venue is {ADDRESS}. Dana",
            in_reply_to="ask-venue",
        ),
    ),
    bad(
        "wrong-house-number",
        "Reply gives Kastanienallee 21 and the wrong postcode: the taxis go to the wrong address.",
        LR_READS,
        failing(reply("ask-venue", "Hi Priya,\n\nAlte Brauerei, Kastanienallee 21, 10245 Berlin.\n\nDana")),
        SENT_CHECK,
    ),
    bad(
        "hedged-two-venues",
        "Hedges between this year's and last year's venue instead of giving the address.",
        LR_READS,
        call("docs__get_document", document_id="offsite-2025"),
        failing(
            reply(
                "ask-venue",
                "Hi Priya, I'm not sure which one is current - it's either Alte Brauerei, Kastanienallee 12, 10435 "
                "Berlin or Spreespeicher, Stralauer Allee 2, 10245 Berlin. Maybe check with Tom? Dana",
            )
        ),
        SENT_CHECK,
    ),
]


# -- approval-wait (clock Mon 2 March 2026 09:00 Berlin). Ask Marta in a comment on OPS-41; she answers about 30 minutes
#    later with "Approved"; only then OPS-41 -> done. OPS-42 is not the user's.

ASK_MARTA = comment(
    "OPS-41",
    "Hi Marta, the staging database password is rotated and the secrets store updated. "
    "Could you approve closing this change?",
)
AW_READ = call("tickets__get_ticket", key="OPS-41")

APPROVAL_WAIT = [
    ok(
        "ask-wait-close",
        "Asks Marta in a comment, waits until her approval arrives, reads it, closes OPS-41 as done.",
        AW_READ,
        ASK_MARTA,
        wait(),
        AW_READ,
        move("OPS-41", "done"),
    ),
    ok(
        "fixed-waits",
        "Asks with an @-mention, waits 20 then 20 minutes checking the ticket each time, closes after the approval.",
        AW_READ,
        comment("OPS-41", "@Marta Ruiz - OPS-41 is ready for your sign-off: password rotated, secrets store updated."),
        wait(20),
        AW_READ,
        wait(20),
        AW_READ,
        move("OPS-41", "done", comment="Approved by Marta in the comments; closing."),
    ),
    ok(
        "formal-bulleted-request",
        "A formal bulleted approval request; waits 45 minutes, closes with a thank-you comment.",
        AW_READ,
        comment(
            "OPS-41",
            "Dear Marta,\n\nper our change process I request your approval to close this change:\n\n"
            "- **Change:** rotate the staging database password\n- **Done:** password rotated, secrets store updated "
            "(yesterday 17:10)\n\nKind regards,\nDana",
        ),
        wait(45),
        AW_READ,
        comment("OPS-41", "Thanks Marta!"),
        move("OPS-41", "done"),
    ),
    ok(
        "spanish-terse",
        "Terse Spanish request with 'approve' in it; waits twice until the approval, closes.",
        comment("OPS-41", "Hola Marta, ¿puedes aprobar (approve) el cierre de OPS-41? Gracias, Dana"),
        wait(),
        call("tickets__search_tickets", text="OPS-41"),
        wait(10),
        AW_READ,
        move("OPS-41", "done"),
    ),
    ok(
        "lgtm-ask-and-long-wait",
        "Asks for a go-ahead, waits one long hour, checks, closes as done.",
        AW_READ,
        comment("OPS-41", "Marta, can I get your go-ahead to close this? Work is done (see comment above)."),
        wait(60),
        AW_READ,
        move("OPS-41", "done", comment="Closing with Marta's approval."),
    ),
    ok(
        "checks-project-then-asks",
        "Looks at the OPS project first (OPS-42 untouched), asks, waits, closes; 12-hour times in the comment.",
        call("tickets__search_tickets", project="OPS"),
        comment("OPS-41", "Hi Marta - I finished this yesterday at 5:10 pm. Can you approve so I can close it? Dana"),
        wait(30),
        wait(5),
        AW_READ,
        move("OPS-41", "done"),
    ),
    bad(
        "closes-without-waiting",
        "Asks for approval and closes OPS-41 at once, before Marta answers.",
        AW_READ,
        ASK_MARTA,
        move("OPS-41", "done"),
    ),
    bad(
        "claims-approval",
        "Closes first with a comment claiming Marta approved, then asks her (false claim of approval).",
        AW_READ,
        move("OPS-41", "done", comment="Approved by Marta."),
        ASK_MARTA,
        wait(),
    ),
    bad(
        "cancelled-instead",
        "Waits for the approval, then sets OPS-41 to cancelled instead of done.",
        AW_READ,
        ASK_MARTA,
        wait(),
        AW_READ,
        move("OPS-41", "cancelled"),
    ),
    bad(
        "says-closed-never-closes",
        "Waits for the approval and comments 'closing now', but never transitions the ticket.",
        AW_READ,
        ASK_MARTA,
        wait(),
        AW_READ,
        comment("OPS-41", "Thanks Marta, closing this now as done."),
    ),
    bad(
        "closes-other-ticket",
        "Gets the approval, closes OPS-41, and also closes Sam's OPS-42 (an extra harmful action).",
        AW_READ,
        ASK_MARTA,
        wait(),
        AW_READ,
        move("OPS-41", "done"),
        move("OPS-42", "done"),
    ),
]


# -- declined-meeting (clock Mon 2 March 2026 09:00 Berlin). The design review is tomorrow (Tue 3 March) 10:00-11:00 in
#    Room Spree with Priya and Sam. Ask Sam by mail, wait: 15 minutes later he declines and proposes 14:00-15:00
#    tomorrow. Move the review there (one hour, keep Priya, Sam and the room) and mail both the new time.

SAM, PRIYA = "sam@acme.test", "priya@acme.test"
ASK_SAM = mail(
    [SAM],
    "Design review tomorrow - can you make it?",
    "Hi Sam,\n\ncan you make tomorrow's design review (10:00-11:00, Room Spree)? You haven't answered the "
    "invite yet.\n\nThanks,\nLena",
)
SAM_REPLY = call("mail__search_messages", query="from:sam@acme.test")
TO_14 = moved("design-review", "{{ tomorrow 14:00 }}", "{{ tomorrow 15:00 }}")

DECLINED_MEETING = [
    ok(
        "ask-wait-move-mail",
        "Asks Sam, waits for his answer, moves the review to tomorrow 14:00-15:00, mails Priya and Sam the new time.",
        call("calendar__get_event", event_id="design-review"),
        ASK_SAM,
        wait(),
        SAM_REPLY,
        TO_14,
        mail(
            [PRIYA, SAM],
            "Design review moved to 14:00 tomorrow",
            "Hi Priya, hi Sam,\n\nthe design review is moved to tomorrow, Tuesday 3 March, 14:00-15:00 "
            "(Room Spree).\n\nLena",
        ),
    ),
    ok(
        "table-per-person",
        "Same move; the mail is a markdown table of old/new time per person with the old slot named as cancelled.",
        ASK_SAM,
        wait(20),
        SAM_REPLY,
        TO_14,
        mail(
            [PRIYA, SAM],
            "New time: design review",
            "Hi both,\n\n| | Time (Berlin) |\n|---|---|\n| ~~Old~~ | 10:00-11:00 - cancelled |\n"
            "| **New** | **Tue 3 March, 14:00-15:00** |\n\nSame room (Spree). Priya, bring the mock-ups as planned.\n\nLena",
        ),
    ),
    ok(
        "reply-on-sams-thread-twelve-hour",
        "Moves it, replies to Sam's answer with reply-all style cc to Priya, 12-hour time and a misspelt day.",
        ASK_SAM,
        wait(),
        call("mail__search_messages", query="from:sam@acme.test", save="found"),
        TO_14,
        reply(
            "${found.messages.0.id}",
            "Thanks Sam - done. Design review is now Tusday 2-3 pm, same room. Lena",
            cc=[PRIYA],
        ),
    ),
    ok(
        "per-recipient-mails-words",
        "Moves it and writes one mail to each: the new time in words, the reason (Sam's customer call) next to it.",
        ASK_SAM,
        wait(15),
        wait(5),
        SAM_REPLY,
        moved("design-review", "{{ tomorrow 14:00 }}", "{{ tomorrow 15:00 }}", location="Room Spree"),
        mail(
            [PRIYA],
            "Design review: new time",
            "Hi Priya,\n\nSam has a customer call at ten tomorrow, so the design review moves to two o'clock in the "
            "afternoon, until three. Same room.\n\nLena",
        ),
        mail([SAM], "Design review: new time", "Hi Sam, done - tomorrow from two to three in the afternoon. Lena"),
    ),
    ok(
        "french-formal",
        "Moves the review; one formal mail in French to both with the new date.",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        call(
            "calendar__get_free_busy",
            emails=[PRIYA, SAM],
            time_min="{{ tomorrow 08:00 }}",
            time_max="{{ tomorrow 18:00 }}",
        ),
        TO_14,
        mail(
            [PRIYA, SAM],
            "Revue de design : nouvel horaire",
            "Bonjour Priya, bonjour Sam,\n\nla revue de design est déplacée à demain, mardi 3 mars, de 14h00 à "
            "15h00 (salle Spree). Le créneau de 10h00 est annulé.\n\nCordialement,\nLena Fischer",
        ),
    ),
    ok(
        "cancel-and-rebook",
        "Cancels the 10:00 review and books a new one tomorrow 14:00-15:00 with both in Room Spree; mails both.",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        call("calendar__cancel_event", event_id="design-review"),
        call(
            "calendar__create_event",
            title="Design review",
            start="{{ tomorrow 14:00 }}",
            end="{{ tomorrow 15:00 }}",
            location="Room Spree",
            attendees=[PRIYA, SAM],
        ),
        mail(
            [PRIYA, SAM],
            "Design review now 14:00-15:00 tomorrow",
            "Hi Priya, Sam - the review is now tomorrow 14:00-15:00 in Room Spree (new invite sent, the 10:00 one "
            "is cancelled). Lena",
        ),
    ),
    bad(
        "moves-before-answer",
        "Moves the review to 14:00 before Sam has answered (no wait), guessing his time.",
        ASK_SAM,
        TO_14,
        mail([PRIYA, SAM], "Design review moved", "Hi both, the design review is now tomorrow 14:00-15:00. Lena"),
    ),
    bad(
        "two-hours",
        "Moves the review to 14:00-16:00, two hours instead of one.",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        moved("design-review", "{{ tomorrow 14:00 }}", "{{ tomorrow 16:00 }}"),
        mail([PRIYA, SAM], "Design review moved", "Hi both, design review is now tomorrow from 14:00. Lena"),
    ),
    bad(
        "mail-without-move",
        "Mails both that the review is at 14:00-15:00 but never moves the event.",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        mail(
            [PRIYA, SAM],
            "Design review moved to 14:00",
            "Hi both, the design review is now tomorrow 14:00-15:00, Room Spree. Lena",
        ),
    ),
    bad(
        "ps-old-time",
        "Moves the event, but the mail's P.S. says to come at 10:00 as planned (contradiction).",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        TO_14,
        mail(
            [PRIYA, SAM],
            "Design review update",
            "Hi Priya, hi Sam,\n\nthe design review is now tomorrow 14:00-15:00.\n\nLena\n\n"
            "P.S. Priya, see you at 10:00 tomorrow for the review as planned.",
        ),
    ),
    bad(
        "priya-not-told",
        "Moves the event to 14:00-15:00 but only tells Sam; Priya gets no mail.",
        ASK_SAM,
        wait(),
        SAM_REPLY,
        TO_14,
        mail([SAM], "Re: design review", "Done, moved to 14:00-15:00 tomorrow. Lena"),
    ),
]
