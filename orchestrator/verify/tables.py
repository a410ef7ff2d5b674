"""What the verifier knows of an app's tables apart from any verdict: each table's key, and which rows are thrown away.

Both the verdict (`verify.verdict`) and the LLM judge (`verify.judge`, which selects the texts it asks about) read
rows through these, so they live below both.

May import `orchestrator.scenario`, `orchestrator.verify.facts` and `servers.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from orchestrator.scenario.model import Scenario
from orchestrator.verify.facts import harm_model
from servers import registry


def table_keys(scenario: Scenario) -> dict[tuple[str, str], str]:
    """(app, table) -> the name of the table's key column, for every table of the scenario's apps."""
    return {(app, table.name): table.key for app in scenario.apps for table in registry.load(app).tables.values()}


def discarded(app: str, table: str, row: Mapping[str, Any]) -> bool:
    """Whether a row is thrown away (trashed, in the bin): the app's harm model decides."""
    model = harm_model(app)
    decide: Callable[[str, Mapping[str, Any]], bool] | None = getattr(model, "discarded", None)
    if decide is not None:
        return bool(decide(table, row))
    return row.get("trashed") is True or row.get("folder") in ("trash", "spam")
