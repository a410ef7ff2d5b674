"""The released task sets: regenerate one from its command and check it against its record.

A release is a JSON file (`releases/v1.json`, `releases/v2.json`): the `orchestrator generate` options it was made
with, the counts per family and split, the sha256 of the manifest (`tasks.jsonl`, whole and per family), and the
first rows of each family's manifest (id and content hash) so a small sample can be checked quickly.

- v1 (edition 1, its ten families): the task files and the manifest are not committed; the same command writes
  the same bytes.
- v2 (edition 2, every family drawing edition-2 tasks): the manifest is committed, gzipped
  (`releases/v2/tasks.jsonl.gz`, about 20,000 rows), and `check` compares a regeneration with it row by row;
  `check` fails when the manifest is missing. `v2.json` also records the proof counts by kind when the set was
  generated (`write --out DIR`), and `releases/stats.py` measures the manifest against the set's targets. A set
  that misses a target is only written as a preview (`--preview`: `releases/v2-preview.json` and
  `releases/v2-preview/tasks.jsonl.gz`).

- v3 (edition 3: held-out programs, living and long twists, the language and policy check): as v2, and `write`
  also records the edition-3 rules, the check's drops (`coherence`: the drawn tasks it dropped, as the prover drops
  them) and `stats.py`'s figures (`stats`, per split); a set that misses one of `stats.py`'s targets is written only
  as a preview (`--preview`: `releases/v3-preview.json`, `releases/v3-preview/tasks.jsonl.gz`; `--count N` draws N
  per family). Any row of v2 or v3 loads by id: `orchestrator tasks get ID`.

`digest_source` says where the digest came from: `generated` (a full run of the command, every task proven) or
`drawn` (the pipeline's draws, splits and deduplication without the proofs: the manifest the command writes when no
drawn task fails its proof; a full `check --out DIR` then proves it, and a task that failed would show as a
difference).

    .venv/bin/python releases/release.py check --out DIR          # regenerate the whole set into DIR and compare
    .venv/bin/python releases/release.py check --sample 1          # v1: regenerate the first task of each family only
    .venv/bin/python releases/release.py check --release v2 --sample 200  # v2: 200 random rows drawn and proven again
    .venv/bin/python releases/release.py check --out DIR --existing  # compare a set already in DIR (no generation)
    .venv/bin/python releases/release.py write --out DIR          # generate and (re)write the release file
    .venv/bin/python releases/release.py write --drawn            # (re)write it from the draws, without proving
    .venv/bin/python releases/release.py write --release v2 --drawn --preview  # a v2 preview from the draws
    .venv/bin/python releases/release.py write --release v3 --drawn --preview --count 50 --workers 2  # v3 preview
    .venv/bin/python releases/release.py part --release v3 --family travel --out DIR --workers 2  # one family's part
    .venv/bin/python releases/release.py write --release v3 --parts  # v3 from its parts (releases/parts.py)
    .venv/bin/python releases/release.py check --release v3 --parts --sample 20  # rows of the parts kept so far

Exits 1 when the regenerated set differs from the release, or (v2) its manifest is missing, naming what differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import manifest  # noqa: E402  # releases/manifest.py, beside this file
import parts  # noqa: E402  # releases/parts.py, beside this file
import stats  # noqa: E402  # releases/stats.py, beside this file

RELEASE = HERE / "v1.json"
RELEASES = {"v1": HERE / "v1.json", "v2": HERE / "v2.json", "v3": HERE / "v3.json"}
SAMPLE_ROWS = 3
V2_OPTIONS = {
    "family": "all",
    "edition": 2,
    "count": 1000,
    "seed": 1,
    "size": "mix",
    "prove": "basic",
    "full_sample": 0.1,
}
"""What release v2 is generated with: 1,000 tasks of each edition-2 family, 10% of them proven in full."""
V3_OPTIONS = {**V2_OPTIONS, "edition": 3}
"""What release v3 is generated with: 1,000 tasks of each edition-3 family, 10% of them proven in full."""
SKELETONS = {"v2": V2_OPTIONS, "v3": V3_OPTIONS}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per family and split, and the manifest digests, from the manifest's rows (in manifest order)."""

    def sha(lines: list[dict[str, Any]]) -> str:
        return hashlib.sha256(manifest.lines(lines).encode()).hexdigest()

    families: dict[str, Any] = {}
    for name in sorted({r["family"] for r in rows}):
        mine = [r for r in rows if r["family"] == name]
        splits = Counter(r["split"] for r in mine)
        families[name] = {
            "tasks": len(mine),
            "train": splits.get("train", 0),
            "test": splits.get("test", 0),
            "core": sum(1 for r in mine if r.get("core")),
            "manifest_sha256": sha(mine),
            "first": [{"id": r["id"], "content_hash": r["content_hash"]} for r in mine[:SAMPLE_ROWS]],
        }
        if splits.get("test-ood"):
            families[name]["test-ood"] = splits["test-ood"]
    total = Counter(r["split"] for r in rows)
    summary = {
        "families": families,
        "total": {
            "tasks": len(rows),
            "train": total.get("train", 0),
            "test": total.get("test", 0),
            "core": sum(1 for r in rows if r.get("core")),
        },
        "manifest_sha256": sha(rows),
    }
    if total.get("test-ood"):
        summary["total"]["test-ood"] = total["test-ood"]
    return summary


