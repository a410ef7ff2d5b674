"""Verdict defects of held-out round 7, as changed reference solutions played through the gateway in process (real
MCP client, real app servers on real SQLite): a correct solution that takes another path must pass; a wrong one must
fail, on the check or violation it names.

- A mail call that meets an outage: a path that never meets it (a new mail where the reference replies) is no
  failure to retry, and a failed reply sent again as a new mail to the same person is a retry.
- An address is read with its house number: Kastanienallee 21 is not Kastanienallee 12.
- A comment that puts the change up "for your sign-off" asks for the approval.
- A meeting moved by cancelling it and booking a new one at the new time is moved; a new one beside the old, or a
  cancel without the new one, is not.
- Told not to edit the rules doc, an edit to it fails (inbox-rules).
- A ticket for a review comment may name the comment's ask rather than its component ("cms: feature flag", no
  description); tickets whose asks are swapped between the owners fail (doc-comments).
- A note that gives the meeting a suggested time the calendars rule out, not the booked one, fails (meeting-tz).
- A P.S. that unsays the fix date ("may already land on Monday 2 February") fails (customer-answer).
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Alt, Edit, alt_params, play_alt  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.scenario.checks import ToldCheck  # noqa: E402
from orchestrator.scenario.model import OracleStep  # noqa: E402

Steps = list[OracleStep]


def step(tool: str, **args) -> OracleStep:
    return OracleStep(tool=tool, args=args)


def tagged(tag: str):
    return lambda s: tag in s.tags


def requester(s: scenarios.Scenario) -> str:
    """The person the task's first told check is about."""
    return next(c.told.who[0] for _, _, c in s.checks() if isinstance(c, ToldCheck))


def reply_as_new_mail(failed_first: bool, to: str = "requester") -> Edit:
    """The reference's reply sent as a new mail (to the requester, or to the first other person told); with
    `failed_first`, the reply is tried once, meets the outage, and the new mail follows."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        out: Steps = []
        for x in steps:
            if x.tool != "mail__reply":
                out.append(x)
                continue
            if failed_first:
                out.append(x.model_copy(update={"expect_error": True}))
            people = [w for _, _, c in s.checks() if isinstance(c, ToldCheck) for w in c.told.who]
            address = people[0] if to == "requester" else next(p for p in people if p != people[0])
            out.append(step("mail__send_message", to=[address], subject="Your request", body=x.args["body"]))
        return out

    return edit


def reply_fails(s: scenarios.Scenario, steps: Steps) -> Steps:
    """The reference's reply meets the outage and is never sent again."""
    return [x.model_copy(update={"expect_error": True}) if x.tool == "mail__reply" else x for x in steps]


def body(text: str) -> Edit:
    """The reference's (last) mail written with this body."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        for x in reversed(steps):
            if x.tool in ("mail__reply", "mail__send_message"):
                x.args["body"] = text
                break
        return steps

    return edit


def rebook(cancel: bool = True, book: bool = True) -> Edit:
    """declined-meeting's move done as a cancel of the 10:00 review (or not) and a new one at Sam's time (or not)."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        out: Steps = []
        for x in steps:
            if x.tool != "calendar__update_event":
                out.append(x)
                continue
            if cancel:
                out.append(step("calendar__cancel_event", event_id="design-review"))
            if book:
                out.append(
                    step(
                        "calendar__create_event",
                        title="Design review",
                        start=x.args["start"],
                        end=x.args["end"],
                        location="Room Spree",
                        attendees=["priya@acme.test", "sam@acme.test"],
                    )
                )
        return out

    return edit


def comment(text: str) -> Edit:
    """The reference's comment written with this body."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        for x in steps:
            if x.tool == "tickets__add_comment":
                x.args["body"] = text
        return steps

    return edit


OUTAGE = "the mail call that met an outage is made again"


def after(tool: str, *added: OracleStep) -> Edit:
    """The reference with steps added after its first call of `tool`."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        at = next(i for i, x in enumerate(steps) if x.tool == tool) + 1
        return steps[:at] + list(added) + steps[at:]

    return edit


def told_rules_doc(s: scenarios.Scenario) -> bool:
    return "edit the rules doc" in s.instruction


