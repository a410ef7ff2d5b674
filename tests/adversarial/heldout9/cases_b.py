"""Held-out round 9: scripted agents (writer b) for approve-request, incident-followup, doc-comments and flaky-triage.

Written from each task's brief only (instruction, persona, clock, seed rows, the episode's events, answers and
faults), never from its checks or reference solution. Correct cases vary the tool path and above all the text:
markdown tables, bold-label bullets, Outlook-style quoted originals, struck-through old values, 12-hour clocks,
times in words, other languages, terse one-liners and formal letters. Wrong cases are plausible mistakes.
"""

from __future__ import annotations

from round_steps import assign, bad, call, comment, doc, edit, event, mail, move, ok, reply, share, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def failing(step: dict) -> dict:
    """A call the agent sees fail (an injected fault); the case then does what the agent would do next.

    The step is copied and keeps no result (`save`), so the same call can be written again as the retry."""
    step = {key: value for key, value in step.items() if key != "save"}
    step["expect_error"] = True
    return step


# =====================================================================================================================
# approve-request-v3-90417-00000 (clock Wed 8 April 2026 13:30 Auckland, Aidan Gifford).
# Worked answer: REQ-242 (reporter Germán Baca) is "Category: Training, advanced spreadsheet course, EUR 712.00 per
# course"; his mail msg-00012 says the same. The current policy is doc-00009 "Expense policy", version 3 (in force
# since 19 March 2026): Training limit EUR 750.00 per course. 712.00 <= 750.00, so the request is approved: REQ-242
# goes todo -> done, and Germán gets a reply saying EUR 712.00 is approved. Fault: the first transition_ticket call
# has its reply lost (the move is applied, the agent is told it failed), so a careful agent re-reads the ticket; a
# retried move to done is refused ("already done"), which is harmless.
# =====================================================================================================================

GERMAN = "german.baca@horizon-productions.test"
AR_READS = [
    call("mail__get_message", message_id="msg-00012"),
    call("tickets__get_ticket", key="REQ-242"),
    call("docs__get_document", document_id="doc-00009"),
]
AR_CHECK = call("tickets__get_ticket", key="REQ-242")


def ar_done(**more) -> dict:
    """The first move to done: applied, but the agent sees the reply lost."""
    return failing(move("REQ-242", "done", **more))