def command(options: dict[str, Any], out: str = "DIR", count: int | None = None) -> str:
    """The `orchestrator generate` command of a release's options."""
    family = options.get("families") and ",".join(options["families"]) or options["family"]
    edition = f" --edition {options['edition']}" if "edition" in options else ""
    full = f" --full-sample {options['full_sample']:.0%}" if options.get("full_sample") else ""
    return (
        f"orchestrator generate {family}{edition} --count {count or options['count']} --seed {options['seed']} "
        f"--size {options['size']} --prove {options['prove']}{full} --out {out}"
    )


def pipeline_options(options: dict[str, Any], count: int | None = None, families: list[str] | None = None) -> Any:
    """The pipeline's options of a release's `options` (edition 1 when it names none; `all`: that edition's
    families; `families`, when the release lists them, are those)."""
    from orchestrator.generate import pipeline  # noqa: PLC0415

    edition = options.get("edition", 1)
    names = families or options.get("families") or pipeline.family_names(options["family"], edition)
    return pipeline.Options(
        list(names),
        count or options["count"],
        seed=options["seed"],
        size=options["size"],
        prove=options["prove"],
        edition=edition,
        full_sample=options.get("full_sample", 0.0),
    )


def generate(
    options: dict[str, Any],
    out: Path,
    count: int | None = None,
    families: list[str] | None = None,
    workers: int = 1,
) -> tuple[float, list[Any]]:
    """Run the pipeline with the release's options; returns the seconds it took and the per-family reports."""
    from orchestrator.generate import pipeline, scheduler  # noqa: PLC0415

    opts = pipeline_options(options, count, families)
    opts.workers = workers
    started = time.perf_counter()
    try:
        reports = scheduler.run(opts, out)
    except pipeline.GenerateError as exc:
        raise SystemExit(f"error: {exc}") from None
    short = [f"{r.family} ({r.written})" for r in reports if r.written < opts.count]
    if short:
        raise SystemExit(f"fewer than {opts.count} tasks for: {', '.join(short)}")
    return time.perf_counter() - started, reports


def _coherence_check() -> Any:
    """The generator's language and policy check (`coherence.problems`), which the prover runs on every edition-3
    task before its proofs; None when this generator has none."""
    try:
        from orchestrator.generate.coherence import problems  # noqa: PLC0415
    except ImportError:
        return None
    return problems


