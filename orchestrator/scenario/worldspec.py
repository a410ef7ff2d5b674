"""The scenario's `world:` section as models: what happens around the agent while it works.

    world:
      clock: {per_call: 2m, tools: {mail__send_message: 5m}}   # time moves with the work
      wait: {max: 4h, total: 1d}                                # bounds of the world__wait tool
      events:
        - name: priya-declines
          when: {call: mail__send_message, args: {to: {contains: priya@}}}
          delay: 20m
          app: calendar
          update: [{table: events, key: evt_sync, items: [{column: attendees, match: {email: priya@acme.test}, set: {response: declined}}]}]
      people:
        - email: priya@acme.test
          mail: [{match: {subject: {icontains: offsite}}, reply: "Thanks $persona_first, works for me.", delay: 20m}]
          invitations: busy
      user:
        answers: [{match: budget, answer: "Up to 2,000 EUR."}]
      report: true

Durations are seconds or text such as `90s`, `20m`, `1h30m`, `2d`.
This module imports only pydantic and `servers`; the engine that runs it is `orchestrator.world`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from servers.core.world import RowUpdate

GATEWAY_APP = "world"
"""The namespace of the tools the gateway itself offers: `world__wait`, `world__ask_user`, `world__report`."""
WAIT_TOOL = f"{GATEWAY_APP}__wait"
ASK_TOOL = f"{GATEWAY_APP}__ask_user"
REPORT_TOOL = f"{GATEWAY_APP}__report"
REPORT_STATUSES = ("done", "partly_done", "not_done")

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(value: Any) -> Any:
    """Seconds from `90`, `"90s"`, `"20m"`, `"1h30m"`, `"2d"`; anything else is left for pydantic to refuse."""
    if isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        parts = _DURATION.findall(text)
        if not parts or "".join(f"{n}{u}" for n, u in parts) != text:
            raise ValueError(f"{value!r} is not a duration; write seconds or e.g. '90s', '20m', '1h30m', '2d'")
        return sum(float(n) * _UNITS[u] for n, u in parts)
    return value


Duration = Annotated[float, BeforeValidator(parse_duration), Field(ge=0, le=366 * 86400)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockSteps(_Model):
    """Time that moves with the work: each tool call advances the episode's clock."""

    per_call: Duration = Field(0, description="How far each tool call moves the clock.")
    tools: dict[str, Duration] = Field(default_factory=dict, description="Per tool (`app__tool`), instead of per_call.")

    def step(self, tool: str) -> float:
        return self.tools.get(tool, self.per_call)


class WaitSpec(_Model):
    """Bounds of the `world__wait` tool."""

    max: Duration = Field(4 * 3600, gt=0, description="The longest one wait may be.")
    total: Duration = Field(24 * 3600, gt=0, description="The most an episode may wait in all.")


class CallTrigger(_Model):
    """When a successful call of `call` (`a|b` accepts either) with arguments satisfying `args` is made."""

    call: str
    args: dict[str, Any] = Field(default_factory=dict)


class StateTrigger(_Model):
    """When some row of `app.table` matches `where` (`added: true`: only rows added during the episode)."""

    app: str
    table: str
    where: dict[str, Any] = Field(default_factory=dict)
    added: bool | None = None


