"""The run record: the files a run leaves in its folder, and the one way every writer and reader handles them.

    results.json   what the folder holds, by its `kind`:
                   "episode"  one episode's verdict (scenario, passed, score, stages, checks, ..., status, digest),
                              with trace.jsonl next to it
                   "repeat"   one scenario run K times: pass@k, pass^k, episodes in episode-001/ ...
                   "suite"    many scenarios: one folder per scenario and a summary of them all
    trace.jsonl    the gateway's trace and the app journals, one JSON object a line
    messages.json  a model agent's conversation; agent.log a command agent's output; mcp.json its MCP config

Writers (`orchestrator.run`, `orchestrator serve`) write a results.json atomically and always with its `kind`.
Readers (the viewer, export, the CLI) tell kinds apart with `kind_of`, which also recognises a record written before
`kind` existed by its fields, and read JSON lines with `read_jsonl`: a line that does not parse is skipped and
counted, it never costs the rest of the file. The digest in an episode's results.json (sha256 of its trace.jsonl
and of the journal the verdict was computed from) is written by `write_episode` and checked by `verify_digest`.

May import: nothing (the standard library only), so the viewer reads run folders without depending on how runs
are made.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any, Protocol

RESULTS = "results.json"
TRACE = "trace.jsonl"
MESSAGES = "messages.json"
AGENT_LOG = "agent.log"
MCP_CONFIG = "mcp.json"
EPISODE_FOLDER = "episode-{:03d}"
"""The folder of episode N (from 1) of a repeat: `EPISODE_FOLDER.format(N)`."""

EPISODE, REPEAT, SUITE = "episode", "repeat", "suite"
KINDS = (EPISODE, REPEAT, SUITE)

SKIP_DIRS = frozenset({"logs", "home", ".git", "__pycache__"})
"""Folders never searched for records: app server logs, a command agent's home (it could plant a results.json)."""


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


