"""Sandboxes: one SQLite database each, seeded once and reset by restoring that image.

A sandbox's database holds the app's tables plus four of the core's own:
`_meta` (spec, clock, fault plan), `_counters` (id generation), `_journal`
(every tool call) and `_changes` (every row a call inserted, updated or
deleted, written by triggers on the app's tables, which are installed after
seeding so the seed itself logs nothing). Snapshots show only the app's tables.

In memory, the seeded image is kept as serialized bytes and a reset is one
`deserialize`; a new sandbox starts from its app's empty image (tables and
triggers built once) and, for a spec seeded before in this process, from
that spec's seeded image (`SeedImages`). On disk (`DATA_DIR/<id>/state.db` beside `seed.db`), a reset
copies the seed database over the state with SQLite's backup API, and both
files survive a restart of the process.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver.exceptions import ToolError

from servers.core.app import App, Persona, SandboxSpec, SeedError
from servers.core.clock import Clock, isoformat
from servers.core.faults import FaultPlan, FaultState

log = logging.getLogger("clawgym.sandbox")

SANDBOX_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A sandbox id, matched whole (`fullmatch`: `$` would accept a trailing newline)."""

CORE_SCHEMA = """
CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE _counters (prefix TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE _journal (
    seq INTEGER PRIMARY KEY,
    clock TEXT NOT NULL,
    wall TEXT NOT NULL,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    result TEXT,
    error TEXT,
    is_error INTEGER NOT NULL,
    latency_ms REAL NOT NULL,
    fault TEXT
);
"""

CHANGES_SCHEMA = """
CREATE TABLE IF NOT EXISTS _changes (
    id INTEGER PRIMARY KEY,
    call INTEGER,
    tbl TEXT NOT NULL,
    key,
    op TEXT NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX IF NOT EXISTS _changes_call ON _changes (call);
"""
"""Row changes of the app's tables; `call` is the journal seq of the tool call that made them (NULL until recorded)."""

JOURNAL_JSON = ("arguments", "result", "fault")


class UnknownSandbox(KeyError):
    def __init__(self, sandbox_id: str) -> None:
        super().__init__(sandbox_id)
        self.sandbox_id = sandbox_id

    def __str__(self) -> str:
        return f"no sandbox with id {self.sandbox_id!r}"


