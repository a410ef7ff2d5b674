"""A sandbox's database file as bytes or on disk: the core's own tables, and the seeded images sandboxes start from.

Every sandbox database holds the app's tables plus four of the core's own: `_meta` (spec, clock, fault plan),
`_counters` (id generation), `_journal` (every tool call) and `_changes` (every row a call inserted, updated or
deleted, written by triggers on the app's tables). `SeedImages` keeps, per app, the empty database (tables and
triggers built once) and the seeded image of each recent spec, so a new in-memory sandbox of an equal spec is
one `deserialize` instead of a validated, loaded seed. `EmptyDatabases` keeps connections to emptied in-memory
databases of an app for its next sandboxes, whose seeding then skips reading the schema and compiling statements.

May import `servers.core.app`, nothing else of the core.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import sys
import threading
import weakref
from collections import OrderedDict
from pathlib import Path
from typing import Any, TypeVar

import orjson

from servers.core.app import App

log = logging.getLogger("clawgym.sandbox")

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
"""The core's tables in every sandbox database: metadata, id counters and the journal."""

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


def connect(target: str | Path) -> sqlite3.Connection:
    """A connection to a sandbox database (`:memory:` or a file, the latter in WAL mode), rows as `sqlite3.Row`."""
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    if target != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    return conn


Decoded = dict[str, dict[int, dict[str, Any]]]
"""An image's app tables, each row's rowid mapped to the row decoded (read-only: `servers.core.schema.FrozenDict`),
in insertion order."""


def spec_text(spec_json: Any) -> str:
    """A sandbox spec as JSON text, the one form it is stored in."""
    return json.dumps(spec_json, separators=(",", ":"))


def image_keys(spec: Any) -> tuple[str, str]:
    """The keys a sandbox spec's seeded image is kept under: the spec's digest, and its digest without the episode
    seed (for a seed that drew no ids, whose image serves any episode seed).

    The seed rows are written by orjson as they are (scenario files hold whole worlds: several MB, which pydantic
    and the standard library's encoder take tens of milliseconds to write, every episode); what orjson cannot write
    (a key that is not a string, a type it does not know) is written as the stored spec is."""
    head = orjson.dumps([spec.persona.model_dump(mode="json"), spec.clock.model_dump(mode="json")])
    try:
        seed = orjson.dumps(spec.seed)
    except TypeError:
        seed = b"json:" + spec_text(spec.model_dump(mode="json")["seed"]).encode()
    loose = hashlib.sha256(head + b"\0" + seed).hexdigest()
    return hashlib.sha256(f"{loose}/{spec.rng_seed}".encode()).hexdigest(), loose


IMAGES_ENV = "CLAWGYM_IMAGES"
"""Where seeded images are kept as files, one per app and spec, for every process of the machine: a folder, or
`off`. Unset: `~/.cache/clawgym/images` (under `XDG_CACHE_HOME` when it is set)."""

DISK_MIN_COST_S = 0.01
"""Only images whose seeding took at least this long (CPU) are written as files: smaller ones build faster."""

DISK_MAX_BYTES = 2 * 2**30
"""The folder's bound: past it, the least recently written files go."""


def images_folder() -> Path | None:
    """The folder of seeded image files (`IMAGES_ENV`), or None when they are off."""
    value = os.environ.get(IMAGES_ENV, "").strip()
    if value.lower() == "off":
        return None
    if value:
        return Path(value).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(cache).expanduser() if cache else Path.home() / ".cache") / "clawgym" / "images"


_code_digests: weakref.WeakKeyDictionary[App, str] = weakref.WeakKeyDictionary()


def code_digest(app: App) -> str:
    """A digest of what an app's seeded image depends on besides its spec: its schema, its seed loader's folder and
    the core's sources (the folder of its seed model: the app's own), so an image file written by other code is never read."""
    digest = _code_digests.get(app)
    if digest is None:
        h = hashlib.sha256(app.schema.encode() + (CORE_SCHEMA + CHANGES_SCHEMA).encode())
        folders = {Path(__file__).parent}
        module = sys.modules.get(app.seed_model.__module__)  # the app's folder: its seed model beside its loader
        if module is not None and getattr(module, "__file__", None):
            folders.add(Path(module.__file__).parent)  # type: ignore[arg-type]  # a module with a file: checked just above
        for folder in sorted(folders):
            for source in sorted(folder.glob("*.py")):
                h.update(source.name.encode() + b"\0" + source.read_bytes())
        digest = _code_digests[app] = h.hexdigest()[:16]
    return digest


