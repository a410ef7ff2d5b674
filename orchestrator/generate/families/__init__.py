"""The built-in task families, one module each; every module registers its family with `@register`.

`load_all()` imports every module of this package, so a new family needs no list to be edited.
Modules here import `orchestrator.generate.family`, `orchestrator.generate.build` and the apps' pure models (`servers.<app>.model`).
"""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> None:
    """Import every built-in family module, so each registers itself."""
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{module}")
