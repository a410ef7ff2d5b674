"""Intent checks through the gateway: a `told` check judges what each person was told, by any channel, as claims.

Scripted agents do the changed-request task (confirm the dinner with Omar: the final day and headcount) in ways
the reference does not: a reply with Omar copied, a forward of Priya's follow-up, numbers in words, two mails,
the old figures set aside. Each must pass. Wrong ones (a hedge, alternatives, a question, the stale figures, a
draft never sent, the wrong person, the same mail twice) must fail on the told check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import ESC_GOOD, ESC_READS, ESC_TICKET, esc_reply  # noqa: E402
from harness import Case, append, drop, judge, oracle, parse, replace, script, setarg, tool  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
READS = """
- {tool: mail__get_message, args: {message_id: dinner-request}, save: request}
- {tool: world__wait, args: {minutes: 30}}
- {tool: mail__get_thread, args: {thread_id: "${request.thread_id}"}}
"""


def send(body: str, to: str = "omar@acme.test") -> str:
    return f"\n- {{tool: mail__send_message, args: {{to: [{to}], subject: Team dinner, body: {body!r}}}}}\n"


CASES = [
    Case(
        "reply-in-priyas-thread-with-omar-copied",
        True,
        script(
            READS
            + """
- {tool: mail__reply, args: {message_id: headcount-update, cc: [omar@acme.test], body: "Thanks Priya! Omar, confirming the team dinner on Thursday for 14 guests."}}
"""
        ),
    ),
    Case(
        "forward-of-the-follow-up-with-a-note",
        True,
        script(
            READS
            + """
- {tool: mail__forward, args: {message_id: headcount-update, to: [omar@acme.test], body: "Hi Omar, please take this as our confirmation for the team dinner: the final numbers are below."}}
"""
        ),
    ),
    Case(
        "numbers-in-words-and-a-full-date",
        True,
        script(READS + send("Hi Omar, we confirm the team dinner on Thursday 5 March, fourteen guests. Best, Dana")),
    ),
    Case(
        "old-figures-set-aside",
        True,
        script(
            READS + send("Update for the team dinner: 14 guests (not 12), and Thursday instead of Wednesday. Thanks!")
        ),
    ),
    Case(
        "confirmation-plus-thanks-to-priya",
        True,
        script(
            READS
            + send("Confirmed: team dinner Thursday evening, 14 people. Let me know if you need anything else.")
            + send("Thanks Priya, confirmed with Omar.", "priya@acme.test")
        ),
    ),
    Case(
        "hedged",
        False,
        script(READS + send("Hi Omar, probably Thursday, 14 people; I'll let you know for sure.")),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "alternatives",
        False,
        script(READS + send("Hi Omar, it will be Wednesday or Thursday, 12 to 14 people.")),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "a-question-not-a-confirmation",
        False,
        script(READS + send("Hi Omar, would Thursday for 14 people work for you?")),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "stale-figures",
        False,
        script(READS + send("Hi Omar, confirming the team dinner on Wednesday for 12 people.")),
        fails_on="no mail to Omar also states the superseded headcount (12)",
    ),
    Case(
        "draft-never-sent",
        False,
        script(
            READS
            + """
