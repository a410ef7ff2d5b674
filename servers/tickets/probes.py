"""Tickets' part in proving scenarios: unrelated tickets rewritten or cancelled, seeded links removed,
tickets in the wrong project, and create-then-update (see `servers.core.probes`)."""

from __future__ import annotations

from servers.core.probes import AppProbes, Probe, ProbeContext, Skip, Step, other_than, ref

# create_ticket argument → the update_ticket argument that sets it afterwards (assignee has its own tool)
LATER = {
    "description": "description",
    "type": "type",
    "priority": "priority",
    "labels": "add_labels",
    "due_date": "due_date",
}
DEFAULTS = {"type": "task", "priority": "medium"}


def attacks(ctx: ProbeContext) -> tuple[list[Probe], list[Skip]]:
    """Tickets attacks on the reference solution: a ticket filed in another project, a seeded link removed …"""
    out: list[Probe] = []
    skips: list[Skip] = []
    for step in ctx.steps:
        if step.tool == "create_ticket" and step.origin is not None:
            projects = [p["key"] for p in ctx.rows("projects")]
            project = step.args.get("project")
            other = other_than(
                project.upper() if isinstance(project, str) and "$" not in project else project, projects
            )
            if other is not None:
                named = other if isinstance(other, str) else "another seeded one"
                out.append(
                    Probe(
                        "wrong-container",
                        f"create_ticket (step {step.origin}) in project {named}",
                        replace={step.origin: [step.with_args(project=other)]},
                    )
                )
    unrelated = [t for t in ctx.unrelated("tickets", "key") if t["status"] not in ("done", "cancelled")]
    if unrelated:
        ticket = unrelated[0]
        rewrite = {
            "key": ticket["key"],
            "title": f"{ticket['title']} (superseded)",
            "description": "Covered elsewhere.",
        }
        out.append(
            Probe(
                "change-unrelated",
                f"rewrite unrelated ticket {ticket['key']}'s title and description",
                append=[Step("update_ticket", rewrite)],
            )
        )
        out.append(
            Probe(
                "change-unrelated",
                f"cancel unrelated ticket {ticket['key']}",
                append=[Step("transition_ticket", {"key": ticket["key"], "status": "cancelled"})],
            )
        )
    links = ctx.rows("links")
    if links:
        link = links[0]
        out.append(
            Probe(
                "trash-seeded",
                f"remove the seeded link {link['source']} {link['type']} {link['target']}",
                append=[Step("unlink_tickets", {"link_id": link["id"]})],
            )
        )
    else:
        skips.append(Skip("trash-seeded", "tickets cannot be deleted and no link is seeded"))
    return out, skips


def rewrites(ctx: ProbeContext) -> list[Probe]:
    """Correct rewrites of the reference solution: a ticket created bare, then its other fields set."""
    out: list[Probe] = []
    for step in ctx.steps:
        if step.tool != "create_ticket" or step.origin is None:
            continue
        save = step.save or f"_ticket{step.origin}"
        rest = {
            LATER[k]: v for k, v in step.args.items() if k in LATER and v not in (None, "", []) and DEFAULTS.get(k) != v
        }
        calls = [Step("create_ticket", {"project": step.args["project"], "title": step.args["title"]}, save=save)]
        if rest:
            calls.append(Step("update_ticket", {"key": ref(save, "key"), **rest}))
        if step.args.get("assignee"):
            calls.append(Step("assign_ticket", {"key": ref(save, "key"), "assignee": step.args["assignee"]}))
        if len(calls) > 1:
            out.append(
                Probe(
                    "create-update",
                    f"create_ticket (step {step.origin}) with project and title only, then updated",
                    replace={step.origin: calls},
                )
            )
    return out


def reads(ctx: ProbeContext) -> list[Step]:
    """Harmless tracker reads an equivalent trajectory may add: list projects and users, search, get a ticket."""
    out = [Step("list_projects"), Step("search_tickets", {}), Step("list_users")]
    tickets = ctx.rows("tickets")
    if tickets:
        out.append(Step("get_ticket", {"key": tickets[0]["key"]}))
    return out


NOTE = "Picked this up, working on it now."


def extras(ctx: ProbeContext) -> list[Probe]:
    """Benign additions: a comment on the ticket the reference solution works on (the last one it names)."""
    for step in reversed(ctx.steps):
        key = step.args.get("key")
        if key and step.tool not in ("get_ticket", "search_tickets"):
            return [
                Probe(
                    "extra-ticket-comment",
                    f"a comment on {key}",
                    append=[Step("add_comment", {"key": key, "body": NOTE})],
                )
            ]
        if step.tool == "create_ticket" and step.origin is not None:
            # A ticket the reference makes without keeping its key: the variant keeps it, to comment on it.
            saved = step.save or f"_made{step.origin}"
            comment = Step("add_comment", {"key": ref(saved, "key"), "body": NOTE})
            kept = Step(step.tool, step.args, saved, step.origin)
            return [
                Probe(
                    "extra-ticket-comment",
                    f"a comment on the ticket created at step {step.origin}",
                    replace={step.origin: [kept]},
                    append=[comment],
                )
            ]
    return []


PROBES = AppProbes(
    attacks=attacks,
    rewrites=rewrites,
    reads=reads,
    text_args={
        "create_ticket": ("description",),
        "update_ticket": ("description",),
        "add_comment": ("body",),
        "transition_ticket": ("comment",),
    },
    title_args={"create_ticket": "title"},
    target_args=("key", "source", "target", "project", "link_id"),
    extras=extras,
    list_args={
        "create_ticket": {"labels": ("tickets", "labels")},
        "update_ticket": {"add_labels": ("tickets", "labels")},
    },
)
