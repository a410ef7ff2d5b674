"""Held-out cases for four library scenarios: expense-followup, new-hire-onboarding, meeting-notes-followup and
interview-loop (dates below are the seeds' relative dates expanded at their clocks)."""

from steps import bad, call, comment, mail, ok, reply, share, ticket

# -- expense-followup: today Mon 16 March. Porto receipts of 9-11 March: taxi 34.50, lunch 84.60 (2 covers), hotel
# 324.00 (2 nights x 158 + tax = 162/night, over the 150 limit), train 61.20. Netflix is personal; FN-80117 is filed.
MARTA = "marta@acme.test"
RECEIPTS = ["receipt-taxi", "receipt-lunch", "receipt-hotel", "receipt-train"]


def expense(save, title, label, category, amount, assignee="finance@acme.test", extra=()):
    """One expense ticket as the policy asks."""
    return ticket(
        "EXP",
        title,
        save=save,
        type="request",
        assignee=assignee,
        labels=[label, *extra],
        description=f"Date: 2026-03-09. Amount: {amount} EUR. Category: {category}.",
    )


def filed(hotel_assignee=MARTA, hotel_labels=("over-limit",), with_netflix=False):
    """The four receipts filed (the hotel as over the limit unless told otherwise)."""
    out = [
        expense("taxi", "FreeNow 34.50 EUR", "travel", "taxi", "34.50"),
        expense("lunch", "Trattoria Roma 84.60 EUR", "meals", "meals (2 covers, business guest Ana Costa)", "84.60"),
        expense(
            "hotel", "Hotel Avenida 324.00 EUR", "lodging", "hotel, 2 nights", "324.00", hotel_assignee, hotel_labels
        ),
        expense("train", "CP 61.20 EUR", "travel", "train", "61.20"),
    ]
    if with_netflix:
        out.append(expense("nf", "Netflix 13.99 EUR", "travel", "subscription", "13.99"))
    return out


OVER = comment(
    "${hotel.key}",
    "Over the hotel limit: 150 EUR per night; this is 162 EUR per night, 12 EUR per night (24 EUR in total) above it.",
)
ASK = mail(
    [MARTA],
    "Approval needed: ${hotel.key}",
    "Hi Marta,\n\nthe Hotel Avenida invoice from the Porto trip "
    "(${hotel.key}, 324.00 EUR) is over the hotel limit by 12 EUR per night. Could you approve it?\n\nLeo",
)
LABEL = call("mail__add_label", message_ids=RECEIPTS, label="Expensed")
LOG = call(
    "docs__append_content",
    document_id="expense-log",
    text="| 2026-03-16 | 4 | 180.30 | 324.00 | ${taxi.key}, ${lunch.key}, ${hotel.key}, ${train.key} |",
)
EXPENSE = [
    ok(
        "base",
        "Four receipts filed per the policy, the hotel over the limit to Marta with comment and mail, mails "
        "labelled, log row added.",
        filed(),
        OVER,
        ASK,
        LABEL,
        LOG,
    ),
    ok(
        "other-wording",
        "Same outcome; Marta's mail and the comment worded differently, amounts with the euro sign.",
        filed(),
        comment(
            "${hotel.key}",
            "Hotel policy limit = €150/night. Invoice = €162/night incl. city tax -> €12/night "
            "over (€24 for the stay).",
        ),
        mail(
            [MARTA],
            "Porto hotel over the limit",
            "Marta, could you OK ${hotel.key}? The Porto hotel came to €324 for "
            "two nights, €24 more than the €150/night limit allows. Thanks, Leo",
        ),
        LABEL,
        LOG,
    ),
    ok(
        "read-and-log-total",
        "Also marks the receipts read; the log row counts every filed euro as claimed.",
        filed(),
        OVER,
        ASK,
        call("mail__mark_read", message_ids=RECEIPTS),
        LABEL,
        call(
            "docs__append_content",
            document_id="expense-log",
            text="| 2026-03-16 | 4 | 504.30 | 324.00 | ${taxi.key}, ${lunch.key}, ${hotel.key}, ${train.key} |",
        ),
    ),
    bad("netflix", "Also expenses the personal Netflix receipt.", filed(with_netflix=True), OVER, ASK, LABEL, LOG),
    bad(
        "hotel-to-finance",
        "Files the over-limit hotel like the others, to finance, without Marta.",
        filed(hotel_assignee="finance@acme.test", hotel_labels=()),
        LABEL,
        LOG,
    ),
    bad(
        "no-ticket-in-mail",
        "Asks Marta vaguely without naming the ticket.",
        filed(),
        OVER,
        mail([MARTA], "Porto", "Hi Marta, one of my Porto receipts may be a bit over, hope that's ok?"),
        LABEL,
        LOG,
    ),
    bad(
        "refiles-old-taxi",
        "Files last month's already-expensed taxi (FN-80117) again.",
        filed(),
        expense("old", "FreeNow 22.90 EUR", "travel", "taxi", "22.90"),
        OVER,
        ASK,
        LABEL,
        LOG,
    ),
    bad("mails-not-marked", "Does everything except labelling the receipt mails.", filed(), OVER, ASK, LOG),
]

