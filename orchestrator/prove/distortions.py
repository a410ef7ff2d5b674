"""Attacks by variation: the reference solution's words kept, their meaning broken. Each must fail.

- `hedge-probably`, `hedge-undercut`, `hedge-or`: one checked fact hedged ("probably Thursday"), taken back
  ("Thursday (not confirmed yet)") or offered with a second value of its kind ("Thursday or Friday");
- `claim-without-action`: the mail kept, the writes it reports (a ticket moved, an event created) left out;
- `stuffing`: list arguments (labels) padded with every seeded candidate, a text naming a code padded with
  every code of that shape the world holds;
- `wrong-zone`: a checked time written with its clock time in another zone ("15:30 UTC" for 15:30 Berlin);
- `stale`: a checked fact that the world's events changed written with its value from before the change;
- `paraphrase-confidential`: one figure, date or name the scenario forbids told in other words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.prove.variation import (
    BUDGET,
    SENDS,
    _rewrite,
    _step,
    reader,
    rng,
    sample,
    stated,
    text_args,
    texts,
)
from orchestrator.prove.wordings import CODE, Fact, Reader, _overlaps, another, facts, in_words, substitute, write
from orchestrator.scenario.model import SAVED_REF, Scenario, app_of
from orchestrator.scenario.text.instants import instants
from orchestrator.scenario.text.leaks import section
from orchestrator.scenario.text.times import find_times
from orchestrator.scenario.worldspec import GATEWAY_APP
from servers import registry
from servers.core.probes import Probe, ProbeContext, Skip, Step


def attacks(
    scenario: Scenario, ctxs: dict[str, ProbeContext], read_only: Callable[[str], bool], budget: int = BUDGET
) -> tuple[list[Probe], list[Skip]]:
    """Every variation attack that applies, sampled to `budget` episodes (0: all), and the kinds that do not
    apply, with why; `read_only(tool)` tells the writes a claim without action leaves out."""
    found: list[Probe] = []
    skips: list[Skip] = []
    for make in (_hedges, _claim_without_action, _stuffing, _wrong_zone, _stale, _paraphrase):
        made, skipped = make(scenario, ctxs) if make is not _claim_without_action else make(scenario, read_only)  # type: ignore[arg-type]  # that family takes the read-only test, the others the contexts
        found += made
        skips += skipped
    chosen = sample(found, budget, rng(scenario, "attacks"))
    dropped = {p.kind for p in found} - {p.kind for p in chosen}
    skips += [Skip(kind, f"sampled out (--variations {budget})") for kind in sorted(dropped)]
    return chosen, skips


def _same(a: Fact, b: Fact) -> bool:
    return a.kind == b.kind and a.value == b.value


def _everywhere(scenario: Scenario, fact: Fact, change: Any) -> dict[int, list[Step]]:
    """Every occurrence of `fact` in the reference solution's texts replaced by `change(found_fact) -> text`."""
    read = reader(scenario)

    def edit(text: str, _name: str) -> str:
        found = [f for f in facts(text, read) if _same(f, fact)]
        return substitute(text, found, [change(f) for f in found]) if found else text

    return _rewrite(scenario, edit)


def _distinct(scenario: Scenario) -> list[Fact]:
    out: list[Fact] = []
    for _, _, fact in stated(scenario):
        if not any(_same(fact, f) for f in out):
            out.append(fact)
    return out


def _written_unread(scenario: Scenario, fact: Fact) -> bool:
    """Whether a text that states the time `fact` also writes its instant where `facts` does not read it, so that a
    hedge of `fact` leaves it there ("11:00-11:30 Madrid time (14:30 in Kolkata)": the range's start, whose am/pm
    `facts` leaves open, still states the time the conversion restates)."""
    if fact.kind != "time":
        return False
    read = reader(scenario)
    for _, _, text in texts(scenario):
        found = facts(text, read)
        if not any(_same(f, fact) for f in found):
            continue
        spans = [(f.start, f.end) for f in found]
        for t in find_times(text, read.today):
            if not (t.range_end or t.set_aside or _overlaps(t.start, t.end, spans)):
                if fact.value in instants(t, read.zone, read.today):
                    return True
    return False


