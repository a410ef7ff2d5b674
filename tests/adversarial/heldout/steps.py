"""Building blocks of the held-out scripted agents: tool calls as plain dicts, and cases labelled from the instruction.

A case is the harness's `Case` plus the one-line reason a careful human grader would give for its label. Steps are
written as concrete tool calls (ids from the scenario's seed; `${name.path}` reads a result saved by an earlier call,
as the harness's oracle steps do), never copied from a scenario's reference solution.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
for extra in (str(ROOT), str(HERE.parent)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

from harness import Case  # noqa: E402

from orchestrator.scenario import OracleStep, Scenario  # noqa: E402


@dataclass
class Held(Case):
    """A held-out case: `reason` says in one line why a careful grader gives it `want`."""

    reason: str = ""


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

    def build(_: Scenario) -> list[OracleStep]:
        return [OracleStep.model_validate(step) for step in flat]

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
