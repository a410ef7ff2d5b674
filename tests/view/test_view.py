"""`orchestrator view` and `orchestrator report` over real run folders, through a real server process."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from helpers import OUTSIDER, ROOT, free_port


def text_of(page: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(scope="module")
def viewer(runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Viewed from a copy in another place: the viewer needs only the files a run writes.
    copied = tmp_path_factory.mktemp("copied") / "runs"
    shutil.copytree(runs, copied, symlinks=True)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", "view", str(copied), "--port", str(port), "--token", TOKEN],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert f"at http://127.0.0.1:{port}/?token={TOKEN} " in line, line
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(20)


TOKEN = "test-viewer-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def get(base: str, path: str, **params: object) -> httpx2.Response:
    return httpx2.get(base + path, params=params or None, timeout=30, headers=AUTH)


def results(runs: Path, name: str) -> dict:
    return json.loads((runs / name / "results.json").read_text())


def test_list_shows_every_run_with_pass_rates_and_filters(viewer: str, runs: Path) -> None:
    page = get(viewer, "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    body = page.text
    for rid in ("oracle", "leaky", "repeat/episode-001", "repeat/episode-002"):
        assert f'href="/run/{rid}"' in body
    assert 'href="/group/repeat"' in body
    rates = text_of(body.split('id="pass-rates"')[1].split("</table>")[0])
    assert "travel-berlin-offsite oracle 3 3/3 100% 1.00" in rates
    assert "travel-berlin-offsite leaky 1 0/1 0%" in rates
    assert "reschedule-conflict noop 1 0/1 0% 0.00" in rates
    failed_only = get(viewer, "/", passed="no").text
    assert 'href="/run/leaky"' in failed_only and 'href="/run/oracle"' not in failed_only
    by_agent = get(viewer, "/", agent="oracle").text
    assert 'href="/run/leaky"' not in by_agent and 'href="/run/repeat/episode-001"' in by_agent
    old_only = get(viewer, "/", until="2025-12-31").text  # the oracle run's results.json is dated January 2025
    assert 'href="/run/oracle"' in old_only and 'href="/run/leaky"' not in old_only
    recent = get(viewer, "/", since="2026-01-01").text
    assert 'href="/run/oracle"' not in recent and 'href="/run/leaky"' in recent
    assert "no runs match" in get(viewer, "/", scenario="no-such-scenario").text


def test_failed_run_page_explains_the_failure(viewer: str, runs: Path) -> None:
    data = results(runs, "leaky")
    assert data["passed"] is False
    page = get(viewer, "/run/leaky")
    assert page.status_code == 200
    body, words = page.text, text_of(page.text)
    assert data["episode"]["instruction"].split()[0] in words and "Block the travel days" in words
    failing = [c for c in data["checks"] if not c["passed"]]
    assert failing
    for check in failing:
        assert text_of(html.escape(check["reason"])) in words, check["reason"]
    # every stage is there with its score
    for stage in data["stages"]:
        assert text_of(html.escape(stage["name"])) in words
    # the leak: a violation naming the call that caused it, linked to that call in the timeline
    leaks = [v for v in data["violations"] if OUTSIDER in json.dumps(v)]
    assert leaks, data["violations"]
    call = leaks[0]["call"]
    assert call["tool"] == "mail__send_message"
    anchor = f"call-mail-{call['seq']}"
    assert f'href="#{anchor}"' in body and f'id="{anchor}"' in body
    row = body.split(f'id="{anchor}"')[1].split("</tr>")[0]
    assert "mail__send_message" in row and OUTSIDER in html.unescape(row)
    # the failed call is in the timeline with its error
    assert "calendar__get_event" in words and "no-such-event" in words
    # the state diff: the sent message as an added row of mail.messages, its fields highlighted
    diff = body.split("State diff")[1].split("Timeline")[0]
    assert "mail.messages" in diff and "added" in diff and 'class="changed"' in diff and OUTSIDER in diff
    # the model's messages from messages.json
    assert "The model&#39;s messages" in body or "The model's messages" in body
    assert "I will tell our partner about the trip." in words


def test_injected_faults_and_closest_rows(viewer: str, runs: Path) -> None:
    page = get(viewer, "/run/flaky").text
    trace = [json.loads(line) for line in (runs / "flaky" / "trace.jsonl").read_text().splitlines()]
    faulted = [e for e in trace if e.get("fault")]
    assert faulted and faulted[0]["tool"] == "tickets__create_ticket"
    row = page.split(f'id="call-tickets-{faulted[0]["seq"]}"')[1].split("</tr>")[0]
    assert "injected fault" in row and "tickets__create_ticket" in row and "503" in html.unescape(row)
    # a failed check with a closest row shows that row's fields
    data = results(runs, "leaky")
    closest = next(c for c in data["checks"] if c.get("closest"))
    cell = get(viewer, "/run/leaky").text.split(f'id="check-{closest["id"]}"')[1].split("</table></td></tr>")[0]
    for key, value in closest["closest"].items():
        assert html.escape(str(key)) in cell
        if isinstance(value, str):
            assert html.escape(value) in cell


def test_passing_run_and_repeat_pages(viewer: str, runs: Path) -> None:
    words = text_of(get(viewer, "/run/oracle").text)
    assert "passed" in words and "FAIL" not in words and "Violations none" in words
    group = get(viewer, "/group/repeat")
    assert group.status_code == 200
    summary = results(runs, "repeat")
    words = text_of(group.text)
    assert f"{summary['passes']}/{summary['episodes']} episodes passed" in words
    assert "pass@k" in words and "pass^k" in words
    assert 'href="/run/repeat/episode-002"' in group.text


def test_suite_page(viewer: str, runs: Path) -> None:
    listing = get(viewer, "/").text
    assert 'href="/group/suite"' in listing
    assert 'href="/run/suite/travel-berlin-offsite"' in listing and 'href="/run/suite/reschedule-conflict"' in listing
    page = get(viewer, "/group/suite")
    assert page.status_code == 200
    words = text_of(page.text)
    assert "suite: suite" in words and "agent noop" in words and "0/2 scenarios passed" in words
    for sid in ("travel-berlin-offsite", "reschedule-conflict"):
        assert f'href="/run/suite/{sid}"' in page.text
    run = get(viewer, "/run/suite/travel-berlin-offsite")
    assert run.status_code == 200 and 'href="/group/suite"' in run.text  # back to the suite it belongs to
    only_noop = get(viewer, "/", agent="noop").text
    assert 'href="/run/suite/reschedule-conflict"' in only_noop and 'href="/run/leaky"' not in only_noop


def test_two_runs_side_by_side(viewer: str) -> None:
    page = get(viewer, "/compare?run=oracle&run=leaky")
    assert page.status_code == 200
    table = page.text.split('id="compare"')[1]
    assert 'href="/run/oracle"' in table and 'href="/run/leaky"' in table
    words = text_of(table)
    assert "mail__send_message" in words and "FAIL" in words and "ok" in words
    assert "Pick two runs" in get(viewer, "/compare?run=oracle").text


def test_only_loopback_host_names_are_served(viewer: str) -> None:
    port = viewer.rsplit(":", 1)[1]
    assert httpx2.get(viewer + "/", headers={"Host": f"localhost:{port}", **AUTH}).status_code == 200
    rebound = httpx2.get(viewer + "/run/leaky", headers={"Host": f"evil.example:{port}", **AUTH})
    assert rebound.status_code == 403 and "leaky" not in rebound.text


def test_unknown_runs_are_404_and_paths_cannot_escape(viewer: str) -> None:
    assert get(viewer, "/run/nope").status_code == 404
    assert get(viewer, "/run/../../etc/passwd").status_code == 404
    assert get(viewer, "/run/%2e%2e/%2e%2e/etc/passwd").status_code == 404
    assert get(viewer, "/group/oracle").status_code == 404  # an episode is not a group


def test_tolerates_missing_and_extra_fields(tmp_path: Path, runs: Path) -> None:
    from orchestrator.view import pages
    from orchestrator.view.app import web_link
    from orchestrator.view.records import Library

    shutil.copytree(runs / "leaky", tmp_path / "trimmed")
    data = results(runs, "leaky")
    trimmed = {
        "scenario": data["scenario"],
        "passed": False,
        "checks": [{"description": "something", "passed": False}],
        "violations": [{"kind": "new-kind", "detail": "odd", "call": "not a mapping"}],
        "future_field": {"x": 1},
    }
    (tmp_path / "trimmed" / "results.json").write_text(json.dumps(trimmed))
    (tmp_path / "trimmed" / "trace.jsonl").write_text(
        '{"source": "gateway", "method": "tools/call"}\nnot json\n[1, 2]\n'
    )
    (tmp_path / "trimmed" / "messages.json").write_text('{"messages": ["plain text", {"role": "tool"}]}')
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "results.json").write_text("{not json")
    library = Library.scan([tmp_path])
    assert list(library.records) == ["trimmed"]
    assert any("broken" in p for p in library.problems)
    page = pages.run_page(library, library.records["trimmed"], web_link)
    assert "something" in page and "new-kind" in page and "not recorded in this run" in page
    assert "broken/results.json: not a ClawGym results.json" in pages.list_page(library, web_link)


def test_report_html_is_self_contained_and_md_summarizes(runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    md = tmp_path / "report.md"
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "report", str(runs), "--html", str(out), "--md", str(md)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert "<script" not in page and not re.search(r'(src|href)="(https?:)?//', page)  # nothing fetched from anywhere
    assert "<style>" in page
    # every run is in the one file, and links between them are anchors inside it
    for rid in ("oracle", "leaky", "repeat-episode-001"):
        assert f'id="run-{rid}"' in page and f'href="#run-{rid}"' in page
    assert 'id="group-repeat"' in page and 'id="group-suite"' in page
    data = results(runs, "leaky")
    reason = next(c["reason"] for c in data["checks"] if not c["passed"])
    assert html.escape(reason, quote=False) in page or html.escape(reason) in page
    table = md.read_text()
    assert "| travel-berlin-offsite | oracle | 3/3 | 100% | 1.00 |" in table
    assert "| reschedule-conflict | noop | 0/1 | 0% | 0.00 |" in table
    assert "| travel-berlin-offsite | leaky | 0/1 | 0% |" in table
    assert "| leaky |" in table  # the failed run, with why
    stdout = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "report", str(runs), "--md", "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert stdout.stdout == table


def test_view_and_report_errors(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
        )

    missing = run("view", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "no such folder" in missing.stderr and "Traceback" not in missing.stderr
    nothing = run("report", str(tmp_path))
    assert nothing.returncode == 2 and "--html" in nothing.stderr
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = run("view", str(tmp_path), "--port", str(taken.getsockname()[1]))
    assert busy.returncode == 2 and "cannot listen" in busy.stderr and "Traceback" not in busy.stderr
    started = time.monotonic()
    assert time.monotonic() - started < 60
