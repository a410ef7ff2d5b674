"""The task set the integrations export: scenario files chosen as `orchestrator run` chooses them, and one row each.

`select_tasks(sources, family=, split=, tags=, limit=)` resolves files, folders, globs and scenario ids
(`orchestrator.run.select.resolve_ids`, `orchestrator.run.suite.expand`), narrows them by a generated set's
manifest, tags and a limit (`narrow`), and loads each scenario; `task_row(task)` is what a trainer reads of a task.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orchestrator.run.select import MANIFEST, Selection, SelectionError, manifest_rows, narrow, resolve_ids
from orchestrator.run.suite import SuiteError, expand
from orchestrator.scenario.model import GATEWAY_SEPARATOR, Scenario, ScenarioError, load
from servers import registry


class TaskSetError(ValueError):
    """The sources or the selection name no task, or a scenario does not load; the message names the input."""


@dataclass
class TaskEntry:
    """One task of the set: its scenario file, the loaded scenario and its row of a generated set's manifest."""

    path: Path
    scenario: Scenario
    manifest: dict[str, Any] | None = None

    @property
    def family(self) -> str | None:
        """The generated family the task belongs to (None for a hand-written scenario)."""
        return (self.manifest or {}).get("family")

    @property
    def split(self) -> str | None:
        """The split of a generated task (train, test), None for a hand-written scenario."""
        return (self.manifest or {}).get("split")


def select_tasks(
    sources: Sequence[str | Path],
    *,
    family: str | None = None,
    split: str | None = None,
    tags: Sequence[str] = (),
    limit: int | None = None,
) -> list[TaskEntry]:
    """The tasks `sources` (files, folders, globs or scenario ids) name, narrowed as `orchestrator run` narrows them;
    a `TaskSetError` names the source, option or file that chose nothing or did not load."""
    if not sources:
        raise TaskSetError("give at least one scenario file, folder, glob or scenario id")
    if limit is not None and limit < 1:
        raise TaskSetError(f"limit: expected a positive number of tasks, got {limit}")
    selection = Selection(tags=list(tags), family=family, split=split, limit=limit)
    try:
        files = narrow(expand(resolve_ids(list(sources))), selection)
    except (SelectionError, SuiteError) as exc:
        raise TaskSetError(str(exc)) from None
    rows: dict[Path, dict[str, Any]] = {}
    for folder in {f.resolve().parent.parent for f in files}:
        if (folder / MANIFEST).is_file():
            rows |= manifest_rows(folder)
    tasks: list[TaskEntry] = []
    seen: dict[str, Path] = {}
    for file in files:
        scenario = selection.loaded.get(file)
        if scenario is None:
            try:
                scenario = load(file)
            except ScenarioError as exc:
                raise TaskSetError(f"{file}: not a valid scenario: {exc}") from None
        if scenario.id in seen:
            raise TaskSetError(f"{file}: scenario id {scenario.id!r} is also the id of {seen[scenario.id]}")
        seen[scenario.id] = file
        tasks.append(TaskEntry(file, scenario, rows.get(file.resolve())))
    return tasks


def tool_names(scenario: Scenario) -> list[str]:
    """The tools an agent sees in an episode of `scenario` (`app__tool`), the gateway's own included."""
    names = [
        f"{app}{GATEWAY_SEPARATOR}{tool}" for app in sorted(scenario.apps) for tool in registry.load(app).tools.tools
    ]
    if scenario.world is not None:
        names += scenario.world.gateway_tools()  # world__wait, world__ask_user, world__report
    return sorted(names)


def task_row(task: TaskEntry) -> dict[str, Any]:
    """What a trainer reads of a task: instruction, scenario id, family, split, tools, the scenario YAML text and
    its manifest row as `metadata` (a JSON string, so rows of different families share one schema)."""
    scenario = task.scenario
    return {
        "id": scenario.id,
        "instruction": scenario.instruction.strip(),
        "title": scenario.title,
        "family": task.family,
        "split": task.split,
        "difficulty": scenario.difficulty,
        "tags": list(scenario.tags),
        "apps": sorted(scenario.apps),
        "tools": tool_names(scenario),
        "max_tool_calls": scenario.limits.max_tool_calls,
        "pass_mark": scenario.pass_mark,
        "path": str(task.path),
        "scenario_yaml": task.path.read_text(encoding="utf-8"),
        "metadata": json.dumps(task.manifest, sort_keys=True, ensure_ascii=False) if task.manifest else None,
    }
