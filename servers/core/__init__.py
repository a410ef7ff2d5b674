"""The core every app server shares: apps, sandboxes, clock, journal, faults, the admin plane, transports.

Nothing in here knows about a particular app. The modules, lowest first:

- `errors`, `clock`, `faults`, `schema`, `harm`, `limits`: what a tool raises to refuse a call (`ToolError`, no MCP
  SDK), the clock, fault plans, table schemas, the harm model, size limits;
- `app`: what an app is (tables, seed model, tools) and the sandbox spec;
- `images`, `journal`: a sandbox database's core tables and seeded images; its journal and change log;
- `rows`: what an app's tools use of a sandbox; `sandbox`: one sandbox (`Sandbox`, `check_seed`); `store`: all of
  an app server's (`SandboxStore`);
- `world`: world events applied to a sandbox; `probes`: what an app tells the prover;
- `calls`: a tool's body run for one call, and an app's tools as the SDK registers them;
- `mcp`: an app as an MCP server; `admin`: the admin plane (`SandboxAdmin`); `http`: the HTTP face; `cli`: the
  command line.

The names in `__all__` are re-exported lazily (PEP 562): `from servers.core import Sandbox` imports
`servers.core.sandbox` then, and importing a module that needs no MCP (`servers.core.app`, `servers.registry`)
imports no MCP SDK.

May import: `nothing` first-party beyond itself (only the version string of the servers package); no app
package, nothing of the orchestrator.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from servers.core.app import App, Persona, Problem, SandboxSpec, SeedError, SeedRow, ToolModel, Toolset
    from servers.core.clock import Clock, ClockSpec, isoformat
    from servers.core.errors import ToolError
    from servers.core.faults import FaultPlan, FaultRule
    from servers.core.mcp import build_mcp_server
    from servers.core.sandbox import Sandbox
    from servers.core.store import SandboxStore, UnknownSandbox

_SOURCES = {
    "App": "servers.core.app",
    "Clock": "servers.core.clock",
    "ClockSpec": "servers.core.clock",
    "FaultPlan": "servers.core.faults",
    "FaultRule": "servers.core.faults",
    "Persona": "servers.core.app",
    "Problem": "servers.core.app",
    "Sandbox": "servers.core.sandbox",
    "SandboxSpec": "servers.core.app",
    "SandboxStore": "servers.core.store",
    "SeedError": "servers.core.app",
    "SeedRow": "servers.core.app",
    "ToolError": "servers.core.errors",
    "ToolModel": "servers.core.app",
    "Toolset": "servers.core.app",
    "UnknownSandbox": "servers.core.store",
    "build_mcp_server": "servers.core.mcp",
    "isoformat": "servers.core.clock",
}
"""Each re-exported name and the module it lives in."""

__all__ = sorted(_SOURCES)


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its module on first use (and kept)."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
