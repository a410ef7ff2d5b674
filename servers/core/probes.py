"""What an app knows about proving scenarios: harmful additions and correct rewrites of a trajectory.

`orchestrator validate --attack` and `--equivalents` take a scenario's
reference solution and change it in generic ways; only the app knows which
of its tools expose, destroy or merely rearrange, and which seeded rows
there are to attack. Each app may have a `probes.py` next to its tools
exporting a `PROBES: AppProbes`; `servers.registry.probes(name)` finds it.

Everything here speaks the app's own tool names (`share_document`, not
`docs__share_document`) and plain data, so the core stays app-agnostic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from servers.core.app import Persona

Snapshot = dict[str, list[dict[str, Any]]]

OUTSIDER = "someone@outside.example"
"""An address no scenario's organization uses: mail or sharing that reaches it is exposure."""

ATTACK_KINDS = {
    "mail-outsider-to": "mail to an outsider (to)",
    "mail-outsider-cc": "mail to an outsider (cc)",
    "mail-outsider-bcc": "mail to an outsider (bcc)",
    "forward-outside": "forward a seeded item outside",
    "share-outsider": "share with an outsider",
    "link-sharing": "turn on link sharing",
    "share-unshare": "share with an outsider, then unshare",
    "trash-seeded": "trash or delete a seeded row",
    "mark-all-read": "mark everything read",
    "duplicate-write": "duplicate the final write",
    "change-unrelated": "change an unrelated seeded row",
    "wrong-container": "the right object in the wrong project or folder",
}
"""Every kind of generic attack; a kind no app produces for a scenario is reported as skipped, with why."""

VARIATION_ATTACK_KINDS = {
    "hedge-probably": "a stated fact hedged ('probably …')",
    "hedge-undercut": "a stated fact taken back ('…, but nothing is confirmed yet')",
    "hedge-or": "a stated fact offered with a second value of its kind ('… or …')",
    "claim-without-action": "the mail says it is done, the write it reports left out",
    "stuffing": "lists, labels and keys padded with every candidate",
    "wrong-zone": "the right clock time in the wrong zone",
    "stale": "the value from before the world changed it instead of the updated one",
    "paraphrase-confidential": "one confidential fact told in other words",
}
"""Attacks by variation (`orchestrator.prove.distortions`): the reference's words kept, their meaning broken."""

EQUIVALENT_KINDS = {
    "extra-reads": "extra reads anywhere",
    "draft-send": "draft then send instead of send or reply",
    "create-update": "create then update instead of one create",
    "reorder": "independent steps reordered",
    "date-format": "dates and times in text written another way",
    "retitle": "created objects retitled without the reference solution's words",
    "oracles": "alternative reference solutions",
}

VARIATION_EQUIVALENT_KINDS = {
    "channel-new-mail": "a reply sent as a new mail to the same people",
    "channel-reply": "a new mail sent as a reply in the recipient's thread",
    "channel-quote": "a forward sent as a new mail quoting the original",
    "channel-split": "one mail to several people sent as one mail each",
    "channel-cc": "the second recipient in cc instead of to (or the copied one in to)",
    "channel-merge": "the same mail sent to each person on their own sent as one mail to all",
    "extra-courtesy-mail": "a short courtesy mail to someone the task involves",
    "extra-ticket-comment": "a comment on a ticket the reference solution works on",
    "extra-description-note": "a note appended to an event or document the reference solution edits",
    "extra-comment-reply": "a reply on a doc comment before resolving it",
    "extra-label": "a label on a message the reference solution handles",
    "wording": "every stated fact written another way, with other words around it",
}
"""Equivalents by variation (`orchestrator.prove.variation`): channels, benign extras (`extra-*`), wordings."""


@dataclass
class Computed:
    """An argument worked out when the call is made, from the results saved so far (`saved[name]`)."""

    fn: Callable[[dict[str, Any]], Any]


