"""Running episodes for `orchestrator run`: serve the gateway, run the agent, verify, write the record.

- `runner`: one episode or K of them in parallel (started as slots free up, so a huge --repeat holds only the
  running ones), each in its own folder, with pass@k and pass^k; resuming a run.
- `report`: what a run's episodes add up to: a repeat's summary, the tool-call latency, the lines for what went wrong.
- `control`: what stops a run: a signal, or its errors (fail-fast, --fail-on-error).
- `suite`: every scenario of a folder, a glob or a list in one run, with one summary.
- `slots`: how a suite's scenarios share its episode slots (longest first, at most half each while others wait).
- `select`: which scenarios a run plays: files, folders, globs and ids, narrowed by tags, family, split, limit, sample.
- `pool`: in-process episodes on forked worker processes, one per core by default (`--workers`).
- `recipe`: how another process makes a run's agent again (a pool's workers, Ray's).
- `fresh`: tasks drawn at run time from a split of the generator under a secret seed (`--fresh test`).
Episodes as Ray tasks (`--backend ray`) are `orchestrator.cluster`'s, which builds on this package: the caller gives
`run_many` its `run_episode_on_ray` (`run_one=`).

May import: `scenario`, `verify`, `backends`, `episode`, `agents`, `world`, `record` and (`fresh`) `generate`.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.run.runner import RunOptions, run_many
    from orchestrator.run.suite import SuiteOptions, run_suite

__all__ = [
    "RunOptions",
    "SuiteOptions",
    "run_many",
    "run_suite",
]

_SOURCES = {
    "RunOptions": "orchestrator.run.runner",
    "SuiteOptions": "orchestrator.run.suite",
    "run_many": "orchestrator.run.runner",
    "run_suite": "orchestrator.run.suite",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
