"""Threat: the agent reads an app server's admin token (or the orchestrator's secrets) from
`/proc/*/environ`, `/proc/*/cmdline` or its own inherited environment, then drives the admin API."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap

SNOOP = (
    "for p in /proc/[0-9]*; do echo \"== $p $(tr '\\0' ' ' < $p/cmdline)\"; tr '\\0' '\\n' < $p/environ; done; "
    "echo '== own environment'; env; echo attempted"
)


@pytest.mark.slow
def test_agent_cannot_read_tokens_of_servers_or_the_orchestrator(tmp_path: Path) -> None:
    env = os.environ | {
        "CLAWGYM_ADMIN_TOKEN": "orchestrator-admin-secret",
        "OPENAI_API_KEY": "sk-not-for-the-agent",
        "MODEL_KEY": "sk-passed-on-purpose",
    }
    run = run_agent(tmp_path / "out", SNOOP, "--agent-env", "MODEL_KEY", env=env)
    assert "attempted" in run.log
    assert "CLAWGYM_ADMIN_TOKEN" not in run.log and "orchestrator-admin-secret" not in run.log
    assert "sk-not-for-the-agent" not in run.log
    assert "servers." not in run.log and "--parent-pid" not in run.log  # no app server is visible at all
    assert "MODEL_KEY=sk-passed-on-purpose" in run.log  # what --agent-env names does reach it
    own = run.log.rsplit("== own environment\n", 1)[1].rsplit("attempted", 1)[
        0
    ]  # (the command line holds both words too)
    names = {line.split("=", 1)[0] for line in own.splitlines() if "=" in line}
    assert names <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TERM",
        "TZ",
        "VIRTUAL_ENV",
        "PYTHONUNBUFFERED",
        "CLAWGYM_TASK",
        "CLAWGYM_MCP_URL",
        "CLAWGYM_MCP_CONFIG",
        "CLAWGYM_EPISODE",
        "MODEL_KEY",
        "PWD",
        "SHLVL",
        "_",
        "OLDPWD",
    }, names
    home = next(line.split("=", 1)[1] for line in own.splitlines() if line.startswith("HOME="))
    assert not home.startswith(str(tmp_path)) and home != os.environ.get("HOME")


@pytest.mark.slow
def test_the_same_agent_without_isolation_sees_the_servers(tmp_path: Path) -> None:
    """The control: without isolation the servers' processes are in plain sight."""
    run = run_agent(tmp_path / "out", SNOOP, isolation="none")
    assert "--parent-pid" in run.log
