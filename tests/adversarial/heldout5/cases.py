"""Held-out round 5: every scenario and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

5 library scenarios (interview-loop, declined-meeting, changed-request, new-hire-onboarding, release-checklist) and
5 tasks generated with `generate meeting-tz,reschedule,travel,approve-request,customer-answer --count 1 --seed 58213`
(tasks/). Each case was written from the instruction and the seed rows alone and labelled as a careful human grader
would (`want`, with a one-line `reason`), before any of them was run. The round is about the text model agents
write: tables, bullets, quoted replies, per-recipient times, caveats, times in words, other languages' dates.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for extra in (str(HERE.parent), str(HERE)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

import cases_gen as g  # noqa: E402
import cases_lib as lib  # noqa: E402

T = "tests/adversarial/heldout5/tasks"

ALL = {
    "interview-loop": ("scenarios/interview-loop.yaml", lib.INTERVIEW_LOOP),
    "declined-meeting": ("scenarios/declined-meeting.yaml", lib.DECLINED_MEETING),
    "changed-request": ("scenarios/changed-request.yaml", lib.CHANGED_REQUEST),
    "new-hire-onboarding": ("scenarios/new-hire-onboarding.yaml", lib.NEW_HIRE),
    "release-checklist": ("scenarios/release-checklist.yaml", lib.RELEASE),
    "meeting-tz": (f"{T}/meeting-tz/meeting-tz-v2-58213-00000.yaml", g.MEETING_TZ),
    "reschedule": (f"{T}/reschedule/reschedule-v2-58213-00000.yaml", g.RESCHEDULE),
    "travel": (f"{T}/travel/travel-v2-58213-00000.yaml", g.TRAVEL),
    "approve-request": (f"{T}/approve-request/approve-request-v2-58213-00000.yaml", g.APPROVE),
    "customer-answer": (f"{T}/customer-answer/customer-answer-v2-58213-00000.yaml", g.CUSTOMER),
}
