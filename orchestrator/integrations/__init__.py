"""ClawGym in other tools' formats: an inspect-ai task package and the task set as a Hugging Face dataset.

- `tasks`: the task set a list of scenario files, folders, globs or ids names, narrowed by family, split (a
  generated set's `tasks.jsonl`), tags and a limit, as `orchestrator run` narrows it (`orchestrator.run.select`);
  each task's instruction, tools, scenario YAML text and manifest row.
- `inspect_task`: inspect-ai tasks (`inspect eval clawgym/travel`, `clawgym/scenarios`), registered through the
  `inspect_ai` entry point of this distribution. Each sample is one episode: inspect's own agent (`react()` by
  default) calls the episode's gateway through inspect's MCP client over Streamable HTTP, and the episode ends
  in `Episode.finish`, so the verdict is `orchestrator run`'s; the scorer reports it. Needs the `inspect` extra.
- `hf`: `orchestrator export-tasks --format hf`: the task set as a `datasets` Dataset saved to disk, or JSON lines
  `datasets.load_dataset("json", ...)` reads. Needs the `inspect` extra (for `datasets`) for `--format hf`.
- `releases`: a committed release's rows by id, each drawn again from its family and index (`orchestrator tasks
  get`, `export-tasks --release`, the env API's `reset(ID)`).

Nothing of ClawGym imports this package but the command line, and the env API `releases` (a task by id).

The selection of scenarios is `run`'s, the system prompt's preamble the model loop's (`agents.models`), each app's
tool names the registry's.

May import: `scenario`, `run`, `episode`, `backends`, `verify`, `record`, `agents.models`, `servers.registry` and (`releases`, drawing a released task again) `generate`.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.integrations.tasks import TaskEntry, TaskSetError, select_tasks

__all__ = [
    "TaskEntry",
    "TaskSetError",
    "select_tasks",
]

_SOURCES = {
    "TaskEntry": "orchestrator.integrations.tasks",
    "TaskSetError": "orchestrator.integrations.tasks",
    "select_tasks": "orchestrator.integrations.tasks",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
