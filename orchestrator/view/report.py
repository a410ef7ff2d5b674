"""`orchestrator report`: the viewer's pages as one self-contained HTML file, or a Markdown summary table."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

from orchestrator.record import EPISODE, is_undecided, tally
from orchestrator.view import pages
from orchestrator.view.records import Library


def _report_link(kind: str, rid: str | None = None, **_: str) -> str:
    """Where a link points inside the one-file report: an anchor of the list, a group or a run."""
    if kind == "list":
        return "#top"
    return f"#{'group' if kind == 'group' else 'run'}-{pages.anchor(rid or '')}"


def html_report(roots: list[Path]) -> str:
    """One HTML document (inline CSS, no scripts, no outside requests): the list, every suite or repeat, every run."""
    library = Library.scan(roots)
    listing = pages.list_page(library, _report_link, embedded=True)
    groups = [{"id": g.id, "html": pages.group_page(library, g, _report_link, embedded=True)} for g in library.groups()]
    runs = [pages.run_page(library, r, _report_link, embedded=True) for r in library.episodes()]
    return pages.ENV.get_template("report.html").render(
        css=pages.CSS,
        roots=", ".join(map(str, roots)),
        written=time.strftime("%Y-%m-%d %H:%M"),
        listing=listing,
        groups=groups,
        runs=runs,
        anchor=pages.anchor,
    )


_MARKDOWN = re.compile(r"([\\`\[\]|])")
"""What Markdown reads as markup inside a table cell (links, code, `|`): escaped with a backslash."""


def _cell(text: object) -> str:
    """`text` as one table cell of text: HTML escaped (`<img>`, `<script>` show as written, never render), the markup
    of links and code and `|` escaped, lines joined."""
    escaped = html.escape(" ".join(str(text).splitlines()), quote=False)
    return _MARKDOWN.sub(r"\\\1", escaped)


def markdown_report(roots: list[Path]) -> str:
    """A summary table for a pull request: one row per scenario and agent over the scored episodes, then the failed
    episodes with why, then the errored ones (not scored: `orchestrator.record.is_errored`) with their reasons, then
    the episodes whose verdict is not to be trusted (`orchestrator.view.records.trust`) with why."""
    library = Library.scan(roots)
    episodes = library.episodes()
    lines = ["| scenario | agent | passed | pass rate | mean score | errored |", "|---|---|---:|---:|---:|---:|"]
    for row in pages.rec.pass_rates(episodes):
        rate = f"{100 * row['rate']:.0f}%" if row["rate"] is not None else "-"
        score = f"{row['score']:.2f}" if row["score"] is not None else "-"
        lines.append(
            f"| {_cell(row['scenario'])} | {_cell(row['agent'])} | {row['passes']}/{row['scored']} | "
            f"{rate} | {score} | {row['errored'] or ''} |"
        )
    counts = tally(r.data for r in episodes)
    lines.append("")
    lines.append(
        f"**{counts.passes}/{counts.scored} episodes passed**"
        + (f" ({100 * counts.passes / counts.scored:.0f}%)" if counts.scored else "")
        + (f"; {counts.errored} errored, not scored" if counts.errored else "")
        + (f"; {counts.undecided} undecided (a judge check no judge answered), not scored" if counts.undecided else "")
    )
    failed = [r for r in episodes if not r.passed and not r.errored and not r.data.get("undecided")]
    if failed:
        lines += ["", "| failed run | score | first failing check | why |", "|---|---:|---|---|"]
        for r in failed:
            check = next(
                (
                    c
                    for c in r.data.get("checks") or []
                    if isinstance(c, dict) and not c.get("passed") and c.get("kind") not in ("process", "unjudged")
                ),
                None,
            )  # these never fail a run
            violation = next((v for v in r.data.get("violations") or [] if isinstance(v, dict)), None)
            what = (
                check.get("description")
                if check
                else (f"{violation.get('kind')}: {violation.get('rule')}" if violation else r.status)
            )
            why = (
                check.get("reason") if check else (violation.get("detail") if violation else r.data.get("error"))
            ) or ""
            score = f"{r.score:.2f}" if r.score is not None else "-"
            lines.append(f"| {_cell(r.id)} | {score} | {_cell(what)} | {_cell(why)} |")
    errored = [r for r in episodes if r.errored]
    if errored:
        lines += ["", "| errored run (not scored) | status | why |", "|---|---|---|"]
        lines += [f"| {_cell(r.id)} | {_cell(r.status)} | {_cell(r.data.get('error') or '')} |" for r in errored]
    undecided = [r for r in episodes if r.kind == EPISODE and is_undecided(r.data)]
    if undecided:
        lines += ["", "| undecided run (not scored) | why |", "|---|---|"]
        lines += [f"| {_cell(r.id)} | {_cell(r.data.get('undecided') or '')} |" for r in undecided]
    distrusted = [(r, t) for r in episodes if not (t := pages.rec.trust(r)).trusted]
    if distrusted:  # how the agent ran, or the record's seal (the viewer's flags)
        lines += ["", "| run not to be trusted | flags | why |", "|---|---|---|"]
        lines += [
            f"| {_cell(r.id)} | {_cell(', '.join(t.flags))} | {_cell('; '.join(filter(None, [t.untrusted, *t.problems])))} |"
            for r, t in distrusted
        ]
    return "\n".join(lines) + "\n"
