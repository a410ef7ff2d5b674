"""The backend interface behaves the same in process and over HTTP with local processes."""

from __future__ import annotations

import pytest
from helpers import structured

from orchestrator.backends import make_backend
from servers.core import FaultPlan, FaultRule, SandboxSpec

SPEC = SandboxSpec(
    seed={"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]},
    clock={"start": "2026-03-02T09:00:00+01:00"},
)


@pytest.mark.parametrize("name", ["inprocess", "local"])
async def test_endpoint_lifecycle(name: str) -> None:
    async with make_backend(name) as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        await endpoint.create_sandbox("life", SPEC)
        assert await endpoint.advance_clock("life", 3600) == "2026-03-02T10:00:00+01:00"
        await endpoint.set_faults("life", FaultPlan(rules=[FaultRule(tool="get_ticket", calls=[1], message="busy")]))
        async with endpoint.connect("life") as client:
            failed = await client.call_tool("get_ticket", {"key": "OPS-1"})
            assert failed.is_error and failed.content[0].text == "busy"
            moved = structured(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_progress"}))
        assert moved["updated_at"] == "2026-03-02T10:00:00+01:00"
        journal = await endpoint.journal("life")
        assert [(j["tool"], j["is_error"]) for j in journal] == [("get_ticket", True), ("transition_ticket", False)]
        await endpoint.reset("life")
        assert (await endpoint.snapshot("life"))["tickets"][0]["status"] == "todo"
        assert await endpoint.journal("life") == []
        await endpoint.delete("life")
