"""The public API: what each package root lists in `__all__` exists, is documented, and means one thing.

Every package of `orchestrator` (and `servers.core` and each app package) lists in `__all__` the names users import
from it. Each name must resolve from the package (most are re-exported lazily, `orchestrator.reexport`), must not
also be the name of one of the package's modules (`from package import name` would then give one or the other by
import order), and must have its entry on a docs page: a `::: dotted.path` line of mkdocstrings naming the same
object, through the package or the module that defines it.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from functools import cache
from typing import Any

import pytest
from helpers import ROOT

import orchestrator
import servers

DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.M)


def packages() -> list[str]:
    found = [f"orchestrator.{m.name}" for m in pkgutil.iter_modules(orchestrator.__path__) if m.ispkg]
    return found + [f"servers.{m.name}" for m in pkgutil.iter_modules(servers.__path__) if m.ispkg]


def resolve(path: str) -> Any:
    """The object a dotted path names: the longest importable module, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            value = getattr(value, name)
        return value
    raise ImportError(path)


@cache
def documented() -> dict[str, list[Any]]:
    """Each documented name (the last part of a `:::` path) and the objects its directives name."""
    found: dict[str, list[Any]] = {}
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for path in DIRECTIVE.findall(page.read_text()):
            found.setdefault(path.rpartition(".")[2], []).append(resolve(path))
    return found


PUBLIC = [
    (package, name) for package in packages() for name in getattr(importlib.import_module(package), "__all__", [])
]


@pytest.mark.parametrize("package", packages())
def test_each_package_lists_what_users_import(package: str) -> None:
    names = getattr(importlib.import_module(package), "__all__", None)
    assert names, f"{package} has no __all__: list the names users import from it"
    assert len(set(names)) == len(names), f"{package}.__all__ lists a name twice"


@pytest.mark.parametrize(("package", "name"), PUBLIC, ids=[f"{p}.{n}" for p, n in PUBLIC])
def test_each_public_name_exists_and_is_documented(package: str, name: str) -> None:
    module = importlib.import_module(package)
    value = getattr(module, name)  # AttributeError: listed in __all__ but not there
    modules = {m.name for m in pkgutil.iter_modules(module.__path__)}
    assert name not in modules, f"{package}.{name} is both a public name and a module of {package}"
    assert any(value is doc for doc in documented().get(name, [])), (
        f"{package}.{name} has no `::: {package}.{name}` (or its defining module's path) on a page under docs/"
    )


def test_a_documented_path_that_names_another_object_does_not_count() -> None:
    """The check compares objects, not names: `Result` of the verifier is not `Result` of anything else."""
    from orchestrator.verify import Result

    assert any(value is Result for value in documented()["Result"])
    assert resolve("orchestrator.verify.results.Result") is Result
    assert resolve("orchestrator.verify.Result") is Result


def test_importing_a_package_root_imports_none_of_its_modules() -> None:
    """The re-exports are lazy: `import orchestrator.generate` does not import the generator's pipeline."""
    code = (
        "import sys, orchestrator.generate, orchestrator.verify, orchestrator.run\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('orchestrator.generate.', 'orchestrator.verify.',"
        " 'orchestrator.run.')))\n"
        "assert not loaded, loaded\n"
        "from orchestrator.generate import generate, pipeline\n"
        "assert generate is pipeline.generate and 'orchestrator.generate.pipeline' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_an_unknown_name_is_an_attribute_error_naming_the_package() -> None:
    import orchestrator.verify

    with pytest.raises(AttributeError, match="'orchestrator.verify' has no attribute 'Verdict'"):
        orchestrator.verify.Verdict  # noqa: B018
