"""The layering the package docstrings state holds, and no import cycle exists.

Every package of `orchestrator` and `servers` says in its docstring which first-party packages it may import, on one
line that starts with `May import:` and names them in backticks (`scenario`, `verify`, `servers.registry` …; names
without `servers` are under `orchestrator`; `nothing` for none). Its own subpackages and modules are always allowed.
Imports inside functions count as much as top-level ones (they run too); imports under `if TYPE_CHECKING:` do not.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("orchestrator", "servers")


@cache
def modules() -> dict[str, Path]:
    """Every first-party module by dotted name (a package by its own name)."""
    found = {}
    for top in TOP:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append(child)
            visit(child)

    visit(tree)
    return out


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the first-party modules it imports."""
    known = modules()
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in known.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
            for target in targets:
                while target and target not in known:  # `import a.b.c` of a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return {name: frozenset(edges[name]) for name in known}


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_of(module: str) -> str:
    """The package a module belongs to at the level layering is stated: `orchestrator.X` or `servers.X`."""
    return ".".join(module.split(".")[:2])


def test_no_module_imports_itself_through_others() -> None:
    assert cycles(graph()) == []


def test_no_cycle_between_packages() -> None:
    edges: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph().items():
        for target in targets:
            if package_of(module) != package_of(target):
                edges[package_of(module)].add(package_of(target))
    assert cycles({k: frozenset(v) for k, v in edges.items()}) == []


def stated(package: str) -> set[str] | None:
    """The packages a package's docstring says it may import (None: it states nothing)."""
    path = modules()[package]
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    line = next((line for line in doc.splitlines() if line.startswith("May import:")), None)
    if line is None:
        return None
    names = re.findall(r"`([\w.]+)`", line)
    return {name if name.split(".")[0] in TOP else f"orchestrator.{name}" for name in names}


PACKAGES = sorted(name for name in modules() if name.count(".") == 1)
"""Every package and top-level module of `orchestrator` and `servers`."""


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_states_what_it_may_import(package: str) -> None:
    assert stated(package) is not None, f"{modules()[package]}: no 'May import:' line in the docstring"


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_what_it_states(package: str) -> None:
    allowed = stated(package) or set()
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph().items()
        if package_of(module) == package
        for target in targets
        if package_of(target) != package
        and not any(target == a or target.startswith(a + ".") or a.startswith(target + ".") for a in allowed)
        and target not in TOP
    )
    assert wrong == [], f"{package}: May import {sorted(allowed)}"
