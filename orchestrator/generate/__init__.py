"""Generated tasks: procedural worlds, task families, and the pipeline that proves and writes them.

- `world`: `build_world(seed, size) -> World`, an organization across calendar, mail, docs and tickets
  (Faker-seeded; same seed and size, same world byte for byte). `World` holds the persona, `people`
  (inside the organization), `outsiders`, `domains`, `start` (the clock, a Monday 09:00 in the persona's
  zone) and `apps` (seed data in the scenario format). Helpers: `person(email)`, `day(offset)`,
  `at(day, "14:30", tz)`, `busy(email)`, `free(email, window)`, `copy()`, `scenario_head()`, `dump()`.
- `family`: the `Family` base class (`name`, `title`, `apps`, `knobs`, `split_params`, `phrasings`,
  `sample(world, rng, knobs) -> params | None`, `build(world, params) -> Draft`, `difficulty`), `Draft`
  (the scenario being written: `add(app, table, row)`, `stage(name, checks)`, `allow`, `relax`, `forbid`,
  `oracle`, `oracles`, `limits`), `Task` (a generated task and its manifest row), `@register`,
  `families()`, and helpers (`phrase`, `human_day`, `human_time`, `digest`, `dump_yaml`).
- `families/`: the built-in families, one module each, found by `families.load_all()`.
- `pipeline`: drawing, deduplicating, proving and writing tasks (`orchestrator generate`).

Imports `orchestrator.scenario`, `orchestrator.prove`, `orchestrator.backends` and `servers`; nothing
imports it but the command line.
"""
