"""Verdict defects of held-out round 9 (verdicts that read what models write), as changed reference solutions played
through the gateway in process (real MCP client, real app servers on real SQLite): a correct solution that takes
another path must pass; a wrong one must fail, on the check it names.

- A time the reply mentions only to set it aside (said to collide, found busy in another language, in the original
  a reply quotes below a non-English header) is no suggested time (meeting-tz).
- A time of someone's other commitment beside the booked slot ("we both have something from 15:00") does not
  compete with the booked time the requester is told (meeting-tz).
- An approval whose P.S. takes it back ("the approval might still be withdrawn") does not tell the approved amount;
  one whose P.S. is about carrying it out does (approve-request).
"""

from __future__ import annotations

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
RULED_OUT = "no mail gives the meeting a suggested time the calendars rule out"
DUTCH_DAYS = ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag")
DUTCH_MONTHS = ("januari februari maart april mei juni juli augustus september oktober november december").split()


def ruled_out(s: scenarios.Scenario) -> datetime | None:
    """The suggested time the calendars rule out, as the task's check names it."""
    for _, _, c in s.checks():
        if c.name == RULED_OUT:
            return datetime.fromisoformat(str(c.where["body"]["mentions_time"]["at"]))  # type: ignore[attr-defined]  # a row check
    return None


def booked(s: scenarios.Scenario) -> tuple[datetime, datetime]:
    event = next(x for x in s.oracle if x.tool == "calendar__create_event")
    return datetime.fromisoformat(event.args["start"]), datetime.fromisoformat(event.args["end"])


def replies_with_a_ruled_out_time(s: scenarios.Scenario) -> bool:
    return ruled_out(s) is not None and any(x.tool == "mail__reply" for x in s.oracle)


def reply(write) -> Edit:  # type: ignore[no-untyped-def]  # write(start, end, suggested) -> body
    """The reference's reply to the requester written with this body."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        start, end = booked(s)
        for x in steps:
            if x.tool == "mail__reply":
                x.args["body"] = write(start, end, ruled_out(s))
                break
        return steps

    return edit


def day(at: datetime) -> str:
    return f"{at:%A} {at.day} {at:%B}"


def slot(start: datetime, end: datetime) -> str:
    return f"{start:%H:%M}-{end:%H:%M}"


def collides(start: datetime, end: datetime, suggested: datetime) -> str:
    return (
        f"Hi,\n\n{suggested:%H:%M} would collide with two of the calendars, so I went for the earlier slot:\n\n"
        f"| Day | Slot |\n|---|---|\n| {day(start)} | {slot(start, end)} |\n\nInvites are out.\n\nThanks"
    )


def dutch_busy(start: datetime, end: datetime, suggested: datetime) -> str:
    when = f"{DUTCH_DAYS[start.weekday()]} {start.day} {DUTCH_MONTHS[start.month - 1]}"
    return (
        f"Hoi,\n\nIngepland: {when}, {slot(start, end)}. Om {suggested:%H:%M} zitten de anderen al vast, dus dat "
        "werd het niet.\n\nGroet"
    )


def other_commitment(start: datetime, end: datetime, suggested: datetime) -> str:
    later = end + timedelta(hours=1)
    if later.time() == suggested.time():
        later += timedelta(hours=1)
    return (
        f"Hi,\n\nbooked {day(start)}, {slot(start, end)} (you and I both have something on from {later:%H:%M}), "
        "invites are out.\n\nThanks"
    )


def quoted_in_german(start: datetime, end: datetime, suggested: datetime) -> str:
    return (
        f"Hi,\n\nbooked {day(start)}, {slot(start, end)}; the invite is out.\n\nThanks\n\n"
        f"Am {suggested.day}.{suggested.month}.{suggested.year} um 08:12 schrieb der Anfragende <req@example.test>:\n"
        f"{suggested:%H:%M} Uhr passt mir am besten."
    )


def gives_the_suggested_time(start: datetime, end: datetime, suggested: datetime) -> str:
    return f"Hi,\n\nbooked {day(start)} at {suggested:%H:%M}; {start:%H:%M} clashes for some.\n\nThanks"


def approved_with_a_ps(ps: str) -> Edit:
    """approve-request's reply to the requester with a P.S."""

    def edit(s: scenarios.Scenario, steps: Steps) -> Steps:
        for x in steps:
            if x.tool == "mail__reply":
                x.args["body"] += f"\n\nP.S. {ps}"
                break
        return steps

    return edit


def approves_and_tells_the_amount(s: scenarios.Scenario) -> bool:
    done = any(x.tool == "tickets__transition_ticket" and x.args.get("status") == "done" for x in s.oracle)
    told = any(isinstance(c, ToldCheck) and any("mentions_amount" in f for f in c.told.facts) for _, _, c in s.checks())
    return done and told and any(x.tool == "mail__reply" for x in s.oracle)


ALTS = [
    # -- meeting-tz: a suggested time set aside is no suggestion
    Alt("suggested-time-said-to-collide", "meeting-tz", True, reply(collides), replies_with_a_ruled_out_time),
    Alt("suggested-time-busy-in-dutch", "meeting-tz", True, reply(dutch_busy), replies_with_a_ruled_out_time),
    Alt(
        "suggested-time-only-in-a-german-quote",
        "meeting-tz",
        True,
        reply(quoted_in_german),
        replies_with_a_ruled_out_time,
    ),
    Alt(
        "the-suggested-time-given-as-the-booking",
        "meeting-tz",
        False,
        reply(gives_the_suggested_time),
        replies_with_a_ruled_out_time,
        fails_on=RULED_OUT,
    ),
    # -- meeting-tz: another commitment's time beside the booked slot does not compete with it
    Alt(
        "another-commitment-beside-the-slot", "meeting-tz", True, reply(other_commitment), replies_with_a_ruled_out_time
    ),
    # -- approve-request: a P.S. that takes the approval back
    Alt(
        "approval-taken-back-in-a-ps",
        "approve-request",
        False,
        approved_with_a_ps("The new travel policy may cap this lower, so the approval might still be withdrawn."),
        approves_and_tells_the_amount,
        fails_on="stages[1].checks[0]",  # the requester is told the approved amount, by any mail
    ),
    Alt(
        "approval-with-a-note-on-booking",
        "approve-request",
        True,
        approved_with_a_ps("You can cancel the booking free of charge if your plans change."),
        approves_and_tells_the_amount,
    ),
]


@pytest.mark.parametrize("alt", alt_params(ALTS, {}), ids=[f"{a.source}:{a.id}" for a in ALTS])
async def test_round9_defect(backend, tmp_path: Path, alt: Alt) -> None:
    await play_alt(alt, backend, tmp_path, edition=3)
