"""What the requester is told, read as a careful grader reads it: the decision in any words or language, every fact
the task says to tell (a time beside a room, travel days in their roles), a summary in a new mail, a release
announced as a fact and not as a plan.

Each case plays a changed reference solution through the gateway in process (real MCP client, real app servers on
real SQLite): a correct solution that looks different must pass; a wrong or gaming one must fail, and on the check
or violation it names.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Alt, Edit, alt_params, play_alt  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.scenario import relative_dates  # noqa: E402
from orchestrator.scenario.checks import ToldCheck  # noqa: E402
from orchestrator.scenario.model import OracleStep  # noqa: E402

Steps = list[OracleStep]


def step(tool: str, **args) -> OracleStep:
    return OracleStep(tool=tool, args=args)


def told(s: scenarios.Scenario) -> ToldCheck:
    return next(c for _, _, c in s.checks() if isinstance(c, ToldCheck))


def told_id(s: scenarios.Scenario) -> str:
    """The id of the scenario's (first) told check, as failures name it."""
    for stage_index, stage in enumerate(s.stages):
        for check_index, check in enumerate(stage.checks):
            if isinstance(check, ToldCheck):
                return f"stages[{stage_index}].checks[{check_index}]"
    raise AssertionError("no told check")


def to_told(s: scenarios.Scenario, x: OracleStep) -> bool:
    """A reply, or a new mail to someone the task's (first) told check names: not a twist's mail to another person."""
    if x.tool == "mail__reply":
        return True
    who = set(told(s).told.who)
    return x.tool == "mail__send_message" and bool(who & set(x.args.get("to", []) + x.args.get("cc", [])))


def last_mail(body: str, subject: str | None = None) -> Edit:
    """The last mail of the solution to the person told (a reply or a new mail), written with this body (and
    subject)."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        for x in reversed(steps):
            if to_told(s, x):
                x.args["body"] = fill(s, steps, body)
                if subject is not None:
                    x.args["subject"] = fill(s, steps, subject)
                break
        return steps

    return edit


def fill(s: scenarios.Scenario, steps: Steps, text: str) -> str:
    """A body template's fields from the task: {key} (the request's ticket), {start} values of the booked event."""
    key = next((x.args["key"] for x in steps if x.tool == "tickets__transition_ticket"), "")
    booked = next((x.args for x in steps if x.tool == "calendar__create_event"), {})
    start = datetime.fromisoformat(booked["start"]) if booked.get("start") else None
    room = str(booked.get("location") or "").removesuffix(" room")
    values = {"key": key, "room": room}
    if start is not None:
        values |= {
            "day": f"{start:%A} {start.day} {start:%B}",
            "hour": f"{start:%H:%M}",
            "later": f"{start.hour + 1:02d}:{start:%M}",
            "twelve": f"{(start.hour - 1) % 12 + 1}{f':{start.minute:02d}' if start.minute else ''} "
            f"{'pm' if start.hour >= 12 else 'am'}",
        }
    return text.format(**values)


def approves(s: scenarios.Scenario) -> bool:
    return any(x.tool == "tickets__transition_ticket" and x.args.get("status") == "done" for x in s.oracle)


def grants_editing(s: scenarios.Scenario) -> bool:
    """An approved request for editor access to a doc."""
    return approves(s) and any(x.tool == "docs__share_document" and x.args.get("role") == "editor" for x in s.oracle)


def refuses(s: scenarios.Scenario) -> bool:
    return any(x.tool == "tickets__transition_ticket" and x.args.get("status") == "cancelled" for x in s.oracle)


def room_kind(s: scenarios.Scenario) -> bool:
    return any(x.tool == "calendar__create_event" and x.args.get("location") for x in s.oracle)


def steps_two(s: scenarios.Scenario) -> bool:
    """A travel task that asks for the travel days in the reply (no itinerary doc)."""
    return not any(x.tool == "docs__create_document" for x in s.oracle)


def with_doc(s: scenarios.Scenario) -> bool:
    return any(x.tool == "docs__create_document" for x in s.oracle)


def travel_days(s: scenarios.Scenario) -> tuple[str, str]:
    """The days out and back, as the reference's two travel events give them ("Monday 7 December")."""
    days = [datetime.fromisoformat(x.args["start"]) for x in s.oracle if x.tool == "calendar__create_event"]
    return tuple(f"{d:%A} {d.day} {d:%B}" for d in (days[0], days[-1]))  # type: ignore[return-value]


