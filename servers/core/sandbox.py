"""A sandbox: one SQLite database of an app's state, seeded once and reset by restoring that image.

A sandbox's database holds the app's tables plus the core's own (`servers.core.images`: metadata, id counters,
the journal and the change log, whose triggers are installed after seeding so the seed itself logs nothing).
Snapshots show only the app's tables; the journal's reading and writing is `servers.core.journal`.

In memory, the seeded image is kept as serialized bytes and a reset is one `deserialize`; a new sandbox starts
from its app's empty image (tables and triggers built once), on a connection an earlier sandbox of the app used
and gave back emptied when it was deleted (`servers.core.images.EmptyDatabases`: no schema to read, statements
already compiled), or, for a spec seeded before in this process, from that spec's seeded image
(`servers.core.images.SeedImages`). On disk (`DATA_DIR/<id>/state.db` beside
`seed.db`), a reset copies the seed database over the state with SQLite's backup API, and both files survive a
restart of the process. `check_seed` loads a seed into a throwaway sandbox to find what a sandbox would refuse
(so loading a scenario imports this module, which imports no MCP SDK: the `ToolError` a call fails with is the
core's own, `servers.core.errors`).

May import `servers.core.app`, `errors`, `clock`, `faults`, `limits`, `images`, `journal` and `rows`; never the store or a transport.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import BaseModel

from servers.core import journal
from servers.core.app import App, Persona, Problem, SandboxSpec, SeedError
from servers.core.clock import Clock, ClockSpec
from servers.core.faults import FaultPlan, FaultState
from servers.core.images import (
    CHANGES_SCHEMA,
    CORE_SCHEMA,
    EMPTY_DATABASES,
    SEED_IMAGES,
    WARM_DATABASES,
    Decoded,
    connect,
    image_keys,
    spec_text,
)
from servers.core.rows import SandboxRows

if TYPE_CHECKING:
    from servers.core.schema import Table

log = logging.getLogger("clawgym.sandbox")

PARK_MIN_BYTES = 512 * 1024
"""A database seeded for one episode seed only is parked for a later episode of that seed when it is at least this
large (seeding it again would cost more than keeping it); a smaller one is emptied for the app's next sandbox."""

_CLOSED = sqlite3.connect(":memory:", check_same_thread=False)
_CLOSED.close()
"""What a closed sandbox's `db` is once its connection went back to `EMPTY_DATABASES`: any use of it fails as
on a closed connection, instead of reaching the sandbox that has it now."""


@dataclass
class Seeded:
    """What putting an in-memory sandbox back to its seeded state needs (`Sandbox.restore_seeded`), taken when it
    was seeded: each app table's largest rowid (every row past it is new), and the core's small tables as they
    were (metadata and id counters)."""

    max_rowids: dict[str, int]
    meta: list[tuple[str, str]]
    counters: list[tuple[str, int]]

    @classmethod
    def of(cls, app: App, db: sqlite3.Connection) -> Seeded:
        return cls(
            max_rowids={name: db.execute(f'SELECT max(rowid) FROM "{name}"').fetchone()[0] or 0 for name in app.tables},
            meta=[(k, v) for k, v in db.execute("SELECT key, value FROM _meta ORDER BY rowid")],
            counters=[(p, n) for p, n in db.execute("SELECT prefix, n FROM _counters ORDER BY rowid")],
        )


SET_META = "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


@dataclass
class Parked:
    """A sandbox's database rolled back to its seeded state and kept for the next sandbox of an equal spec
    (`servers.core.images.WarmDatabases`)."""

    conn: sqlite3.Connection
    image: bytes | None
    seeded: Seeded
    seeded_rows: Decoded | None

    def close(self) -> None:
        self.conn.close()


