"""The viewer's pages read as a person reads them: times, counts and costs formatted (not raw floats or ISO
strings), and the stylesheet served as CSS (not HTML-escaped). Real run folders (tests/view/conftest.py), the
suite's record given the values a long model run writes."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from orchestrator.view import pages
from orchestrator.view.app import web_link
from orchestrator.view.records import Library
from orchestrator.view.report import html_report


def text_of(page: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def long_suite(runs: Path, tmp_path: Path) -> Path:
    """The noop suite, its record saying what a long model run says: seconds and calls as floats, a cost."""
    folder = tmp_path / "suite"
    shutil.copytree(runs / "suite", folder)
    data = json.loads((folder / "results.json").read_text())
    data["total"] |= {"calls": 20.0, "wall_s": 125.43210, "cost_usd": 0.0123456}
    data["written_at"] = "2026-03-02T09:15:42+0000"
    for row, (seconds, calls, cost) in zip(
        data["scenarios"], [(2.680667, 12.0, 0.0071234), (3725.5, 8.0, None)], strict=True
    ):
        row |= {"duration_s": seconds, "calls": calls, "cost_usd": cost}
    (folder / "results.json").write_text(json.dumps(data))
    episode = folder / "travel-berlin-offsite" / "results.json"
    record = json.loads(episode.read_text())
    record["episode"]["duration_s"] = 2.680667
    episode.write_text(json.dumps(record))
    return folder


def test_the_suite_page_shows_times_counts_and_costs_readably(long_suite: Path) -> None:
    library = Library.scan([long_suite])
    page = pages.group_page(library, library.records["suite"], web_link)
    words = text_of(page)
    for raw in ("2.680667", "3725.5", "12.0", "20.0", "0.0071234", "0.0123456", "125.4321", "T09:15:42"):
        assert raw not in words, raw
    assert "2.7 s" in words and "1 h 02 min" in words  # each scenario's time
    assert "2 min 05 s" in words and "20 tool calls" in words and "$0.0123" in words  # the suite's totals
    assert "$0.0071" in words
    assert "written 2026-03-02 09:15" in words
    run = pages.run_page(library, library.records["travel-berlin-offsite"], web_link)
    assert "2.7 s" in text_of(run) and "2.680667" not in run


@pytest.mark.parametrize("where", ["compare", "report"])
def test_the_stylesheet_is_css_not_escaped_html(runs: Path, where: str) -> None:
    library = Library.scan([runs])
    if where == "compare":
        page = pages.compare_page(library, ["oracle", "leaky"], web_link)
    else:
        page = html_report([runs])
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    assert "#compare tr > :first-child" in style
    assert "&gt;" not in style and "&#" not in style and "&quot;" not in style
    assert '"Segoe UI"' in style
