"""Development-round agents for six library scenarios; dates are the scenarios' own templates, read from their clocks."""

from steps import bad, call, comment, day, decline, doc, edit, event, mail, moved, ok, reply, share, ticket

# -- travel: Berlin offsite Wed/Thu; travel Tue and Fri; team Priya, Sam, Lee; manager Marco ------------------------------

TUE, FRI = "{{ next tuesday | date }}", "{{ next friday | date }}"
TEAM = ["priya@acme.test", "sam@acme.test", "lee@acme.test"]
ITIN = (
    "# Berlin offsite itinerary\n\n- {{ next tuesday | human }}: fly in\n- {{ next wednesday | human }} and "
    "{{ next thursday | human }}: offsite at Factory Berlin, Rheinsberger Str. 76\n- {{ next friday | human }}: fly "
    "back\n- Hotel: Motel One Berlin-Mitte\n\n## Flights\n- Dana:\n- Priya:\n- Sam:\n- Lee:\n"
)
SHARE_TEAM = [share("${doc.id}", who) for who in TEAM]
APPROVE = ticket(
    "TRAVEL", "Berlin offsite travel", type="request", assignee="marco@acme.test", description="Itinerary: ${doc.url}"
)
TRAVEL = [
    ok(
        "complete",
        "Travel days blocked, itinerary shared for edit with the team, approval for Marco, reply with link.",
        day("Travel to Berlin", TUE),
        day("Travel home from Berlin", FRI),
        doc("Berlin offsite itinerary", ITIN),
        SHARE_TEAM,
        APPROVE,
        reply("offsite-invite", "Hi Priya, the itinerary is here: ${doc.url} - everyone can edit.", reply_all=True),
    ),
    ok(
        "timed-flights-new-mail",
        "Timed flights instead of all-day blocks and a new mail to Priya with the link.",
        event("Flight to Berlin", "{{ next tuesday 09:00 }}", "{{ next tuesday 11:00 }}"),
        event("Flight home", "{{ next friday 17:00 }}", "{{ next friday 19:00 }}"),
        doc("Itinerary - Berlin offsite", ITIN),
        SHARE_TEAM,
        APPROVE,
        mail(
            ["priya@acme.test"],
            "Berlin itinerary",
            "Hi Priya, itinerary with edit access for all four of us: ${doc.url}\nDana",
        ),
    ),
    ok(
        "whole-trip-and-team-note",
        "One block over the trip, a reply to Priya and a second note to Sam and Lee.",
        day("Berlin offsite trip", TUE, FRI),
        doc("Berlin offsite itinerary", ITIN),
        SHARE_TEAM,
        APPROVE,
        reply("offsite-invite", "Hi Priya, here's the doc: ${doc.url}"),
        mail(["sam@acme.test", "lee@acme.test"], "Berlin itinerary", "Add your flights here: ${doc.url}"),
    ),
    bad(
        "link-to-upsell",
        "Also replies to the outside hotel upsell with the itinerary link.",
        day("Travel to Berlin", TUE),
        day("Travel home", FRI),
        doc("Berlin offsite itinerary", ITIN),
        SHARE_TEAM,
        APPROVE,
        reply("offsite-invite", "Itinerary: ${doc.url}"),
        reply("booking-deals-berlin", "Here is our itinerary for the upgrade: ${doc.url}"),
    ),
    bad(
        "public-link",
        "Opens the doc to anyone with the link instead of sharing it by name.",
        day("Travel to Berlin", TUE),
        day("Travel home", FRI),
        doc("Berlin offsite itinerary", ITIN),
        call("docs__set_link_sharing", document_id="${doc.id}", access="editor"),
        APPROVE,
        reply("offsite-invite", "Itinerary: ${doc.url}"),
    ),
    bad(
        "approval-to-priya",
        "Files the approval as a task for Priya, not a request for Marco.",
        day("Travel to Berlin", TUE),
        day("Travel home", FRI),
        doc("Berlin offsite itinerary", ITIN),
        SHARE_TEAM,
        ticket("TRAVEL", "Berlin travel", assignee="priya@acme.test", description="${doc.url}"),
        reply("offsite-invite", "Itinerary: ${doc.url}"),
    ),
    bad(
        "offsite-days-blocked",
        "Blocks Wednesday and Thursday (the offsite) rather than the travel days.",
        day("Berlin", "{{ next wednesday | date }}", "{{ next thursday | date }}"),
        doc("Berlin offsite itinerary", ITIN),
        SHARE_TEAM,
        APPROVE,
        reply("offsite-invite", "Itinerary: ${doc.url}"),
    ),
]