ASK_KEYS = ("load tests", "alerting", "fails over", "feature flag", "runbook")


def short_titles(swap: bool = False) -> Edit:
    """doc-comments' tickets titled by the component's initials and the comment's ask ("cms: feature flag"), with no
    description; with `swap`, the asks swapped between the first two tickets."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        tickets = [x for x in steps if x.tool == "tickets__create_ticket"]
        asks = [next(k for k in ASK_KEYS if k in x.args["description"]) for x in tickets]
        if swap:
            asks[0], asks[1] = asks[1], asks[0]
        for x, ask in zip(tickets, asks, strict=True):
            component = x.args["title"].split(":")[0]
            short = "".join(w[0] for w in component.split()) if " " in component else component[:3]
            x.args.update(title=f"{short}: {ask}", description="")
        return steps

    return edit


def two_distinct_asks(s: scenarios.Scenario) -> bool:
    tickets = [x for x in s.oracle if x.tool == "tickets__create_ticket"]
    asks = [next((k for k in ASK_KEYS if k in x.args["description"]), None) for x in tickets]
    return len(tickets) >= 2 and None not in asks and len(set(asks)) == len(asks)


def booked(s: scenarios.Scenario) -> datetime:
    return datetime.fromisoformat(next(x.args["start"] for x in s.oracle if x.tool == "calendar__create_event"))


def guess(s: scenarios.Scenario) -> str | None:
    """A time the user guessed in the instruction that is not the booked one."""
    at = f"{booked(s):%H:%M}"
    return next((t for t in re.findall(r"\b\d{1,2}:\d{2}\b", s.instruction) if t.zfill(5) != at), None)


def noted_with_a_guess(s: scenarios.Scenario) -> bool:
    return guess(s) is not None and any(c.name and c.name.endswith("gets the note") for _, _, c in s.checks())


def note_says(time: str) -> Edit:
    """The twist's note (to the person who 'gets the note') says the meeting is at `time` ("booked" or "guess")."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        to = next(c.told.who[0] for _, _, c in s.checks() if c.name and c.name.endswith("gets the note"))
        at = booked(s)
        said = f"{at:%H:%M}" if time == "booked" else guess(s)
        for x in steps:
            if x.tool == "mail__send_message" and to in x.args["to"]:
                x.args["body"] = f"Hi,\n\nthat's done: the meeting is on {at:%A} {at.day} {at:%B} at {said}.\n\nThanks"
        return steps

    return edit


def fix_date(s: scenarios.Scenario) -> datetime:
    told = next(c for _, _, c in s.checks() if isinstance(c, ToldCheck))
    return datetime.fromisoformat(str(told.told.facts[0]["mentions_date"]["date"]))


def ps_unsays_the_date(s: scenarios.Scenario, steps: Steps) -> Steps:
    """customer-answer's reply to the customer, with a P.S. that the fix may land two days earlier."""
    other = fix_date(s) - timedelta(days=2)
    for x in steps:
        if x.tool == "mail__reply":
            x.args["body"] += (
                f"\n\nP.S. Actually it may already land on {other:%A} {other.day} {other:%B} - I'll confirm."
            )
            break
    return steps