class SeedImages:
    """Seeded images of in-memory sandboxes, by app and spec, the most recently used kept.

    A sandbox's seeded state depends only on its app and its spec (seed rows, persona, clock, episode
    seed; the clock only when frozen, as a seed may stamp rows with the time), so an image taken right
    after seeding (before any call, fault plan or access secret) serves every later sandbox of an equal
    spec. Bounded by count and by bytes. The image's tables decoded (`decoded`) are kept beside it: every
    episode reads its seeded state, and its final state is mostly seeded rows, each decoded once per image.
    """

    def __init__(self, max_items: int = 256, max_bytes: int = 64 * 2**20) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._empty: weakref.WeakKeyDictionary[App, bytes] = weakref.WeakKeyDictionary()
        self._images: OrderedDict[tuple[int, str], tuple[weakref.ref[App], bytes]] = OrderedDict()
        self._bytes = 0
        self._decoded: OrderedDict[tuple[int, str], tuple[weakref.ref[App], Decoded]] = OrderedDict()
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
        """The seeded image of `app` under spec digest `key`, if kept: in this process, else as a file another
        process (or an earlier run) wrote (`IMAGES_ENV`)."""
        with self._lock:
            image = _recent(self._images, app, key)
        if image is None and (path := self._file(app, key)) is not None:
            try:
                image = path.read_bytes()
            except OSError:
                return None
            if not image.startswith(b"SQLite format 3\0") or len(image) % 512:  # damaged: seeded and written again
                path.unlink(missing_ok=True)
                return None
            self.put(app, key, image)
        return image

    def _file(self, app: App, key: str) -> Path | None:
        folder = images_folder()
        return None if folder is None else folder / f"{app.name}-{code_digest(app)}-{key}.db"

    def put(self, app: App, key: str, image: bytes, cost_s: float = 0.0) -> None:
        """Keep `image` as `app`'s seeded image under `key`, dropping the least recently used past the bounds;
        `cost_s`: what seeding it took, in CPU seconds (worth a file for other processes past `DISK_MIN_COST_S`)."""
        if cost_s >= DISK_MIN_COST_S and (path := self._file(app, key)) is not None:
            _write_file(path, image)
        if len(image) > self.max_bytes:
            return
        with self._lock:
            old = self._images.pop((id(app), key), None)
            if old is not None:
                self._bytes -= len(old[1])
            self._images[(id(app), key)] = (weakref.ref(app), image)
            self._bytes += len(image)
            while len(self._images) > self.max_items or self._bytes > self.max_bytes:
                gone, (_, dropped) = self._images.popitem(last=False)
                self._bytes -= len(dropped)
                self._decoded.pop(gone, None)

    def decoded(self, app: App, key: str) -> Decoded | None:
        """The decoded tables of `app`'s seeded image under `key`, if kept (shared: their rows are read-only)."""
        with self._lock:
            return _recent(self._decoded, app, key)

    def put_decoded(self, app: App, key: str, tables: Decoded) -> None:
        """Keep the decoded tables of the seeded image under `key` while the image itself is kept (they go with it,
        so they are bounded as the images are)."""
        with self._lock:
            if (id(app), key) in self._images:
                self._decoded[(id(app), key)] = (weakref.ref(app), tables)

    def empty(self, app: App) -> bytes:
        """The app's empty database: its tables, the core's, and the change log with its triggers."""
        image = self._empty.get(app)
        if image is None:
            conn = sqlite3.connect(":memory:")
            conn.executescript(app.schema + CORE_SCHEMA + CHANGES_SCHEMA + app.change_triggers + app.undo_schema)
            image = self._empty[app] = conn.serialize()
            conn.close()
        return image

    def clear(self) -> None:
        """Forget every seeded image (the empty ones stay)."""
        with self._lock:
            self._images.clear()
            self._decoded.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._images)


