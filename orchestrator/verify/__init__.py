"""The verifier: a pure function from (scenario, seeded state, final state, journal) to a `Result`.

- `verdict`: stages of checks, collateral damage, forbidden changes, limits, the score.
- `results`: the `Result` model written to `results.json`.
- `harm`, `extras`: harm rules, collateral damage, and the benign extras (additive, internal communication about the task).
- `world_changes`: the world's changes and the gateway's own tools in a verdict (a baseline of seeded state plus world changes).
- `process_checks`: the process checks (journal checks on how the agent worked), scored apart from the outcome.

May import: `scenario`, `servers.registry` and `servers.core.harm` (addresses inside the organization); never backends,
episodes or agents.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.verify.results import Change, CheckResult, Housekeeping, Result, StageResult, Violation
    from orchestrator.verify.verdict import verify

__all__ = [
    "Change",
    "CheckResult",
    "Housekeeping",
    "Result",
    "StageResult",
    "Violation",
    "verify",
]

_SOURCES = {
    "Change": "orchestrator.verify.results",
    "CheckResult": "orchestrator.verify.results",
    "Housekeeping": "orchestrator.verify.results",
    "Result": "orchestrator.verify.results",
    "StageResult": "orchestrator.verify.results",
    "Violation": "orchestrator.verify.results",
    "verify": "orchestrator.verify.verdict",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
