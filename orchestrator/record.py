"""The run record: the files a run leaves in its folder, and the one way every writer and reader handles them.

    results.json   what the folder holds, by its `kind`:
                   "episode"  one episode's verdict (scenario, passed, score, stages, checks, ..., status, digest),
                              with trace.jsonl next to it
                   "repeat"   one scenario run K times: pass@k, pass^k, episodes in episode-001/ ...
                   "suite"    many scenarios: one folder per scenario and a summary of them all
    trace.jsonl    the gateway's trace and the app journals, one JSON object a line
    messages.json  a model agent's conversation; agent.log a command agent's output; mcp.json its MCP config
    run.json       the run's id, in the folder the run writes into (its root; `start_run`)

Writers (`orchestrator.run`, `orchestrator serve`) write a results.json atomically and always with its `kind`.
Readers (the viewer, export, the CLI) tell kinds apart with `kind_of`, which also recognises a record written before
`kind` existed by its fields, and read JSON lines with `read_jsonl`: a line that does not parse is skipped and
counted, it never costs the rest of the file.

The digest in an episode's results.json seals the record: the sha256 of its trace.jsonl, of the journal the verdict
was computed from, of the verdict (results.json without its digest, naming its run and folder, `bind`, and the
scenario's sha256) and of the files the viewer shows (`SEALED_FILES`), signed together with the record key, Ed25519,
whose id the digest names (`orchestrator.record_keys`: where the key lives, and why a record sealed with a key an
agent without isolation could read is untrusted, `untrusted_reason`). A repeat's or suite's summary is sealed the
same way (`sealed_summary`). `verify_digest` (`verify_summary`) fails any edit of the verdict, the trace, the
journal, a file the viewer shows or a summary's totals, a record copied into another folder or run, and a digest
signed without the key. An older record reads everywhere; `verify_digest` calls it unsealed (or unbound).

May import: `orchestrator.record_keys`, `orchestrator.record_json`, `orchestrator.record_tally` (its parts, which
import nothing of the project), so the viewer reads run folders without depending on how runs are made.
"""

from __future__ import annotations  # noqa: I001 - the re-exports are grouped, one line each

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

import pydantic_core

from orchestrator.record_json import MAX_DEPTH, SKIP_DIRS, JsonLines, loads, parse_jsonl, read_json, read_jsonl  # noqa: F401
from orchestrator.record_json import run_folders  # noqa: F401
from orchestrator.record_keys import ALGORITHM, KEY_BYTES, KEY_ENV, KEY_FILE_ENV, RecordKeyError, _keys  # noqa: F401
from orchestrator.record_keys import exposure, has_keys, key_path, material_key_id, record_key  # noqa: F401
from orchestrator.record_keys import exposed_key, retired_any, unisolated, unisolated_agent  # noqa: F401
from orchestrator.record_keys import check as check_signature
from orchestrator.record_keys import sign as sign_payload
from orchestrator.record_tally import ERRORED, Tally, describe_errors, is_errored, is_undecided  # noqa: F401
from orchestrator.record_tally import pass_at_k, pass_hat_k  # noqa: F401
from orchestrator.record_tally import pass_k_tables, tally  # noqa: F401

RESULTS = "results.json"
TRACE = "trace.jsonl"
MESSAGES = "messages.json"
AGENT_LOG = "agent.log"
MCP_CONFIG = "mcp.json"
RUN_FILE = "run.json"
"""The run's id, in the folder a run writes into (its root): `start_run` writes it, and each record the run writes
is bound to it (`bind`)."""
SEALED_FILES = (AGENT_LOG, MESSAGES, MCP_CONFIG)
"""The files beside an episode's results.json that the viewer shows, sealed with it (their sha256, or their absence)."""
EPISODE_FOLDER = "episode-{:03d}"
"""The folder of episode N (from 1) of a repeat: `EPISODE_FOLDER.format(N)`."""

EPISODE, REPEAT, SUITE = "episode", "repeat", "suite"
KINDS = (EPISODE, REPEAT, SUITE)

# -- kinds ---------------------------------------------------------------------------


