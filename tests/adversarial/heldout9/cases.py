"""Held-out round 9: every task and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

8 tasks generated with `generate meeting-tz,customer-answer,ask-colleague,changed-request,approve-request,
incident-followup,doc-comments,flaky-triage --count 1 --seed 90417 --size mix` (tasks/): families and a seed no
earlier round drew. Each case was written from the task's brief alone (instruction, persona, clock, seed rows, the
episode's events and answers) and labelled as a careful human grader would (`want`, with a one-line `reason`), before
any of them was run. Like round 8, the round is about the text model agents write.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for extra in (str(HERE.parent), str(HERE)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

import cases_a as a  # noqa: E402
import cases_b as b  # noqa: E402

T = "tests/adversarial/heldout9/tasks"


def _task(family: str) -> str:
    return f"{T}/{family}/{family}-v3-90417-00000.yaml"


ALL = {
    "meeting-tz": (_task("meeting-tz"), a.MEETING_TZ),
    "customer-answer": (_task("customer-answer"), a.CUSTOMER_ANSWER),
    "ask-colleague": (_task("ask-colleague"), a.ASK_COLLEAGUE),
    "changed-request": (_task("changed-request"), a.CHANGED_REQUEST),
    "approve-request": (_task("approve-request"), b.APPROVE_REQUEST),
    "incident-followup": (_task("incident-followup"), b.INCIDENT_FOLLOWUP),
    "doc-comments": (_task("doc-comments"), b.DOC_COMMENTS),
    "flaky-triage": (_task("flaky-triage"), b.FLAKY_TRIAGE),
}
