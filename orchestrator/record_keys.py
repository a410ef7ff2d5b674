"""The keys that seal run records, and which of them an agent without isolation could have held.

A record is sealed with an Ed25519 signature (`sign`): the private half signs, the public half checks
(`check`), so checking a seal needs no secret. The key's material is $CLAWGYM_RECORD_KEY, else the file
$CLAWGYM_RECORD_KEY_FILE names (compose's secret), else this machine's own key file, `key_path()` (64 hex digits,
0600, made the first time); the signing key is derived from it (its sha256 is the Ed25519 seed), and its id is the
start of the sha256 of its public half. The record's digest names the key id.

The key ledger, keys.json beside the key file, holds the public half of every key this machine's own key file has
held, and the keys exposed to an agent without isolation. Before a `cmd:` agent starts with isolation none, the
runner enters `unisolated()`:

- this machine's own key is retired: its public half stays in the ledger (records it sealed still check and stay
  trusted) and its private half is deleted, so the agent finds no key that seals a trusted record; the next
  isolated run makes a fresh one. A key given by the operator ($CLAWGYM_RECORD_KEY, $CLAWGYM_RECORD_KEY_FILE)
  cannot be deleted: it is marked exposed, and every record it sealed, before or after (its signature says
  nothing of when it was made), is untrusted from then on. Give the machine a new key after such a run;
- the episode is sealed with a key made for it and marked exposed at once, so its record is untrusted by its key,
  whatever it claims (`isolation: unshare`, no `untrusted`);
- when the episode is sealed, the ledger is put back as it was when the agent started (an entry the agent edited
  or deleted is restored) and every key that came into it meanwhile (one the agent planted, or one a concurrent run
  made while the agent could read it) is marked exposed; a key file the agent left where this machine's key is
  looked for is retired and marked exposed, and an operator's key file it rewrote is marked exposed too.

`exposure(key id)` says why a record sealed with that key is untrusted (None: it is not).

The guarantee, precisely. An agent without isolation runs as the same user as the orchestrator, so nothing on the
machine is out of its reach while it runs; what is sound is what it can no longer reach afterwards. A record that
`check`s under a key with no `exposure` was signed by a private key that (1) existed on this machine only while no
agent without isolation was running, or (2) is this machine's own key of before such an agent ran, retired (deleted)
before it started, provided that agent did not read the private key from the memory of the orchestrator process
that had sealed with it (an orchestrator process that runs such an agent after sealing with a key may still hold it
in memory), and that no process of that agent outlived its episode. Such a process (it can kill the `none` tier's
reaper) can read a key made after its run, rewrite the ledger after it was restored, or edit the orchestrator's own
code; only running the agent as another user (isolation bwrap or unshare: it runs as nobody and sees none of this
folder) closes that, and a record made with isolation none says so (`orchestrator.record.untrusted_reason`). A key
given by the operator is not retired, only marked exposed, and a copy of the key file kept elsewhere (compose's
secrets folder) is exposed with it and not retired: run images/secrets.sh again after an unisolated run. Records
sealed with HMAC-SHA256, before records were signed, check under the key they were made with until it is retired.

May import: nothing of the project (the standard library and `cryptography`).
"""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import functools
import hashlib
import json
import os
import secrets
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

KEY_ENV = "CLAWGYM_RECORD_KEY"
"""The environment variable that gives the record key (at least 16 characters); agents never get it (their
environment is an allow-list)."""
KEY_FILE_ENV = "CLAWGYM_RECORD_KEY_FILE"
"""The environment variable that names a file holding the record key (a compose secret: compose.yaml mounts the
host's key, which images/secrets.sh copies, at /run/secrets/record_key), read when $CLAWGYM_RECORD_KEY is not set."""
KEY_BYTES = 32
ALGORITHM = "ed25519"
LEDGER = "keys.json"
_keys: dict[str, bytes] = {}
"""Key material read from a key file, by path (dropped when the file is retired)."""
_override: contextvars.ContextVar[SigningKey | None] = contextvars.ContextVar("clawgym_record_key", default=None)