def kind_of(data: Any) -> str | None:
    """What a results.json holds: its `kind` when it states a known one, else judged by its fields as records
    without a kind always were (None: not a run record)."""
    if not isinstance(data, dict):
        return None
    if data.get("kind") in KINDS:
        return str(data["kind"])
    if isinstance(data.get("scenarios"), list) and "total" in data:
        return SUITE
    if isinstance(data.get("results"), list) and "episodes" in data:
        return REPEAT
    if "scenario" in data and ("checks" in data or "stages" in data or "passed" in data):
        return EPISODE
    return None


def with_kind(data: dict[str, Any], kind: str | None = None) -> dict[str, Any]:
    """`data` with `kind` first: the given one, else the one `kind_of` finds (unchanged when it finds none)."""
    kind = kind or kind_of(data)
    if kind is None:
        return data
    if kind not in KINDS:
        raise ValueError(f"unknown record kind {kind!r}: expected one of {', '.join(KINDS)}")
    return {"kind": kind, **{k: v for k, v in data.items() if k != "kind"}}


# -- writing -------------------------------------------------------------------------


class Verdict(Protocol):
    """What `write_episode` needs of an episode's result (`orchestrator.verify.results.Result`)."""

    digest: dict[str, str] | None

    def model_dump(self, *, mode: str) -> dict[str, Any]: ...


def _replace(path: Path, data: bytes) -> None:
    """Write `data` to `path` atomically: readers see the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    scratch.write_bytes(data)
    scratch.replace(path)


def write_json(path: Path, data: Any, *, plain: bool = False) -> None:
    """Write `data` as indented JSON, atomically. A results.json always says its kind: one missing is stamped
    from `kind_of`, so every writer's results.json carries it. `plain`: `data` is JSON as `json.loads` gives it
    (str keys, lists, no other types), which is encoded faster (`_indented`)."""
    if path.name == RESULTS and isinstance(data, dict):
        data = with_kind(data)
        if data.get("kind") in (REPEAT, SUITE):
            data = sealed_summary(path.parent, data, plain=plain)
    _replace(path, _indented(data) if plain else (json.dumps(data, indent=2, default=str) + "\n").encode())


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON spells a character beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _indented(data: Any) -> bytes:
    """Plain JSON `data` indented by two spaces, ASCII only, as `json.dumps(data, indent=2)` writes it (numbers may
    be spelled differently, `1e-05` as `1e-5`: the same values). Encoded by pydantic-core, an order of magnitude
    faster than the standard library's indenting encoder, which is pure Python; that one is the fallback."""
    try:
        text = pydantic_core.to_json(data, indent=2, inf_nan_mode="constants").decode()
    except (ValueError, TypeError, pydantic_core.PydanticSerializationError):
        return (json.dumps(data, indent=2, default=str) + "\n").encode()
    return (_NON_ASCII.sub(_escape, text) if not text.isascii() else text).encode() + b"\n"


def write_summary(folder: Path, data: dict[str, Any], kind: str) -> Path:
    """Write a repeat's or a suite's `results.json` into `folder` with its `kind`; returns the file's path."""
    path = folder / RESULTS
    write_json(path, with_kind(data, kind))
    return path


def write_episode(
    folder: Path,
    result: Verdict,
    trace: list[dict[str, Any]],
    journal: list[dict[str, Any]] | None = None,
    encoded: Mapping[int, str] | None = None,
) -> None:
    """Write an episode's trace.jsonl, then its results.json (kind "episode") sealed (`seal`) over the trace, the
    journal the verdict was computed from and the verdict; each file atomically.

    `journal` defaults to the app entries of `trace` (what `merged_trace` puts there); `encoded` has the lines of
    entries already encoded, by `id()` (`Trace.lines`)."""
    if isinstance(getattr(result, "episode", None), dict):
        result.episode.setdefault("written_at", now())  # type: ignore[attr-defined]  # a Result's episode: checked just above; the run's date: a copy of the folder keeps it
        result.episode.update(bind(folder))  # type: ignore[attr-defined]  # a Result's episode: checked just above
    lines = encoded or {}
    text = "".join((lines.get(id(entry)) or json.dumps(entry, default=str)) + "\n" for entry in trace).encode()
    _replace(folder / TRACE, text)
    if journal is None:
        journal = journal_of(trace)
    result.digest = None
    verdict = with_kind(result.model_dump(mode="json"), EPISODE)
    result.digest = seal(
        verdict, hashlib.sha256(text).hexdigest(), journal_digest(journal), plain=True, files=files_digest(folder)
    )
    if "digest" in verdict:  # the verdict as dumped for the seal, with its seal: dumped once
        write_json(folder / RESULTS, {k: result.digest if k == "digest" else v for k, v in verdict.items()}, plain=True)
    else:
        write_json(folder / RESULTS, with_kind(result.model_dump(mode="json"), EPISODE))


