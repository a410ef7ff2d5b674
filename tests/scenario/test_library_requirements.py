"""Every required fact of a library scenario is decided without a judge.

Two parts. Statically, no stage of a library scenario carries a requirement with a judge check alone: every judge
check stands beside row, text or intent checks in its stage. Dynamically, the reference solution with one fact
made wrong (a wrong first day, a superseded count in a P.S., stale systems, a swapped hotel and
venue...) fails with no judge configured, and the same solution through another legitimate shape (a comment on the
whole document instead of an anchored one) passes. The cases mutate the facts the instruction and its seed
policies require, not the wording of the reference.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "adversarial"))

from harness import Case, judge, oracle  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402
from orchestrator.scenario import OracleStep, Scenario, relative_dates  # noqa: E402

LIBRARY = sorted((ROOT / "scenarios").glob("*.yaml"))


# What each library scenario's instruction and seed policies require of the delivered rows and messages, by the
# name of the check that decides it without a judge (a part of the name is enough).
REQUIRED: dict[str, list[str]] = {
    "approval-wait": ["asks for the approval", "OPS-41 is done"],
    "ask-the-user": ["Thursday next week, 14:00-15:00, with Priya", "not a second one"],
    "changed-request": ["final headcount (14) and the final day", "superseded headcount", "superseded day"],
    "contract-review": [
        "asks for net 45",
        "asks for 60 days",
        "asks for 12 months",
        "asks for German law",
        "no comments on the clauses that comply",
        "only slot Grace, Tom and Hana share",
        "Tom is invited",
        "Tom is told every change",
    ],
    "customer-escalation": [
        "when the fix ships",
        "another shipping day",
        "names a workaround",
        "raised to high",
        "records the escalation",
    ],
    "declined-meeting": ["14:00-15:00 tomorrow", "told the new time", "another length"],
    "expense-followup": [
        "FreeNow ride, 34.50 EUR",
        "Trattoria Roma lunch",
        "CP train ticket, 61.20 EUR",
        "Hotel Avenida invoice, 324.00 EUR",
        "150 EUR per night limit",
        "asked to approve it",
        "labelled Expensed",
        "claimed total",
        "awaiting approval (324.00)",
    ],
    "flaky-ticketing": ["HEIC upload crash", "labelled ios", "expiring reset link", "labelled web", "both new keys"],
    "inbox-triage": ["WEB bug, at highest", "MOB bug at medium", "API bug at high", "WEB story", "API story", "MOB-7"],
    "interview-loop": [
        "coding interview with Omar",
        "system design interview with Yuki",
        "hiring manager interview with Lena",
        "Omar can edit",
        "Jamie is told all three interview times",
    ],
    "lost-reply-mail": ["street address", "last year's venue"],
    "meeting-notes-followup": [
        "mockups ticket, due this Friday",
        "feature-flag ticket, due Wednesday next week",
        "launch-date ticket, due this Thursday",
        "the notes carry the mockups ticket's key",
        "told the three new ticket keys",
        "no mail gives a launch date",
        "another item's ticket key",
        "another owner's ticket key",
        "another item's due date",
        "invented key",
    ],
    "new-hire-onboarding": [
        "start date and buddy are filled in",
        "GitHub access request",
        "AWS staging access request",
        "PagerDuty access request",
        "team welcome on the first day",
        "Maya's 1:1 with Jonas",
        "Jonas's 1:1 with Sam",
        "checklist's link",
        "first day as another day",
        "2024 template's systems",
    ],
    "oncall-handover": [
        "listing each open incident",
        "current state",
        "Jordan can edit it",
        "OPS-41 is Jordan's",
        "OPS-41 has a handover comment",
        "30-minute meeting with Jordan on Monday at 10:00",
        "handover doc's link",
        "another day or time for the handover",
    ],
    "postmortem": [
        "root cause",
        "timeline runs from the page at 14:05",
        "OPS task for Carol",
        "OPS task for Bob",
        "OPS task for Alice",
        "review on Thursday next week 10:00-11:00",
        "links the postmortem to the team",
    ],
    "rate-limited-triage": ["SUP-101 is highest", "SUP-103 is high", "SUP-102 is low"],
    "release-checklist": [
        "WEB-42 (bug, in progress) went through review",
        "WEB-44 is still blocked and says it misses 2.8",
        "it lists WEB-41",
        "WEB-42 (the CSV export time zone bug) is listed under the fixes",
        "WEB-48 (the Safari avatar upload bug) is listed under the fixes",
        "nothing outside the 2.8 scope",
        "do not list the unready or 2.9 work as shipped",
        "the team list is told that 2.8 is out",
        "presents work outside 2.8",
    ],
    "reschedule-conflict": [
        "Thursday 15:30-16:30 Berlin time",
        "agenda states Thursday 15:30",
        "each told the new day and time",
        "no mail gives the moved review another length",
    ],
    "travel": [
        "way out (Tuesday) is blocked",
        "way back (Friday) is blocked",
        "with the venue and the hotel",
        "gives the travel days",
        "gives the offsite days",
        "no other travel day",
        "does not swap the hotel and the venue",
        "TRAVEL request for Marco",
        "new doc's link",
        "no mail swaps the hotel and the venue",
        "no mail gives another travel day",
    ],
}


def _decided(path: Path) -> list[str]:
    """The names of a scenario's checks that a judge does not decide (rows, text operators, intent checks)."""
    data = yaml.safe_load(path.read_text())
    return [
        c.get("name", "")
        for stage in data.get("stages", [])
        for c in stage.get("checks", [])
        if "judge" not in c and "journal" not in c
    ]


