"""Every public class and function of orchestrator/ and servers/ says what it is, and so does every public method of
the main entry points; a tool model's docstring stays out of the schemas agents read."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import ROOT

PACKAGES = ("orchestrator", "servers")
ENTRY_POINTS = {
    "orchestrator/episode/gateway.py": ("Gateway", "Trace"),
    "orchestrator/episode/episode.py": ("Episode",),
    "orchestrator/verify/results.py": ("Result",),
    "orchestrator/agents/base.py": ("Agent",),
    "servers/core/mcp.py": ("SandboxMiddleware",),
    "servers/core/app.py": ("Problem", "SeedError", "Toolset"),
}
"""Files and the classes in them whose public methods must say what they do."""

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def public(nodes: list[ast.stmt]) -> list[Definition]:
    return [n for n in nodes if isinstance(n, Definition) and not n.name.startswith("_")]


def test_every_public_top_level_class_and_function_has_a_docstring() -> None:
    undocumented = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in sources()
        for node in public(ast.parse(path.read_text()).body)
        if not ast.get_docstring(node)
    ]
    assert not undocumented, "say what each of these is (a one-line docstring):\n" + "\n".join(undocumented)


def test_every_public_method_of_the_main_entry_points_has_a_docstring() -> None:
    undocumented = []
    for file, names in ENTRY_POINTS.items():
        classes = {n.name: n for n in ast.parse((ROOT / file).read_text()).body if isinstance(n, ast.ClassDef)}
        assert set(names) <= set(classes), f"{file} no longer defines {set(names) - set(classes)}"
        for name in names:
            undocumented += [
                f"{file}:{m.lineno} {name}.{m.name}" for m in public(classes[name].body) if not ast.get_docstring(m)
            ]
    assert not undocumented, "say what each of these does:\n" + "\n".join(undocumented)


def test_a_tool_models_docstring_stays_out_of_its_json_schema() -> None:
    from servers import registry
    from servers.core import ToolModel

    for app in registry.BUILTIN:
        registry.load(app)  # defines the app's tool models
    models, todo = [], [ToolModel]
    while todo:
        models += (found := todo.pop().__subclasses__())
        todo += found
    assert len(models) > 30
    for model in models:
        assert model.__doc__ and "description" not in model.model_json_schema(), model.__qualname__
