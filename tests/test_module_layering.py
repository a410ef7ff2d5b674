"""The `May import` lines of single modules hold, as tests/test_layering.py holds the packages' lines.

A module of `orchestrator` or `servers` (not a package's `__init__`) may say in its docstring what it may import, in a
paragraph that starts with `May import` (a colon is optional). What it may import is read from that paragraph, up
to a `never` or a `nothing imports it` (which say what it must not use, or who uses it):

- dotted names in backticks, or bare ones starting with `orchestrator.` or `servers.`: `orchestrator.scenario`,
  `servers.core.app`; a name without its top package is looked up under `orchestrator`, then beside the module
  (`errors` in `servers/core/sandbox.py` is `servers.core.errors`); other names are third-party (`ray`);
- "the env's own modules", "the rest of `servers.core`", "`orchestrator.generate` modules": the package named, or
  the module's own, whole;
- "nothing": no first-party module.

Every first-party module the module imports, at its top or inside a function (imports under `if TYPE_CHECKING:` do
not count), must be one of those, inside one, or a package holding one.
"""

from __future__ import annotations

import ast
import re

import pytest
from test_layering import TOP, graph, modules

PARAGRAPH = re.compile(r"^May import\b(.*?)(?:\n\s*\n|\Z)", re.S | re.M)
END = re.compile(r"\bnever\b|\bnothing (?:in \w+ )?imports it\b")


def parent(module: str) -> str:
    return module.rpartition(".")[0]


def stated(module: str) -> set[str] | None:
    """What the module's docstring says it may import (None: it says nothing)."""
    doc = ast.get_docstring(ast.parse(modules()[module].read_text())) or ""
    found = PARAGRAPH.search(doc)
    if found is None:
        return None
    text = END.split(" ".join(found.group(1).split()))[0]
    if re.match(r"\W*nothing\b", text):
        return set()
    allowed: set[str] = set()
    if re.search(r"\bown modules\b", text):
        allowed.add(parent(module))
    names = re.findall(r"`([\w.]+)`", text) + re.findall(r"(?<![`\w.])((?:orchestrator|servers)\.[\w.]*\w)", text)
    for name in names:
        if name.split(".")[0] in TOP:
            allowed.add(name)
        elif f"orchestrator.{name}" in modules():
            allowed.add(f"orchestrator.{name}")
        elif f"{parent(module)}.{name}" in modules():
            allowed.add(f"{parent(module)}.{name}")
        # else: a third-party package (`ray`, `openenv`), which this test does not judge
    return allowed


def covered(target: str, allowed: set[str]) -> bool:
    return any(target == a or target.startswith(a + ".") or a.startswith(target + ".") for a in allowed)


MODULES = sorted(name for name, path in modules().items() if path.name != "__init__.py" and stated(name) is not None)


def test_the_lines_are_read() -> None:
    assert len(MODULES) >= 40, MODULES
    assert stated("orchestrator.env.vector") == {
        "orchestrator.env",
        "orchestrator.backends",
        "orchestrator.scenario",
        "orchestrator.verify",
    }
    assert stated("orchestrator.record_json") == set()  # "nothing of the project (the standard library only)"
    assert stated("orchestrator.verify.judge") == {
        "orchestrator.scenario",
        "orchestrator.verify.results",
        "orchestrator.verify.tables",
    }  # not "never backends, episodes or agents"
    assert "servers.core.clock" in stated("servers.core.sandbox")  # a bare name beside the module
    assert "orchestrator.env" in stated("orchestrator.env.sync")  # "the env's own modules"
    assert "orchestrator.run.runner" in stated("orchestrator.cluster.episodes")  # Ray's episodes build on the runner


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_only_what_its_docstring_states(module: str) -> None:
    allowed = stated(module) or set()
    wrong = sorted(t for t in graph()[module] if t not in TOP and not covered(t, allowed))
    assert wrong == [], f"{modules()[module]} imports {wrong}; its docstring says: May import {sorted(allowed)}"


RAY_HOMES = {"orchestrator.cluster", "orchestrator.backends.ray"}
"""Where `ray` may be imported: the package of ClawGym on Ray, and the ray backend (the connection it re-exports)."""


def test_ray_is_imported_only_in_the_cluster_package() -> None:
    importers = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "ray" for a in node.names):
                importers.add(name)
            elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "ray":
                importers.add(name)
    assert importers, "no module imports ray: this test reads imports wrongly"
    outside = sorted(m for m in importers if not any(m == h or m.startswith(h + ".") for h in RAY_HOMES))
    assert outside == [], f"{outside} import ray outside {sorted(RAY_HOMES)}: Ray code goes in orchestrator/cluster/"
