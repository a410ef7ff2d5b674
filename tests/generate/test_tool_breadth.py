"""Edition 3's reference solutions use more of the apps' tools (`families/_paths`): looks before acting and mail
written as a draft then sent, each taken by a bit of the parameters; edition 2's references are unchanged."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from orchestrator import scenario as scenarios
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.generate.drawing import draw
from orchestrator.generate.families import _paths
from orchestrator.generate.family import families
from orchestrator.prove.validate import validate

SERVERS = Path(__file__).resolve().parents[2] / "servers"


def app_tools() -> set[str]:
    """Every tool the four apps register (`@tools.tool` functions), as `app__name`."""
    found = set()
    for app in ("calendar", "mail", "docs", "tickets"):
        text = (SERVERS / app / "tools.py").read_text()
        found |= {f"{app}__{m}" for m in re.findall(r"@tools\.tool\([^)]*\)\s*\n(?:async )?def (\w+)", text)}
    return found


def _tools(tasks: list[Any]) -> set[str]:
    return {s["tool"] for t in tasks for steps in (t.scenario["oracle"], *t.scenario.get("oracles", [])) for s in steps}


def _draws(name: str, count: int, edition: int = 3) -> list[Any]:
    family = families()[name]()
    return [t for t in (draw(family, 7, "small", i, {}, edition=edition) for i in range(count)) if t is not None]


def test_the_apps_have_68_tools() -> None:
    assert len(app_tools()) == 68


def test_rewrite_adds_looks_and_sends_drafts_by_the_bits() -> None:
    send = {"tool": "mail__send_message", "args": {"to": ["ann@x.test"], "body": "Hi"}, "save": "sent"}
    create = {"tool": "tickets__create_ticket", "args": {"project": "OPS", "title": "T"}}
    assert _paths.rewrite([send, create], 0) == [send, create]
    every = _paths.rewrite([send, create], (1 << 60) - 1)
    assert [s["tool"] for s in every] == [
        "mail__search_contacts",
        "mail__create_draft",
        "mail__send_draft",
        "tickets__list_projects",
        "tickets__create_ticket",
    ]
    assert every[1]["args"] == send["args"] and every[2] == {
        "tool": "mail__send_draft",
        "args": {"draft_id": "${draft_0.id}"},
        "save": "sent",
    }


def test_edition_2_references_are_not_rewritten_and_edition_3_ones_use_more_tools() -> None:
    names = ("incident", "inbox-rules", "offboard", "approval-needed")
    two = _tools([t for n in names for t in _draws(n, 4, edition=2)])
    three = _tools([t for n in names for t in _draws(n, 4)])
    assert not two & {"mail__create_draft", "tickets__list_projects", "mail__list_folders"}
    assert len(three - two) >= 4, sorted(three - two)


def _prove(task: Any) -> Any:
    async def run() -> Any:
        async with InProcessBackend() as backend:
            return await validate(scenarios.load_data(task.scenario, f"{task.id}.yaml"), backend)

    return asyncio.run(run())


def test_a_reference_sending_a_draft_scores_as_the_plain_one() -> None:
    task = next(t for t in _draws("incident", 12) if "mail__send_draft" in _tools([t]))
    check = _prove(task)
    assert check.valid, check.problems


@pytest.mark.slow
def test_edition_3_references_use_at_least_40_tools() -> None:
    tasks = [t for name in families() for t in _draws(name, 12)]
    used = _tools(tasks) & app_tools()
    assert len(used) >= 40, sorted(app_tools() - used)  # of 68; issue 38 asks for 50
