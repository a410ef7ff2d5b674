"""Proving drawn tasks from memory, in this process, on a pool of processes or on Ray.

A candidate is `(family, index)` of a run (`Plan`: seed, size, edition, split, knobs, proofs). `Prover.outcome`
draws it, keeps it only when it is of the wanted split, loads its scenario from the data just built
(`scenario.load_data`: no YAML is written and read back to prove it) and proves it with `prove.validate`: the basic
proofs always, the full ones (mutations, attacks, equivalents) for `--prove full` or when the task falls in the
full sample (`in_full_sample`, by the hash of its id). An edition-3 task is first read by the language and policy
check (`coherence.problems`): one with a problem is dropped as `coherence: ...` before any episode. A proven task's YAML is written to the staging folder; the
`Outcome` says what happened (unfit, other split, proven, dropped and why) with the proof counts by kind.

Executors run `Prover.outcome` and hand back `concurrent.futures.Future`s: `InlineExecutor` (one thread of this
process), `PoolExecutor` (one process per worker, `spawn`ed, each with its own in-process backend) and
`RayExecutor` (one Ray actor per worker). The pipeline decides what to keep, in index order, so every executor and
worker count writes the same bytes.

May import: `scenario`, `prove`, `backends`, `episode.collector`, `orchestrator.generate` modules.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import signal
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from orchestrator.episode.collector import collector_for_episodes
from orchestrator.generate.family import Task, digest

FULL_VARIATIONS = 12
"""Variation episodes a side (channels, extras, wordings; hedges, stuffing, wrong zones, stale values) in the full
proofs of a generated task: fewer than `orchestrator validate`'s 30, since a release proves thousands."""


@dataclass(frozen=True)
class Plan:
    """What every candidate of a run shares (picklable: it goes to worker processes)."""

    seed: int
    size: str
    edition: int
    split: str | None
    knobs: tuple[tuple[str, Any], ...]
    prove: str
    full_share: float
    """The share of tasks (0 to 1) proven in full besides `--prove full` (`--full-sample`)."""
    staging: str
    """Folder where proven tasks' files are written as `<family>/<id>.yaml`."""
    transform: Any = None


@dataclass
class Outcome:
    """What became of one candidate: `unfit`, `other_split`, `proven` or `dropped` (with the problem)."""

    family: str
    index: int
    status: str
    key: str = ""
    """The task's checks key (`Task.checks_key`), for deduplication."""
    row: dict[str, Any] | None = None
    problem: str = ""
    episodes: int = 0
    full: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    """Proof episodes by kind: reference, noop, mutations, attacks, equivalents (and how many held)."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def in_full_sample(task_id: str, share: float) -> bool:
    """Whether a task is in a run's full-proof sample: its id's hash, in 10,000 buckets, below `share`."""
    return share > 0 and int(digest(f"full:{task_id}"), 16) % 10_000 < round(share * 10_000)


def proof_counts(check: Any) -> dict[str, int]:
    """A validation's episodes by kind, and how many of each held."""
    counts = {"reference": 1 if check.oracle is not None else 0, "noop": 1 if check.noop is not None else 0}
    if check.mutations:
        counts["mutations"] = len(check.mutations)
        counts["mutations_caught"] = sum(1 for m in check.mutations if m.caught)
    if check.attacks:
        counts["attacks"] = len(check.attacks)
        counts["attacks_failed"] = sum(1 for t in check.attacks if t.outcome == "failed")
    if check.equivalents:
        counts["equivalents"] = len(check.equivalents)
        counts["equivalents_passed"] = sum(1 for t in check.equivalents if t.outcome == "passed")
    return counts


class Prover:
    """Draws and proves candidates on one in-process backend, on an event loop of its own."""

    def __init__(self, plan: Plan) -> None:
        from orchestrator.backends.inprocess import InProcessBackend  # noqa: PLC0415

        self.plan = plan
        self.loop = asyncio.new_event_loop()
        self.backend = InProcessBackend()
        self.loop.run_until_complete(self.backend.__aenter__())
        self._collector = contextlib.ExitStack()  # a task makes and drops whole organizations: rows, nodes of its YAML
        self._collector.enter_context(collector_for_episodes())

    def close(self) -> None:
        self.loop.run_until_complete(self.backend.__aexit__(None, None, None))
        self.loop.close()
        self._collector.close()

    def outcome(self, family: str, index: int) -> Outcome:
        """Draw candidate `index` of `family`, and prove it when it is of the wanted split."""
        from orchestrator.generate import drawing  # noqa: PLC0415
        from orchestrator.generate.family import families  # noqa: PLC0415

        plan = self.plan
        if plan.edition >= 2 and plan.split is not None:  # the organization decides the split: no need to draw
            split, core = drawing.organization(plan.seed, family, index, plan.edition)[1:]
            if not drawing.in_split(plan.split, split, core):
                return Outcome(family, index, "other_split")
        task = drawing.draw(families()[family](), plan.seed, plan.size, index, dict(plan.knobs), edition=plan.edition)
        if task is None:
            return Outcome(family, index, "unfit")
        if not drawing.in_split(plan.split, task.split, task.core):
            return Outcome(family, index, "other_split")
        if plan.transform is not None:
            task = plan.transform(task)
            if task is None:
                return Outcome(family, index, "unfit")
        from orchestrator.prove.schema_cache import schema_checks_remembered  # noqa: PLC0415

        with schema_checks_remembered():  # per task: a prover left open (Ctrl-C) leaves no patched classes behind
            return self.loop.run_until_complete(self._prove(task))

    async def _prove(self, task: Task) -> Outcome:
        from orchestrator import scenario as scenarios  # noqa: PLC0415
        from orchestrator.prove.validate import validate  # noqa: PLC0415

        plan = self.plan
        done = Outcome(task.family, task.index, "dropped", key=task.checks_key())
        if task.extra.get("edition", 1) >= 3:  # the language and policy check comes first: it costs no episode
            from orchestrator.generate.coherence import problems  # noqa: PLC0415

            found = problems(task.scenario)
            if found:
                done.problem = f"coherence: {found[0]}"
                return done
        text = task.yaml()
        try:
            loaded = scenarios.load_data(task.scenario, f"{task.id}.yaml")
        except scenarios.ScenarioError as exc:
            done.problem = f"load: {exc.problems[0] if exc.problems else exc}"
            return done
        full = plan.prove == "full" or in_full_sample(task.id, plan.full_share)
        done.full = full
        try:
            check = await validate(
                loaded,
                self.backend,
                mutate=full,
                attack=full,
                equivalents=full,
                variations=FULL_VARIATIONS if full else None,
            )
        except Exception as exc:  # a seed the apps refuse, a backend error: the task is unsound
            done.problem = f"seed: {type(exc).__name__}: {exc}"
            return done
        done.episodes, done.counts = check.episodes, proof_counts(check)
        if not check.valid:
            done.problem = check.problems[0]
            return done
        target = Path(plan.staging) / task.family / f"{task.id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".part{os.getpid()}")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
        done.status, done.row = "proven", task.manifest_row(text)
        return done