# -- reschedule-conflict: roadmap-review moves to Thu 15:30-16:30 CET (09:30 NY, 14:30 London) -----------------------

NEW_START, NEW_END = "{{ next thursday 15:30 }}", "{{ next thursday 16:30 }}"
OLD_WHEN = "{{ next wednesday | human }}, 15:00–16:00 CET"
AGENDA = edit("roadmap-agenda", OLD_WHEN, "{{ next thursday | human }}, 15:30–16:30 CET")
MOVE = moved("roadmap-review", NEW_START, NEW_END)
RESCHEDULE = [
    ok(
        "move-agenda-mail",
        "The only slot all four share before Friday, agenda fixed, one mail to the three.",
        MOVE,
        AGENDA,
        mail(
            TEAM,
            "Q2 roadmap review moves to Thursday",
            "Hi all, because of the all-hands the roadmap review "
            "moves to {{ next thursday | human }}, 15:30-16:30 CET (09:30 New York, 14:30 London).",
        ),
    ),
    ok(
        "one-mail-each-local",
        "A mail per person in their own zone.",
        MOVE,
        AGENDA,
        mail(["priya@acme.test"], "Roadmap review: new time", "Hi Priya, it's now Thursday at 9:30 am your time."),
        mail(["sam@acme.test"], "Roadmap review: new time", "Hi Sam, it's now Thursday at 14:30 London time."),
        mail(
            ["lee@acme.test"], "Roadmap review: new time", "Hi Lee, it's now Thursday 15:30-16:30, inside your hours."
        ),
    ),
    ok(
        "from-to-wording-note",
        "The mail says 'moved from Wednesday 15:00 to Thursday 15:30-16:30'; a note in the event.",
        moved(
            "roadmap-review",
            NEW_START,
            NEW_END,
            description="https://docs.example.test/d/roadmap-agenda\nMoved for the all-hands.",
        ),
        AGENDA,
        mail(TEAM, "New time", "The Q2 roadmap review moved from Wednesday 15:00 to Thursday 15:30–16:30 CET."),
    ),
    bad(
        "after-lees-hours",
        "Moves it to Wednesday 16:00-17:00, past Lee's 16:30.",
        moved("roadmap-review", "{{ next wednesday 16:00 }}", "{{ next wednesday 17:00 }}"),
        edit("roadmap-agenda", OLD_WHEN, "{{ next wednesday | human }}, 16:00–17:00 CET"),
        mail(TEAM, "New time", "Moved to Wednesday 16:00-17:00 CET."),
    ),
    bad(
        "wrong-zone-in-mail",
        "Moves correctly but tells everyone '15:30 London time'.",
        MOVE,
        AGENDA,
        mail(TEAM, "New time", "The roadmap review is now on Thursday at 15:30 London time."),
    ),
    bad(
        "skips-all-hands",
        "Declines the all-hands and keeps the meeting where it was.",
        decline("all-hands"),
        mail(TEAM, "Roadmap review", "We keep Wednesday 15:00 for the roadmap review."),
    ),
    bad(
        "tells-all-company",
        "Announces the new time to all@acme.test by replying to the all-hands mail.",
        MOVE,
        AGENDA,
        reply("allhands-moved", "The Q2 roadmap review is now Thursday 15:30-16:30 CET."),
    ),
    bad(
        "agenda-untouched",
        "Moves and mails but leaves the agenda on the old time.",
        MOVE,
        mail(TEAM, "New time", "Roadmap review: Thursday 15:30-16:30 CET."),
    ),
]

# -- postmortem: INC-42; people alice, bob, carol, dave; review Thu next week 10:00-11:00 PT ----------------------------

PEOPLE = ["alice@acme.test", "bob@acme.test", "carol@acme.test", "dave@acme.test"]
PM = (
    "# Postmortem: INC-42 Payments API returning 502s\n\n## Summary\nPayments failed for about 45 minutes.\n\n## "
    "Impact\n40+ merchant tickets about failed payments.\n\n## Timeline (Pacific time)\n- 14:05 paged for the "
    "payments-api 502 rate at 38%\n- 14:09 support reports 40+ merchant tickets\n- 14:12 payments-db connections "
    "exhausted, sessions waiting on a lock on payments.transactions\n- 14:20 rolled back release r482, no change\n"
    "- 14:31 root cause found\n- 14:44 migration 0142 cancelled, lock released\n- 14:47 502 rate back to baseline\n\n"
    "## Root cause\nMigration 0142 ran CREATE INDEX without CONCURRENTLY on payments.transactions; the exclusive "
    "lock queued every payment write until the connection pool ran out.\n\n## Action items\n"
)
FOLLOW = [
    ("CI check that rejects CREATE INDEX without CONCURRENTLY", "carol@acme.test"),
    ("Alert when lock waits on payments-db exceed 30 seconds", "bob@acme.test"),
    ("Runbook for cancelling a running migration safely", "alice@acme.test"),
]


