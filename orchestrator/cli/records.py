"""Commands over run records: `export` (training data), `verify-digest`, `view` (the browser viewer) and `report`
(one HTML file or a Markdown table).

Reading and checking records is `orchestrator.record`'s, `orchestrator.export`'s and `orchestrator.view`'s; this
module checks the folders given, calls them and says what was written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from orchestrator.cli.common import console, err, fail_usage
from orchestrator.cli.options import output_file


def export_command(
    runs: Annotated[
        list[Path], typer.Argument(help="Run folders (an episode, a --repeat run, a suite, or a folder of them).")
    ],
    out: Annotated[Path, typer.Option("--out", help="The JSON lines file to write.", callback=output_file)],
    fmt: Annotated[
        str,
        typer.Option(
            "--format", help="openai (Chat Completions messages + tools), anthropic (Messages API), or sharegpt."
        ),
    ] = "openai",
    passed_only: Annotated[bool, typer.Option("--passed-only", help="Only episodes that passed.")] = False,
    min_score: Annotated[
        float | None, typer.Option("--min-score", min=0, max=1, help="Only episodes scoring at least S.")
    ] = None,
    include_errored: Annotated[
        bool,
        typer.Option(
            "--include-errored",
            help="Also errored episodes (error, agent_error, interrupted), which are left out by default.",
        ),
    ] = False,
) -> None:
    """Export episodes as training data: one JSON line each with the tools, the messages, scenario id, seed, score and stage scores.

    Model-agent episodes use their messages.json; others (cmd:, oracle) a conversation built from the trace.
    Errored episodes (error, agent_error, interrupted: not scored) are left out unless --include-errored. Order: by folder path."""
    from orchestrator.export import ExportError, export

    def skipped(where: Path, why: str) -> None:
        err.print(f"skipped {where}: {why}", highlight=False, markup=False)

    try:
        counts = export(
            runs,
            fmt,
            out,
            passed_only=passed_only,
            min_score=min_score,
            include_errored=include_errored,
            on_skip=skipped,
        )
    except ExportError as exc:
        raise fail_usage(str(exc)) from None
    console.print(
        f"{counts['written']} of {counts['episodes']} episodes written to {out}"  # the answer: stdout
        + (f"; {counts['skipped']} malformed folder(s) or file(s) skipped (above)" if counts["skipped"] else "")
        + (f"; {counts['filtered']} left out by --passed-only/--min-score" if counts["filtered"] else "")
        + (f"; {counts['errors']} errored left out (--include-errored keeps them)" if counts["errors"] else "")
        + (f"; {counts['bad_lines']} unreadable trace line(s) skipped" if counts.get("bad_lines") else ""),
        highlight=False,
    )


def verify_digest_command(
    folders: Annotated[
        list[Path], typer.Argument(help="Run folders: an episode, a --repeat run, a suite, or a folder of them.")
    ],
) -> None:
    """Check each record's seal: that an episode's verdict (results.json), trace.jsonl, journal, agent.log,
    messages.json and mcp.json, and a repeat's or suite's totals, are the ones sealed together under this machine's
    record key (Ed25519), in the folder and run they were written in. Exits 1 on any edit, on a record copied
    from another episode's folder or run, on an unsealed record, and on an episode whose agent ran with
    --isolation none or a record sealed with a key such an agent could read (untrusted, whatever it says)."""
    from rich.markup import escape

    from orchestrator.record import (
        EPISODE,
        UNBOUND,
        UNSEALED,
        find_records,
        untrusted_reason,
        verify_digest,
        verify_summary,
    )

    bad = 0
    for given in folders:
        if not given.exists():
            raise fail_usage(f"{given}: no such file or folder")
        found = [record for record in find_records(given) if record.kind is not None]
        if not any(record.kind == EPISODE for record in found):
            bad += 1
            console.print(f"{given}: [red]no episode (a results.json of an episode) in it[/]", highlight=False)
        for record in found:
            episode = record.kind == EPISODE
            problems = verify_digest(record.folder) if episode else verify_summary(record.folder)
            untrusted = None if problems else untrusted_reason(record.data)
            bad += bool(problems or untrusted)
            colour = "yellow" if problems and problems[-1].startswith((UNSEALED, UNBOUND)) else "red"
            what = "" if episode else f"{record.kind} "
            if problems:
                verdict = f"[{colour}]{what}{escape('; '.join(problems))}[/]"
            elif untrusted:
                verdict = f"[red]sealed, digest matches, but untrusted: {escape(untrusted)}[/]"
            else:
                verdict = f"[green]{what}sealed, digest matches[/]"
            console.print(f"{record.folder}: {verdict}", highlight=False)
    raise typer.Exit(1 if bad else 0)


def view_command(
    runs: Annotated[
        list[Path] | None, typer.Argument(help="Run folders (searched recursively) [default: runs].")
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0 picks a free one).")] = 8780,
    token: Annotated[
        str | None,
        typer.Option(
            "--token", help="The token every page needs (default: a new random one, printed in the URL shown)."
        ),
    ] = None,
) -> None:
    """Look at runs in the browser: a list with filters and pass rates, each run's verdict, violations, state diff
    and timeline, suites, and two runs side by side. Serves on 127.0.0.1 until Ctrl-C; open the URL it prints,
    which carries its token."""
    from orchestrator.view.app import ViewError, serve

    roots = runs or [Path("runs")]
    missing = [r for r in roots if not r.is_dir()]
    if missing:
        raise fail_usage(f"no such folder: {', '.join(map(str, missing))}")
    if token is not None and len(token) < 16:
        raise fail_usage("--token: at least 16 characters, or leave it out for a random one")
    try:
        serve(
            roots,
            port,
            on_ready=lambda url: err.print(
                f"viewing {', '.join(map(str, roots))} at {url} (Ctrl-C to stop)", highlight=False, markup=False
            ),
            token=token,
        )
    except ViewError as exc:
        raise fail_usage(str(exc)) from None


def report_command(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (searched recursively).")],
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write everything as one self-contained HTML file.", callback=output_file),
    ] = None,
    md: Annotated[
        Path | None,
        typer.Option("--md", help="Write a Markdown summary table ('-' for stdout).", callback=output_file),
    ] = None,
) -> None:
    """Write runs as one self-contained HTML file (--html) to share, or a Markdown summary table (--md) for a pull request."""
    from orchestrator.view.report import html_report, markdown_report

    missing = [r for r in runs if not r.is_dir()]
    if missing:
        raise fail_usage(f"no such folder: {', '.join(map(str, missing))}")
    if html is None and md is None:
        raise fail_usage("say what to write: --html FILE and/or --md FILE (- for stdout)")
    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(html_report(runs), encoding="utf-8")
        err.print(f"wrote {html}", highlight=False)
    if md is not None:
        text = markdown_report(runs)
        if str(md) == "-":
            sys.stdout.write(text)
        else:
            md.parent.mkdir(parents=True, exist_ok=True)
            md.write_text(text, encoding="utf-8")
            err.print(f"wrote {md}", highlight=False)
