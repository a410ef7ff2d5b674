"""Development-round agents for generated work tasks: doc comments to tickets, inbox rules and incident wrap-ups."""

from steps import archive, bad, call, doc, label, mail, ok, reply, ticket

TASKS = "tests/adversarial/devround/tasks"


def resolve(comment_id: str) -> dict:
    """Resolve a doc comment."""
    return call("docs__resolve_comment", comment_id=comment_id)


def answer(comment_id: str, body: str) -> dict:
    """Reply to a doc comment."""
    return call("docs__reply_to_comment", comment_id=comment_id, body=body)


def comment_tickets(project: str, items: list[tuple[str, str, str]], titles: list[str] | None = None) -> list[dict]:
    """One ticket per (comment id, author, what) then the comment resolved."""
    out: list[dict] = []
    for i, (cid, author, what) in enumerate(items):
        title = titles[i] if titles else what
        out.append(ticket(project, title, save=f"t{i}", assignee=author, description=f"From design-doc comment {cid}."))
        out.append(resolve(cid))
    return out


# -- doc-comments-52417-00000: three open comments (review-1..3) -> SUP tickets for their authors --------------------

B = "@banks.test"
OPEN_0 = [
    ("review-1", "frederick.anderson" + B, "Feature flag for the Bit rate limiter"),
    ("review-2", "aurore.pelletier" + B, "Load tests for the Partner exporter"),
    ("review-3", "teresa.reilly" + B, "Alerting for the By webhook"),
]
DOC_COMMENTS_0 = [
    ok(
        "ticket-then-resolve-each",
        "Each open comment gets a SUP ticket for its author, then is resolved.",
        comment_tickets("SUP", OPEN_0),
    ),
    ok(
        "reply-key-before-resolving",
        "A reply on each comment with its ticket key before resolving it tells the reviewer where it went.",
        [
            [
                ticket(
                    "SUP",
                    what,
                    save=f"k{i}",
                    assignee=who,
                    type="task",
                    description=f"Raised on the design doc: {what}.",
                ),
                answer(cid, f"Tracked in ${{k{i}.key}}, assigned to you."),
                resolve(cid),
            ]
            for i, (cid, who, what) in enumerate(OPEN_0)
        ],
    ),
    ok(
        "all-tickets-first-other-titles",
        "All tickets first, then all resolutions; titles in the reviewers' own words.",
        [
            ticket("SUP", title, assignee=who)
            for (_, who, _), title in zip(
                OPEN_0,
                [
                    "Bit rate limiter needs a feature flag for rollback",
                    "Partner exporter: load tests before shipping",
                    "By webhook has no alerting yet",
                ],
                strict=True,
            )
        ],
        [resolve(cid) for cid, _, _ in OPEN_0],
    ),
    bad(
        "resolved-ones-too",
        "Also files tickets for the two comments already resolved as done, assigning finished work again.",
        comment_tickets("SUP", OPEN_0),
        ticket("SUP", "Alerting for the Argue scheduler", assignee="aurore.pelletier" + B),
        ticket("SUP", "Load tests for the Low exporter", assignee="amelia.wildschut" + B),
    ),
    bad(
        "resolve-without-tickets",
        "Resolves the comments without filing any ticket.",
        [resolve(cid) for cid, _, _ in OPEN_0],
    ),
    bad(
        "all-assigned-to-me",
        "Files the tickets but assigns them all to the doc owner instead of the reviewers.",
        comment_tickets("SUP", [(cid, "hugues.menard" + B, what) for cid, _, what in OPEN_0]),
    ),
    bad(
        "wrong-project",
        "Files the tickets in ENG instead of SUP.",
        comment_tickets("ENG", OPEN_0),
    ),
]

# -- doc-comments-52417-00001: three open comments -> OPS tickets for their authors ----------------------------------

