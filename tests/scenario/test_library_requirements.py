"""Every required fact of a library scenario is decided without a judge.

Two parts. Statically, no stage of a library scenario carries a requirement with a judge check alone: every judge
check stands beside row, text or intent checks in its stage. Dynamically, the reference solution with one fact
made wrong (a wrong room, a wrong first day, a superseded count in a P.S., stale systems, a swapped hotel and
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

from harness import Case, oracle  # noqa: E402

from orchestrator import scenario as scenarios  # noqa: E402
from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402
from orchestrator.scenario import OracleStep, Scenario, relative_dates  # noqa: E402

LIBRARY = sorted((ROOT / "scenarios").glob("*.yaml"))


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


CASES: dict[str, list[Case]] = {
    "contract-review": [
        Case("a-comment-per-clause-on-the-whole-document", True, oracle(unanchor)),
        Case(
            "net-60-asked-for-payment",
            False,
            oracle(body("docs__add_comment", "net 45; please change this to 45", "net 60; please change this to 60")),
        ),
    ],
    "oncall-handover": [
        Case("reference-passes-without-a-judge", True, oracle()),
    ],
    "declined-meeting": [
        Case(
            "mail-sends-them-to-another-room",
            False,
            oracle(body("mail__send_message", "in Room Spree", "in Room Havel", nth=1)),
        ),
        Case(
            "mail-gives-a-90-minute-slot",
            False,
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
            "announces-sso-as-shipped",
            False,
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
        Case(
            "note-says-the-unready-ticket-ships",
            False,
            oracle(
                body(
                    "tickets__add_comment",
                    "Still blocked by OPS-17, so this misses release 2.8.",
                    "Included in release 2.8.",
                )
            ),
        ),
        Case(
            "a-bug-listed-under-features",
            False,
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
        Case(
            "reply-gives-wrong-travel-dates",
            False,
            oracle(
                body(
                    "mail__reply",
                    "Travel days are blocked",
                    "We fly out on {{ next monday | human }} and back on {{ next saturday | human }}; travel days are blocked",
                )
            ),
        ),
        Case(
            "itinerary-flies-back-a-day-late",
            False,
            oracle(
                body(
                    "docs__create_document",
                    "- {{ next friday | human }}: travel home",
                    "- {{ next saturday | human }}: travel home",
                    field="content",
                )
            ),
        ),
        Case(
            "itinerary-swaps-hotel-and-venue",
            False,
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
        Case(
            "follow-up-makes-up-a-launch-date",
            False,
            oracle(
                body(
                    "mail__send_message",
                    "Notes: ${notes.url}",
                    "The launch is set for {{ today + 30d | human }}.\n\nNotes: ${notes.url}",
                )
            ),
        ),
        Case(
            "follow-up-lists-only-the-keys",
            False,
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
        Case(
            "mail-to-marta-never-asks-for-approval",
            False,
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
        Case(
            "mail-gives-a-90-minute-slot",
            False,
            oracle(body("mail__send_message", "15:30-16:30 CET", "15:30-17:00 CET")),
        ),
    ],
    "changed-request": [
        Case(
            "ps-contradicts-the-headcount",
            False,
            oracle(
                body("mail__send_message", "Thanks, Dana", "Thanks, Dana\n\nP.S. So that's a table for 12, please.")
            ),
        ),
        Case(
            "ps-with-the-old-day",
            False,
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
        Case(
            "mail-gives-another-first-day",
            False,
            oracle(
                body(
                    "mail__send_message",
                    "Sam is your buddy.",
                    "Sam is your buddy. Your first day is {{ next tuesday | human }}.",
                )
            ),
        ),
        Case(
            "mail-names-stale-systems",
            False,
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
    assert report.errors == [], report.errors
    assert result.passed == case.want, f"{name}:{case.id}: score {result.score:.2f}: {_why(result)}"
