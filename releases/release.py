"""The released task set: regenerate it from its command and check it against its digest.

A release is a JSON file (`releases/v1.json`): the `orchestrator generate` options it was made with, the
counts per family and split, the sha256 of the manifest (`tasks.jsonl`, whole and per family), and the
first rows of each family's manifest (id and content hash) so a small sample can be checked quickly.
The task files themselves are not committed: the same command writes the same bytes.

`digest_source` says where the digest came from: `generated` (a full run of the command, every task
proven) or `drawn` (the pipeline's draws, splits and deduplication without the proofs: the manifest the
command writes when no drawn task fails its proof; a full `check --out DIR` then proves it, and a task
that failed would show as a difference).

    .venv/bin/python releases/release.py check --out DIR          # regenerate the whole set into DIR and compare
    .venv/bin/python releases/release.py check --sample 1          # regenerate the first task of each family only
    .venv/bin/python releases/release.py check --out DIR --existing  # compare a set already in DIR (no generation)
    .venv/bin/python releases/release.py write --out DIR          # generate and (re)write the release file
    .venv/bin/python releases/release.py write --drawn            # (re)write it from the draws, without proving

Exits 1 when the regenerated set differs from the digest, naming what differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RELEASE = HERE / "v1.json"
SAMPLE_ROWS = 3


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per family and split, and the manifest digests, from the manifest's rows (in manifest order)."""

    def sha(lines: list[dict[str, Any]]) -> str:
        text = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in lines)
        return hashlib.sha256(text.encode()).hexdigest()

    families: dict[str, Any] = {}
    for name in sorted({r["family"] for r in rows}):
        mine = [r for r in rows if r["family"] == name]
        splits = Counter(r["split"] for r in mine)
        families[name] = {
            "tasks": len(mine), "train": splits.get("train", 0), "test": splits.get("test", 0),
            "core": sum(1 for r in mine if r.get("core")), "manifest_sha256": sha(mine),
            "first": [{"id": r["id"], "content_hash": r["content_hash"]} for r in mine[:SAMPLE_ROWS]],
        }  # fmt: skip
    total = Counter(r["split"] for r in rows)
    return {
        "families": families,
        "total": {"tasks": len(rows), "train": total.get("train", 0), "test": total.get("test", 0),
                  "core": sum(1 for r in rows if r.get("core"))},
        "manifest_sha256": sha(rows),
    }  # fmt: skip


def command(options: dict[str, Any], out: str = "DIR", count: int | None = None) -> str:
    return (f"orchestrator generate {options['family']} --count {count or options['count']} --seed {options['seed']} "
            f"--size {options['size']} --prove {options['prove']} --out {out}")  # fmt: skip


def pipeline_options(options: dict[str, Any], count: int | None = None, families: list[str] | None = None) -> Any:
    """The pipeline's options of a release's `options` (edition 1 when it names none; `all`: that edition's families)."""
    from orchestrator.generate import pipeline  # noqa: PLC0415

    edition = options.get("edition", 1)
    names = families or pipeline.family_names(options["family"], edition)
    return pipeline.Options(names, count or options["count"], seed=options["seed"], size=options["size"],
                            prove=options["prove"], edition=edition)  # fmt: skip


def generate(options: dict[str, Any], out: Path, count: int | None = None, families: list[str] | None = None) -> float:
    """Run the pipeline with the release's options; returns the seconds it took."""
    import anyio  # noqa: PLC0415

    from orchestrator.generate import pipeline  # noqa: PLC0415

    opts = pipeline_options(options, count, families)
    started = time.perf_counter()
    try:
        reports = anyio.run(pipeline.generate, opts, out)
    except pipeline.GenerateError as exc:
        raise SystemExit(f"error: {exc}") from None
    short = [f"{r.family} ({r.written})" for r in reports if r.written < opts.count]
    if short:
        raise SystemExit(f"fewer than {opts.count} tasks for: {', '.join(short)}")
    return time.perf_counter() - started


