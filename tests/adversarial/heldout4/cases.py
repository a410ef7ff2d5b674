"""Held-out round 4: every scenario and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

20 tasks generated with `orchestrator generate all --count 2 --seed 91437` (tasks/) and 5 library scenarios not used
in earlier rounds. Each case was written from the instruction and the seed rows alone and labelled as a careful human
grader would (`want`, with a one-line `reason`), before any of them was run.
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
import cases_lib as lib  # noqa: E402

T = "tests/adversarial/heldout4/tasks"

ALL = {
    "ambiguous-0": (f"{T}/ambiguous/ambiguous-91437-00000.yaml", a.AMBIGUOUS_0),
    "ambiguous-1": (f"{T}/ambiguous/ambiguous-91437-00001.yaml", a.AMBIGUOUS_1),
    "approve-request-0": (f"{T}/approve-request/approve-request-91437-00000.yaml", a.APPROVE_0),
    "approve-request-1": (f"{T}/approve-request/approve-request-91437-00001.yaml", a.APPROVE_1),
    "customer-answer-0": (f"{T}/customer-answer/customer-answer-91437-00000.yaml", a.CUSTOMER_0),
    "customer-answer-1": (f"{T}/customer-answer/customer-answer-91437-00001.yaml", a.CUSTOMER_1),
    "doc-comments-0": (f"{T}/doc-comments/doc-comments-91437-00000.yaml", a.DOC_COMMENTS_0),
    "doc-comments-1": (f"{T}/doc-comments/doc-comments-91437-00001.yaml", a.DOC_COMMENTS_1),
    "inbox-rules-0": (f"{T}/inbox-rules/inbox-rules-91437-00000.yaml", a.INBOX_0),
    "inbox-rules-1": (f"{T}/inbox-rules/inbox-rules-91437-00001.yaml", a.INBOX_1),
    "incident-0": (f"{T}/incident/incident-91437-00000.yaml", b.INCIDENT_0),
    "incident-1": (f"{T}/incident/incident-91437-00001.yaml", b.INCIDENT_1),
    "meeting-tz-0": (f"{T}/meeting-tz/meeting-tz-91437-00000.yaml", b.MEETING_0),
    "meeting-tz-1": (f"{T}/meeting-tz/meeting-tz-91437-00001.yaml", b.MEETING_1),
    "offboard-0": (f"{T}/offboard/offboard-91437-00000.yaml", b.OFFBOARD_0),
    "offboard-1": (f"{T}/offboard/offboard-91437-00001.yaml", b.OFFBOARD_1),
    "reschedule-0": (f"{T}/reschedule/reschedule-91437-00000.yaml", b.RESCHEDULE_0),
    "reschedule-2": (f"{T}/reschedule/reschedule-91437-00002.yaml", b.RESCHEDULE_2),
    "travel-0": (f"{T}/travel/travel-91437-00000.yaml", b.TRAVEL_0),
    "travel-1": (f"{T}/travel/travel-91437-00001.yaml", b.TRAVEL_1),
    "customer-escalation": ("scenarios/customer-escalation.yaml", lib.CUSTOMER_ESCALATION),
    "oncall-handover": ("scenarios/oncall-handover.yaml", lib.ONCALL_HANDOVER),
    "meeting-notes-followup": ("scenarios/meeting-notes-followup.yaml", lib.MEETING_NOTES),
    "reschedule-conflict": ("scenarios/reschedule-conflict.yaml", lib.RESCHEDULE_CONFLICT),
    "expense-followup": ("scenarios/expense-followup.yaml", lib.EXPENSE_FOLLOWUP),
}
