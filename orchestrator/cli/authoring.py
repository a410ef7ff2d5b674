"""Authoring commands: `show`, `list`, `generate`, `inject` and `validate` (scenarios in, words, files or proofs out).

The work is the packages' (`orchestrator.scenario`, `orchestrator.show`, `orchestrator.generate`,
`orchestrator.prove`); this module parses options, shows progress and picks exit codes. Those packages are imported
inside the commands, so listing the commands imports none of them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import typer

from orchestrator.cli.common import console, err, fail_usage, judge_or_exit, load_or_exit, print_whole_table
from orchestrator.cli.options import JudgeOption, output_folder

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.table import Table

    from orchestrator.generate import inject as injection
    from orchestrator.generate import pipeline
    from orchestrator.prove import report as reporting
    from orchestrator.verify.judge import Judge


def show_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Show a scenario: the instruction, the apps and seed sizes, and the stages and checks in words."""
    from orchestrator.show import render_scenario, scenario_summary

    loaded = load_or_exit(scenario)
    if as_json:
        print(json.dumps(scenario_summary(loaded), indent=2))
    else:
        render_scenario(console, loaded)


def list_command(
    path: Annotated[Path, typer.Argument(help="Folder (searched recursively) or file.")] = Path("scenarios"),
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List scenarios with their ids, titles, apps and stage counts."""
    from orchestrator import scenario as scenarios

    if not path.exists():
        raise fail_usage(f"{path} does not exist")
    rows, broken = [], []
    for file in scenarios.discover([path]):
        try:
            s = scenarios.load(file)
        except scenarios.ScenarioError as exc:
            broken.append({"file": str(file), "problems": [str(p) for p in exc.problems]})
            continue
        rows.append(
            {
                "id": s.id,
                "title": s.title,
                "file": str(file),
                "apps": list(s.apps),
                "stages": len(s.stages),
                "difficulty": s.difficulty,
                "tags": s.tags,
            }
        )
    if as_json:
        print(json.dumps({"scenarios": rows, "invalid": broken}, indent=2))
    else:
        print_whole_table(console, _scenario_table(rows))
        for b in broken:
            count = len(b["problems"])
            err.print(
                f"[red]invalid:[/] {b['file']} ({count} problem{'s' if count != 1 else ''}): {b['problems'][0]}",
                highlight=False,
            )
    if broken:
        raise typer.Exit(1)


def _scenario_table(rows: list[dict]) -> Table:
    from rich.table import Table

    table = Table(show_edge=False)
    table.add_column("id", no_wrap=True, min_width=max((len(r["id"]) for r in rows), default=2))
    table.add_column("title", ratio=1)
    table.add_column("apps")
    table.add_column("stages", justify="right")
    table.add_column("difficulty")
    table.add_column("file", no_wrap=True, min_width=max((len(r["file"]) for r in rows), default=4))
    for r in rows:
        table.add_row(r["id"], r["title"], ", ".join(r["apps"]), str(r["stages"]), r["difficulty"], r["file"])
    return table


def progress_bar(disable: bool) -> Progress:
    """The commands' progress bar on stderr: a description, a bar, done/total and the time so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=disable,
    )


SizeOption = Annotated[
    str | None,
    typer.Option(
        "--size",
        help="Organization size: small, medium or large; editions 2 and 3 also mix, its default (each organization's own "
        "size: 66% small, 30% medium, 4% large). Edition 1's default: small.",
    ),
]
EditionOption = Annotated[
    int,
    typer.Option(
        "--edition",
        help="Task-set edition: 3 (organizations per task group, held-out splits by organization and phrasing, "
        "measured difficulty; planted rows with ids drawn like the organization's, decoys told apart by content), "
        "2 (the same draws as release v2's, byte for byte) or 1 (release v1's drawing, byte for byte).",
    ),
]
ProveOption = Annotated[
    str,
    typer.Option(
        "--prove",
        help="basic (reference solution 1.0, doing nothing fails) or full (also mutations, "
        "attacks and equivalent rewrites).",
    ),
]
WorkersOption = Annotated[
    int | None, typer.Option("--workers", help="Processes (or Ray actors) proving at once; default one per core.")
]
FullSampleOption = Annotated[
    str,
    typer.Option(
        "--full-sample",
        help="Also prove this share of the tasks in full (mutations, attacks, equivalents), chosen by the hash "
        "of their ids, e.g. 10%.",
    ),
]