def _draw_family(options: dict[str, Any], name: str, count: int | None) -> tuple[list[dict[str, Any]], list[str]]:
    """One family's manifest rows as the pipeline draws, splits and deduplicates them (no proofs; an edition-3 task
    the language and policy check finds a problem in is dropped, as the prover drops it), and those problems."""
    from orchestrator.generate import pipeline  # noqa: PLC0415
    from orchestrator.generate.family import families as known  # noqa: PLC0415

    opts = pipeline_options(options, count, [name])
    check = _coherence_check() if opts.edition >= 3 else None
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    dropped: list[str] = []
    for task in pipeline.candidates(known()[name](), opts, pipeline.FamilyReport(name)):
        key = task.checks_key()
        if key in seen:
            continue
        found = check(task.scenario) if check is not None else []
        if found:
            dropped.append(f"{task.id}: {found[0]}")
            continue
        seen.add(key)
        rows.append(task.manifest_row())
        if len(rows) >= opts.count:
            break
    return rows, dropped


def draw_rows(
    options: dict[str, Any],
    count: int | None = None,
    families: list[str] | None = None,
    workers: int = 1,
    dropped: dict[str, list[str]] | None = None,
) -> list[dict[str, Any]]:
    """The manifest the release command writes if every drawn task passes its proofs: the pipeline's draws, splits and
    deduplication, without proving (minutes instead of hours; `workers` processes draw families side by side). A task
    that failed a proof would be missing from the proven set, so comparing the two shows any drop. `dropped` gets,
    per family, the tasks the language and policy check dropped (edition 3)."""
    names = pipeline_options(options, count, families).families
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_draw_family, [options] * len(names), names, [count] * len(names)))
    else:
        parts = [_draw_family(options, name, count) for name in names]
    if dropped is not None:
        dropped.update({name: part[1] for name, part in zip(names, parts, strict=True)})
    return sorted((row for part in parts for row in part[0]), key=lambda r: (r["family"], r["index"]))


def read_rows(out: Path) -> list[dict[str, Any]]:
    found = out / "tasks.jsonl"
    if not found.exists():
        raise SystemExit(f"{found}: no manifest; generate the set first (without --existing)")
    return manifest.read(found)


def manifest_path(path: Path, release: dict[str, Any]) -> Path | None:
    """Where a release's committed manifest is (None: a release that commits none, as v1)."""
    return (path.parent / release["manifest"]) if release.get("manifest") else None


def read_manifest_file(path: Path) -> list[dict[str, Any]]:
    """The rows of a committed manifest (`.jsonl` or `.jsonl.gz`); exits 1 naming the file when it is missing."""
    if not path.exists():
        raise SystemExit(
            f"{path}: the release's manifest is missing; it is committed with the release (regenerate "
            "it with `release.py write`)"
        )
    return manifest.read(path)


