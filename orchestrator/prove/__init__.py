"""Proving scenarios sound (`orchestrator validate`): the reference solutions pass, doing nothing fails,
weakened solutions and generic attacks fail, and equivalent rewrites pass.

- `validate`: runs the reference solutions, the noop agent, mutations, attacks and equivalents on fresh sandboxes;
- `derive`: builds the attacks and equivalent rewrites from the reference solution, with each app's probes
  (`servers/<app>/probes.py`, found through `servers.registry.probes`);
- `variation`, `wordings`, `distortions`: proof by variation, derived from any reference solution: its mail
  delivered another way, benign extras and twenty-odd wordings of each stated fact (must pass); hedged,
  unperformed, stuffed, wrongly zoned, stale and paraphrased-secret versions (must fail);
- `script`: the agent that plays a derived trajectory and notes which of its calls failed;
- `prose`: the pattern checks on prose `validate` refuses, with the operator to use instead;
- `report`: the table and JSON `validate` prints;
- `schema_cache`: remembers which tool output schemas passed the meta-schema check, so many short episodes stay fast.

May import: `scenario`, `verify`, `backends`, `episode`, `agents`, `servers.registry` and `servers.core.probes`
(everything below the CLI).
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.prove.validate import Validation, run_once

__all__ = [
    "Validation",
    "run_once",
]

_SOURCES = {
    "Validation": "orchestrator.prove.validate",
    "run_once": "orchestrator.prove.validate",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
