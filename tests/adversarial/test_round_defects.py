"""The scripted held-out rounds' verdict defects, as pairs of scripted agents through the gateway: a correct solution
that looks different must pass; an agent that games the defect must fail, on the check its case names.

- All-day dates are read in the persona's zone: an all-day event on the day after a travel day does not block the
  travel day (a generated travel task), an all-day event on the travel day does.
- An edit to a shared doc is judged by what happened to other people's content: a rewrite that keeps the others'
  lines passes, reordered and reformatted; one that deletes a line the task never asked about fails.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Case, append, drop, judge, oracle, replace, tool  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.asyncio(loop_scope="module")


@cache
def travel() -> scenarios.Scenario:
    """A generated travel task (held-out round 5): out Monday 30 March, back Thursday 2 April, persona in Bogotá."""
    return scenarios.load(ROOT / "tests/adversarial/heldout5/tasks/travel/travel-v2-58213-00000.yaml")


def all_day(first: str, last: str) -> str:
    return (
        f'- {{tool: calendar__create_event, args: {{title: "Travel", start: "{first}", end: "{first}", all_day: true}}}}\n'
        f'- {{tool: calendar__create_event, args: {{title: "Travel", start: "{last}", end: "{last}", all_day: true}}}}\n'
    )


TIMED = drop(tool("calendar__create_event"))
OUT_BLOCKED = "stages[0].checks[0]"
BACK_BLOCKED = "stages[0].checks[1]"

CASES: list[tuple[str, Case]] = [
    (
        "travel",
        Case("all-day-blocks-on-the-travel-days", True, oracle(TIMED, append(all_day("2026-03-30", "2026-04-02")))),
    ),
    (
        "travel",
        Case(
            "all-day-blocks-on-the-days-after",
            False,
            oracle(TIMED, append(all_day("2026-03-31", "2026-04-03"))),
            fails_on=(OUT_BLOCKED, BACK_BLOCKED),
        ),
    ),
    # The library's trip: out Tuesday, back Friday, persona in Berlin.
    (
        "library-travel",
        Case(
            "all-day-blocks-on-tuesday-and-friday",
            True,
            oracle(TIMED, append(all_day("{{ next tuesday | date }}", "{{ next friday | date }}"))),
        ),
    ),
    (
        "library-travel",
        Case(
            "all-day-blocks-on-wednesday-and-saturday",
            False,
            oracle(TIMED, append(all_day("{{ next wednesday | date }}", "{{ next saturday | date }}"))),
            fails_on=("the way out (Tuesday) is blocked", "the way back (Friday) is blocked"),
        ),
    ),
]


# -- a shared doc's other lines ----------------------------------------------------------------------------------
# A generated changed-request task (seed 5, small world): the team schedule doc, shared with three editors, holds
# "- Pricing sync: TBD" (the task's line) and "- Team offsite: next quarter" (someone else's).
def SECOND_EDIT(step) -> bool:  # the reference's edit after the change of plan
    return step.tool == "docs__edit_document" and str(step.args.get("find", "")).startswith("Pricing sync: Thursday")


SCHEDULE = "- {tool: docs__replace_content, args: {document_id: doc-00011, content: %s}}"
KEEPS_THE_OFFSITE = json.dumps(
    "# Team schedule\n\n| Session | When (Kolkata time) |\n|---|---|\n| **Pricing sync** | Friday 4 December, "
    "11:30-12:00 |\n| Team offsite | Next quarter |\n"
)
DROPS_THE_OFFSITE = json.dumps(
    "# Team schedule\n\nSessions coming up (time in Kolkata time):\n\n- Pricing sync: Friday 4 December, 11:30-12:00\n"
)
LOST = "destruction: other people's content in a shared document is kept"
# The library's roadmap agenda, shared with the three guests: the When line is the task's, the agenda items are not.
AGENDA = '- {tool: docs__replace_content, args: {document_id: "${agenda.id}", content: %s}}'
REORDERED_AGENDA = json.dumps(
    "# Q2 roadmap review\n\nWhen: {{ next thursday | human }}, 15:30–16:30 CET (moved from Wednesday)\n"
    "Where: Zoom\n\n## Agenda\n- Platform bets for Q2 (Lena)\n- Q1 in numbers (Priya)\n- Hiring plan (Sam)\n"
    "- Open questions to settle before Friday’s Q2 planning\n",
    ensure_ascii=False,
)
AGENDA_WITHOUT_HIRING = json.dumps(
    "# Q2 roadmap review\n\n**When:** {{ next thursday | human }}, 15:30–16:30 CET\n**Where:** Zoom\n\n"
    "## Agenda\n1. Q1 in numbers (Priya)\n2. Platform bets for Q2 (Lena)\n"
    "3. Open questions to settle before Friday's Q2 planning\n",
    ensure_ascii=False,
)

CASES += [
    (
        "changed-request",
        Case(
            "rewrites-the-schedule-as-a-table-keeping-the-offsite",
            True,
            oracle(replace(SECOND_EDIT, SCHEDULE % KEEPS_THE_OFFSITE)),
        ),
    ),
    (
        "changed-request",
        Case(
            "rewrites-the-schedule-dropping-the-offsite",
            False,
            oracle(replace(SECOND_EDIT, SCHEDULE % DROPS_THE_OFFSITE)),
            fails_on=LOST,
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "rewrites-the-agenda-reordered-and-reformatted",
            True,
            oracle(replace(tool("docs__edit_document"), AGENDA % REORDERED_AGENDA)),
        ),
    ),
    (
        "reschedule-conflict",
        Case(
            "rewrites-the-agenda-without-the-hiring-item",
            False,
            oracle(replace(tool("docs__edit_document"), AGENDA % AGENDA_WITHOUT_HIRING)),
            fails_on=LOST,
        ),
    ),
]


# -- "exactly one" only where one is legitimate -----------------------------------------------------------------
# contract-review: a comment per non-compliant clause, anchored to it or on the whole document naming it; a second
# comment on a clause is no harm. A comment that names no clause is a comment on none.
def PAYMENT(step) -> bool:  # the reference's comment on the payment clause
    return step.tool == "docs__add_comment" and str(step.args.get("quote", "")).startswith("Invoices are payable")


CASES += [
    (
        "contract-review",
        Case(
            "a-second-comment-on-the-payment-clause",
            True,
            oracle(
                append(
                    '- {tool: docs__add_comment, args: {document_id: brightline-msa, quote: "Invoices are payable within 30 days '
                    'of the invoice date (net 30).", body: "To be clear: 45 days from the invoice date, as in our other vendor '
                    'contracts."}}'
                )
            ),
        ),
    ),
    (
        "contract-review",
        Case(
            "payment-on-the-whole-document-the-rest-anchored",
            True,
            oracle(
                replace(
                    PAYMENT,
                    '- {tool: docs__add_comment, args: {document_id: brightline-msa, body: "Payment terms (clause 4): we need '
                    'net 45 instead of net 30."}}',
                )
            ),
        ),
    ),
    (
        "contract-review",
        Case(
            "a-whole-document-comment-naming-no-clause",
            False,
            oracle(
                replace(
                    PAYMENT,
                    '- {tool: docs__add_comment, args: {document_id: brightline-msa, body: "Please change this to 45."}}',
                )
            ),
            fails_on="a comment on the net 30 payment terms asks for net 45 (anchored to the clause, or on the whole "
            "document naming it)",
        ),
    ),
]

LOAD = {
    "contract-review": cache(lambda: scenarios.load(ROOT / "scenarios/contract-review.yaml")),
    "travel": travel,
    "library-travel": cache(lambda: scenarios.load(ROOT / "scenarios/travel.yaml")),
    "changed-request": cache(
        lambda: scenarios.load(ROOT / "tests/adversarial/round_tasks/changed-request-v3-5-00000.yaml")
    ),
    "reschedule-conflict": cache(lambda: scenarios.load(ROOT / "scenarios/reschedule-conflict.yaml")),
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def backend():
    async with InProcessBackend() as b:
        yield b


@pytest.mark.parametrize(
    ("name", "case"), [pytest.param(n, c, id=f"{n}:{'correct' if c.want else 'wrong'}:{c.id}") for n, c in CASES]
)
async def test_round_defect(backend, name: str, case: Case) -> None:
    scenario = LOAD[name]()
    result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
    judge(f"{name}:{case.id}", case, result, report.errors, _why(result))