def now() -> str:
    """The time a record is written, as results.json states it: ISO 8601, to the second, with the UTC offset."""
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def reseal(folder: Path) -> None:
    """Seal an episode folder written elsewhere (a Ray worker's files, copied here) under this machine's key (one
    marked exposed when its agent ran without isolation): its results.json, bound to this folder and its run
    (`bind`), gets the digest of its verdict, its trace.jsonl, the journal in that trace and the files the viewer
    shows."""
    verdict = loads((folder / RESULTS).read_text())
    raw = (folder / TRACE).read_bytes() if (folder / TRACE).exists() else b""
    journal = journal_of(parse_jsonl(raw.decode("utf-8", errors="replace")).entries)
    verdict = with_kind({k: v for k, v in verdict.items() if k != "digest"}, EPISODE)
    episode = found if isinstance(found := verdict.get("episode"), dict) else {}
    verdict["episode"] = {**episode, **bind(folder)}
    why = untrusted_reason(verdict)  # its agent ran without isolation: sealed with a key marked exposed
    with exposed_key(why) if why else contextlib.nullcontext():
        digest = seal(verdict, hashlib.sha256(raw).hexdigest(), journal_digest(journal), files=files_digest(folder))
    write_json(folder / RESULTS, {**verdict, "digest": digest})


# -- what a record is bound to: its run, its folder in the run, the files beside it ---------------


def start_run(root: Path, *, resume: bool = False) -> str:
    """Start a run that writes into `root`: a new run id in root/run.json (with --resume, the one there already, so
    the episodes kept and the ones run now are one run's); returns it. Every record written under `root` is bound
    to it (`bind`)."""
    if resume and (found := _run_file(root)) is not None:
        return found
    run = secrets.token_hex(8)
    write_json(root / RUN_FILE, {"run": run, "started_at": now()})
    return run


def _run_file(root: Path) -> str | None:
    """The run id in root/run.json, or None (no such file, or not one)."""
    path = root / RUN_FILE
    if not path.is_file():
        return None
    data = read_json(path)
    run = data.get("run") if isinstance(data, dict) else None
    return run if isinstance(run, str) and run else None


RUN_DEPTH = 2
"""How far above a record its run's root may be: a suite's scenario folder holds its episodes' folders."""


def run_root(folder: Path) -> tuple[Path, str] | None:
    """The root of the run `folder` belongs to and its run id: the nearest of `folder` and up to `RUN_DEPTH` folders
    above it that holds a run.json; None when none does."""
    for root in [folder, *list(folder.parents)[:RUN_DEPTH]]:
        run = _run_file(root)
        if run is not None:
            return root, run
    return None


def bind(folder: Path) -> dict[str, str]:
    """What a record written in `folder` is bound to: `run`, its run's id, and `folder`, its folder relative to its
    run's root ("." for the root itself). A folder of no run (`orchestrator serve`, the inspect task) starts one
    there (`start_run`), so a record copied into it later names another run."""
    folder = Path(os.path.abspath(folder))
    found = run_root(folder)
    if found is None:
        folder.mkdir(parents=True, exist_ok=True)
        return {"run": start_run(folder), "folder": "."}
    root, run = found
    return {"run": run, "folder": folder.relative_to(root).as_posix() if folder != root else "."}


def _file_sha256(path: Path) -> str | None:
    """sha256 of a regular file (`NOT_REGULAR` for a FIFO, a device or a folder in its place); None: not there."""
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return NOT_REGULAR
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


NOT_REGULAR = "not a regular file"


def files_digest(folder: Path) -> dict[str, str]:
    """The sha256 of each of `SEALED_FILES` in `folder` that is there: what the seal vouches for besides the verdict
    and the trace (one not listed must not be there)."""
    return {name: sha for name in SEALED_FILES if (sha := _file_sha256(folder / name)) is not None}


# -- the seal ------------------------------------------------------------------------


SEAL = ALGORITHM
LEGACY_SEAL = "hmac-sha256"
"""How records were sealed before they were signed: an HMAC under the record key's material, still checked."""