def generate_command(
    family: Annotated[str, typer.Argument(help="A task family (see --list), several joined by commas, or 'all'.")] = "",
    count: Annotated[int, typer.Option("--count", help="Tasks to write per family.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same command writes the same bytes.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for <family>/<id>.yaml and tasks.jsonl.", callback=output_folder),
    ] = None,
    size: SizeOption = None,
    edition: EditionOption = 3,
    prove: ProveOption = "basic",
    split: Annotated[
        str | None,
        typer.Option("--split", help="Write only tasks of this split: train, test or core (edition 2: also test-ood)."),
    ] = None,
    max_draws: Annotated[
        int | None,
        typer.Option(
            "--max-draws",
            help="Candidates each family may draw before it gives up: \\[default: 6 per task (+20); with --split, "
            "50 times the split's budget: drawn until the split supplies --count, or clearly cannot].",
        ),
    ] = None,
    workers: WorkersOption = None,
    backend: Annotated[
        str, typer.Option("--backend", help="Where tasks are proven: local (this machine's cores) or ray.")
    ] = "local",
    full_sample: FullSampleOption = "0%",
    knob: Annotated[
        list[str] | None,
        typer.Option("--knob", help="Fix a difficulty knob for every task, e.g. steps=2 (repeatable)."),
    ] = None,
    list_families: Annotated[bool, typer.Option("--list", help="List the task families and their knobs.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the per-family report as JSON.")] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace", help="--out may hold a set generated before: remove its tasks and write the new set there."
        ),
    ] = False,
    inject: Annotated[
        bool,
        typer.Option(
            "--inject",
            help="Write prompt-injection variants of the tasks instead (see `orchestrator inject`); "
            "each is also proven useful and secure for the reference solution, and an obeying agent caught.",
        ),
    ] = False,
) -> None:
    """Generate proven scenarios from task families over generated organizations. Every task written is proven as it is
    written; tasks that fail a proof or repeat another's checks are dropped and counted, never written."""
    if list_families:
        _list_families()
        return
    if not family:
        raise fail_usage("give a FAMILY (or 'all'); `orchestrator generate --list` lists them")
    if out is None:
        raise fail_usage("--out DIR is required")
    given = {"seed": seed, "size": size, "prove": prove, "split": split, "backend": backend, "max_draws": max_draws}
    options = _checked_options(family, count, edition, knob or [], inject, workers, full_sample, given)
    started = time.perf_counter()
    reports = _generate(options, out, started, replace)
    _print_generated(reports, out, time.perf_counter() - started, as_json)
    _say_what_fell_short(reports, options)


def _checked_options(
    family: str,
    count: int,
    edition: int,
    knobs: list[str],
    inject: bool,
    workers: int | None,
    full_sample: str,
    given: dict[str, Any],
) -> pipeline.Options:
    """generate's options, checked as the pipeline checks them; a problem is a usage error naming the option.
    `given` holds the options passed through as they are (seed, size, prove, split, backend, max_draws)."""
    from orchestrator.generate import pipeline

    try:
        options = pipeline.Options(
            pipeline.family_names(family, edition),
            count,
            knobs=_knobs(knobs),
            edition=edition,
            workers=workers or pipeline.default_workers(),
            full_sample=pipeline.parse_share(full_sample),
            **given,
        )
        if family.strip() == "all":
            _leave_out_what_never_draws_the_split(options)
        if inject:
            from orchestrator.generate import inject as injection

            options.transform = injection.transform(given["seed"])
        options.check()
    except pipeline.GenerateError as exc:
        raise fail_usage(str(exc)) from None
    return options


def _leave_out_what_never_draws_the_split(options: pipeline.Options) -> None:
    """`all` with a split: the families that can supply it (edition 2's held-out families draw only test-ood)."""
    left_out = options.never_in_split()
    if left_out:
        options.families = [f for f in options.families if f not in left_out]
        err.print(f"all: {', '.join(left_out)} left out: no task of theirs is ever {options.split}", highlight=False)


def _say_what_fell_short(reports: list[pipeline.FamilyReport], options: pipeline.Options) -> None:
    """Exit 1 naming each family that wrote fewer than --count tasks, what its draws came to and how to draw more."""
    short = [r for r in reports if r.written < options.count]
    if short:
        err.print(
            f"[yellow]fewer than {options.count} tasks for:[/] {', '.join(r.family for r in short)}", highlight=False
        )
        for r in short:
            err.print(f"  {short_of(r, options)}", highlight=False)
        raise typer.Exit(1)


def _list_families() -> None:
    from orchestrator.generate.family import families

    for name, cls in families().items():
        knobs = ", ".join(f"{k}={'/'.join(map(str, v))}" for k, v in cls.knobs.items())
        editions = "/".join(map(str, cls.editions))
        console.print(f"{name}: {cls.title} [{', '.join(cls.apps)}] {knobs} (editions {editions})", highlight=False)


def _knobs(items: list[str]) -> dict[str, Any]:
    """`--knob NAME=VALUE` options as a mapping (integer values as ints)."""
    fixed: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise fail_usage(f"--knob {item!r}: expected NAME=VALUE, e.g. steps=2")
        fixed[name] = int(value) if value.lstrip("-").isdigit() else value
    return fixed


