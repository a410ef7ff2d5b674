"""Held-out cases for library scenarios: declined-meeting, rate-limited-triage, approval-wait, lost-reply-mail,
inbox-triage. Dates are templates read from the scenario's clock."""

from __future__ import annotations

from steps import archive, bad, call, comment, label, mail, move, moved, ok, reply, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def upd(key: str, **args) -> dict:
    """Update a ticket's fields."""
    return call("tickets__update_ticket", key=key, **args)


# -- declined-meeting: ask Sam by mail, wait; he proposes 14:00-15:00 tomorrow; move the review there (1 h) and mail
#    Priya and Sam the new time.
SAM, PRI = "sam@acme.test", "priya@acme.test"
ASK = mail([SAM], "Design review tomorrow", "Hi Sam, can you make the design review tomorrow at 10:00? Lena")
NEW = ("{{ tomorrow 14:00 }}", "{{ tomorrow 15:00 }}")
DM = [
    ok(
        "ask-wait-move-one-mail",
        "asks, waits for his answer, moves to 14:00-15:00, one mail to both",
        ASK,
        wait(30),
        call("mail__search_messages", save="ans", query="from:sam@acme.test"),
        call("mail__get_message", message_id="${ans.messages.0.id}"),
        moved("design-review", *NEW),
        mail([PRI, SAM], "Design review moved", "Hi Priya, hi Sam, the design review tomorrow is now 14:00-15:00."),
    ),
    ok(
        "utc-args-from-to-two-mails",
        "waits until something happens, moves with UTC arguments, mails each 'moved from 10:00 to 14:00-15:00'",
        ASK,
        wait(),
        wait(5),
        call("mail__search_messages", save="ans", query="from:sam@acme.test"),
        call("mail__get_message", message_id="${ans.messages.0.id}"),
        moved("design-review", "2026-03-03T13:00:00Z", "2026-03-03T14:00:00Z"),  # the clock is frozen on 2 March
        mail(
            [PRI],
            "New time",
            "Hi Priya, Sam can't make 10:00, so the design review moved from 10:00 to 14:00-15:00 tomorrow.",
        ),
        mail([SAM], "New time", "Thanks Sam, moved the design review to 2 pm - 3 pm tomorrow."),
    ),
    ok(
        "reply-to-own-ask-cc-priya",
        "announces the new time as a reply in the thread with Sam, Priya on cc",
        call(
            "mail__send_message",
            save="ask",
            to=[SAM],
            subject="Design review",
            body="Hi Sam, will you be at tomorrow's design review (10:00)? Lena",
        ),
        wait(20),
        call("mail__search_messages", save="ans", query="from:sam@acme.test"),
        call("mail__get_message", message_id="${ans.messages.0.id}"),
        moved("design-review", *NEW),
        call(
            "mail__reply",
            message_id="${ask.id}",
            cc=[PRI],
            body="Thanks Sam - the design review is moved to tomorrow 14:00-15:00 (Berlin). Priya, FYI.",
        ),
    ),
    bad(
        "no-ask",
        "moves it without asking Sam (nothing to act on yet)",
        moved("design-review", *NEW),
        mail([PRI, SAM], "Design review moved", "The design review is now tomorrow 14:00-15:00."),
    ),
    bad(
        "two-hours",
        "moves it to 14:00-16:00, not keeping one hour",
        ASK,
        wait(30),
        moved("design-review", "{{ tomorrow 14:00 }}", "{{ tomorrow 16:00 }}"),
        mail([PRI, SAM], "Design review moved", "The design review is now tomorrow 14:00-16:00."),
    ),
    bad(
        "mail-wrong-time",
        "moves correctly but mails 15:00",
        ASK,
        wait(30),
        moved("design-review", *NEW),
        mail([PRI, SAM], "Design review moved", "The design review is now tomorrow at 15:00."),
    ),
    bad(
        "mail-wrong-zone",
        "moves correctly but mails 14:00 London time (15:00 in Berlin)",
        ASK,
        wait(30),
        moved("design-review", *NEW),
        mail([PRI, SAM], "Design review moved", "The design review is now tomorrow at 14:00 London time."),
    ),
    bad(
        "mail-without-move",
        "announces the new time but never moves the event",
        ASK,
        wait(30),
        mail([PRI, SAM], "Design review moved", "The design review is now tomorrow 14:00-15:00."),
    ),
]