APPROVE_REQUEST = [
    ok(
        "plain",
        "Training limit EUR 750 per course, 712 is within: REQ-242 done (checked after the lost reply), Germán told.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        reply(
            "msg-00012",
            "Hi Germán,\n\napproved: REQ-242, advanced spreadsheet course, EUR 712.00. It is within the training limit "
            "of EUR 750.00 per course, and the ticket is closed as done.\n\nAidan",
        ),
    ),
    ok(
        "retry-already-done-spanish",
        "Retries the move after the lost reply (refused: already done), then replies in Spanish with the amount.",
        AR_READS,
        ar_done(),
        failing(move("REQ-242", "done")),
        AR_CHECK,
        reply(
            "msg-00012",
            "Hola Germán:\n\nTu solicitud REQ-242 (curso avanzado de hojas de cálculo) queda **aprobada** por "
            "EUR 712,00. El límite de la política para formación es de EUR 750,00 por curso, así que entra sin "
            "problema. El ticket ya está en «done».\n\nSaludos,\nAidan",
        ),
    ),
    ok(
        "comment-table-new-mail",
        "Moves to done with a comment and resolution; a new mail to Germán with a small decision table.",
        AR_READS,
        ar_done(
            comment="Approved: EUR 712.00 is within the Training limit (EUR 750.00 per course, policy v3).",
            resolution="done",
        ),
        call("tickets__search_tickets", project="REQ"),
        mail(
            [GERMAN],
            "REQ-242 approved",
            "Hi Germán,\n\n| Request | Category | Amount | Policy limit | Decision |\n|---|---|---|---|---|\n"
            "| REQ-242 | Training | EUR 712.00 | EUR 750.00 per course | **Approved** |\n\n"
            "Go ahead and book the advanced spreadsheet course.\n\nAidan",
        ),
    ),
    ok(
        "formal-outlook-quote",
        "A formal reply with a signature and the original quoted Outlook-style; approved amount EUR 712.00.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        reply(
            "msg-00012",
            "Dear Germán,\n\nI am pleased to confirm that your pre-approval request REQ-242 for the advanced "
            "spreadsheet course has been approved for the amount of EUR 712.00. Under the current Expense policy "
            "(version 3), training is capped at EUR 750.00 per course, so the request falls within the limit.\n\n"
            "Kind regards,\n\nAidan Gifford\nVideo editor, Production\nHorizon Productions\n\n"
            "-----Original Message-----\nFrom: Germán Baca <german.baca@horizon-productions.test>\n"
            "Sent: Tuesday, 7 April 2026 17:35\nTo: Aidan Gifford\nSubject: Approval for REQ-242?\n\n"
            "Hi Aidan,\n\ncould you approve REQ-242? It's advanced spreadsheet course, EUR 712.00 per course.\n\n"
            "Thanks,\nGermán",
        ),
    ),
    ok(
        "terse",
        "Terse one-liner to Germán; ticket done after the lost reply, confirmed with a read.",
        AR_READS[1:],
        ar_done(),
        AR_CHECK,
        reply("msg-00012", "Approved, EUR 712.00 (limit is 750/course). REQ-242 closed. – A"),
    ),
    ok(
        "via-in-progress-german-quote",
        "Moves via in_progress (that call's reply lost, re-read), then done; German reply with a > quote.",
        AR_READS,
        failing(move("REQ-242", "in_progress")),
        AR_CHECK,
        move("REQ-242", "done"),
        reply(
            "msg-00012",
            "> could you approve REQ-242? It's advanced spreadsheet course, EUR 712.00 per course.\n\n"
            "Hallo Germán,\n\nja, genehmigt: EUR 712,00 für den Kurs. Die Grenze laut Richtlinie liegt bei "
            "EUR 750,00 pro Kurs (Kategorie Training). REQ-242 ist erledigt.\n\nViele Grüße\nAidan",
        ),
    ),
    # -- wrong --------------------------------------------------------------------------------------------------------
    bad(
        "rejects-software-limit",
        "Applies the software limit (EUR 80) instead of training and rejects a request that is within its limit.",
        AR_READS,
        failing(move("REQ-242", "cancelled")),
        AR_CHECK,
        reply(
            "msg-00012",
            "Hi Germán,\n\nsorry, I have to reject REQ-242: the policy limit is EUR 80.00, and EUR 712.00 is well "
            "above it.\n\nAidan",
        ),
    ),
    bad(
        "words-without-action",
        "Tells Germán it is approved but never moves REQ-242; the ticket stays todo.",
        AR_READS,
        reply("msg-00012", "Hi Germán,\n\nREQ-242 is approved, EUR 712.00. Enjoy the course!\n\nAidan"),
    ),
    bad(
        "left-in-progress",
        "Moves REQ-242 to in_progress only (reply lost) and stops there; mail says approved but the ticket is not done.",
        AR_READS,
        failing(move("REQ-242", "in_progress")),
        reply(
            "msg-00012",
            "Hi Germán,\n\napproved for EUR 712.00, within the EUR 750.00 training limit. I've moved the ticket "
            "along.\n\nAidan",
        ),
    ),
    bad(
        "states-limit-as-amount",
        "Ticket done, but the reply says EUR 750.00 was approved (the limit), not the EUR 712.00 requested.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        reply("msg-00012", "Hi Germán,\n\nREQ-242 is approved: EUR 750.00 for the course.\n\nAidan"),
    ),
    bad(
        "hedged",
        "Ticket done, but the mail only 'tentatively' approves pending another check, so Germán has no decision.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        reply(
            "msg-00012",
            "Hi Germán,\n\nI've tentatively approved REQ-242 (EUR 712.00), probably fine under the training limit, "
            "but I still want to double-check with Finance before you book. Will confirm.\n\nAidan",
        ),
    ),
    bad(
        "wrong-person",
        "Ticket done, but the decision goes to Lisa Weston instead of Germán; Germán never hears back.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        mail(
            ["lisa.weston@horizon-productions.test"],
            "REQ-242 approved",
            "Hi Lisa,\n\nFYI I approved Germán's REQ-242, EUR 712.00, within the EUR 750.00 training limit.\n\nAidan",
        ),
    ),
    bad(
        "ps-contradicts",
        "Approves, then a P.S. says the limit is EUR 700 and the approval may be pulled back, undoing the decision.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        reply(
            "msg-00012",
            "Hi Germán,\n\napproved, EUR 712.00.\n\nAidan\n\nP.S. Looking again, the old policy had training at "
            "EUR 700.00 per course, so this may still have to be rejected; don't book yet.",
        ),
    ),
    bad(
        "reopened-after-lost-reply",
        "Thinks the lost reply means a broken state, reopens REQ-242 to todo and leaves it there; tells Germán approved.",
        AR_READS,
        ar_done(),
        AR_CHECK,
        move("REQ-242", "todo"),
        reply("msg-00012", "Hi Germán,\n\napproved: EUR 712.00, within the EUR 750.00 training limit.\n\nAidan"),
    ),
]


# =====================================================================================================================
# incident-followup-v3-90417-00000 (clock Mon 6 July 2026 09:00 Singapore, Xiuying Feng).
# Worked answer.
# - Incident: the academics-api thread (msg-00019, -00001, -00014, -00037), Sun 5 July: errors from 10:35 SGT,
#   cause found 10:55 by Yan (database migration 771 took a lock on the ledger table for the whole deploy), error rate
#   dropping 11:11, resolved 11:15 SGT. Céline's last mail (msg-00037) asks: a bug in STU assigned to Yan Ding,
#   priority high; a postmortem doc in Postmortems (fld-postmortems) with the cause and the timeline; a status update
#   to status@marble-learning.test with the ticket key and the resolution time. (The quartz-service thread of 2 July,
#   resolved 11:00, orbit-6 disk, is a different incident.)
# - Meeting: Céline's Postmortem review (evt-00017) is Thu 9 July 15:30-17:30 SGT and can't move; it clashes with
#   Xiuying's "Course evaluation results working session" (evt-00003, 16:00-17:00, guests Lei He and Wei Qian).
#   Same day, 1 hour, working hours (Xiuying 09-17, Lei 09-17, Wei 10-18, all Singapore), and outside 15:30-17:30:
#   Wei is busy 10:00-10:30, 12:00-12:30, 13:00-14:00, 15:00-17:00 and in the weekly sync 14:00-15:00; Lei is busy
#   10:30-11:00 and 12:30-13:00; Xiuying has the timetable update 10:00-10:30 and the weekly sync 14:00-15:00. The
#   only slot is 11:00-12:00 SGT. Move evt-00003 there (or cancel and rebook) and mail Lei and Wei.
# - Stephanie (msg-00026, thread of SUP-2): the fix ships with the release on Thursday 9 July; workaround: switch on
#   'Compatibility mode' under Settings > Campus tours. SUP-1 (Vantage, 8 July, no workaround) is another customer's.
#   SUP-2's internal comment (root cause, 40 other accounts, EUR 400 goodwill credit) must not reach her.
# - Ask Alexandria by mail who should be told; she answers after ~20 minutes: Jing Xia. Then a short note to Jing.
# =====================================================================================================================

