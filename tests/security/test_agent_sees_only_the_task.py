"""The agent learns the task from the instruction alone: the gateway shows no scenario id or title.

A title is written for the scenario's readers ("Send the venue address once, although the mail server lost
the reply") and an id names the trap ("lost-reply-mail"); either would tell the agent what the world has in
store for it.
"""

from __future__ import annotations

import json

from helpers import ROOT

from orchestrator import scenario as scenarios
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode


async def test_the_gateway_shows_the_instruction_but_not_the_scenario_id_or_title() -> None:
    scenario = scenarios.load(ROOT / "scenarios" / "lost-reply-mail.yaml")
    async with InProcessBackend() as backend:
        async with Episode(scenario, await backend.start(scenario.apps)) as episode, episode.connect() as client:
            seen = [client.server_info.model_dump(mode="json"), client.server_capabilities.model_dump(mode="json")]
            seen.append(getattr(client, "instructions", None))
            for listing in (await client.list_prompts(), await client.list_resources(), await client.list_tools()):
                seen.append(listing.model_dump(mode="json"))
            seen.append((await client.get_prompt("task")).model_dump(mode="json"))
            seen.append((await client.read_resource("clawgym://task")).model_dump(mode="json"))
    shown = json.dumps(seen)
    assert scenario.instruction.strip() in shown
    assert scenario.title not in shown
    assert scenario.id not in shown, shown[max(0, shown.find(scenario.id) - 300) :][:400]
