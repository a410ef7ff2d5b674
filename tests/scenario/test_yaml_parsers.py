"""Scenario files are parsed by libyaml when PyYAML has it (`yamlpaths.FAST_LOADER`); what a file loads to, the line
of every value and the error a broken file gets are the same as with PyYAML's own pure-Python parser."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT

from orchestrator.scenario import yamlpaths
from orchestrator.scenario.yamlpaths import YamlFileError

FILES = sorted((ROOT / "scenarios").rglob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))[:10]


def _pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlpaths, "FAST_LOADER", None)


@pytest.mark.skipif(yamlpaths.FAST_LOADER is None, reason="PyYAML without libyaml")
def test_every_scenario_file_loads_the_same_with_either_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    assert FILES
    fast = [yamlpaths.load(path) for path in FILES]
    _pure(monkeypatch)
    assert fast == [yamlpaths.load(path) for path in FILES]


BROKEN = {
    "unclosed.yaml": "id: x\ninstruction: [a, b\n",
    "tab.yaml": "id: x\n\tinstruction: y\n",
    "control.yaml": "id: x\ninstruction: a\x07b\n",
    "duplicate-anchor.yaml": "a: &x 1\nb: *y\n",
    "deep.yaml": "a: " + "[" * 150 + "]" * 150 + "\n",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_file_gets_the_pure_parsers_error(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / name
    path.write_text(BROKEN[name])
    with pytest.raises(YamlFileError) as fast:
        yamlpaths.load(path)
    _pure(monkeypatch)
    with pytest.raises(YamlFileError) as pure:
        yamlpaths.load(path)
    assert str(fast.value) == str(pure.value)