class RecordKeyError(RuntimeError):
    """The record key cannot be read or made: its file is unreadable, open to others, or not a key."""


def now() -> str:
    """The time now in UTC, to the second (ISO 8601), as the key ledger writes it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def key_path() -> Path:
    """The file that keeps the record key when $CLAWGYM_RECORD_KEY is not set: $XDG_DATA_HOME/clawgym/record.key,
    by default ~/.local/share/clawgym/record.key (mode 0600, its folder 0700)."""
    return _key_path(os.environ.get("XDG_DATA_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=8)
def _key_path(data: str | None, home: str | None) -> Path:
    return Path(data or str(Path.home() / ".local" / "share")) / "clawgym" / "record.key"


def ledger_path() -> Path:
    """The key ledger: keys.json beside `key_path()`."""
    return key_path().with_name(LEDGER)


def _read_key(path: Path) -> bytes:
    info = path.stat()
    if info.st_mode & 0o077:
        raise RecordKeyError(
            f"{path}: the record key must be readable by its owner only (mode 0600), "
            f"it is {info.st_mode & 0o777:04o}: run chmod 600 {path}"
        )
    key = path.read_text(encoding="ascii", errors="replace").strip()
    if len(key) < 2 * KEY_BYTES:
        raise RecordKeyError(f"{path}: not a record key (expected {2 * KEY_BYTES} hex digits)")
    return key.encode()


def operator_key() -> bytes | None:
    """The key material the operator gave ($CLAWGYM_RECORD_KEY, else the file $CLAWGYM_RECORD_KEY_FILE names), or
    None: this machine's own key file is used."""
    given = os.environ.get(KEY_ENV)
    if given is not None:
        if len(given) < 16:
            raise RecordKeyError(f"${KEY_ENV} is too short to be a key: expected at least 16 characters")
        return given.encode()
    named = os.environ.get(KEY_FILE_ENV)
    if not named:
        return None
    try:  # a file its operator named, such as a compose secret (mounted as it is on the host)
        key = Path(named).read_text(encoding="ascii", errors="replace").strip()
    except OSError as exc:
        raise RecordKeyError(f"${KEY_FILE_ENV}: cannot read the record key {named}: {exc.strerror or exc}") from None
    if len(key) < 2 * KEY_BYTES:
        raise RecordKeyError(f"${KEY_FILE_ENV}: {named} is not a record key (expected {2 * KEY_BYTES} hex digits)")
    return key.encode()


def record_key() -> bytes:
    """The record key's material: the operator's (`operator_key`), else the one in `key_path()`, created (random,
    0600) the first time. Kept in memory once read. Raises RecordKeyError when it cannot be read or made."""
    given = operator_key()
    if given is not None:
        return given
    path = key_path()
    if str(path) in _keys:
        return _keys[str(path)]
    try:
        if not path.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another run made it first
                pass
            else:
                with os.fdopen(fd, "w") as out:
                    out.write(secrets.token_hex(KEY_BYTES) + "\n")
        key = _read_key(path)
    except OSError as exc:
        raise RecordKeyError(f"cannot read or create the record key {path}: {exc.strerror or exc}") from None
    _keys[str(path)] = key
    return key


@dataclass(frozen=True)
class SigningKey:
    """A key that signs records: its id and private half."""

    id: str
    private: Ed25519PrivateKey


def _public_bytes(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> str:
    """A key's id: the first 16 hex digits of the sha256 of its public half."""
    return hashlib.sha256(_public_bytes(public)).hexdigest()[:16]


@functools.lru_cache(maxsize=8)
def _from_material(material: bytes) -> SigningKey:
    private = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(material).digest())
    return SigningKey(key_id(private.public_key()), private)


def material_key_id() -> str:
    """The id of the key the record key's material (`record_key`) gives."""
    return _from_material(record_key()).id


# -- the ledger ----------------------------------------------------------------------


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """Hold the ledger's lock (keys.lock beside it) for a read-modify-write."""
    path = ledger_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _ledger_bytes() -> bytes:
    try:
        return ledger_path().read_bytes()
    except OSError:
        return b""