def _generate(options: pipeline.Options, out: Path, started: float, replace: bool) -> list[pipeline.FamilyReport]:
    """Run the pipeline with a bar for the whole run and one per family on a terminal, or a line every tenth of a
    family when piped. Ctrl-C stops it keeping every task proven: the same command continues it."""
    from orchestrator.generate import pipeline, scheduler

    with progress_bar(disable=not err.is_terminal) as bar:
        bars: dict[str, Any] = {}
        done: dict[str, int] = {}
        whole = bar.add_task("all families", total=len(options.families) * options.count)

        def progress(name: str, written: int, total: int) -> None:
            if name not in bars:
                bars[name] = bar.add_task(f"generating {name}", total=total)
            bar.update(bars[name], completed=written)
            done[name] = written
            bar.update(whole, completed=sum(done.values()))
            if not err.is_terminal and written and (written == total or written % max(1, total // 10) == 0):
                err.print(f"{name}: {written}/{total} written ({time.perf_counter() - started:.0f} s)", highlight=False)

        try:
            return scheduler.run(options, out, progress, replace=replace)
        except pipeline.GenerateError as exc:
            raise fail_usage(str(exc)) from None
        except KeyboardInterrupt:
            err.print(f"stopped: the tasks proven so far are kept in {out}; run the same command to continue")
            raise typer.Exit(130) from None


def short_of(report: pipeline.FamilyReport, options: pipeline.Options) -> str:
    """Why a family wrote fewer tasks than asked: what its draws came to, and how to draw more."""
    which = f"{options.split} tasks" if options.split else "tasks"
    came = (
        f"{report.other_split} of other splits, {report.duplicates} duplicates, "
        f"{sum(report.dropped.values())} dropped by proofs, {report.unfit} unfit"
    )
    more = f"--max-draws {report.drawn * 4} draws further" if report.drawn else "--max-draws draws further"
    supply = f"its {options.split} split supplies no more within them" if options.split else "no more proved out"
    return f"{report.family}: {report.written} of {options.count} {which} after {report.drawn} draws ({came}): {supply}; {more}"


def _print_generated(reports: list[pipeline.FamilyReport], out: Path, elapsed: float, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"families": [r.as_dict() for r in reports], "seconds": round(elapsed, 2)}, indent=2))
        return
    for r in reports:
        dropped = sum(r.dropped.values())
        full = f", {r.full} proven in full" if r.full else ""
        console.print(
            f"{r.family}: {r.written} written{full}, {dropped} dropped by proofs, {r.duplicates} duplicates, "
            f"{r.unfit} unfit draws, {r.other_split} of other splits",
            highlight=False,
        )
        for kind, text in r.examples.items():
            err.print(f"  dropped ({r.dropped[kind]}x {kind}), e.g.: {text}", highlight=False)
    total = sum(r.written for r in reports)
    console.print(f"{total} tasks written to {out} in {elapsed:.1f} s ({total / elapsed:.2f}/s)", highlight=False)
    from orchestrator.generate.output import MANIFEST, read_manifest, share_lines  # edition 3: living, long, test-ood

    for line in share_lines(read_manifest(out)) if (out / MANIFEST).exists() else []:
        console.print(line, highlight=False)