def write_json(path: Path, data: Any) -> None:
    """Write `data` as indented JSON, atomically. A results.json always says its kind: one missing is stamped
    from `kind_of`, so every writer's results.json carries it."""
    if path.name == RESULTS and isinstance(data, dict):
        data = with_kind(data)
    _replace(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def write_summary(folder: Path, data: dict[str, Any], kind: str) -> Path:
    """Write a repeat's or a suite's `results.json` into `folder` with its `kind`; returns the file's path."""
    path = folder / RESULTS
    write_json(path, with_kind(data, kind))
    return path


def write_episode(
    folder: Path, result: Verdict, trace: list[dict[str, Any]], journal: list[dict[str, Any]] | None = None
) -> None:
    """Write an episode's trace.jsonl, then its results.json (kind "episode") with the sha256 of both the trace and
    the journal the verdict was computed from; each file atomically.

    `journal` defaults to the app entries of `trace` (what `merged_trace` puts there)."""
    text = "".join(json.dumps(entry, default=str) + "\n" for entry in trace).encode()
    _replace(folder / TRACE, text)
    if journal is None:
        journal = journal_of(trace)
    result.digest = {
        "algorithm": "sha256",
        "trace": hashlib.sha256(text).hexdigest(),
        "journal": journal_digest(journal),
    }
    write_json(folder / RESULTS, with_kind(result.model_dump(mode="json"), EPISODE))


# -- the digest ----------------------------------------------------------------------


def journal_of(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The app journals inside a merged trace, in order, as the verifier read them."""
    return [
        {k: v for k, v in entry.items() if k != "source"}
        for entry in trace
        if str(entry.get("source", "")).startswith("app:")
    ]


def journal_digest(journal: list[dict[str, Any]]) -> str:
    """sha256 of the journal as canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(journal, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def verify_digest(folder: Path) -> list[str]:
    """Problems found checking `folder/results.json`'s digest against its `trace.jsonl` (empty: they match)."""
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
    return problems


# -- reading -------------------------------------------------------------------------


MAX_DEPTH = 100
"""How deeply a record's JSON may nest. A run's own records nest a few levels; deeper is a crafted or corrupt file,
which would exhaust the stack of every reader that walks it (the digest, export, the viewer's templates)."""


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads(text: str) -> Any:
    """`json.loads` that refuses, with a ValueError, JSON nested deeper than `MAX_DEPTH`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)")
    return value


def read_json(path: Path) -> Any:
    """The JSON in `path`, or None when it cannot be read, is not JSON or nests deeper than `MAX_DEPTH`."""
    try:
        return loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None


@dataclass
class JsonLines:
    """The JSON objects of a JSON-lines file, and how many non-blank lines were skipped because they were not one."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0


def parse_jsonl(text: str) -> JsonLines:
    """Every line of `text` that is a JSON object (nested at most `MAX_DEPTH` deep); other non-blank lines are
    counted in `skipped`."""
    lines = JsonLines()
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except ValueError:
            entry = None
        if isinstance(entry, dict):
            lines.entries.append(entry)
        else:
            lines.skipped += 1
    return lines


def read_jsonl(path: Path) -> JsonLines:
    """`parse_jsonl` of a file (bytes that are not UTF-8 replaced); a missing or unreadable file has no lines."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return JsonLines()
    return parse_jsonl(text)


def read_trace(folder: Path) -> JsonLines:
    """An episode's trace.jsonl, read tolerantly (`read_jsonl`)."""
    return read_jsonl(folder / TRACE)


def run_folders(root: Path) -> Iterator[Path]:
    """`root` and every folder below it that may hold a record, in sorted order; hidden folders and `SKIP_DIRS` are
    not searched, and symlinks (like `latest`) are not followed, so nothing shows twice."""
    yield root
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in dirnames:
            yield Path(dirpath) / name


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


def find_records(root: Path) -> Iterator[Found]:
    """Every results.json under `root` (`root` itself when it is one), in folder order, each folder once even when
    a symlink reaches it again. Readers keep the kinds they want and report the ones that are None."""
    if root.name == RESULTS and root.is_file():
        data = read_json(root)
        yield Found(root.parent, data, kind_of(data))
        return
    seen: set[Path] = set()
    for folder in run_folders(root):
        real = folder.resolve()
        path = folder / RESULTS
        if real in seen or not path.is_file():
            continue
        data = read_json(path)
        kind = kind_of(data)
        if kind is not None:
            seen.add(real)
        yield Found(folder, data, kind)


# -- pass@k and pass^k ---------------------------------------------------------------


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k episodes passes, estimated from c passes in n."""
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of k episodes pass, estimated from c passes in n."""
    return comb(c, k) / comb(n, k)


def pass_k_tables(n: int, c: int) -> dict[str, dict[str, float]]:
    """`pass_at_k` and `pass_hat_k` for k = 1 … n, keyed by str(k) and rounded to 6 places, as summaries hold them."""
    ks = range(1, n + 1)
    return {
        "pass_at_k": {str(k): round(pass_at_k(n, c, k), 6) for k in ks},
        "pass_hat_k": {str(k): round(pass_hat_k(n, c, k), 6) for k in ks},
    }


# -- errored episodes ----------------------------------------------------------------


ERRORED = ("error", "agent_error", "interrupted")
"""The statuses of an episode that ended for a reason other than the task: something besides the agent failed
(`error`), the agent never worked on it (`agent_error`: its model's API failed for good, or its command never
started), or the run was stopped (`interrupted`). Such an episode is not scored: it counts neither as passed nor
as failed, nor in mean scores or pass@k, and is reported apart with its reason."""


def is_errored(status: Any) -> bool:
    """Whether an episode with this status is errored (`ERRORED`): reported apart, never scored."""
    return status in ERRORED


@dataclass
class Tally:
    """Episodes counted the one way every total is: passes, failures and mean score over the scored ones, the
    errored ones apart with their reasons (`ERRORED`)."""

    episodes: int = 0
    passes: int = 0
    failed: int = 0
    errored: int = 0
    score_sum: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)
    """How many errored episodes gave each reason ("agent_error: ..."), in the order first met."""

    @property
    def scored(self) -> int:
        """Episodes that count in scores: the ones that passed or failed."""
        return self.passes + self.failed

    @property
    def score(self) -> float | None:
        """The mean score of the scored episodes (None: none was scored)."""
        return round(self.score_sum / self.scored, 6) if self.scored else None

    def add(self, status: Any, passed: Any, score: Any, error: Any = None) -> None:
        """Count one episode by its status, verdict, score and (errored) reason."""
        self.episodes += 1
        if is_errored(status):
            self.errored += 1
            reason = f"{status}: {error}" if error else str(status)
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
        elif passed:
            self.passes += 1
            self.score_sum += float(score or 0.0)
        else:
            self.failed += 1
            self.score_sum += float(score or 0.0)

    def as_dict(self) -> dict[str, Any]:
        """The counts as summaries hold them: episodes, scored, passes, failed, errored, errors (reason: count),
        score, and pass@k / pass^k over the scored episodes."""
        return {
            "episodes": self.episodes,
            "scored": self.scored,
            "passes": self.passes,
            "failed": self.failed,
            "errored": self.errored,
            "errors": dict(self.reasons),
            "score": self.score,
            **pass_k_tables(self.scored, self.passes),
        }


def tally(episodes: Iterable[Any]) -> Tally:
    """A `Tally` of episodes given as results.json dicts or objects with `status`, `passed`, `score` and `error`."""
    counted = Tally()
    for episode in episodes:
        get = episode.get if isinstance(episode, dict) else lambda name, e=episode: getattr(e, name, None)
        counted.add(get("status") or "completed", get("passed"), get("score"), get("error"))
    return counted


def describe_errors(reasons: dict[str, int], limit: int = 3) -> str:
    """Errored episodes' reasons in one line: the first `limit`, each with its count when more than one."""
    parts = [f"{reason} (x{count})" if count > 1 else reason for reason, count in list(reasons.items())[:limit]]
    if len(reasons) > limit:
        parts.append(f"{len(reasons) - limit} more reason(s)")
    return "; ".join(parts)
