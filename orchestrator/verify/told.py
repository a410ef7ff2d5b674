"""`told` checks: was each person told each fact, by whatever messages reached them?

What a person received is every message the agent added and did not leave as a draft where they are on the to
or cc line (or bcc, unless the check says otherwise): a reply, a new mail, a forward, one mail to everyone or one
each. A fact holds for a person when some message they received meets it, in its own words (subject and body) or,
for a forward, in the text it forwards. "10:00 your time" is read in the recipient's zone (the calendar's people). Typed readings (times, dates, amounts, people) are read as claims by
default: a hedged mention, one offered as one of several, or a question does not state them (text/claims.py).

The number of mails is not judged: a thank-you beside the announcement is fine. The same content sent twice to
one person is (unless the check says `repeats: true`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import Any

from orchestrator.scenario.checks import ToldCheck
from orchestrator.scenario.conditions import Context, describe_condition, failures, holds, row_matches
from orchestrator.scenario.text.addressed import addressed_to
from orchestrator.scenario.text.operators import spec_of
from orchestrator.scenario.text.parse import read
from orchestrator.verify.results import CheckResult

ANY = "any"
CLAIMABLE = ("mentions_time", "mentions_date", "mentions_amount", "mentions_count", "mentions_person")
REPEAT_SIMILARITY = 0.9
YOUR_TIME = re.compile(
    r"(?<=\d)(?P<gap>\s*(?:[ap]\.?\s?m\.?)?\s*)[Yy]our\s+time\b(?:\s*\((?P<abbr>[A-Z]{2,5})\))?"
    r"(?!\s*[(,]\s*(?:in\s+)?[A-ZÀ-Þ][a-zà-ÿ])"
)


def describe(check: ToldCheck) -> str:
    """A told check in words."""
    if check.name:
        return check.name
    spec = check.told
    facts = "; ".join(_describe_fact(f) for f in spec.facts) or "anything"
    return f"{', '.join(spec.who)} told: {facts}"


def _describe_fact(fact: Mapping[str, Any]) -> str:
    if set(fact) == {ANY}:
        return " or ".join(_describe_fact(f) for f in fact[ANY])
    return describe_condition(_claimed(fact))


def _claimed(fact: Mapping[str, Any]) -> dict[str, Any]:
    """A fact with `claimed: true` on its typed readings unless it says otherwise."""
    return {
        op: {"claimed": True, **spec_of(op, operand)} if op in CLAIMABLE else operand for op, operand in fact.items()
    }


def _timed(fact: object) -> bool:
    """Whether a fact reads a time anywhere in it (its own operator, or one under `not`, `any` or `all`)."""
    if isinstance(fact, Mapping):
        return any(k == "mentions_time" or _timed(v) for k, v in fact.items())
    if isinstance(fact, list):
        return any(_timed(v) for v in fact)
    return False


def _unclaimed(fact: Mapping[str, Any]) -> dict[str, Any]:
    """The same fact read in words someone else wrote (a forwarded message): no claim required."""
    out: dict[str, Any] = {}
    for op, operand in _claimed(fact).items():
        out[op] = {**operand, "claimed": False} if isinstance(operand, Mapping) and "claimed" in operand else operand
    return out


def delivered(ctx: Context, app: str, table: str) -> list[dict[str, Any]]:
    """Messages the agent added that left the drafts folder, trashed or archived afterwards included."""
    rows = ctx.select(app, table, True, discarded=True)
    return [r for r in rows if r.get("folder") != "drafts"]


def recipients(message: Mapping[str, Any], bcc: bool) -> set[str]:
    """Who a message went to, lowercased."""
    fields = ("to", "cc", "bcc") if bcc else ("to", "cc")
    return {str(a).strip().lower() for f in fields for a in message.get(f) or []}


def _text(
    message: Mapping[str, Any], zone: str | None = None, name: str = "", others: Mapping[str, str] | None = None
) -> str:
    """What a message says: its subject and body; with the recipient's `zone`, "10:00 your time" (or "your time
    (IST)", an abbreviation the recipient's zone decides) is read in it; with their `name` and the other
    recipients' (`others`), only the times addressed to them ("Priya, that's 9:30 your time; Sam, 14:30 your
    time")."""
    subject = str(message.get("subject") or "")
    if REPLY_SUBJECT.match(subject):
        subject = ""  # "Re: Design review tomorrow at 10:00" is the original's subject, not what this mail says
    text = f"{subject}\n\n{message.get('body') or ''}"
    if zone and name:
        return for_person(text, zone, name, others or {})
    return YOUR_TIME.sub(lambda m: f"{m['gap']}{zone}", text) if zone else text


def for_person(text: str, zone: str, name: str, others: Mapping[str, str]) -> str:
    """What a message tells one recipient (`name`, in `zone`), when others (`others`: name to zone) get their own
    times in the same message: the times addressed to them, "your time" in their zone (text/addressed.py)."""
    return addressed_to(text, zone, name, others)