class Sandbox(SandboxRows):
    """One isolated copy of an app's state, with its own clock, journal and fault plan.

    Tools receive the sandbox as their first argument and use its row helpers (`get`, `require`, `select`, `insert`,
    `update`, `delete`), its clock (`now`, `now_iso`) and `new_id`, all from `servers.core.rows.SandboxRows`; `db` is
    there for anything else."""

    def __init__(
        self,
        app: App,
        sandbox_id: str,
        conn: sqlite3.Connection,
        spec: SandboxSpec,
        clock: Clock,
        faults: FaultPlan,
        directory: Path | None,
        image: bytes | None,
    ) -> None:
        self.app = app
        self.id = sandbox_id
        self.db = conn
        self.spec = spec
        self.clock = clock
        self.faults = faults
        self.directory = directory
        self._image = image
        self.access: dict[str, Any] = {}
        """Who may reach it and who made it: `secret_sha256`, `generation`, `owner`, `created` (see `set_access`)."""
        # Calls to one sandbox are serialized so each runs in its own transaction and the journal order is the order
        # in which state changed. Taken without a trip through the event loop when no other call holds it (the
        # common case: an agent's calls to its sandbox come one at a time).
        self.lock = anyio.Lock(fast_acquire=True)
        self.deadline: float | None = None
        """`budget_clock()` by which the running tool call must end (None outside a call)."""
        self.budget_clock: Callable[[], float] = time.monotonic
        """What `deadline` is measured on: wall time, or the thread's CPU time for a call's slice on the event loop
        (`servers.core.mcp`), so a call the machine paused is not taken for a heavy one."""
        self.budget: float = 0.0
        """The running call's time budget in seconds, for messages."""
        self.fault_state = FaultState()
        """Open rate-limit and downtime windows of the fault plan (cleared by `reset` and `set_faults`)."""
        self.stale_s: float | None = None
        """During a read hit by a `stale_read` fault: how old the state it sees is (see `hide_recent_changes`)."""
        self.stale_hidden = 0
        """How many row changes that read did not see."""
        self._ids_drawn = False
        """Whether `new_id` was called (while seeding: whether the seeded image depends on the episode seed)."""
        self.seed_key: str | None = None
        """The key of the seeded image this sandbox started from in `SEED_IMAGES` (None: not kept there)."""
        self._seeded_rows: Decoded | None = None
        """That image's rows decoded (`SeedImages.decoded`), once a snapshot decoded them."""
        self.follows_clock = False
        """Whether tool calls' `_meta` time moves the clock (set by the orchestrator for a world whose time moves with the work)."""
        self.in_threads = 0
        """Tool calls of this sandbox running in a worker thread now (`servers.core.mcp`): while there are any, its
        connection is not handed to another sandbox, whatever `close` is told."""
        self._seeded_state: Seeded | None = None
        """How to put the database back to its seeded state by rolling back what changed (`restore_seeded`); None:
        it is reset by copying the seeded image (on disk, or a clock not frozen)."""
        self._park = False
        """Whether `close(reuse=True)` rolls it back and parks it for the next sandbox of its spec (`WarmDatabases`):
        when any episode seed can use it (its seed drew no ids), or it is large enough to be worth keeping for a
        later episode of its own seed (`PARK_MIN_BYTES`); else its connection is emptied for the app's next sandbox."""
        self._reusable = directory is None
        """Whether `close(reuse=True)` may keep the connection for another sandbox: in memory, and not reset (a
        `deserialize` over statements compiled against the database it replaced)."""

    # -- building -------------------------------------------------------------

    @classmethod
    def create(cls, app: App, sandbox_id: str, spec: SandboxSpec, directory: Path | None = None) -> Sandbox:
        """Build and seed a sandbox; raises `SeedError` for seed data the app refuses.

        In memory, a sandbox built from the same app and an equal spec as an earlier one (frozen clock)
        starts from that one's seeded image (see `SeedImages`) instead of validating and loading the seed again.
        """
        key = loose = None
        if directory is None and spec.clock.mode == "frozen":
            key, loose = image_keys(spec)
            for found in (key, loose):
                parked = WARM_DATABASES.take(app, found)
                if parked is not None:
                    return cls._from_parked(app, sandbox_id, spec, found, parked)
            for found in (key, loose):
                image = SEED_IMAGES.get(app, found)
                if image is not None:
                    sandbox = cls._from_image(app, sandbox_id, spec, image)
                    sandbox.seed_key = found
                    sandbox._seeded_state = Seeded.of(app, sandbox.db)
                    sandbox._park = found == loose or len(image) >= PARK_MIN_BYTES
                    return sandbox
        text = spec_text(spec.model_dump(mode="json"))
        started = time.perf_counter()
        seed = app.validate_seed(spec.seed)
        # In memory: the empty tables with the change log's triggers, built once per app, on a connection
        # another sandbox may have used (`EmptyDatabases`); the seed's own row changes are logged and then
        # dropped, so the seed itself logs nothing.
        conn = EMPTY_DATABASES.take(app) if directory is None else connect(directory / "state.db")
        try:
            if directory is not None:
                conn.executescript(app.schema + CORE_SCHEMA)
            sandbox = cls(app, sandbox_id, conn, spec, Clock(spec.clock), FaultPlan(), directory, None)
            with sandbox.transaction():
                sandbox._write_meta("spec", text=text)
                sandbox._write_meta("rng_seed", spec.rng_seed)
                sandbox._write_meta("clock", sandbox.clock.state())
                sandbox._write_meta("faults", sandbox.faults.model_dump(mode="json"))
                try:
                    app.load_seed(sandbox, seed)
                except SeedError as exc:
                    raise exc.naming_rows_of(spec.seed) from None
                if directory is None:
                    conn.execute("DELETE FROM _changes")
                    for name in app.tables:  # rows the loader updated or deleted: no episode's to undo
                        conn.execute(f'DELETE FROM "_undo_{name}"')
            if directory is not None:
                conn.executescript(CHANGES_SCHEMA + app.change_triggers)
            if directory is None:
                sandbox._image = conn.serialize()
                if key is not None and loose is not None:
                    # A seed that drew no ids does not depend on the episode seed: its image serves any.
                    sandbox.seed_key = key if sandbox._ids_drawn else loose
                    cost_s = time.perf_counter() - started
                    SEED_IMAGES.put(app, sandbox.seed_key, sandbox._image, cost_s=cost_s)
                    sandbox._seeded_state = Seeded.of(app, conn)
                    sandbox._park = sandbox.seed_key == loose or len(sandbox._image) >= PARK_MIN_BYTES
            else:
                file = connect(directory / "seed.db")
                conn.backup(file)
                file.close()
        except BaseException:
            conn.close()
            raise
        return sandbox

    @classmethod
    def _from_image(cls, app: App, sandbox_id: str, spec: SandboxSpec, image: bytes) -> Sandbox:
        """A sandbox in memory from the seeded image of an equal spec (but, for a seed that drew no ids, its episode
        seed): the same tables, counters and change-log triggers, an empty journal and change log, the default fault
        plan, a clock started now, and its own episode seed (`_meta.rng_seed`: the stored spec is the image's)."""
        conn = connect(":memory:")
        try:
            conn.deserialize(image)
            sandbox = cls(app, sandbox_id, conn, spec, Clock(spec.clock), FaultPlan(), None, image)
            with sandbox.transaction():
                sandbox._write_meta("rng_seed", spec.rng_seed)
                sandbox._write_meta("clock", sandbox.clock.state())
        except BaseException:
            conn.close()
            raise
        return sandbox

    @classmethod
    def _from_parked(cls, app: App, sandbox_id: str, spec: SandboxSpec, key: str, parked: Parked) -> Sandbox:
        """A sandbox on a parked database (`WarmDatabases`), as `_from_image` would have made it from the image."""
        sandbox = cls(app, sandbox_id, parked.conn, spec, Clock(spec.clock), FaultPlan(), None, parked.image)
        sandbox.seed_key, sandbox._seeded_state, sandbox._seeded_rows = key, parked.seeded, parked.seeded_rows
        sandbox._park = True
        try:
            with sandbox.transaction():
                sandbox._write_meta("rng_seed", spec.rng_seed)
                sandbox._write_meta("clock", sandbox.clock.state())
            # rolled back to this episode seed from now on (a seed that drew no ids serves any)
            parked.seeded.meta = [(k, str(spec.rng_seed) if k == "rng_seed" else v) for k, v in parked.seeded.meta]
        except BaseException:
            parked.conn.close()
            raise
        return sandbox

    @classmethod
    def open(cls, app: App, sandbox_id: str, directory: Path) -> Sandbox:
        """Reopen a sandbox kept on disk, with its state, clock and fault plan as they were."""
        conn = connect(directory / "state.db")
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_changes'").fetchone():
            # Kept by an older version: add the change log to the state and to the seed image.
            for db in (conn, image := connect(directory / "seed.db")):
                db.executescript(CHANGES_SCHEMA + app.change_triggers)
            image.close()
        meta = {r["key"]: json.loads(r["value"]) for r in conn.execute("SELECT key, value FROM _meta")}
        sandbox = cls(
            app,
            sandbox_id,
            conn,
            SandboxSpec.model_validate(meta["spec"]),
            Clock.from_state(meta["clock"]),
            FaultPlan.model_validate(meta.get("faults", {})),
            directory,
            None,
        )
        sandbox.access = meta.get("access", {})
        sandbox.follows_clock = bool(meta.get("follows_clock", False))
        return sandbox

    def seeded_copy(self, spec: SandboxSpec) -> Sandbox:
        """A throwaway in-memory sandbox of this one's seeded state (its image, or seed file on disk) under `spec`."""
        conn = connect(":memory:")
        if self._image is not None:
            conn.deserialize(self._image)
        else:  # on disk
            with contextlib.closing(sqlite3.connect(Path(str(self.directory)) / "seed.db")) as file:
                file.backup(conn)
        return Sandbox(self.app, f"{self.id}/seeded", conn, spec, Clock(spec.clock), FaultPlan(), None, None)

    def _write_meta(self, key: str, value: Any = None, *, text: str | None = None) -> None:
        """Store `value` (or `text`, a value already written as JSON) under `key` in the sandbox's own table."""
        self.db.execute(SET_META, (key, text if text is not None else json.dumps(value)))

    # -- lifecycle --------------------------------------------------------------

    def reset(self) -> None:
        """Back to the seeded state: tables, counters and journal; the clock restarts."""
        if self._seeded_state is not None:
            self.restore_seeded()
        elif self._image is not None:
            self._reusable = False
            self.db.deserialize(self._image)
        else:
            assert self.directory is not None
            image = sqlite3.connect(self.directory / "seed.db")
            image.backup(self.db)
            image.close()
        self.clock.restart()
        self.fault_state = FaultState()
        with self.transaction():
            self._write_meta("clock", self.clock.state())
            self._write_meta("faults", self.faults.model_dump(mode="json"))
            self._write_meta("access", self.access)
            self._write_meta("follows_clock", self.follows_clock)

    def restore_seeded(self) -> None:
        """Put the tables, the id counters, the metadata, the journal and the change log back as they were seeded,
        by undoing only what changed since (`servers.core.schema.Table.undo_schema`), and the clock and the fault
        plan's open windows with them: the state a sandbox seeded afresh from this spec starts in. In one
        transaction, between calls (the caller holds the lock)."""
        state = self._seeded_state
        assert state is not None, "only a sandbox seeded in memory with a frozen clock is restored this way"
        db = self.db
        if db.in_transaction:
            db.execute("ROLLBACK")
        with self.transaction():
            for name, table in self.app.tables.items():
                undo, top = f'"_undo_{name}"', state.max_rowids[name]
                columns = ", ".join(f'"{c}"' for c in table.columns)
                # Rows touched (their first state kept), then rows added; deleting those logs them in the undo table
                # too, past the seeded rowids, so only the seeded ones are put back.
                db.execute(f'DELETE FROM "{name}" WHERE rowid IN (SELECT _rid FROM {undo})')
                db.execute(f'DELETE FROM "{name}" WHERE rowid > ?', (top,))
                db.execute(
                    f'INSERT INTO "{name}" (rowid, {columns}) SELECT _rid, {columns} FROM {undo} '
                    "WHERE _existed AND _rid <= ? ORDER BY _rid",
                    (top,),
                )
                db.execute(f"DELETE FROM {undo}")
            for core in ("_journal", "_changes", "_counters"):
                db.execute(f"DELETE FROM {core}")
            db.executemany("INSERT INTO _counters (prefix, n) VALUES (?, ?)", state.counters)
            # The stored spec (a whole world's seed as JSON, megabytes) is written once, when seeded: kept as it is.
            keys = json.dumps([key for key, _ in state.meta])
            db.execute("DELETE FROM _meta WHERE key NOT IN (SELECT value FROM json_each(?))", (keys,))
            db.executemany(SET_META, [(key, value) for key, value in state.meta if key != "spec"])
        self.clock.restart()
        self.fault_state = FaultState()
        self.stale_s, self.stale_hidden, self.deadline = None, 0, None

    def set_access(self, *, secret: str | None, owner: str | None = None) -> None:
        """Require `secret` on the sandbox's MCP endpoint (None: no secret opens it) and tag who made it.

        Only the secret's digest is kept. `generation` is new on every call, so a
        session opened before a sandbox was rebuilt under the same id does not
        carry over to the new one.
        """
        self.access = {
            "secret_sha256": None if secret is None else hashlib.sha256(secret.encode()).hexdigest(),
            "generation": secrets.token_hex(8),
            "owner": owner,
            "created": time.time(),
        }
        with self.transaction():
            self._write_meta("access", self.access)

    def admits(self, secret: str | None) -> bool:
        """Whether `secret` is this sandbox's; a sandbox without one admits nobody this way."""
        digest = self.access.get("secret_sha256")
        if digest is None or secret is None:
            return False
        return hmac.compare_digest(hashlib.sha256(secret.encode()).hexdigest(), digest)

    def set_clock(self, *, advance: float | None = None, to: datetime | None = None) -> None:
        """Move the clock to `to`, then by `advance` seconds, and store it."""
        if to is not None:
            self.clock.set(to)
        if advance is not None:
            self.clock.advance(advance)
        self._write_meta("clock", self.clock.state())

    def set_follow_clock(self, follow: bool) -> None:
        """Whether tool calls' `_meta` time moves the clock from now on."""
        self.follows_clock = follow
        self._write_meta("follows_clock", follow)

    def follow_clock(self, when: Any) -> None:
        """Move the clock to the time a tool call carries, when this sandbox follows it; never back."""
        if not self.follows_clock or not isinstance(when, str):
            return
        try:
            target = datetime.fromisoformat(when)
        except ValueError:
            return
        if target.tzinfo is not None and target > self.now():
            self.set_clock(to=target)

    def set_faults(self, plan: FaultPlan) -> None:
        """Replace the fault plan; its open windows close."""
        self.faults = plan
        self.fault_state = FaultState()
        self._write_meta("faults", plan.model_dump(mode="json"))

    def close(self, *, reuse: bool = False) -> None:
        """Close the database connection. `reuse`: the caller knows nothing uses it any more (no tool call is in
        flight: it holds the sandbox's lock, or the sandbox was never shared), so an in-memory one is emptied and
        kept for the app's next sandbox (`EmptyDatabases`), or, seeded under a kept image's key, rolled back to its
        seeded state and parked for the next sandbox of that key (`WarmDatabases`); this sandbox's `db` is then a
        closed connection."""
        db, self.db = self.db, _CLOSED
        if (
            reuse
            and self._park
            and self._seeded_state is not None
            and self.seed_key is not None
            and not self.in_threads
        ):
            self.db = db  # rolled back and parked for the next sandbox of its spec (`WarmDatabases`)
            try:
                self.restore_seeded()
                parked = Parked(db, self._image, self._seeded_state, self._seeded_rows)
                if WARM_DATABASES.give(self.app, self.seed_key, parked, db):
                    return
            except sqlite3.Error as error:
                log.error(
                    "sandbox %r could not be rolled back to its seeded state (%s); closed instead", self.id, error
                )
            else:
                if self._reusable:  # not kept for its spec: emptied for the app's next sandbox
                    EMPTY_DATABASES.give(self.app, db)
                else:
                    db.close()
                return
            finally:
                self.db = _CLOSED
            db.close()
        elif reuse and self._reusable and not self.in_threads:
            EMPTY_DATABASES.give(self.app, db)
        else:
            db.close()

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every app table as `{table: [rows]}`, rows in insertion order, JSON columns decoded.

        The rows are read-only all the way down (`servers.core.schema.FrozenDict`: a change raises `TypeError`), so
        no reader can change what another reads and none is copied: each caller gets lists of its own holding
        shared rows. A sandbox seeded from a kept image hands out the seeded rows decoded once per image
        (`SeedImages.decoded`) and reads from its database only the rows changed since it was seeded: those its
        undo tables name (updated or deleted, `servers.core.schema.Table.undo_schema`) and those past the seeded
        rowids (inserted)."""
        kept = self._seeded()
        state = self._seeded_state
        if kept is not None and state is not None:
            if self._pristine():
                return {name: list(rows.values()) for name, rows in kept.items()}
            return {
                name: list(self._all(name, table).values())
                if table.rowid_key
                else self._changed(name, table, kept[name], state.max_rowids[name])
                for name, table in self.app.tables.items()
            }
        pristine = self.seed_key is not None and state is not None and self._pristine()
        fresh: Decoded = {}
        tables: dict[str, list[dict[str, Any]]] = {}
        for name, table in self.app.tables.items():
            rows = fresh[name] = self._all(name, table)
            tables[name] = list(rows.values())
        if pristine and self.seed_key is not None:
            SEED_IMAGES.put_decoded(self.app, self.seed_key, fresh)
            self._seeded_rows = fresh
        return tables

    def _decoded(self, sql: str, table: Table, params: tuple[Any, ...] = ()) -> dict[int, dict[str, Any]]:
        """The rows `sql` selects (`*, rowid` of `table`) decoded read-only, by rowid."""
        cursor = self.db.cursor()
        cursor.row_factory = None  # plain tuples: the columns in order, then the rowid
        return table.frozen_rows(cursor.execute(sql, params))  # type: ignore[return-value]  # FrozenDict rows are dicts

    def _all(self, name: str, table: Table) -> dict[int, dict[str, Any]]:
        """Every row of the table `name` decoded read-only, by rowid."""
        return self._decoded(f'SELECT *, rowid FROM "{name}" ORDER BY rowid', table)

    def _changed(self, name: str, table: Table, seeded: dict[int, dict[str, Any]], top: int) -> list[dict[str, Any]]:
        """A table's rows now: the seeded ones, less those changed since seeding, with what the database holds now
        for each changed rowid and every rowid past the seeded ones, in rowid order."""
        undo = f'"_undo_{name}"'
        touched = {r[0] for r in self.db.execute(f"SELECT _rid FROM {undo}")}
        now = self._decoded(
            f'SELECT *, rowid FROM "{name}" WHERE rowid > ? OR rowid IN (SELECT _rid FROM {undo}) ORDER BY rowid',
            table,
            (top,),
        )
        if not touched:
            return [*seeded.values(), *now.values()]
        if any(rowid <= top and rowid not in seeded for rowid in now):  # a rowid the seed left free: in order
            merged = {rowid: row for rowid, row in seeded.items() if rowid not in touched} | now
            return [merged[rowid] for rowid in sorted(merged)]
        rows = [
            now[rowid] if rowid in now else row for rowid, row in seeded.items() if rowid not in touched or rowid in now
        ]
        rows.extend(row for rowid, row in now.items() if rowid > top)
        return rows

    def _seeded(self) -> Decoded | None:
        """The rows of the seeded image this sandbox started from, decoded, when kept."""
        if self._seeded_rows is None and self.seed_key is not None:
            self._seeded_rows = SEED_IMAGES.decoded(self.app, self.seed_key)
        return self._seeded_rows

    def _pristine(self) -> bool:
        """Whether the tables are still as seeded: no call journaled and no row changed (the change log's
        triggers log every write; only a journaled call's record drops rows of it)."""
        return not self.db.execute(
            "SELECT EXISTS (SELECT 1 FROM _journal) OR EXISTS (SELECT 1 FROM _changes)"
        ).fetchone()[0]

    def size(self) -> int:
        """How many rows the app's tables hold."""
        return sum(self.db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in self.app.tables)

    # -- journal ------------------------------------------------------------

    def record(
        self,
        *,
        tool: str,
        arguments: Mapping[str, Any],
        result: Any,
        error: str | None,
        is_error: bool,
        latency_ms: float,
        wall: datetime,
        fault: Mapping[str, Any] | None = None,
    ) -> int:
        """Journal a call. A call whose reply was lost (a `lost_reply` fault) is journaled as the success it was,
        with what the agent was told in `error`."""
        return journal.record(
            self.db,
            clock=self.now_iso(),
            tool=tool,
            arguments=arguments,
            result=result,
            error=error,
            is_error=is_error,
            latency_ms=latency_ms,
            wall=wall,
            fault=fault,
        )

    def journal(self, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The journal after position `after` (at most `limit` entries), each with the row changes it made."""
        return journal.entries(self.db, self.app, after, limit)

    def hide_recent_changes(self, seconds: float) -> int:
        """Undo, inside the running call's transaction, the row changes of calls made less than `seconds` ago
        (in sandbox time and in real time), so a read sees the state as it was; the caller rolls the
        transaction back afterwards. Returns how many row changes were hidden."""
        return journal.hide_recent_changes(self.db, self.app, self.now(), seconds)

    def calls_so_far(self, tool: str) -> int:
        """How many calls of `tool` the journal holds."""
        return journal.calls_so_far(self.db, tool)


def check_seed(app: App, data: Any, persona: Persona, clock: ClockSpec | None = None) -> BaseModel:
    """The seed as the app's seed model, checked as a sandbox would load it, or a `SeedError` naming each fault.

    Beyond `App.validate_seed` (the seed model alone), the seed is loaded into a throwaway sandbox with the
    `persona` (and the `clock`) it would run with, so whatever a sandbox would refuse (a reference to a row that
    is not in the seed, a duplicate id, dates out of order) is found now, with the same messages, rather than
    when an episode starts.
    """
    seed = app.validate_seed(data)
    spec = SandboxSpec(seed=data or {}, persona=persona, clock=clock or ClockSpec())
    try:
        Sandbox.create(app, "seed-check", spec).close(reuse=True)
    except sqlite3.Error as error:  # a constraint the seed's checks did not foresee
        raise SeedError(app.name, [Problem(loc="(root)", message=f"the seed cannot be stored: {error}")]) from None
    return seed