def draw_rows(
    options: dict[str, Any], count: int | None = None, families: list[str] | None = None
) -> list[dict[str, Any]]:
    """The manifest the release command writes if every drawn task passes its proofs: the pipeline's draws, splits and
    deduplication, without proving (minutes instead of hours). A task that failed a proof would be missing from the
    proven set, so comparing the two shows any drop."""
    from orchestrator.generate import pipeline  # noqa: PLC0415
    from orchestrator.generate.family import families as known  # noqa: PLC0415

    opts = pipeline_options(options, count, families)
    names = opts.families
    found = known()
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in names:
        report = pipeline.FamilyReport(name)
        written = 0
        for task in pipeline.candidates(found[name](), opts, report):
            key = task.checks_key()
            if key in seen:
                continue
            seen.add(key)
            rows.append(task.manifest_row())
            written += 1
            if written >= opts.count:
                break
    return sorted(rows, key=lambda r: (r["family"], r["index"]))


def read_rows(out: Path) -> list[dict[str, Any]]:
    manifest = out / "tasks.jsonl"
    if not manifest.exists():
        raise SystemExit(f"{manifest}: no manifest; generate the set first (without --existing)")
    return [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]


def compare(release: dict[str, Any], found: dict[str, Any], sample: int | None = None) -> list[str]:
    """What differs between the release's digest and a regenerated set (a sample compares first rows only)."""
    problems = []
    for name, want in release["families"].items():
        got = found["families"].get(name)
        if got is None:
            problems.append(f"{name}: no tasks generated")
            continue
        if sample is not None:
            if got["first"][:sample] != want["first"][:sample]:
                problems.append(
                    f"{name}: first {sample} task(s) differ: {got['first'][:sample]} != {want['first'][:sample]}"
                )
            continue
        for key in ("tasks", "train", "test", "core", "manifest_sha256"):
            if got[key] != want[key]:
                problems.append(f"{name}: {key} is {got[key]}, the release says {want[key]}")
    extra = sorted(set(found["families"]) - set(release["families"]))
    if extra:
        problems.append(f"families not in the release: {', '.join(extra)}")
    if sample is None and found["manifest_sha256"] != release["manifest_sha256"]:
        problems.append(f"manifest sha256 is {found['manifest_sha256']}, the release says {release['manifest_sha256']}")
    return problems


def check_sample(release: dict[str, Any], sample: int, families: list[str] | None = None) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="release-sample-") as tmp:
        generate(release["options"], Path(tmp), count=sample, families=families)
        found = summarize(read_rows(Path(tmp)))
    wanted = {
        **release,
        "families": {k: v for k, v in release["families"].items() if families is None or k in families},
    }
    return compare(wanted, found, sample)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["check", "write"])
    parser.add_argument("--out", type=Path, help="Folder for the generated set.")
    parser.add_argument(
        "--sample", type=int, help="check: regenerate (and prove) only the first N tasks of each family."
    )
    parser.add_argument("--existing", action="store_true", help="Use the set already in --out; generate nothing.")
    parser.add_argument(
        "--drawn",
        nargs="*",
        type=Path,
        metavar="ROWS",
        help="write: the digest of the draws, without proving (from these manifest files when given).",
    )
    parser.add_argument("--release", type=Path, default=RELEASE, help="The release file (default releases/v1.json).")
    args = parser.parse_args(argv)
    release = json.loads(args.release.read_text(encoding="utf-8"))
    seconds = None
    if args.action == "check" and args.sample:
        problems = check_sample(release, args.sample)
    elif args.action == "write" and args.drawn is not None:
        if args.drawn:
            rows = [
                json.loads(line)
                for path in args.drawn
                for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()
            ]
            rows.sort(key=lambda r: (r["family"], r["index"]))
        else:
            rows = draw_rows(release["options"])
        return _write(args.release, release, summarize(rows), "drawn", None)
    else:
        if args.out is None:
            parser.error("--out DIR is needed unless check --sample N or write --drawn")
        if not args.existing:
            seconds = generate(release["options"], args.out)
            print(f"generated in {seconds:.0f} s", file=sys.stderr)
        found = summarize(read_rows(args.out))
        if args.action == "write":
            return _write(args.release, release, found, "generated", seconds)
        problems = compare(release, found)
    for problem in problems:
        print(problem, file=sys.stderr)
    print("matches the release" if not problems else f"{len(problems)} difference(s) from the release")
    return 1 if problems else 0


def _write(path: Path, release: dict[str, Any], found: dict[str, Any], source: str, seconds: float | None) -> int:
    release.update(found)
    release["command"] = command(release["options"])
    release["digest_source"] = source
    if seconds is not None:
        release.setdefault("timing", {})["generated_s"] = round(seconds, 1)
    path.write_text(json.dumps(release, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}: {found['total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