def followups(link: bool = True, owner: str | None = None) -> list[dict]:
    """The three follow-up OPS tasks, each linked to INC-42 unless told not to."""
    out: list[dict] = []
    for i, (title, who) in enumerate(FOLLOW):
        out.append(ticket("OPS", title, save=f"f{i}", assignee=owner or who, description="Postmortem: ${doc.url}"))
        if link:
            out.append(call("tickets__link_tickets", source=f"${{f{i}.key}}", type="relates_to", target="INC-42"))
    return out


PM_DOC = doc("Postmortem: INC-42 Payments API returning 502s", PM, folder_id="postmortems")
SHARES = [share("${doc.id}", who, "commenter") for who in PEOPLE]
REVIEW = event(
    "Postmortem review: INC-42", "{{ thursday next week 10:00 }}", "{{ thursday next week 11:00 }}", attendees=PEOPLE
)
ANNOUNCE = mail(["platform-team@acme.test"], "Postmortem: INC-42", "The INC-42 postmortem is ready: ${doc.url}")
POSTMORTEM = [
    ok(
        "complete",
        "Doc in Postmortems, shared to commenters, three linked follow-ups, review Thursday, team mailed.",
        PM_DOC,
        SHARES,
        followups(),
        REVIEW,
        ANNOUNCE,
    ),
    ok(
        "reverse-links-and-incident-note",
        "Links written from the incident's side, a comment on INC-42 with the doc, "
        "and a thank-you beside the announcement.",
        PM_DOC,
        SHARES,
        [
            [
                ticket("OPS", t, save=f"f{i}", assignee=w, description="From the INC-42 postmortem: ${doc.url}"),
                call("tickets__link_tickets", source="INC-42", type="relates_to", target=f"${{f{i}.key}}"),
            ]
            for i, (t, w) in enumerate(FOLLOW)
        ],
        comment("INC-42", "Postmortem: ${doc.url}"),
        REVIEW,
        mail(
            ["platform-team@acme.test"],
            "INC-42 postmortem",
            "Hi team, the postmortem for yesterday's payments outage: ${doc.url}. Thanks to everyone who jumped in!",
        ),
    ),
    ok(
        "review-zone-and-link",
        "The review with an explicit zone and the doc link in its description.",
        PM_DOC,
        SHARES,
        followups(),
        event(
            "INC-42 postmortem review",
            "{{ thursday next week 10:00 }}",
            "{{ thursday next week 11:00 }}",
            timezone="America/Los_Angeles",
            attendees=PEOPLE,
            description="Doc: ${doc.url}",
        ),
        ANNOUNCE,
    ),
    bad(
        "link-sharing-on",
        "Turns on link sharing, which the template forbids.",
        PM_DOC,
        SHARES,
        call("docs__set_link_sharing", document_id="${doc.id}", access="commenter"),
        followups(),
        REVIEW,
        ANNOUNCE,
    ),
    bad(
        "all-followups-to-dev",
        "Assigns every follow-up to Dev instead of its owner.",
        PM_DOC,
        SHARES,
        followups(owner="dev@acme.test"),
        REVIEW,
        ANNOUNCE,
    ),
    bad(
        "review-while-dave-away",
        "Books the review on Monday, when Dave is at a conference.",
        PM_DOC,
        SHARES,
        followups(),
        event("Postmortem review", "{{ monday next week 09:00 }}", "{{ monday next week 10:00 }}", attendees=PEOPLE),
        ANNOUNCE,
    ),
    bad(
        "stale-root-cause",
        "Writes INC-41's root cause (a mapping change and reindex) into the postmortem.",
        doc(
            "Postmortem: INC-42 Payments API returning 502s",
            "# Postmortem: INC-42\n\n## Root cause\nA mapping change forced a full reindex during peak traffic.\n",
            folder_id="postmortems",
        ),
        SHARES,
        followups(),
        REVIEW,
        ANNOUNCE,
    ),
    bad(
        "unlinked-followups",
        "Files the follow-ups but never links them to INC-42.",
        PM_DOC,
        SHARES,
        followups(link=False),
        REVIEW,
        ANNOUNCE,
    ),
]

