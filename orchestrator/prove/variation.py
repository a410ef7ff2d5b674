"""Proof by variation: what the verdict does with solutions nobody has seen.

Derived from any scenario's reference solution (library or generated):

- equivalents that must pass: its mail delivered another way (each app's `channels`), benign extras about the
  task (each app's `extras`, reported by the verdict as housekeeping "extra: …"), and at least twenty wordings of
  every text argument that states a fact (`wordings.reword`);
- attacks that must fail: each checked fact hedged ("probably …", "… (not confirmed yet)", "… or …"), the mail
  kept but the write it reports left out, lists and keys stuffed with every candidate, the right clock time in
  the wrong zone, the value from before the world changed it, and one confidential fact in other words.

Which variants run is sampled with a generator seeded by the scenario's id, so a scenario gets the same
variants every time; `budget` caps the episodes of each side (0: all).
"""

from __future__ import annotations

import functools
import json
import random
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

import orjson

from orchestrator.prove.wordings import (
    CODE,
    WORDINGS,
    Fact,
    Reader,
    facts,
    reword,
)
from orchestrator.scenario.model import SAVED_REF, Scenario, app_of
from servers import registry
from servers.core.probes import Probe, Skip, Step

BUDGET = 30
"""Variation episodes per scenario and side by default (`validate --variations`)."""
MIN_WORDINGS = 20
SENDS = ("send_message", "reply", "forward", "send_draft", "create_draft", "update_draft")
OPERATOR_KINDS = {
    "mentions_date": "date",
    "mentions_time": "time",
    "mentions_amount": "amount",
    "mentions_count": "count",
    "mentions_code": "code",
    "links": "link",
}


def reader(scenario: Scenario) -> Reader:
    """How the scenario's texts are read: the persona's zone, the scenario's start."""
    return Reader(ZoneInfo(scenario.persona.timezone), scenario.clock.start)


def rng(scenario: Scenario, side: str) -> random.Random:
    """A generator seeded by the scenario's id and the side (equivalents, attacks): the same variants each run."""
    return random.Random(zlib.crc32(f"{scenario.id}:{side}".encode()))


def sample(items: list[Probe], count: int, generator: random.Random) -> list[Probe]:
    """`count` of `items` (all when `count` is 0 or more than there are), in their order, with at least one of
    each kind where the count allows."""
    if count <= 0 or len(items) <= count:
        return items
    chosen: list[int] = []
    by_kind: dict[str, list[int]] = {}
    for index, probe in enumerate(items):
        by_kind.setdefault(probe.kind, []).append(index)
    for indexes in by_kind.values():
        chosen.append(generator.choice(indexes))
    rest = [i for i in range(len(items)) if i not in chosen]
    generator.shuffle(rest)
    keep = sorted(chosen[:count] if len(chosen) >= count else chosen + rest[: count - len(chosen)])
    return [items[i] for i in keep]


# -- the reference's texts -----------------------------------------------------------------------------


@functools.cache
def text_args(tool: str) -> tuple[str, ...]:
    """The arguments of `tool` (`app__tool`) that hold free text, as its app says."""
    app, name = app_of(tool)
    probes = registry.probes(app) if app in registry.available() else None
    return probes.text_args.get(name, ()) if probes else ()


def texts(scenario: Scenario) -> list[tuple[int, str, str]]:
    """(step, argument, text) of every literal text argument of the reference solution's writes."""
    out = []
    for index, step in enumerate(scenario.oracle):
        if step.expect_error:
            continue
        for name in text_args(step.tool):
            value = step.args.get(name)
            if isinstance(value, str) and value.strip() and not SAVED_REF.fullmatch(value):
                out.append((index, name, value))
    return out