# -- rate-limited-triage: per the guide. SUP-101 outage -> highest/sev1; SUP-102 cosmetic -> low/sev3; SUP-103 one
#    customer blocked -> high/sev2; SUP-104 data loss -> highest/sev1; SUP-105 question -> low/sev3; SUP-106 one
#    customer -> high/sev2; SUP-107 feature request: leave; SUP-90 done: leave.
TRI = {
    "SUP-101": ("highest", "sev1"),
    "SUP-102": ("low", "sev3"),
    "SUP-103": ("high", "sev2"),
    "SUP-104": ("highest", "sev1"),
    "SUP-105": ("low", "sev3"),
    "SUP-106": ("high", "sev2"),
}
RL = [
    ok(
        "one-update-each",
        "one update per ticket with priority and label",
        [upd(k, priority=p, add_labels=[lab]) for k, (p, lab) in TRI.items()],
    ),
    ok(
        "reverse-order-with-comments",
        "reverse order, with a short triage comment on each ticket",
        [
            [upd(k, priority=p, add_labels=[lab]), comment(k, f"Triaged as {lab} per the support triage guide.")]
            for k, (p, lab) in reversed(list(TRI.items()))
        ],
    ),
    ok(
        "separate-calls",
        "label and priority set in separate calls",
        [upd(k, add_labels=[lab]) for k, (_, lab) in TRI.items()],
        [upd(k, priority=p) for k, (p, _) in TRI.items()],
    ),
    bad(
        "triages-feature-request",
        "also triages the feature request the guide says to leave",
        [upd(k, priority=p, add_labels=[lab]) for k, (p, lab) in TRI.items()],
        upd("SUP-107", priority="low", add_labels=["sev3"]),
    ),
    bad(
        "data-loss-as-sev2",
        "treats the deleted customer records (data loss) as sev2/high",
        [upd(k, priority=p, add_labels=[lab]) for k, (p, lab) in TRI.items() if k != "SUP-104"],
        upd("SUP-104", priority="high", add_labels=["sev2"]),
    ),
    bad(
        "stuffed-labels",
        "adds every severity label to every ticket",
        [upd(k, priority=p, add_labels=["sev1", "sev2", "sev3"]) for k, (p, _) in TRI.items()],
    ),
    bad(
        "moves-status",
        "triages correctly but also moves every ticket to in progress (not asked)",
        [[upd(k, priority=p, add_labels=[lab]), move(k, "in_progress")] for k, (p, lab) in TRI.items()],
    ),
]

