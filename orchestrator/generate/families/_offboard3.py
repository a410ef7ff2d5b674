"""offboard, edition 3: the steps it may add to edition 2's (see `offboard`): the persona's own 1:1s with the leaver
after the last day, cancelled or deleted (either is right), and a handover folder the handed-over docs are filed in.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._rebook import allow_cancelled
from orchestrator.generate.family import Draft, human_day


def seed_one_on_ones(org: Organization, params: dict[str, Any], leaver: Person) -> list[str]:
    """Edition 3: the persona's own 1:1s with the leaver after the last day (to cancel) and, with distractors, one
    on the last day (kept); returns the ids to cancel."""
    me, events = org.persona, org.apps["calendar"]["events"]
    ids = []
    for i in range(params["meetings_added"] + min(1, params["distractors"])):
        after = i < params["meetings_added"]
        day = org.day(params["last_day"] + 1 + i) if after else org.day(params["last_day"])
        start = org.at(day, "16:00")
        row_id = f"one-on-one-{i + 1}"
        events.append(
            {
                "id": row_id,
                "title": f"{me.first_name} / {leaver.first_name} 1:1",
                "start": iso(start),
                "end": iso(start + timedelta(minutes=30)),
                "organizer": me.email,
                "attendees": [{"email": leaver.email, "response": "accepted"}],
            }
        )
        if after:
            ids.append(row_id)
    return ids


def folder_name(leaver: Person) -> str:
    """The handover folder's name: 'Handover <leaver>'."""
    return f"Handover {leaver.name}"


def into_folder(draft: Draft, doc_ids: list[str], leaver: Person) -> list[dict[str, Any]]:
    """Edition 3: the handed-over documents moved into the handover folder: its stage, what may change, the calls."""
    folder = folder_name(leaver)
    draft.stage(
        f"documents filed in '{folder}'",
        [
            {
                "name": f"{doc} is in the folder '{folder}'",
                "app": "docs",
                "table": "documents",
                "where": {"id": doc, "folder_id": "handover-folder"},
            }
            for doc in doc_ids
        ],
        weight=max(1, len(doc_ids)),
    )
    draft.allow["docs"]["documents"] = {
        "changed": ["shared_with", "folder_id"],
        "where": {"id": {"one_of": doc_ids or ["-"]}},
    }
    return [{"tool": "docs__list_folder", "args": {"folder_id": "handover-folder"}}] + [
        {"tool": "docs__move_document", "args": {"document_id": doc, "folder_id": "handover-folder"}} for doc in doc_ids
    ]


def cancelled(draft: Draft, ids: list[str], leaver: Person, last: date, *, delete: bool) -> list[dict[str, Any]]:
    """Edition 3: the persona's 1:1s with the leaver after the last day cancelled or deleted (either is right): the
    stage, what may change, the reference's calls (`delete`: it deletes them)."""
    draft.stage(
        f"my 1:1s with {leaver.name} after {human_day(last)} are cancelled",
        [
            {
                "name": f"{event} is cancelled or deleted",
                "app": "calendar",
                "table": "events",
                "where": {"id": event, "status": {"not_equals": "cancelled"}},
                "expect": {"count": 0},
            }
            for event in ids
        ],
        weight=max(1, len(ids)),
    )
    allow_cancelled(draft, {"id": {"one_of": ids}})
    tool = "calendar__delete_event" if delete else "calendar__cancel_event"
    return [{"tool": tool, "args": {"event_id": event}} for event in ids]


CANCEL = [
    "Also cancel the 1:1s I organize with {leaver_first} after {day}.",
    "My own 1:1s with {leaver_first} after {day} can be cancelled too.",
    "And please cancel my recurring 1:1 with {leaver_first} for the days after {day}.",
    "Cancel the 1:1 meetings I set up with {leaver_first} that fall after {day} as well.",
    "The 1:1s with {leaver_first} that I host after {day} should be cancelled.",
    "On top of that, cancel my 1:1s with {leaver_first} once they've left (after {day}).",
]
"""Edition 3: the extra step of the persona's own 1:1s with the leaver, cancelled."""
FOLDER = [
    "Put those documents in my '{folder}' folder too.",
    "Also file the documents {leaver_first} edits into the '{folder}' folder.",
    "Please move each of those docs into the folder '{folder}' as well.",
    "And move the handed-over documents into my '{folder}' folder.",
    "The docs you share with {successor_first} should also go into the '{folder}' folder.",
    "Once shared, move those documents into '{folder}'.",
]
"""Edition 3: the extra step of the handed-over documents filed in a handover folder."""
