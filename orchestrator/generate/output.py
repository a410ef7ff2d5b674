"""The output folder of a generation run: made ready (`prepare`: new, replaced, or an unfinished run of the same
options to continue), and the manifest written and read; `pipeline` re-exports these.

May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from orchestrator.generate.options import MANIFEST, GenerateError


def prepare(out: Path, *, replace: bool = False, signature: dict[str, Any] | None = None) -> bool:
    """Make `out` ready: a new or empty folder, or with `replace` one this command wrote before (its old tasks are
    removed). A generated set is never removed unasked: without `replace` a folder holding one is refused. Returns
    True when `out` holds an unfinished run (`WORK`) of the same options (`signature`), which the run continues."""
    if out.exists() and not out.is_dir():
        raise GenerateError(f"--out {out} is a file; expected a folder")
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    journal = out / WORK / JOURNAL
    if journal.exists() and not manifest.exists():
        if replace:
            _remove_unfinished(out)
        elif (found := _journal_options(journal)) != signature:
            raise GenerateError(
                f"--out {out} holds an unfinished run of other options ({found}): run that command again to continue "
                "it, or --replace to remove it and start this one"
            )
        else:
            return True
    entries = [p for p in out.iterdir() if not p.name.startswith(".generating")]
    if entries and not manifest.exists():
        raise GenerateError(
            f"--out {out} is not empty and holds no {MANIFEST}: give an empty folder or a generated set"
        )
    if not manifest.exists():
        return False
    lines = [line for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not replace:
        raise GenerateError(
            f"--out {out} already holds {len(lines)} generated task(s) ({MANIFEST}): give another folder, or --replace "
            "to remove them and write the new set there"
        )
    for line in lines:
        try:
            row = json.loads(line)
            old = out / row["family"] / f"{row['id']}.yaml"
        except (ValueError, KeyError, TypeError):
            raise GenerateError(f"{manifest} is not a manifest of generated tasks (line {line[:60]!r})") from None
        old.unlink(missing_ok=True)
    manifest.unlink()
    _remove_empty(out)
    return False


WORK = ".generating"
"""The folder of an unfinished run inside `--out`: its journal and the proven tasks not yet kept."""
JOURNAL = "journal.jsonl"
"""One line of options, then one line per candidate drawn (`prover.Outcome`), appended as each is known."""


def _journal_options(journal: Path) -> Any:
    with journal.open(encoding="utf-8") as lines:
        first = lines.readline()
    try:
        return json.loads(first)["options"]
    except (ValueError, KeyError, TypeError):
        return None


def _remove_unfinished(out: Path) -> None:
    """Remove an unfinished run: the tasks it kept and its working folder."""
    import shutil  # noqa: PLC0415

    for line in (out / WORK / JOURNAL).read_text(encoding="utf-8").splitlines()[1:]:
        try:
            row = json.loads(line).get("row") or {}
            (out / row["family"] / f"{row['id']}.yaml").unlink(missing_ok=True)
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a line cut short by a crash
    shutil.rmtree(out / WORK, ignore_errors=True)
    _remove_empty(out)


def _remove_empty(out: Path) -> None:
    for folder in out.iterdir():
        if folder.is_dir() and not folder.name.startswith(".") and not any(folder.iterdir()):
            folder.rmdir()


def write_manifest(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write the manifest (`tasks.jsonl`), rows sorted by family and index."""
    rows = sorted(rows, key=lambda r: (r["family"], r["index"]))
    (out / MANIFEST).write_text(
        "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def read_manifest(out: Path) -> list[dict[str, Any]]:
    """The rows of a generated set's manifest."""
    return [json.loads(line) for line in (out / MANIFEST).read_text(encoding="utf-8").splitlines() if line.strip()]


def family_shares(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per family of an edition-3 manifest: its tasks and the share of them that are living (events, people who
    answer, `ask_user`, faults), long (10 or more reference calls across 3 or more apps) and test-ood; families
    whose rows do not say (editions 1 and 2) are left out."""
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        if "living" not in row:
            continue
        mine = counts.setdefault(row["family"], {"tasks": 0, "living": 0, "long": 0, "test_ood": 0})
        mine["tasks"] += 1
        mine["living"] += bool(row["living"])
        mine["long"] += bool(row["long"])
        mine["test_ood"] += row.get("split") == "test-ood"
    return {
        family: {"tasks": c["tasks"], **{k: round(c[k] / c["tasks"], 3) for k in ("living", "long", "test_ood")}}
        for family, c in sorted(counts.items())
    }


def share_lines(rows: list[dict[str, Any]]) -> list[str]:
    """`family_shares` as the generate summary prints it: a line per family and one for the whole set."""
    shares = family_shares(rows)
    if not shares:
        return []
    lines = [
        f"{family}: {s['tasks']} tasks, living {s['living']:.0%}, long {s['long']:.0%}, test-ood {s['test_ood']:.0%}"
        for family, s in shares.items()
    ]
    kept = [r for r in rows if "living" in r]
    total = len(kept)
    living = sum(bool(r["living"]) for r in kept) / total
    long = sum(bool(r["long"]) for r in kept) / total
    ood = sum(r.get("split") == "test-ood" for r in kept) / total
    lines.append(f"all: {total} tasks, living {living:.0%}, long {long:.0%}, test-ood {ood:.0%}")
    return lines