ALTS = [
    # -- ambiguous with an outage on the first reply: the check is on the fault the chosen path met
    Alt("told-by-new-mail-never-meets-the-outage", "ambiguous", True, reply_as_new_mail(False), tagged("twist-outage")),
    Alt("reply-fails-then-resent-as-new-mail", "ambiguous", True, reply_as_new_mail(True), tagged("twist-outage")),
    # the same with a lost reply: a new mail never meets the fault the reference's reply meets
    Alt(
        "told-by-new-mail-never-meets-the-lost-reply",
        "customer-answer",
        True,
        reply_as_new_mail(False),
        lambda s: "twist-lost-reply" in s.tags and any(x.tool == "mail__reply" for x in s.oracle),
    ),
    Alt("reply-fails-and-is-never-sent", "ambiguous", False, reply_fails, tagged("twist-outage"), fails_on=OUTAGE),
    Alt(
        "reply-fails-then-mailed-to-someone-else",
        "ambiguous",
        False,
        reply_as_new_mail(True, to="other"),
        tagged("twist-outage"),
        fails_on=OUTAGE,
    ),
    # -- lost-reply-mail: the venue's address with its number
    Alt(
        "address-number-first",
        "lib:lost-reply-mail",
        True,
        body("Hi Priya,\n\nAlte Brauerei, 12 Kastanienallee, Berlin."),
    ),
    Alt(
        "wrong-house-number",
        "lib:lost-reply-mail",
        False,
        body("Hi Priya,\n\nAlte Brauerei, Kastanienallee 21, 10245 Berlin.\n\nDana"),
        fails_on="stages[1].checks[0]",  # Priya is told the venue's street address
    ),
    # -- approval-wait: the approval asked for in the words of a change process
    Alt(
        "ready-for-your-sign-off",
        "lib:approval-wait",
        True,
        comment("@Marta Ruiz - OPS-41 is ready for your sign-off: password rotated, secrets store updated."),
    ),
    Alt(
        "a-status-note-asks-nothing",
        "lib:approval-wait",
        False,
        comment("@Marta Ruiz - OPS-41: password rotated, secrets store updated."),
        fails_on="stages[0].checks[1]",  # a comment of the agent on OPS-41 asks for the approval
    ),
    # -- inbox-rules: told not to edit the rules doc
    Alt(
        "edits-the-rules-doc",
        "inbox-rules",
        False,
        after(
            "docs__get_document",
            step("docs__append_content", document_id="${rules.documents.0.id}", text="\n- Applied today.\n"),
        ),
        told_rules_doc,
        fails_on="forbidden",
    ),
    # -- doc-comments: a ticket names its comment by the ask or the component
    Alt("tickets-named-by-the-ask", "doc-comments", True, short_titles(), two_distinct_asks),
    Alt(
        "asks-swapped-between-owners",
        "doc-comments",
        False,
        short_titles(swap=True),
        two_distinct_asks,
        fails_on="stages[0].checks[1]",  # one ticket about the first comment, assigned to its author
    ),
    # -- meeting-tz: the note gives the booked time, not the user's guess
    Alt("note-gives-the-booked-time", "meeting-tz", True, note_says("booked"), noted_with_a_guess),
    Alt(
        "note-gives-the-guessed-time",
        "meeting-tz",
        False,
        note_says("guess"),
        noted_with_a_guess,
        fails_on="no mail gives the meeting a suggested time the calendars rule out",
    ),
    # -- customer-answer: a P.S. that unsays the fix date
    Alt(
        "ps-unsays-the-fix-date",
        "customer-answer",
        False,
        ps_unsays_the_date,
        lambda s: any(x.tool == "mail__reply" for x in s.oracle),
        fails_on="stages[0].checks[0]",  # the customer is told the fix date as a fact and no other date for it
    ),
    # -- declined-meeting: moved in place, or cancelled and booked anew at Sam's time
    Alt("cancel-and-rebook", "lib:declined-meeting", True, rebook()),
    Alt(
        "rebooks-beside-the-old-review",
        "lib:declined-meeting",
        False,
        rebook(cancel=False),
        fails_on="stages[0].checks[2]",  # no review is left at 10:00
    ),
    Alt(
        "cancels-without-rebooking",
        "lib:declined-meeting",
        False,
        rebook(book=False),
        fails_on="stages[0].checks[0]",  # the review is at 14:00-15:00 tomorrow
    ),
]


# Cases the verdict gets wrong yet (a reader's or a family's gap).
READER_GAPS = {
    "told-by-new-mail-never-meets-the-lost-reply": "process checks: a scenario's lost-reply check fails when no "
    "call met the loss (kept so that the step reward for not redoing is paid when the loss happens)",
    "ps-unsays-the-fix-date": "dates: a hedged other date for the same fact ('may already land on') is no conflict",
}


@pytest.mark.parametrize(
    "alt",
    alt_params(ALTS, READER_GAPS),
    ids=[f"{a.source}:{a.id}" for a in ALTS],
)
async def test_round7_defect(backend, tmp_path: Path, alt: Alt) -> None:
    await play_alt(alt, backend, tmp_path, edition=3)