def test_every_library_scenario_lists_its_required_facts() -> None:
    assert sorted(REQUIRED) == sorted(p.stem for p in LIBRARY)


@pytest.mark.parametrize("path", LIBRARY, ids=[p.stem for p in LIBRARY])
def test_each_required_fact_is_decided_without_a_judge(path: Path) -> None:
    names = _decided(path)
    missing = [fact for fact in REQUIRED[path.stem] if not any(fact in n for n in names)]
    assert missing == [], f"{path.name}: no non-judge check decides {missing}"


def _judge_only_stages(path: Path) -> list[str]:
    data = yaml.safe_load(path.read_text())
    bad = []
    for stage in data.get("stages", []):
        checks = stage.get("checks", [])
        judged = [c for c in checks if "judge" in c]
        decided = [c for c in checks if "judge" not in c and "journal" not in c]
        if judged and not decided:
            bad.append(stage.get("name", "?"))
    return bad


@pytest.mark.parametrize("path", LIBRARY, ids=[p.stem for p in LIBRARY])
def test_no_stage_rests_on_a_judge_alone(path: Path) -> None:
    assert _judge_only_stages(path) == [], f"{path.name}: stages decided by a judge alone"


def test_the_static_check_sees_a_judge_only_stage(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        yaml.safe_dump(
            {"stages": [{"name": "told", "checks": [{"judge": {"rubric": "the reply says the trip is approved"}}]}]}
        )
    )
    assert _judge_only_stages(bad) == ["told"]


def body(tool: str, old: str, new: str, field: str = "body", nth: int | None = None):
    """An edit of the reference solution: in the `field` argument of its `tool` steps (the `nth` one only, when
    given), `old` becomes `new`. The edit must apply, so a case never silently tests the reference itself."""

    def edit(s: Scenario, steps: list[OracleStep]) -> list[OracleStep]:
        hits = [x for x in steps if x.tool == tool and isinstance(x.args.get(field), str)]
        if nth is not None:
            hits = hits[nth : nth + 1]
        start = s.clock.start.astimezone(ZoneInfo(s.persona.timezone))
        old_text = relative_dates.expand(old, start)
        done = False
        for x in hits:
            if old_text in x.args[field]:
                x.args[field] = x.args[field].replace(old_text, relative_dates.expand(new, start))
                done = True
        assert done, f"{tool}.{field} has no {old_text!r} in the reference solution"
        return steps

    return edit


