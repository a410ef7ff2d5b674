"""Scenarios: the file format, its loader, and the language of conditions checks are written in.

- `model`: the pydantic model of a scenario and `load`, which reports every problem with file, line and path
  (`load_data`: the same for scenario data held in memory).
- `checks`: what a scenario judges and allows (stages of row, journal and judge checks; forbid, allow, relax).
- `worldspec`: the `world:` section as models (events, clock steps, waits, people, the user) and its load checks;
  `orchestrator.world` runs it.
- `relative_dates`: relative dates such as `{{ next tuesday 10:00 }}`, expanded when a file is loaded.
- `yamlpaths`: YAML with the line of every value, for error messages.
- `conditions`: the operators of `where` mappings, checked at load time and evaluated on rows.
- `text`: the text operators (`mentions_time`, `leaks` …) that read what a text says.

May import: `servers.core`, `servers.registry`; nothing else of the orchestrator, which all imports it.
"""

from orchestrator.scenario.checks import Check, Expect, Forbid, JournalCheck, JournalRule, RowCheck, Stage
from orchestrator.scenario.model import (
    GATEWAY_SEPARATOR,
    SAVED_REF,
    Limits,
    OracleStep,
    Scenario,
    ScenarioError,
    ScenarioProblem,
    app_of,
    discover,
    load,
    load_data,
)

__all__ = [
    "GATEWAY_SEPARATOR",
    "SAVED_REF",
    "Check",
    "Expect",
    "Forbid",
    "JournalCheck",
    "JournalRule",
    "Limits",
    "OracleStep",
    "RowCheck",
    "Scenario",
    "ScenarioError",
    "ScenarioProblem",
    "Stage",
    "app_of",
    "discover",
    "load",
    "load_data",
]
