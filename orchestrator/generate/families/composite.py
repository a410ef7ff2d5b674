"""Composite tasks: 2-4 families chained over one organization, asked for in one instruction (edition 2).

A composite family names a chain of part families (`Composite.chain`, parts described in `composite_parts`; a
place of the chain may offer alternatives, one drawn per task). Its
`sample` draws the parts in order on one copy of the world: each part is sampled, adjusted to the parts before it
(`fit`: a shared person, a refused overlap), and built on that copy before the next is sampled, so a later part
sees the earlier parts' rows, people and times and never collides with them. `build` replays the parts on the
given organization in the same order and merges their drafts into one scenario:

- stages: every part's, named `<part label>: <stage>`, weights kept;
- allow and relax rules: concatenated per app and table (an allow rule list per table);
- forbids: every part's, except that a forbid that confines mail to a part's recipients (`has: {not_one_of: ..}`,
  `has: {not_equals: ..}`) also lets through the recipients the other parts must write to (their `told` people and
  the addresses their reference mails go to), so no part's forbid forbids another part's required mail; and a
  part's "no new row stands in" count is scoped to that part's own rows (`adapt`);
- the reference solution: the parts' reference calls in order, each part's saved names prefixed (`p1_found`); an
  alternative reference runs the parts in the opposite order.

The instruction is the parts' request sentences (each from its part's list, on the organization's side of the split, see
`phrasing`), joined by linking words, with the composite's own opener and closer. The manifest's `template` is
the parts' request ids joined by `+` (each on the organization's side of the split, so no template is shared between
train and test); `parts` lists the id of every part used (each part's request, the opener, the closer);
`chain` holds each part's family, knobs and parameters.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, ClassVar

from orchestrator.generate.build import Organization
from orchestrator.generate.coherence import let_through, moved_to
from orchestrator.generate.families.composite_parts import LAST, MIDDLE, PARTS
from orchestrator.generate.families.reschedule import Move
from orchestrator.generate.families.travel import Trip
from orchestrator.generate.family import Draft, Family, canonical, families, register
from orchestrator.generate.phrasing import part_id, template_split, usable

ATTEMPTS = 6
"""Draws of a part (and of the whole chain) before the organization is found unfit."""
MIN_CALLS = 10
"""A composite's reference solution makes at least this many calls (fewer: the chain is drawn again)."""
SAVED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


