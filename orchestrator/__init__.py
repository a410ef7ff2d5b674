"""ClawGym's orchestrator: scenarios, episodes, the verifier, agents, runs, the environment API and the tools
around them (docs/development/layout.md maps the packages).

A package's root re-exports what users import from it, listed in its `__all__` and documented in the reference
(docs/development/layout.md#the-public-api); everything else is reached through its module. Re-exports are lazy (PEP 562,
`reexport`): importing a package imports none of its modules until one of its names is used.

May import: nothing.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def reexport(package: str, sources: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's `__getattr__` and `__dir__` for the names in `sources` (name -> the module that defines it).

    Each name is imported from its module on first use and kept in the package; any other name is an
    AttributeError (so `from package import submodule` still imports the submodule)."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *sources})

    return __getattr__, __dir__
