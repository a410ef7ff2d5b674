"""inbox-rules, edition 3: the rules it adds to edition 2's (see `inbox_rules`).

Mark the calendar's notifications read, trash a look-alike helpdesk's phishing while the real helpdesk's mail
stays, forward a vendor's invoices to a colleague; the customer's label may not exist yet.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from orchestrator.generate.build import Organization, Person

KINDS3 = ("calendar", "phishing", "invoices")
"""The rules edition 3 adds."""


def today3(
    org: Organization, params: dict[str, Any], kind: str, mail: Callable[..., None], numbers: Iterator[str]
) -> None:
    """One of today's mails a rule of edition 3 applies to."""
    if kind == "calendar":
        mail(f"Calendar <calendar@{org.domain}>", body="An event on your calendar was updated.")
    elif kind == "phishing":
        mail(
            f"IT Helpdesk <it-helpdesk@{lookalike(org)}>",
            subject="Action required: your password expires today",
            body=f"Dear user,\n\nyour password expires today. Confirm it at https://{lookalike(org)}/login "
            "within 2 hours to keep your mailbox.\n\nIT Helpdesk",
        )
    elif kind == "invoices":
        vendor = org.person(params["vendor"])
        mail(
            vendor.address_line,
            subject=f"Invoice {next(numbers)} from {vendor.company}",
            body=f"Hello,\n\nplease find this month's invoice below.\n\nBest regards,\n{vendor.name}",
        )


def distractor3(
    org: Organization, params: dict[str, Any], kind: str, d: int, mail: Callable[..., None], numbers: Iterator[str]
) -> None:
    """Distractor `d` of an edition-3 rule: mail it must leave alone (older, or the real sender)."""
    if kind == "calendar":
        mail(f"Calendar <calendar@{org.domain}>", today=False, body="Reminder: an event starts soon.")
    elif kind == "phishing":  # the real helpdesk, today and before: not phishing
        mail(
            f"IT Helpdesk <it-helpdesk@{org.domain}>",
            today=d == 0,
            body="Hello,\n\nplanned maintenance of the VPN tonight from 22:00. No action needed.\n\nIT",
        )
    elif kind == "invoices":
        vendor = org.person(params["vendor"])
        if d == 0:
            mail(
                vendor.address_line,
                today=False,
                subject=f"Invoice {next(numbers)} from {vendor.company}",
                body="Hello,\n\nlast month's invoice, already paid.\n\nBest regards",
            )
        else:
            mail(vendor.address_line, body="Hello,\n\na question about next week's delivery.\n\nBest regards")


def lookalike(org: Organization) -> str:
    """The domain a phishing mail pretends to be the organization's helpdesk from."""
    name, _, tld = org.domain.rpartition(".")
    return f"{name}-helpdesk.{tld or 'test'}"


def sample3(org: Organization, rng: random.Random, params: dict[str, Any], customer: Person) -> bool:
    """Edition 3's parameters of its new rules; False when the organization has nobody to forward invoices to."""
    params["new_label"] = rng.random() < 0.5
    if "invoices" not in params["kinds"]:
        return True
    vendors = [p for p in org.outsiders if p.email != customer.email and p.company]
    me, manager = org.persona, org.persona.manager
    colleagues = [p for p in org.people if p.email not in (me.email, manager) and p.first_name != me.first_name]
    if not vendors or not colleagues:
        return False
    params["vendor"] = rng.choice(vendors).email
    params["finance"] = rng.choice(colleagues).email
    params["invoice_numbers"] = [f"INV-{rng.randint(10000, 99999)}" for _ in range(4)]
    return True