def unanchor(s: Scenario, steps: list[OracleStep]) -> list[OracleStep]:
    """Every anchored doc comment of the reference left on the whole document, naming its clause in words."""
    out = []
    for x in steps:
        if x.tool == "docs__add_comment" and x.args.get("quote"):
            x = copy.deepcopy(x)
            x.args["body"] = f'On "{x.args.pop("quote")}": {x.args["body"]}'
        out.append(x)
    return out


def wrong(name: str, fails_on: str, steps) -> Case:
    """A wrong case and the check it must fail on (a check's name, as results list it)."""
    return Case(name, False, steps, fails_on=fails_on)


CASES: dict[str, list[Case]] = {
    "contract-review": [
        Case("a-comment-per-clause-on-the-whole-document", True, oracle(unanchor)),
        wrong(
            "net-60-asked-for-payment",
            "a comment on the net 30 payment terms asks for net 45 (anchored to the clause, or on the whole document naming it)",
            oracle(body("docs__add_comment", "net 45; please change this to 45", "net 60; please change this to 60")),
        ),
    ],
    "oncall-handover": [
        Case("reference-passes-without-a-judge", True, oracle()),
        wrong(
            "mail-gives-tuesday-for-the-handover",
            "no mail gives Jordan another day or time for the handover than Monday 10:00",
            oracle(body("mail__send_message", "I've booked Monday 10:00", "I've booked Tuesday 10:00")),
        ),
        Case(
            "mail-gives-the-slot-with-its-end",
            True,
            oracle(body("mail__send_message", "I've booked Monday 10:00", "I've booked Monday 10:00-10:30")),
        ),
        wrong(
            "doc-leaves-out-the-vendor-case",
            "the summary carries each incident's current state (cron suspect, backup quota, vendor case)",
            oracle(
                body(
                    "docs__create_document",
                    "vendor case 88213 with\n  CloudGate, suspected bad edge node in FRA. Blocked until they replace it.",
                    "still being looked at.",
                    field="content",
                )
            ),
        ),
    ],
    "customer-escalation": [
        wrong(
            "reply-says-tom-is-not-the-only-one",
            "forbidden: Tom is not told that other customers are affected (the fixed ways of saying it; any words are "
            "for the judge)",
            oracle(
                body(
                    "mail__reply",
                    "Best,\nMira",
                    "You're not the only one hit by this, for what it's worth.\n\nBest,\nMira",
                )
            ),
        ),
        wrong(
            "reply-gives-no-workaround",
            'the answer names a workaround (the "Email me when ready" background export, or smaller exports)',
            oracle(
                body(
                    "mail__reply",
                    "You can export the full report today with the\nbackground export: open the report, choose Export → "
                    "Email me when ready, and pick CSV. A\ndownload link arrives by email within about 15 minutes, "
                    "whatever the report's size. If you\nprefer, you can also split the report by date range so each "
                    "part stays under 50,000 rows.\n",
                    "We are on it.\n",
                )
            ),
        ),
        wrong(
            "ps-gives-another-shipping-day",
            "no mail gives the fix another shipping day than the Tuesday",
            oracle(
                body(
                    "mail__reply",
                    "Best,\nMira",
                    "Best,\nMira\n\nP.S. Correction: 4.12.2 now ships on {{ next thursday | human }}.",
                )
            ),
        ),
        Case(
            "reply-says-when-tom-needs-it-too",
            True,
            oracle(
                body(
                    "mail__reply",
                    "Best,\nMira",
                    "I know you need the report by {{ next friday | human }}.\n\nBest,\nMira",
                )
            ),
        ),
    ],
    "declined-meeting": [
        wrong(
            "mail-gives-a-90-minute-slot",
            "no mail gives the moved review another length than one hour",
            oracle(body("mail__send_message", "tomorrow 14:00-15:00", "tomorrow 14:00-15:30", nth=1)),
        ),
        Case(
            "mail-gives-the-length-in-words",
            True,
            oracle(body("mail__send_message", "tomorrow 14:00-15:00", "tomorrow at 14:00, still one hour,", nth=1)),
        ),
        Case("mail-names-no-room", True, oracle(body("mail__send_message", " in Room Spree", "", nth=1))),
    ],
    "release-checklist": [
        Case(
            "notes-name-the-known-gaps",
            True,
            oracle(
                body(
                    "docs__create_document",
                    "- WEB-48: Avatar upload fails on Safari",
                    "- WEB-48: Avatar upload fails on Safari\n## Not in this release\n"
                    "- WEB-44: SSO login for enterprise accounts (blocked)\n- WEB-45: Billing page redesign (moves to 2.9)",
                    field="content",
                )
            ),
        ),
        wrong(
            "notes-list-sso-as-a-feature",
            "the notes do not list the unready or 2.9 work as shipped",
            oracle(
                body(
                    "docs__create_document",
                    "- WEB-43: Lazy-load dashboard widgets",
                    "- WEB-43: Lazy-load dashboard widgets\n- WEB-44: SSO login for enterprise accounts",
                    field="content",
                )
            ),
        ),
        wrong(
            "announces-sso-as-shipped",
            "no announcement presents work outside 2.8 (SSO, billing redesign, keyboard shortcuts...) as shipped",
            oracle(
                body(
                    "mail__send_message",
                    "Safari avatar uploads.",
                    "Safari avatar uploads, plus SSO login for enterprise accounts.",
                )
            ),
        ),
        Case(
            "announcement-names-what-slips",
            True,
            oracle(
                body(
                    "mail__send_message",
                    "Safari avatar uploads.",
                    "Safari avatar uploads. SSO login and the billing redesign slip to 2.9.",
                )
            ),
        ),
        wrong(
            "note-says-the-unready-ticket-ships",
            "WEB-44 is still blocked and says it misses 2.8",
            oracle(
                body(
                    "tickets__add_comment",
                    "Still blocked by OPS-17, so this misses release 2.8.",
                    "Included in release 2.8.",
                )
            ),
        ),
        wrong(
            "a-bug-listed-under-features",
            "WEB-42 (the CSV export time zone bug) is listed under the fixes",
            oracle(
                body(
                    "docs__create_document",
                    "## Fixes\n- WEB-42: CSV export uses the wrong time zone\n",
                    "- WEB-42: CSV export uses the wrong time zone\n## Fixes\n",
                    field="content",
                )
            ),
        ),
        Case(
            "bug-titles-in-other-words",
            True,
            oracle(
                body(
                    "docs__create_document",
                    "CSV export uses the wrong time zone",
                    "CSV exports now use the right time zone",
                    field="content",
                ),
                body(
                    "docs__create_document",
                    "Avatar upload fails on Safari",
                    "Avatar uploads work again on Safari",
                    field="content",
                ),
            ),
        ),
    ],
    "travel": [
        wrong(
            "reply-gives-wrong-travel-dates",
            "no mail gives another travel day than out on the Tuesday and back on the Friday",
            oracle(
                body(
                    "mail__reply",
                    "Travel days are blocked",
                    "We fly out on {{ next monday | human }} and back on {{ next saturday | human }}; travel days are blocked",
                )
            ),
        ),
        wrong(
            "itinerary-flies-back-a-day-late",
            "the itinerary gives no other travel day (out on the Tuesday, back on the Friday)",
            oracle(
                body(
                    "docs__create_document",
                    "- {{ next friday | human }}: travel home",
                    "- {{ next saturday | human }}: travel home",
                    field="content",
                )
            ),
        ),
        wrong(
            "itinerary-swaps-hotel-and-venue",
            "the itinerary does not swap the hotel and the venue",
            oracle(
                body(
                    "docs__create_document",
                    "check in at Motel One Berlin-Mitte",
                    "check in at Factory Berlin",
                    field="content",
                ),
                body(
                    "docs__create_document",
                    "offsite at Factory Berlin, Rheinsberger Str. 76",
                    "offsite at Motel One Berlin-Mitte",
                    field="content",
                ),
            ),
        ),
        Case(
            "reply-gives-the-right-travel-dates",
            True,
            oracle(
                body(
                    "mail__reply",
                    "Travel days are blocked",
                    "We fly out on {{ next tuesday | human }} and back on {{ next friday | human }}; travel days are blocked",
                )
            ),
        ),
    ],
    "meeting-notes-followup": [
        wrong(
            "follow-up-swaps-two-items-keys",
            "no mail gives an action item another item's ticket key",
            oracle(
                body("mail__send_message", "(${mockups.key})", "(KEY)"),
                body("mail__send_message", "(${flag.key})", "(${mockups.key})"),
                body("mail__send_message", "(KEY)", "(${flag.key})"),
            ),
        ),
        wrong(
            "follow-up-swaps-two-due-dates",
            "no mail gives an action item another item's due date",
            oracle(
                body("mail__send_message", "due {{ this friday | human }}", "due DAY"),
                body("mail__send_message", "due {{ wednesday next week | human }}", "due {{ this friday | human }}"),
                body("mail__send_message", "due DAY", "due {{ wednesday next week | human }}"),
            ),
        ),
        Case(
            "follow-up-in-one-sentence",
            True,
            oracle(
                lambda s, steps: [
                    x.model_copy(
                        update={
                            "args": {
                                **x.args,
                                "body": relative_dates.expand(
                                    "Hi all, Sofia updates the payment step mockups with the error states by "
                                    "{{ this friday | human }}, Ken puts the checkout flow behind a feature flag by "
                                    "{{ wednesday next week | human }} and Marcus confirms the launch date with "
                                    "marketing by {{ this thursday | human }}. Tickets: ${mockups.key} (mockups), "
                                    "${flag.key} (feature flag), ${launch.key} (launch date). Notes: ${notes.url} Elena",
                                    s.clock.start.astimezone(ZoneInfo(s.persona.timezone)),
                                ),
                            }
                        }
                    )
                    if x.tool == "mail__send_message"
                    else x
                    for x in steps
                ]
            ),
        ),
        wrong(
            "follow-up-invents-a-ticket",
            "no mail names a CHK ticket that does not exist (an invented key)",
            oracle(
                body(
                    "mail__send_message",
                    "\n\nNotes:",
                    "\n- Elena: write the launch checklist, due {{ this friday | human }} (CHK-37)\n\nNotes:",
                )
            ),
        ),
        wrong(
            "follow-up-swaps-two-owners",
            "no mail gives an owner another owner's ticket key",
            oracle(
                body("mail__send_message", "- Sofia: update", "- Ken: update"),
                body("mail__send_message", "- Ken: put", "- Sofia: put"),
            ),
        ),
        Case(
            "follow-up-as-a-table",
            True,
            oracle(
                lambda s, steps: [
                    x.model_copy(
                        update={
                            "args": {
                                **x.args,
                                "body": "Hi all, the open items from today's sync:\n\n| Ticket | Item | Owner | Due |\n"
                                "|---|---|---|---|\n| ${mockups.key} | Payment step mockups with the new error states "
                                "| Sofia | this Friday |\n| ${flag.key} | New checkout flow behind a feature flag | Ken "
                                "| Wednesday next week |\n| ${launch.key} | Confirm the launch date with marketing | "
                                "Marcus | this Thursday |\n\nNotes: ${notes.url}\n\nElena",
                            }
                        }
                    )
                    if x.tool == "mail__send_message"
                    else x
                    for x in steps
                ]
            ),
        ),
        wrong(
            "follow-up-makes-up-a-launch-date",
            "no mail gives a launch date (it is still to be confirmed)",
            oracle(
                body(
                    "mail__send_message",
                    "Notes: ${notes.url}",
                    "The launch is set for {{ today + 30d | human }}.\n\nNotes: ${notes.url}",
                )
            ),
        ),
        wrong(
            "follow-up-lists-only-the-keys",
            "Marcus, Sofia and Ken are each told the three new ticket keys (one mail to all or one each)",
            oracle(
                lambda s, steps: [
                    x.model_copy(
                        update={
                            "args": {
                                **x.args,
                                "body": "Hi all, tickets: ${mockups.key}, ${flag.key}, ${launch.key}. Elena",
                            }
                        }
                    )
                    if x.tool == "mail__send_message"
                    else x
                    for x in steps
                ]
            ),
        ),
    ],
    "expense-followup": [
        wrong(
            "mail-to-marta-never-asks-for-approval",
            "Marta is told the over-limit ticket and asked to approve it, as the policy asks (by any mail; the same mail twice fails)",
            oracle(body("mail__send_message", "Could you approve it?", "It is for your records.")),
        ),
        Case(
            "mail-to-marta-asks-in-other-words",
            True,
            oracle(
                body(
                    "mail__send_message",
                    "Could you approve it?",
                    "Please let me know if it's OK to go ahead.",
                )
            ),
        ),
    ],
    "reschedule-conflict": [
        wrong(
            "mail-gives-a-90-minute-slot",
            "no mail gives the moved review another length than one hour",
            oracle(body("mail__send_message", "15:30-16:30 CET", "15:30-17:00 CET")),
        ),
    ],
    "changed-request": [
        wrong(
            "ps-contradicts-the-headcount",
            "no mail to Omar also states the superseded headcount (12)",
            oracle(
                body("mail__send_message", "Thanks, Dana", "Thanks, Dana\n\nP.S. So that's a table for 12, please.")
            ),
        ),
        wrong(
            "ps-with-the-old-day",
            "no mail to Omar also states the superseded day (Wednesday)",
            oracle(body("mail__send_message", "Thanks, Dana", "Thanks, Dana\n\nP.S. See you on Wednesday then!")),
        ),
        Case(
            "old-figures-set-aside",
            True,
            oracle(
                body(
                    "mail__send_message",
                    "for 14 guests.",
                    "for 14 guests (not 12 as first planned, and not Wednesday).",
                )
            ),
        ),
    ],
    "new-hire-onboarding": [
        wrong(
            "mail-gives-another-first-day",
            "no mail gives Jonas's first day as another day than next Monday",
            oracle(
                body(
                    "mail__send_message",
                    "Sam is your buddy.",
                    "Sam is your buddy. Your first day is {{ next tuesday | human }}.",
                )
            ),
        ),
        wrong(
            "mail-names-stale-systems",
            "no mail names the 2024 template's systems (Jenkins, VPN, Jira) as being set up",
            oracle(
                body(
                    "mail__send_message",
                    "Sam is your buddy.",
                    "Sam is your buddy. IT is setting up Jenkins, VPN and Jira for you.",
                )
            ),
        ),
        Case(
            "mail-with-the-right-first-day",
            True,
            oracle(
                body(
                    "mail__send_message",
                    "Sam is your buddy.",
                    "Sam is your buddy. Your first day is {{ next monday | human }}.",
                )
            ),
        ),
    ],
}


def _cases() -> list[tuple[str, Case]]:
    return [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.mark.parametrize(("name", "case"), _cases(), ids=[f"{n}:{c.id}" for n, c in _cases()])
async def test_a_wrong_fact_fails_without_a_judge(backend, name: str, case: Case) -> None:
    scenario = scenarios.load(ROOT / "scenarios" / f"{name}.yaml")
    steps = case.steps(scenario)
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    judge(f"{name}:{case.id}", case, result, report.errors, _why(result))