def write_manifest_file(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write a committed manifest, gzipped without a timestamp when its name ends in .gz (the same rows, the same
    bytes)."""
    manifest.write(path, rows)


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


def compare_rows(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> list[str]:
    """What differs between a committed manifest and a regenerated one, row by row (ids and fields named)."""
    mine = {r["id"]: r for r in got}
    problems = []
    for row in want:
        other = mine.pop(row["id"], None)
        if other is None:
            problems.append(f"{row['id']}: not regenerated (dropped by a proof, or drawn differently)")
        elif other != row:
            fields = sorted(k for k in set(row) | set(other) if row.get(k) != other.get(k))
            problems.append(f"{row['id']}: differs in {', '.join(fields)}")
    problems += [f"{task_id}: regenerated but not in the manifest" for task_id in sorted(mine)]
    return problems


def check_sample(release: dict[str, Any], sample: int, families: list[str] | None = None) -> list[str]:
    """v1: regenerate the first `sample` tasks of each family and compare them with the release's first rows."""
    with tempfile.TemporaryDirectory(prefix="release-sample-") as tmp:
        generate(release["options"], Path(tmp), count=sample, families=families)
        found = summarize(read_rows(Path(tmp)))
    wanted = {
        **release,
        "families": {k: v for k, v in release["families"].items() if families is None or k in families},
    }
    return compare(wanted, found, sample)


def check_rows(release: dict[str, Any], rows: list[dict[str, Any]], sample: int, seed: int | None = None) -> list[str]:
    """v2: `sample` random rows of the committed manifest, each drawn again and proven (basic proofs), must equal
    their rows byte for byte."""
    from orchestrator.generate import prover  # noqa: PLC0415

    if seed is None:  # named below, so the same rows can be checked again
        seed = random.SystemRandom().randrange(2**31)
    picked = random.Random(seed).sample(rows, min(sample, len(rows)))
    opts = pipeline_options(release["options"])
    problems = []
    with tempfile.TemporaryDirectory(prefix="release-rows-") as tmp:
        plan = prover.Plan(opts.seed, opts.size, opts.edition, None, (), "basic", 0.0, tmp)
        proving = prover.Prover(plan)
        try:
            for row in sorted(picked, key=lambda r: (r["family"], r["index"])):
                outcome = proving.outcome(row["family"], row["index"])
                if outcome.status != "proven":
                    problems.append(f"{row['id']}: {outcome.status} {outcome.problem}".strip())
                elif outcome.row != row:
                    fields = sorted(
                        k for k in set(row) | set(outcome.row or {}) if row.get(k) != (outcome.row or {}).get(k)
                    )
                    problems.append(f"{row['id']}: differs in {', '.join(fields)}")
        finally:
            proving.close()
    names = ", ".join(row["id"] for row in sorted(picked, key=lambda r: (r["family"], r["index"])))
    print(f"{len(picked)} random row(s) (--seed {seed}) drawn and proven again: {names}", file=sys.stderr)
    return problems


def release_path(value: str, preview: bool = False) -> Path:
    """The release file a `--release` value names (v1, v2 or a path); `preview`: its `-preview` sibling."""
    path = RELEASES.get(value, Path(value))
    return path.with_name(f"{path.stem}-preview.json") if preview else path


def load_release(path: Path, name: str) -> dict[str, Any]:
    """A release file, or the v2 or v3 skeleton (and their previews') when it is not written yet."""
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    base = name.removesuffix("-preview")
    if base in SKELETONS:
        return {"release": name, "options": dict(SKELETONS[base]), "manifest": f"{name}/tasks.jsonl.gz"}
    raise SystemExit(f"{path}: no such release file")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["check", "write", "part"])
    parser.add_argument("--out", type=Path, help="Folder for the generated set.")
    parser.add_argument("--sample", type=int, help="check: v1, the first N tasks of each family; v2, N random rows.")
    parser.add_argument("--existing", action="store_true", help="Use the set already in --out; generate nothing.")
    parser.add_argument(
        "--drawn",
        nargs="*",
        type=Path,
        metavar="ROWS",
        help="write: the digest of the draws, without proving (from these manifest files when given).",
    )
    parser.add_argument("--release", default="v1", help="v1 (default), v2, v3, or a release file.")
    parser.add_argument(
        "--preview", action="store_true", help="v2, v3: write or check the preview (v2-preview.json, v3-preview.json)."
    )
    parser.add_argument("--count", type=int, help="write: tasks per family instead of the release's (a preview).")
    parser.add_argument("--workers", type=int, default=1, help="Processes drawing or proving side by side.")
    parser.add_argument("--seed", type=int, help="check --sample: the seed of the random rows (default: any).")
    parser.add_argument(
        "--family",
        help="part: the family to generate into --out (or, with --existing, generated there) and keep as a part.",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="write: the release from its parts (every family's, kept by `part`); check --sample N: rows of the parts.",
    )
    args = parser.parse_args(argv)
    path = release_path(args.release, args.preview)
    base = release_path(args.release)
    if args.preview and not path.exists() and base.exists():  # a preview of a release file: its options
        release = {**load_release(base, base.stem), "release": path.stem, "manifest": f"{path.stem}/tasks.jsonl.gz"}
        release = {k: release[k] for k in ("release", "options", "manifest")}
    else:
        release = load_release(path, path.stem)
    stored = manifest_path(path, release)
    if args.action == "check" and args.parts:
        return _check_parts(args, path, release)
    if args.action == "check":
        return _check(args, release, stored)
    if args.action == "part":
        return _part(args, path, release)
    if args.count is not None:
        if not args.preview:
            parser.error("--count N writes a preview only: add --preview")
        release["options"]["count"] = args.count
    if args.drawn is not None:
        dropped: dict[str, list[str]] = {}
        started = time.perf_counter()
        if args.drawn:
            rows = [r for p in args.drawn for r in read_manifest_file(p)]
            rows.sort(key=lambda r: (r["family"], r["index"]))
        else:
            rows = draw_rows(release["options"], workers=args.workers, dropped=dropped)
            release.setdefault("timing", {})["drawn_s"] = round(time.perf_counter() - started, 1)
        if release["options"].get("edition", 1) >= 3 and not args.drawn:
            release["coherence"] = _coherence_record(dropped, rows)
        return _write(path, release, rows, "drawn", None, stored)
    if args.parts:
        names = pipeline_options(release["options"]).families
        rows, found = parts.load(parts.parts_dir(path), names, release["options"]["count"])
        release["proofs"] = parts.proofs(found)
        return _write(path, release, rows, "generated", parts.seconds(found), stored)
    if args.out is None:
        parser.error("--out DIR is needed unless check --sample N or write --drawn")
    seconds, reports = None, []
    if not args.existing:
        seconds, reports = generate(release["options"], args.out, workers=args.workers)
        print(f"generated in {seconds:.0f} s", file=sys.stderr)
    if reports:
        release["proofs"] = parts.proofs([r.as_dict() for r in reports])
    return _write(path, release, read_rows(args.out), "generated", seconds, stored)


