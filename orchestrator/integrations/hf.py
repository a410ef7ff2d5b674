"""The task set as a Hugging Face `datasets` dataset (`orchestrator export-tasks`), for trainers who load tasks so.

- `--format hf`: a `datasets.Dataset` saved with `save_to_disk` (a folder); read it back with
  `datasets.load_from_disk(PATH)`. Needs `datasets` (the `inspect` extra).
- `--format jsonl`: one JSON line per task; read it back with `datasets.load_dataset("json", data_files=PATH)`.

Each row is `orchestrator.integrations.tasks.task_row`: id, instruction, title, family, split, difficulty, tags,
apps, tools, max_tool_calls, pass_mark, path, scenario_yaml (the file's text) and metadata (the generated set's
manifest row as a JSON string, or null). Rows keep the order of the sources. A released task (an id such as
`ambiguous-v2-1-00003`, or `--release v2 --split train`) is drawn again from its release's row (`releases`): its
`path` is `RELEASE:ID`, its `metadata` the release's row. No reference solution is left out of a
row: `scenario_yaml` is the whole scenario, checks and oracle included, as a trainer's environment needs it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from orchestrator.integrations import releases
from orchestrator.integrations.tasks import select_tasks, task_row

FORMATS = ("hf", "jsonl")
STRINGS = ("id", "instruction", "title", "family", "split", "difficulty")
LISTS = ("tags", "apps", "tools")


class ExportTasksError(ValueError):
    """The export cannot be written: a format, an output path or a missing package; the message names it."""


def features() -> Any:
    """The dataset's schema, stated so every export (hand-written or generated tasks) has the same columns."""
    from datasets import Features, Value

    try:
        from datasets import List  # datasets 4+
    except ImportError:  # datasets 3
        from datasets import Sequence as List

    columns: dict[str, Any] = {name: Value("string") for name in STRINGS}
    columns |= {name: List(Value("string")) for name in LISTS}
    columns |= {"max_tool_calls": Value("int64"), "pass_mark": Value("float64")}
    columns |= {name: Value("string") for name in ("path", "scenario_yaml", "metadata")}
    return Features(columns)


def export_tasks(
    sources: Sequence[str | Path],
    fmt: str,
    out: Path,
    *,
    family: str | None = None,
    split: str | None = None,
    tags: Sequence[str] = (),
    limit: int | None = None,
    release: str | None = None,
) -> int:
    """Write the tasks `sources` name (narrowed as `orchestrator run` narrows them) to `out` in `fmt`; returns how
    many. Released task ids among `sources` (and, with `release` and no sources, that release's tasks of `split` and
    `family`) are drawn again from their rows. A `TaskSetError` names a source that chose nothing or did not load;
    an `ExportTasksError` the output; a `releases.ReleaseError` an unknown release, id or split."""
    if fmt not in FORMATS:
        raise ExportTasksError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt == "hf":
        check_dataset_folder(out)
    elif out.is_dir():
        raise ExportTasksError(f"--out {out}: is a folder; --format jsonl writes a file")
    ids = [s for s in map(str, sources) if releases.looks_like_id(s) and not Path(s).exists()]
    others = [s for s in sources if str(s) not in ids]
    rows = released_rows(ids, release, family=family, split=split, limit=limit) if ids or release else []
    if tags and rows:
        rows = [r for r in rows if set(tags) & set(r["tags"])]
    if others or not (ids or release):
        rows += [task_row(t) for t in select_tasks(others, family=family, split=split, tags=tags, limit=limit)]
    if limit is not None:
        rows = rows[:limit]
    if fmt == "jsonl":
        write_jsonl(out, rows)
    else:
        save_dataset(out, rows)
    return len(rows)


def released_rows(
    ids: Sequence[str],
    release: str | None,
    *,
    family: str | None = None,
    split: str | None = None,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """Rows (`task_row`'s columns) of released tasks: the `ids` given (looked up in `release`, or each in its
    edition's release), else `release`'s tasks of `split` and `family`; each scenario drawn again from its row."""
    from orchestrator.integrations.tasks import tool_names  # noqa: PLC0415
    from orchestrator.scenario.model import load_data  # noqa: PLC0415

    if ids:
        found = [releases.find(task_id, release) for task_id in ids]
        found = [(r, row) for r, row in found if releases.in_split(row, split) and family in (None, row["family"])]
    else:
        chosen = releases.load(str(release))
        found = [(chosen, row) for row in releases.select(chosen, split=split, family=family, limit=limit)]
    if not found:
        what = " ".join(
            [*ids, *(f"--{k} {v}" for k, v in (("release", release), ("split", split), ("family", family)) if v)]
        )
        raise releases.ReleaseError(f"{what}: no released task is of this split and family")
    rows = []
    for chosen, row in found[:limit] if limit is not None else found:
        task = releases.draw(chosen, row)
        text = releases.scenario_text(chosen, row, task)
        scenario = load_data(task.scenario, f"{row['id']}.yaml")
        rows.append(
            {
                "id": scenario.id,
                "instruction": scenario.instruction.strip(),
                "title": scenario.title,
                "family": row["family"],
                "split": row["split"],
                "difficulty": scenario.difficulty,
                "tags": list(scenario.tags),
                "apps": sorted(scenario.apps),
                "tools": tool_names(scenario),
                "max_tool_calls": scenario.limits.max_tool_calls,
                "pass_mark": scenario.pass_mark,
                "path": f"{chosen.name}:{row['id']}",
                "scenario_yaml": text,
                "metadata": json.dumps(row, sort_keys=True, ensure_ascii=False),
            }
        )
    return rows


def write_jsonl(out: Path, rows: list[dict[str, Any]]) -> None:
    """The rows as JSON lines, written atomically."""
    out.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    scratch = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    scratch.write_text(text, encoding="utf-8")
    scratch.replace(out)


def check_dataset_folder(out: Path) -> None:
    """`out` may take a saved dataset: absent, empty, or a dataset saved before (replaced); never another folder's
    files or a file."""
    if out.exists() and not out.is_dir():
        raise ExportTasksError(f"--out {out}: is a file; --format hf writes a folder (datasets' save_to_disk)")
    if out.is_dir() and any(out.iterdir()) and not (out / "dataset_info.json").is_file():
        raise ExportTasksError(
            f"--out {out}: a folder with other files in it; give a new or empty folder (or one export-tasks wrote)"
        )


def save_dataset(out: Path, rows: list[dict[str, Any]]) -> None:
    """The rows as a `datasets.Dataset` saved to `out`: saved beside it first, then moved into place."""
    try:
        from datasets import Dataset
    except ImportError:
        raise ExportTasksError(
            "--format hf needs the datasets package: pip install -e '.[inspect]' (or use --format jsonl)"
        ) from None
    dataset = Dataset.from_list(rows, features=features())
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        dataset.save_to_disk(str(scratch / "dataset"))
        if out.exists():
            shutil.rmtree(out)
        (scratch / "dataset").replace(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
