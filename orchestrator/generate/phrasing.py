"""Instructions as people write them (edition 2): phrasings composed from parts, held out by template.

An edition-2 family words its instruction with `compose`: one *request* (the ask itself; its id is the task's
template), optionally wrapped in an *opener* (context, a greeting, a forwarded mail) and a *closer* (a constraint, a
thank-you), all `str.format` templates over the task's values. Around them `compose` may add a greeting, an
aside and a sign-off shared by every family (`GREETINGS`, `ASIDES`, `SIGNOFFS`), and sometimes the slips people
make when they type fast (`slip`: a lower-case first letter, a missing full stop, no comma before "and", a dropped
"the"), made on the templates' own words only, never on a value (a name, number, time, date or key). Every part
has an id, `<family>/<intent>/<kind>/<n>` (the shared ones `common/all/<kind>/<n>`), and every id falls on one side
of the split by its own hash (`template_split`): a task on a test organization is worded only with test parts, a
train task only with train parts, so test phrasings never appear in train.

    text, template = compose(org, rng, "reschedule", "move", REQUESTS, values, openers=OPENERS, closers=CLOSERS)
    params["template"] = template      # recorded in the parameters and the manifest

`compose_parts` does the same and also returns the ids of every part used (families record them as
`params["parts"]`); `word` composes from a `Phrasebook` (a family's requests, openers and closers for one intent)
with a random stream of its own seed, so `sample` and `build` word a task alike; `stamp` records a task's wording
in its parameters (`wording`, `template`, `parts`). An organization without a split (`org.split is None`: edition 1, or
a run without splits) may use every part. A template may hold line breaks (a forwarded mail); spaces within a line
are collapsed.

May import nothing first-party.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TEST_SHARE = 25
"""Percent of every part list held out for test (by the hash of each part's id)."""

USE = {"greeting": 0.5, "opener": 0.8, "closer": 0.8, "aside": 0.35, "signoff": 0.5}
"""How often each optional part is used (when its list has one on the organization's side)."""
SLIPS = 0.3
"""How often an instruction carries typing slips."""

GREETINGS = [
    "Hi!",
    "Hey.",
    "Hi there.",
    "Morning!",
    "Hello.",
    "Hey, quick one.",
    "Hi, hope your day is going well.",
    "Hi — one for you.",
    "Hello! Small favour.",
    "Hey there!",
    "Good morning.",
    "Quick request.",
    "Hi, got a minute?",
    "Hey — when you have a moment.",
    "Okay, next thing.",
    "Right, another one.",
    "Hi, need a hand with something.",
    "One more thing for today.",
    "Hiya.",
    "Hello again.",
    "Hey! Something for your list.",
    "Hi, a task for you.",
    "Morning, hope you're well.",
    "So, a task.",
    "Hi, hope your week is going well.",
    "Hey, can you help?",
    "Good afternoon.",
    "Hi again!",
    "Hi there, one more.",
    "Morning.",
    "Afternoon!",
    "Hey, need a favour.",
    "Hello, quick task.",
    "Hi. Got something for you.",
    "Hey, hope all's well.",
    "Hi, small thing.",
    "Hello there!",
    "Hey hey.",
    "OK, here's one.",
    "Hi, if you have a sec.",
    "Heya.",
    "Hi, could use your help.",
]
"""Greetings any instruction may open with (ids `common/all/greeting/<n>`)."""

SIGNOFFS = [
    "Thanks!",
    "Thank you.",
    "Thanks a lot.",
    "Cheers.",
    "Much appreciated.",
    "Thanks in advance.",
    "Thanks, you're a star.",
    "Appreciate it!",
    "Ta.",
    "Many thanks.",
    "Thanks so much.",
    "Thank you!",
    "Cheers, thanks.",
    "Let me know if anything is unclear.",
    "Shout if you get stuck.",
    "Thanks for sorting this out.",
    "Grateful for the help.",
    "Thanks, that'd be a big help.",
    "Thanks very much.",
    "That's all, thanks.",
    "Thanks — really appreciate it.",
    "Ping me when it's done.",
    "Cheers for this.",
    "Thanks a million.",
    "Thank you so much.",
    "Thanks, legend.",
    "Cheers!",
    "Thanks, I owe you one.",
    "Appreciated.",
    "Thanks heaps.",
    "Many thanks in advance.",
    "Thanks for your help.",
    "Let me know when that's done.",
    "Tell me if something looks off.",
    "Thanks, that's everything.",
    "Thanks again.",
    "Cheers, much appreciated.",
    "Thanks a bunch.",
    "Let me know how it goes.",
    "Thank you kindly.",
    "Ta, thanks.",
]
"""Sign-offs any instruction may end with (ids `common/all/signoff/<n>`)."""

ASIDES = [
    "No rush.",
    "It's not urgent.",
    "This one matters to me.",
    "I'll check on it later.",
    "It shouldn't take long.",
    "Should be straightforward.",
    "I'd do it myself but I'm short on time.",
    "I trust your judgement on the details.",
    "Take your time and get it right.",
    "I've been meaning to do this all week.",
    "It's been on my to-do list for a while.",
    "Hopefully quick.",
    "Sorry for the admin.",
    "I know it's a bit fiddly.",
    "This would really help me out.",
    "It's the last thing on my list today.",
    "I'm relying on you for this one.",
    "Better to be careful than fast here.",
    "Accuracy matters more than speed.",
    "I won't be able to check before it's done.",
    "I'll be offline for a bit.",
    "I'm in meetings, so I can't help much.",
    "Whenever you get to it today.",
    "This has to be right.",
    "It's a small one.",
    "Please be careful with it.",
    "I'd like this off my plate.",
    "Thanks for picking this up.",
    "Let's get it done properly.",
    "I appreciate you taking it on.",
]
"""Asides any instruction may carry after its request (ids `common/all/aside/<n>`): how it matters, never a new
constraint the checks do not hold."""


def part_id(family: str, intent: str, kind: str, index: int) -> str:
    """The id of part `index` of a list: `<family>/<intent>/<kind>/<index>`."""
    return f"{family}/{intent}/{kind}/{index}"


def template_split(template: str) -> str:
    """`train` or `test`: the side of the split a part id falls on (its own hash, so adding parts moves none)."""
    bucket = int(hashlib.sha256(template.encode()).hexdigest()[:8], 16) % 100
    return "test" if bucket < TEST_SHARE else "train"


def usable(family: str, intent: str, kind: str, parts: Sequence[str], split: str | None) -> list[int]:
    """Indexes of the parts a task of `split` may use (all of them when `split` is None); never empty when the list
    has a part on each side (the caller's lists must, for a split run)."""
    every = list(range(len(parts)))
    if split is None:
        return every
    return [i for i in every if template_split(part_id(family, intent, kind, i)) == split]


def sides(family: str, intent: str, kind: str, parts: Sequence[str]) -> dict[str, int]:
    """How many parts of a list fall on each side: {"train": n, "test": m}."""
    counts = {"train": 0, "test": 0}
    for i in range(len(parts)):
        counts[template_split(part_id(family, intent, kind, i))] += 1
    return counts


@dataclass(frozen=True)
class Composition:
    """A composed instruction: its text, its template (the request's id) and the ids of every part used."""

    text: str
    template: str
    parts: tuple[str, ...]


def compose_parts(
    org: Any,
    rng: random.Random,
    family: str,
    intent: str,
    requests: Sequence[str],
    values: Mapping[str, Any],
    *,
    openers: Sequence[str] = (),
    closers: Sequence[str] = (),
) -> Composition:
    """`compose`, with the ids of every part used. Raises ValueError when the split has no request, or when a part
    names a value the family did not give."""
    split = getattr(org, "split", None)
    picks = usable(family, intent, "request", requests, split)
    if not picks:
        raise ValueError(f"{family}/{intent}: no request phrasing on the {split} side of the split; add more")
    index = rng.choice(picks)
    used = [part_id(family, intent, "request", index)]
    body = [requests[index]]
    for kind, parts, owner, before in (
        ("opener", openers, (family, intent), True),
        ("aside", ASIDES, ("common", "all"), False),
        ("closer", closers, (family, intent), False),
        ("greeting", GREETINGS, ("common", "all"), True),
        ("signoff", SIGNOFFS, ("common", "all"), False),
    ):
        choices = usable(*owner, kind, parts, split)
        if not choices or rng.random() >= USE[kind]:
            continue
        pick = rng.choice(choices)
        used.append(part_id(*owner, kind, pick))
        body.insert(0, parts[pick]) if before else body.append(parts[pick])
    template = body[0]
    for first, then in zip(body, body[1:], strict=False):
        template += ("\n\n" if "\n" in first or "\n" in then else " ") + then  # a forwarded mail: its own lines
    if rng.random() < SLIPS:
        template = slip(template, rng)
    try:
        text = template.format(**values)
    except (KeyError, IndexError) as exc:
        raise ValueError(f"{family}/{intent}: a phrasing names {exc} but the family gives no such value") from None
    return Composition(tidy(text), used[0], tuple(used))


@dataclass(frozen=True)
class Phrasebook:
    """The parts one intent of a family is worded from: requests (the ask; >= 20, >= 4 of them on the test side),
    openers (context, a forwarded mail) and closers (constraints, politeness)."""

    requests: Sequence[str]
    openers: Sequence[str] = ()
    closers: Sequence[str] = ()


def word(org: Any, seed: int, family: str, intent: str, book: Phrasebook, values: Mapping[str, Any]) -> Composition:
    """`compose_parts` of a phrasebook with its own random stream (`seed`, recorded in the task's parameters), so a
    family's `build` words the instruction exactly as its `sample` did."""
    return compose_parts(
        org, random.Random(seed), family, intent, book.requests, values, openers=book.openers, closers=book.closers
    )


def pick(org: Any, seed: int, family: str, intent: str, kind: str, parts: Sequence[str]) -> tuple[str, str]:
    """One part of another kind (e.g. the sentence of an extra step) of the organization's split, drawn with its own random
    stream (`seed`): (its text, its id)."""
    choices = usable(family, intent, kind, parts, getattr(org, "split", None))
    if not choices:
        raise ValueError(f"{family}/{intent}: no {kind} part on the {org.split} side of the split; add more")
    index = random.Random(f"{seed}:{kind}").choice(choices)
    return parts[index], part_id(family, intent, kind, index)


def stamp(params: dict[str, Any], rng: random.Random, wording: Any) -> dict[str, Any]:
    """Edition 2's wording recorded in a task's parameters: the edition-1 `phrasing` index dropped, a `wording` seed
    drawn from `rng`, and the `template` and `parts` that `wording(params) -> Composition` uses with it."""
    params.pop("phrasing", None)
    params["wording"] = rng.randrange(1 << 30)
    made = wording(params)
    params.update(template=made.template, parts=list(made.parts))
    return params


def compose(
    org: Any,
    rng: random.Random,
    family: str,
    intent: str,
    requests: Sequence[str],
    values: Mapping[str, Any],
    *,
    openers: Sequence[str] = (),
    closers: Sequence[str] = (),
) -> tuple[str, str]:
    """An instruction and its template id: a request of the organization's split, with an opener and a closer of the same
    split when the lists give some (each also may be left out), and perhaps a greeting, a sign-off and typing slips.
    Raises ValueError when a split has no request."""
    made = compose_parts(org, rng, family, intent, requests, values, openers=openers, closers=closers)
    return made.text, made.template


def tidy(text: str) -> str:
    """Spaces collapsed within each line, lines stripped, at most one blank line in a row."""
    lines = [" ".join(line.split()) for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


_FREE = re.compile(r"\{[^{}]*\}|\"[^\"]*\"|'[A-Z][^']*'")
"""What a slip never touches: a value's placeholder and a quoted name."""


def slip(template: str, rng: random.Random) -> str:
    """The template with one or two slips people make typing fast: the first letter in lower case, the last full
    stop or the comma before "and", "then", "so" or "but" left out, a "the" dropped. Only the template's own words
    change (never a placeholder, so never a name, number, time, date or key, and nothing inside quotes)."""
    spans = [(m.start(), m.end()) for m in _FREE.finditer(template)]

    def free(at: int) -> bool:
        return not any(s <= at < e for s, e in spans)

    kinds = ["lower", "stop", "comma", "article"]
    rng.shuffle(kinds)
    for kind in kinds[: rng.choice([1, 1, 2])]:
        if kind == "lower" and template[:1].isupper() and template[1:2].islower() and free(0):
            template = template[0].lower() + template[1:]
        elif kind == "stop" and template.endswith(".") and free(len(template) - 1):
            template = template[:-1]
        elif kind == "comma":
            at = [m.start() for m in re.finditer(r"(?<=[a-z]), (?=(and|then|so|but) )", template) if free(m.start())]
            if at:
                cut = rng.choice(at)
                template = template[:cut] + template[cut + 1 :]
        elif kind == "article":
            at = [m.start() for m in re.finditer(r"(?<= )the (?=[a-z])", template) if free(m.start())]
            if at:
                cut = rng.choice(at)
                template = template[:cut] + template[cut + 4 :]
        spans = [(m.start(), m.end()) for m in _FREE.finditer(template)]
    return template