# -- new-hire-onboarding: today Wed 4 March; Jonas starts Monday 9 March (Europe/London, GMT). Sam busy Tue 09-15.
JONAS, SAM = "jonas@acme.test", "sam@acme.test"
SYSTEMS = ["GitHub", "AWS staging", "PagerDuty"]
CHECKLIST = (
    "# Onboarding checklist: Jonas Weber\n\n- Start date: Monday 9 March 2026\n- Manager: Maya Chen\n- Buddy: Sam Ortiz\n"
    "\n## First week (new hire)\n\n- [ ] Set up your laptop and 2FA\n- [ ] Read the Platform handbook\n"
    "- [ ] Join #platform and #platform-incidents\n- [ ] Ship a first small PR with your buddy\n"
)


def onboarding(systems=SYSTEMS, sam_role="editor", buddy=("2026-03-10T15:00:00+00:00", "2026-03-10T15:30:00+00:00")):
    """Checklist, access tickets, meetings (the welcome mail is left to each case)."""
    return [
        call(
            "docs__create_document",
            save="d",
            title="Onboarding checklist: Jonas Weber",
            content=CHECKLIST,
            folder_id="onboarding",
        ),
        share("${d.id}", JONAS),
        share("${d.id}", SAM, sam_role),
        [
            ticket(
                "IT",
                f"Access: {s} for Jonas Weber",
                type="request",
                assignee="it-desk@acme.test",
                labels=["onboarding"],
                due_date="2026-03-06",
                description="Checklist: ${d.url}",
            )
            for s in systems
        ],
        call(
            "calendar__create_event",
            title="Team welcome: Jonas",
            start="2026-03-09T10:00:00+00:00",
            end="2026-03-09T10:30:00+00:00",
            attendees=[JONAS, SAM, "lee@acme.test", "nina@acme.test"],
        ),
        call(
            "calendar__create_event",
            title="1:1 Maya / Jonas",
            start="2026-03-09T14:00:00+00:00",
            end="2026-03-09T14:30:00+00:00",
            attendees=[JONAS],
        ),
        call(
            "calendar__create_event",
            title="1:1 Jonas / Sam (buddy)",
            start=buddy[0],
            end=buddy[1],
            attendees=[JONAS, SAM],
        ),
    ]