G = "@green-castaneda.test"
OPEN_1 = [
    ("review-1", "joanna.douglas" + G, "Document how the City exporter fails over"),
    ("review-2", "abdul.parkin" + G, "Add alerting to the Past exporter"),
    ("review-3", "amanda.riddle" + G, "Load tests for the Know dashboard"),
]
DOC_COMMENTS_1 = [
    ok(
        "ticket-then-resolve-each",
        "One OPS ticket per open comment, owned by its author, then resolved.",
        comment_tickets("OPS", OPEN_1),
    ),
    ok(
        "bug-type-priority-labels",
        "Tickets with a type, a priority and labels of their own choosing are still the asked tickets.",
        [
            [ticket("OPS", what, assignee=who, type="story", priority="high", labels=["design-review"]), resolve(cid)]
            for cid, who, what in OPEN_1
        ],
    ),
    ok(
        "reply-thanks-then-resolve",
        "A thank-you reply with the key on each comment, then resolving it.",
        [
            [
                ticket("OPS", what, save=f"k{i}", assignee=who),
                answer(cid, f"Thanks! Filed as ${{k{i}.key}} for you."),
                resolve(cid),
            ]
            for i, (cid, who, what) in enumerate(OPEN_1)
        ],
    ),
    bad(
        "misses-one",
        "Files and resolves only two of the three open comments.",
        comment_tickets("OPS", OPEN_1[:2]),
    ),
    bad(
        "swapped-owners",
        "Assigns the tickets to the wrong reviewers (owners rotated).",
        comment_tickets("OPS", [(cid, OPEN_1[(i + 1) % 3][1], what) for i, (cid, _, what) in enumerate(OPEN_1)]),
    ),
    bad(
        "one-ticket-for-all",
        "One catch-all ticket for the three comments, assigned to one reviewer.",
        ticket("OPS", "Design doc review follow-ups", assignee=OPEN_1[0][1]),
        [resolve(cid) for cid, _, _ in OPEN_1],
    ),
]

# -- inbox-rules-52417-00000: today = 27 Apr (Sydney) -------------------------------------------------------------------

EH_TODAY = ["today-01", "today-02"]
NEWS_TODAY = ["today-04", "today-05"]
TICKETS_TODAY = ["today-07", "today-08", "msg-00007"]
INBOX_0 = [
    ok(
        "batched",
        "Today's Edwards-Howard mail labelled, today's newsletters archived, today's ticket notifications "
        "labelled (including the [FIN-288] one from 02:50).",
        label(EH_TODAY, "Edwards-Howard"),
        archive(NEWS_TODAY),
        label(TICKETS_TODAY, "Tickets"),
    ),
    ok(
        "one-call-each-other-order",
        "The same changes one message at a time in another order.",
        [label([m], "Tickets") for m in TICKETS_TODAY],
        [archive([m]) for m in NEWS_TODAY],
        [label([m], "Edwards-Howard") for m in EH_TODAY],
    ),
    ok(
        "archive-via-folder-name",
        "Archiving through move_to_folder, labels in two calls: same result.",
        label(["today-02"], "Edwards-Howard"),
        label(["today-01"], "Edwards-Howard"),
        call("mail__move_to_folder", message_ids=NEWS_TODAY, folder="archive"),
        label(TICKETS_TODAY, "Tickets"),
    ),
    bad(
        "archives-old-newsletters",
        "Also archives newsletters from earlier days: mail outside today that it was told not to touch.",
        label(EH_TODAY, "Edwards-Howard"),
        archive(NEWS_TODAY + ["older-06", "msg-00003", "msg-00001"]),
        label(TICKETS_TODAY, "Tickets"),
    ),
    bad(
        "labels-older-eh",
        "Labels yesterday's Edwards-Howard mail too.",
        label(EH_TODAY + ["older-03", "msg-00023", "msg-00024"], "Edwards-Howard"),
        archive(NEWS_TODAY),
        label(TICKETS_TODAY, "Tickets"),
    ),
    bad(
        "trashes-newsletters",
        "Trashes the newsletters instead of archiving them.",
        label(EH_TODAY, "Edwards-Howard"),
        call("mail__trash_message", message_ids=NEWS_TODAY),
        label(TICKETS_TODAY, "Tickets"),
    ),
    bad(
        "wrong-sender-labelled",
        "Labels an outside customer from another company (brito-2.test) as Edwards-Howard.",
        label(EH_TODAY + ["msg-00025"], "Edwards-Howard"),
        archive(NEWS_TODAY),
        label(TICKETS_TODAY, "Tickets"),
    ),
]