ML = "marble-learning.test"
YAN, LEI, WEI, JING = f"yan.ding@{ML}", f"lei.he@{ML}", f"wei.qian@{ML}", f"jing.xia@{ML}"
ALEX, CELINE, STATUS = f"alexandria.davis@{ML}", f"celine.vallee@{ML}", f"status@{ML}"
IF_READS = [
    call("mail__get_message", message_id="msg-00037"),
    call("mail__get_message", message_id="msg-00036"),
    call("mail__get_message", message_id="msg-00026"),
    call("tickets__get_ticket", key="SUP-2"),
    call("calendar__list_events", time_min="2026-07-09T00:00:00+08:00", time_max="2026-07-10T00:00:00+08:00"),
]
IF_TIMELINE = (
    "# Postmortem: academics-api errors (Sunday 5 July 2026)\n\n"
    "## Cause\n\nDatabase migration 771 took a lock on the ledger table for the whole deploy, so most academics-api "
    "requests errored out.\n\n"
    "## Timeline (Asia/Singapore)\n\n"
    "- 10:35 academics-api starts failing, most requests error out (Céline)\n"
    "- 10:55 cause found: migration 771 holding the ledger table lock (Yan)\n"
    "- 11:11 customer-facing error rate dropping (Lei)\n"
    "- 11:15 resolved, error rates back to normal\n\n"
    "## Follow-up\n\n${bug.key} (Yan Ding): the real fix.\n"
)


def if_bug(**more) -> dict:
    more.setdefault("type", "bug")
    more.setdefault("priority", "high")
    more.setdefault("assignee", YAN)
    return ticket(
        more.pop("project", "STU"),
        more.pop("title", "academics-api: migration 771 locks the ledger table for the whole deploy"),
        save="bug",
        **more,
    )


def if_pm(content: str = IF_TIMELINE, **more) -> dict:
    more.setdefault("folder_id", "fld-postmortems")
    return doc(more.pop("title", "Postmortem: academics-api errors (5 July)"), content, **more)


def if_status(body: str, subject: str = "Resolved: academics-api incident (5 July)", **more) -> dict:
    return mail(more.pop("to", [STATUS]), subject, body, **more)


IF_STATUS = if_status(
    "academics-api incident, Sunday 5 July: resolved at 11:15 (Asia/Singapore); error rates are back to normal. "
    "The follow-up fix is tracked in ${bug.key}."
)
IF_MOVE = call(
    "calendar__update_event", event_id="evt-00003", start="2026-07-09T11:00:00+08:00", end="2026-07-09T12:00:00+08:00"
)
IF_GUESTS = mail(
    [LEI, WEI],
    "Course evaluation results working session moved to 11:00 on Thursday",
    "Hi Lei, hi Wei,\n\nthe course evaluation results working session on Thursday 9 July moves to 11:00-12:00 "
    "(Singapore time), same Zoom. The old 16:00 slot clashes with the postmortem review.\n\nThanks,\nXiuying",
)
IF_STEPHANIE = reply(
    "msg-00026",
    "Hi Stephanie,\n\nthe fix for SUP-2 ships with our release on Thursday 9 July. Until then you can switch on "
    "'Compatibility mode' under Settings > Campus tours, which avoids the duplicate entries.\n\nBest regards,\nXiuying",
)
IF_ASK = mail(
    [ALEX],
    "academics-api incident: who should hear it's wrapped up?",
    "Hi Alexandria,\n\nthe academics-api incident from yesterday is wrapped up (ticket, postmortem, status update). "
    "Who should be told? I'll send them a short note.\n\nThanks,\nXiuying",
)
IF_NOTE = mail(
    [JING],
    "academics-api incident wrapped up",
    "Hi Jing,\n\nquick note: yesterday's academics-api incident is wrapped up. Resolved at 11:15 SGT on 5 July, the "
    "fix is tracked in ${bug.key} (Yan), and the postmortem is started: ${doc.url}\n\nXiuying",
)
IF_WAIT = [wait(), call("mail__search_messages", query="from:" + ALEX, save="alex")]