def reply_days(template: str) -> Edit:
    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        out, back = travel_days(s)
        return last_mail(template.replace("{out}", out).replace("{back}", back))(s, steps)

    return edit


def itinerary(template: str) -> Edit:
    """The itinerary doc rewritten from a template over the task's hotel and venue ({hotel}, {venue})."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        for x in steps:
            if x.tool == "docs__create_document":
                lines = x.args["content"].splitlines()
                hotel = next(line for line in lines if "check in at" in line).split("check in at ")[1].strip()
                venue = next(line for line in lines if "offsite at" in line).split("offsite at ")[1].split(",")[0]
                dates = [line.split(":")[0].removeprefix("- ") for line in lines if line.startswith("- ")]
                x.args["content"] = template.format(
                    hotel=hotel, venue=venue.strip(), out=dates[0], days=dates[1], back=dates[-1]
                )
        return steps

    return edit


CONTRACT_SUMMARY = (
    "Dear Tom,\n\nplease find our requested changes as comments in the draft. In short:\n\n"
    "| Clause | We need |\n|---|---|\n| Payment | net {net} |\n| Renewal | 60 days' notice to opt out |\n"
    "| Liability | a cap of at least 12 months of fees |\n| Law | German law, courts of Berlin |\n\n"
    "Grace Liu (Legal) joins a short review call on {{{{ next tuesday | human }}}} at 2 pm CET / 1 pm UK.\n\nKind regards,\nHana"
)


def contract_new_mail(net: int) -> Edit:
    """The summary as a new mail to Tom with Grace on cc (not a reply), the call's time given per zone."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        body = relative_dates.expand(
            CONTRACT_SUMMARY.format(net=net), s.clock.start.astimezone(ZoneInfo(s.persona.timezone))
        )
        mail = step(
            "mail__send_message",
            to=["tom@brightline.test"],
            cc=["grace@acme.test"],
            subject="Brightline MSA: our changes",
            body=body,
        )
        return [x for x in steps if x.tool != "mail__reply"] + [mail]

    return edit


ANNOUNCED = "the team list is told that 2.8 is out, with the notes link (by any mail, to or cc)"


def announce(body: str, subject: str = "Web 2.8") -> Edit:
    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        x = steps[-1]
        assert x.tool == "mail__send_message"
        x.args.update(subject=subject, body=body + "\nRelease notes: ${notes.url}\n\nAlex")
        return steps

    return edit


