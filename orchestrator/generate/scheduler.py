"""Running a generation: candidates proven by workers, kept in index order, in a folder a crash cannot spoil.

`run(options, out)` hands candidates `(family, index)` to an executor (`prover.executor`: this process, a pool of
`--workers` processes, or Ray actors), a few per worker ahead, and keeps each family's tasks in index order: a
candidate of another split or unfit is counted, one whose checks repeat an earlier one's is a duplicate, a proven
one is kept (moved from the staging folder to `OUT/<family>/<id>.yaml`) until the family has `count`. What each
candidate came to is appended to `OUT/.generating/journal.jsonl` as soon as it is known, so a crash or Ctrl-C keeps
every proven task, and the same command run again reads the journal, proves only what is missing and ends with the
same bytes as a run never stopped (`.generating` is removed when the manifest is written).

May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import pickle
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from orchestrator.generate import prover
from orchestrator.generate.options import FamilyReport, Options, Progress, attempts, problem_kind
from orchestrator.generate.output import JOURNAL, WORK, prepare, write_manifest

AHEAD_PER_WORKER = 3
"""Candidates in flight per worker (a worker never waits for the next one)."""


@dataclass
class _Family:
    """One family's progress: candidates known by index, the next to keep, the next to hand out."""

    name: str
    count: int
    limit: int
    report: FamilyReport
    known: dict[int, prover.Outcome] = field(default_factory=dict)
    cursor: int = 0
    next_index: int = 0
    in_flight: int = 0
    seen: set[str] = field(default_factory=set)
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.report.written >= self.count or self.cursor >= self.limit

    def wanted_ahead(self) -> int:
        """How many candidates past the cursor may be in flight: what is still needed, scaled by the share of
        candidates kept so far (a split run keeps few)."""
        need = self.count - self.report.written
        processed = self.cursor
        kept = self.report.written
        return max(1, math.ceil(need * (processed + 2) / (kept + 1)))


def run(options: Options, out: Path, progress: Progress | None = None, *, replace: bool = False) -> list[FamilyReport]:
    """Generate, prove and write the tasks of `options` into `out` (continuing an unfinished run of the same
    options); returns what happened per family."""
    options.check()
    signature = options.signature()
    resumed = prepare(out, replace=replace, signature=signature)
    work = out / WORK
    staging = work / "proven"
    staging.mkdir(parents=True, exist_ok=True)
    if not resumed:
        (work / JOURNAL).unlink(missing_ok=True)
    known = _read_journal(work / JOURNAL, out, staging) if resumed else {}
    limit = attempts(options)
    states = [_Family(name, options.count, limit, FamilyReport(name)) for name in options.families]
    for state in states:
        state.known = known.get(state.name, {})
        if progress:
            progress(state.name, 0, options.count)
    plan = prover.Plan(
        options.seed,
        options.size or "small",
        options.edition,
        options.split,
        tuple(sorted(options.knobs.items())),
        options.prove,
        options.full_sample,
        str(staging),
        options.transform,
    )
    with (work / JOURNAL).open("a", encoding="utf-8") as journal:
        if not resumed:
            journal.write(json.dumps({"options": signature}, sort_keys=True) + "\n")
            journal.flush()
        _schedule(states, plan, options, journal, out, progress)
    write_manifest(out, [row for state in states for row in state.rows])
    shutil.rmtree(work, ignore_errors=True)
    return [state.report for state in states]


def _executor(plan: prover.Plan, options: Options) -> Any:
    workers = options.workers
    if workers > 1 and plan.transform is not None and options.backend == "local":
        try:
            pickle.dumps(plan.transform)
        except (pickle.PicklingError, AttributeError, TypeError):
            workers = 1  # a transform that cannot travel to another process runs here
    return prover.executor(plan, workers, options.backend, options.address)


