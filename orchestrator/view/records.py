"""Run folders as the viewer reads them. Every field is optional: an older or newer results.json still shows.

A folder holding `results.json` is one of:

- an episode: the verdict of one run (`checks`, `stages` …), with `trace.jsonl` next to it;
- a repeat: one scenario run K times (`episodes`, `results`, `pass_at_k`), episodes in `episode-NNN/`;
- a suite: many scenarios (`kind: suite`, `scenarios`), one folder per scenario.

Which one is `orchestrator.record.kind_of`'s to say (the `kind` a record states, or for an older record its
fields), and folders are found and files read through `orchestrator.record`, so export sees the same episodes and
a trace line that does not parse costs that line only.
"""

from __future__ import annotations

import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from orchestrator.record import (
    AGENT_LOG,
    EPISODE,
    KEY_ENV,
    MESSAGES,
    REPEAT,
    RESULTS,
    RUN_DEPTH,
    RUN_FILE,
    SEALED_FILES,
    SUITE,
    TRACE,
    UNBOUND,
    UNSEALED,
    find_records,
    has_keys,
    is_errored,
    key_path,
    read_json,
    read_trace,
    tally,
    untrusted_reason,
    verify_digest,
    verify_summary,
)

_MEMO_LIMIT = 20_000
"""How many files' readings the viewer keeps at most (a page load rescans; unchanged files are not read again)."""
_results_memo: dict[Path, tuple[tuple[int, int, int], Any]] = {}
_trust_memo: dict[Path, tuple[tuple[Any, ...], Trust]] = {}


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when a file is rewritten (inode, mtime, size); None when it is not there."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _regular(path: Path) -> bool:
    """Whether `path` is a regular file (a FIFO or a device named like a run's file is never read)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _read_results(path: Path) -> Any:
    """`orchestrator.record.read_json` of a results.json, remembered until the file changes: a page load of a
    folder with thousands of episodes reads only the records written since the last one."""
    stamp = _stamp(path)
    if stamp is None:
        return None
    hit = _results_memo.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    data = read_json(path)
    if len(_results_memo) >= _MEMO_LIMIT:
        _results_memo.clear()
    _results_memo[path] = (stamp, data)
    return data


@dataclass
class Record:
    """One results.json: an episode, a repeat or a suite."""

    id: str
    """Stable within one scan: the folder relative to the root it was found under (prefixed when there are several roots)."""
    folder: Path
    data: dict[str, Any]
    kind: str
    """`orchestrator.record.EPISODE`, `REPEAT` or `SUITE`."""
    modified: datetime
    parent: str | None = None
    children: list[str] = field(default_factory=list)

    # -- common fields ---------------------------------------------------------

    @property
    def scenario(self) -> str:
        return str(self.data.get("scenario") or "")

    @property
    def title(self) -> str:
        return str(self.data.get("title") or "")

    @property
    def passed(self) -> bool:
        return bool(self.data.get("passed"))

    @property
    def score(self) -> float | None:
        value = self.data.get("score")
        return float(value) if isinstance(value, int | float) else None

    @property
    def counts(self) -> dict[str, Any]:
        """A repeat's or suite's episode counts (passes, failed, errored …); an episode has none."""
        counts = self.data.get("total") if self.kind == SUITE else self.data if self.kind == REPEAT else None
        return counts if isinstance(counts, dict) else {}

    @property
    def status(self) -> str:
        """An episode's status; a repeat or suite whose episodes all errored or were stopped says so ("stopped"
        when fail-fast or a signal stopped it, else "errored")."""
        if self.kind != EPISODE:
            return (
                ("stopped" if self.data.get("stopped") or self.data.get("interrupted") else "errored")
                if self.errored
                else "completed"
            )
        return str(self.data.get("status") or "completed")

    @property
    def errored(self) -> bool:
        """An episode that ended for a reason other than the task (`orchestrator.record.is_errored`): not scored. A
        repeat or suite is errored when none of its episodes failed and some errored without a pass for all: it has
        no failure to show (a suite stopped by fail-fast: failed 0, errored 19)."""
        if self.kind == EPISODE:
            return is_errored(self.status)
        counts = self.counts
        return not self.passed and not counts.get("failed") and bool(counts.get("errored"))

    @property
    def episode(self) -> dict[str, Any]:
        value = self.data.get("episode")
        return value if isinstance(value, dict) else {}

    inherited_agent: str = ""
    """The agent of the suite this episode is part of, for an episode whose record names none (one that never
    started, written before such records named their agent)."""

    @property
    def agent(self) -> str:
        if self.kind == SUITE:
            return str(self.data.get("agent") or "")
        agent = self.episode.get("agent")
        if isinstance(agent, dict):
            agent = agent.get("agent")
        return str(agent or self.inherited_agent)

    @property
    def date(self) -> str:
        return self.modified.strftime("%Y-%m-%d %H:%M")

    @property
    def instruction(self) -> str | None:
        text = self.episode.get("instruction") or self.data.get("instruction")
        if text:
            return str(text)
        for entry in self.trace():  # an agent that asked for the task got it from the gateway
            if entry.get("method") == "prompts/get":
                for message in (entry.get("result") or {}).get("messages", []):
                    content = message.get("content") or {}
                    if isinstance(content, dict) and content.get("text"):
                        return str(content["text"])
        return None

    # -- episode files ---------------------------------------------------------

    def trace(self) -> list[dict[str, Any]]:
        """The entries of trace.jsonl that read as JSON objects (`orchestrator.record.read_trace`); none when it is
        not a regular file (a FIFO would block the page for ever)."""
        return read_trace(self.folder).entries if _regular(self.folder / TRACE) else []

    def messages(self) -> list[dict[str, Any]] | None:
        """The model's conversation, when the agent wrote `messages.json` (a list, or `{messages: [...]}`)."""
        data = read_json(self.folder / MESSAGES) if _regular(self.folder / MESSAGES) else None
        if isinstance(data, dict):
            data = data.get("messages")
        if not isinstance(data, list):
            return None
        return [m if isinstance(m, dict) else {"role": "?", "content": m} for m in data]

    @property
    def untrusted(self) -> str | None:
        """Why this episode's verdict is not to be trusted because of how its agent ran, or None: `episode.untrusted`
        (isolation none), or, in a record written before that field, a `cmd:` agent with `episode.isolation: none`.
        In-process agents (oracle, noop, model agents) run no foreign code and record isolation none too."""
        if self.kind != EPISODE:
            return None
        return untrusted_reason(self.data)

    def agent_log(self, limit: int = 20_000) -> str | None:
        """The end of what a command agent printed (`limit` characters), None without an agent.log."""
        if not _regular(self.folder / AGENT_LOG):
            return None
        try:
            text = (self.folder / AGENT_LOG).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        return text if len(text) <= limit else "…\n" + text[-limit:]


