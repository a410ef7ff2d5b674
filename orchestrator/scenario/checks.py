"""What a scenario judges and allows: stages of checks (rows of the final state, the journal of tool calls,
claims put to an LLM judge), forbidden changes and calls, allowed changes, and relaxed harm rules.

These are the models of `stages`, `forbid`, `allow` and `relax`; `orchestrator.scenario.model` puts them in a
`Scenario` and checks at load time that the apps, tables, columns and tools they name exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Expect(_Model):
    """How many rows must match: exactly `count`, at least `min`, at most `max`; or every match satisfies `all`."""

    count: int | None = Field(None, ge=0)
    min: int | None = Field(None, ge=0)
    max: int | None = Field(None, ge=0)
    all: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Expect:
        if self.count is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either count, or min and/or max")
        if self.count is None and self.min is None and self.max is None and self.all is None:
            raise ValueError("give count, min, max or all")
        return self


class RowCheck(_Model):
    """Rows of one app table in the final state: `where` selects, `expect` says how many must match.

    `added: true` looks only at rows the agent added (and not discarded, e.g. trashed), `added: false`
    only at seeded rows. Without `expect`, a check over added rows wants exactly one match (a
    duplicate fails); any other check wants at least one.
    """

    app: str
    table: str
    added: bool | None = None
    where: dict[str, Any] = Field(default_factory=dict)
    expect: (
        Annotated[
            Annotated[Literal["exists", "none"], Tag("word")] | Annotated[Expect, Tag("counts")],
            Discriminator(lambda v: "word" if isinstance(v, str) else "counts"),
        ]
        | None
    ) = None
    name: str | None = None
    weight: float = Field(1.0, gt=0)

    def expectation(self) -> Literal["exists", "none"] | Expect:
        if self.expect is not None:
            return self.expect
        return Expect(count=1) if self.added else "exists"


class RowRef(_Model):
    """Rows of one app table, e.g. the seeded document a process check is about."""

    app: str
    table: str
    where: dict[str, Any] = Field(default_factory=dict)


class JournalRule(_Model):
    """One process rule over the episode's tool calls (tools named `app__tool`; `a|b` accepts either)."""

    max_errors: int | None = Field(None, ge=0, description="At most this many failed calls (injected faults excluded).")
    max_calls: int | None = Field(None, ge=1)
    called: str | None = Field(
        None,
        description="A tool that must have succeeded, `min`..`max` times; `a|b` accepts either tool (here and below).",
    )
    not_called: str | None = None
    min: int = Field(1, ge=0)
    max: int | None = Field(None, ge=0)
    args: dict[str, Any] = Field(default_factory=dict, description="Conditions on the arguments of `called`.")
    before: list[str] | None = Field(
        None, min_length=2, max_length=2, description="[A, B]: A succeeded before B's first success."
    )
    retried_after_fault: str | None = Field(
        None,
        description="Every injected failure of this tool was followed by a success of the same tool with equivalent arguments.",
    )
    read_first: str | None = Field(
        None,
        description="Each successful call of these tools came after a read that returned every seeded entity it acted on "
        "(or, with `entity`, the rows `entity` selects).",
    )
    entity: RowRef | None = None
    no_duplicate_after_lost_reply: str | None = Field(
        None,
        description="No call of these tools (`*`: any) whose reply was lost (a `lost_reply` fault) was redone: no later "
        "call added a row equal to one it had added.",
    )
    waited_for_rate_limit: str | None = Field(
        None,
        description="Every `rate_limit` fault on these tools (`*`: any) was retried successfully, and no call came before "
        "the time the fault named.",
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> JournalRule:
        kinds = [
            "max_errors",
            "max_calls",
            "called",
            "not_called",
            "before",
            "retried_after_fault",
            "read_first",
            "no_duplicate_after_lost_reply",
            "waited_for_rate_limit",
        ]
        given = [k for k in kinds if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(kinds)} (found {', '.join(given) or 'none'})")
        if self.entity is not None and self.read_first is None:
            raise ValueError("entity goes with read_first")
        return self

    def tools(self) -> list[str]:
        return [
            t
            for t in (self.called, self.not_called, self.retried_after_fault, self.read_first, *(self.before or []))
            if t
        ]

    def recovery(self) -> str | None:
        """The tools of a recovery rule (`no_duplicate_after_lost_reply`, `waited_for_rate_limit`), `*` for any."""
        return self.no_duplicate_after_lost_reply or self.waited_for_rate_limit


class JournalCheck(_Model):
    """A process check: scored in the separate process score; with `required: true` it also counts
    toward the outcome and its failure fails the run."""

    journal: JournalRule
    name: str | None = None
    weight: float = Field(1.0, gt=0)
    required: bool = False


class JudgeSpec(_Model):
    """A claim no parser can decide, put to an LLM judge: does the `field` of the rows `where` selects satisfy `rubric`?"""

    rubric: str = Field(min_length=1, description='The claim, e.g. "the reply says the trip is approved".')
    app: str
    table: str
    field: str
    where: dict[str, Any] = Field(default_factory=dict)
    added: bool | None = Field(None, description="true: only rows the agent added; false: only seeded rows.")


class JudgeCheck(_Model):
    """Passes when the judge says yes for every selected row (and there is one). Without a judge it is
    reported as unjudged and does not count toward the score."""

    judge: JudgeSpec
    name: str | None = None
    weight: float = Field(1.0, gt=0)


class ToldSpec(_Model):
    """Who must be told what, by any message the agent sent them."""

    who: list[str] = Field(min_length=1, description="The people (email addresses) who must each be told.")
    facts: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Conditions on what a person received (subject and body; a forwarded message's text too), each "
        "met by some message to them: text operators such as mentions_date, mentions_amount, says, links "
        "(`any: [fact, fact]` for one of several). "
        "Typed readings default to claimed: true (asserted, not hedged or offered as one of several).",
    )
    bcc: bool = Field(True, description="A blind copy counts as telling.")
    in_thread: dict[str, Any] | None = Field(
        None,
        description="Only where the instruction asks for a reply: the facts must come in the thread of the seeded "
        "message this selects (a reply, or any message in that conversation).",
    )
    repeats: bool = Field(False, description="The same content sent twice to the same person is fine.")
    app: str = "mail"
    table: str = "messages"

    @model_validator(mode="after")
    def _people_and_facts(self) -> ToldSpec:
        for person in self.who:
            if "@" not in person or " " in person.strip():
                raise ValueError(f"who: expected email addresses such as omar@acme.test, found {person!r}")
        for fact in self.facts:
            if not fact:
                raise ValueError("facts: expected text operators such as {mentions_date: 2026-03-05}, found {}")
        return self


class ToldCheck(_Model):
    """Passes when every person in `who` received, by any delivered message (a reply, a new mail, a forward, one
    mail to all or one each), every fact; the same content twice to one person fails unless `repeats`."""

    told: ToldSpec
    name: str | None = None
    weight: float = Field(1.0, gt=0)


def _check_kind(value: Any) -> str:
    if isinstance(value, JudgeCheck) or isinstance(value, Mapping) and "judge" in value:
        return "judge"
    if isinstance(value, ToldCheck) or isinstance(value, Mapping) and "told" in value:
        return "told"
    if isinstance(value, JournalCheck) or isinstance(value, Mapping) and "journal" in value:
        return "journal"  # a mapping when loading, a model when dumping
    return "row"


Check = Annotated[
    Annotated[RowCheck, Tag("row")]
    | Annotated[JournalCheck, Tag("journal")]
    | Annotated[JudgeCheck, Tag("judge")]
    | Annotated[ToldCheck, Tag("told")],
    Discriminator(_check_kind),
]


class Stage(_Model):
    """A named, weighted group of checks; its score is the weighted share of its checks that pass."""

    name: str
    weight: float = Field(1.0, gt=0)
    checks: list[Check] = Field(min_length=1)


ChangeKind = Literal["added", "removed", "changed"]


class Forbid(_Model):
    """Something that must not happen.

    On state: `change: present` (the default) forbids any matching row in the final state; `added`,
    `removed`, `changed` forbid such a change between the seeded and the final state.
    On the journal: `call: tool` (with `args` conditions) forbids any successful call of that tool.
    """

    app: str | None = None
    table: str | None = None
    where: dict[str, Any] = Field(default_factory=dict)
    change: Literal["added", "removed", "changed", "present"] = "present"
    call: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    name: str | None = None
    # A rule on what a text says (a text operator in `where`) fails the run but zeroes the score only when the
    # scenario names it disqualifying; any other rule always does.
    disqualifying: bool | None = None

    @model_validator(mode="after")
    def _state_or_call(self) -> Forbid:
        if self.call is not None:
            if self.app or self.table or self.where:
                raise ValueError("a rule on calls takes call and args, not app, table or where")
        elif not (self.app and self.table):
            raise ValueError("give app and table (a rule on state) or call (a rule on tool calls)")
        elif self.args:
            raise ValueError("args goes with call")
        return self


class AllowRule(_Model):
    """Ordinary changes of one table that are part of the task (benign housekeeping and rows the
    agent added and then changed need no rule).

    `added: true`: new rows; `changed`: `true` for any column or a list of columns; `removed: true`:
    deleting rows. `where` narrows the rule to rows that match (the seeded or the final version).
    """

    added: bool = False
    changed: bool | list[str] = False
    removed: bool = False
    where: dict[str, Any] = Field(default_factory=dict)


TableAllow = AllowRule | list[AllowRule] | list[ChangeKind]


class ExposureRelax(_Model):
    """An exposure the task needs, e.g. mail to a customer: `to` lists addresses or `@domain`s (`link` for link sharing)."""

    app: str
    table: str | None = None
    to: list[str] = Field(min_length=1)
    where: dict[str, Any] = Field(default_factory=dict)


class DestructionRelax(_Model):
    """Seeded rows the task may destroy (delete, trash, overwrite), selected by `where` on the seeded row."""

    app: str
    table: str
    where: dict[str, Any] = Field(default_factory=dict)


class Relax(_Model):
    """Narrow exceptions to the harm rules that hold in every scenario."""

    exposure: list[ExposureRelax] = Field(default_factory=list)
    destruction: list[DestructionRelax] = Field(default_factory=list)