def _part(args: argparse.Namespace, path: Path, release: dict[str, Any]) -> int:
    """Generate one family of the release into --out (unless --existing) and keep its rows and report as a part."""
    names = pipeline_options(release["options"]).families
    if args.family not in names or args.out is None:
        raise SystemExit(f"part: give --family (one of: {', '.join(names)}) and --out DIR")
    if not args.existing:
        seconds, reports = generate(release["options"], args.out, families=[args.family], workers=args.workers)
        report = {"families": [r.as_dict() for r in reports], "seconds": round(seconds, 2)}
        (args.out / parts.REPORT).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    found = parts.store(args.out, args.family, release["options"]["count"], parts.parts_dir(path))
    print(f"kept {args.family}: {found['written']} tasks, {found['full']} proven in full, {found['seconds']:.0f} s")
    return 0


def _check_parts(args: argparse.Namespace, path: Path, release: dict[str, Any]) -> int:
    """`--sample N` random rows of the parts kept so far, drawn and proven again (the parts yet to come aside)."""
    names = pipeline_options(release["options"]).families
    kept = [n for n in names if (parts.parts_dir(path) / n / parts.MANIFEST).exists()]
    if not kept or not args.sample:
        raise SystemExit(f"check --parts: give --sample N; parts kept: {', '.join(kept) or 'none'}")
    rows, _ = parts.load(parts.parts_dir(path), kept, release["options"]["count"])
    problems = check_rows(release, rows, args.sample, args.seed)
    for problem in problems[:50]:
        print(problem, file=sys.stderr)
    print(
        f"{len(kept)} of {len(names)} families kept; "
        + ("matches" if not problems else f"{len(problems)} difference(s)")
    )
    return 1 if problems else 0