def verdict_digest(verdict: dict[str, Any], *, plain: bool = False) -> str:
    """sha256 of a results.json without its digest, as canonical JSON: what any edit of the verdict changes.

    The verdict is read as JSON reads it back (tuples as lists, keys as strings); `plain` says it already is (a
    `model_dump(mode="json")` or parsed JSON), which spares the round trip."""
    data = {k: v for k, v in verdict.items() if k != "digest"}
    if not plain:
        data = json.loads(json.dumps(data, default=str))
    return hashlib.sha256(_canonical(data).encode()).hexdigest()


def seal(
    verdict: dict[str, Any],
    trace_sha256: str,
    journal_sha256: str,
    *,
    plain: bool = False,
    files: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The digest of an episode's record: the sha256 of its trace, journal, verdict (which names its run and folder,
    `bind`) and of the files beside it the viewer shows (`files_digest`), and their HMAC under `record_key`
    (`plain`: as `verdict_digest`)."""
    digest: dict[str, Any] = {
        "algorithm": SEAL,
        "trace": trace_sha256,
        "journal": journal_sha256,
        "verdict": verdict_digest(verdict, plain=plain),
    }
    if files is not None:  # a string, as every value of a digest is: the files' sha256 as canonical JSON
        digest["files"] = _canonical(dict(sorted(files.items())))
    return _sealed(digest)


def sealed_summary(folder: Path, data: dict[str, Any], *, plain: bool = False) -> dict[str, Any]:
    """A repeat's or suite's summary (with its kind) bound to its run and folder (`bind`) and sealed: its digest is
    the sha256 of the summary and its HMAC under `record_key`, so an edited total or a summary copied from another
    run is refused (`verify_summary`)."""
    data = {**{k: v for k, v in data.items() if k != "digest"}, **bind(folder)}
    digest = {"algorithm": SEAL, "kind": data["kind"], "verdict": verdict_digest(data, plain=plain)}
    return {**data, "digest": _sealed(digest)}


def _signed(digest: dict[str, Any]) -> bytes:
    """What a digest's seal signs: its hashes, as canonical JSON."""
    signed: dict[str, Any] = {name: str(digest.get(name)) for name in ("trace", "journal", "verdict")}
    signed |= {name: digest[name] for name in ("files", "kind") if name in digest}
    return _canonical(signed).encode()


def _sealed(digest: dict[str, Any]) -> dict[str, Any]:
    """`digest` with its seal: the key's id and its Ed25519 signature (`orchestrator.record_keys.sign`)."""
    key, signature = sign_payload(_signed(digest))
    return {**digest, "key": key, "seal": signature}


