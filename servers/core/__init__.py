"""The core every app server shares: sandboxes, clock, journal, faults, transports.

Nothing in here knows about a particular app.
"""

from mcp.server.mcpserver.exceptions import ToolError

from servers.core.app import App, Persona, Problem, SandboxSpec, SeedError, SeedRow, Toolset
from servers.core.clock import Clock, ClockSpec, isoformat
from servers.core.faults import FaultPlan, FaultRule
from servers.core.mcp import build_mcp_server
from servers.core.sandbox import Sandbox
from servers.core.store import SandboxStore, UnknownSandbox

__all__ = [
    "App",
    "Clock",
    "ClockSpec",
    "FaultPlan",
    "FaultRule",
    "Persona",
    "Problem",
    "Sandbox",
    "SandboxSpec",
    "SandboxStore",
    "SeedError",
    "SeedRow",
    "ToolError",
    "Toolset",
    "UnknownSandbox",
    "build_mcp_server",
    "isoformat",
]
