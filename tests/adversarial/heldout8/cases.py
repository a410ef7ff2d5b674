"""Held-out round 8: every task and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

8 tasks generated with `generate travel,reschedule,declined-invite,incident,travel-and-meetings,lost-send,offboard,
approval-needed --count 1 --seed 58213 --size mix` (tasks/). Each case was written from the task's brief alone
(instruction, persona, clock, seed rows, the episode's events and answers) and labelled as a careful human grader would
(`want`, with a one-line `reason`), before any of them was run. The round is about the text model agents write: tables,
bullets, quoted originals, struck-through old slots, per-recipient times, caveats, times in words, other languages,
terse and formal styles.
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

T = "tests/adversarial/heldout8/tasks"

ALL = {
    "travel": (f"{T}/travel/travel-v3-58213-00000.yaml", g.TRAVEL),
    "travel-and-meetings": (
        f"{T}/travel-and-meetings/travel-and-meetings-v3-58213-00000.yaml",
        g.TRAVEL_AND_MEETINGS,
    ),
    "declined-invite": (f"{T}/declined-invite/declined-invite-v3-58213-00000.yaml", g.DECLINED_INVITE),
    "incident": (f"{T}/incident/incident-v3-58213-00000.yaml", g.INCIDENT),
    "lost-send": (f"{T}/lost-send/lost-send-v3-58213-00000.yaml", g2.LOST_SEND),
    "approval-needed": (f"{T}/approval-needed/approval-needed-v3-58213-00000.yaml", g2.APPROVAL_NEEDED),
    "offboard": (f"{T}/offboard/offboard-v3-58213-00000.yaml", g2.OFFBOARD),
    "reschedule": (f"{T}/reschedule/reschedule-v3-58213-00000.yaml", g2.RESCHEDULE),
}
