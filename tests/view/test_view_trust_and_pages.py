"""The viewer says which verdicts are not to be trusted, and shows big runs a page at a time.

Trust: an episode whose `cmd:` agent ran without isolation (`episode.untrusted`, or isolation none in an older
record) and an episode whose record is unsealed or fails its seal (`orchestrator.record.verify_digest`: an edited
verdict, trace or journal) are flagged on the run page and in every list; a sealed in-process run is not. Pages:
a run whose agent flooded its trace shows its timeline 200 rows at a time (a violation's call links to the page it
is on), and a repeat of 450 episodes, and the list, 200 episodes at a time. Real runs (tests/view/conftest.py, and a
real `cmd:` agent), read by the viewer's app in process."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import anyio
import pytest
from helpers import TRAVEL_PATH
from starlette.testclient import TestClient

from orchestrator import scenario as scenarios
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.app import create_app


def text_of(page: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def row_of(page: str, rid: str) -> str:
    """The list's table row of run `rid`."""
    return page.split(f'href="/run/{rid}"')[1].split("</tr>")[0]


@pytest.fixture(scope="module")
def trust_runs(runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("trust-runs")
    shutil.copytree(runs / "oracle", root / "as-run")
    for name in ("edited", "unsealed", "trace-edited"):
        shutil.copytree(runs / "oracle", root / name)
    edited = json.loads((root / "edited" / "results.json").read_text())
    (root / "edited" / "results.json").write_text(json.dumps(edited | {"score": 0.99}))  # the verdict, not resealed
    unsealed = json.loads((root / "unsealed" / "results.json").read_text())
    (root / "unsealed" / "results.json").write_text(json.dumps({k: v for k, v in unsealed.items() if k != "digest"}))
    with (root / "trace-edited" / "trace.jsonl").open("a") as trace:
        trace.write(json.dumps({"source": "gateway", "method": "tools/list"}) + "\n")

    async def main() -> None:
        async with InProcessBackend() as backend:
            make = lambda: CommandAgent("true", isolation="none")  # noqa: E731
            await run_many(scenarios.load(TRAVEL_PATH), backend, make, RunOptions(out=root / "plain-process", seed=5))

    anyio.run(main)
    older = json.loads((root / "plain-process" / "results.json").read_text())
    assert older["episode"]["untrusted"] and older["episode"]["isolation"] == "none"
    shutil.copytree(root / "plain-process", root / "older-plain-process")
    older["episode"].pop("untrusted")  # a record written before `untrusted` existed
    (root / "older-plain-process" / "results.json").write_text(json.dumps(older))
    return root


def test_the_list_flags_untrusted_and_unsealed_verdicts(trust_runs: Path) -> None:
    client = TestClient(create_app([trust_runs]), base_url="http://127.0.0.1")
    listing = client.get("/").text
    assert "untrusted" not in text_of(row_of(listing, "as-run")) and "seal" not in text_of(row_of(listing, "as-run"))
    assert "seal broken" in text_of(row_of(listing, "edited"))
    assert "seal broken" in text_of(row_of(listing, "trace-edited"))
    assert "unsealed" in text_of(row_of(listing, "unsealed"))
    for rid in ("plain-process", "older-plain-process"):
        assert "untrusted" in text_of(row_of(listing, rid)), rid


def test_the_compare_page_flags_the_verdict_it_cannot_trust(trust_runs: Path) -> None:
    client = TestClient(create_app([trust_runs]), base_url="http://127.0.0.1")
    page = client.get("/compare", params=[("run", "as-run"), ("run", "edited")]).text
    verdicts = page.split("<td>verdict</td>")[1].split("</tr>")[0].split("</td>")
    assert "seal broken" not in text_of(verdicts[0]) and "seal broken" in text_of(verdicts[1])


def test_the_run_page_says_why_a_verdict_is_not_to_be_trusted(trust_runs: Path) -> None:
    client = TestClient(create_app([trust_runs]), base_url="http://127.0.0.1")
    sealed = client.get("/run/as-run").text
    assert 'id="trust"' not in sealed and "record sealed" in text_of(sealed)
    edited = text_of(client.get("/run/edited").text)
    assert "Not to be trusted" in edited and "does not match its digest" in edited
    assert "trace.jsonl does not match the digest" in text_of(client.get("/run/trace-edited").text)
    assert "has no seal" in text_of(client.get("/run/unsealed").text)
    plain = text_of(client.get("/run/plain-process").text)
    assert "Not to be trusted" in plain and "could read the scenario's checks" in plain
    assert "Not to be trusted" in text_of(client.get("/run/older-plain-process").text)


def test_a_flooded_trace_is_shown_a_page_at_a_time(runs: Path, tmp_path: Path) -> None:
    big = tmp_path / "runs" / "big"
    shutil.copytree(runs / "leaky", big)
    entry = {
        "source": "gateway",
        "wall": "2000-01-01T00:00:00.000",
        "method": "tools/call",
        "result": None,
        "params": {"name": "world__report", "arguments": {"summary": "S" * 4_000}},
        "is_error": True,
        "error": "refused",
        "latency_ms": 0.1,
    }
    with (big / "trace.jsonl").open("a") as trace:  # earlier than every real call: they move to the last page
        for i in range(3_000):
            trace.write(json.dumps({"seq": 10_000 + i, **entry}) + "\n")
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    first = client.get("/run/big")
    assert first.status_code == 200
    timeline = first.text.split('id="timeline"')[1].split("</table>")[0]
    assert timeline.count("<tr") == 201  # the header and 200 rows
    assert len(first.text) < 3_000_000
    words = text_of(first.text)
    total = len([line for line in (big / "trace.jsonl").read_text().splitlines() if '"source": "app:' not in line])
    assert f"rows 1–200 of {total}" in words
    pages = -(-total // 200)
    # The leak's call is on the last page: the violation links there, and that page has the row.
    cause = re.search(r'<td class="cause"><a href="([^"]+)"', first.text)
    assert cause and cause.group(1).startswith(f"/run/big?page={pages}#call-mail-"), cause
    last = client.get(cause.group(1).split("#")[0]).text
    assert f'id="{cause.group(1).split("#")[1]}"' in last
    assert "mail__send_message" in last.split('id="timeline"')[1]
    assert client.get("/run/big", params={"page": "999999"}).text.count(f"<b>{pages}</b>") == 2  # past the end
    assert client.get("/run/big", params={"page": "-3"}).status_code == 200


def test_a_repeat_of_many_episodes_and_the_list_are_paged(runs: Path, tmp_path: Path) -> None:
    rep = tmp_path / "runs" / "many"
    shutil.copytree(runs / "repeat", rep)
    for i in range(3, 451):
        shutil.copytree(rep / "episode-001", rep / f"episode-{i:03d}")
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    group = client.get("/group/many").text
    table = group.split('id="group-episodes"')[1].split("</table>")[0]
    assert table.count('href="/run/many/episode-') == 200 and "rows 1–200 of 450" in text_of(group)
    third = client.get("/group/many", params={"page": "3"}).text
    assert third.split('id="group-episodes"')[1].split("</table>")[0].count('href="/run/many/episode-') == 50
    assert 'href="/run/many/episode-450"' in third and 'href="/run/many/episode-001"' not in third
    listing = client.get("/", params={"scenario": "travel-berlin-offsite"}).text
    assert "Episodes (450)" in text_of(listing) and "rows 1–200 of 450" in text_of(listing)
    assert listing.split('id="episodes"')[1].split("</table>")[0].count('type="checkbox"') == 200
    assert 'href="/?scenario=travel-berlin-offsite&amp;page=2"' in listing  # the filter stays on the next page


def test_the_compare_page_lists_a_flooded_runs_calls_in_part(runs: Path, tmp_path: Path) -> None:
    big = tmp_path / "runs" / "big"
    shutil.copytree(runs / "leaky", big)
    shutil.copytree(runs / "oracle", tmp_path / "runs" / "oracle")
    entry = {
        "source": "gateway",
        "wall": "2030-01-01T00:00:00.000",
        "method": "tools/call",
        "is_error": True,
        "params": {"name": "world__report", "arguments": {"summary": "S"}},
        "error": "refused",
    }
    with (big / "trace.jsonl").open("a") as trace:
        trace.writelines(json.dumps({"seq": 10_000 + i, **entry}) + "\n" for i in range(5_000))
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    page = client.get("/compare", params=[("run", "big"), ("run", "oracle")]).text
    calls = page.split("tool calls in order")[1]
    assert calls.count("<li") == 500 + 12  # the flooded run's first 500, the oracle's 12
    assert "and 4503 more calls" in text_of(calls)  # the leaky run's 3 calls and the 5,000 added


def test_a_fifo_in_place_of_a_runs_files_does_not_hang_the_viewer(runs: Path, tmp_path: Path) -> None:
    """An agent without isolation can leave FIFOs where the trace, messages and log go: reading one blocks for ever.
    The viewer reads none of them: the page renders, and the record is flagged (its trace is not a file)."""
    import os

    folder = tmp_path / "runs" / "fifos"
    shutil.copytree(runs / "leaky", folder)
    for name in ("trace.jsonl", "messages.json", "agent.log"):
        (folder / name).unlink(missing_ok=True)
        os.mkfifo(folder / name)
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    page = client.get("/run/fifos")
    assert page.status_code == 200
    words = text_of(page.text)
    assert "Not to be trusted" in words and "trace.jsonl is not a regular file" in words
    assert "seal broken" in text_of(row_of(client.get("/").text, "fifos"))


def test_report_md_lists_the_runs_not_to_be_trusted(trust_runs: Path) -> None:
    from orchestrator.view.report import markdown_report

    text = markdown_report([trust_runs])
    table = text.split("| run not to be trusted | flags | why |")[1]
    rows = {line.split(" | ")[0].strip("| "): line for line in table.strip().splitlines()[1:]}
    assert set(rows) == {"edited", "trace-edited", "unsealed", "plain-process", "older-plain-process"}
    assert "seal broken" in rows["edited"] and "does not match its digest" in rows["edited"]
    assert "untrusted" in rows["plain-process"] and "unsealed" in rows["unsealed"]
