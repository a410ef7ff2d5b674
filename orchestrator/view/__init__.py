"""Looking at runs: `orchestrator view` (a local web app) and `orchestrator report` (one HTML file, or Markdown).

Both read only what a run writes into its folder (`results.json`, `trace.jsonl`, `messages.json`,
`agent.log`), so runs copied from another machine work, and both tolerate missing and extra fields.

    records.py    finding run folders and reading them: episodes, repeats (pass@k), suites
    details.py    an episode's details as its page shows them: timeline, violations' calls, changes, stages
    pages.py      the pages as server-rendered HTML (Jinja2 templates in templates.py, one small CSS, no JavaScript)
    app.py        the Starlette app on 127.0.0.1
    report.py     the same pages as one self-contained HTML file, and a Markdown summary table

Folders are found, told apart (episode, repeat, suite) and read through `orchestrator.record`, the one module
that says what a run writes; export reads them the same way.

May import: `record` and `guard` (which import nothing of the orchestrator), besides the standard library, Starlette, uvicorn
and Jinja2; nothing of how runs are made (`run`, `episode`, the CLI), only what they write.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.view.app import create_app, serve
    from orchestrator.view.report import html_report, markdown_report

__all__ = [
    "create_app",
    "html_report",
    "markdown_report",
    "serve",
]

_SOURCES = {
    "create_app": "orchestrator.view.app",
    "html_report": "orchestrator.view.report",
    "markdown_report": "orchestrator.view.report",
    "serve": "orchestrator.view.app",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
