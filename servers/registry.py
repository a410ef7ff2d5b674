"""The apps ClawGym knows, by name.

The orchestrator learns about apps only from here. Built-in apps are listed
below; a separately installed package can add one through the
`clawgym.apps` entry-point group (`name = "package.module:APP"`). An app's
`probes` module, next to it, tells `orchestrator validate` how to attack and
rewrite reference solutions that use it.

May import: `servers.core` (the app packages are loaded by name, never imported here).
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points

from servers.core.app import App
from servers.core.probes import AppProbes

BUILTIN = {
    "calendar": "servers.calendar:APP",
    "mail": "servers.mail:APP",
    "docs": "servers.docs:APP",
    "tickets": "servers.tickets:APP",
}


@cache
def available() -> dict[str, str]:
    """App name → `module:attribute` of its `App` (the installed entry points, read once per process)."""
    found = dict(BUILTIN)
    for entry in entry_points(group="clawgym.apps"):
        found.setdefault(entry.name, entry.value)
    return found


@cache
def load(name: str) -> App:
    """The `App` named `name` (built in or from a `clawgym.apps` entry point), imported once; KeyError when unknown."""
    targets = available()
    if name not in targets:
        raise KeyError(f"unknown app {name!r}; known apps: {', '.join(sorted(targets))}")
    module, _, attribute = targets[name].partition(":")
    app = getattr(importlib.import_module(module), attribute or "APP")
    if not isinstance(app, App):
        raise TypeError(f"{targets[name]} is not a servers.core.App")
    return app


@cache
def probes(name: str) -> AppProbes | None:
    """App `name`'s part in proving scenarios (`PROBES` in the `probes` module next to its `App`), or None."""
    package = available()[name].partition(":")[0]
    try:
        module = importlib.import_module(f"{package}.probes")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.probes":
            raise
        return None
    found = getattr(module, "PROBES", None)
    if not isinstance(found, AppProbes):
        raise TypeError(f"{package}.probes.PROBES is not a servers.core.probes.AppProbes")
    return found


def server_module(name: str) -> str:
    """The module to run with `python -m` to serve app `name`."""
    return available()[name].partition(":")[0]