def _parse(raw: bytes) -> dict[str, dict[str, Any]]:
    try:
        keys = json.loads(raw).get("keys") if raw else {}
    except (ValueError, AttributeError):
        keys = {}
    return {k: v for k, v in keys.items() if isinstance(v, dict)} if isinstance(keys, dict) else {}


_read: dict[str, tuple[tuple[int, int, int], dict[str, dict[str, Any]]]] = {}


def ledger() -> dict[str, dict[str, Any]]:
    """The key ledger: key id to {public, added_at, retired_at?, exposed_at?, why?} (empty when there is none).
    Read again only when the file changed (its inode, size or modification time)."""
    path = ledger_path()
    try:
        info = path.stat()
    except OSError:
        return {}
    stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
    hit = _read.get(str(path))
    if hit is None or hit[0] != stamp:
        hit = _read[str(path)] = (stamp, _parse(_ledger_bytes()))
    return {k: dict(v) for k, v in hit[1].items()}


def _write(keys: dict[str, dict[str, Any]]) -> None:
    path = ledger_path()
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps({"keys": keys}, indent=2, sort_keys=True) + "\n")
    scratch.replace(path)


def _enter(key: SigningKey, **fields: str) -> None:
    """Put `key`'s public half in the ledger (with `fields` it does not have yet), under its lock."""
    with _locked():
        keys = _parse(_ledger_bytes())  # read afresh under the lock
        entry = keys.get(key.id) or {"public": _public_bytes(key.private.public_key()).hex(), "added_at": now()}
        keys[key.id] = {**fields, **entry}  # a key's first exposure stands
        _write(keys)


def exposure(key: str | None) -> str | None:
    """Why a record sealed with key `key` is untrusted (None: that key was never exposed to an agent without
    isolation, or it is not in the ledger)."""
    entry = ledger().get(str(key))
    if entry is None or "exposed_at" not in entry:
        return None
    why = entry.get("why") or "an agent without isolation could read it"
    return f"sealed with a record key exposed at {entry['exposed_at']} ({why}): its seal vouches for nothing"


# -- signing and checking ------------------------------------------------------------


def signing_key() -> SigningKey:
    """The key that seals records now: an unisolated episode's own (`unisolated`), else the record key's. This
    machine's own key, once marked exposed, is retired and replaced by a fresh one."""
    override = _override.get()
    if override is not None:
        return override
    key = _from_material(record_key())
    if operator_key() is not None:
        return key
    entry = ledger().get(key.id)
    if entry is not None and ("exposed_at" in entry or "retired_at" in entry):
        _retire_own()
        key = _from_material(record_key())
    if entry is None or "exposed_at" in entry or "retired_at" in entry:
        _enter(key)
    return key


def sign(payload: bytes) -> tuple[str, str]:
    """Sign `payload` with `signing_key()`: its key id and the signature (hex)."""
    key = signing_key()
    return key.id, key.private.sign(payload).hex()


def _public_key(key: str) -> Ed25519PublicKey | None:
    """The public half of key `key`: the record key's own, else the ledger's (with an operator's key, only an
    exposed key's: its records check, and are untrusted)."""
    current = _from_material(record_key())
    if current.id == key:
        return current.private.public_key()
    entry = ledger().get(key)
    if operator_key() is not None and entry is not None and "exposed_at" not in entry:
        return None
    try:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(str(entry["public"]))) if entry else None
    except (KeyError, ValueError):
        return None


def check(key: Any, payload: bytes, signature: Any) -> bool:
    """Whether `signature` (hex) is key `key`'s signature of `payload`."""
    public = _public_key(str(key))
    if public is None:
        return False
    try:
        public.verify(bytes.fromhex(str(signature)), payload)
    except (InvalidSignature, ValueError):
        return False
    return True


