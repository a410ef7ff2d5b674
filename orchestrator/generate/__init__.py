"""Generated tasks: procedural organizations, task families, and the pipeline that proves and writes them.

- `build`: `build_organization(seed, size, edition=1, split=None) -> Organization`, an organization across calendar, mail, docs
  and tickets (same seed, size and edition, same organization byte for byte; sizes in `SIZES`: small, medium, large).
  Edition 1 (`build1`) is release v1's, Faker-worded; edition 2 (`build2`) draws the organization of the seed
  (`vocab.organization_name`: one of twelve industries), words every row from that industry's curated vocabulary
  (`vocab`, `industries`), spreads offices over `organization.OFFICES_V2` and clocks over the weekdays and working
  hours of the year. `Organization` (`model`) holds the edition, split, industry and `org_id`, the persona, `people`
  (inside the organization), `outsiders`, `domains`, `offices`, `start` (the clock: edition 1 a Monday 09:00,
  edition 2 any weekday 08:00-16:00, in the persona's zone) and `apps` (seed data in the scenario format).
  Methods: `person(email)`, `colleagues(team)`, `day(offset)`, `at(day, "14:30", tz)`, `busy(email)`,
  `free(email, window)`, `free_windows(emails, window)` (as the calendar's find_free_slots computes it),
  `copy()`, `scenario_head()`, `dump()`, `digest()`, `rows()`.
- `scheduling`: helpers the meeting families share: `day_window`, `aligned_starts`, `fill` (busy blocks leaving
  one slot free), `pick_guests` (colleagues over N zones).
- `family`: the `Family` base class (class attributes `name`, `title`, `apps`, `knobs` (from `KNOBS`:
  size, distractors, steps, tz_spread), `split_params`; methods `sample(org, rng, knobs) -> params | None`,
  `build(org, params) -> Draft`, `difficulty(knobs, params)`, `split_key(params)`), `Draft` (the scenario
  being written: `add(app, table, row)`, `stage(name, checks, weight)`, `allow`, `relax`, `forbid`,
  `oracle`, `oracles`, `limits`, `extra`; `scenario(id, difficulty)`), `Task` (a drawn task: id, family,
  index, params, knobs, difficulty, split, core, org, scenario; `yaml()`, `content_hash()`,
  `checks_key()`, `manifest_row()`), `@register`, `families()`, and helpers (`phrase`, `join`,
  `human_day`, `human_time`, `fake(rng, locale)`, `digest`, `canonical`, `dump_yaml`).
- `families/`: the built-in families, one module each, imported by `families.load_all()`.
- `pipeline`: `Options` (families, count, seed, size, prove, split, knobs, transform, edition, workers,
  backend, full_sample; in `options`, with `FamilyReport`) and `generate(options, out)`: draw (`drawing.draw`),
  split, transform (e.g. a prompt-injection variant), dedupe by `Task.checks_key`, prove from memory (`prover`:
  in process, on a process pool or on Ray), keep in index order in a resumable folder (`scheduler.run`), write
  `OUT/<family>/<id>.yaml` and `OUT/tasks.jsonl` (`output`); returns a `FamilyReport` per family (written,
  dropped by proof kind, duplicates, proofs by kind, ...). `edition2`: organizations per task group, splits by
  organization, the size mix, the out-of-family split, measured properties and the difficulty they give.
- `inject`: prompt-injection variants of scenarios (`orchestrator inject`, `generate --inject`); `attack_targets`:
  what a variant can attack (the rows the reference solution reads, the harmful goals an organization serves).

May import: `scenario`, `prove`, `verify`, `backends`, `agents`, `episode.collector`, `servers.registry`, `servers.calendar.model`
(free-time arithmetic); nothing imports it but the command line and fresh draws (run/fresh.py).
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.generate.build import build_organization
    from orchestrator.generate.family import Draft, Family, Task, register
    from orchestrator.generate.model import Organization
    from orchestrator.generate.options import FamilyReport, GenerateError, Options, family_names
    from orchestrator.generate.pipeline import generate

__all__ = [
    "Draft",
    "Family",
    "FamilyReport",
    "GenerateError",
    "Options",
    "Organization",
    "Task",
    "build_organization",
    "family_names",
    "generate",
    "register",
]

_SOURCES = {
    "Draft": "orchestrator.generate.family",
    "Family": "orchestrator.generate.family",
    "FamilyReport": "orchestrator.generate.options",
    "GenerateError": "orchestrator.generate.options",
    "Options": "orchestrator.generate.options",
    "Organization": "orchestrator.generate.model",
    "Task": "orchestrator.generate.family",
    "build_organization": "orchestrator.generate.build",
    "family_names": "orchestrator.generate.options",
    "generate": "orchestrator.generate.pipeline",
    "register": "orchestrator.generate.family",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