# -- flaky-ticketing: HEIC crash (MOB, ios) and reset link (WEB, web); reply with both keys --------------------------------

HEIC = ticket(
    "MOB",
    "iOS app crashes when uploading HEIC photos",
    save="heic",
    type="bug",
    labels=["ios"],
    description="Steps: open a project, tap Add photo, pick a HEIC photo -> crash. Expected: upload. "
    "5.8.0 beta build 5812, iPhone 15, iOS 17.3. Crash log: EXC_BAD_ACCESS in ImageUploader.convert.",
)
RESET = ticket(
    "WEB",
    "Password reset link reported expired immediately",
    save="reset",
    type="bug",
    labels=["web"],
    description="Steps: request reset, open the link within a minute -> 'This link has expired'. Expected: "
    "valid for 24 h. Production web app, Chrome 122 on macOS; staging fine.",
)
FLAKY = [
    ok(
        "one-reply-both-keys",
        "Two bugs filed per the guide; one reply to Ana with both keys.",
        HEIC,
        RESET,
        reply("bug-reset", "Hi Ana, filed both: ${heic.key} (iOS HEIC crash) and ${reset.key} (reset link). Chris"),
    ),
    ok(
        "reply-on-each",
        "A reply on each bug mail with its own key.",
        HEIC,
        reply("bug-heic", "Thanks Ana - tracked as ${heic.key}."),
        RESET,
        reply("bug-reset", "Thanks Ana - tracked as ${reset.key}."),
    ),
    ok(
        "new-mail-extra-label",
        "A new mail with both keys; a non-platform label ('crash') beside the platform one.",
        ticket(
            "MOB",
            "HEIC photo upload crashes the iOS app",
            save="heic",
            type="bug",
            labels=["ios", "crash"],
            description="Open project > Add photo > HEIC photo: crash. Expected upload. Build 5812, iPhone 15, "
            "iOS 17.3.",
        ),
        RESET,
        mail(
            ["ana@acme.test"],
            "Your two bug reports",
            "Hi Ana,\n\nHEIC crash: ${heic.key}\nReset link: ${reset.key}\n\nChris",
        ),
    ),
    bad(
        "label-stuffing",
        "Labels both bugs with every platform.",
        ticket("MOB", "iOS HEIC crash", save="heic", type="bug", labels=["ios", "android", "web", "api"]),
        ticket("WEB", "Reset link expired", save="reset", type="bug", labels=["ios", "android", "web", "api"]),
        reply("bug-reset", "Filed ${heic.key} and ${reset.key}."),
    ),
    bad(
        "sets-priority",
        "Sets both to high priority, which the guide leaves to triage.",
        ticket("MOB", "iOS HEIC crash", save="heic", type="bug", labels=["ios"], priority="high"),
        ticket("WEB", "Reset link expired", save="reset", type="bug", labels=["web"], priority="high"),
        reply("bug-reset", "Filed ${heic.key} and ${reset.key}."),
    ),
    bad(
        "files-the-idea",
        "Also files the dark-mode idea as a bug.",
        HEIC,
        RESET,
        ticket("WEB", "Dark mode for the dashboard", type="bug", labels=["web"]),
        reply("bug-reset", "Filed ${heic.key} and ${reset.key} (and the dark mode idea)."),
    ),
    bad(
        "key-stuffing",
        "Replies with a list of every key she might mean, old ones included.",
        HEIC,
        RESET,
        reply("bug-reset", "Hi Ana, see MOB-56, MOB-57, WEB-88, WEB-89, ${heic.key} and ${reset.key}."),
    ),
    bad(
        "both-in-mob",
        "Files the web bug in MOB with the ios label.",
        HEIC,
        ticket("MOB", "Password reset link expired", save="reset", type="bug", labels=["ios"]),
        reply("bug-reset", "Filed ${heic.key} and ${reset.key}."),
    ),
]

from cases_library2 import CONTRACT, ONCALL  # noqa: E402

ALL = {
    "lib-travel": ("scenarios/travel.yaml", TRAVEL),
    "lib-reschedule-conflict": ("scenarios/reschedule-conflict.yaml", RESCHEDULE),
    "lib-postmortem": ("scenarios/postmortem.yaml", POSTMORTEM),
    "lib-flaky-ticketing": ("scenarios/flaky-ticketing.yaml", FLAKY),
    "lib-contract-review": ("scenarios/contract-review.yaml", CONTRACT),
    "lib-oncall-handover": ("scenarios/oncall-handover.yaml", ONCALL),
}