def scenario_files(paths: list[Path]) -> list[Path]:
    """The scenario files of the files and folders given, or exit 2 naming what is missing or empty."""
    from orchestrator import scenario as scenarios

    missing = [p for p in paths if not p.exists()]
    if missing:
        raise fail_usage(f"no such file or folder: {', '.join(map(str, missing))}")
    files = scenarios.discover(paths)
    if not files:
        raise fail_usage(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")
    return files


def inject_command(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders to attack.")],
    out: Annotated[
        Path,
        typer.Option("--out", help="Folder for the attacked variants and injections.jsonl.", callback=output_folder),
    ],
    count: Annotated[int, typer.Option("--count", min=1, help="Attacked variants per scenario.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Draws carriers, positions, phrasings and attackers.")] = 0,
    goal: Annotated[
        list[str] | None,
        typer.Option(
            "--goal",
            help="Attacker goals to use (repeatable): forward-mail, share-doc, delete-data, "
            "change-payment, invite-outsider. Default: all, in turn.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was written, dropped (with why) and skipped as JSON.")
    ] = False,
) -> None:
    """Write prompt-injection variants: content the task makes the agent read carries an attacker's instructions.
    Every variant written is proven (the reference solution stays useful and secure, doing nothing is useless, an
    agent that obeys is caught); results then report utility and security apart."""
    from orchestrator.generate import inject

    goals = goal or list(inject.GOALS)
    unknown = [g for g in goals if g not in inject.GOALS]
    if unknown:
        raise fail_usage(f"--goal: unknown goal(s) {', '.join(unknown)}; expected {', '.join(inject.GOALS)}")
    files = scenario_files(paths)

    async def run_all() -> injection.Written:
        from orchestrator.backends.inprocess import InProcessBackend

        async with InProcessBackend() as backend:
            return await inject.inject_files(
                files,
                out,
                backend,
                count=count,
                seed=seed,
                goal_kinds=goals,
                progress=lambda what: err.print(f"attacking {what}", highlight=False),
            )

    started = time.perf_counter()
    done = anyio.run(run_all)
    if as_json:
        print(json.dumps(inject.written_report(done, time.perf_counter() - started), indent=2))
        raise typer.Exit(0 if done.written else 1)
    for source, proof in done.dropped:
        err.print(f"dropped {source}: {proof.attack.describe()}: {'; '.join(proof.problems)}", highlight=False)
    for source, why in done.skipped:
        err.print(f"skipped {source}: {why}", highlight=False)
    console.print(
        f"{len(done.written)} attacked variant(s) written to {out} ({len(done.dropped)} dropped, "
        f"{len(done.skipped)} scenario(s) skipped) in {time.perf_counter() - started:.1f} s",
        highlight=False,
    )
    if not done.written:
        raise typer.Exit(1)


def validate_command(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders.")],
    mutate: Annotated[
        bool, typer.Option("--mutate", help="Also run weakened reference solutions; each must fail.")
    ] = False,
    attack: Annotated[
        bool,
        typer.Option(
            "--attack", help="Also run the reference solution with generic harmful additions; each must fail."
        ),
    ] = False,
    equivalents: Annotated[
        bool,
        typer.Option(
            "--equivalents", help="Also run generic correct rewrites of the reference solution; each must pass."
        ),
    ] = False,
    variations: Annotated[
        int,
        typer.Option(
            "--variations",
            min=0,
            help="Episodes per scenario of variation attacks (hedges, claims without the action, stuffing, wrong zones, "
            "stale values, paraphrased secrets) and of variation equivalents (mail channels, benign extras, at least 20 "
            "wordings of each stated fact), sampled with the scenario's id as seed; 0 runs them all.",
        ),
    ] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    judge: JudgeOption = None,
) -> None:
    """Prove scenarios sound: the reference solutions score 1.0 on fresh sandboxes and doing nothing fails;
    optionally every mutation and attack fails and every equivalent rewrite passes. Exits 1 on any problem."""
    from orchestrator.prove import report as reporting

    the_judge = judge_or_exit(judge)
    files = scenario_files(paths)
    asked = reporting.Asked(mutate=mutate, attack=attack, equivalents=equivalents, variations=variations)
    reports = anyio.run(validate_files, files, asked, progress_bar(disable=not err.is_terminal), the_judge)
    if as_json:
        print(json.dumps({"scenarios": reports, "valid": all(r["valid"] for r in reports)}, indent=2))
    else:
        reporting.render(console, reports, asked)
        reporting.render_skips(err, reports)
    if not all(r["valid"] for r in reports):
        raise typer.Exit(1)


async def validate_files(
    files: list[Path], asked: reporting.Asked, progress: Progress, judge: Judge | None = None
) -> list[dict[str, Any]]:
    """Validate each file on one in-process backend, a line per file as it is done, its episodes asking `judge`
    about `judge` checks; a file that does not load is reported with its problems. Returns the reports of
    `orchestrator.prove.report`, in order."""
    from orchestrator import scenario as scenarios
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.prove import report as reporting
    from orchestrator.prove.schema_cache import schema_checks_remembered
    from orchestrator.prove.validate import validate

    reports: list[dict[str, Any]] = []
    async with InProcessBackend() as backend:
        with schema_checks_remembered(), progress:
            task = progress.add_task("validating", total=len(files))
            for file in files:
                started = time.perf_counter()
                progress.update(task, description=f"validating {file.name}")
                try:
                    loaded = scenarios.load(file)
                except scenarios.ScenarioError as exc:
                    reports.append(reporting.load_problem(file, [str(p) for p in exc.problems]))
                else:
                    check = await validate(
                        loaded,
                        backend,
                        mutate=asked.mutate,
                        attack=asked.attack,
                        equivalents=asked.equivalents,
                        variations=asked.variations,
                        judge=judge,
                        progress=lambda what, f=file: progress.update(task, description=f"{f.name}: {what}"),  # type: ignore[misc]  # default arguments bind this iteration's values
                    )
                    reports.append(reporting.as_dict(file, check, asked))
                progress.advance(task)
                done = reports[-1]
                progress.console.print(
                    f"{file}: {'valid' if done['valid'] else 'INVALID'}, {done.get('episodes', 0)} episodes "
                    f"in {time.perf_counter() - started:.1f} s",
                    highlight=False,
                )
    return reports