SEED_IMAGES = SeedImages()
"""The process's seeded images (see `Sandbox.create`)."""


def _write_file(path: Path, image: bytes) -> None:
    """Write an image file atomically (a reader sees the whole file or none), then keep the folder under
    `DISK_MAX_BYTES`; a folder that cannot be written is skipped (the image stays in this process)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        scratch.write_bytes(image)
        os.replace(scratch, path)
    except OSError as error:
        log.warning("seeded image not written to %s: %s", path, error)
        return
    files = []
    for file in path.parent.glob("*.db"):
        with contextlib.suppress(OSError):  # gone meanwhile: another process keeps the folder too
            info = file.stat()
            files.append((info.st_mtime, info.st_size, file))
    files.sort(key=lambda e: e[0])
    total = sum(size for _, size, _ in files)
    for _, size, old in files:
        if total <= DISK_MAX_BYTES:
            break
        with contextlib.suppress(OSError):
            old.unlink(missing_ok=True)
        total -= size


class EmptyDatabases:
    """Connections to an app's empty in-memory database (`SeedImages.empty`), kept for the app's next sandboxes.

    A new connection reads the whole schema, triggers included, on its first statement and compiles every
    statement it runs the first time: most of the CPU of seeding a small sandbox. A connection given back
    (`give`) is emptied by deleting every row (the schema and the compiled statements stay) and handed to the
    next sandbox of its app (`take`), which finds exactly what a new one would: empty tables whose rowids start
    at 1 again. At most `per_app` are kept per app, and only small ones: emptied pages stay allocated.
    """

    def __init__(self, images: SeedImages, per_app: int = 16, max_bytes: int = 2 * 2**20) -> None:
        self.images = images
        self.per_app = per_app
        self.max_bytes = max_bytes
        self._free: weakref.WeakKeyDictionary[App, list[sqlite3.Connection]] = weakref.WeakKeyDictionary()
        self._tables: weakref.WeakKeyDictionary[App, tuple[str, ...]] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._inherited: list[sqlite3.Connection] = []

    def take(self, app: App) -> sqlite3.Connection:
        """A connection to an empty database of `app`: a kept one, else a new one."""
        with self._lock:
            free = self._free.get(app)
            if free:
                return free.pop()
        conn = connect(":memory:")
        conn.deserialize(self.images.empty(app))
        return conn

    def give(self, app: App, conn: sqlite3.Connection) -> None:
        """Empty `conn`, a connection of `take` that nothing uses any more, and keep it; close it instead when
        `app` has enough kept or it grew large. Its rows are deleted within one transaction, the change log last
        (the app tables' triggers log the deletions)."""
        with self._lock:
            keep = len(self._free.get(app, ())) < self.per_app
        if keep:
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                conn.set_progress_handler(None, 0)
                size = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
                keep = size <= self.max_bytes
                if keep:
                    conn.execute("BEGIN")
                    for name in self._tables_of(app, conn):
                        conn.execute(f'DELETE FROM "{name}"')
                    conn.execute("COMMIT")
            except sqlite3.Error:
                keep = False
        if keep:
            with self._lock:
                free = self._free.setdefault(app, [])
                if len(free) < self.per_app:
                    free.append(conn)
                    return
        conn.close()

    def _tables_of(self, app: App, conn: sqlite3.Connection) -> tuple[str, ...]:
        """Every table of `app`'s database with rows to delete, the change log last."""
        tables = self._tables.get(app)
        if tables is None:
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
            names = [n for n in names if n not in ("_changes", "sqlite_sequence")]
            tables = self._tables[app] = (*names, "_changes")
        return tables

    def clear(self) -> None:
        """Close every kept connection."""
        with self._lock:
            kept = [conn for free in self._free.values() for conn in free]
            self._free.clear()
        for conn in kept:
            conn.close()

    def _forget(self) -> None:
        """In a forked child: set the parent's connections aside, neither used nor closed (SQLite's objects are
        not to be carried across a fork), and replace the lock, which a thread of the parent may have held."""
        self._inherited = [conn for free in self._free.values() for conn in free]
        self._lock = threading.Lock()
        self._free = weakref.WeakKeyDictionary()


EMPTY_DATABASES = EmptyDatabases(SEED_IMAGES)
"""The process's emptied in-memory databases (see `Sandbox.create` and `Sandbox.close`)."""
os.register_at_fork(after_in_child=EMPTY_DATABASES._forget)


class WarmDatabases:
    """In-memory sandbox databases put back to their seeded state, kept for the next sandbox of an equal spec.

    A sandbox seeded in memory under a kept image's key (`SeedImages.key`) is rolled back when it is deleted
    (`Sandbox.restore_seeded`: only the rows its episode touched are put back) and parked here with what its next
    user needs (`entry`); the app's next sandbox of that key takes it (`take`) instead of copying the image into a
    new database, whose schema would be read and whose statements would be compiled again. Bounded per key
    (`per_key`, as many as run at once) and by bytes; the least recently parked go first.
    """

    def __init__(self, per_key: int = 8, max_bytes: int = 256 * 2**20) -> None:
        self.per_key = per_key
        self.max_bytes = max_bytes
        self._parked: OrderedDict[tuple[int, str], tuple[weakref.ref[App], list[tuple[Any, int]]]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._inherited: list[Any] = []

    def take(self, app: App, key: str) -> Any | None:
        """A parked entry of `app` under `key` (no longer kept here), or None."""
        with self._lock:
            entries = _recent(self._parked, app, key)
            if not entries:
                return None
            entry, size = entries.pop()
            self._bytes -= size
            if not entries:
                del self._parked[(id(app), key)]
            return entry

    def give(self, app: App, key: str, entry: Any, conn: sqlite3.Connection) -> bool:
        """Park `entry` (holding `conn`, rolled back to its seeded state) under `key`; False when it is not kept (too
        many of its key, or over the bytes), and the caller closes it."""
        size = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
        dropped: list[Any] = []
        with self._lock:
            if size > self.max_bytes:
                return False
            found = self._parked.get((id(app), key))
            if found is None or found[0]() is not app:
                found = self._parked[(id(app), key)] = (weakref.ref(app), [])
            if len(found[1]) >= self.per_key:
                return False
            found[1].append((entry, size))
            self._parked.move_to_end((id(app), key))
            self._bytes += size
            while self._bytes > self.max_bytes and self._parked:
                gone_key, (_, gone) = next(iter(self._parked.items()))
                old, old_size = gone.pop(0)
                self._bytes -= old_size
                dropped.append(old)
                if not gone:
                    del self._parked[gone_key]
        for old in dropped:
            old.close()
        return True

    def clear(self) -> None:
        """Close every parked database."""
        with self._lock:
            parked = [entry for _, entries in self._parked.values() for entry, _ in entries]
            self._parked.clear()
            self._bytes = 0
        for entry in parked:
            entry.close()

    def __len__(self) -> int:
        return sum(len(entries) for _, entries in self._parked.values())

    def _forget(self) -> None:
        """In a forked child: as `EmptyDatabases._forget`."""
        self._inherited = [entry for _, entries in self._parked.values() for entry, _ in entries]
        self._lock = threading.Lock()
        self._parked = OrderedDict()
        self._bytes = 0


WARM_DATABASES = WarmDatabases()
"""The process's parked, rolled-back sandbox databases (see `Sandbox.create` and `Sandbox.close`)."""
os.register_at_fork(after_in_child=WARM_DATABASES._forget)


V = TypeVar("V")


def _recent(entries: OrderedDict[tuple[int, str], tuple[weakref.ref[App], V]], app: App, key: str) -> V | None:
    """The entry of `app` (that very app, not one since built at its address) under `key`, made the most recent."""
    entry = entries.get((id(app), key))
    if entry is None or entry[0]() is not app:
        return None
    entries.move_to_end((id(app), key))
    return entry[1]
