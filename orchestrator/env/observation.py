"""What an env shows the agent at `reset`: the `Observation` (the task, the persona, the time, a system prompt and the
gateway's tools in MCP, OpenAI and Anthropic formats, `submit` last).

Its `title` is the gateway's name for the task (`AGENT_TITLE`, "Your task"), never the scenario's own title: a title
is written for the scenario's readers and can tell what is coming ("... after Sam declines"), which the gateway
hides from MCP agents, so an env's agent gets no more. Nor does it get the scenario's id, task id, family or seed: they
are the trainer's, in the env's `state` (an id names a generated task's family and seed, from which its reference
solution can be rebuilt). `info["episode_id"]` is the caller's, or a fresh id that maps to nothing.

The system prompt is the model loop's preamble (who the agent works for, the time, to do the task with the tools;
`orchestrator.agents.models.loop.prompt_preamble`) with the env's own ending: call `submit` when done.

May import `orchestrator.agents.models` (tool formats, the prompt preamble), `orchestrator.episode.gateway` (the task
text), `orchestrator.scenario` and `orchestrator.env.actions` / `orchestrator.env.schema`.
"""

from __future__ import annotations

import json
import threading
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.agents.models.convert import anthropic_tools, openai_tools
from orchestrator.agents.models.loop import prompt_preamble
from orchestrator.env.actions import SUBMIT, SUBMIT_TOOL
from orchestrator.env.schema import Observation
from orchestrator.episode.gateway import AGENT_TITLE, task_text
from orchestrator.scenario.model import Scenario


def system_prompt(scenario: Scenario) -> str:
    """The env's system prompt: the persona, its time zone and the date, to do the task with the tools, and to end the
    episode with `submit` (the model loop's prompt ends with a summary instead)."""
    return prompt_preamble(scenario) + f" When you are done, call `{SUBMIT}` with a short summary of what you did."


def make_observation(scenario: Scenario, tools: list[dict[str, Any]], info: dict[str, Any]) -> Observation:
    """The observation of an episode of `scenario` whose gateway lists `tools` (MCP tools/list entries); `info` as
    given (the env's episode id, seed, limits, baseline score …)."""
    everything = [*tools, json.loads(json.dumps(SUBMIT_TOOL))]
    openai, anthropic = _formats(everything)
    return Observation(
        title=AGENT_TITLE,
        task=task_text(scenario),
        persona=scenario.persona.model_dump(mode="json"),
        now=scenario.clock.start.astimezone(ZoneInfo(scenario.persona.timezone)).isoformat(),
        system_prompt=system_prompt(scenario),
        tools=everything,
        openai_tools=openai,
        anthropic_tools=anthropic,
        info=info,
    )


_FORMATS: dict[str, tuple[str, str]] = {}
_FORMATS_LOCK = threading.Lock()


def _formats(tools: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The tools in OpenAI and Anthropic formats, converted once per distinct tool list (fresh copies handed out)."""
    key = json.dumps(tools, sort_keys=True)
    cached = _FORMATS.get(key)
    if cached is None:  # envs on several loop threads share the cache: no step here may assume another's
        cached = (json.dumps(openai_tools(tools)), json.dumps(anthropic_tools(tools)))
        with _FORMATS_LOCK:
            while len(_FORMATS) >= 64:
                _FORMATS.pop(next(iter(_FORMATS)))
            _FORMATS[key] = cached
    return json.loads(cached[0]), json.loads(cached[1])
