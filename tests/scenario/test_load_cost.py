"""Loading a large scenario costs one pass over the parser's events: a file without aliases is built with its lines
as the events come, with no node graph, no expansion check and no call to the YAML constructor for plain strings,
mappings and lists; the data and the lines are the same as the loader's own constructor and a walk of the node graph
give, for every kind of document, and the bounds and errors are the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from orchestrator.scenario import yamlpaths
from orchestrator.scenario.yamlpaths import YamlFileError


def reference(path: Path) -> tuple[Any, dict[Any, int]]:
    """What the loader's safe constructor makes of the file, and the lines of the node graph's walk."""
    text = path.read_text()
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: dict[Any, int] = {}
    if node is not None:
        yamlpaths._walk(node, (), lines)
    return data, lines


DOCUMENTS = {
    "seeds": "id: t\napps: [mail, crm]\nseed:\n  crm:\n    accounts:\n"
    + "".join(
        f"      - {{id: a{i}, name: 'Account {i}', size: {i}, vip: {str(i % 2 == 0).lower()}}}\n" for i in range(50)
    ),
    "aliases": "a: &x {b: 1, c: [1, 2]}\nd: *x\ne:\n  <<: *x\n  f: 2\n",
    "tags": "a:\n  b: 1\n  b: 2\n1: x\n2020-01-01: y\nnull: z\ns: !!set {a, b}\nt: 2020-01-01T10:00:00Z\n"
    "f: 1.5\nbo: yes\nlst: [[1, 2], {x: ~}]\nm: !!map {q: 1}\nstr: !!str 12\nbin: !!binary aGVsbG8=\n"
    "om: !!omap [a: 1]\nmerged:\n  <<: {p: 1}\n  q: 2\n",
    "sequence": "- 1\n- [a, {b: c}]\n- 'quoted'\n- |\n  block\n  text\n",
    "scalar": "plain",
    "keys": "? [1]\n: list key\n",
    "anchored": "a: &x 1\nb: &y [1, {c: d}]\n",
    "odd keys": "'': empty\n~: null key\n1.5: float key\n=: value key\n<<: {m: 1}\n",
    "explicit": "--- !!map\na: !!seq [!!int '3', ! 4, !!str 5]\n...\n",
    "empty": "",
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_data_and_lines_are_the_constructors_and_the_walks(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(DOCUMENTS[name])
    try:
        want_data, want_lines = reference(path)
    except yaml.YAMLError as exc:
        with pytest.raises(YamlFileError, match=str(exc.problem)):
            yamlpaths.load(path)
        return
    data, lines = yamlpaths.load(path)
    assert data == want_data and repr(data) == repr(want_data)  # same types, same order
    assert list(lines.items()) == list(want_lines.items())


def test_a_large_file_without_aliases_costs_one_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = 3000
    path = tmp_path / "large.yaml"
    path.write_text(
        "seed:\n  crm:\n    accounts:\n"
        + "".join(f"      - {{id: a{i}, name: 'Account {i}', tags: [x, y], size: {i}}}\n" for i in range(rows))
    )
    constructed: list[Any] = []
    original = yaml.constructor.BaseConstructor.construct_object

    def counted(self: Any, node: yaml.Node, deep: bool = False) -> Any:
        constructed.append(node)
        return original(self, node, deep)

    def refuse(*args: Any) -> None:
        raise AssertionError("a document without aliases was checked for its expansion")

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_object", counted)

    def no_graph(*args: Any) -> None:
        raise AssertionError("a node graph was composed")

    monkeypatch.setattr(yamlpaths, "_check_expansion", refuse)
    monkeypatch.setattr(yamlpaths.FAST_LOADER or yaml.SafeLoader, "get_single_node", no_graph)
    data, lines = yamlpaths.load(path)
    assert len(data["seed"]["crm"]["accounts"]) == rows and data["seed"]["crm"]["accounts"][7]["size"] == 7
    assert lines[("seed", "crm", "accounts", 7, "name")] == 11
    assert len(constructed) == rows  # the integers alone: strings, mappings and lists are built in the walk


def test_aliases_are_still_checked_for_their_expanded_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlpaths, "MAX_NODES", 1000)
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    )
    with pytest.raises(YamlFileError, match="aliases"):
        yamlpaths.load(bomb)
    many = tmp_path / "many.yaml"
    many.write_text("[" + ", ".join("x" for _ in range(1200)) + "]\n")  # no alias, but more values than allowed
    with pytest.raises(YamlFileError, match="more than 1,000 values"):
        yamlpaths.load(many)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: " + "[" * 101 + "]" * 101 + "\n", "nested more than 100 levels deep"),
        ("--- a\n--- b\n", "found another document"),
        ("a: !unknown 1\n", "could not determine a constructor"),
        ("a: [1, 2\n", "not valid YAML"),
    ],
)
def test_the_bounds_and_errors_are_the_same(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    with pytest.raises(YamlFileError, match=message):
        yamlpaths.load(path)
