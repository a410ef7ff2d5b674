"""`load_data`: scenario data held in memory validates as its file would, without a file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from orchestrator import scenario as scenarios
from tests.helpers import SCENARIOS


@pytest.mark.parametrize("name", ["ask-the-user.yaml", "approval-wait.yaml", "flaky-ticketing.yaml"])
def test_data_in_memory_loads_to_the_same_scenario_as_its_file(name: str, tmp_path: Path) -> None:
    from_file = scenarios.load(SCENARIOS / name)
    data = yaml.safe_load((SCENARIOS / name).read_text(encoding="utf-8"))
    from_data = scenarios.load_data(data, name)
    assert from_data.model_dump() == from_file.model_dump() and from_data.path is None


def test_bad_data_names_the_field_and_the_data() -> None:
    data = yaml.safe_load((SCENARIOS / "ask-the-user.yaml").read_text(encoding="utf-8"))
    data["stages"][0]["checks"][0]["table"] = "no_such_table"
    with pytest.raises(scenarios.ScenarioError) as caught:
        scenarios.load_data(data, "task-7")
    assert "task-7" in str(caught.value) and "stages" in str(caught.value)
    with pytest.raises(scenarios.ScenarioError, match="must be a mapping"):
        scenarios.load_data([], "task-8")  # type: ignore[arg-type]  # a wrong type on purpose: the loader must refuse it