@dataclass
class Library:
    """Every run found under some roots, by id, in the order found (newest first)."""

    roots: list[Path]
    records: dict[str, Record] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def scan(cls, roots: Iterable[Path]) -> Library:
        """Every record under `roots`, each folder once; results.json files that are not run records become problems."""
        library = cls([Path(r) for r in roots])
        found: list[Record] = []
        seen: set[Path] = set()
        real_of: dict[int, Path] = {}
        for number, root in enumerate(library.roots):
            prefix = f"{number + 1}/" if len(library.roots) > 1 else ""
            if not root.exists():
                library.problems.append(f"{root}: no such folder")
                continue
            base = root if root.is_dir() else root.parent
            for results in find_records(root, read=_read_results):
                if results.kind is None:
                    library.problems.append(f"{results.path}: not a ClawGym results.json")
                    continue
                real = results.folder.resolve()
                if real in seen:
                    continue
                seen.add(real)
                rel = results.folder.relative_to(base).as_posix() if results.folder != base else ""
                rid = (prefix + rel).strip("/") or (base.resolve().name or "run")
                modified = written_at(results.data) or datetime.fromtimestamp(results.path.stat().st_mtime)
                found.append(Record(rid, results.folder, results.data, results.kind, modified))
                real_of[id(found[-1])] = real
        found.sort(key=lambda r: r.modified, reverse=True)
        library.records = {r.id: r for r in found}
        by_folder = {real_of[id(r)]: r for r in found}
        for record in found:
            parent = by_folder.get(real_of[id(record)].parent)
            if parent is not None and parent.kind in (REPEAT, SUITE):
                record.parent = parent.id
                parent.children.append(record.id)
        for record in found:  # an episode that never started, in an older record: its suite's agent
            ancestor = record
            while record.kind == EPISODE and not record.agent and ancestor.parent is not None:
                ancestor = library.records[ancestor.parent]
                if ancestor.kind == SUITE:
                    record.inherited_agent = ancestor.agent
        return library

    def episodes(self) -> list[Record]:
        """The episodes, newest first."""
        return [r for r in self.records.values() if r.kind == EPISODE]

    def groups(self) -> list[Record]:
        """The repeats and suites, newest first."""
        return [r for r in self.records.values() if r.kind != EPISODE]

    def get(self, rid: str) -> Record | None:
        """The record with id `rid`, if there is one."""
        return self.records.get(rid)