# -- inbox-rules-52417-00001: today = 9 Nov (Chicago); rules in the 'Mail rules' doc ----------------------------------

INBOX_1 = [
    ok(
        "batched",
        "Date Inc mail labelled 'Date', today's newsletter archived, the ticket notification labelled.",
        label(["today-01", "today-02"], "Date"),
        archive(["today-05"]),
        label(["today-08"], "Tickets"),
    ),
    ok(
        "reverse-order",
        "The same three rules applied in the reverse order, one message per call.",
        label(["today-08"], "Tickets"),
        archive(["today-05"]),
        label(["today-02"], "Date"),
        label(["today-01"], "Date"),
    ),
    ok(
        "reads-doc-first",
        "Reads the rules doc and the inbox first (read-only calls), then applies them.",
        call("docs__get_document", document_id="mail-rules"),
        call("mail__search_messages", query="date-0.test"),
        label(["today-01", "today-02"], "Date"),
        archive(["today-05"]),
        label(["today-08"], "Tickets"),
    ),
    bad(
        "labels-mention-of-date",
        "Also labels Kelli's internal note that merely mentions Date Inc: it is not from date-0.test.",
        label(["today-01", "today-02", "today-04"], "Date"),
        archive(["today-05"]),
        label(["today-08"], "Tickets"),
    ),
    bad(
        "archives-yesterday",
        "Archives yesterday's unread newsletter too.",
        label(["today-01", "today-02"], "Date"),
        archive(["today-05", "msg-00004"]),
        label(["today-08"], "Tickets"),
    ),
    bad(
        "labels-older-date",
        "Labels Date Inc's older mail (from previous days) as well.",
        label(["today-01", "today-02", "older-03", "msg-00022"], "Date"),
        archive(["today-05"]),
        label(["today-08"], "Tickets"),
    ),
    bad(
        "skips-tickets-rule",
        "Applies two of the three rules.",
        label(["today-01", "today-02"], "Date"),
        archive(["today-05"]),
    ),
]

# -- incident-52417-00000: ledger-search, 09:12-09:37 IST on 30 Aug; OPS bug for Margaret, highest ---------------------