def check_sandbox_id(sandbox_id: str) -> str:
    if not isinstance(sandbox_id, str) or not SANDBOX_ID.fullmatch(sandbox_id):
        raise ValueError(
            f"invalid sandbox id {sandbox_id!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return sandbox_id


def _connect(target: str | Path) -> sqlite3.Connection:
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    if target != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def spec_text(spec_json: Any) -> str:
    """A sandbox spec as JSON text, the one form it is stored and compared in."""
    return json.dumps(spec_json, separators=(",", ":"))


class SeedImages:
    """Seeded images of in-memory sandboxes, by app and spec, the most recently used kept.

    A sandbox's seeded state depends only on its app and its spec (seed rows, persona, clock, episode
    seed; the clock only when frozen, as a seed may stamp rows with the time), so an image taken right
    after seeding (before any call, fault plan or access secret) serves every later sandbox of an equal
    spec. Bounded by count and by bytes.
    """

    def __init__(self, max_items: int = 256, max_bytes: int = 64 * 2**20) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._empty: weakref.WeakKeyDictionary[App, bytes] = weakref.WeakKeyDictionary()
        self._images: OrderedDict[tuple[int, str], tuple[weakref.ref[App], bytes]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def key(spec_json: Any, *, any_rng_seed: bool = False, text: str | None = None) -> str:
        """The spec's digest; `any_rng_seed`: without its episode seed, for a seed that drew no ids (`Sandbox.new_id`).
        `text`: the spec as `spec_text` already wrote it."""
        if any_rng_seed:
            spec_json = {k: v for k, v in spec_json.items() if k != "rng_seed"}
            text = None
        return hashlib.sha256((text or spec_text(spec_json)).encode()).hexdigest()

    def get(self, app: App, key: str) -> bytes | None:
        with self._lock:
            entry = self._images.get((id(app), key))
            if entry is None or entry[0]() is not app:
                return None
            self._images.move_to_end((id(app), key))
            return entry[1]

    def put(self, app: App, key: str, image: bytes) -> None:
        if len(image) > self.max_bytes:
            return
        with self._lock:
            old = self._images.pop((id(app), key), None)
            if old is not None:
                self._bytes -= len(old[1])
            self._images[(id(app), key)] = (weakref.ref(app), image)
            self._bytes += len(image)
            while len(self._images) > self.max_items or self._bytes > self.max_bytes:
                _, (_, dropped) = self._images.popitem(last=False)
                self._bytes -= len(dropped)

    def empty(self, app: App) -> bytes:
        """The app's empty database: its tables, the core's, and the change log with its triggers."""
        image = self._empty.get(app)
        if image is None:
            conn = sqlite3.connect(":memory:")
            conn.executescript(app.schema + CORE_SCHEMA + CHANGES_SCHEMA + app.change_triggers)
            image = self._empty[app] = conn.serialize()
            conn.close()
        return image

    def clear(self) -> None:
        with self._lock:
            self._images.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._images)


SEED_IMAGES = SeedImages()
"""The process's seeded images (see `Sandbox.create`)."""


class Sandbox:
    """One isolated copy of an app's state, with its own clock, journal and fault plan.

    Tools receive the sandbox as their first argument and use its row helpers
    (`get`, `require`, `select`, `insert`, `update`, `delete`), its clock
    (`now`, `now_iso`) and `new_id`; `db` is there for anything else.
    """

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
        # Calls to one sandbox are serialized so each runs in its own transaction
        # and the journal order is the order in which state changed.
        self.lock = anyio.Lock()
        self.deadline: float | None = None
        """`time.monotonic()` by which the running tool call must end (None outside a call)."""
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
        self.follows_clock = False
        """Whether tool calls' `_meta` time moves the clock (set by the orchestrator for a world whose time moves with the work)."""

    # -- building -------------------------------------------------------------

    @classmethod
    def create(cls, app: App, sandbox_id: str, spec: SandboxSpec, directory: Path | None = None) -> Sandbox:
        """Build and seed a sandbox; raises `SeedError` for seed data the app refuses.

        In memory, a sandbox built from the same app and an equal spec as an earlier one (frozen clock)
        starts from that one's seeded image (see `SeedImages`) instead of validating and loading the seed again.
        """
        spec_json = spec.model_dump(mode="json")
        text = spec_text(spec_json)  # written once: the image key, the stored spec and the comparison with an image's
        key = SEED_IMAGES.key(spec_json, text=text) if directory is None and spec.clock.mode == "frozen" else None
        if key is not None:
            image = SEED_IMAGES.get(app, key) or SEED_IMAGES.get(app, SEED_IMAGES.key(spec_json, any_rng_seed=True))
            if image is not None:
                return cls._from_image(app, sandbox_id, spec, text, image)
        seed = app.validate_seed(spec.seed)
        conn = _connect(directory / "state.db" if directory else ":memory:")
        try:
            if directory is None:
                # The empty tables with the change log's triggers, built once per app; the seed's own
                # row changes are logged and then dropped, so the seed itself logs nothing.
                conn.deserialize(SEED_IMAGES.empty(app))
            else:
                conn.executescript(app.schema + CORE_SCHEMA)
            sandbox = cls(app, sandbox_id, conn, spec, Clock(spec.clock), FaultPlan(), directory, None)
            with sandbox.transaction():
                sandbox._write_meta("spec", text=text)
                sandbox._write_meta("clock", sandbox.clock.state())
                sandbox._write_meta("faults", sandbox.faults.model_dump(mode="json"))
                try:
                    app.load_seed(sandbox, seed)
                except SeedError as exc:
                    raise exc.naming_rows_of(spec.seed) from None
                if directory is None:
                    conn.execute("DELETE FROM _changes")
            if directory is not None:
                conn.executescript(CHANGES_SCHEMA + app.change_triggers)
            if directory is None:
                sandbox._image = conn.serialize()
                if key is not None:
                    # A seed that drew no ids does not depend on the episode seed: its image serves any.
                    SEED_IMAGES.put(app, key if sandbox._ids_drawn else SEED_IMAGES.key(spec_json, any_rng_seed=True), sandbox._image)
            else:
                image = _connect(directory / "seed.db")
                conn.backup(image)
                image.close()
        except BaseException:
            conn.close()
            raise
        return sandbox

    @classmethod
    def _from_image(cls, app: App, sandbox_id: str, spec: SandboxSpec, text: str, image: bytes) -> Sandbox:
        """A sandbox in memory from the seeded image of an equal spec: the same tables, counters and change-log
        triggers, an empty journal and change log, the default fault plan, and a clock started now.
        `text`: the spec as `spec_text` wrote it."""
        conn = _connect(":memory:")
        try:
            conn.deserialize(image)
            sandbox = cls(app, sandbox_id, conn, spec, Clock(spec.clock), FaultPlan(), None, image)
            same_spec = conn.execute("SELECT value FROM _meta WHERE key = 'spec'").fetchone()[0] == text
            with sandbox.transaction():
                if not same_spec:
                    sandbox._write_meta("spec", text=text)
                sandbox._write_meta("clock", sandbox.clock.state())
            if not same_spec:  # an image shared across episode seeds: this sandbox's reset image names its own
                sandbox._image = conn.serialize()
        except BaseException:
            conn.close()
            raise
        return sandbox

    @classmethod
    def open(cls, app: App, sandbox_id: str, directory: Path) -> Sandbox:
        """Reopen a sandbox kept on disk, with its state, clock and fault plan as they were."""
        conn = _connect(directory / "state.db")
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_changes'").fetchone():
            # Kept by an older version: add the change log to the state and to the seed image.
            for db in (conn, image := _connect(directory / "seed.db")):
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

    def _write_meta(self, key: str, value: Any = None, *, text: str | None = None) -> None:
        """Store `value` (or `text`, a value already written as JSON) under `key` in the sandbox's own table."""
        self.db.execute(
            "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, text if text is not None else json.dumps(value)),
        )

    # -- lifecycle --------------------------------------------------------------

    def reset(self) -> None:
        """Back to the seeded state: tables, counters and journal; the clock restarts."""
        if self._image is not None:
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
        if to is not None:
            self.clock.set(to)
        if advance is not None:
            self.clock.advance(advance)
        self._write_meta("clock", self.clock.state())

    def set_follow_clock(self, follow: bool) -> None:
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
        self.faults = plan
        self.fault_state = FaultState()
        self._write_meta("faults", plan.model_dump(mode="json"))

    def close(self) -> None:
        self.db.close()

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every app table as `{table: [rows]}`, rows in insertion order, JSON columns decoded."""
        return {
            name: [table.decode(r) for r in self.db.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
            for name, table in self.app.tables.items()
        }

    def size(self) -> int:
        return sum(
            self.db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in self.app.tables
        )

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
        cursor = self.db.execute(
            "INSERT INTO _journal (clock, wall, tool, arguments, result, error, is_error, latency_ms, fault)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.now_iso(),
                wall.isoformat(timespec="microseconds"),  # microseconds: calls to two apps in one millisecond keep their order
                tool,
                json.dumps(arguments, default=str),
                None if result is None else json.dumps(result, default=str),
                error,
                int(is_error),
                round(latency_ms, 3),
                None if fault is None else json.dumps(fault),
            ),
        )
        seq = int(cursor.lastrowid or 0)
        # The triggers logged this call's row changes without a call; they are this call's.
        # A call whose result is an error was rolled back and changed nothing.
        if is_error:
            self.db.execute("DELETE FROM _changes WHERE call IS NULL")
        else:
            self.db.execute("UPDATE _changes SET call = ? WHERE call IS NULL", (seq,))
        return seq

    def journal(self, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT * FROM _journal WHERE seq > ? ORDER BY seq LIMIT ?", (after, -1 if limit is None else limit)
        )
        out = []
        for row in rows:
            entry = dict(row)
            for key in JOURNAL_JSON:
                if entry[key] is not None:
                    entry[key] = json.loads(entry[key])
            entry["is_error"] = bool(entry["is_error"])
            entry["changes"] = []
            if entry["tool"] == "" and not entry["is_error"] and isinstance(entry["arguments"], dict) and "event" in entry["arguments"]:
                entry["world"] = entry["arguments"]["event"]  # a world event's changes (servers.core.world), not a call
            out.append(entry)
        if out:
            by_seq = {entry["seq"]: entry["changes"] for entry in out}
            for change in self.db.execute(
                "SELECT call, tbl, key, op, before, after FROM _changes WHERE call BETWEEN ? AND ? ORDER BY id",
                (out[0]["seq"], out[-1]["seq"]),
            ):
                if change["call"] in by_seq:
                    by_seq[change["call"]].append(self._decode_change(change))
        return out

    def _decode_change(self, change: sqlite3.Row) -> dict[str, Any]:
        """A `_changes` row as a journal entry shows it: rows decoded like snapshot rows."""
        table = self.app.tables[change["tbl"]]
        return {
            "table": change["tbl"],
            "key": change["key"],
            "op": change["op"],
            "before": None if change["before"] is None else table.decode(json.loads(change["before"])),
            "after": None if change["after"] is None else table.decode(json.loads(change["after"])),
        }

    def hide_recent_changes(self, seconds: float) -> int:
        """Undo, inside the running call's transaction, the row changes of calls made less than `seconds` ago
        (in sandbox time and in real time), so a read sees the state as it was; the caller rolls the
        transaction back afterwards. Returns how many row changes were hidden."""
        now_clock, now_wall = self.now(), datetime.now(UTC)
        recent: list[int] = []
        for row in self.db.execute(
            "SELECT seq, clock, wall FROM _journal WHERE seq IN (SELECT DISTINCT call FROM _changes) ORDER BY seq DESC"
        ):
            clock_age = (now_clock - datetime.fromisoformat(row["clock"])).total_seconds()
            wall_age = (now_wall - datetime.fromisoformat(row["wall"])).total_seconds()
            if clock_age >= seconds or wall_age >= seconds:
                break
            recent.append(row["seq"])
        if not recent:
            return 0
        marks = ", ".join("?" for _ in recent)
        changes = self.db.execute(
            f"SELECT tbl, key, op, before FROM _changes WHERE call IN ({marks}) ORDER BY id DESC", recent
        ).fetchall()
        for change in changes:
            table = self.app.tables[change["tbl"]]
            where = f'"{table.key}" = ?'
            if change["op"] == "insert":
                self.db.execute(f'DELETE FROM "{change["tbl"]}" WHERE {where}', (change["key"],))
                continue
            before = json.loads(change["before"])
            columns = ", ".join(f'"{c}"' for c in before)
            if change["op"] == "update":
                assignments = ", ".join(f'"{c}" = ?' for c in before)
                self.db.execute(f'UPDATE "{change["tbl"]}" SET {assignments} WHERE {where}', (*before.values(), change["key"]))
            else:
                marks = ", ".join("?" for _ in before)
                self.db.execute(f'INSERT INTO "{change["tbl"]}" ({columns}) VALUES ({marks})', tuple(before.values()))
        return len(changes)

    def calls_so_far(self, tool: str) -> int:
        return int(self.db.execute("SELECT count(*) FROM _journal WHERE tool = ?", (tool,)).fetchone()[0])

    # -- what tools use ---------------------------------------------------

    @property
    def persona(self) -> Persona:
        return self.spec.persona

    def now(self) -> datetime:
        return self.clock.now()

    def now_iso(self) -> str:
        return isoformat(self.clock.now())

    def over_budget(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def checkpoint(self) -> None:
        """Stop the running call if it is past its time budget. The row helpers call it; tools call it too
        inside long Python loops that do not touch rows."""
        if self.over_budget():
            from servers.core.limits import CallTimeout

            raise CallTimeout("the call ran past its time budget")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def new_id(self, prefix: str) -> str:
        """A fresh id such as `evt_3f9a0c21b7`: the same for the same episode seed and call order."""
        self._ids_drawn = True
        n = self.db.execute(
            "INSERT INTO _counters (prefix, n) VALUES (?, 1) ON CONFLICT (prefix) DO UPDATE SET n = n + 1 RETURNING n",
            (prefix,),
        ).fetchone()[0]
        digest = hashlib.blake2s(f"{self.spec.rng_seed}/{prefix}/{n}".encode(), digest_size=5).hexdigest()
        return f"{prefix}_{digest}"

    def next_number(self, counter: str) -> int:
        """The next value of a named sequence (1, 2, 3 …), for human-facing numbers such as ticket keys."""
        return int(
            self.db.execute(
                "INSERT INTO _counters (prefix, n) VALUES (?, 1) ON CONFLICT (prefix) DO UPDATE SET n = n + 1 RETURNING n",
                (counter,),
            ).fetchone()[0]
        )

    def reserve_numbers(self, counter: str, up_to: int) -> None:
        """Mark 1..`up_to` of a sequence as taken, so `next_number` continues after them."""
        self.db.execute(
            "INSERT INTO _counters (prefix, n) VALUES (?, ?) ON CONFLICT (prefix) DO UPDATE SET n = max(n, excluded.n)",
            (counter, up_to),
        )

    def get(self, table: str, key: Any) -> dict[str, Any] | None:
        self.checkpoint()
        t = self.app.tables[table]
        row = self.db.execute(f'SELECT * FROM "{table}" WHERE "{t.key}" = ?', (key,)).fetchone()
        return None if row is None else t.decode(row)

    def require(self, table: str, key: Any, what: str | None = None) -> dict[str, Any]:
        """The row, or a `ToolError` naming what was not found."""
        row = self.get(table, key)
        if row is None:
            raise ToolError(f"No {what or table.rstrip('s')} with {self.app.tables[table].key} {key!r}.")
        return row

    def select(
        self, table: str, where: str = "", params: tuple[Any, ...] | list[Any] = (), order: str = "rowid"
    ) -> list[dict[str, Any]]:
        self.checkpoint()
        t = self.app.tables[table]
        sql = f'SELECT * FROM "{table}"' + (f" WHERE {where}" if where else "") + f" ORDER BY {order}"
        return [t.decode(r) for r in self.db.execute(sql, tuple(params))]

    def insert(self, table: str, values: Mapping[str, Any]) -> dict[str, Any]:
        self.checkpoint()
        t = self.app.tables[table]
        encoded = t.encode(values)
        columns = ", ".join(f'"{c}"' for c in encoded)
        marks = ", ".join("?" for _ in encoded)
        self.db.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', tuple(encoded.values()))
        return self.require(table, values[t.key]) if t.key in values else dict(values)

    def update(self, table: str, key: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
        self.checkpoint()
        t = self.app.tables[table]
        if changes:
            encoded = t.encode(changes)
            assignments = ", ".join(f'"{c}" = ?' for c in encoded)
            self.db.execute(f'UPDATE "{table}" SET {assignments} WHERE "{t.key}" = ?', (*encoded.values(), key))
        return self.require(table, key)

    def delete(self, table: str, key: Any) -> None:
        self.checkpoint()
        t = self.app.tables[table]
        self.db.execute(f'DELETE FROM "{table}" WHERE "{t.key}" = ?', (key,))


class SandboxStore:
    """All sandboxes of one app server, in memory or under a data directory."""

    def __init__(self, app: App, data_dir: Path | None = None) -> None:
        self.app = app
        self.data_dir = data_dir
        self.sandboxes: dict[str, Sandbox] = {}
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
            for entry in sorted(data_dir.iterdir()):
                if entry.is_dir() and SANDBOX_ID.fullmatch(entry.name) and (entry / "state.db").exists():
                    try:
                        self.sandboxes[entry.name] = Sandbox.open(app, entry.name, entry)
                    except Exception as exc:  # one damaged sandbox must not keep the others from being served
                        log.error("skipping sandbox %r in %s: its database cannot be opened (%s)", entry.name, entry, exc)

    def __contains__(self, sandbox_id: str) -> bool:
        return sandbox_id in self.sandboxes

    def __len__(self) -> int:
        return len(self.sandboxes)

    def get(self, sandbox_id: str) -> Sandbox:
        try:
            return self.sandboxes[sandbox_id]
        except KeyError:
            raise UnknownSandbox(sandbox_id) from None

    @asynccontextmanager
    async def locked(self, sandbox_id: str) -> AsyncIterator[Sandbox]:
        """The sandbox, its lock held: no tool call or other admin operation uses it meanwhile.

        Raises `UnknownSandbox` when there is none, also when it was deleted while this waited for its lock
        (its database is closed by then); one replaced meanwhile is waited for again under its new build.
        """
        while True:
            sandbox = self.get(sandbox_id)
            async with sandbox.lock:
                if self.sandboxes.get(sandbox_id) is sandbox:
                    yield sandbox
                    return

    def create(
        self,
        sandbox_id: str,
        spec: SandboxSpec,
        *,
        replace: bool = False,
        secret: str | None = None,
        owner: str | None = None,
    ) -> Sandbox:
        """Build a sandbox; an existing one (or a folder left under its name) is replaced only when asked.

        `secret` and `owner` go to `Sandbox.set_access`.
        """
        check_sandbox_id(sandbox_id)
        if not replace and (sandbox_id in self.sandboxes or (self.data_dir is not None and (self.data_dir / sandbox_id).exists())):
            raise FileExistsError(f"sandbox {sandbox_id!r} already exists")
        if self.data_dir is None:
            sandbox = Sandbox.create(self.app, sandbox_id, spec)
        else:
            # Built in a scratch folder and renamed into place, so a crash never
            # leaves a half-seeded sandbox behind.
            scratch = Path(tempfile.mkdtemp(prefix=f".{sandbox_id}.", dir=self.data_dir))
            try:
                Sandbox.create(self.app, sandbox_id, spec, scratch).close()
                final = self.data_dir / sandbox_id
                if sandbox_id in self.sandboxes:
                    self.sandboxes.pop(sandbox_id).close()
                if final.exists():
                    shutil.rmtree(final)
                os.rename(scratch, final)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            sandbox = Sandbox.open(self.app, sandbox_id, final)
        old = self.sandboxes.pop(sandbox_id, None)
        if old is not None:
            old.close()
        sandbox.set_access(secret=secret, owner=owner)
        self.sandboxes[sandbox_id] = sandbox
        return sandbox

    def delete(self, sandbox_id: str) -> None:
        sandbox = self.get(sandbox_id)
        del self.sandboxes[sandbox_id]
        sandbox.close()
        if sandbox.directory is not None:
            shutil.rmtree(sandbox.directory, ignore_errors=True)

    def close(self) -> None:
        for sandbox in self.sandboxes.values():
            sandbox.close()
        self.sandboxes.clear()