def names(ctx: Context) -> dict[str, tuple[str, str]]:
    """People's names and time zones by email, where the scenario has a calendar that knows them."""
    return {
        str(p.get("email", "")).lower(): (str(p.get("name") or ""), str(p["timezone"]))
        for p in ctx.rows("calendar", "people")
        if p.get("timezone")
    }


def zones(ctx: Context) -> dict[str, str]:
    """People's time zones, where the scenario has a calendar that knows them."""
    return {
        str(p.get("email", "")).lower(): str(p["timezone"]) for p in ctx.rows("calendar", "people") if p.get("timezone")
    }


def _forwarded(message: Mapping[str, Any], by_id: Mapping[Any, Mapping[str, Any]]) -> str | None:
    original = by_id.get(message.get("forwarded_from"))
    return None if original is None else _text(original)


REPLY_SUBJECT = re.compile(r"^\s*(?:re|fw|fwd|aw|wg|sv|tr|rif)\s*(?:\[\d+\])?\s*:", re.I)
FACT_TOKEN = re.compile(r"https?://\S+|\b[A-Z][A-Z0-9]*-\d+\b|\b\d+(?:[.,:/-]\d+)*\b|[$€£¥]\s?\d[\d.,]*", re.I)


def _facts(body: str) -> tuple[str, ...]:
    """What a message delivers that its wording does not: its codes, numbers, times, dates, amounts and links."""
    return tuple(sorted(m.group(0).lower() for m in FACT_TOKEN.finditer(read(body))))


def _repeat(messages: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two messages with the same content: the same words, near enough, delivering the same facts (three replies
    that differ only in their ticket key are three messages)."""
    norm = [" ".join(str(m.get("body") or "").lower().split()) for m in messages]
    facts = [_facts(str(m.get("body") or "")) for m in messages]
    for i in range(len(messages)):
        for j in range(i + 1, len(messages)):
            if (
                norm[i]
                and facts[i] == facts[j]
                and SequenceMatcher(None, norm[i], norm[j], autojunk=False).ratio() >= REPEAT_SIMILARITY
            ):
                return messages[i], messages[j]
    return None


def check_told(check: ToldCheck, check_id: str, stage: str, ctx: Context, key: str) -> CheckResult:
    """Judge a told check against the final state."""
    spec = check.told
    app_ctx = ctx.for_app(spec.app)
    everything = ctx.rows(spec.app, spec.table)
    sent = delivered(ctx, spec.app, spec.table)
    originals = {m.get("forwarded_from") for m in sent} - {None}  # only forwards read another row
    by_id = {r.get(key): r for r in everything if r.get(key) in originals} if originals else {}
    if spec.in_thread is not None:
        threads = {r.get("thread_id") for r in everything if row_matches(r, spec.in_thread, app_ctx, spec.table)}
        sent = [m for m in sent if m.get("thread_id") in threads]
    problems: list[str] = []
    found: list[dict[str, Any]] = []
    people_zones = zones(ctx)
    people = names(ctx)
    closest: dict[str, Any] | None = None
    for person in spec.who:
        got = [m for m in sent if person.strip().lower() in recipients(m, spec.bcc)]
        where = " in the thread" if spec.in_thread is not None else ""
        if not got:
            problems.append(f"{person} received no message from the agent{where}")
            continue
        found += [{key: m.get(key), "subject": m.get("subject")} for m in got[:3]]
        forwarded = [t for m in got if (t := _forwarded(m, by_id)) is not None]
        zone = people_zones.get(person.strip().lower())
        name = people.get(person.strip().lower(), ("", ""))[0]

        def said(
            m: Mapping[str, Any], timed: bool = True, zone: str | None = zone, name: str = name, person: str = person
        ) -> str:
            """What `m` tells this person: for a fact about a time, the times addressed to them; for any other
            fact (a count, a clause, a link) the whole message, since a summary is not addressed by name."""
            others = {people[r][0]: people[r][1] for r in recipients(m, True) if r in people and r != person.lower()}
            return _text(m, zone, name if others and timed else "", others)

        for fact in spec.facts:
            alternatives = fact[ANY] if set(fact) == {ANY} else [fact]
            if any(
                any(holds(said(m, _timed(f)), _claimed(f), app_ctx) for m in got)
                or any(holds(t, _unclaimed(f), app_ctx) for t in forwarded)
                for f in alternatives
            ):
                continue
            claimed = _claimed(alternatives[0])
            misses = failures({"text": said(got[-1], _timed(claimed))}, {"text": claimed}, app_ctx)
            if closest is None:
                closest = {key: got[-1].get(key), "subject": got[-1].get("subject"), "mismatches": misses}
            problems.append(
                f"{person} was not told {_describe_fact(fact)} ({len(got)} message(s) to them; "
                + ("; ".join(misses) if misses else "no message meets it")
                + ")"
            )
        if not spec.repeats and (pair := _repeat(got)):
            problems.append(f"{person} got the same message twice ({pair[0].get(key)!r} and {pair[1].get(key)!r})")
    return CheckResult(
        id=check_id,
        stage=stage,
        description=describe(check),
        weight=check.weight,
        passed=not problems,
        reason="; ".join(problems) or None,
        found=found[:5],
        closest=closest,
    )