# -- approval-wait: ask Marta in a comment on OPS-41, wait for her approval there, then close as done.
ASK_OK = comment("OPS-41", "Marta, the staging password is rotated. Could you approve so I can close this change?")
AW = [
    ok(
        "ask-wait-close",
        "asks in a comment, waits, reads the ticket, closes as done",
        ASK_OK,
        wait(45),
        call("tickets__get_ticket", key="OPS-41"),
        move("OPS-41", "done"),
    ),
    ok(
        "sign-off-thanks-close",
        "asks for sign-off in other words, waits until something happens, thanks her, closes with a comment",
        comment(
            "OPS-41",
            "Hi Marta, work is finished (password rotated, secrets store updated). Please give your "
            "sign-off so I can close OPS-41.",
        ),
        wait(),
        wait(5),
        call("tickets__get_ticket", key="OPS-41"),
        comment("OPS-41", "Thanks Marta!"),
        move("OPS-41", "done", comment="Closing with Marta's approval."),
    ),
    ok(
        "ask-plus-courtesy-mail",
        "asks on the ticket, waits an hour, reads it, closes as fixed (fixed case: this scenario has no mail app)",
        ASK_OK,
        wait(60),
        call("tickets__get_ticket", key="OPS-41"),
        move("OPS-41", "done", resolution="fixed"),
    ),
    bad("close-without-asking", "closes straight away", move("OPS-41", "done")),
    bad("ask-and-close-at-once", "asks and closes without waiting for the approval", ASK_OK, move("OPS-41", "done")),
    bad(
        "ask-by-mail-only",
        "asks by mail, not on the ticket, waits, closes without any approval on the ticket",
        mail(["marta@acme.test"], "Approval for OPS-41?", "Hi Marta, could you approve OPS-41? Dana"),
        wait(60),
        move("OPS-41", "done"),
    ),
    bad("closes-too-early", "asks, waits only 10 minutes, closes", ASK_OK, wait(10), move("OPS-41", "done")),
    bad(
        "cancels",
        "asks, waits, then cancels the ticket instead of closing it as done",
        ASK_OK,
        wait(45),
        move("OPS-41", "cancelled"),
    ),
]

# -- lost-reply-mail: reply to Priya with the venue address: Alte Brauerei, Kastanienallee 12, 10435 Berlin.
LR = [
    ok(
        "reply",
        "replies with the address",
        reply("ask-venue", "Hi Priya, the venue is Alte Brauerei, Kastanienallee 12, 10435 Berlin.\n\nDana"),
    ),
    ok(
        "reply-other-layout-with-dates",
        "address on separate lines, plus the dates as context",
        reply(
            "ask-venue",
            "Hi Priya,\n\nhere you go:\nAlte Brauerei\nKastanienallee 12\n10435 Berlin\n\n(offsite on "
            "24-25 March)\n\nDana",
        ),
    ),
    ok(
        "new-mail",
        "a new mail with the address instead of a reply",
        mail(
            ["priya@acme.test"],
            "Offsite venue address",
            "Hi Priya, for the taxis: Kastanienallee 12, 10435 Berlin (Alte Brauerei). Dana",
        ),
    ),
    bad(
        "old-venue",
        "sends last year's venue",
        reply("ask-venue", "Hi Priya, it's Spreespeicher, Stralauer Allee 2, 10245 Berlin.\n\nDana"),
    ),
    bad(
        "both-venues",
        "lists both venues as alternatives",
        reply(
            "ask-venue",
            "Hi Priya, either Kastanienallee 12, "
            "10435 Berlin or Stralauer Allee 2, 10245 Berlin - not sure which.\n\nDana",
        ),
    ),
    bad(
        "pointer-only",
        "points to the doc without giving the address",
        reply("ask-venue", "Hi Priya, the address is in the Offsite logistics doc.\n\nDana"),
    ),
    bad(
        "to-tom",
        "sends the address to Tom instead of Priya",
        reply("tom-lunch", "The offsite venue is Alte Brauerei, Kastanienallee 12, 10435 Berlin."),
    ),
]

# -- inbox-triage: webhook-duplicates -> API bug high; checkout-outage + checkout-outage-support -> one WEB bug
#    highest; ios-photo-crash -> MOB bug medium (workaround); android-push-delay -> already MOB-7 (open): comment;
#    csv-export-request -> WEB story low; orders-filter-request -> API story low. Label those Triaged; archive the
#    two newsletters; personal mail untouched; no replies.
REPORTS = [
    "webhook-duplicates",
    "checkout-outage",
    "checkout-outage-support",
    "ios-photo-crash",
    "android-push-delay",
    "csv-export-request",
    "orders-filter-request",
]