# -- executors -------------------------------------------------------------------------------------------------------

_LOCAL = threading.local()


def _start(plan: Plan, quiet: bool) -> None:
    if quiet:  # a worker process: Ctrl-C is the parent's to handle (it keeps what was proven and stops the pool)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _LOCAL.prover = Prover(plan)


def _run(family: str, index: int) -> Outcome:
    return _LOCAL.prover.outcome(family, index)


def _finish() -> None:
    found = getattr(_LOCAL, "prover", None)
    if found is not None:
        found.close()
        _LOCAL.prover = None


class InlineExecutor:
    """Proves in this process, on one thread of its own (its event loop is apart from any running one)."""

    def __init__(self, plan: Plan) -> None:
        self.pool = cf.ThreadPoolExecutor(1, initializer=_start, initargs=(plan, False))
        self.workers = 1
        self.futures: list[cf.Future[Outcome]] = []

    def submit(self, family: str, index: int) -> cf.Future[Outcome]:
        self.futures = [f for f in self.futures if not f.done()]
        self.futures.append(self.pool.submit(_run, family, index))
        return self.futures[-1]

    def close(self, wait: bool = True) -> None:
        """Stop: candidates not started are cancelled; with `wait`, the prover's backend is closed after the running
        one (on Ctrl-C the thread ends with the process)."""
        for future in self.futures:
            future.cancel()
        if wait:
            self.pool.submit(_finish).result()
        self.pool.shutdown(wait=wait, cancel_futures=True)


class PoolExecutor:
    """Proves on `workers` processes (spawned: each imports the families and starts its own backend)."""

    def __init__(self, plan: Plan, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pool = cf.ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(plan, True))
        self.workers = workers

    def submit(self, family: str, index: int) -> cf.Future[Outcome]:
        return self.pool.submit(_run, family, index)

    def close(self, wait: bool = True) -> None:
        """Stop: candidates not started are cancelled; `wait` for the running ones (not on Ctrl-C)."""
        self.pool.shutdown(wait=wait, cancel_futures=True)


class RayExecutor:
    """Proves on `workers` Ray actors (a local Ray on 127.0.0.1, or the cluster at `address`)."""

    def __init__(self, plan: Plan, workers: int, address: str | None = None) -> None:
        from orchestrator.backends.ray import RayBackend  # noqa: PLC0415

        self.backend = RayBackend(address, num_cpus=workers)
        self.backend.connect()
        ray = self.backend.ray
        actor = ray.remote(num_cpus=1)(_RayProver)
        self.actors = [actor.remote(plan) for _ in range(workers)]
        self.turn = 0
        self.workers = workers

    def submit(self, family: str, index: int) -> cf.Future[Outcome]:
        actor = self.actors[self.turn % len(self.actors)]
        self.turn += 1
        return actor.outcome.remote(family, index).future()

    def close(self, wait: bool = True) -> None:
        """Stop the actors (and the local Ray this started)."""
        ray = self.backend.ray
        for actor in self.actors:
            ray.kill(actor)
        if self.backend.started_here:
            ray.shutdown()


class _RayProver:
    """A Ray actor holding one `Prover`."""

    def __init__(self, plan: Plan) -> None:
        self.prover = Prover(plan)

    def outcome(self, family: str, index: int) -> Outcome:
        return self.prover.outcome(family, index)


def executor(plan: Plan, workers: int, backend: str = "local", address: str | None = None) -> Any:
    """The executor for `--backend` (`local`: inline for one worker, else a process pool; `ray`) and `--workers`."""
    if backend == "ray":
        return RayExecutor(plan, workers, address)
    return InlineExecutor(plan) if workers == 1 else PoolExecutor(plan, workers)