- {tool: mail__create_draft, args: {to: [omar@acme.test], subject: Team dinner, body: "Confirming Thursday, 14 guests."}}
"""
        ),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "told-priya-not-omar",
        False,
        script(READS + send("Confirming Thursday, 14 guests.", "priya@acme.test")),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "same-mail-twice",
        False,
        oracle(lambda s, steps: steps + steps[-1:]),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
    Case(
        "nothing-sent",
        False,
        oracle(drop(lambda x: x.tool == "mail__send_message")),
        fails_on="Omar is told the final headcount (14) and the final day (Thursday), by any mail",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_changed_request(backend, case: Case) -> None:
    scenario = scenarios.load(ROOT / "scenarios" / "changed-request.yaml")
    result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
    judge(case.id, case, result, report.errors, _why(result))


# ---------------------------------------------------------------- the library, migrated to intent checks
# Per scenario, solutions the reference does not foresee (another channel, other wording, an extra courtesy mail)
# must pass, and wrong ones that exercise the migrated checks (hedged, stuffed, stale, set aside) must fail.


def _swap(name: str, text: str):
    """The reference solution with its step calling tool `name` replaced by `text`."""
    return oracle(replace(tool(name), text))


def _each(name: str, text: str):
    """Each step calling tool `name` replaced by `text`, its arguments filled in (`%(key)s`)."""

    def edit(s, steps):
        out = []
        for x in steps:
            out += parse(s, text % x.args) if x.tool == name else [x]
        return out

    return edit


def _titles(by_assignee: dict[str, str]):
    """Each created ticket's title and description rewritten by its assignee."""

    def edit(s, steps):
        for x in steps:
            if x.tool == "tickets__create_ticket" and x.args.get("assignee") in by_assignee:
                text = by_assignee[x.args["assignee"]]
                x.args["title"] = text
                x.args["description"] = text + ". Follow-up from the INC-42 postmortem: ${pm.url}"
        return steps

    return edit


def _labels(step, labels: list[str]):
    """A MOB create_ticket step with these labels (other steps as they are)."""
    if step.tool == "tickets__create_ticket" and step.args.get("project") == "MOB":
        step.args = {**step.args, "labels": labels}
    return step


def _content(step, edit):
    """A create_document step with its content edited (other steps as they are)."""
    if step.tool == "docs__create_document":
        step.args = {**step.args, "content": edit(step.args["content"])}
    return step


_ASK = '- {tool: world__ask_user, args: {question: "%s"}}\n'


