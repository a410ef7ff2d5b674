"""Changes the world makes to a live sandbox: a colleague's mail, a declined invitation, a comment.

An operation (`WorldChange`) adds rows written in the app's own seed format
(validated and loaded by the same seed model and loader as the scenario's
seed) and updates existing rows by key or by column values. It runs in one
transaction and is journaled as the world's, not as a tool call: the entry
has an empty tool name and `world: <event name>`, and the row changes it made
hang off it like a call's, so the verifier can tell them apart.

How added rows are built: as a load of the scenario's seed with the event's
rows listed after its own would build them, under an id seed derived from the
event's name (so generated ids never collide with the ones the agent's calls
get). An app with `load_more` loads only the event's rows, on top of a copy of
the sandbox's seeded state (its image): what they cost is about what the
event's own rows cost. Otherwise the seed with the event's rows and the seed
alone are loaded into throwaway sandboxes, and the rows the first has and the
second lacks are the event's.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from servers.core.app import Problem, SandboxSpec, SeedError
from servers.core.clock import ClockSpec

if TYPE_CHECKING:
    from servers.core.sandbox import Sandbox

CLOCK_META = "clawgym.dev/now"
"""The `_meta` key of a tool call carrying the episode's time; a sandbox that follows the caller's clock moves to it."""


NOW_FIELDS = ("sent_at", "created_at")
"""Seed fields an event's row gets the event's time in, when it leaves them out."""


def row_model(seed_model: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The model of one row of the seed's list `name` (`messages` → `MessageSeed`), or None."""
    field = seed_model.model_fields.get(name)
    if field is None:
        return None
    args = get_args(field.annotation)
    item = args[0] if args else None
    return item if isinstance(item, type) and issubclass(item, BaseModel) else None


class ItemPatch(BaseModel):
    """Change the items of a JSON list column that match (an attendee's response, a share's role)."""

    model_config = ConfigDict(extra="forbid")

    column: str
    match: dict[str, Any] = Field(min_length=1)
    set: dict[str, Any] = Field(min_length=1)


class RowUpdate(BaseModel):
    """Rows of `table` selected by `key` or by `where` (column equality), given new column values."""

    model_config = ConfigDict(extra="forbid")

    table: str
    key: Any = None
    where: dict[str, Any] = Field(default_factory=dict)
    set: dict[str, Any] = Field(default_factory=dict)
    items: list[ItemPatch] = Field(default_factory=list)
    append: dict[str, Any] = Field(
        default_factory=dict, description="column → an item appended to that JSON list column."
    )


class WorldChange(BaseModel):
    """One world event's changes to one app."""

    model_config = ConfigDict(extra="forbid")

    event: str = Field(min_length=1, max_length=200)
    at: AwareDatetime | None = Field(None, description="Move the sandbox clock to this time first (never back).")
    follow_clock: bool | None = Field(
        None, description=f"Make the sandbox follow the time tool calls carry in _meta[{CLOCK_META!r}]."
    )
    add: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="Seed-format rows, by the seed's list name."
    )
    update: list[RowUpdate] = Field(default_factory=list)