def _schedule(
    states: list[_Family], plan: prover.Plan, options: Options, journal: TextIO, out: Path, progress: Progress | None
) -> None:
    """Hand out candidates and keep the results in order until every family is finished."""
    running: dict[cf.Future[prover.Outcome], _Family] = {}
    pool = None
    try:
        while True:
            for state in states:
                _advance(state, out, plan, progress)
            if all(state.finished for state in states):
                break
            if pool is None:
                pool = _executor(plan, options)
            _hand_out(states, running, pool)
            done, _ = cf.wait(list(running), timeout=1.0, return_when=cf.FIRST_COMPLETED)
            for future in done:
                state = running.pop(future)
                state.in_flight -= 1
                outcome = future.result()
                state.known[outcome.index] = outcome
                journal.write(json.dumps(outcome.as_json(), sort_keys=True, ensure_ascii=False) + "\n")
                journal.flush()
    except BaseException:
        if pool is not None:
            pool.close(wait=False)
        raise
    if pool is not None:
        pool.close(wait=True)


def _hand_out(states: list[_Family], running: dict[cf.Future[prover.Outcome], _Family], pool: Any) -> None:
    """Give the pool candidates, round robin over the families, up to `AHEAD_PER_WORKER` per worker in flight."""
    room = pool.workers * AHEAD_PER_WORKER - len(running)
    while room > 0:
        gave = False
        for state in states:
            if room <= 0:
                break
            while state.next_index < state.limit and state.next_index in state.known:
                state.next_index += 1
            if (
                state.finished
                or state.next_index >= state.limit
                or state.next_index - state.cursor >= state.wanted_ahead()
            ):
                continue
            running[pool.submit(state.name, state.next_index)] = state
            state.in_flight += 1
            state.next_index += 1
            room -= 1
            gave = True
        if not gave:
            return


def _advance(state: _Family, out: Path, plan: prover.Plan, progress: Progress | None) -> None:
    """Keep the family's known candidates in index order, from the cursor on, while they are known."""
    report = state.report
    while not state.finished and state.cursor in state.known:
        outcome = state.known[state.cursor]
        state.cursor += 1
        report.drawn += 1
        if outcome.status in ("unfit", "other_split"):
            report.unfit += outcome.status == "unfit"
            report.other_split += outcome.status == "other_split"
            continue
        if outcome.key in state.seen:
            report.duplicates += 1
            continue
        state.seen.add(outcome.key)
        report.episodes += outcome.episodes
        if outcome.status == "dropped":
            kind = problem_kind(outcome.problem)
            report.dropped[kind] += 1
            report.examples.setdefault(kind, outcome.problem[:500])
            continue
        row = outcome.row or {}
        target = out / state.name / f"{row['id']}.yaml"
        staged = Path(plan.staging) / state.name / f"{row['id']}.yaml"
        if staged.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            staged.replace(target)
        state.rows.append(row)
        report.written += 1
        report.full += outcome.full
        report.proofs.update(outcome.counts)
        if progress:
            progress(state.name, report.written, state.count)


def _read_journal(journal: Path, out: Path, staging: Path) -> dict[str, dict[int, prover.Outcome]]:
    """What an unfinished run knew, by family and index; a proven task whose file is gone is proven again."""
    known: dict[str, dict[int, prover.Outcome]] = {}
    text = journal.read_text(encoding="utf-8")
    if not text.endswith("\n"):  # a crash cut the last line short: drop it, so the next line starts clean
        text = text[: text.rfind("\n") + 1]
        journal.write_text(text, encoding="utf-8")
    for line in text.splitlines()[1:]:
        try:
            outcome = prover.Outcome(**json.loads(line))
        except (ValueError, TypeError):
            continue  # the line a crash cut short
        if outcome.status == "proven":
            row = outcome.row or {}
            name = f"{row.get('id')}.yaml"
            if not (staging / outcome.family / name).exists() and not (out / outcome.family / name).exists():
                continue
        known.setdefault(outcome.family, {})[outcome.index] = outcome
    return known