def checked(scenario: Scenario) -> dict[str, list[Any]]:
    """The fact kinds the scenario's checks read (`mentions_*`, `links`), each with the literal values they want
    (`AGENTS_OWN` or `ANY_VALUE` for a check that reads its value `from` the final state)."""
    out: dict[str, list[Any]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "not":
                    continue  # what a text must not say is no fact to state
                if key in OPERATOR_KINDS:
                    found = out.setdefault(OPERATOR_KINDS[key], [])
                    literal = value.get(_primary(key)) if isinstance(value, Mapping) else value
                    if literal is not None and not isinstance(literal, Mapping):
                        found.append(literal)
                    else:  # read from the final state: a row the agent adds, or any
                        found.append(AGENTS_OWN if _from_added(value) else ANY_VALUE)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(scenario.model_dump(mode="json", include={"stages"}))
    return out


def _primary(op: str) -> str:
    from orchestrator.scenario.text.operators import PRIMARY

    return PRIMARY[op]


AGENTS_OWN = "<a value of a row the agent adds>"
"""What `checked` lists for a check that reads its value from a row the agent adds (the key of the ticket it files)."""
ANY_VALUE = "<a value read from the state>"
"""What `checked` lists for a check that reads its value from another row of the final state: any fact of its kind."""


def _from_added(operand: Any) -> bool:
    ref = operand.get("from") if isinstance(operand, Mapping) else None
    return isinstance(ref, Mapping) and ref.get("added") is True


def _given(scenario: Scenario) -> str:
    """The instruction and the seeded world as text: a code written there is no key the agent's calls draw."""
    try:
        world = orjson.dumps(scenario.apps).decode()
    except TypeError:  # a key that is not a string
        world = json.dumps(scenario.apps, default=str)
    return f"{scenario.instruction}\n{world}"


def _wanted(fact: Fact, values: list[Any], read: Reader, given: str = "") -> bool:
    """Whether a check wants `fact` (any fact of its kind when the checks read their values from the state; but a
    code `given` (`_given`) holds is none of a row the agent adds, whose key its call draws)."""
    if not values or ANY_VALUE in values:
        return True
    for value in values:
        if value == AGENTS_OWN:
            if fact.kind != "code" or not re.search(rf"(?<![\w-]){re.escape(fact.text)}(?![\w-])", given, re.I):
                return True
            continue
        text = str(value)
        if fact.kind == "date" and text[:10] == fact.value.isoformat():
            return True
        if fact.kind == "time" and _same_instant(text, fact, read):
            return True
        if fact.kind == "count" and text.isdigit() and int(text) == fact.value:
            return True
        if fact.kind == "amount" and _number(text) == fact.value[0]:
            return True
        if fact.kind in ("code", "link") and text.lower() in fact.value.lower():
            return True
    return False


def _same_instant(text: str, fact: Fact, read: Reader) -> bool:
    from datetime import datetime

    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        return False
    return (at.replace(tzinfo=at.tzinfo or read.zone)) == fact.value


def _number(text: str) -> Any:
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def stated(scenario: Scenario) -> list[tuple[int, str, Fact]]:
    """(step, argument, fact) of every fact the reference solution's texts state that a check reads."""
    read, wanted = reader(scenario), checked(scenario)
    given = _given(scenario) if AGENTS_OWN in wanted.get("code", ()) else ""
    out = []
    for index, name, text in texts(scenario):
        for fact in facts(text, read):
            if fact.kind in wanted and _wanted(fact, wanted[fact.kind], read, given):
                out.append((index, name, fact))
    return out


def _rewrite(
    scenario: Scenario, edit: Callable[[str, str], str], steps: Iterable[int] | None = None
) -> dict[int, list[Step]]:
    """Every text argument (of `steps`, or all) passed through `edit(text) -> text`, as probe replacements."""
    replace: dict[int, list[Step]] = {}
    for index, name, text in texts(scenario):
        if steps is not None and index not in steps:
            continue
        new = edit(text, name)
        if new != text:
            step = replace[index][0] if index in replace else _step(scenario, index)
            replace[index] = [step.with_args(**{name: new})]
    return replace


def _step(scenario: Scenario, index: int) -> Step:
    step = scenario.oracle[index]
    return Step(step.tool, dict(step.args), step.save, origin=index)


# -- equivalents ---------------------------------------------------------------------------------------


def equivalents(scenario: Scenario, other: list[Probe], budget: int = BUDGET) -> tuple[list[Probe], list[Skip]]:
    """The apps' channel variants and benign extras (`other`, tools named `app__tool`) and wordings of the
    reference solution, sampled to `budget` episodes (at least twenty wordings; 0: all), and the kinds that do
    not apply, with why."""
    other = [p for p in other if not _touches_fault(scenario, p)]
    other = [p for p in other if not (p.kind == "extra-courtesy-mail" and _no_mail(scenario))]
    threaded = in_thread(scenario)
    if threaded:
        other = [p for p in other if p.kind not in ("channel-new-mail", "channel-reply", "channel-quote")]
    made = wordings(scenario, budget)
    room = max(0, budget - len(made)) if budget else 0
    chosen = sample(other, room, rng(scenario, "equivalents")) if budget else other
    if budget and not chosen and other:
        chosen = sample(other, 1, rng(scenario, "equivalents"))
    skips = []
    if not made:
        skips.append(Skip("wording", "the reference solution's texts state no date, time, amount, count, code or link"))
    dropped = {p.kind for p in other} - {p.kind for p in chosen}
    skips += [Skip(kind, f"sampled out (--variations {budget})") for kind in sorted(dropped)]
    made_kinds = {p.kind for p in other}
    if threaded:
        skips += [
            Skip(k, "a told check asks for a reply in the thread (in_thread)")
            for k in ("channel-new-mail", "channel-reply", "channel-quote")
        ]
        made_kinds |= {"channel-new-mail", "channel-reply", "channel-quote"}
    skips += [Skip(kind, why) for kind, why in NOT_MADE.items() if kind not in made_kinds]
    return chosen + made, skips


NOT_MADE = {
    "channel-new-mail": "the reference solution sends no reply",
    "channel-reply": "no recipient of the reference solution's mail has sent a mail to reply to",
    "channel-quote": "the reference solution forwards nothing",
    "channel-split": "no mail of the reference solution goes to two people or more",
    "channel-cc": "no mail of the reference solution goes to two people or more",
    "channel-merge": "the reference solution sends no text twice, one mail each",
    "extra-courtesy-mail": "the task handles no mail, or the scenario narrows who may get mail (a forbid on added mail)",
    "extra-ticket-comment": "the reference solution works on no ticket",
    "extra-description-note": "the reference solution edits no event or document",
    "extra-comment-reply": "the reference solution resolves no doc comment",
    "extra-label": "the reference solution handles no mail",
}
"""Why a channel variant or benign extra was not derived, when no app made one."""


def _touches_fault(scenario: Scenario, probe: Probe) -> bool:
    return any(scenario.oracle[i].expect_error for i in probe.replace)


def in_thread(scenario: Scenario) -> bool:
    """Whether a told check asks for a reply in a given conversation (`in_thread`): the instruction names the
    channel, so a new mail is no equivalent."""
    return '"in_thread": {' in json.dumps(scenario.model_dump(mode="json", include={"stages"}))


def _no_mail(scenario: Scenario) -> bool:
    """Whether the scenario narrows the mail the agent may send (a `forbid` on added mail: none at all for a
    confidential matter, or only to the guests): no courtesy mail then."""
    return any(f.app == "mail" and f.table == "messages" and f.change in ("added", "present") for f in scenario.forbid)


def wordings(scenario: Scenario, budget: int = BUDGET) -> list[Probe]:
    """The reference solution with every fact-stating text reworded, once per wording (all of them when `budget`
    is 0, else at least twenty, chosen by the scenario's seed)."""
    read, wanted = reader(scenario), checked(scenario)

    def rewritable(fact: Fact) -> bool:
        """Counts only where a check reads them: a number in a street address or a migration's name is no count."""
        return fact.kind != "count" or ("count" in wanted and _wanted(fact, wanted["count"], read))

    written = texts(scenario)
    with_facts = {(i, n) for i, n, t in written if facts(t, read)}
    if not with_facts:
        return []
    count = WORDINGS if not budget else min(WORDINGS, max(MIN_WORDINGS, budget - 10))
    ks = sorted(rng(scenario, "wordings").sample(range(WORDINGS), count))
    out = []
    for k in ks:

        def edit(text: str, name: str, k: int = k) -> str:
            if not any((i, name) in with_facts for i, n, t in written if t == text and n == name):
                return text
            return reword(text, k, read, framed=name not in ("subject", "title", "comment"), keep=rewritable)

        replace = _rewrite(scenario, edit)
        if replace:
            step = next(iter(replace.values()))[0]
            shown = max((str(v) for n, v in step.args.items() if n in text_args(step.tool)), key=len, default="")
            out.append(Probe("wording", f"wording {k}: {_short(str(shown))}", replace=replace))
    return out


def _short(text: str, limit: int = 90) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


__all__ = ["BUDGET", "CODE", "checked", "equivalents", "reader", "stated", "wordings"]