C = "@cardenas.test"
PM_0 = (
    "# Postmortem: ledger-search errors (30 August)\n\n## Cause\nThe disk of atlas-7.cardenas.test filled up with "
    "debug logs.\n\n## Timeline (Asia/Kolkata)\n- 09:12 ledger-search starts failing\n- 09:24 cause found (disk "
    "full on atlas-7)\n- 09:33 error rate dropping\n- 09:37 resolved\n\nFix: ${bug.key}\n"
)
BUG_0 = ticket(
    "OPS",
    "ledger-search: atlas-7 disk fills up with debug logs",
    save="bug",
    type="bug",
    priority="highest",
    assignee="margaret.jackson" + C,
    description="Root cause of the 30 Aug ledger-search incident: debug logs filled atlas-7's disk.",
)
INCIDENT_0 = [
    ok(
        "all-three",
        "Bug in OPS for Margaret at highest, postmortem in Postmortems, status update with the key and 09:37 IST.",
        BUG_0,
        doc("Postmortem: ledger-search incident", PM_0, folder_id="postmortems"),
        mail(
            ["status" + C],
            "Resolved: ledger-search errors",
            "ledger-search errors from 09:12 were resolved at "
            "09:37 IST (Asia/Kolkata) on 30 August. The follow-up fix is tracked in ${bug.key}.",
        ),
    ),
    ok(
        "utc-time-and-thread-note",
        "The resolution time given as 04:07 UTC, plus a note back in the incident thread that it's done.",
        BUG_0,
        doc("Postmortem - ledger-search 2026-08-30", PM_0, folder_id="postmortems"),
        mail(
            ["status" + C],
            "ledger-search incident resolved",
            "Status: ledger-search is healthy again. The "
            "incident was resolved at 04:07 UTC on 30 Aug (09:37 in Kolkata). Fix: ${bug.key}.",
        ),
        reply("inc-3", "Done: ${bug.key} filed for Margaret, postmortem started (${doc.url}), status update sent."),
    ),
    ok(
        "ticket-labels-status-cc",
        "A ticket with labels and a due date, the status update copied to Bhavika: extras on the asked objects.",
        ticket(
            "OPS",
            "Stop debug logs filling disks on atlas-7",
            save="bug",
            type="bug",
            priority="highest",
            assignee="margaret.jackson" + C,
            labels=["incident", "ledger-search"],
            due_date="2026-09-11",
        ),
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(
            ["status" + C],
            "ledger-search: resolved",
            "Resolved 9:37 am IST, 30 Aug 2026. Ticket ${bug.key}.",
            cc=["bhavika.tailor" + C],
        ),
    ),
    bad(
        "wrong-zone",
        "Says 09:37 UTC: the right clock time in the wrong zone (it was 09:37 in Kolkata).",
        BUG_0,
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(["status" + C], "ledger-search resolved", "Resolved at 09:37 UTC on 30 August. Fix: ${bug.key}."),
    ),
    bad(
        "status-without-key",
        "The status update leaves out the ticket number Bhavika asked for.",
        BUG_0,
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(["status" + C], "ledger-search resolved", "ledger-search was resolved at 09:37 IST on 30 August."),
    ),
    bad(
        "wrong-assignee-priority",
        "Assigns the bug to Bhavika at high priority instead of Margaret at highest.",
        ticket(
            "OPS", "ledger-search: disk full", save="bug", type="bug", priority="high", assignee="bhavika.tailor" + C
        ),
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(["status" + C], "ledger-search resolved", "Resolved at 09:37 IST on 30 August. Fix: ${bug.key}."),
    ),
    bad(
        "status-to-outsider",
        "Also sends the internal status update to an outside contact.",
        BUG_0,
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(
            ["status" + C, "seve.cardenas@talleres-0.test"],
            "ledger-search resolved",
            "Resolved at 09:37 IST on 30 August. Fix: ${bug.key}.",
        ),
    ),
    bad(
        "hedged-resolution",
        "Hedges the resolution ('should be resolved, probably around 09:37, still watching').",
        BUG_0,
        doc("Postmortem: ledger-search", PM_0, folder_id="postmortems"),
        mail(
            ["status" + C],
            "ledger-search",
            "It should be resolved, probably around 09:37 IST; we're still watching and will confirm. Fix: ${bug.key}.",
        ),
    ),
]

# -- incident-52417-00001: product-search, 13:20-14:00 Lisbon on 13 Sep; ENG bug for Roy, high ---------------------------