ALTS = [
    # -- approval-needed: the decision by its polarity, in any words or language
    Alt(
        "approval-told-in-french",
        "approval-needed",
        True,
        last_mail("Bonjour,\n\nbonne nouvelle : ta demande {key} a été approuvée, accès accordé.\n\nÀ bientôt"),
        approves,
    ),
    Alt(
        "approval-told-in-german",
        "approval-needed",
        True,
        last_mail("Hallo,\n\ndein Antrag {key} ist genehmigt und erledigt.\n\nViele Grüße"),
        approves,
    ),
    Alt(
        "approval-told-in-spanish",
        "approval-needed",
        True,
        last_mail("Hola,\n\ntu solicitud {key} ha sido aprobada. Ya está hecho.\n\nSaludos"),
        approves,
    ),
    Alt(
        "approval-told-in-japanese",
        "approval-needed",
        True,
        last_mail("お疲れさまです。\n\n{key} の承認が下りましたので、対応しました。\n\nよろしくお願いします。"),
        approves,
    ),
    Alt(
        "approval-told-as-the-granted-editing",
        "approval-needed",
        True,
        last_mail("Hi,\n\ndone - you're an editor on the doc now ({key}).\n\nCheers"),
        grants_editing,
    ),
    Alt(
        "approval-told-as-a-plain-yes",
        "approval-needed",
        True,
        last_mail("Hi,\n\ngood news on {key}: your manager said yes, so it's sorted.\n\nCheers"),
        approves,
    ),
    Alt(
        "refusal-told-as-decided-not-to-approve",
        "approval-needed",
        True,
        last_mail(
            "Hi,\n\nsorry, {key} was looked at and the decision is not to approve it, so I cancelled it.\n\nBest"
        ),
        refuses,
    ),
    Alt(
        "approved-but-told-it-was-turned-down",
        "approval-needed",
        False,
        last_mail("Hi,\n\nsorry, {key} was turned down.\n\nBest"),
        approves,
        fails_on="forbidden",  # no mail to the requester states the opposite decision
    ),
    Alt(
        "approved-but-told-it-is-still-open",
        "approval-needed",
        False,
        last_mail("Hi,\n\nI asked about {key}; no decision yet, I'll let you know once it's approved.\n\nBest"),
        approves,
        fails_on="stages[1].checks[0]",  # the requester is told it was approved
    ),
    Alt(
        "refused-but-told-in-french-it-was-granted",
        "approval-needed",
        False,
        last_mail("Bonjour,\n\n{key} : accès accordé.\n\nÀ bientôt"),
        refuses,
        fails_on="forbidden",  # no mail to the requester states the opposite decision
    ),
    # -- ask-colleague: the workshop's time is told beside its room
    Alt(
        "room-and-time-in-twelve-hour-words",
        "ask-colleague",
        True,
        last_mail("Hi,\n\nall set: {day}, {twelve} for an hour, in {room}.\n\nThanks"),
        room_kind,
    ),
    Alt(
        "right-room-wrong-time",
        "ask-colleague",
        False,
        last_mail("Hi,\n\nbooked the workshop for {day} at {later} in the {room} room.\n\nThanks"),
        room_kind,
        fails_on="stages[2].checks[1]",  # the requester is told the room and the time
    ),
    # -- travel: the reply's days in their roles; the itinerary's hotel and venue not swapped
    Alt(
        "travel-days-in-a-table",
        "travel",
        True,
        reply_days("Hi,\n\n| Leg | Date |\n|---|---|\n| Outbound | {out} |\n| Return | {back} |\n\nBoth are blocked."),
        steps_two,
    ),
    Alt(
        "travel-days-swapped",
        "travel",
        False,
        reply_days("Hi, I fly in on {back} and fly back home on {out}; both days are blocked."),
        steps_two,
        fails_on="stages[1].checks[0]",  # the organizer is told the days out and back
    ),
    Alt(
        "itinerary-in-other-words",
        "travel",
        True,
        itinerary(
            "# Offsite trip\n\n**{out}** - flights in; we're staying at {hotel}.\n**{days}** - the offsite is held at "
            "{venue}.\n**{back}** - flights home.\n\nAdd your flight numbers here.\n"
        ),
        with_doc,
    ),
    Alt(
        "itinerary-swaps-hotel-and-venue",
        "travel",
        False,
        itinerary(
            "# Offsite trip\n\n- {out}: travel, check in at {venue}\n- {days}: offsite at {hotel}\n- {back}: travel home\n"
        ),
        with_doc,
        fails_on="stages[1].checks[2]",  # it does not swap the hotel and the venue
    ),
    # -- contract-review: the summary in a new mail, not a reply, with the call's time per zone
    Alt("summary-as-a-new-mail-with-times-per-zone", "lib:contract-review", True, contract_new_mail(45)),
    Alt(
        "summary-as-a-new-mail-with-the-wrong-terms",
        "lib:contract-review",
        False,
        contract_new_mail(30),
        fails_on="stages[3].checks[0]",  # Tom is told every change we need
    ),
    # -- release-checklist: the release announced as done, not as a plan
    Alt(
        "announced-as-live-in-production",
        "lib:release-checklist",
        True,
        announce("Hi all,\n\nWeb 2.8 went live in production this morning: dark mode, faster dashboards and fixes."),
    ),
    Alt(
        "announcement-hedged",
        "lib:release-checklist",
        False,
        announce("Hi all,\n\nWeb 2.8 should be released later today, with dark mode and faster dashboards."),
        fails_on=ANNOUNCED,
    ),
    Alt(
        "announcement-of-a-plan-under-a-released-subject",
        "lib:release-checklist",
        False,
        announce("Hi all,\n\nthe 2.8 release is planned for Friday; the notes are ready.", subject="Web 2.8 released"),
        fails_on=ANNOUNCED,
    ),
]


# Correct solutions a reader does not read yet.
READER_GAPS = {}


@pytest.mark.parametrize(
    "alt",
    alt_params(ALTS, READER_GAPS),
    ids=[f"{a.source}:{a.id}" for a in ALTS],
)
async def test_told_fact(backend, tmp_path: Path, alt: Alt) -> None:
    await play_alt(alt, backend, tmp_path, edition=3)
