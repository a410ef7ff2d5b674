"""Held-out round 7: every scenario and its scripted agents, as `ALL = {name: (path, cases)}` for round_runner.

4 library scenarios (inbox-triage, lost-reply-mail, approval-wait, declined-meeting) and 6 tasks generated with
`generate ambiguous,approve-request,customer-answer,doc-comments,meeting-tz,inbox-rules --count 1 --seed 40318 --size
mix` (tasks/). Each case was written from the instruction and the seed rows alone and labelled as a careful human grader
would (`want`, with a one-line `reason`), before any of them was run. The round is about the text model agents write:
tables, bullets, quoted replies, per-recipient times, caveats, times in words, other languages, terse and formal styles.
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

T = "tests/adversarial/heldout7/tasks"

ALL = {
    "inbox-triage": ("scenarios/inbox-triage.yaml", lib.INBOX_TRIAGE),
    "lost-reply-mail": ("scenarios/lost-reply-mail.yaml", lib.LOST_REPLY_MAIL),
    "approval-wait": ("scenarios/approval-wait.yaml", lib.APPROVAL_WAIT),
    "declined-meeting": ("scenarios/declined-meeting.yaml", lib.DECLINED_MEETING),
    "approve-request": (f"{T}/approve-request/approve-request-v3-40318-00000.yaml", g.APPROVE_REQUEST),
    "ambiguous": (f"{T}/ambiguous/ambiguous-v3-40318-00000.yaml", g.AMBIGUOUS),
    "customer-answer": (f"{T}/customer-answer/customer-answer-v3-40318-00000.yaml", g.CUSTOMER_ANSWER),
    "doc-comments": (f"{T}/doc-comments/doc-comments-v3-40318-00000.yaml", g2.DOC_COMMENTS),
    "meeting-tz": (f"{T}/meeting-tz/meeting-tz-v3-40318-00000.yaml", g2.MEETING_TZ),
    "inbox-rules": (f"{T}/inbox-rules/inbox-rules-v3-40318-00000.yaml", g2.INBOX_RULES),
}
