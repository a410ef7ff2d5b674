"""Scenarios: the file format, its loader, and the language of conditions checks are written in.

- `model`: the pydantic models of a scenario and `load`, which reports every problem with file, line and path.
- `templates`: relative dates such as `{{ next tuesday 10:00 }}`.
- `yamlpaths`: YAML with the line of every value, for error messages.
- `conditions`: the operators of `where` mappings, checked at load time and evaluated on rows.

Imports nothing else of the orchestrator; everything else imports it.
"""

from orchestrator.scenario.model import (
    GATEWAY_SEPARATOR,
    SAVED_REF,
    Check,
    Expect,
    Forbid,
    JournalCheck,
    JournalRule,
    Limits,
    OracleStep,
    RowCheck,
    Scenario,
    ScenarioError,
    ScenarioProblem,
    Stage,
    app_of,
    discover,
    load,
)

__all__ = [
    "GATEWAY_SEPARATOR", "SAVED_REF", "Check", "Expect", "Forbid", "JournalCheck", "JournalRule", "Limits",
    "OracleStep", "RowCheck", "Scenario", "ScenarioError", "ScenarioProblem", "Stage", "app_of", "discover", "load",
]  # fmt: skip