def sealing_key(digest: Any) -> str | None:
    """The id of the key that sealed a digest: the one it names, or (an HMAC seal) the record key's."""
    if not isinstance(digest, dict) or "seal" not in digest:
        return None
    if digest.get("algorithm") == LEGACY_SEAL:
        try:
            return material_key_id()
        except RecordKeyError:
            return None
    return str(digest.get("key"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)


def journal_of(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The app journals inside a merged trace, in order, as the verifier read them."""
    return [
        {k: v for k, v in entry.items() if k != "source"}
        for entry in trace
        if str(entry.get("source", "")).startswith("app:")
    ]


def journal_digest(journal: list[dict[str, Any]]) -> str:
    """sha256 of the journal as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(_canonical(journal).encode()).hexdigest()


UNSEALED = "unsealed"
"""How `verify_digest`'s problem about a record with no seal begins (one written before records were sealed, or
whose seal was taken off)."""


def verify_digest(folder: Path) -> list[str]:
    """Problems found checking `folder/results.json`'s sealed digest against its verdict, `trace.jsonl` and journal
    (empty: the record is as it was sealed, under this machine's key)."""
    for name in (RESULTS, TRACE):  # a FIFO or a device in a file's place would block the read for ever
        if (folder / name).exists() and not (folder / name).is_file():
            return [f"cannot read the episode in {folder}: its {name} is not a regular file"]
    try:
        result = loads((folder / RESULTS).read_text())
        raw = (folder / TRACE).read_bytes()
    except (OSError, ValueError) as exc:
        return [f"cannot read the episode in {folder}: {exc}"]
    digest = result.get("digest") if isinstance(result, dict) else None
    if not isinstance(digest, dict):
        return [f"{folder / RESULTS} has no digest"]
    problems = []
    if hashlib.sha256(raw).hexdigest() != digest.get("trace"):
        problems.append(f"{TRACE} does not match the digest in {RESULTS}")
    lines = parse_jsonl(raw.decode("utf-8", errors="replace"))
    if lines.skipped:  # the digest vouches for every line: one that does not read is a problem, not something to skip
        return [*problems, f"{TRACE} is not JSON lines: {lines.skipped} line(s) are not JSON objects"]
    if journal_digest(journal_of(lines.entries)) != digest.get("journal"):
        problems.append(f"the journal in {TRACE} does not match the digest in {RESULTS}")
    if "seal" not in digest:
        return [
            *problems,
            f"{UNSEALED}: {RESULTS} has no seal (written before records were sealed, or its seal was "
            "removed), so nothing vouches for its verdict",
        ]
    if verdict_digest(result) != digest.get("verdict"):
        problems.append(f"the verdict in {RESULTS} (passed, score, checks, ...) does not match its digest")
    sealed = _sealed_files(digest.get("files"))
    if sealed is None:
        return [
            *problems,
            f"{UNBOUND}: {RESULTS} was sealed before seals covered {', '.join(SEALED_FILES)} and named "
            "the episode's run and folder, so a copy cannot be told from the original",
        ]
    problems += _files_problems(folder, sealed)
    episode = result.get("episode") if isinstance(result.get("episode"), dict) else {}
    problems += _binding_problems(folder, episode)
    return problems or _seal_problems(digest)


def _seal_problems(digest: dict[str, Any]) -> list[str]:
    try:
        if digest.get("algorithm") == LEGACY_SEAL:
            signature = hmac.new(record_key(), _signed(digest), hashlib.sha256).hexdigest()
            good = hmac.compare_digest(signature, str(digest.get("seal")))
            if not good and retired_any():
                return [f"cannot check the seal: {RESULTS} was sealed ({LEGACY_SEAL}) with a record key retired since"]
        else:
            good = check_signature(digest.get("key"), _signed(digest), digest.get("seal"))
    except RecordKeyError as exc:
        return [f"cannot check the seal: {exc}"]
    if not good:
        return [
            f"the seal in {RESULTS} does not match: its digest was recomputed after an edit, or it was sealed "
            f"with another record key than this machine's"
        ]
    return []


UNTRUSTED_ISOLATION = (
    "isolation none: the agent ran as a plain process and could read the checks and the record key, and rewrite "
    "this record"
)


def untrusted_reason(verdict: Any) -> str | None:
    """Why a record (an episode's verdict, a summary) is not to be trusted, or None: it was sealed with a key an
    agent without isolation could read (`orchestrator.record_keys.exposure`: whatever the record says), or its
    agent, a command (`cmd:`), ran with isolation none, judged from every field that says so (`episode.untrusted`,
    `episode.isolation`, the agent's label); in-process agents (oracle, noop, model agents) run no foreign code and
    record isolation none too."""
    if exposed := exposure(sealing_key(verdict.get("digest") if isinstance(verdict, dict) else None)):
        return exposed  # an episode's or a summary's
    episode = verdict.get("episode") if isinstance(verdict, dict) else None
    if not isinstance(episode, dict):
        return None
    if episode.get("untrusted"):
        return str(episode["untrusted"])
    agent = episode.get("agent")
    label = str((agent.get("agent") if isinstance(agent, dict) else agent) or "")
    if episode.get("isolation") in ("none", None, "") and label.startswith("cmd:"):
        return UNTRUSTED_ISOLATION
    return None


UNBOUND = "unbound"
"""How `verify_digest`'s problem about a record sealed before seals named its run and folder begins."""


def _sealed_files(value: Any) -> dict[str, Any] | None:
    """The files' sha256 a digest's `files` holds (canonical JSON), or None when it holds none."""
    try:
        files = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return files if isinstance(files, dict) else None


def _files_problems(folder: Path, sealed: dict[str, Any]) -> list[str]:
    problems = []
    for name in SEALED_FILES:
        found, expected = _file_sha256(folder / name), sealed.get(name)
        if found == expected:
            continue
        if expected is None:
            problems.append(f"{name} was not there when {RESULTS} was sealed: it was added after")
        elif found is None:
            problems.append(f"{name} is missing: {RESULTS} was sealed with it")
        else:
            problems.append(f"{name} does not match the digest in {RESULTS}: it was edited or replaced")
    return problems


def _binding_problems(folder: Path, record: dict[str, Any]) -> list[str]:
    """Whether a record (an episode's `episode`, or a summary) is where it was written: in the folder it names, in
    the run whose run.json and summaries hold it."""
    run, rel = record.get("run"), record.get("folder")
    if not isinstance(run, str) or not isinstance(rel, str):
        return [f"{RESULTS} names no run and folder (episode.run, episode.folder): it cannot be told from a copy"]
    here = Path(os.path.abspath(folder))
    parts = () if rel == "." else PurePosixPath(rel).parts
    if parts and here.parts[-len(parts) :] != parts:
        return [
            f"{RESULTS} was sealed in the folder {rel!r} of its run, not in {folder}: copied from another "
            "episode's folder"
        ]
    root = here.parents[len(parts) - 1] if parts else here
    problems = []
    marked = _run_file(root)
    if marked is not None and marked != run:
        problems.append(
            f"{RESULTS} was sealed in run {run}, but {root / RUN_FILE} is run {marked}'s: copied from another run"
        )
    for above in [*here.parents[: len(parts)], *([] if parts else [here.parent])]:  # summaries over it in its run
        summary = read_json(above / RESULTS) if (above / RESULTS).is_file() else None
        if kind_of(summary) in (REPEAT, SUITE) and isinstance(summary.get("run"), str) and summary["run"] != run:  # type: ignore[union-attr, index]  # a summary of a kind is a dict
            problems.append(
                f"{RESULTS} was sealed in run {run}, but the {kind_of(summary)} in {above} is run "
                f"{summary['run']}'s: copied from another run"  # type: ignore[index]  # a summary of a kind is a dict
            )
            break
    return problems


def verify_summary(folder: Path) -> list[str]:
    """Problems found checking the seal of a repeat's or suite's `folder/results.json` (empty: as it was sealed,
    in the folder and run it was written in, under this machine's key)."""
    path = folder / RESULTS
    if path.exists() and not path.is_file():
        return [f"cannot read the summary in {folder}: its {RESULTS} is not a regular file"]
    try:
        data = loads(path.read_text())
    except (OSError, ValueError) as exc:
        return [f"cannot read the summary in {folder}: {exc}"]
    digest = data.get("digest") if isinstance(data, dict) else None
    if not isinstance(digest, dict) or "seal" not in digest:
        return [
            f"{UNSEALED}: the {kind_of(data) or 'summary'} in {RESULTS} has no seal (written before summaries "
            "were sealed, or its seal was removed), so nothing vouches for its totals"
        ]
    if verdict_digest(data) != digest.get("verdict") or digest.get("kind") != data.get("kind"):
        return [
            f"the totals in {RESULTS} (passed, failed, scores, ...) do not match its digest: edited after it was sealed"
        ]
    return _binding_problems(folder, data) or _seal_problems(digest)


# -- reading -------------------------------------------------------------------------


def read_trace(folder: Path) -> JsonLines:
    """An episode's trace.jsonl, read tolerantly (`read_jsonl`)."""
    return read_jsonl(folder / TRACE)


@dataclass
class Found:
    """A results.json met by `find_records`: its folder, its data and kind (None: not a run record)."""

    folder: Path
    data: Any
    kind: str | None

    @property
    def path(self) -> Path:
        """The results.json itself."""
        return self.folder / RESULTS


def find_records(root: Path, read: Callable[[Path], Any] = read_json) -> Iterator[Found]:
    """Every results.json under `root` (`root` itself when it is one), in folder order, each folder once even when
    a symlink reaches it again. Readers keep the kinds they want and report the ones that are None. `read` reads
    one results.json (`read_json`; the viewer passes one that remembers files it read and that did not change)."""
    if root.name == RESULTS and root.is_file():
        data = read(root)
        yield Found(root.parent, data, kind_of(data))
        return
    seen: set[Path] = set()
    for folder in run_folders(root):
        real = folder.resolve()
        path = folder / RESULTS
        if real in seen or not path.is_file():
            continue
        data = read(path)
        kind = kind_of(data)
        if kind is not None:
            seen.add(real)
        yield Found(folder, data, kind)