LIBRARY: list[tuple[str, Case]] = [
    (
        "travel",
        Case(
            "itinerary-link-by-a-new-mail-to-the-whole-team",
            True,
            _swap(
                "mail__reply",
                '- {tool: mail__send_message, args: {to: [priya@acme.test, sam@acme.test, lee@acme.test], subject: "Berlin itinerary", body: "Itinerary, editable by all of us: ${doc.url}"}}',
            ),
        ),
    ),
    (
        "travel",
        Case(
            "itinerary-with-the-hotel-set-aside",
            False,
            oracle(
                setarg(
                    tool("docs__create_document"),
                    content="# Berlin\n\n- Tuesday: fly in, not Motel One this time\n- Offsite at Factory Berlin\n- Friday: home\n",
                )
            ),
            fails_on="one new doc, with the venue and the hotel",
        ),
    ),
    (
        "travel",
        Case(
            "link-only-to-sam",
            False,
            oracle(setarg(tool("mail__reply"), message_id="standup-notes")),
            fails_on="Priya is sent the new doc's link, by any mail (a reply, a new mail, a copy)",
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "one-mail-each-in-12h-with-the-old-slot-set-aside",
            True,
            _swap(
                "mail__send_message",
                "\n".join(
                    f'- {{tool: mail__send_message, args: {{to: [{who}@acme.test], subject: Roadmap review, body: "Hi, the roadmap review moved from Wednesday 15:00 to Thursday at 3:30 pm (Berlin), because of the all-hands."}}}}'
                    for who in ("priya", "sam", "lee")
                ),
            ),
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "reply-to-the-all-hands-thread-copying-the-guests",
            True,
            _swap(
                "mail__send_message",
                '- {tool: mail__send_message, args: {to: [priya@acme.test], cc: [sam@acme.test, lee@acme.test], subject: "Re: roadmap review", body: "Heads-up: our roadmap review is now Thursday 15:30-16:30 CET. Thanks!"}}',
            ),
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "two-slots-offered",
            False,
            oracle(
                setarg(
                    tool("mail__send_message"),
                    body="Hi all, the roadmap review is now Thursday 15:30, or Friday 10:00 if that is easier.",
                )
            ),
            fails_on="Priya, Sam and Lee are each told the new day and time (and no other time for it), by any mail",
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "lee-left-out",
            False,
            oracle(setarg(tool("mail__send_message"), to=["priya@acme.test", "sam@acme.test"])),
            fails_on="Priya, Sam and Lee are each told the new day and time (and no other time for it), by any mail",
        ),
    ),
    (
        "lost-reply-mail",
        Case(
            "address-with-last-years-venue-set-aside",
            True,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Priya, this year it's Kastanienallee 12 (Alte Brauerei), not Stralauer Allee like last time.",
                )
            ),
        ),
    ),
    (
        "lost-reply-mail",
        Case(
            "address-hedged",
            False,
            oracle(setarg(tool("mail__reply"), body="Hi Priya, maybe Kastanienallee 12? I'll let you know for sure.")),
            fails_on="Priya is told the venue's street address (by a reply or a new mail; the same mail twice fails)",
        ),
    ),
    (
        "lost-reply-mail",
        Case(
            "last-years-address",
            False,
            oracle(setarg(tool("mail__reply"), body="Hi Priya, the venue is the Spreespeicher, Stralauer Allee 2.")),
            fails_on="no mail gives last year's venue (unless it sets it aside)",
        ),
    ),
    (
        "approval-wait",
        Case(
            "status-note-then-the-ask-then-a-closing-note",
            True,
            script(
                """
- {tool: tickets__get_ticket, args: {key: OPS-41}}
- {tool: tickets__add_comment, args: {key: OPS-41, body: "Rotation done; the new password is in the secrets store."}}
- {tool: tickets__add_comment, args: {key: OPS-41, body: "Marta, can you please give the go-ahead to close this change?"}}
- {tool: world__wait, args: {minutes: 40}}
- {tool: tickets__get_ticket, args: {key: OPS-41}}
- {tool: tickets__add_comment, args: {key: OPS-41, body: "Thanks Marta, closing now."}}
- {tool: tickets__transition_ticket, args: {key: OPS-41, status: done}}
"""
            ),
        ),
    ),
    (
        "approval-wait",
        Case(
            "a-note-with-no-ask-then-closed",
            False,
            script(
                """
- {tool: tickets__get_ticket, args: {key: OPS-41}}
- {tool: tickets__add_comment, args: {key: OPS-41, body: "Rotation done, approval implied by the change calendar."}}
- {tool: world__wait, args: {minutes: 40}}
- {tool: tickets__transition_ticket, args: {key: OPS-41, status: done}}
"""
            ),
            fails_on="a comment of the agent on OPS-41 asks for the approval (a question or request, not a claim of it)",
        ),
    ),
    (
        "oncall-handover",
        Case(
            "handover-comment-in-other-words-plus-a-status-note-and-a-cc",
            True,
            oracle(
                _each(
                    "tickets__add_comment",
                    """
- {tool: tickets__add_comment, args: {key: "%(key)s", body: "Reassigned to Jordan Reyes for next week's on-call."}}
- {tool: tickets__add_comment, args: {key: "%(key)s", body: "Current state and next steps are in the handover doc."}}
""",
                ),
                setarg(tool("mail__send_message"), cc=["priya@acme.test"], body="Jordan, handover notes: ${doc.url}"),
            ),
        ),
    ),
    (
        "oncall-handover",
        Case(
            "comments-that-hand-over-nothing",
            False,
            oracle(setarg(tool("tickets__add_comment"), body="Updated.")),
            fails_on="OPS-41 has a handover comment (it names Jordan, links the handover doc or says it is handed over)",
        ),
    ),
    (
        "oncall-handover",
        Case(
            "mail-without-the-link",
            False,
            oracle(setarg(tool("mail__send_message"), body="Jordan, the handover doc is in Docs, shared with you.")),
            fails_on="Jordan is sent the handover doc's link, by any mail",
        ),
    ),
    (
        "release-checklist",
        Case(
            "notes-by-key-and-announcement-copying-the-team",
            True,
            oracle(
                setarg(
                    tool("docs__create_document"),
                    content="# Web 2.8 release notes\n\nNew:\n- WEB-41 Settings: dark mode switch\n- WEB-43 Faster dashboard loading\n\nBug fixes:\n- WEB-42 CSV export time zone\n- WEB-48 Safari avatar upload\n",
                ),
                setarg(
                    tool("tickets__add_comment"),
                    body="Not ready, so this is left out of v2.8; we'll pick it up for the next release.",
                ),
                setarg(
                    tool("mail__send_message"),
                    to=["alex@acme.test"],
                    cc=["web-team@acme.test"],
                    subject="v2.8 is live",
                    body="Team, v2.8 shipped today. Notes: ${notes.url}",
                ),
            ),
        ),
    ),
    (
        "release-checklist",
        Case(
            "notes-stuffed-with-work-outside-the-release",
            False,
            oracle(
                setarg(
                    tool("docs__create_document"),
                    content="# Web 2.8 release notes\n\n- WEB-41, WEB-43\n\n## Fixes\n- WEB-42, WEB-48\n- SSO login\n- Billing page\n",
                )
            ),
            fails_on="the notes do not list the unready or 2.9 work as shipped",
        ),
    ),
    (
        "release-checklist",
        Case(
            "notes-on-unready-tickets-that-do-not-say-which-release",
            False,
            oracle(setarg(tool("tickets__add_comment"), body="Blocked, not ready.")),
            fails_on="WEB-44 is still blocked and says it misses 2.8",
        ),
    ),
    (
        "postmortem",
        Case(
            "follow-ups-in-other-words-and-a-thank-you",
            True,
            oracle(
                _titles(
                    {
                        "carol@acme.test": "Lint migrations: index builds must run concurrently",
                        "bob@acme.test": "Page when payments-db lock waits pass 30s (new alerting rule)",
                        "alice@acme.test": "Write a run book: cancelling a migration that is running",
                    }
                ),
                append(
                    '- {tool: mail__send_message, args: {to: [alice@acme.test], subject: Thanks, body: "Thanks for leading the incident, Alice."}}'
                ),
            ),
        ),
    ),
    (
        "postmortem",
        Case(
            "follow-ups-given-to-the-wrong-people",
            False,
            oracle(
                _titles(
                    {
                        "bob@acme.test": "CI check that rejects CREATE INDEX without CONCURRENTLY",
                        "carol@acme.test": "Runbook for cancelling a running migration safely",
                        "alice@acme.test": "Alert when lock waits on payments-db exceed 30 seconds",
                    }
                ),
            ),
            fails_on="the CI check, an OPS task for Carol linking the postmortem, related to INC-42",
        ),
    ),
    (
        "postmortem",
        Case(
            "announcement-sent-twice",
            False,
            oracle(lambda s, steps: steps + [steps[-1]]),
            fails_on="one mail links the postmortem to the team (platform-team@acme.test, or the four who worked the incident)",
        ),
    ),
    (
        "flaky-ticketing",
        Case(
            "one-new-mail-with-both-keys-and-a-crash-label",
            True,
            oracle(
                lambda s, steps: (
                    [x for x in steps if x.tool != "mail__reply"]
                    + parse(
                        s,
                        '- {tool: mail__send_message, args: {to: [ana@acme.test], subject: Your two bugs, body: "Hi Ana, the HEIC crash is ${heic_ticket.key}; the expiring reset link is ${reset_ticket.key}."}}',
                    )
                ),
                lambda s, steps: [_labels(x, ["ios", "crash"]) for x in steps],
            ),
        ),
    ),
    (
        "flaky-ticketing",
        Case(
            "reply-listing-every-mobile-key",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Thanks Ana, mobile bugs: MOB-56, MOB-57, ${heic_ticket.key}. Web: ${reset_ticket.key}.",
                )
            ),
            fails_on="Ana is told both new keys (in her thread or a new mail), and no other key of either project",
        ),
    ),
    (
        "flaky-ticketing",
        Case(
            "every-platform-label-on-the-ios-bug",
            False,
            oracle(lambda s, steps: [_labels(x, ["ios", "android", "web", "api"]) for x in steps]),
            fails_on="it is a bug labelled ios (and no other platform), priority left at medium, with the build and device",
        ),
    ),
    (
        "meeting-notes-followup",
        Case(
            "one-follow-up-each-plus-a-thank-you",
            True,
            _swap(
                "mail__send_message",
                "\n".join(
                    f'- {{tool: mail__send_message, args: {{to: ["{who}@acme.test"], subject: Sync follow-up, body: "Action items: mockups ${{mockups.key}}, feature flag ${{flag.key}}, launch date ${{launch.key}}."}}}}'
                    for who in ("marcus", "sofia", "ken")
                )
                + '\n- {tool: mail__send_message, args: {to: ["marcus@acme.test"], subject: Thanks, body: "Thanks for chairing, Marcus!"}}',
            ),
        ),
    ),
    (
        "meeting-notes-followup",
        Case(
            "follow-up-without-kens-key",
            False,
            oracle(
                setarg(
                    tool("mail__send_message"),
                    body="Action items: mockups ${mockups.key}, launch date ${launch.key}; the flag one is still to be filed.",
                )
            ),
            fails_on="Marcus, Sofia and Ken are each told the three new ticket keys (one mail to all or one each)",
        ),
    ),
    (
        "meeting-notes-followup",
        Case(
            "a-decision-in-the-notes-overwritten-by-the-keys",
            False,
            oracle(
                replace(
                    tool("docs__append_content"),
                    '- {tool: docs__edit_document, args: {document_id: "${notes.id}", find: "Decided to drop PayPal from v1 and revisit after launch.", replace: "Tickets: ${mockups.key}, ${flag.key}, ${launch.key}"}}',
                )
            ),
            fails_on="the rest of the notes is kept",
        ),
    ),
    (
        "new-hire-onboarding",
        Case(
            "welcome-mail-with-sam-copied-and-a-note-to-olivia",
            True,
            oracle(
                setarg(tool("mail__send_message"), cc=["sam@acme.test"], body="Welcome Jonas! Checklist: ${doc.url}"),
                append(
                    '- {tool: mail__send_message, args: {to: [olivia@acme.test], subject: Jonas, body: "Thanks Olivia, his onboarding is ready."}}'
                ),
            ),
        ),
    ),
    (
        "new-hire-onboarding",
        Case(
            "checklist-with-the-buddy-placeholder-left",
            False,
            oracle(
                lambda s, steps: [
                    _content(x, lambda c: c.replace("Sam Ortiz", "[BUDDY]", 1) + "\nBuddy: Sam Ortiz\n") for x in steps
                ]
            ),
            fails_on="the name, start date and buddy are filled in and no placeholder is left",
        ),
    ),
    (
        "new-hire-onboarding",
        Case(
            "welcome-mail-to-his-private-address-only",
            False,
            oracle(setarg(tool("mail__send_message"), to=["jonas.weber@gmail.test"])),
            fails_on="forbidden: no mail leaves Acme (not even to Jonas's private address)",
        ),
    ),
    (
        "contract-review",
        Case(
            "new-mail-in-words-citing-clause-numbers",
            True,
            _swap(
                "mail__reply",
                '- {tool: mail__send_message, args: {to: [tom@brightline.test], subject: "Brightline MSA: changes we need", body: "Hi Tom, our changes: payment within forty-five days; sixty days notice to opt out of renewal; in clause 6, a liability cap of one year of fees; and the contract under the law of Germany. Grace and I sent a call invite. Best, Hana"}}',
            ),
        ),
    ),
    (
        "contract-review",
        Case(
            "fallback-paraphrased-to-the-vendor",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Tom, we need net 45, 60 days notice, a 12-month cap and German law. Between us, we could live with half a year on the cap.",
                )
            ),
            fails_on="forbidden: the internal fallback (6 months of fees) is not in a mail to Tom",
        ),
    ),
    (
        "contract-review",
        Case(
            "fallback-as-a-count-of-months",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Tom, we need net 45, 60 days notice, a 12-month cap and German law. Off the record: six months would do.",
                )
            ),
            fails_on="forbidden: the internal fallback (6 months of fees) is not in a mail to Tom",
        ),
    ),
    (
        "contract-review",
        Case(
            "summary-hedged",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Tom, probably net 45, maybe 60 days notice, a 12-month cap and German law; I'll let you know once legal confirms.",
                )
            ),
            fails_on="Tom is told every change we need (net 45, 60 days' notice, a 12-month cap, German law), by any mail",
        ),
    ),
    (
        "customer-escalation",
        Case(
            "reply-splitting-by-month-and-a-heads-up-to-nina",
            True,
            script(
                ESC_READS
                + ESC_TICKET
                + esc_reply(
                    "Hi Tom, sorry for the trouble. Until the fix, please export one month at a time: smaller exports finish well within the limit. The fix ships next Tuesday ({{ next tuesday | human }}). Best, Mira"
                )
                + '- {tool: mail__send_message, args: {to: [nina@acme.test], subject: Globex escalation, body: "FYI Nina, I answered Tom on the CSV export; SUP-118 is now high."}}\n'
            ),
        ),
    ),
    (
        "customer-escalation",
        Case(
            "other-customers-as-a-count",
            False,
            script(
                ESC_READS + ESC_TICKET + esc_reply(ESC_GOOD + "\n\nFor what it's worth, 3 accounts are seeing this.")
            ),
            fails_on="forbidden: Tom is not told the three affected accounts, as a count",
        ),
    ),
    (
        "customer-escalation",
        Case(
            "fix-date-hoped-for",
            False,
            script(
                ESC_READS
                + ESC_TICKET
                + esc_reply(
                    "Hi Tom, workaround: Export > Email me when ready. We are hoping the fix ships on {{ next tuesday | human }}, but no date yet."
                )
            ),
            fails_on="Tom and Nina (the account manager, copied) are told in Tom's thread when the fix ships",
        ),
    ),
    (
        "customer-escalation",
        Case(
            "renewal-month-let-slip",
            False,
            script(
                ESC_READS
                + ESC_TICKET
                + esc_reply(ESC_GOOD + "\n\nWe know your contract is up in April, so this matters.")
            ),
            fails_on="forbidden: Tom gets not when the renewal is (April)",
        ),
    ),
    (
        "customer-escalation",
        Case(
            "answer-in-a-new-thread-without-nina",
            False,
            script(
                ESC_READS
                + ESC_TICKET
                + '- {tool: mail__send_message, args: {to: [tom.becker@globex.example], subject: CSV export, body: "Hi Tom, use Export > Email me when ready; the fix ships {{ next tuesday | human }}."}}\n'
            ),
            fails_on="Tom and Nina (the account manager, copied) are told in Tom's thread when the fix ships",
        ),
    ),
    (
        "declined-meeting",
        Case(
            "one-mail-each-in-12h",
            True,
            oracle(
                lambda s, steps: (
                    steps[:-1]
                    + parse(
                        s,
                        "\n".join(
                            f'- {{tool: mail__send_message, args: {{to: [{who}@acme.test], subject: Design review, body: "The design review is now tomorrow at 2 pm instead of 10 am."}}}}'
                            for who in ("priya", "sam")
                        ),
                    )
                ),
            ),
        ),
    ),
    (
        "declined-meeting",
        Case(
            "new-time-only-hoped-for",
            False,
            oracle(
                setarg(
                    lambda x: x.tool == "mail__send_message" and "priya@acme.test" in x.args.get("to", []),
                    body="Hi both, probably tomorrow 14:00, I'll let you know.",
                )
            ),
            fails_on="Priya and Sam are each told the new time (one mail to both or one each, to or cc)",
        ),
    ),
    (
        "expense-followup",
        Case(
            "marta-asked-with-the-amount-in-words-and-a-thank-you",
            True,
            oracle(
                setarg(
                    tool("mail__send_message"),
                    body="Hi Marta, could you approve ${hotel.key}? The Hotel Avenida bill is EUR 324 for two nights, above the 150 per night limit.",
                ),
                append(
                    '- {tool: mail__send_message, args: {to: [marta@acme.test], subject: Thanks, body: "And thanks for the quick help last month!"}}'
                ),
            ),
        ),
    ),
    (
        "expense-followup",
        Case(  # the policy asks the mail to name the ticket; the nightly rate instead of the total is true
            "marta-told-the-nightly-rate-and-the-ticket",
            True,
            oracle(
                setarg(
                    tool("mail__send_message"),
                    body="Hi Marta, could you approve ${hotel.key}? The hotel is 162.00 EUR per night.",
                )
            ),
        ),
    ),
    (
        "ask-the-user",
        Case(
            "asks-which-slot-suits-in-other-words",
            True,
            script(
                _ASK % "Which slot next week suits you for the review with Priya?"
                + "- {tool: docs__search_documents, args: {query: budget}}\n"
                + '- {tool: calendar__create_event, args: {title: Budget review, start: "{{ thursday next week 14:00 }}", end: "{{ thursday next week 15:00 }}", attendees: [priya@acme.test]}}\n'
                + '- {tool: world__report, args: {status: partly_done, summary: "Booked Thursday 14:00 with Priya; the budget sheet is not in Docs, so there is no link."}}\n'
            ),
        ),
    ),
    (
        "ask-the-user",
        Case(
            "asks-only-for-a-go-ahead",
            False,
            script(
                _ASK % "Shall I go ahead?"
                + "- {tool: docs__search_documents, args: {query: budget}}\n"
                + '- {tool: calendar__create_event, args: {title: Budget review, start: "{{ thursday next week 14:00 }}", end: "{{ thursday next week 15:00 }}", attendees: [priya@acme.test]}}\n'
                + '- {tool: world__report, args: {status: partly_done, summary: "Booked Thursday 14:00 with Priya; the budget sheet is not in Docs, so there is no link."}}\n'
            ),
            fails_on="the user was asked when they want it (a question they answer with the day)",
        ),
    ),
    (
        "inbox-triage",
        Case(
            "newsletters-labelled-before-they-are-archived",
            True,
            oracle(
                append(
                    "- {tool: mail__add_label, args: {message_ids: [devops-weekly-312, saas-metrics-digest], label: Triaged}}"
                )
            ),
        ),
    ),
    (
        "inbox-triage",
        Case(
            "personal-mail-labelled-too",
            False,
            oracle(append("- {tool: mail__add_label, args: {message_ids: [sunday-lunch], label: Triaged}}")),
            fails_on="forbidden: personal mail is left exactly as it was",
        ),
    ),
    (
        "interview-loop",
        Case(
            "new-mail-in-12h-with-berlin-times-beside",
            True,
            _swap(
                "mail__reply",
                '- {tool: mail__send_message, args: {to: [jamie.chen@mailbox.test], subject: Your final round, body: "Hi Jamie, your interviews (UK time): coding with Omar on Wednesday {{ wednesday next week | human }} at 3 pm (4 pm Berlin); the hiring manager chat with Lena on {{ thursday next week | human }} at 8 am, then system design with Yuki at 9 am. Good luck!"}}',
            ),
        ),
    ),
    (
        "interview-loop",
        Case(
            "berlin-clock-times-sent-as-uk-times",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Jamie, all times UK: {{ wednesday next week | human }} 16:00 coding; {{ thursday next week | human }} 09:00 hiring manager, 10:00 system design.",
                )
            ),
            fails_on="Jamie is told all three interview times (a reply or a new mail), each with no other time for it",
        ),
    ),
    (
        "interview-loop",
        Case(
            "coding-interview-offered-two-ways",
            False,
            oracle(
                setarg(
                    tool("mail__reply"),
                    body="Hi Jamie (UK times): coding on {{ wednesday next week | human }} at 15:00 or 16:00. {{ thursday next week | human }}: 08:00 with Lena, 09:00 with Yuki.",
                )
            ),
            fails_on="Jamie is told all three interview times (a reply or a new mail), each with no other time for it",
        ),
    ),
]


@pytest.mark.parametrize(("name", "case"), LIBRARY, ids=[f"{n}:{c.id}" for n, c in LIBRARY])
async def test_library_intent(backend, name: str, case: Case) -> None:
    scenario = scenarios.load(ROOT / "scenarios" / f"{name}.yaml")
    result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
    judge(f"{name}:{case.id}", case, result, report.errors, _why(result))