def written_at(data: Any) -> datetime | None:
    """When a run record says it was written, in local time without a zone (as the lists show it): an episode's
    `episode.written_at` (or `started_at`), a repeat's or suite's `written_at`; None when it says nothing readable
    (an older record: the viewer falls back on the file's mtime, which a copy changes)."""
    if not isinstance(data, dict):
        return None
    episode = found if isinstance(found := data.get("episode"), dict) else {}
    for value in (episode.get("written_at"), episode.get("started_at"), data.get("written_at")):
        if isinstance(value, str) and value:
            try:
                when = datetime.fromisoformat(value)
            except ValueError:
                try:
                    when = datetime.strptime(value, "%Y-%m-%dT%H:%M:%S%z")
                except ValueError:
                    continue
            return when.astimezone().replace(tzinfo=None) if when.tzinfo else when
    return None


# -- what the pages need ------------------------------------------------------------


def filter_episodes(
    episodes: list[Record], *, scenario: str = "", agent: str = "", passed: str = "", since: str = "", until: str = ""
) -> list[Record]:
    """The episodes that match every filter given: scenario id, agent, passed ("yes", "no": failed, "errored"),
    days since/until."""
    out = []
    for r in episodes:
        if scenario and r.scenario != scenario:
            continue
        if agent and r.agent != agent:
            continue
        if passed in ("yes", "no") and (r.errored or r.passed != (passed == "yes")):
            continue
        if passed == "errored" and not r.errored:
            continue
        day = r.modified.strftime("%Y-%m-%d")
        if since and day < since:
            continue
        if until and day > until:
            continue
        out.append(r)
    return out


def pass_rates(episodes: list[Record]) -> list[dict[str, Any]]:
    """Per scenario and agent: episodes, and over the scored ones passes, pass rate and mean score (None: none was
    scored); the errored ones apart (`orchestrator.record.tally`)."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in episodes:
        groups.setdefault((r.scenario, r.agent), []).append(r)
    rows = []
    for (scenario, agent), group in sorted(groups.items()):
        counts = tally(r.data for r in group)
        rows.append(
            {
                "scenario": scenario,
                "agent": agent,
                "episodes": counts.episodes,
                "scored": counts.scored,
                "passes": counts.passes,
                "errored": counts.errored,
                "score": counts.score,
                "rate": counts.passes / counts.scored if counts.scored else None,
            }
        )
    return rows


# -- trust: how the agent ran, and the record's seal ---------------------------------------


@dataclass
class Trust:
    """Whether an episode's verdict can be trusted: how its agent ran (`Record.untrusted`) and its seal, which is
    `sealed` (verify-digest passes under this machine's key), `unsealed` (no seal: nothing vouches for the
    verdict), `broken` (the verdict, trace or journal was edited, or another key sealed it) or `unchecked` (no
    record key on this machine to check it with)."""

    untrusted: str | None
    seal: str
    problems: list[str] = field(default_factory=list)

    @property
    def trusted(self) -> bool:
        return self.untrusted is None and self.seal == "sealed"

    @property
    def flags(self) -> list[str]:
        """The short words the lists show: `untrusted`, `unsealed`, `seal broken`, `seal unchecked`."""
        words = {"unsealed": "unsealed", "broken": "seal broken", "unchecked": "seal unchecked"}
        return (["untrusted"] if self.untrusted else []) + ([words[self.seal]] if self.seal in words else [])


def _has_key() -> bool:
    """Whether this machine has a record key to check seals with (the viewer never makes one)."""
    return has_keys()  # a retired key's records check with the key ledger, once the key file is gone


def _sealed_paths(folder: Path) -> list[Path]:
    """The files a record's seal depends on: its own, and the run.json and summaries of the run above it."""
    above = [folder.parent, *list(folder.parent.parents)[:RUN_DEPTH]]
    return [
        folder / RESULTS,
        folder / TRACE,
        folder / RUN_FILE,
        *(folder / name for name in SEALED_FILES),
        *(a / RESULTS for a in above),
        *(a / RUN_FILE for a in above),
    ]


