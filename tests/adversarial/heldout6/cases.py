"""Held-out round 6: every scenario and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

3 library scenarios (ask-the-user, contract-review, flaky-ticketing) and 6 tasks generated with `generate
approval-needed,ask-colleague,declined-invite,incident-followup,offboard-handover,travel-and-meetings,changed-request
--count 1 --seed 71946 --size mix` (tasks/; travel-and-meetings was written but is left out, see README.md). Each case
was written from the instruction and the seed rows alone and labelled as a careful human grader would (`want`, with a
one-line `reason`), before any of them was run. The round is about the text model agents write: tables, bullets,
quoted replies, per-recipient times, caveats, times in words, other languages' dates, terse and formal styles.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for extra in (str(HERE.parent), str(HERE)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

import cases_gen as g  # noqa: E402
import cases_gen2 as g2  # noqa: E402
import cases_lib as lib  # noqa: E402

T = "tests/adversarial/heldout6/tasks"

ALL = {
    "ask-the-user": ("scenarios/ask-the-user.yaml", lib.ASK_THE_USER),
    "contract-review": ("scenarios/contract-review.yaml", lib.CONTRACT_REVIEW),
    "flaky-ticketing": ("scenarios/flaky-ticketing.yaml", lib.FLAKY_TICKETING),
    "approval-needed": (f"{T}/approval-needed/approval-needed-v3-71946-00000.yaml", g.APPROVAL),
    "ask-colleague": (f"{T}/ask-colleague/ask-colleague-v3-71946-00000.yaml", g.ASK_COLLEAGUE),
    "changed-request": (f"{T}/changed-request/changed-request-v3-71946-00000.yaml", g.CHANGED_REQUEST),
    "declined-invite": (f"{T}/declined-invite/declined-invite-v3-71946-00000.yaml", g.DECLINED),
    "incident-followup": (f"{T}/incident-followup/incident-followup-v3-71946-00000.yaml", g2.INCIDENT),
    "offboard-handover": (f"{T}/offboard-handover/offboard-handover-v3-71946-00000.yaml", g2.OFFBOARD),
}