def _check(args: argparse.Namespace, release: dict[str, Any], stored: Path | None) -> int:
    if stored is not None:  # a release with a committed manifest: it must be there
        rows = read_manifest_file(stored)
        if summarize(rows)["manifest_sha256"] != release.get("manifest_sha256"):
            problems = [f"{stored}: its sha256 is not the one the release records"]
        elif args.sample:
            problems = check_rows(release, rows, args.sample, args.seed)
        else:
            if args.out is None:
                raise SystemExit("check: give --sample N or --out DIR")
            if not args.existing:
                generate(release["options"], args.out, workers=args.workers)
            problems = compare_rows(rows, read_rows(args.out))
    elif args.sample:
        problems = check_sample(release, args.sample)
    else:
        if args.out is None:
            raise SystemExit("check: give --sample N or --out DIR")
        if not args.existing:
            generate(release["options"], args.out, workers=args.workers)
        problems = compare(release, summarize(read_rows(args.out)))
    for problem in problems[:50]:
        print(problem, file=sys.stderr)
    print("matches the release" if not problems else f"{len(problems)} difference(s) from the release")
    return 1 if problems else 0


def _write(
    path: Path,
    release: dict[str, Any],
    rows: list[dict[str, Any]],
    source: str,
    seconds: float | None,
    stored: Path | None,
) -> int:
    found = summarize(rows)
    release.update(found)
    release["command"] = command(release["options"])
    release["digest_source"] = source
    if seconds is not None:
        release.setdefault("timing", {})["generated_s"] = round(seconds, 1)
    edition = release["options"].get("edition", 1)
    if edition >= 2:
        from orchestrator.generate import edition2  # noqa: PLC0415

        release["edition2"] = {
            "organizations_per_group_of_tasks": edition2.GROUP,
            "size_mix_percent": dict(edition2.SIZE_MIX),
            "test_ood_families": list(edition2.OOD_FAMILIES),
            "difficulty": edition2.DIFFICULTY_POINTS,
        }
    if edition >= 3:
        release["edition3"] = _edition3_rules()
        figures = stats.measure(rows, release.get("coherence"))
        release["stats"] = {k: v for k, v in figures.items() if k not in ("nearest", "tools", "coherence")}
        problems = stats.missed(figures)
        release["missed"] = problems
        if problems and not path.stem.endswith("-preview"):
            for problem in problems:
                print(f"missed: {problem}", file=sys.stderr)
            print(
                f"{path.name} not written: the set misses {len(problems)} target(s); write it as a preview "
                "(--preview) until it meets every one",
                file=sys.stderr,
            )
            return 1
    if stored is not None:
        write_manifest_file(stored, rows)
    path.write_text(json.dumps(release, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}: {found['total']}")
    return 0


def _edition3_rules() -> dict[str, Any]:
    """What edition 3 adds to edition 2's drawing, as the generator states it (what it has of it)."""
    from orchestrator.generate import drawing  # noqa: PLC0415

    rules: dict[str, Any] = {}
    if hasattr(drawing, "OOD_ORGS"):
        rules["test_ood_train_organizations_percent"] = drawing.OOD_ORGS
    try:
        from orchestrator.generate import twists  # noqa: PLC0415
    except ImportError:
        return rules
    rules["twists"] = {
        name: list(getattr(twists, name)) for name in ("LIVING", "LONG", "HELD_OUT") if hasattr(twists, name)
    }
    return rules


def _coherence_record(dropped: dict[str, list[str]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the language and policy check did to the draws: tasks dropped per family, the first problems, and the
    contradictions left in the kept rows (0: every kept task passed it)."""
    check = _coherence_check()
    return {
        "checked": check is not None,
        "dropped": {name: len(found) for name, found in sorted(dropped.items()) if found},
        "dropped_total": sum(len(found) for found in dropped.values()),
        "examples": [line for found in dropped.values() for line in found[:2]][:20],
        "contradictions": 0 if check is not None else "not measured",
        "rows": len(rows),
    }


if __name__ == "__main__":
    sys.exit(main())
