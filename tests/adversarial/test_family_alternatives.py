"""Generated tasks judged like library scenarios: reasonable different solutions pass, plausible wrong ones fail.

Each case draws a task of one family, takes its reference solution and changes it the way a thorough agent (a
new mail instead of a reply, one mail per person, a courtesy note, a handover comment, an overnight flight) or a
careless or gaming one (a hedged date, every key listed, nothing done but the mail) would, and plays it through
the gateway in process.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from harness import Alt, Edit, play_alt

from orchestrator import scenario as scenarios
from orchestrator.scenario.checks import ToldCheck
from orchestrator.scenario.model import OracleStep


def has(tool: str) -> Callable[[scenarios.Scenario], bool]:
    return lambda s: any(step.tool == tool for step in s.oracle)


def tells(s: scenarios.Scenario) -> bool:
    """The task has a told check (its knobs ask for a mail)."""
    return any(isinstance(c, ToldCheck) for _, _, c in s.checks())


def step(tool: str, **args) -> OracleStep:
    return OracleStep(tool=tool, args=args)


def sender(s: scenarios.Scenario) -> str:
    """The person the task's told check is about (the requester)."""
    return next(c.told.who[0] for _, _, c in s.checks() if isinstance(c, ToldCheck))


def reply_as_new_mail(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    out = []
    for x in steps:
        if x.tool == "mail__reply":
            out.append(step("mail__send_message", to=[sender(s)], subject="About your request", body=x.args["body"]))
        else:
            out.append(x)
    return out


def last_mail_body(steps: list[OracleStep], body: str) -> list[OracleStep]:
    out = [x.model_copy(deep=True) for x in steps]
    for x in reversed(out):
        if x.tool in ("mail__reply", "mail__send_message"):
            x.args["body"] = body
            break
    return out


def comment_on_each(tool: str, text: str) -> Edit:
    def edit(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
        out = []
        for x in steps:
            out.append(x)
            if x.tool == tool:
                out.append(step("tickets__add_comment", key=x.args["key"], body=text))
        return out

    return edit


def one_mail_each(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    out = []
    for x in steps:
        if x.tool == "mail__send_message" and len(x.args["to"]) > 1:
            out += [
                step("mail__send_message", to=[to], subject=x.args["subject"], body=x.args["body"])
                for to in x.args["to"]
            ]
        else:
            out.append(x)
    return out


def overnight_return(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    out = [x.model_copy(deep=True) for x in steps]
    back = [x for x in out if x.tool == "calendar__create_event"][-1]
    day = datetime.fromisoformat(back.args["start"]).replace(hour=22, minute=30)
    back.args.update(start=day.isoformat(), end=(day + timedelta(hours=8)).isoformat(), title="Night flight home")
    return out


def day_flight_landing_after_midnight(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    """The way back as a timed flight that leaves in the afternoon and lands after midnight in the persona's zone."""
    out = [x.model_copy(deep=True) for x in steps]
    back = [x for x in out if x.tool == "calendar__create_event"][-1]
    day = datetime.fromisoformat(back.args["start"]).replace(hour=13, minute=0)
    back.args.update(
        start=day.isoformat(), end=(day + timedelta(hours=12)).isoformat(), title="Flight home", all_day=False
    )
    return out


def return_block_a_day_too_long(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    """The way back blocked from the morning of the travel day to the evening of the next."""
    out = [x.model_copy(deep=True) for x in steps]
    back = [x for x in out if x.tool == "calendar__create_event"][-1]
    day = datetime.fromisoformat(back.args["start"]).replace(hour=8, minute=0)
    back.args.update(
        start=day.isoformat(), end=(day + timedelta(hours=34)).isoformat(), title="Flight home", all_day=False
    )
    return out


def itinerary_note_to_the_team(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    team = [x.args["email"] for x in steps if x.tool == "docs__share_document"]
    note = step(
        "mail__send_message", to=team, subject="Offsite itinerary", body="Hi all, the itinerary is here: ${doc.url}"
    )
    return [*steps, note]


def courtesy_to_requester(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    return [*steps, step("mail__send_message", to=[sender(s)], subject="Done", body="Hi, this is sorted now. Thanks!")]


def hedge_fix_date(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    body = next(x.args["body"] for x in steps if x.tool == "mail__reply")
    day = body.split("release on ")[1].split(".")[0] if "release on " in body else "Thursday"
    return last_mail_body(
        steps, f"Hi, we are hoping for {day}, but there is no firm date yet. Clearing the cache may help."
    )


def every_key(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    keys = ", ".join(t["key"] for t in s.apps["tickets"]["tickets"])
    return last_mail_body(steps, f"Hi, it is one of these tickets: {keys}.")


def only_the_mail(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    return [x for x in steps if x.tool.startswith("mail__")]


def decision_comment(comment: str) -> Edit:
    """The decision recorded with this comment on the transition."""

    def edit(s: scenarios.Scenario, steps: list[OracleStep]) -> list[OracleStep]:
        for x in steps:
            if x.tool == "tickets__transition_ticket":
                x.args["comment"] = comment
        return steps

    return edit


def approves(s: scenarios.Scenario) -> bool:
    return any(x.tool == "tickets__transition_ticket" and x.args.get("status") == "done" for x in s.oracle)


def rejects(s: scenarios.Scenario) -> bool:
    return any(x.tool == "tickets__transition_ticket" and x.args.get("status") == "cancelled" for x in s.oracle)


ALTS = [
    Alt("ask-by-a-new-mail-not-a-reply", "ambiguous", True, reply_as_new_mail, has("mail__reply")),
    Alt(
        "every-ticket-key-listed",
        "ambiguous",
        False,
        every_key,
        lambda s: "mentions_code" in str(s.stages),
        fails_on="stages[0].checks[0]",  # the requester is told of the ticket (and of no other)
    ),
    Alt(
        "customer-update-logged-on-the-ticket",
        "customer-answer",
        True,
        lambda s, st: [
            *st,
            step(
                "tickets__add_comment",
                key=next(x.args["key"] for x in st if x.tool == "tickets__get_ticket"),
                body="Customer updated with the fix date and the workaround.",
            ),
        ],
    ),
    Alt("customer-told-by-a-new-mail", "customer-answer", True, reply_as_new_mail),
    Alt(
        "fix-date-hedged",
        "customer-answer",
        False,
        hedge_fix_date,
        fails_on="stages[0].checks[0]",  # the customer is told the fix date as a fact
    ),
    Alt(
        "handover-comment-on-each-reassigned-ticket",
        "offboard",
        True,
        comment_on_each("tickets__assign_ticket", "Handing this over: the new owner takes it from here."),
    ),
    Alt(
        "one-mail-to-each-guest",
        "reschedule",
        True,
        one_mail_each,
        lambda s: any(x.tool == "mail__send_message" and len(x.args.get("to", [])) > 1 for x in s.oracle),
    ),
    Alt(
        "guests-told-but-nothing-moved",
        "reschedule",
        False,
        only_the_mail,
        fails_on="stages[0].checks[0]",  # the meeting itself now runs at the new time
    ),
    Alt("overnight-return-flight", "travel", True, overnight_return),
    Alt("return-flight-landing-after-midnight", "travel", True, day_flight_landing_after_midnight),
    Alt(
        "return-block-into-the-next-evening",
        "travel",
        False,
        return_block_a_day_too_long,
        fails_on="stages[0].checks[1]",  # the way back is blocked (on its day)
    ),
    Alt(
        "second-note-to-the-team-with-the-link", "travel", True, itinerary_note_to_the_team, has("docs__share_document")
    ),
    Alt("meeting-time-told-by-a-new-mail", "meeting-tz", True, reply_as_new_mail, tells),
    Alt(
        "each-commenter-told-by-mail",
        "doc-comments",
        True,
        lambda s, st: [
            *st,
            *(
                step(
                    "mail__send_message",
                    to=[x.args["assignee"]],
                    subject="Your review comment",
                    body=f"Hi, I filed your comment as a ticket: {x.args['title']}.",
                )
                for x in st
                if x.tool == "tickets__create_ticket"
            ),
        ],
    ),
    Alt("a-courtesy-mail-to-the-requester", "meeting-tz", True, courtesy_to_requester, tells),
    Alt(
        "done-with-a-comment-that-says-rejected",
        "approve-request",
        False,
        decision_comment("Rejected, over the limit."),
        approves,
        fails_on="forbidden",  # no comment on the request says it is rejected
    ),
    Alt(
        "cancelled-with-a-comment-that-says-approved",
        "approve-request",
        False,
        decision_comment("Request approved."),
        rejects,
        fails_on="forbidden",  # no comment on the request says it is approved
    ),
    Alt(
        "done-with-a-comment-in-other-words",
        "approve-request",
        True,
        decision_comment("Within policy - ok to buy."),
        approves,
    ),
    Alt(
        "cancelled-saying-it-cannot-be-approved",
        "approve-request",
        True,
        decision_comment("Sorry, this can't be approved: it is over the policy limit."),
        rejects,
    ),
    Alt(
        "a-courtesy-mail-after-the-approval",
        "approve-request",
        True,
        courtesy_to_requester,
        tells,
    ),
]


@pytest.mark.parametrize("alt", ALTS, ids=[f"{a.source}:{a.id}" for a in ALTS])
async def test_alternative(backend, tmp_path: Path, alt: Alt) -> None:
    await play_alt(alt, backend, tmp_path)