class WorldError(ValueError):
    """World events that cannot apply to a sandbox, one problem each."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p.loc}: {p.message}" for p in problems))


def _problem(loc: str, message: str) -> WorldError:
    return WorldError([Problem(loc=loc, message=message)])


def event_rows(
    sandbox: Sandbox, event: str, add: Mapping[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """The rows `add` makes, by table, as the app's seed loader builds them at the sandbox's current time: the rows
    a load of the scenario's seed with them listed after its own makes beyond the seed's, under an id seed derived
    from the event's name, their references to seeded rows naming the sandbox's."""
    rows: dict[str, list[Any]] = {}
    for name, listed in add.items():
        model = row_model(sandbox.app.seed_model, name)
        if model is None:
            lists = [n for n in sandbox.app.seed_model.model_fields if row_model(sandbox.app.seed_model, n)]
            raise _problem(
                f"add.{name}",
                f"the {sandbox.app.name} seed has no list of rows {name!r}; lists are: {', '.join(lists)}",
            )
        rows[name] = [
            {**{f: sandbox.now_iso() for f in NOW_FIELDS if f in model.model_fields}, **row}
            if isinstance(row, dict)
            else row
            for row in listed
        ]  # a colleague's mail or comment is written when the event happens, unless the row says otherwise
    salt = int.from_bytes(
        hashlib.blake2s(f"{sandbox.spec.rng_seed}/world/{event}".encode(), digest_size=6).digest(), "big"
    )
    now = ClockSpec(start=sandbox.now(), mode="frozen")
    if sandbox.app.load_more is not None:
        made = _rows_on_seeded(sandbox, rows, salt, now)
        if made is not None:
            return made
    return _rows_by_seeding(sandbox, rows, salt, now)


def _rows_on_seeded(
    sandbox: Sandbox, rows: dict[str, list[Any]], salt: int, now: ClockSpec
) -> dict[str, list[dict[str, Any]]] | None:
    """`event_rows` loaded by the app's `load_more` on top of a copy of the sandbox's seeded state, under the
    event's id seed at `now`: the seed's id counters, threads, keys and names are there as its load left them, so
    the rows come out as a load of the seed with them would make them, and their references to seeded rows name the
    sandbox's at once. None when `load_more` cannot load them so."""
    app = sandbox.app
    assert app.load_more is not None
    try:
        data = app.validate_seed(rows)
    except SeedError as exc:
        raise _world_error(exc, rows, {}) from None
    scratch = sandbox.seeded_copy(sandbox.spec.model_copy(update={"clock": now, "rng_seed": salt}))
    try:
        with scratch.transaction():
            try:
                if not app.load_more(scratch, data):
                    return None
            except SeedError as exc:
                raise _world_error(exc, rows, {}) from None
        out: dict[str, list[dict[str, Any]]] = {}
        for name, table in app.tables.items():
            made = scratch.db.execute(
                f'SELECT * FROM "{name}" WHERE "{table.key}" IN '
                "(SELECT key FROM _changes WHERE tbl = ? AND op = 'insert') ORDER BY rowid",
                (name,),
            ).fetchall()
            if made:
                out[name] = [table.decode(row) for row in made]
        return out
    finally:
        scratch.close()


def _world_error(exc: SeedError, rows: Mapping[str, list[Any]], before: Mapping[str, int]) -> WorldError:
    """A seed's problems as the event's: one in a list of `rows` names the event's own row (`before`: how many of
    that list's rows came before the event's in the seed that was loaded)."""
    problems = []
    for p in exc.problems:
        parts = list(p.parts or [])
        if len(parts) >= 2 and isinstance(parts[0], str) and parts[0] in rows and isinstance(parts[1], int):
            parts[1] -= before.get(parts[0], 0)
            loc = ".".join(str(x) for x in ["add", *parts])
        else:
            loc = p.loc
        problems.append(Problem(loc=loc, message=p.message))
    return WorldError(problems)


def _rows_by_seeding(
    sandbox: Sandbox, rows: dict[str, list[Any]], salt: int, now: ClockSpec
) -> dict[str, list[dict[str, Any]]]:
    """`event_rows` by loading whole seeds into throwaway sandboxes: the scratch's seed with `rows` after its own
    and the seed alone, both under the event's id seed; the rows the first has and the second lacks are the
    event's, with the values the seeded rows were generated under that id seed named as the sandbox's."""
    from servers.core.sandbox import Sandbox

    seed = dict(sandbox.spec.seed)
    combined = dict(seed)
    for name, listed in rows.items():
        combined[name] = [*(seed.get(name) or []), *listed]
    counts = {name: len(seed.get(name) or []) for name in rows}

    def build(data: dict[str, Any], clock: ClockSpec = now, rng_seed: int = salt) -> dict[str, list[dict[str, Any]]]:
        spec = SandboxSpec(seed=data, persona=sandbox.persona, clock=clock, rng_seed=rng_seed)
        try:
            scratch = Sandbox.create(sandbox.app, "world", spec)
        except SeedError as exc:
            raise _world_error(exc, rows, counts) from None
        try:
            return scratch.snapshot()
        finally:
            scratch.close(reuse=True)

    before, after = build(seed, sandbox.spec.clock), build(combined)
    # The seeded rows' generated values (a thread id, say) under this id seed, mapped to the live sandbox's,
    # so an event row pointing at a seeded row points at the live one.
    live = getattr(sandbox, "_world_seeded", None)
    if live is None:
        live = sandbox._world_seeded = build(seed, sandbox.spec.clock, sandbox.spec.rng_seed)  # type: ignore[attr-defined]  # the built world, cached on the sandbox
    renamed: dict[str, str] = {}
    for table, table_rows in before.items():
        for mine, theirs in zip(table_rows, live.get(table, []), strict=False):
            for column, value in mine.items():
                if isinstance(value, str) and value != theirs.get(column) and isinstance(theirs.get(column), str):
                    renamed[value] = theirs[column]
    out: dict[str, list[dict[str, Any]]] = {}
    for table, table_rows in after.items():
        key = sandbox.app.tables[table].key
        known = {r[key] for r in before.get(table, [])}
        new = [_renamed(r, renamed) for r in table_rows if r[key] not in known]
        if new:
            out[table] = new
    return out


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    return value