def trust(record: Record) -> Trust:
    """The record's `Trust`, remembered until a file its seal covers changes: checking a seal reads the whole trace.
    A repeat's or suite's is its summary's seal (`orchestrator.record.verify_summary`): an edited total is flagged."""
    stamps = (*map(_stamp, _sealed_paths(record.folder)), _has_key())
    hit = _trust_memo.get(record.folder)
    if hit is not None and hit[0] == stamps:
        return hit[1]
    if record.kind != EPISODE:
        found = _summary_trust(record, bool(stamps[-1]))
        if len(_trust_memo) >= _MEMO_LIMIT:
            _trust_memo.clear()
        _trust_memo[record.folder] = (stamps, found)
        return found
    digest = record.data.get("digest")
    if not isinstance(digest, dict) or "seal" not in digest:
        found = Trust(
            record.untrusted, "unsealed", [f"{UNSEALED}: {RESULTS} has no seal, so nothing vouches for its verdict"]
        )
    elif (record.folder / TRACE).exists() and not _regular(record.folder / TRACE):
        found = Trust(record.untrusted, "broken", [f"{TRACE} is not a regular file (a FIFO or a device): not read"])
    elif not stamps[-1]:
        found = Trust(
            record.untrusted,
            "unchecked",
            [f"no record key on this machine (${KEY_ENV} or {key_path()}) to check the seal with"],
        )
    else:
        problems = verify_digest(record.folder)
        if not problems:
            found = Trust(record.untrusted, "sealed")
        elif all(p.startswith("cannot check the seal") for p in problems):
            found = Trust(record.untrusted, "unchecked", problems)
        elif problems[0].startswith(UNBOUND):
            found = Trust(record.untrusted, "unsealed", problems)
        else:
            found = Trust(record.untrusted, "broken", problems)
    if len(_trust_memo) >= _MEMO_LIMIT:
        _trust_memo.clear()
    _trust_memo[record.folder] = (stamps, found)
    return found


def _summary_trust(record: Record, has_key: bool) -> Trust:
    digest = record.data.get("digest")
    if not isinstance(digest, dict) or "seal" not in digest:
        return Trust(
            None,
            "unsealed",
            [f"{UNSEALED}: the {record.kind}'s {RESULTS} has no seal, so nothing vouches for its totals"],
        )
    if not has_key:
        return Trust(
            None, "unchecked", [f"no record key on this machine (${KEY_ENV} or {key_path()}) to check the seal with"]
        )
    problems = verify_summary(record.folder)
    if not problems:
        return Trust(None, "sealed")
    if all(p.startswith("cannot check the seal") for p in problems):
        return Trust(None, "unchecked", problems)
    return Trust(None, "unsealed" if problems[0].startswith(UNSEALED) else "broken", problems)


# -- pages of long tables ------------------------------------------------------------------


PER_PAGE = 200
"""Rows of a long table (the episodes of a list, a suite or a repeat; a run's timeline) per page."""


@dataclass
class Page:
    """One page of a long table: its rows, its number (from 1), how many pages and rows there are in all."""

    rows: list[Any]
    number: int
    pages: int
    total: int
    first: int
    """The 1-based position of the first row shown."""

    @property
    def whole(self) -> bool:
        return self.pages <= 1


def paginate(rows: list[Any], page: int | None, per: int = PER_PAGE) -> Page:
    """Page `page` (from 1; past the end: the last) of `rows`; every row when `page` is None (a report file)."""
    if page is None or len(rows) <= per:
        return Page(rows, 1, 1, len(rows), 1)
    pages = (len(rows) + per - 1) // per
    number = min(max(1, page), pages)
    start = (number - 1) * per
    return Page(rows[start : start + per], number, pages, len(rows), start + 1)