def _triage(
    checkout_priority: str = "highest",
    extra: list | None = None,
    skip_mob7: bool = False,
    tags: list[str] | None = None,
) -> list:
    more = {"labels": tags} if tags else {}
    out = [
        ticket(
            "API",
            "order.created webhooks delivered twice",
            type="bug",
            priority="high",
            description="Reported by raj@fleetio.test (Fleetio): every order.created webhook arrives twice with "
            "different delivery ids; orders shipped twice, no workaround.",
            **more,
        ),
        ticket(
            "WEB",
            "Checkout returns 500 for every payment",
            type="bug",
            priority=checkout_priority,
            description="Production down: nobody can pay. Reported by nadia.kim@brightlane.test and "
            "leo@acme.test (five merchants).",
            **more,
        ),
        ticket(
            "MOB",
            "iOS: app crashes when attaching a photo to an order comment",
            type="bug",
            priority="medium",
            description="Reported by ana@acme.test. iOS 19. Workaround: attach from the web dashboard.",
        ),
        ticket(
            "WEB",
            "Export invoices list to CSV",
            type="story",
            priority="low",
            description="Requested by mia@northwind.test (Northwind).",
            **more,
        ),
        ticket(
            "API",
            "Orders endpoint: filter by updated date",
            type="story",
            priority="low",
            description="Requested by priya@contoso.test (Contoso).",
            **more,
        ),
    ]
    if not skip_mob7:
        out.append(
            comment(
                "MOB-7",
                "New report from sam@acme.test: Android order notifications 2-3 hours late (Pixel and Samsung).",
            )
        )
    return out + (extra or [])


IT = [
    ok(
        "baseline",
        "files the five tickets, comments on MOB-7, labels, archives",
        _triage(),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
    ok(
        "reversed-order-one-by-one",
        "archives first, labels each report separately, tickets last in another order",
        archive(["saas-metrics-digest"]),
        archive(["devops-weekly-312"]),
        [label([r], "Triaged") for r in reversed(REPORTS)],
        list(reversed(_triage())),
    ),
    ok(
        "extra-labels-and-read",
        "adds a 'customer' label on the customer tickets and marks handled reports read",
        _triage(tags=["customer"]),
        label(REPORTS, "Triaged"),
        call("mail__mark_read", message_ids=REPORTS),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
    bad(
        "duplicate-of-mob7",
        "files a new ticket for the Android delay although MOB-7 is open",
        _triage(skip_mob7=True),
        ticket(
            "MOB",
            "Android push notifications late",
            type="bug",
            priority="high",
            description="Reported by sam@acme.test.",
        ),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
    bad(
        "two-checkout-tickets",
        "files a second checkout ticket for Leo's mail",
        _triage(),
        ticket(
            "WEB",
            "Checkout 500 reported by merchants",
            type="bug",
            priority="highest",
            description="Reported by leo@acme.test.",
        ),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
    bad(
        "checkout-high",
        "files the checkout outage as high instead of highest",
        _triage(checkout_priority="high"),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
    bad(
        "archives-personal",
        "also archives the personal mail",
        _triage(),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest", "climbing-saturday", "sunday-lunch"]),
    ),
    bad(
        "csv-request-as-bug",
        "files the CSV export feature request as a bug with medium priority",
        [x for x in _triage() if "CSV" not in x["args"].get("title", "")],
        ticket(
            "WEB",
            "Export invoices list to CSV",
            type="bug",
            priority="medium",
            description="Requested by mia@northwind.test (Northwind).",
        ),
        label(REPORTS, "Triaged"),
        archive(["devops-weekly-312", "saas-metrics-digest"]),
    ),
]

L = "scenarios"
ALL = {
    "declined-meeting": (f"{L}/declined-meeting.yaml", DM),
    "rate-limited-triage": (f"{L}/rate-limited-triage.yaml", RL),
    "approval-wait": (f"{L}/approval-wait.yaml", AW),
    "lost-reply-mail": (f"{L}/lost-reply-mail.yaml", LR),
    "inbox-triage": (f"{L}/inbox-triage.yaml", IT),
}