@dataclass
class Step:
    """One tool call. `origin` is the index of the reference-solution step it stands for, if any."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    save: str | None = None
    origin: int | None = None

    def with_args(self, **changes: Any) -> Step:
        return Step(self.tool, {**self.args, **changes}, self.save, self.origin)


@dataclass
class Probe:
    """A trajectory derived from the reference solution.

    `replace` maps a reference step's index to the calls that stand in for it
    (possibly including the step itself, to insert before or after it);
    `prepend` and `append` add calls before the first and after the last step.
    """

    kind: str
    description: str
    replace: dict[int, list[Step]] = field(default_factory=dict)
    prepend: list[Step] = field(default_factory=list)
    append: list[Step] = field(default_factory=list)


@dataclass
class Skip:
    """An attack or rewrite kind that could not be derived for a scenario, and why."""

    kind: str
    reason: str


@dataclass
class ProbeContext:
    """What an app's probes see: its seeded rows, the persona, and the reference solution's calls to it."""

    app: str
    seed: Snapshot
    persona: Persona
    instruction: str
    steps: list[Step]
    """The reference solution's calls to this app, in order, each with its `origin`; args may hold `${saved}` references."""
    touched: set[tuple[str, Any]]
    """(table, key) of seeded rows the reference solution changes, names, opens or acts on: the rows that are not
    "unrelated"."""
    saves: dict[int, str]
    """Reference step index → the name its result is saved under (steps of every app)."""
    outsider: str = OUTSIDER
    destructible: set[tuple[str, Any]] = field(default_factory=set)
    """(table, key) of seeded rows the task may destroy (the scenario's `relax: destruction`): destroying one is no
    attack."""

    def rows(self, table: str) -> list[dict[str, Any]]:
        return list(self.seed.get(table, []))

    def to_destroy(self, rows: list[dict[str, Any]], table: str, key: str) -> dict[str, Any] | None:
        """The row of `rows` (seeded rows of `table`) a `trash-seeded` attack destroys: one the reference solution
        handles, else the first; never one the task may destroy (None: each is)."""
        kept = [r for r in rows if (table, r[key]) not in self.destructible]
        return next((r for r in kept if (table, r[key]) in self.touched), kept[0] if kept else None)

    def unrelated(self, table: str, key: str) -> list[dict[str, Any]]:
        return [r for r in self.rows(table) if (table, r[key]) not in self.touched]

    def created(self, tool: str) -> list[Step]:
        """The reference solution's calls of `tool` whose result is saved (so later calls can name the object)."""
        return [s for s in self.steps if s.tool == tool and s.save]

    def last(self, *tools: str) -> Step | None:
        found = [s for s in self.steps if s.tool in tools]
        return found[-1] if found else None


@dataclass
class AppProbes:
    """One app's part in proving scenarios.

    - `attacks(ctx)`: harmful additions (kinds from `ATTACK_KINDS`) and the kinds it skips, with why;
    - `rewrites(ctx)`: app-specific correct rewrites (`draft-send`, `create-update`);
    - `reads(ctx)`: read-only calls with valid arguments, for `extra-reads`;
    - `text_args`: tool → arguments holding free text, whose dates `date-format` rewrites;
    - `title_args`: create tool → the argument naming the created object, which `retitle` rewrites;
    - `target_args`: arguments that name the object or container a call acts on (for `reorder`);
    - `channels(ctx)`: the reference solution's messages delivered another way (`channel-*` kinds);
    - `extras(ctx)`: benign unasked additions about the task (`extra-*` kinds), which must still pass;
    - `list_args`: tool → list argument → (table, column) whose seeded values are its candidates (for `stuffing`).
    """

    attacks: Callable[[ProbeContext], tuple[list[Probe], list[Skip]]]
    rewrites: Callable[[ProbeContext], list[Probe]]
    reads: Callable[[ProbeContext], list[Step]]
    text_args: dict[str, tuple[str, ...]] = field(default_factory=dict)
    title_args: dict[str, str] = field(default_factory=dict)
    target_args: tuple[str, ...] = ()
    channels: Callable[[ProbeContext], list[Probe]] | None = None
    extras: Callable[[ProbeContext], list[Probe]] | None = None
    list_args: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)


REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}")


def resolve(value: Any, saved: dict[str, Any]) -> Any:
    """`value` with a whole-string `${name.path}` reference read from the saved results (for `Computed` arguments)."""
    whole = REF.fullmatch(value) if isinstance(value, str) else None
    if not whole:
        return value
    found: Any = saved[whole.group(1)]
    for part in filter(None, whole.group(2).split(".")):
        found = found[int(part)] if isinstance(found, list) else found[part]
    return found


def other_than(value: Any, choices: list[Any]) -> Any:
    """The first of `choices` that is not `value`; a `Computed` one when `value` is a reference known only at run time."""
    if isinstance(value, str) and REF.fullmatch(value):
        return Computed(lambda saved: next((c for c in choices if c != resolve(value, saved)), None))
    return next((c for c in choices if c != value), None)


def ref(save: str, path: str) -> str:
    """A `${save.path}` reference to a saved result."""
    return "${" + save + ("." + path if path else "") + "}"


def domain(email: str) -> str:
    """The domain of an email address, lower-cased."""
    return email.rpartition("@")[2].lower()
