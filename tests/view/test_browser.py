"""The viewer in a real headless browser: Debian's chromium driven by Playwright.

Skipped when chromium or Playwright is missing, unless CLAWGYM_REQUIRE_BROWSER=1 (CI), which fails instead.
Screenshots go to the test's tmp folder (`list.png`, `failed-run.png`, `violation.png`, `compare.png`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import OUTSIDER, ROOT, free_port

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CLAWGYM_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing() -> str | None:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return f"no chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    problem = _missing()
    if problem:
        if os.environ.get("CLAWGYM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CLAWGYM_REQUIRE_BROWSER=1 but {problem}")
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), args=ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def viewer_url(runs: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", "view", str(runs), "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert f"http://127.0.0.1:{port}/?token=" in line, line
        yield line.split(" at ", 1)[1].split()[0]  # the URL with its token, as a user opens it
    finally:
        proc.terminate()
        proc.wait(20)


def test_open_the_list_then_a_failed_run(browser, viewer_url: str, runs: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # pytest fixtures
    data = json.loads((runs / "leaky" / "results.json").read_text())
    failing = next(c for c in data["checks"] if not c["passed"])
    leak = next(v for v in data["violations"] if OUTSIDER in json.dumps(v))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    page.goto(viewer_url)
    assert page.title() == "ClawGym runs"
    episodes = page.locator("#episodes")
    assert episodes.get_by_role("link", name="leaky").is_visible()
    assert episodes.get_by_role("link", name="oracle").is_visible()
    page.screenshot(path=str(tmp_path / "list.png"), full_page=True)

    # filter to the failed runs with the form, as a user would
    page.select_option("select[name=passed]", "no")
    page.get_by_role("button", name="filter").click()
    page.wait_for_load_state()
    assert "passed=no" in page.url
    assert page.locator("#episodes").get_by_role("link", name="leaky").is_visible()
    assert page.locator("#episodes").get_by_role("link", name="oracle").count() == 0

    page.locator("#episodes").get_by_role("link", name="leaky").click()
    page.wait_for_load_state()
    assert page.url.endswith("/run/leaky")
    assert page.locator("#verdict").inner_text().startswith("failed")
    reason = page.locator(f'tr[id="check-{failing["id"]}"] td.reason')
    assert reason.is_visible() and reason.inner_text() == failing["reason"]
    page.screenshot(path=str(tmp_path / "failed-run.png"), full_page=True)

    cause = page.locator("#violations").get_by_role("link", name=f"{leak['call']['tool']} #{leak['call']['seq']}")
    assert cause.is_visible()
    cause.click()  # jumps to the call in the timeline
    assert page.url.endswith(f"#call-mail-{leak['call']['seq']}")
    row = page.locator(f"#call-mail-{leak['call']['seq']}")
    from playwright.sync_api import expect

    expect(row).to_be_in_viewport()
    assert "mail__send_message" in row.inner_text() and OUTSIDER in row.inner_text()
    page.screenshot(path=str(tmp_path / "violation.png"))

    page.goto(viewer_url)
    page.locator('input[name=run][value="oracle"]').check()
    page.locator('input[name=run][value="leaky"]').check()
    page.get_by_role("button", name="compare").click()
    page.wait_for_load_state()
    compare = page.locator("#compare")
    assert compare.is_visible() and "FAIL" in compare.inner_text()
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)

    outside = [url for url in requests if not url.startswith(viewer_url.split("?")[0])]
    assert outside == [], outside  # the pages fetch nothing from anywhere else
    for name in ("list.png", "failed-run.png", "violation.png", "compare.png"):
        assert (tmp_path / name).stat().st_size > 10_000