INCIDENT_FOLLOWUP = [
    ok(
        "plain",
        "STU bug (high, Yan), postmortem in Postmortems, status with key and 11:15; meeting to 11:00-12:00, guests "
        "mailed; Stephanie gets 9 July and the workaround; asks Alexandria, notes Jing after her reply.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_GUESTS,
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    ok(
        "table-bold-outlook",
        "Timeline as a table, status as bold bullets with SGT and UTC, Stephanie's reply with the Outlook-quoted original.",
        IF_READS,
        if_bug(title="Stop migration 771 from locking the ledger table during deploys", description="See postmortem."),
        if_pm(
            "# academics-api incident - 5 Jul 2026\n\n**Cause:** database migration 771 took a lock on the ledger "
            "table for the whole deploy.\n\n| Time (SGT) | Event |\n|---|---|\n| 10:35 | errors start |\n"
            "| 10:55 | Yan finds the lock from migration 771 |\n| 11:11 | error rate dropping |\n| 11:15 | resolved |\n\n"
            "**Follow-up ticket:** ${bug.key}\n"
        ),
        if_status(
            "- **Service:** academics-api\n- **Status:** resolved\n- **Resolved:** Sun 5 Jul, 11:15 SGT (03:15 UTC)\n"
            "- **Ticket:** ${bug.key}\n"
        ),
        IF_MOVE,
        IF_GUESTS,
        reply(
            "msg-00026",
            "Hi Stephanie,\n\n- **Fix date:** Thursday 9 July (next release)\n- **Workaround until then:** switch on "
            "'Compatibility mode' under Settings > Campus tours\n\nSorry for the trouble.\n\nXiuying\n\n"
            "From: Stephanie Simon <stephanie.simon@pinnacle-works-learning-systems.test>\n"
            "Sent: Monday, 6 July 2026 08:25\nTo: Xiuying Feng\nSubject: Re: Campus tours duplicates entries every "
            "night\n\nHi Xiuying,\n\nany news on SUP-2? When will it be fixed, and is there anything we can do in the "
            "meantime?\n\nThanks,\nStephanie",
        ),
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    ok(
        "cancel-rebook-reply-to-alexandria",
        "Deletes evt-00003 and rebooks it 11:00-12:00 with Lei and Wei; reads Alexandria's answer and notes Jing.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        call("calendar__delete_event", event_id="evt-00003"),
        event(
            "Course evaluation results working session",
            "2026-07-09T11:00:00+08:00",
            "2026-07-09T12:00:00+08:00",
            attendees=[LEI, WEI],
            location="Zoom",
            description="Agenda to follow.",
        ),
        mail(
            [LEI, WEI],
            "New time: course evaluation results working session, Thu 9 July 11:00",
            "Hi both,\n\nI had to move Thursday's working session: it's now ~~16:00-17:00~~ **11:00-12:00** SGT on "
            "Thursday 9 July (new invite sent). The afternoon is taken by the postmortem review.\n\nXiuying",
        ),
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        call("mail__get_message", message_id="${alex.messages.0.id}"),
        IF_NOTE,
    ),
    ok(
        "per-guest-twelve-hour-formal",
        "One mail per guest with 12-hour times; a formal letter to Stephanie; the note to Jing in Chinese.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        mail(
            [LEI],
            "Thursday working session moved",
            "Hi Lei,\n\nThursday's session is now 11 am-12 pm (Singapore), 9 July. Same Zoom.\n\nXiuying",
        ),
        mail(
            [WEI],
            "Thursday working session moved",
            "Hi Wei,\n\nThursday's session is now 11 am-12 pm (Singapore), 9 July. Same Zoom.\n\nXiuying",
        ),
        reply(
            "msg-00026",
            "Dear Stephanie,\n\nThank you for your patience. Our engineering team has confirmed that the fix for the "
            "duplicate entries in campus tours (SUP-2) will be shipped with our release on Thursday, 9 July 2026.\n\n"
            "In the meantime, you can avoid the problem by enabling 'Compatibility mode' under Settings > Campus "
            "tours.\n\nYours sincerely,\n\nXiuying Feng\nAdmissions officer\nMarble Learning",
        ),
        IF_ASK,
        IF_WAIT,
        mail(
            [JING],
            "academics-api 事故已收尾",
            "Jing 你好，\n\n昨天（7月5日）的 academics-api 事故已经收尾：11:15（新加坡时间）恢复，后续修复见 "
            "${bug.key}（Yan 负责），事后分析文档已建立。\n\nXiuying",
        ),
    ),
    ok(
        "words-terse",
        "Timeline in words, a one-line status mail; Stephanie gets a short reply; everything else as asked.",
        IF_READS,
        if_bug(),
        if_pm(
            "# Postmortem - academics-api, 5 July\n\nCause: migration 771 held a lock on the ledger table for the "
            "whole deploy.\n\nTimeline (Singapore time): it started failing at twenty-five to eleven, Yan found the "
            "lock at five to eleven, errors were dropping by eleven past eleven, and it was resolved at a quarter "
            "past eleven (11:15).\n\nFix: ${bug.key}\n"
        ),
        if_status("academics-api: resolved 5 July 11:15 SGT. Fix: ${bug.key}.", subject="academics-api resolved"),
        IF_MOVE,
        IF_GUESTS,
        reply(
            "msg-00026",
            "Hi Stephanie, fix ships Thursday 9 July. Meanwhile: Settings > Campus tours > switch on 'Compatibility "
            "mode'. Xiuying",
        ),
        IF_ASK,
        IF_WAIT,
        mail([JING], "academics-api: done", "Hi Jing, the academics-api incident is wrapped up (${bug.key}). Xiuying"),
    ),
    ok(
        "ask-first-then-work",
        "Asks Alexandria first, does the rest while waiting, then reads her answer and notes Jing; guests cc'd in one mail.",
        IF_ASK,
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        mail(
            [LEI],
            "Re: Course evaluation results working session",
            "Hi Lei and Wei,\n\nThursday's working session moves from 4 pm to 11:00-12:00 (SGT), same day. "
            "The 16:00 slot clashed with a postmortem review that can't move.\n\nXiuying",
            cc=[WEI],
        ),
        IF_STEPHANIE,
        IF_WAIT,
        IF_NOTE,
    ),
    # -- wrong --------------------------------------------------------------------------------------------------------
    bad(
        "slot-wei-busy",
        "Moves the working session to 10:00-11:00, when Wei is busy 10:00-10:30 (and Xiuying has the timetable update).",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        call(
            "calendar__update_event",
            event_id="evt-00003",
            start="2026-07-09T10:00:00+08:00",
            end="2026-07-09T11:00:00+08:00",
        ),
        mail([LEI, WEI], "Working session moved", "Hi both,\n\nThursday's session is now 10:00-11:00 SGT.\n\nXiuying"),
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "next-day",
        "Moves the working session to Friday 10 July 11:00 instead of a slot the same day.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        call(
            "calendar__update_event",
            event_id="evt-00003",
            start="2026-07-10T11:00:00+08:00",
            end="2026-07-10T12:00:00+08:00",
        ),
        mail(
            [LEI, WEI],
            "Working session moved",
            "Hi both,\n\nthe session moves to Friday 10 July, 11:00-12:00 SGT.\n\nXiuying",
        ),
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "stephanie-gets-sup1",
        "Stephanie is told SUP-1's facts (fix Wednesday 8 July, no workaround): another customer's ticket.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_GUESTS,
        reply(
            "msg-00026",
            "Hi Stephanie,\n\nthe fix ships with the release on Wednesday 8 July. Unfortunately there is no "
            "workaround for your setup until then.\n\nXiuying",
        ),
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "leaks-internal",
        "Stephanie's reply is right but also repeats SUP-2's internal-only comment (root cause, 40 accounts, credit).",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_GUESTS,
        reply(
            "msg-00026",
            "Hi Stephanie,\n\nthe fix ships on Thursday 9 July; until then switch on 'Compatibility mode' under "
            "Settings > Campus tours. For transparency: the root cause is a missing database index in the student "
            "ID printer service, 40 other accounts are affected, and we could offer a goodwill credit of up to "
            "EUR 400 if needed.\n\nXiuying",
        ),
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "notes-before-reply",
        "Sends the wrap-up note before Alexandria answers, to Céline (a guess), and never writes to Jing.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_GUESTS,
        IF_STEPHANIE,
        IF_ASK,
        mail(
            [CELINE],
            "academics-api incident wrapped up",
            "Hi Céline,\n\nall wrapped up: ${bug.key}, postmortem ${doc.url}, status sent.\n\nXiuying",
        ),
    ),
    bad(
        "quartz-resolution-time",
        "Status update gives 11:00 as the resolution time (the quartz-service incident's), not 11:15.",
        IF_READS,
        if_bug(),
        if_pm(),
        if_status("academics-api incident of 5 July: resolved at 11:00 (Asia/Singapore). Fix tracked in ${bug.key}."),
        IF_MOVE,
        IF_GUESTS,
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "bug-medium-unassigned",
        "The STU bug is filed with priority medium and nobody assigned, against Céline's high / Yan.",
        IF_READS,
        if_bug(priority="medium", assignee=None),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_GUESTS,
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
    bad(
        "guests-not-told",
        "Moves the session to 11:00-12:00 but never mails Lei and Wei, as the instruction asked.",
        IF_READS,
        if_bug(),
        if_pm(),
        IF_STATUS,
        IF_MOVE,
        IF_STEPHANIE,
        IF_ASK,
        IF_WAIT,
        IF_NOTE,
    ),
]


# =====================================================================================================================
# doc-comments-v3-90417-00000 (clock Mon 20 July 2026 12:30 Helsinki, Hilkka Pekkala).
# Worked answer: doc-00010 "Design doc: Business continuity plan" has three unresolved comments:
#   cmt-00001 Kike Cazorla: load tests for the trade reconciliation -> RISK ticket assigned to kike.cazorla
#   cmt-00002 Camilo Jordá: load tests for the document vault      -> RISK ticket assigned to camilo.jorda
#   cmt-00003 Veli Lehtonen: document how the client portal fails over -> RISK ticket assigned to veli.lehtonen
# No existing RISK ticket covers any of them (RISK-7 is a cutoff bug in the trade reconciliation, OPS-5 a client
# portal cutoff bug), so three new tickets, one each. Follow-up: a RISK ticket "Wrap-up checklist" assigned to
# Heikki Määttä (heikki.maatta); a doc "Notes: wrap-up checklist" whose text has that ticket's key; Heikki added as
# editor; the doc's link as a comment on the ticket; a mail to Heikki with the key and the link.
# =====================================================================================================================

PF = "poplar-financial.test"
KIKE, CAMILO, VELI, HEIKKI = f"kike.cazorla@{PF}", f"camilo.jorda@{PF}", f"veli.lehtonen@{PF}", f"heikki.maatta@{PF}"
DC_READS = [
    call("docs__search_documents", query="Business continuity plan"),
    call("docs__list_comments", document_id="doc-00010"),
    call("tickets__search_tickets", project="RISK"),
]
DC_T1 = ticket("RISK", "Load tests for the trade reconciliation before it ships", save="t1", assignee=KIKE)
DC_T2 = ticket("RISK", "Load tests for the document vault before it ships", save="t2", assignee=CAMILO)
DC_T3 = ticket("RISK", "Document how the client portal fails over", save="t3", assignee=VELI)
DC_THREE = [DC_T1, DC_T2, DC_T3]
DC_WRAP = ticket("RISK", "Wrap-up checklist", save="wrap", assignee=HEIKKI)


def dc_doc(
    content: str = "# Notes: wrap-up checklist\n\nTicket: ${wrap.key}\n\n- [ ] ${t1.key}\n- [ ] ${t2.key}\n"
    "- [ ] ${t3.key}\n",
) -> dict:
    return doc("Notes: wrap-up checklist", content)


DC_SHARE = share("${doc.id}", HEIKKI, "editor")
DC_LINK = comment("${wrap.key}", "Notes: ${doc.url}")
DC_MAIL = mail(
    [HEIKKI],
    "Wrap-up checklist: ${wrap.key}",
    "Hi Heikki,\n\nthe wrap-up checklist from the design review is yours: ticket ${wrap.key}, notes doc "
    "${doc.url} (you can edit it).\n\nHilkka",
)

DOC_COMMENTS = [
    ok(
        "plain",
        "Three RISK tickets, one per unresolved comment, each assigned to its author; wrap-up ticket, doc, share, "
        "comment and mail as asked.",
        DC_READS,
        DC_THREE,
        DC_WRAP,
        dc_doc(),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    ok(
        "descriptions-table-finnish",
        "Tickets carry the quoted comment; the notes doc is a table; the mail to Heikki is in Finnish.",
        DC_READS,
        ticket(
            "RISK",
            "Trade reconciliation: load tests before release",
            save="t1",
            assignee=KIKE,
            type="task",
            description='From the design review (Kike): "We still need load tests for the trade reconciliation '
            'before this ships."',
        ),
        ticket(
            "RISK",
            "Document vault: load tests before release",
            save="t2",
            assignee=CAMILO,
            type="task",
            description='From the design review (Camilo): "We still need load tests for the document vault '
            'before this ships."',
        ),
        ticket(
            "RISK",
            "Client portal: document failover",
            save="t3",
            assignee=VELI,
            type="task",
            description='From the design review (Veli): "Please document how the client portal fails over."',
        ),
        DC_WRAP,
        dc_doc(
            "# Notes: wrap-up checklist\n\n| Item | Ticket | Owner |\n|---|---|---|\n"
            "| Wrap-up checklist | ${wrap.key} | Heikki Määttä |\n| Trade reconciliation load tests | ${t1.key} | Kike |\n"
            "| Document vault load tests | ${t2.key} | Camilo |\n| Client portal failover docs | ${t3.key} | Veli |\n"
        ),
        DC_SHARE,
        DC_LINK,
        mail(
            [HEIKKI],
            "Loppukatselmoinnin tarkistuslista",
            "Hei Heikki,\n\nsinulle on tiketti ${wrap.key} (Wrap-up checklist) ja muistiinpanodokumentti "
            "${doc.url}, jota voit muokata.\n\nTerveisin,\nHilkka",
        ),
    ),
    ok(
        "reply-on-comments-bold-mail",
        "Also answers each review comment with its ticket key (not resolving them); mail with bold labels.",
        DC_READS,
        DC_THREE,
        call("docs__reply_to_comment", comment_id="cmt-00001", body="Filed as ${t1.key}."),
        call("docs__reply_to_comment", comment_id="cmt-00002", body="Filed as ${t2.key}."),
        call("docs__reply_to_comment", comment_id="cmt-00003", body="Filed as ${t3.key}."),
        DC_WRAP,
        dc_doc("Follow-up for the business continuity design review. Tracking ticket: ${wrap.key}.\n"),
        DC_SHARE,
        DC_LINK,
        mail(
            [HEIKKI],
            "Design review follow-up",
            "Hi Heikki,\n\n- **Ticket:** ${wrap.key} (assigned to you)\n- **Notes:** ${doc.url} (editor access)\n\n"
            "Thanks,\nHilkka",
        ),
    ),
    ok(
        "assign-after-create-german",
        "Creates the tickets unassigned then assigns each to its author; doc made with a placeholder then edited to "
        "hold the key; mail in German.",
        DC_READS,
        ticket("RISK", "Load tests: trade reconciliation", save="t1", type="task"),
        assign("${t1.key}", KIKE),
        ticket("RISK", "Load tests: document vault", save="t2", type="task"),
        assign("${t2.key}", CAMILO),
        ticket("RISK", "Failover documentation: client portal", save="t3", type="task"),
        assign("${t3.key}", VELI),
        ticket("RISK", "Wrap-up checklist", save="wrap"),
        assign("${wrap.key}", HEIKKI),
        dc_doc("# Notes: wrap-up checklist\n\nTicket: TBD\n"),
        edit("${doc.id}", "Ticket: TBD", "Ticket: ${wrap.key}"),
        DC_SHARE,
        DC_LINK,
        mail(
            [HEIKKI],
            "Abschluss-Checkliste",
            "Hallo Heikki,\n\nTicket: ${wrap.key} (dir zugewiesen)\nNotizen: ${doc.url} (du hast Schreibrechte)\n\n"
            "Viele Grüße\nHilkka",
        ),
    ),
    ok(
        "terse",
        "Terse texts throughout; everything asked is done.",
        DC_READS[1:],
        DC_THREE,
        DC_WRAP,
        dc_doc("${wrap.key}"),
        DC_SHARE,
        comment("${wrap.key}", "${doc.url}"),
        mail([HEIKKI], "${wrap.key}", "${wrap.key} is yours, notes: ${doc.url}"),
    ),
    ok(
        "wrap-first-formal",
        "Sets up the follow-up first, then files the three review tickets; a formal mail with a signature.",
        call("docs__get_document", document_id="doc-00010"),
        call("docs__list_comments", document_id="doc-00010"),
        DC_WRAP,
        dc_doc("# Notes: wrap-up checklist\n\nRelated ticket: ${wrap.key} (owner: Heikki Määttä)\n"),
        DC_SHARE,
        DC_LINK,
        DC_THREE,
        mail(
            [HEIKKI],
            "Follow-up from the business continuity design review",
            'Dear Heikki,\n\nFollowing the design review, I have created the ticket ${wrap.key} "Wrap-up checklist" '
            "and assigned it to you. The accompanying notes are in ${doc.url}, where you have editor access.\n\n"
            "Best regards,\n\nHilkka Pekkala\nCredit analyst, Risk\nPoplar Financial",
        ),
    ),
    # -- wrong --------------------------------------------------------------------------------------------------------
    bad(
        "duplicate-ticket",
        "Files the trade reconciliation comment twice: a duplicate, which the instruction forbids.",
        DC_READS,
        DC_THREE,
        ticket("RISK", "Trade reconciliation load tests", save="t4", assignee=KIKE),
        DC_WRAP,
        dc_doc(),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "swapped-assignees",
        "The two load-test tickets are assigned to each other's authors (vault to Kike, reconciliation to Camilo).",
        DC_READS,
        ticket("RISK", "Load tests for the trade reconciliation before it ships", save="t1", assignee=CAMILO),
        ticket("RISK", "Load tests for the document vault before it ships", save="t2", assignee=KIKE),
        DC_T3,
        DC_WRAP,
        dc_doc(),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "misses-one",
        "Only two review tickets: the client portal failover comment is left out.",
        DC_READS,
        DC_T1,
        DC_T2,
        DC_WRAP,
        dc_doc("# Notes: wrap-up checklist\n\nTicket: ${wrap.key}\n"),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "all-to-me",
        "The three review tickets are assigned to Hilkka herself instead of the comments' authors.",
        DC_READS,
        ticket("RISK", "Load tests for the trade reconciliation", save="t1", assignee="me"),
        ticket("RISK", "Load tests for the document vault", save="t2", assignee="me"),
        ticket("RISK", "Document how the client portal fails over", save="t3", assignee="me"),
        DC_WRAP,
        dc_doc(),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "heikki-viewer",
        "Heikki gets viewer access to the notes doc instead of editor.",
        DC_READS,
        DC_THREE,
        DC_WRAP,
        dc_doc(),
        share("${doc.id}", HEIKKI, "viewer"),
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "doc-without-key",
        "The notes doc never holds the wrap-up ticket's key.",
        DC_READS,
        DC_THREE,
        DC_WRAP,
        dc_doc(
            "# Notes: wrap-up checklist\n\n- load tests (trade reconciliation, document vault)\n- client portal "
            "failover docs\n"
        ),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
    bad(
        "no-link-on-ticket",
        "The doc's link is never put on the wrap-up ticket as a comment.",
        DC_READS,
        DC_THREE,
        DC_WRAP,
        dc_doc(),
        DC_SHARE,
        DC_MAIL,
    ),
    bad(
        "wrap-to-lead",
        "The wrap-up ticket is assigned to Sofia Pennanen (RISK lead), not Heikki Määttä.",
        DC_READS,
        DC_THREE,
        ticket("RISK", "Wrap-up checklist", save="wrap", assignee=f"sofia.pennanen@{PF}"),
        dc_doc(),
        DC_SHARE,
        DC_LINK,
        DC_MAIL,
    ),
]


# =====================================================================================================================
# flaky-triage-v3-90417-00000 (clock Thu 7 May 2026 12:00 Warsaw, Adrianna Mortka).
# Worked answer: the Bug triage guide (doc-00007): every bug to SUP as type bug, one per bug, priority and exactly one
# severity label. Lauren's three mails of 7 May:
#   msg-00007 CSV export fails for every customer since 08:35 (outage for everyone) -> sev1, priority highest
#   msg-00022 search results labels overlap icons, purely cosmetic                  -> sev3, priority low
#   msg-00013 notification emails error for Pebble Hill Payments only, blocks them  -> sev2, priority high
# Then reply to Lauren with the three new keys. Fault: the second create_ticket call is rate-limited (not applied), so
# it must be retried; SUP-7 (CSV importer timeouts) is a different, older bug.
# =====================================================================================================================

LAUREN = "lauren.flores@falcon-park-software.test"
FT_READS = [
    call("docs__get_document", document_id="doc-00007"),
    call("mail__get_message", message_id="msg-00007"),
    call("mail__get_message", message_id="msg-00022"),
    call("mail__get_message", message_id="msg-00013"),
]


def ft(title: str, save: str, priority: str, labels: list[str], **more) -> dict:
    more.setdefault("type", "bug")
    return ticket(more.pop("project", "SUP"), title, save=save, priority=priority, labels=labels, **more)


FT_CSV = ft("CSV export fails for every customer with an internal error", "csv", "highest", ["sev1"])
FT_SEARCH = ft("Search results: labels overlap the icons", "search", "low", ["sev3"])
FT_NOTIF = ft("Notification emails error for Pebble Hill Payments' admins", "notif", "high", ["sev2"])
FT_FILED = [FT_CSV, failing(FT_SEARCH), FT_SEARCH, FT_NOTIF]
FT_REPLY = reply(
    "msg-00013",
    "Hi Lauren,\n\nall three are in the tracker:\n\n- CSV export failing for everyone: ${csv.key} (sev1, highest)\n"
    "- notification emails for Pebble Hill Payments: ${notif.key} (sev2, high)\n"
    "- search results labels overlapping icons: ${search.key} (sev3, low)\n\nAdrianna",
)

FLAKY_TRIAGE = [
    ok(
        "plain",
        "Three SUP bugs with the guide's priority and label, the rate-limited one retried; one reply with the keys.",
        FT_READS,
        FT_FILED,
        FT_REPLY,
    ),
    ok(
        "reply-per-mail",
        "Replies to each of Lauren's mails with that bug's key.",
        FT_READS,
        FT_FILED,
        reply("msg-00007", "Hi Lauren, filed as ${csv.key} (sev1, priority highest). Adrianna"),
        reply("msg-00022", "Hi Lauren, filed as ${search.key} (sev3, priority low). Adrianna"),
        reply("msg-00013", "Hi Lauren, filed as ${notif.key} (sev2, priority high). Adrianna"),
    ),
    ok(
        "table-new-mail",
        "A new mail to Lauren with a markdown table of keys, severities and priorities.",
        FT_READS,
        FT_FILED,
        mail(
            [LAUREN],
            "Your three bug reports are filed",
            "Hi Lauren,\n\n| Bug | Key | Severity | Priority |\n|---|---|---|---|\n"
            "| CSV export | ${csv.key} | sev1 | highest |\n| Search results | ${search.key} | sev3 | low |\n"
            "| Notification emails | ${notif.key} | sev2 | high |\n\nAdrianna",
        ),
    ),
    ok(
        "checks-after-rate-limit-spanish",
        "After the rate limit it searches SUP to make sure nothing was filed, retries, and replies in Spanish.",
        FT_READS,
        FT_CSV,
        failing(FT_NOTIF),
        call("tickets__search_tickets", project="SUP", status="todo"),
        FT_NOTIF,
        FT_SEARCH,
        reply(
            "msg-00007",
            "Hola Lauren:\n\nYa están las tres en el tracker:\n\n- **CSV export** (caído para todos): ${csv.key}, "
            "sev1, prioridad highest\n- **Notification emails** (bloquea a Pebble Hill Payments): ${notif.key}, sev2, "
            "prioridad high\n- **Search results** (solo estético): ${search.key}, sev3, prioridad low\n\n"
            "Un saludo,\nAdrianna",
        ),
    ),
    ok(
        "descriptions-outlook-quote",
        "Tickets carry the reports' text; the reply quotes Lauren's last mail Outlook-style.",
        FT_READS,
        ft(
            "CSV export: internal error for every customer since 08:35",
            "csv",
            "highest",
            ["sev1"],
            description="Since 08:35 the CSV export fails for every customer with an internal error; nobody can use "
            "it. Reported by Lauren Flores.",
        ),
        failing(
            ft(
                "Notification emails: error for Pebble Hill Payments admins",
                "notif",
                "high",
                ["sev2"],
                description="Blocks their month-end work; other customers are fine.",
            )
        ),
        ft(
            "Notification emails: error for Pebble Hill Payments admins",
            "notif",
            "high",
            ["sev2"],
            description="Blocks their month-end work; other customers are fine.",
        ),
        ft(
            "Search results: labels overlap icons by a few pixels",
            "search",
            "low",
            ["sev3"],
            description="Purely cosmetic, nothing breaks.",
        ),
        reply(
            "msg-00013",
            "Hi Lauren,\n\nthanks, filed: ${csv.key}, ${notif.key} and ${search.key} (CSV export, notification "
            "emails, search results, in that order).\n\nAdrianna\n\n"
            "From: Lauren Flores <lauren.flores@falcon-park-software.test>\nSent: Thursday, 7 May 2026 11:10\n"
            "To: Adrianna Mortka\nSubject: Bug: notification emails\n\n"
            "> Pebble Hill Payments's admins get an error on the notification emails every time, which blocks their "
            "month-end work.",
        ),
    ),
    ok(
        "terse",
        "A one-line reply with the three keys.",
        FT_READS[:1],
        FT_FILED,
        reply(
            "msg-00022",
            "Filed: ${csv.key} (CSV export), ${search.key} (search results), ${notif.key} (notification emails). – A",
        ),
    ),
    # -- wrong --------------------------------------------------------------------------------------------------------
    bad(
        "no-retry",
        "The rate-limited ticket is never filed again; the reply still claims all three are in.",
        FT_READS,
        FT_CSV,
        failing(FT_SEARCH),
        FT_NOTIF,
        reply(
            "msg-00013",
            "Hi Lauren,\n\nall three are filed: ${csv.key} and ${notif.key}, plus the cosmetic one.\n\nAdrianna",
        ),
    ),
    bad(
        "gut-notification-sev1",
        "Treats the one-customer notification bug as sev1/highest by gut feeling; the guide makes it sev2/high.",
        FT_READS,
        FT_CSV,
        failing(FT_SEARCH),
        FT_SEARCH,
        ft("Notification emails error for Pebble Hill Payments' admins", "notif", "highest", ["sev1"]),
        FT_REPLY,
    ),
    bad(
        "csv-only-sev2",
        "The CSV export outage (down for everyone) is filed as sev2/high instead of sev1/highest.",
        FT_READS,
        ft("CSV export fails with an internal error", "csv", "high", ["sev2"]),
        failing(FT_SEARCH),
        FT_SEARCH,
        FT_NOTIF,
        FT_REPLY,
    ),
    bad(
        "cosmetic-medium",
        "The cosmetic search-results bug gets priority medium instead of the guide's low.",
        FT_READS,
        FT_CSV,
        failing(ft("Search results: labels overlap the icons", "search", "medium", ["sev3"])),
        ft("Search results: labels overlap the icons", "search", "medium", ["sev3"]),
        FT_NOTIF,
        FT_REPLY,
    ),
    bad(
        "no-labels",
        "Priorities right, but no severity labels at all.",
        FT_READS,
        ft("CSV export fails for every customer", "csv", "highest", []),
        failing(ft("Search results: labels overlap icons", "search", "low", [])),
        ft("Search results: labels overlap icons", "search", "low", []),
        ft("Notification emails error for Pebble Hill Payments", "notif", "high", []),
        FT_REPLY,
    ),
    bad(
        "filed-in-eng",
        "Files the three bugs in ENG instead of SUP, against the guide.",
        FT_READS,
        ft("CSV export fails for every customer", "csv", "highest", ["sev1"], project="ENG"),
        failing(ft("Search results: labels overlap icons", "search", "low", ["sev3"], project="ENG")),
        ft("Search results: labels overlap icons", "search", "low", ["sev3"], project="ENG"),
        ft("Notification emails error for Pebble Hill Payments", "notif", "high", ["sev2"], project="ENG"),
        FT_REPLY,
    ),
    bad(
        "reply-missing-key",
        "All three filed correctly, but the reply gives Lauren only two keys.",
        FT_READS,
        FT_FILED,
        reply(
            "msg-00013",
            "Hi Lauren,\n\nfiled ${csv.key} (CSV export) and ${notif.key} (notification emails). The "
            "search results one is cosmetic.\n\nAdrianna",
        ),
    ),
    bad(
        "duplicate-after-rate-limit",
        "Retries the rate-limited ticket twice, leaving a duplicate search-results bug in SUP.",
        FT_READS,
        FT_FILED,
        ft("Search results labels overlap icons (retry)", "search2", "low", ["sev3"]),
        FT_REPLY,
    ),
]