WELCOME = mail(
    [JONAS],
    "Welcome to the Platform team!",
    "Hi Jonas, welcome aboard! Your onboarding checklist is "
    "here: ${d.url}\nSee you Monday at 10:00 for the team welcome.\nMaya",
)
ONBOARDING = [
    ok(
        "base",
        "Checklist from the template shared with Jonas and Sam as editors, three access requests, three "
        "meetings, welcome mail to his Acme address with the link.",
        onboarding(),
        WELCOME,
    ),
    ok(
        "buddy-later-cc",
        "Buddy 1:1 at another free time (16:00) and the welcome copies Sam.",
        onboarding(buddy=("2026-03-10T16:00:00Z", "2026-03-10T16:30:00Z")),
        mail(
            [JONAS],
            "Welcome, Jonas",
            "Welcome to the team! Checklist: ${d.url} - Sam is your buddy and is copied here.",
            cc=[SAM],
        ),
    ),
    ok(
        "template-copy",
        "Creates the doc empty and fills it with replace_content, in a different order.",
        call("docs__create_document", save="d", title="Onboarding checklist: Jonas Weber", folder_id="onboarding"),
        call("docs__replace_content", document_id="${d.id}", content=CHECKLIST),
        onboarding()[1:],
        WELCOME,
    ),
    bad(
        "private-address",
        "Sends the welcome to Jonas's private gmail address, outside the company.",
        onboarding(),
        mail(["jonas.weber@gmail.test"], "Welcome!", "Hi Jonas, your checklist: ${d.url}"),
    ),
    bad(
        "laptop-ticket",
        "Files a laptop ticket HR said is not needed.",
        onboarding(systems=[*SYSTEMS, "Laptop"]),
        WELCOME,
    ),
    bad(
        "old-template",
        "Uses the outdated 2024 template's systems (Jenkins, VPN, Jira).",
        onboarding(systems=["Jenkins", "VPN", "Jira"]),
        WELCOME,
    ),
    bad(
        "buddy-busy",
        "Books the buddy 1:1 at 11:00 on Tuesday, when Sam is busy.",
        onboarding(buddy=("2026-03-10T11:00:00+00:00", "2026-03-10T11:30:00+00:00")),
        WELCOME,
    ),
    bad("sam-viewer", "Shares the checklist with the buddy read-only.", onboarding(sam_role="viewer"), WELCOME),
]

# -- meeting-notes-followup: today Tue 12 May; open items Sofia (Fri 15 May), Ken (Wed 20 May), Marcus (Thu 14 May).
NOTES = "https://docs.example.test/d/notes-today"
ITEMS = [
    ("s", "Update the payment step mockups with the new error states", "sofia@acme.test", "2026-05-15"),
    ("k", "Put the new checkout flow behind a feature flag", "ken@acme.test", "2026-05-20"),
    ("m", "Confirm the launch date with marketing", "marcus@acme.test", "2026-05-14"),
]
ATTENDEES = ["marcus@acme.test", "sofia@acme.test", "ken@acme.test"]


def chk(items=ITEMS):
    """One CHK ticket per item."""
    return [
        ticket("CHK", title, save=s, assignee=who, due_date=due, description=f"From the sync notes: {NOTES}")
        for s, title, who, due in items
    ]