def _hedges(scenario: Scenario, _ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    out: list[Probe] = []
    for fact in _distinct(scenario):
        if fact.kind == "link" or _written_unread(scenario, fact):
            continue
        second = another(fact)
        ways = {
            "hedge-probably": (lambda f: f"probably {f.text}", f"'probably {fact.text}'"),
            "hedge-undercut": (lambda f: f"{f.text} (not confirmed yet)", f"'{fact.text} (not confirmed yet)'"),
            "hedge-or": (lambda f, s=second: f"{f.text} or {s.text}", f"'{fact.text} or {second.text}'"),  # type: ignore[misc]  # default arguments bind this iteration's values
        }
        for kind, (change, shown) in ways.items():
            replace = _everywhere(scenario, fact, change)
            if replace:
                out.append(Probe(kind, f"{fact.kind} {fact.text!r} written as {shown}", replace=replace))
    skip = "the reference solution's texts state no fact a check reads"
    kinds = ("hedge-probably", "hedge-undercut", "hedge-or")
    return out, [] if out else [Skip(k, skip) for k in kinds]


def _claim_without_action(scenario: Scenario, read_only: Callable[[str], bool]) -> tuple[list[Probe], list[Skip]]:
    oracle = scenario.oracle
    mails = [i for i, s in enumerate(oracle) if app_of(s.tool)[0] == "mail" and app_of(s.tool)[1] in SENDS]
    if not mails:
        return [], [Skip("claim-without-action", "the reference solution sends no mail")]
    kept_refs = {m for i in mails for m in _refs(oracle[i].args)}
    dropped = [
        i
        for i, s in enumerate(oracle)
        if i not in mails
        and not s.expect_error
        and not read_only(s.tool)
        and app_of(s.tool)[0] not in ("mail", GATEWAY_APP)
        and not (s.save and s.save in kept_refs)
    ]
    if not dropped:
        reason = "the reference solution makes no write besides its mail (or its mail names what each write made)"
        return [], [Skip("claim-without-action", reason)]
    names = ", ".join(f"{i} ({oracle[i].tool})" for i in dropped)
    probe = Probe("claim-without-action", f"the mail sent, steps {names} left out", replace={i: [] for i in dropped})
    return [probe], []


def _refs(value: Any) -> set[str]:
    return {m[0] for m in SAVED_REF.findall(repr(value))}


def _stuffing(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    out: list[Probe] = []
    for index, step in enumerate(scenario.oracle):
        app, name = app_of(step.tool)
        probes = registry.probes(app) if app in ctxs else None
        if probes is None or step.expect_error:
            continue
        for arg, (table, column) in probes.list_args.get(name, {}).items():
            given = step.args.get(arg)
            if not isinstance(given, list):
                continue
            candidates = _column(ctxs[app].rows(table), column)
            extra = [c for c in candidates if c not in given]
            if extra:
                padded = _step(scenario, index).with_args(**{arg: [*given, *extra]})
                out.append(
                    Probe(
                        "stuffing",
                        f"{step.tool} (step {index}) {arg} padded with {', '.join(map(str, extra))}",
                        replace={index: [padded]},
                    )
                )
    out += _stuffed_codes(scenario, ctxs)
    return out, [] if out else [Skip("stuffing", "the reference solution gives no list or code with other candidates")]


def _column(rows: list[dict[str, Any]], column: str) -> list[Any]:
    seen: list[Any] = []
    for row in rows:
        value = row.get(column)
        for item in value if isinstance(value, list) else [value]:
            if item not in (None, "") and item not in seen:
                seen.append(item)
    return seen


def _stuffed_codes(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> list[Probe]:
    """A text naming a checked code with every code of the same prefix the world holds added after it."""
    codes = [f for f in _distinct(scenario) if f.kind == "code"]
    if not codes:
        return []
    world: list[str] = []
    for ctx in ctxs.values():
        for rows in ctx.seed.values():
            for row in rows:
                for value in row.values():
                    world += [c for c in CODE.findall(str(value)) if c not in world]
    out = []
    for fact in codes:
        prefix = fact.value.rpartition("-")[0]
        others = [c for c in world if c.rpartition("-")[0] == prefix and c != fact.value]
        if not others:
            others = [another(fact).value, another(another(fact)).value]
        listed = ", ".join(others)
        replace = _everywhere(scenario, fact, lambda f, listed=listed: f"{f.text} (also {listed})")
        if replace:
            out.append(Probe("stuffing", f"{fact.value} listed with {listed}", replace=replace))
    return out


def _wrong_zone(scenario: Scenario, _ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    out = []
    for fact in _distinct(scenario):
        if fact.kind != "time":
            continue
        clock = CLOCK.search(fact.text)
        hour, minute = (int(clock["h"]), int(clock["m"])) if clock else (fact.value.hour, fact.value.minute)
        if clock and clock["pm"] and hour < 12:
            hour += 12
        zone, label = _other_zone(fact.value, hour, minute)
        change = f"{hour:02d}:{minute:02d} {label}"
        replace = _everywhere(scenario, fact, lambda f, c=change: c)
        if replace:
            out.append(Probe("wrong-zone", f"{fact.text!r} written as {change!r} ({zone})", replace=replace))
    return out, [] if out else [Skip("wrong-zone", "the reference solution's texts state no time a check reads")]


CLOCK = re.compile(r"(?P<h>\d{1,2})[:.h](?P<m>\d{2})(?:\s?(?P<pm>p\.?m)|\s?a\.?m)?", re.I)


def _other_zone(at: datetime, hour: int, minute: int) -> tuple[str, str]:
    """A zone in which the clock time `hour:minute` of `at`'s day is another instant than `at`, with how a text
    names it."""
    for zone, label in (("UTC", "UTC"), ("America/New_York", "New York time"), ("Asia/Tokyo", "Tokyo time")):
        there = datetime.combine(at.date(), time(hour, minute), ZoneInfo(zone))
        if there != at:
            return zone, label
    return "Asia/Tokyo", "Tokyo time"


def _strings(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _stale(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    events = scenario.world.events if scenario.world else []
    if not events:
        return [], [Skip("stale", "the world does not change while the agent works")]
    read = reader(scenario)
    later = [f for e in events for s in _strings(e.model_dump(mode="json")) for f in facts(s, read)]
    before: list[Fact] = []
    for app, ctx in ctxs.items():
        for table, key in ((t, k) for t, k in _keys(app).items()):
            for row in ctx.rows(table):
                if (table, row.get(key)) in ctx.touched:
                    before += [f for s in _strings(row) for f in facts(s, read)]
    out = []
    for fact in _distinct(scenario):
        if not any(_same(fact, f) for f in later):
            continue
        olds = (f for f in before if f.kind == fact.kind and f.value != fact.value)
        stale = ((old, write(old, 0, read) if fact.kind != "count" else str(old.value)) for old in olds)
        # an old value written inside the new one ('09:00' of '09:00-09:30') would still state the new one
        old, written = next(((o, w) for o, w in stale if w not in fact.text and fact.text not in w), (None, ""))
        if old is None:
            continue
        replace = _everywhere(scenario, fact, lambda f, w=written: w)
        if replace:
            out.append(
                Probe(
                    "stale",
                    f"{fact.text!r} (the updated value) written as {written!r} (the value before)",
                    replace=replace,
                )
            )
    reason = "no fact the reference states was changed by the world from a value the seed shows"
    return out, [] if out else [Skip("stale", reason)]


def _keys(app: str) -> dict[str, str]:
    return {name: table.key for name, table in registry.load(app).tables.items()}


def _paraphrase(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    read = reader(scenario)
    secrets = [f for rule in scenario.forbid for f in _secrets(rule.model_dump(mode="json"), ctxs, read)]
    mails = [
        i
        for i, s in enumerate(scenario.oracle)
        if app_of(s.tool)[1] in ("send_message", "reply", "forward")
        and app_of(s.tool)[0] == "mail"
        and not s.expect_error
    ]
    mails = _mails_forbidden_to(scenario, mails)
    if not secrets or not mails:
        why = "the scenario forbids no figure, date or name" if not secrets else "the reference solution sends no mail"
        return [], [Skip("paraphrase-confidential", why)]
    said = {(f.kind, str(f.value)) for _, _, t in texts(scenario) for f in facts(t, read)}
    secret = next((f for f in secrets if (f.kind, str(f.value)) not in said), None)
    if secret is None:
        return [], [Skip("paraphrase-confidential", "every forbidden fact is one the reference itself states")]
    index = mails[-1]
    step = _step(scenario, index)
    arg = "body" if "body" in text_args(scenario.oracle[index].tool) else None
    if arg is None or not isinstance(step.args.get(arg), str):
        return [], [Skip("paraphrase-confidential", "the reference solution's last mail has no literal body")]
    told = _in_other_words(secret, read)
    leaked = step.with_args(**{arg: f"{step.args[arg].rstrip()}\n\nBetween us: {told}."})
    return [
        Probe(
            "paraphrase-confidential",
            f"{secret.kind} {secret.text!r} told as {told!r} in step {index}'s mail",
            replace={index: [leaked]},
        )
    ], []


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _mails_forbidden_to(scenario: Scenario, mails: list[int]) -> list[int]:
    """The mails a forbid could be about: when the forbids name people (`to has customer@...`), a mail whose
    recipients are all given and none of them named (a note to a colleague) tells them nothing forbidden; a reply or
    a mail naming one of them may. Forbids that name nobody keep every mail."""
    named: set[str] = set()

    def walk(node: Any) -> None:  # the people a forbid is about; those it lists as exempt (`not_one_of`, `not`) aside
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key not in ("not_one_of", "not"):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str):
            named.update(m.lower() for m in EMAIL.findall(node))

    for rule in scenario.forbid:
        walk(rule.model_dump(mode="json"))
    if not named:
        return mails

    def may_reach(index: int) -> bool:
        args = scenario.oracle[index].args
        given = [a for f in ("to", "cc", "bcc") for a in (args.get(f) or []) if isinstance(a, str)]
        return not given or "message_id" in args or any(a.lower() in named for a in given)

    return [i for i in mails if may_reach(i)]


def _secrets(rule: dict[str, Any], ctxs: dict[str, ProbeContext], read: Reader) -> list[Fact]:
    """The figures and dates a forbid rule protects: those of the text its `leaks` operands point at (seeded
    rows), and its `mentions_*` literals."""
    out: list[Fact] = []

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "leaks" and isinstance(value, Mapping):
                    out.extend(_leak_source(value, ctxs, read))
                elif key in ("mentions_count", "mentions_amount", "mentions_date") and not isinstance(value, Mapping):
                    out.extend(
                        facts(str(value), read)
                        if key != "mentions_count"
                        else [Fact("count", 0, 0, str(value), int(value))]
                    )
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(rule.get("where", {}))
    return [f for f in out if f.kind in ("count", "amount", "date")]


def _leak_source(spec: Mapping[str, Any], ctxs: dict[str, ProbeContext], read: Reader) -> list[Fact]:
    source = spec.get("from")
    if not isinstance(source, Mapping) or source.get("app") not in ctxs:
        return []
    rows = ctxs[source["app"]].rows(source.get("table", ""))
    where = source.get("where") or {}
    chosen = [r for r in rows if all(r.get(k) == v for k, v in where.items() if not isinstance(v, Mapping))]
    out = []
    for row in chosen:
        text = str(row.get(source.get("field", ""), ""))
        if spec.get("section"):
            text = section(text, str(spec["section"])) or ""
        out += facts(text, read)
    return out


def _in_other_words(fact: Fact, read: Reader) -> str:
    """A fact said another way: a count in words with "about", an amount in another form, a date in another form."""
    if fact.kind == "count":
        return f"about {in_words(fact.value) or fact.value} others are affected too"
    if fact.kind == "amount":
        return f"the figure is roughly {write(fact, 5, read)}"
    if fact.kind == "date":
        return f"it ends around {write(fact, 2, read)}"
    return fact.text
