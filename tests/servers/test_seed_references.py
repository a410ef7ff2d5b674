"""Seeds that reference rows they do not have: a clean error naming the field and the missing value,
when the scenario is loaded, from `check_seed`, from `scenarios.load` and from `orchestrator validate`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from helpers import ROOT

from orchestrator import scenario as scenarios
from servers import registry
from servers.core import Persona, SeedError
from servers.core.sandbox import check_seed

PERSONA = Persona(name="Dana Lee", email="dana@acme.test", timezone="Europe/Berlin")
PROJECT = {"projects": [{"key": "OPS", "name": "Ops"}]}
SENT = "2026-03-01T10:00:00+01:00"

CASES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "tickets",
        {**PROJECT, "tickets": [{"key": "OPS-1", "title": "x", "reporter": "ghost@acme.test"}]},
        "tickets[0] (key 'OPS-1').reporter",
        "no user with email 'ghost@acme.test'",
    ),
    (
        "tickets",
        {**PROJECT, "tickets": [{"key": "OPS-1", "title": "x", "assignee": "nobody@acme.test"}]},
        "tickets[0] (key 'OPS-1').assignee",
        "no user with email 'nobody@acme.test'",
    ),
    (
        "tickets",
        {**PROJECT, "tickets": [{"project": "WEB", "title": "x"}]},
        "tickets[0].project",
        "no project with key 'WEB'",
    ),
    (
        "tickets",
        {"projects": [{"key": "OPS", "name": "Ops", "lead": "boss@acme.test"}]},
        "projects[0] (key 'OPS').lead",
        "no user with email 'boss@acme.test'",
    ),
    (
        "tickets",
        {**PROJECT, "tickets": [{"key": "OPS-1", "title": "x"}], "comments": [{"ticket_key": "OPS-9", "body": "b"}]},
        "comments[0].ticket_key",
        "no ticket with key 'OPS-9'",
    ),
    (
        "tickets",
        {
            **PROJECT,
            "tickets": [{"key": "OPS-1", "title": "x"}],
            "links": [{"source": "OPS-1", "target": "OPS-2", "type": "blocks"}],
        },
        "links[0].target",
        "no ticket with key 'OPS-2'",
    ),
    (
        "calendar",
        {
            "events": [
                {"id": "e", "title": "t", "start": "2026-03-02T10:00", "end": "2026-03-02T11:00", "calendar_id": "team"}
            ]
        },
        "events[0] (id 'e').calendar_id",
        "no calendar with id 'team'",
    ),
    (
        "docs",
        {"documents": [{"id": "d", "title": "t", "folder_id": "trips"}]},
        "documents[0] (id 'd').folder_id",
        "no folder with id 'trips'",
    ),
    (
        "docs",
        {"folders": [{"id": "f", "name": "F", "parent_id": "work"}]},
        "folders[0] (id 'f').parent_id",
        "no folder with id 'work'",
    ),
    (
        "docs",
        {"documents": [{"id": "d", "title": "t"}], "comments": [{"document_id": "plan", "body": "b"}]},
        "comments[0].document_id",
        "no document with id 'plan'",
    ),
    (
        "mail",
        {"messages": [{"id": "m", "from": "a@x.test", "subject": "s", "sent_at": SENT, "in_reply_to": "m0"}]},
        "messages[0] (id 'm').in_reply_to",
        "no earlier message with id 'm0'",
    ),
    (
        "mail",
        {"messages": [{"id": "m", "from": "a@x.test", "subject": "s", "sent_at": SENT, "labels": ["Travel"]}]},
        "messages[0] (id 'm').labels",
        "no label 'Travel'",
    ),
]


@pytest.mark.parametrize(("app", "seed", "loc", "message"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_validate_seed_with_a_persona_names_the_field_and_the_missing_value(
    app: str, seed: dict, loc: str, message: str
) -> None:
    registry.load(app).validate_seed(seed)  # the seed model alone cannot see references
    with pytest.raises(SeedError) as caught:
        check_seed(registry.load(app), seed, PERSONA)
    (problem,) = caught.value.problems
    assert problem.loc == loc and message in problem.message


def test_the_persona_counts_as_a_user_without_being_listed() -> None:
    seed = {**PROJECT, "tickets": [{"key": "OPS-1", "title": "x", "assignee": "dana@acme.test"}]}
    check_seed(registry.load("tickets"), seed, PERSONA)
    with pytest.raises(SeedError, match="no user with email 'dana@acme.test'"):
        check_seed(registry.load("tickets"), seed, Persona(email="lee@acme.test"))


SCENARIO = """
id: bad-reference
title: Bad reference
clock: {start: "2026-03-04T15:20:00+01:00"}
persona: {name: Dana, email: dana@acme.test, timezone: Europe/Berlin}
instruction: File a ticket.
apps:
  tickets:
    projects: [{key: OPS, name: Operations}]
    users: [{email: priya@acme.test, name: Priya}]
    tickets:
      - key: OPS-1
        title: Renew the certificate
        reporter: ghost@acme.test
stages:
  - name: filed
    checks:
      - {app: tickets, table: tickets, where: {title: {contains: certificate}}}
oracle:
  - {tool: tickets__create_ticket, args: {project: OPS, title: Renew the certificate}}
"""


def test_scenarios_load_reports_the_field_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(dedent(SCENARIO))
    with pytest.raises(scenarios.ScenarioError) as caught:
        scenarios.load(path)
    text = str(caught.value)
    assert "apps.tickets.tickets[0].reporter" in text and "no user with email 'ghost@acme.test'" in text
    assert "bad.yaml:14" in text  # the reporter's line


def test_orchestrator_validate_prints_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(dedent(SCENARIO))
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "validate", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1
    assert "Traceback" not in output
    assert "apps.tickets.tickets[0].reporter" in output and "no user with email 'ghost@acme.test'" in output