KEYS = call(
    "docs__append_content",
    document_id="notes-today",
    text="\nTickets: ${s.key} (mockups), ${k.key} (feature flag), ${m.key} (launch date)\n",
)
LIST = (
    "- Sofia: payment step mockups with error states - ${s.key}\n- Ken: feature flag for the new flow - ${k.key}\n"
    "- Marcus: confirm the launch date with marketing - ${m.key}\n"
)
NOTES_CASES = [
    ok(
        "base",
        "Three tickets with owners, due dates and the notes link; keys in the notes; one mail to all three.",
        chk(),
        KEYS,
        mail(ATTENDEES, "Checkout sync follow-up", "Hi all, action items from today's sync:\n" + LIST),
    ),
    ok(
        "mail-each",
        "Same, one follow-up mail per attendee.",
        chk(),
        KEYS,
        [mail([p], "Checkout redesign sync: action items", LIST) for p in ATTENDEES],
    ),
    ok(
        "inline-keys",
        "Keys written next to each item in the notes; a comment on each ticket; items in another order.",
        chk(ITEMS[::-1]),
        call(
            "docs__edit_document",
            document_id="notes-today",
            find="new error states, due Friday 15 May",
            replace="new error states, due Friday 15 May (${s.key})",
        ),
        call(
            "docs__edit_document",
            document_id="notes-today",
            find="feature flag, due Wednesday 20 May",
            replace="feature flag, due Wednesday 20 May (${k.key})",
        ),
        call(
            "docs__edit_document",
            document_id="notes-today",
            find="marketing, due Thursday 14 May",
            replace="marketing, due Thursday 14 May (${m.key})",
        ),
        [comment(f"${{{s}.key}}", "Created from today's checkout sync notes.") for s in ("s", "k", "m")],
        mail(ATTENDEES, "Follow-up: checkout redesign sync", "Thanks all. Items and tickets:\n" + LIST),
    ),
    bad(
        "done-item-too",
        "Also opens a ticket for Elena's item that was done in the meeting.",
        chk([*ITEMS, ("e", "Share the usability test recordings", "elena@acme.test", "2026-05-12")]),
        KEYS,
        mail(ATTENDEES, "Checkout sync follow-up", LIST),
    ),
    bad(
        "last-week-people",
        "Mails last week's attendees (Nina instead of Ken).",
        chk(),
        KEYS,
        mail(["marcus@acme.test", "sofia@acme.test", "nina@acme.test"], "Checkout sync follow-up", LIST),
    ),
    bad(
        "wrong-due",
        "Ken's due date set to this Wednesday (13 May) instead of next week's.",
        chk([ITEMS[0], ("k", ITEMS[1][1], "ken@acme.test", "2026-05-13"), ITEMS[2]]),
        KEYS,
        mail(ATTENDEES, "Checkout sync follow-up", LIST),
    ),
    bad(
        "no-keys-in-mail",
        "Follow-up mail lists the items without their ticket keys.",
        chk(),
        KEYS,
        mail(ATTENDEES, "Checkout sync follow-up", "Items: Sofia mockups, Ken feature flag, Marcus launch date."),
    ),
    bad(
        "all-to-marcus",
        "Assigns every ticket to Marcus.",
        chk([(s, t, "marcus@acme.test", d) for s, t, _, d in ITEMS]),
        KEYS,
        mail(ATTENDEES, "Checkout sync follow-up", LIST),
    ),
]

# -- interview-loop: today Mon 1 June. Jamie (London, BST): Wed 10 June 12-17, Thu 11 June 08-11 UK time. The only
# schedule: Omar Wed 15:00-16:00 UK, Lena Thu 08:00-09:00 UK, Yuki Thu 09:00-10:00 UK (Berlin is one hour ahead).
JAMIE = "jamie.chen@mailbox.test"
INTERVIEWERS = ["omar@acme.test", "yuki@acme.test", "lena@acme.test"]
SLOTS = [
    ("Coding", "omar@acme.test", "2026-06-10T16:00:00+02:00", "2026-06-10T17:00:00+02:00"),
    ("Hiring manager", "lena@acme.test", "2026-06-11T09:00:00+02:00", "2026-06-11T10:00:00+02:00"),
    ("System design", "yuki@acme.test", "2026-06-11T10:00:00+02:00", "2026-06-11T11:00:00+02:00"),
]
KIT = (
    "# Interview kit: Jamie Chen\n\nRole: Senior Backend Engineer\n\n## Schedule\n| Interview | Interviewer | Time |\n"
    "|---|---|---|\n| Coding | Omar | Wed 10 June 16:00 CEST |\n| Hiring manager | Lena | Thu 11 June 09:00 CEST |\n"
    "| System design | Yuki | Thu 11 June 10:00 CEST |\n\n## Feedback\n### Coding\n### System design\n"
    "### Hiring manager\n"
)