class Event(_Model):
    """A change to the world: at a sandbox time, after the agent's Nth call, or `delay` after `when` first holds."""

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    at: datetime | None = Field(None, description="A sandbox time (without an offset: the persona's zone).")
    after_calls: int | None = Field(None, ge=0, description="Before the agent's call number after_calls + 1.")
    when: CallTrigger | StateTrigger | None = None
    delay: Duration = 0
    app: str
    add: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="Rows in the app's seed format, by list name (messages, events, comments …)."
    )
    update: list[RowUpdate] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_trigger(self) -> Event:
        given = [k for k in ("at", "after_calls", "when") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of at, after_calls, when (found {', '.join(given) or 'none'})")
        if self.delay and self.at is not None:
            raise ValueError("delay goes with after_calls or when, not at")
        if not self.add and not self.update:
            raise ValueError("an event changes something: give add and/or update")
        return self


class MailRule(_Model):
    """Answer mail the agent sends to this person (to or cc) whose message row matches `match`."""

    match: dict[str, Any] = Field(default_factory=dict, description="Conditions on the sent message (subject, body …).")
    reply: str = Field(
        min_length=1, description="The answer's body; $first_name, $name, $persona, $persona_first, $subject."
    )
    subject: str | None = Field(None, description="Defaults to 'Re: ' and the subject of the mail answered.")
    delay: Duration = 600


class TicketRule(_Model):
    """Comment on a ticket after the agent comments on it with a comment matching `match`."""

    match: dict[str, Any] = Field(
        default_factory=dict, description="Conditions on the agent's comment (ticket_key, body)."
    )
    comment: str = Field(min_length=1)
    delay: Duration = 600


InvitationAnswer = Literal["accept", "decline", "tentative", "busy"]


class PersonSpec(_Model):
    """How one colleague behaves; each rule answers once, the first time it matches."""

    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+$")
    name: str = ""
    mail: list[MailRule] = Field(default_factory=list)
    invitations: InvitationAnswer | None = Field(
        None,
        description="How they answer an invitation the agent sends or moves; busy: decline when their calendar is busy then.",
    )
    invitation_delay: Duration = 600
    tickets: list[TicketRule] = Field(default_factory=list)

    @property
    def first_name(self) -> str:
        return (self.name or self.email.partition("@")[0]).split()[0].capitalize() if (self.name or self.email) else ""


class UserAnswer(_Model):
    """An answer `world__ask_user` gives to a question matching `match` (a case-insensitive regular expression)."""

    match: str = Field(min_length=1)
    answer: str = Field(min_length=1)

    @model_validator(mode="after")
    def _pattern(self) -> UserAnswer:
        try:
            re.compile(self.match)
        except re.error as exc:
            raise ValueError(f"match is not a regular expression: {exc}") from None
        return self


class UserModel(_Model):
    """The user played by a model (`openai:MODEL` or `anthropic:MODEL`) with a persona and private facts,
    asked only when no scripted answer matches. The key comes from OPENAI_API_KEY / ANTHROPIC_API_KEY."""

    model: str = Field(pattern=r"^(openai|anthropic):.+$")
    persona: str = Field("", description="Who the user is and how they talk.")
    facts: str = Field(min_length=1, description="What only the user knows; the model answers from these.")
    base_url: str | None = Field(
        None, description="Default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the provider's."
    )
    max_tokens: int = Field(300, ge=16, le=4000)


class UserSpec(_Model):
    """The person the agent works for, answering `world__ask_user` by scripted rules (first match wins)."""

    answers: list[UserAnswer] = Field(default_factory=list)
    otherwise: str = "I don't know — use your judgement."
    max_questions: int = Field(10, ge=1, description="More questions than this get no answer.")
    played_by: UserModel | None = Field(
        None, description="A model answers what no scripted rule matches (instead of `otherwise`)."
    )


class WorldSpec(_Model):
    """The `world:` section: moving time, wait bounds, events, people who answer, the user and the report tool."""

    clock: ClockSteps | None = None
    wait: WaitSpec = Field(default_factory=WaitSpec)
    events: list[Event] = Field(default_factory=list)
    people: list[PersonSpec] = Field(default_factory=list)
    user: UserSpec | None = None
    report: bool = Field(False, description=f"Offer {REPORT_TOOL}: the agent's final report (status and summary).")

    def lives(self) -> bool:
        """Whether anything happens on its own: events or people (the wait tool is offered then)."""
        return bool(self.events or self.people)

    def gateway_tools(self) -> list[str]:
        return [
            t
            for t, on in ((WAIT_TOOL, self.lives()), (ASK_TOOL, self.user is not None), (REPORT_TOOL, self.report))
            if on
        ]


Problems = list[tuple[tuple[str | int, ...], str]]


def problems(
    world: WorldSpec,
    apps: dict[str, Any],
    tool_problem: Callable[[tuple[str | int, ...], str], None],
    table_problem: Callable[[tuple[str | int, ...], str, str], bool],
    where_problems: Callable[[tuple[str | int, ...], str, str, dict[str, Any]], None],
    seeds: dict[str, Any],
    persona: Any,
    clock: Any,
) -> Problems:
    """What the models cannot see in `world:` (unknown apps, tables, columns, tools; seed rows an app refuses).
    The callbacks are the scenario loader's and report into its list; the rest is returned."""
    out: Problems = []
    at: tuple[str | int, ...] = ("world",)
    if world.clock:
        for tool in world.clock.tools:
            tool_problem((*at, "clock", "tools", tool), tool)
    names: set[str] = set()
    for index, event in enumerate(world.events):
        here = (*at, "events", index)
        if event.name in names:
            out.append(((*here, "name"), f"another event is already named {event.name!r}"))
        names.add(event.name)
        if event.app not in apps:
            out.append(((*here, "app"), f"app {event.app!r} is not in this scenario's apps ({', '.join(apps)})"))
            continue
        app = apps[event.app]
        if isinstance(event.when, CallTrigger):
            tool_problem((*here, "when", "call"), event.when.call)
        elif isinstance(event.when, StateTrigger):
            if not table_problem((*here, "when"), event.when.app, event.when.table):
                where_problems((*here, "when", "where"), event.when.app, event.when.table, event.when.where)
        if app is None:
            continue
        for u_index, update in enumerate(event.update):
            u_at = (*here, "update", u_index)
            if update.table not in app.tables:
                out.append(
                    (
                        (*u_at, "table"),
                        f"app {event.app!r} has no table {update.table!r}; tables are: {', '.join(app.tables)}",
                    )
                )
                continue
            table = app.tables[update.table]
            if update.key is None and not update.where:
                out.append((u_at, "give key or where: which rows the event changes"))
            for column in [*update.where, *update.set, *update.append, *(p.column for p in update.items)]:
                if column not in table.columns:
                    out.append(
                        (u_at, f"{update.table} has no column {column!r}; columns are: {', '.join(table.columns)}")
                    )
            for column in [*update.append, *(p.column for p in update.items)]:
                if column in table.columns and column not in table.json_columns:
                    out.append((u_at, f"{update.table}.{column} is not a JSON list column"))
        if event.add:
            out += _add_problems(here, event, app, seeds.get(event.app) or {}, persona, clock)
    emails: set[str] = set()
    for index, person in enumerate(world.people):
        here = (*at, "people", index)
        if person.email.lower() in emails:
            out.append(((*here, "email"), f"{person.email} is already described; give each person one entry"))
        emails.add(person.email.lower())
        for kind, app in (("mail", "mail"), ("invitations", "calendar"), ("tickets", "tickets")):
            if getattr(person, kind) and app not in apps:
                out.append(((*here, kind), f"{kind} rules need the {app} app in this scenario's apps"))
        for r_index, rule in enumerate(person.mail):
            if "mail" in apps:
                where_problems((*here, "mail", r_index, "match"), "mail", "messages", rule.match)
        for r_index, ticket_rule in enumerate(person.tickets):
            if "tickets" in apps:
                where_problems((*here, "tickets", r_index, "match"), "tickets", "comments", ticket_rule.match)
    return out


def _add_problems(
    here: tuple[str | int, ...], event: Event, app: Any, seed: dict[str, Any], persona: Any, clock: Any
) -> Problems:
    """An event's rows, checked as the app will load them: after the scenario's own seed rows."""
    from servers.core import SeedError
    from servers.core.sandbox import check_seed
    from servers.core.world import NOW_FIELDS, row_model

    out: Problems = []
    combined = dict(seed)
    for name, rows in event.add.items():
        model = row_model(app.seed_model, name)
        if model is None:
            lists = [n for n in app.seed_model.model_fields if row_model(app.seed_model, n)]
            out.append(
                (
                    (*here, "add", name),
                    f"the {event.app} seed has no list of rows {name!r}; lists are: {', '.join(lists)}",
                )
            )
            continue
        stamp = {f: clock.start.isoformat() for f in NOW_FIELDS if f in model.model_fields}
        combined[name] = [*(seed.get(name) or []), *({**stamp, **r} if isinstance(r, dict) else r for r in rows)]
    if out:
        return out
    try:
        check_seed(app, combined, persona=persona, clock=clock)
    except SeedError as exc:
        for problem in exc.problems:
            parts = list(problem.parts or [])
            if (
                len(parts) >= 2
                and parts[0] in event.add
                and isinstance(parts[1], int)
                and parts[1] >= len(seed.get(parts[0]) or [])
            ):
                parts[1] -= len(seed.get(parts[0]) or [])
                out.append(((*here, "add", *parts), f"{event.app} seed: {problem.message}"))
            elif not parts:
                out.append(((*here, "add"), f"{event.app} seed: {problem.loc}: {problem.message}"))
    return out