def applied(
    name: str,
    ids: list[str],
    state: dict[str, Any],
    changed: list[str],
    call: dict[str, Any],
    out: tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    """A rule applied to exactly its mail: the check that each of `ids` is in `state`, the columns the rule may
    change on them, and the oracle's call; appended to `out` (checks, allow, oracle)."""
    checks, allow, oracle = out
    checks.append(
        {
            "name": name,
            "app": "mail",
            "table": "messages",
            "where": {"id": {"one_of": ids}, **state},
            "expect": {"count": len(ids)},
        }
    )
    allow.append({"changed": changed, "where": {"id": {"one_of": ids}}})
    oracle.append(call)


def apply3(
    org: Organization,
    params: dict[str, Any],
    kind: str,
    ids: list[str],
    checks: list[dict[str, Any]],
    allow: list[dict[str, Any]],
    oracle: list[dict[str, Any]],
) -> None:
    """Edition 3's rules: the check that each was applied to exactly its mail, what it allows, the oracle's calls."""
    n = len(ids)
    out = (checks, allow, oracle)
    if kind == "calendar":
        call = {"tool": "mail__mark_read", "args": {"message_ids": ids}}
        applied(f"the {n} calendar notification(s) of today are read", ids, {"is_read": True}, ["is_read"], call, out)
    elif kind == "phishing":
        name = f"the {n} phishing mail(s) from {lookalike(org)} of today are in the trash"
        call = {"tool": "mail__trash_message", "args": {"message_ids": ids}}
        applied(name, ids, {"folder": "trash"}, ["folder", "is_read"], call, out)
    else:
        finance = org.person(params["finance"])
        subjects = {m["id"]: m["subject"] for m in org.apps["mail"]["messages"] if m["id"] in ids}
        for mid in ids:
            checks.append(
                {
                    "name": f"the invoice '{subjects[mid]}' is forwarded to {finance.name}",
                    "app": "mail",
                    "table": "messages",
                    "added": True,
                    "where": {
                        "to": {"contains": finance.email},
                        "any": [
                            {"forwarded_from": mid},
                            {"subject": {"says": {"phrase": subjects[mid], "claimed": False}}},
                        ],
                    },
                }
            )
            oracle.append({"tool": "mail__forward", "args": {"message_id": mid, "to": [finance.email]}})
        allow.append({"changed": ["is_read"], "where": {"id": {"one_of": ids}}})
        allow.append({"added": True, "where": {"to": {"contains": finance.email}}})


RULES3 = {
    "calendar": [
        "mark the calendar notifications (from calendar@{org_domain}) as read",
        "mark today's calendar notification mails as read",
        "the automatic calendar notifications can be marked read",
        "set the calendar notifications from calendar@{org_domain} to read",
        "mark anything from the calendar's notification address as read",
        "mark the calendar's update mails as read, nothing more",
    ],
    "phishing": [
        "move the fake IT helpdesk mail from {lookalike} (phishing, not our real helpdesk) to the trash",
        "trash the phishing mail that pretends to be the helpdesk from {lookalike}",
        "put the 'password expires' phishing from {lookalike} in the trash; our real helpdesk writes from {org_domain}",
        "bin anything from {lookalike}: it's phishing posing as IT",
        "send the look-alike helpdesk mail from {lookalike} to the trash",
        "trash the phishing from {lookalike} (the real IT helpdesk is on {org_domain})",
    ],
    "invoices": [
        "forward {vendor_company}'s invoices to {finance} ({finance_email})",
        "send each invoice from {vendor_company} on to {finance} ({finance_email}) with the forward button",
        "forward any invoice {vendor_company} sent to {finance} in finance ({finance_email})",
        "{finance} ({finance_email}) should get {vendor_company}'s invoices: forward them",
        "pass {vendor_company}'s invoices to {finance} ({finance_email}) by forwarding them",
        "forward the invoices from {vendor_company} to {finance_email} ({finance})",
    ],
}
"""Edition 3's words of its new rules (each drawn from its kind's held-out variants)."""
CONFLICTS = {
    "Don't delete anything.": "Don't delete anything else.",
    "Don't forward anything.": "Don't forward anything else.",
}
"""Closers that a rule of edition 3 would contradict (trash, forward), worded for a task that has such a rule."""