def has_keys() -> bool:
    """Whether this machine has a key to check seals with (the operator's, its own key file, or a ledger)."""
    named = os.environ.get(KEY_FILE_ENV)
    if os.environ.get(KEY_ENV) or named:
        return bool(os.environ.get(KEY_ENV)) or Path(named or "").is_file()
    return key_path().is_file() or ledger_path().is_file()


def retired_any() -> bool:
    """Whether this machine's own key was ever retired (records sealed with HMAC under it no longer check)."""
    return any("retired_at" in entry for entry in ledger().values())


# -- an agent without isolation ------------------------------------------------------


def _retire_own(exposed: str | None = None) -> None:
    """Retire this machine's own key: its public half stays in the ledger (marked exposed when `exposed` says why),
    its file is deleted. Both the key this process holds and the one in the file, when they differ."""
    path = key_path()
    with _locked():
        held = _keys.pop(str(path), None)
        try:
            found = _read_key(path) if path.is_file() else None
        except (OSError, RecordKeyError):
            found = None
        keys = _parse(_ledger_bytes())  # read afresh under the lock
        for material in {m for m in (held, found) if m is not None}:
            key = _from_material(material)
            entry = keys.get(key.id) or {"public": _public_bytes(key.private.public_key()).hex(), "added_at": now()}
            fields = {"retired_at": now()} | ({"exposed_at": now(), "why": exposed} if exposed else {})
            keys[key.id] = {**fields, **entry}
        _write(keys)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def expose(why: str) -> None:
    """Before an agent without isolation starts: retire this machine's own key, or mark the operator's exposed."""
    if operator_key() is not None:
        _enter(_from_material(record_key()), exposed_at=now(), why=why)
    else:
        _retire_own()


@contextlib.contextmanager
def exposed_key(why: str) -> Iterator[SigningKey]:
    """Sign everything in this context (this task's) with a key of its own, marked exposed (`why`) in the ledger:
    the records it seals are untrusted by their key, whatever they claim."""
    private = Ed25519PrivateKey.generate()
    own = SigningKey(key_id(private.public_key()), private)
    _enter(own, exposed_at=now(), why=why)
    token = _override.set(own)
    try:
        yield own
    finally:
        _override.reset(token)


@contextlib.contextmanager
def unisolated(why: str) -> Iterator[SigningKey]:
    """Around an episode whose agent runs without isolation, from before it starts until its record is sealed: see
    the module docstring. Yields the episode's own key (`exposed_key`), with which everything sealed in this context
    (this task's) is signed."""
    expose(why)
    with exposed_key(why) as own:
        before = _parse(_ledger_bytes())
        try:
            yield own
        finally:
            _restore(before, why)


def _restore(before: dict[str, dict[str, Any]], why: str) -> None:
    """Put back the ledger's entries as they were when the agent started and mark every key added since exposed.
    A key file of this machine's is one made since (the last was retired before the agent started): retired and
    marked exposed. The operator's key, even one the agent replaced, is marked exposed."""
    with _locked():
        keys = _parse(_ledger_bytes())  # read afresh under the lock
        added = {
            k: {**v, "exposed_at": v.get("exposed_at") or now(), "why": v.get("why") or why}
            for k, v in keys.items()
            if k not in before
        }
        _write({**added, **before})
    try:
        given = operator_key()
    except RecordKeyError:
        return  # an operator's key that no longer reads seals nothing
    if given is not None:
        _enter(_from_material(given), exposed_at=now(), why=why)
    elif key_path().exists() or str(key_path()) in _keys:
        _retire_own(exposed=why)


T = TypeVar("T")


def unisolated_agent(run: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Decorate `run(scenario, backend, agent, ...)`, which runs one episode and seals its record: when the agent
    runs without isolation (its `untrusted` says why), all of it runs inside `unisolated`."""

    @functools.wraps(run)
    async def wrapped(*args: Any, **kwargs: Any) -> T:
        agent = kwargs["agent"] if "agent" in kwargs else args[2] if len(args) > 2 else None
        why = getattr(agent, "untrusted", None)
        if not why:
            return await run(*args, **kwargs)
        with unisolated(str(why)):
            return await run(*args, **kwargs)

    return wrapped
