"""A meeting moved to a time that falls on another day in its guests' zone, told through the gateway: the guests in
New York are told Friday 18 September, 08:00 Auckland time; its conversion "(16:00 in New York)" is Thursday there
and tells them the time, a wrong one does not, and neither does a hedged one, nor one given to a guest by name in
brackets under a hedge ("I'm proposing ... (16:00 for you, Felicia) - not confirmed yet").

Each case plays the task's reference solution, its guests' mail changed, through the gateway in process (real MCP
client, real app servers on real SQLite). The task is release v3-preview's row as it was drawn when this was found,
kept as a file (`round_tasks/`), so a later change of the generator leaves these cases as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import failures  # noqa: E402

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402
from orchestrator.scenario import load as load_scenario  # noqa: E402

TASK = "travel-and-meetings-v3-1-00028"  # a persona in Pacific/Auckland; three guests in America/New_York
GUESTS = ("Felicia Bennett", "James Daniels", "Michele Patton")
MOVED = "I've moved 'New menu launch walkthrough' to Friday 18 September, 08:00-08:30 Auckland time"
CASES = [
    ("the-reference", f"{MOVED} (16:00 in New York).", True),
    ("a-dash-and-the-day-there", f"{MOVED} — Thursday 17 September, 16:00 EDT for you.", True),
    ("after-which-is", f"{MOVED}, which is 4pm in New York.", True),
    (
        "to-each-guest-by-name-confirmed",
        "Confirmed: 'New menu launch walkthrough' is now Friday 18 September, 08:00-08:30 Auckland time "
        "(Felicia: 16:00 for you; James: 16:00 for you; Michele: 16:00 for you).",
        True,
    ),
    ("a-wrong-conversion", f"{MOVED} (17:00 in New York).", False),
    ("the-wrong-day-there", f"{MOVED} (Friday 18 September, 16:00 in New York).", False),
    (
        "hedged",
        "I'm proposing to move 'New menu launch walkthrough' to Friday 18 September, 08:00-08:30 Auckland time "
        "(16:00 in New York) - not confirmed yet.",
        False,
    ),
    (
        "hedged-to-each-guest-by-name",
        "I'm proposing to move 'New menu launch walkthrough' to Friday 18 September, 08:00-08:30 Auckland time "
        "(Felicia: 16:00 for you; James: 16:00 for you; Michele: 16:00 for you).",
        False,
    ),
]


@pytest.mark.parametrize(("case", "sentence", "want"), CASES, ids=[c[0] for c in CASES])
async def test_a_conversion_told_to_the_guests(backend, tmp_path: Path, case: str, sentence: str, want: bool) -> None:
    scenario = load_scenario(Path(__file__).resolve().parent / "round_tasks" / f"{TASK}.yaml")
    steps = [x.model_copy(deep=True) for x in scenario.oracle]
    mail = next(x for x in steps if x.tool == "mail__send_message" and "walkthrough" in str(x.args.get("body")))
    mail.args["body"] = (
        f"Hi Felicia, James and Michele,\n\n{sentence} It's the only time that works for all of us.\n\nJustin"
    )
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    assert result.passed == want, f"{case}: score {result.score:.2f}: {_why(result)}"
    if not want:
        failed = failures(result)
        for guest in GUESTS:  # each guest's own told check is what fails
            assert any(f.startswith(f"{guest} is told") for f in failed), f"{case}: {guest}: {_why(result)}"
