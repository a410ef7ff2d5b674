"""Messages in the styles model agents write, sent through the gateway by an agent that otherwise makes the
reference solution's calls (reschedule-conflict: the roadmap review moves to Thursday 15:30 CET). Correct ones must
pass, wrong ones fail. Each case is one the verdict got wrong before the text readers parsed a message once and read
its claims clause by clause."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import RS_DOC, RS_MOVE, RS_READS, lib  # noqa: E402
from harness import script  # noqa: E402

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")
RESCHEDULE = lib("reschedule-conflict")


def mail(body: str) -> str:
    return (
        "- {tool: mail__send_message, args: {to: [priya@acme.test, sam@acme.test, lee@acme.test], "
        "subject: Roadmap review moved, body: " + json.dumps(body) + "}}\n"
    )


CASES = {
    # correct: must pass
    "markdown-table-per-city-with-struck-old-slot": (
        True,
        "Hi all,\n\n## New time\n\n~~Wed 15:00 CET~~ → **Thursday {{ next thursday | date }}, 15:30–16:30 CET**\n\n"
        "| City | Local time |\n|---|---|\n| Berlin | 15:30 |\n| london | 14:30 |\n| New York | 9:30 |\n\nThanks, Lena",
    ),
    "outlook-quote-below": (
        True,
        "Hi all, the roadmap review is now Thursday 15:30 CET.\n\nLena\n\n"
        "From: Lee Park <lee@acme.test>\nSent: Monday 2 March 2026 08:00\nTo: Lena Fischer\nSubject: my hours\n\n"
        "I can do Thursday 10:00 or Friday 11:00.",
    ),
    "explanation-of-the-choice": (
        True,
        "Moved the roadmap review to Thursday 15:30 CET, the one hour that fits everyone (Lee is free until 16:30, "
        "Sam is busy until 15:00).",
    ),
    "per-person-your-time": (
        True,
        "The roadmap review is now Thursday 15:30 CET (Priya, that's 9:30 your time; Sam, 14:30 your time).",
    ),
    "misspelt-day-and-dotted-time": (True, "Roadmap review moved to Thrusday, 15.30 CET."),
    "old-slot-named-off": (True, "New slot: Thursday 15:30 CET. The old Wednesday 15:00 one is off."),
    # wrong: must fail
    "hedged": (False, "Roadmap review: tentatively Thursday 15:30 CET, nothing is final yet."),
    "contradicted-later": (False, "The roadmap review is moved to Thursday 15:30 CET. See you all at 10!"),
    "wrong-time-for-one-person": (
        False,
        "The roadmap review is now Thursday 15:30 CET (Priya, that's 10:30 your time; Sam, 14:30 your time).",
    ),
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def backend():
    async with InProcessBackend() as b:
        yield b


@pytest.mark.parametrize("name", list(CASES))
async def test_a_message_in_a_model_style(backend, name: str) -> None:
    want, body = CASES[name]
    scenario = RESCHEDULE()
    steps = script(RS_READS + RS_MOVE + RS_DOC + mail(body))(scenario)
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    verdict = "passed" if result.passed else "failed"
    assert result.passed == want, f"{name} {verdict} with score {result.score:.2f}: {_why(result)}"


async def test_a_prose_forbid_fails_the_run_with_its_sentence_but_does_not_zero_the_score(backend) -> None:
    """customer-escalation forbids telling Tom about the renewal ("renew" among its phrases): a reply that says
    "renew your session" breaks that rule, which fails the run; it is reported with the sentence, and the score
    keeps what the reply delivered, since the scenario does not name the rule disqualifying."""
    from cases import ESC_GOOD, ESC_READS, ESC_TICKET, esc_reply

    scenario = lib("customer-escalation")()
    body = ESC_GOOD.replace(
        "Regards, Mira", "If the link does not open, log out and back in to renew your session.\n\nRegards, Mira"
    )
    result, report = await run_once(
        scenario, backend, OracleAgent(script(ESC_READS + ESC_TICKET + esc_reply(body))(scenario))
    )
    assert report.errors == [], report.errors
    renewal = [v for v in result.violations if "renewal" in v.rule]
    assert renewal and not result.passed
    assert "renew your session" in renewal[0].detail
    assert not renewal[0].disqualifying
    assert result.score > 0.5


async def test_messages_that_differ_only_in_their_facts_are_not_one_sent_twice(backend) -> None:
    """Two mails alike but for the facts they deliver (here, the ticket each one is about) are two messages; the
    same mail twice is still a repeat."""
    scenario = RESCHEDULE()
    first = mail("The roadmap review is now Thursday 15:30 CET. Notes are tracked in OPS-142.")
    second = mail("The roadmap review is now Thursday 15:30 CET. Notes are tracked in OPS-143.")
    steps = script(RS_READS + RS_MOVE + RS_DOC + first + second)(scenario)
    result, _ = await run_once(scenario, backend, OracleAgent(steps))
    assert result.passed, _why(result)
    twice = script(RS_READS + RS_MOVE + RS_DOC + first + first)(scenario)
    result, _ = await run_once(scenario, backend, OracleAgent(twice))
    assert not result.passed
    assert "the same message twice" in _why(result)