def loop(slots=SLOTS, description=""):
    """The three interviews and the kit shared with the interviewers."""
    return [
        call(
            "docs__create_document", save="kit", title="Interview kit: Jamie Chen", content=KIT, folder_id="sbe-hiring"
        ),
        [share("${kit.id}", p) for p in INTERVIEWERS],
        [
            call(
                "calendar__create_event",
                title=f"Final round: {name} interview - Jamie Chen",
                start=start,
                end=end,
                attendees=[who, JAMIE],
                description=description,
            )
            for name, who, start, end in slots
        ],
    ]


TIMES_UK = (
    "- Wednesday 10 June, 15:00-16:00: coding (Omar)\n- Thursday 11 June, 08:00-09:00: hiring manager (Lena)\n"
    "- Thursday 11 June, 09:00-10:00: system design (Yuki)\nAll times UK time."
)
INTERVIEW = [
    ok(
        "base",
        "Three interviews in the only free slots, kit in the hiring folder for the interviewers, reply in UK time.",
        loop(),
        reply("jamie-availability", "Hi Jamie,\n\nyour final round:\n" + TIMES_UK + "\n\nMaya"),
    ),
    ok(
        "new-mail-pm",
        "New mail to Jamie, times as '3pm BST' etc.",
        loop(),
        mail(
            [JAMIE],
            "Your final round interviews",
            "Hi Jamie, here's your schedule (UK time, BST): Wed 10 June "
            "3-4pm coding; Thu 11 June 8-9am hiring manager, then 9-10am system design. Maya",
        ),
    ),
    ok(
        "both-zones",
        "Reply gives UK times with Berlin times alongside.",
        loop(),
        reply(
            "jamie-availability",
            "Booked! Wed 10 June 15:00 UK (16:00 CEST) coding; Thu 11 June 08:00 UK "
            "(09:00 CEST) hiring manager; Thu 11 June 09:00 UK (10:00 CEST) system design.",
        ),
    ),
    bad(
        "berlin-as-uk",
        "Tells Jamie the Berlin clock times and calls them UK time.",
        loop(),
        reply(
            "jamie-availability",
            "Hi Jamie: Wed 10 June 16:00-17:00, Thu 11 June 09:00-10:00 and 10:00-11:00 (UK time).",
        ),
    ),
    bad(
        "kit-to-jamie",
        "Shares the internal kit with the candidate.",
        loop(),
        share("${kit.id}", JAMIE, "viewer"),
        reply("jamie-availability", TIMES_UK),
    ),
    bad(
        "kit-in-invite",
        "Puts the kit's link in the invitations Jamie receives.",
        loop(description="Interview kit: ${kit.url}"),
        reply("jamie-availability", TIMES_UK),
    ),
    bad(
        "omar-thursday",
        "Books Omar on Thursday 08:00 UK, at 03:00 in New York.",
        loop(
            [
                ("Coding", "omar@acme.test", "2026-06-11T09:00:00+02:00", "2026-06-11T10:00:00+02:00"),
                ("Hiring manager", "lena@acme.test", "2026-06-10T16:00:00+02:00", "2026-06-10T17:00:00+02:00"),
                SLOTS[2],
            ]
        ),
        reply(
            "jamie-availability",
            "Thu 11 June 08:00 coding, Wed 10 June 15:00 hiring manager, Thu 11 June 09:00 system design (UK time).",
        ),
    ),
    bad(
        "reply-only", "Replies with times but books nothing and creates no kit.", reply("jamie-availability", TIMES_UK)
    ),
]

CASES = {
    "expense-followup": ("scenarios/expense-followup.yaml", EXPENSE),
    "new-hire-onboarding": ("scenarios/new-hire-onboarding.yaml", ONBOARDING),
    "meeting-notes-followup": ("scenarios/meeting-notes-followup.yaml", NOTES_CASES),
    "interview-loop": ("scenarios/interview-loop.yaml", INTERVIEW),
}
