"""Building blocks of the verdict rounds' scripted agents (tests/adversarial/devround, heldout3): tool calls as plain dicts, and cases labelled from the instruction.

A case is the harness's `Case` plus the one-line reason a careful human grader would give for its label. Steps are
written as concrete tool calls (ids from the scenario's seed; `${name.path}` reads a result saved by an earlier call,
as the harness's oracle steps do), never copied from a scenario's reference solution. In library scenarios, dates may be
written as the scenario's templates (`{{ next tuesday 11:00 }}`), expanded against the scenario's clock.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for extra in (str(ROOT), str(HERE)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

from harness import Case  # noqa: E402

from orchestrator.scenario import OracleStep, Scenario, relative_dates  # noqa: E402


@dataclass
class Held(Case):
    """A held-out case: `reason` says in one line why a careful grader gives it `want`.

    A held-out round's cases are written without reading any check, so a wrong one names none (`fails_on` stays
    empty) and the round compares only the verdict with the label."""

    reason: str = ""

    def __post_init__(self) -> None:
        if self.fails_on:
            raise ValueError(f"case {self.id!r}: a held-out case names no check (fails_on)")


def call(tool: str, save: str | None = None, **args: Any) -> dict[str, Any]:
    """One tool call, e.g. call("mail__reply", message_id="m1", body="..."); `save` keeps its result for later calls."""
    step: dict[str, Any] = {"tool": tool, "args": args}
    if save:
        step["save"] = save
    return step


def steps(*calls: dict[str, Any] | list[dict[str, Any]]):
    """A whole solution from calls (lists are flattened), ready for `Case.steps`."""
    flat: list[dict[str, Any]] = []

    def add(item: Any) -> None:
        if isinstance(item, list | tuple):
            for inner in item:
                add(inner)
        else:
            flat.append(item)

    add(calls)

    def build(scenario: Scenario) -> list[OracleStep]:
        text = json.dumps(flat)
        if "{{" in text:  # library scenarios: dates written as templates, read from the scenario's clock
            start = scenario.clock.start.astimezone(ZoneInfo(scenario.persona.timezone))
            text = relative_dates.expand(text, start)
        return [OracleStep.model_validate(step) for step in json.loads(text)]

    return build


def ok(case_id: str, reason: str, *calls: dict[str, Any] | list[dict[str, Any]]) -> Held:
    """A correct solution: the verdict should pass it."""
    return Held(id=case_id, want=True, steps=steps(*calls), reason=reason)


def bad(case_id: str, reason: str, *calls: dict[str, Any] | list[dict[str, Any]]) -> Held:
    """A wrong or harmful solution: the verdict should fail it."""
    return Held(id=case_id, want=False, steps=steps(*calls), reason=reason)


# -- short names for the calls used most ----------------------------------------------------------------------------


def reply(message_id: str, body: str, **more: Any) -> dict[str, Any]:
    """Reply to a message in its thread."""
    return call("mail__reply", message_id=message_id, body=body, **more)


def mail(to: list[str], subject: str, body: str, **more: Any) -> dict[str, Any]:
    """A new mail."""
    return call("mail__send_message", to=to, subject=subject, body=body, **more)


def ticket(project: str, title: str, save: str | None = None, **more: Any) -> dict[str, Any]:
    """Create a ticket; `save` keeps it (its key is `${save.key}`)."""
    return call("tickets__create_ticket", save=save, project=project, title=title, **more)


def move(key: str, status: str, **more: Any) -> dict[str, Any]:
    """Transition a ticket."""
    return call("tickets__transition_ticket", key=key, status=status, **more)


def assign(key: str, assignee: str | None) -> dict[str, Any]:
    """Assign a ticket."""
    return call("tickets__assign_ticket", key=key, assignee=assignee)


def comment(key: str, body: str) -> dict[str, Any]:
    """Comment on a ticket."""
    return call("tickets__add_comment", key=key, body=body)


def share(document_id: str, email: str, role: str = "editor") -> dict[str, Any]:
    """Share a document."""
    return call("docs__share_document", document_id=document_id, email=email, role=role)


def decline(event_id: str) -> dict[str, Any]:
    """Decline an invitation."""
    return call("calendar__respond_to_event", event_id=event_id, response="declined")


def event(title: str, start: str, end: str | None = None, save: str | None = None, **more: Any) -> dict[str, Any]:
    """Create a calendar event."""
    return call("calendar__create_event", save=save, title=title, start=start, end=end, **more)


def day(title: str, first: str, last: str | None = None, **more: Any) -> dict[str, Any]:
    """An all-day event from `first` to `last` (dates, last day included)."""
    return call(
        "calendar__create_event",
        title=title,
        start=first + "T00:00",
        end=(last or first) + "T00:00",
        all_day=True,
        **more,
    )


def moved(event_id: str, start: str, end: str, **more: Any) -> dict[str, Any]:
    """Move an event."""
    return call("calendar__update_event", event_id=event_id, start=start, end=end, **more)


def doc(title: str, content: str, save: str = "doc", **more: Any) -> dict[str, Any]:
    """Create a document; its link is `${doc.url}`."""
    return call("docs__create_document", save=save, title=title, content=content, **more)


def edit(document_id: str, find: str, replace: str) -> dict[str, Any]:
    """Replace one exact piece of a document."""
    return call("docs__edit_document", document_id=document_id, find=find, replace=replace)


def label(ids: list[str], name: str) -> dict[str, Any]:
    """Label messages."""
    return call("mail__add_label", message_ids=ids, label=name)


def archive(ids: list[str]) -> dict[str, Any]:
    """Archive messages."""
    return call("mail__move_to_folder", message_ids=ids, folder="archive")


def forward(message_id: str, to: list[str], body: str = "", **more: Any) -> dict[str, Any]:
    """Forward a message."""
    return call("mail__forward", message_id=message_id, to=to, body=body, **more)