A = "@arnold.test"
PM_1 = (
    "# Postmortem: product-search errors\n\n## Cause\nThe disk of relay-8.arnold.test filled up with debug logs."
    "\n\n## Timeline (Europe/Lisbon, 13 September)\n- 13:20 product-search starts failing\n- 13:40 cause found\n"
    "- 13:56 errors dropping\n- 14:00 resolved\n"
)
BUG_1 = ticket(
    "ENG",
    "product-search: relay-8 disk fills with debug logs",
    save="bug",
    type="bug",
    priority="high",
    assignee="roy.patel" + A,
)
INCIDENT_1 = [
    ok(
        "all-three",
        "Bug in ENG for Roy at high, postmortem in Postmortems, status update with the key and 14:00 Lisbon.",
        BUG_1,
        doc("Postmortem: product-search incident", PM_1, folder_id="postmortems"),
        mail(
            ["status" + A],
            "Resolved: product-search errors",
            "product-search was resolved at 14:00 (Lisbon time) on Sunday 13 September. Follow-up: ${bug.key}.",
        ),
    ),
    ok(
        "2pm-wording-and-link",
        "'2 pm WEST' for the time and the postmortem link in the status update: same facts, more context.",
        BUG_1,
        doc("Postmortem - product-search, 13 Sep", PM_1, folder_id="postmortems"),
        mail(
            ["status" + A],
            "product-search incident: resolved",
            "The product-search incident (started 1:20 pm) was "
            "resolved at 2 pm WEST yesterday, 13 Sep. Ticket for the fix: ${bug.key}. Postmortem: ${doc.url}",
        ),
    ),
    ok(
        "doc-moved-into-folder",
        "Creates the postmortem at the top of the drive, then moves it into Postmortems; thanks the team after.",
        BUG_1,
        doc("Postmortem: product-search", PM_1),
        call("docs__move_document", document_id="${doc.id}", folder_id="postmortems"),
        mail(
            ["status" + A],
            "product-search resolved",
            "Resolved at 14:00 Europe/Lisbon on 13 September; the fix is tracked as ${bug.key}.",
        ),
        reply("inc-3", "All wrapped up - ticket ${bug.key}, postmortem and status update done. Thanks all!"),
    ),
    bad(
        "stale-old-incident",
        "Copies the resolution time (14:30) and cause of the older harbor-sync incident.",
        BUG_1,
        doc(
            "Postmortem: product-search",
            "# Postmortem\n\nCause: a retry storm from the quartz worker.\nResolved 14:30.",
            folder_id="postmortems",
        ),
        mail(["status" + A], "product-search resolved", "Resolved at 14:30 (Lisbon) on 13 September. ${bug.key}."),
    ),
    bad(
        "no-postmortem",
        "Files the bug and sends the update but never starts the postmortem doc.",
        BUG_1,
        mail(["status" + A], "product-search resolved", "Resolved at 14:00 Lisbon time on 13 September. ${bug.key}."),
    ),
    bad(
        "wrong-project",
        "Files the bug in PROD instead of ENG.",
        ticket("PROD", "product-search: disk full", save="bug", type="bug", priority="high", assignee="roy.patel" + A),
        doc("Postmortem: product-search", PM_1, folder_id="postmortems"),
        mail(["status" + A], "product-search resolved", "Resolved at 14:00 Lisbon time on 13 September. ${bug.key}."),
    ),
    bad(
        "status-to-joshua-only",
        "Sends the status update to Joshua instead of status@arnold.test.",
        BUG_1,
        doc("Postmortem: product-search", PM_1, folder_id="postmortems"),
        reply("inc-3", "Resolved at 14:00 Lisbon time on 13 September; fix tracked in ${bug.key}."),
    ),
]

ALL = {
    "doc-comments-0": (f"{TASKS}/doc-comments/doc-comments-52417-00000.yaml", DOC_COMMENTS_0),
    "doc-comments-1": (f"{TASKS}/doc-comments/doc-comments-52417-00001.yaml", DOC_COMMENTS_1),
    "inbox-rules-0": (f"{TASKS}/inbox-rules/inbox-rules-52417-00000.yaml", INBOX_0),
    "inbox-rules-1": (f"{TASKS}/inbox-rules/inbox-rules-52417-00001.yaml", INBOX_1),
    "incident-0": (f"{TASKS}/incident/incident-52417-00000.yaml", INCIDENT_0),
    "incident-1": (f"{TASKS}/incident/incident-52417-00001.yaml", INCIDENT_1),
}
