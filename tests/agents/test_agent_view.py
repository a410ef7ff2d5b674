"""`orchestrator.agents.view`: what a `cmd:` agent's file system shows. An allow-list: the interpreter, its program,
its scratch folder; a working directory that holds anything of ClawGym's (a checkout, a scenario, a run record) is
not shown whole, only the files the command names there, and never a scenario or a record, even when named."""

from __future__ import annotations

import json
from pathlib import Path

from orchestrator.agents.view import agent_view, file_problem, folder_problem, named_paths


def checkout(root: Path) -> Path:
    (root / "orchestrator" / "generate").mkdir(parents=True)
    (root / "orchestrator" / "__init__.py").write_text("")
    (root / "pyproject.toml").write_text('[project]\nname = "clawgym"\n')
    (root / "scenarios").mkdir()
    (root / "scenarios" / "travel.yaml").write_text("id: travel\nstages:\n  - checks: []\noracle: []\n")
    (root / "examples").mkdir()
    (root / "examples" / "agent.py").write_text("print('hi')\n")
    return root


def test_a_clean_folder_of_its_own_is_shown_whole(tmp_path: Path) -> None:
    own = tmp_path / "agent"
    (own / "lib").mkdir(parents=True)
    (own / "agent.py").write_text("import lib\n")
    (own / "notes.yaml").write_text("model: small\n")
    view, notes = agent_view("python agent.py", cwd=own, scratch=tmp_path / "s", interpreter=[])
    assert own in view.read_only and notes == []


def test_from_a_checkout_only_the_named_program_is_shown(tmp_path: Path) -> None:
    root = checkout(tmp_path / "clawgym")
    command = "python examples/agent.py; cat scenarios/travel.yaml && ls orchestrator"
    view, notes = agent_view(command, cwd=root, scratch=tmp_path / "s", interpreter=[])
    assert list(view.read_only) == [root / "examples" / "agent.py"]
    assert any("working directory" in n for n in notes)
    assert any("travel.yaml is not shown" in n for n in notes) and any("orchestrator is not shown" in n for n in notes)


def test_records_scenarios_and_releases_are_never_shown_whatever_their_names(tmp_path: Path) -> None:
    run = tmp_path / "earlier"
    (run / "episode-001").mkdir(parents=True)
    (run / "results.json").write_text(json.dumps({"passed": True}))
    (run / "episode-001" / "notes.txt").write_text("expected rows\n")
    renamed = tmp_path / "mine.yml"
    renamed.write_text("id: x\noracle:\n  - {tool: mail__reply}\n")
    assert folder_problem(run) and file_problem(run / "episode-001" / "notes.txt") and file_problem(renamed)
    assert file_problem(tmp_path / "v2" / "tasks.jsonl.gz") and file_problem(tmp_path / "README.txt") is None
    holder = tmp_path / "work"
    (holder / "deep" / "er").mkdir(parents=True)
    (holder / "deep" / "er" / "results.json").write_text("{}")
    view, _ = agent_view("python x.py", cwd=holder, scratch=tmp_path / "s", interpreter=[])
    assert holder not in view.read_only


def test_a_script_elsewhere_is_shown_but_not_other_files_it_names(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "agent.py").write_text("")
    (tmp_path / "secret.txt").write_text("")
    own = tmp_path / "cwd"
    own.mkdir()
    command = f"python {tmp_path}/bin/agent.py {tmp_path}/secret.txt"
    assert named_paths(command, own) == [tmp_path / "bin" / "agent.py", tmp_path / "secret.txt"]
    view, _ = agent_view(command, cwd=own, scratch=tmp_path / "s", interpreter=[])
    assert set(view.read_only) == {own, tmp_path / "bin" / "agent.py"}


def test_this_runs_places_are_never_shown(tmp_path: Path) -> None:
    own = tmp_path / "agent"
    own.mkdir()
    out = own / "out"
    out.mkdir()
    view, notes = agent_view("python a.py", cwd=own, scratch=tmp_path / "s", interpreter=[], forbidden=[out])
    assert own not in view.read_only and any(str(out) in n for n in notes)