def apply(sandbox: Sandbox, change: WorldChange) -> dict[str, Any]:
    """Apply one world change (the caller holds the sandbox's lock); returns its journal seq and what it did."""
    started = time.perf_counter()
    if change.follow_clock is not None:
        sandbox.set_follow_clock(change.follow_clock)
    if change.at is not None and change.at > sandbox.now():
        sandbox.set_clock(to=change.at)
    if not change.add and not change.update:
        return {"seq": None, "added": 0, "updated": 0, "now": sandbox.now_iso()}
    rows = event_rows(sandbox, change.event, change.add) if change.add else {}
    added = updated = 0
    with sandbox.transaction():
        for table, table_rows in rows.items():
            definition = sandbox.app.tables[table]
            for row in table_rows:
                existing = sandbox.get(table, row[definition.key])
                if existing is not None:
                    if existing == row:
                        continue
                    raise _problem(
                        f"add.{table}", f"a {table} row with {definition.key} {row[definition.key]!r} already exists"
                    )
                sandbox.insert(table, row)
                added += 1
        for index, update in enumerate(change.update):
            updated += _update(sandbox, f"update[{index}]", update)
        seq = sandbox.record(
            tool="",
            arguments={"event": change.event},
            result={"added": added, "updated": updated},
            error=None,
            is_error=False,
            latency_ms=(time.perf_counter() - started) * 1000,
            wall=datetime.now(UTC),
        )
    return {"seq": seq, "added": added, "updated": updated, "now": sandbox.now_iso()}


def _update(sandbox: Sandbox, at: str, update: RowUpdate) -> int:
    table = sandbox.app.tables.get(update.table)
    if table is None:
        raise _problem(
            f"{at}.table",
            f"app {sandbox.app.name!r} has no table {update.table!r}; tables are: {', '.join(sandbox.app.tables)}",
        )
    named = [*update.where, *update.set, *update.append, *(p.column for p in update.items)]
    unknown = [c for c in named if c not in table.columns]
    if unknown:
        raise _problem(
            at, f"{update.table} has no column(s) {', '.join(unknown)}; columns are: {', '.join(table.columns)}"
        )
    if table.key in update.set:
        raise _problem(f"{at}.set", f"the key column {table.key!r} cannot be changed")
    for column in [*update.append, *(p.column for p in update.items)]:
        if column not in table.json_columns:
            raise _problem(at, f"{update.table}.{column} is not a JSON list column")
    if update.key is not None:
        row = sandbox.get(update.table, update.key)
        rows = [row] if row is not None else []
    else:
        clauses = " AND ".join(f'"{c}" = ?' for c in update.where)
        rows = sandbox.select(update.table, clauses, list(table.encode(update.where).values()))
    for row in rows:
        values = dict(update.set)
        for patch in update.items:
            items = [dict(i) if isinstance(i, dict) else i for i in (row.get(patch.column) or [])]
            for item in items:
                if isinstance(item, dict) and all(item.get(k) == v for k, v in patch.match.items()):
                    item.update(patch.set)
            values[patch.column] = items
        for column, item in update.append.items():
            values[column] = [*(values.get(column, row.get(column)) or []), item]
        if values:
            sandbox.update(update.table, row[table.key], values)
    return len(rows)