class Composite(Family):
    """A chain of families asked for in one instruction; subclasses set `chain`, `openers`, `closers`."""

    chain: ClassVar[tuple[str | tuple[str, ...], ...]]
    """The part families in order; a tuple at a place offers alternatives, one drawn per task."""
    openers: ClassVar[tuple[str, ...]] = ()
    closers: ClassVar[tuple[str, ...]] = ()
    editions = (2, 3)
    split_params = ("parts",)

    def fit(
        self, org: Organization, family: str, params: dict[str, Any], earlier: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """A part's parameters adjusted to the parts drawn before it, or None to draw the part again."""
        return params

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        for _ in range(ATTEMPTS):
            copy = org.copy()
            parts = self._draw(copy, rng, knobs.get("size", "small"))
            if parts is not None:
                return {"chain": parts, **self._words(copy, rng, parts)}
        return None

    def _draw(self, org: Organization, rng: random.Random, size: str) -> list[dict[str, Any]] | None:
        """The chain's parts drawn in order on `org` (each built on it before the next), or None."""
        known = families()
        parts: list[dict[str, Any]] = []
        calls = 0
        for place in self.chain:
            name = place if isinstance(place, str) else rng.choice(place)
            family = known[name]()
            ranges = {**family.knobs, **PARTS[name].knobs}
            for _ in range(ATTEMPTS):
                knobs = {k: rng.choice(v) for k, v in sorted(ranges.items()) if k in family.knobs and k != "size"}
                params = family.sample(org, rng, {**knobs, "size": size})
                if params is not None:
                    params = self.fit(org, name, json.loads(canonical(params)), parts)
                if params is not None:
                    break
            else:
                return None
            calls += len(family.build(org, params).oracle)
            parts.append({"family": name, "knobs": knobs, "params": params})
        return parts if calls >= MIN_CALLS else None

    def _words(self, org: Organization, rng: random.Random, parts: list[dict[str, Any]]) -> dict[str, Any]:
        """The instruction's choices: a request per part (the organization's split side), linking words, opener, closer."""
        split = getattr(org, "split", None)
        requests, links = [], []
        for n, part in enumerate(parts):
            spec = PARTS[part["family"]]
            picks = usable(self.name, spec.label, "request", spec.requests, split)
            if not picks:
                raise ValueError(f"{self.name}/{spec.label}: no request phrasing on the {split} side of the split")
            requests.append(rng.choice(picks))
            links.append(0 if n == 0 else rng.randrange(len(LAST if n == len(parts) - 1 else MIDDLE)))
        chosen: dict[str, Any] = {"requests": requests, "links": links}
        for kind, options in (("opener", self.openers), ("closer", self.closers)):
            choices = usable(self.name, "chain", kind, options, split)
            chosen[kind] = rng.choice(choices) if choices and rng.random() >= 0.3 else None
        asks = [
            part_id(self.name, PARTS[p["family"]].label, "request", i) for p, i in zip(parts, requests, strict=True)
        ]
        ids = asks + [
            part_id(self.name, "chain", kind, chosen[kind]) for kind in ("opener", "closer") if chosen[kind] is not None
        ]
        return {**chosen, "template": "+".join(asks), "parts": ids}

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        known = families()
        drafts = [known[p["family"]]().build(org, p["params"]) for p in params["chain"]]
        return merge(self, org, params, drafts)

    def difficulty(self, knobs: dict[str, Any], params: dict[str, Any]) -> str:
        """Hard: every composite needs ten calls or more across three apps or more."""
        return "hard"


def instruction(family: Composite, org: Organization, params: dict[str, Any]) -> str:
    """The composite's instruction from its recorded choices: the parts' sentences joined, opener and closer."""
    values: dict[str, Any] = {}
    sentences = []
    count = len(params["chain"])
    for n, (part, index, link) in enumerate(zip(params["chain"], params["requests"], params["links"], strict=True)):
        spec = PARTS[part["family"]]
        own = spec.values(org, part["params"])
        for key, value in own.items():
            values.setdefault(key, value)
        text = spec.requests[index].format(**own)
        if org.edition >= 3 and part["family"] == "reschedule":  # "move my meeting to Friday", never "on Friday"
            text = moved_to(text, own["when"])
        text = (LAST if n == count - 1 else MIDDLE)[link] + text if n else text
        sentences.append(text[:1].upper() + text[1:])
    if params.get("opener") is not None:
        opener = family.openers[params["opener"]].format(**values)
        if org.edition >= 3 and org.start.hour >= 12:  # no morning left to ask for
            opener = opener.replace("this morning", "this afternoon")
        sentences.insert(0, opener)
    if params.get("closer") is not None:
        sentences.append(family.closers[params["closer"]].format(**values))
    return " ".join(" ".join(sentences).split())


def merge(family: Composite, org: Organization, params: dict[str, Any], drafts: list[Draft]) -> Draft:
    """One draft of the parts' drafts (see the module's docstring for what is merged and how)."""
    parts = params["chain"]
    merged = Draft(
        org,
        title=family.title,
        instruction=instruction(family, org, params),
        description=" Then: ".join(d.description or d.title for d in drafts),
        tags=list(
            dict.fromkeys(
                ["generated", family.name, "composite", *(t for d in drafts for t in d.tags if t != "generated")]
            )
        ),
    )
    reached = [recipients(d) for d in drafts]
    if org.edition >= 3:  # also whom a part's forbids let mail go to: no forbid of another part catches them
        reached = [r | {a for f in d.forbid for a in let_through(f)} for r, d in zip(reached, drafts, strict=True)]
    for n, (part, draft) in enumerate(zip(parts, drafts, strict=True)):
        adapt(part, draft)
        label = PARTS[part["family"]].label
        for stage in draft.stages:
            merged.stages.append({**stage, "name": f"{label}: {stage['name']}"})
        others = sorted({r for m, rs in enumerate(reached) if m != n for r in rs})
        merged.forbid += [widen(f, others) if f.get("app") == "mail" else f for f in draft.forbid]
        _merge_allow(merged.allow, draft.allow)
        for key, rules in draft.relax.items():
            merged.relax.setdefault(key, []).extend(rules)
        for key, value in draft.extra.items():
            _merge_extra(merged.extra, key, value)
    oracles = [prefixed(d.oracle, f"p{n + 1}_") for n, d in enumerate(drafts)]
    merged.oracle = [step for steps in oracles for step in steps]
    merged.oracles = [[step for steps in reversed(oracles) for step in steps]]
    if org.edition >= 3 and any(d.oracles for d in drafts):  # a part's other right answer is proven here too
        merged.oracles.append(
            [s for n, d in enumerate(drafts) for s in prefixed((d.oracles or [d.oracle])[0], f"p{n + 1}_")]
        )
    merged.limits = {
        "max_tool_calls": sum(d.limits.get("max_tool_calls", 40) for d in drafts),
        "timeout_s": max(d.limits.get("timeout_s", 600) for d in drafts),
    }
    return merged


def recipients(draft: Draft) -> set[str]:
    """Who a part must write to: the people its `told` checks name and its reference mails' recipients."""
    out: set[str] = set()
    for stage in draft.stages:
        for check in stage["checks"]:
            if "told" in check:
                out.update(check["told"]["who"])
    for step in draft.oracle:
        if step["tool"] in ("mail__send_message", "mail__create_draft"):
            for field in ("to", "cc"):
                out.update(a for a in step["args"].get(field, []) if "${" not in a)
    return out


RECIPIENTS = ("to", "cc", "bcc")


def widen(rule: Any, others: list[str], field: str = "") -> Any:
    """A mail forbid whose recipient lists also let through `others` (every `not_one_of`/`not_equals` under `has`
    of a `to`, `cc` or `bcc` condition; other columns' conditions stay as they are)."""
    if isinstance(rule, list):
        return [widen(r, others, field) for r in rule]
    if not isinstance(rule, dict):
        return rule
    out = {}
    for key, value in rule.items():
        if key == "has" and field in RECIPIENTS and isinstance(value, dict) and others:
            if "not_one_of" in value and isinstance(value["not_one_of"], list):
                value = {
                    **value,
                    "not_one_of": [*value["not_one_of"], *(o for o in others if o not in value["not_one_of"])],
                }
            elif "not_equals" in value and isinstance(value["not_equals"], str):
                kept = {k: v for k, v in value.items() if k != "not_equals"}
                value = {**kept, "not_one_of": [value["not_equals"], *(o for o in others if o != value["not_equals"])]}
        out[key] = widen(value, others, key if key in RECIPIENTS else field if key in ("any", "all") else "")
    return out


def adapt(part: dict[str, Any], draft: Draft) -> None:
    """Scope a part's checks that count every new row of a table another part may add to: a meeting part's checks
    on new events ("no new event stands in for it", "exactly one new event") count events with its guests only."""
    if part["family"] not in ("reschedule", "meeting-tz"):
        return
    guests = part["params"]["guests"]
    for stage in draft.stages:
        for check in stage["checks"]:
            where = check.get("where", {})
            if check.get("app") == "calendar" and check.get("added") and "attendees" not in where:
                check["where"] = {**where, "attendees": {"has": {"email": {"one_of": guests}}}}


def prefixed(steps: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """Reference steps with every saved name (and every reference to one) prefixed, so parts never share a name."""
    names = {step["save"] for step in steps if "save" in step}

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            return SAVED.sub(lambda m: "${" + (prefix + m[1] if m[1] in names else m[1]), value)
        if isinstance(value, list):
            return [rename(v) for v in value]
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        return value

    out = []
    for step in steps:
        step = {**step, "args": rename(step.get("args", {}))}
        if "save" in step:
            step["save"] = prefix + step["save"]
        out.append(step)
    return out


def _merge_allow(into: dict[str, Any], allow: dict[str, Any]) -> None:
    for app, tables in allow.items():
        if not isinstance(tables, dict):
            raise ValueError(f"composite: allow.{app} must be a table mapping to merge, got {tables!r}")
        mine = into.setdefault(app, {})
        for table, rules in tables.items():
            listed = (
                [dict(added="added" in rules, changed="changed" in rules, removed="removed" in rules)]
                if (isinstance(rules, list) and rules and isinstance(rules[0], str))
                else (rules if isinstance(rules, list) else [rules])
            )
            if table in mine:
                before = mine[table] if isinstance(mine[table], list) else [mine[table]]
                mine[table] = before + [r for r in listed if r not in before]
            else:
                mine[table] = listed[0] if len(listed) == 1 else listed


def _merge_extra(into: dict[str, Any], key: str, value: Any) -> None:
    if key not in into:
        into[key] = value
    elif isinstance(into[key], dict) and isinstance(value, dict):
        for sub, inner in value.items():
            _merge_extra(into[key], sub, inner)
    elif isinstance(into[key], list) and isinstance(value, list):
        into[key] = into[key] + value
    else:
        raise ValueError(f"composite: two parts set {key!r} differently")


def test_side_count(family: Composite) -> int:
    """How many chains of request phrasings fall on the test side (the product of each part's test-side count)."""
    count = 1
    for place in family.chain:
        count *= sum(
            sum(
                template_split(part_id(family.name, PARTS[name].label, "request", i)) == "test"
                for i in range(len(PARTS[name].requests))
            )
            for name in options(place)
        )
    return count


def options(place: str | tuple[str, ...]) -> tuple[str, ...]:
    """The part families a place of a chain offers."""
    return (place,) if isinstance(place, str) else place


@register
class IncidentFollowup(Composite):
    """An incident closed out, the meeting its review displaces moved, and a customer answered, in one request."""

    name = "incident-followup"
    title = "Close out an incident, move the meeting its review displaces, answer a customer"
    chain = ("incident", "reschedule", "customer-answer")
    apps = ("calendar", "docs", "mail", "tickets")
    openers = (
        "Rough day after the {service} outage, so here's a list.",
        "A few things to sort out today, mostly fallout from the {service} incident.",
        "I'm stuck in meetings all day; can you take these?",
        "Hi! Three things for you today.",
        "The {service} incident has left me with a pile of follow-ups.",
        "Quick list for today, please.",
        "Fallout from yesterday's {service} incident, plus a customer waiting:",
        "Could you handle these for me this morning?",
    )
    closers = (
        "Thanks a lot!",
        "Thanks, that would be a big help.",
        "Cheers.",
        "Thank you!",
        "Much appreciated.",
        "No need to check with me before doing these.",
        "All of it today, please.",
        "Thanks in advance.",
    )

    def fit(
        self, org: Organization, family: str, params: dict[str, Any], earlier: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        if family == "reschedule":
            lead = earlier[0]["params"]["lead"]
            if lead != org.persona.manager and lead not in params["guests"]:
                params = {**params, "organizer": lead}
            params = {**params, "clash": "Postmortem review"}
        return params


@register
class OffboardHandover(Composite):
    """A colleague offboarded and a design review's open comments ticketed, in one request (inbox-rules, which the
    brief also offers here, is held out of family: no composite carries it)."""

    name = "offboard-handover"
    title = "Hand over a leaver's work and ticket a design review's open comments"
    chain = ("offboard", "doc-comments")
    apps = ("calendar", "docs", "tickets")
    openers = (
        "Handover week, so a couple of admin jobs.",
        "Two things on my plate I'd like you to take.",
        "{leaver_first} is leaving, and there is more tidying up after that.",
        "Could you do some housekeeping for me?",
        "Some admin for today, please.",
        "Before {leaver_first} goes, let's get things in order.",
        "Hi, two jobs for you.",
        "I'm short on time today, so please take these two.",
    )
    closers = (
        "Thanks!",
        "Thanks a lot.",
        "Appreciated.",
        "Thank you!",
        "Cheers.",
        "Thanks for handling this.",
        "No need to check with me first.",
        "Thanks in advance.",
    )

    def fit(
        self, org: Organization, family: str, params: dict[str, Any], earlier: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        if family == "doc-comments" and earlier[0]["params"]["leaver"] in params["authors"]:
            return None  # a ticket for someone who is leaving: the parts would disagree
        return params


@register
class TravelAndMeetings(Composite):
    """A trip to an offsite planned and a clashing meeting moved, in one request."""

    name = "travel-and-meetings"
    title = "Plan a trip to an offsite and move a meeting off a new conflict"
    chain = ("travel", ("reschedule", "meeting-tz"))
    apps = ("calendar", "docs", "mail", "tickets")
    openers = (
        "Calendar and travel stuff for you today.",
        "I'm off to an offsite next week, and this week's calendar is a mess.",
        "Two things, both calendar-ish.",
        "Could you help me get organized?",
        "Hi! A trip to plan and a clash to fix.",
        "Some planning for me, please.",
        "A bit of admin before next week's offsite.",
        "Two requests, no rush but today would be great.",
    )
    closers = (
        "Thanks!",
        "Thanks so much.",
        "Cheers.",
        "Thank you!",
        "Much appreciated.",
        "Thanks in advance.",
        "No need to check with me before doing these.",
        "That's all for now, thanks.",
    )

    def fit(
        self, org: Organization, family: str, params: dict[str, Any], earlier: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        trip = Trip.of(org, earlier[0]["params"]) if earlier else None
        if trip is None:
            return params
        if set(params["guests"]) & {trip.organizer.email, *(p.email for p in trip.team)}:
            return None  # the travel reply's days and the meeting mail's day would reach the same person
        if family == "reschedule":
            move = Move.of(org, params)
            days = {move.old.date(), move.target[0].date()}
        else:
            days = {org.day(params["day"])}
        if any(trip.out <= day <= trip.back for day in days):
            return None  # a meeting while the persona travels
        return params
