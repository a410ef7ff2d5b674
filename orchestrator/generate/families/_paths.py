"""Edition 3's reference solutions walk the apps the way people do: other tools, the same outcome.

`broaden(draft, params)` rewrites an edition-3 draft's reference solutions (`oracle` and every one of `oracles`),
each change taken or not by a bit of the parameters' digest, so the task set as a whole uses most of the apps'
tools while every task keeps its checks:

- a look before acting: the ticket projects before filing a ticket (`tickets__list_projects`), the people before
  assigning one (`tickets__list_users`), the folders and labels before filing mail (`mail__list_folders`), the
  calendars and the coming events before booking or moving one (`calendar__list_calendars`,
  `calendar__list_events`), the folder a document goes into (`docs__list_folder`), a document's history before
  going by it (`docs__list_revisions`), a colleague's address before writing to them (`mail__search_contacts`);
- a mail written as a draft and then sent (`mail__create_draft`, `mail__send_draft`) instead of `send_message`;
- a ticket filed, then given its priority (`tickets__update_ticket`), when it is not the default one.

Reads change nothing, and a draft sent is the same mail, so every check holds as before; a mutation that leaves out
the draft or its sending still fails. Editions 1 and 2 are never rewritten.
"""

from __future__ import annotations

import copy
from typing import Any

from orchestrator.generate.family import Draft, digest


def _bits(params: dict[str, Any]) -> int:
    return int(digest({"paths": params}, 16), 16)


def _looks(step: dict[str, Any], other: bool) -> list[dict[str, Any]]:
    """The reads a person would do before `step` (`other`: the second way of looking, where there is one)."""
    tool, args = step["tool"], step.get("args", {})
    if tool == "tickets__create_ticket":
        return [{"tool": "tickets__list_projects", "args": {}}]
    if tool == "tickets__assign_ticket" and "${" not in str(args.get("assignee", "${")):
        return [{"tool": "tickets__list_users", "args": {"query": str(args["assignee"]).split("@")[0]}}]
    if tool in ("mail__add_label", "mail__move_to_folder"):
        return [{"tool": "mail__list_folders", "args": {}}]
    if tool == "calendar__create_event" and other and isinstance(args.get("title"), str) and "${" not in args["title"]:
        return [{"tool": "calendar__search_events", "args": {"query": args["title"]}}]  # is it booked already?
    if tool == "calendar__create_event":
        return [{"tool": "calendar__list_calendars", "args": {}}]
    if tool in ("calendar__update_event", "calendar__respond_to_event"):
        return [{"tool": "calendar__list_events", "args": {}}]
    if tool == "docs__create_document" and isinstance(args.get("folder_id"), str) and "${" not in args["folder_id"]:
        return [{"tool": "docs__list_folder", "args": {"folder_id": args["folder_id"]}}]
    if tool == "docs__get_document" and "${" not in str(args.get("document_id", "${")):
        doc = {"document_id": args["document_id"]}
        first = [{"tool": "docs__get_revision", "args": {**doc, "number": 1}}] if other else []
        return [{"tool": "docs__list_revisions", "args": doc}, *first]  # has it changed since it was written?
    if tool in ("mail__send_message", "mail__create_draft"):
        to = [a for a in args.get("to", []) if isinstance(a, str) and "${" not in a and "@" in a]
        if to:
            return [{"tool": "mail__search_contacts", "args": {"query": to[0].split("@")[0]}}]
    return []


def _as_draft(step: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """`mail__send_message` as a draft created and then sent (the sent mail saved under the step's name)."""
    created: dict[str, Any] = {"tool": "mail__create_draft", "args": step["args"], "save": f"draft_{n}"}
    if "unchecked" in step:
        created["unchecked"] = step["unchecked"]
    sent: dict[str, Any] = {"tool": "mail__send_draft", "args": {"draft_id": f"${{draft_{n}.id}}"}}
    if "save" in step:
        sent["save"] = step["save"]
    return [created, sent]


def _then_priority(step: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """`tickets__create_ticket` with a priority other than the default filed first and given its priority after
    (`tickets__update_ticket`); any other step as it is."""
    priority = step.get("args", {}).get("priority")
    if step["tool"] != "tickets__create_ticket" or priority in (None, "medium"):
        return [step]
    name = step.get("save", f"ticket_{n}")
    created = {**step, "args": {k: v for k, v in step["args"].items() if k != "priority"}, "save": name}
    return [created, {"tool": "tickets__update_ticket", "args": {"key": f"${{{name}.key}}", "priority": priority}}]


def rewrite(steps: list[dict[str, Any]], bits: int) -> list[dict[str, Any]]:
    """One reference solution rewritten: before each step, its look when the step's bit says so; each
    `send_message`, as a draft sent, and each ticket filed, then given its priority, when their bit says so."""
    out: list[dict[str, Any]] = []
    for n, step in enumerate(steps):
        if (bits >> (2 * n % 60)) & 1:
            out += [look for look in _looks(step, bool((bits >> (61 + n % 3)) & 1)) if look not in out[-1:]]
        if step["tool"] == "mail__send_message" and (bits >> ((2 * n + 1) % 60)) & 1:
            out += _as_draft(copy.deepcopy(step), n)
        elif (bits >> ((2 * n + 1) % 60)) & 1:
            out += _then_priority(step, n)
        else:
            out.append(step)
    return out


def broaden(draft: Draft, params: dict[str, Any]) -> Draft:
    """An edition-3 draft's reference solutions rewritten (see the module); other editions' drafts as they are."""
    if draft.org.edition < 3:
        return draft
    bits = _bits(params)
    draft.oracle = rewrite(draft.oracle, bits)
    draft.oracles = [rewrite(steps, bits) for steps in draft.oracles]
    return draft
