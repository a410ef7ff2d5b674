"""What an env gives back: the `Observation` of `reset`, the `StepResult` of `step` and the `EnvState` of `state`.

May import nothing of the orchestrator.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Observation(BaseModel):
    """What `reset` returns: the task, who the agent works for, and the tools in three formats."""

    title: str
    task: str = Field(description="The instruction, as the gateway's `task` prompt gives it.")
    persona: dict[str, Any] = Field(description="name, email, timezone, domains of the person the agent works for.")
    now: str = Field(description="The sandbox clock's start, ISO 8601 in the persona's time zone.")
    system_prompt: str = Field(
        description="A system prompt with the persona, the time zone and the date; it says to end with `submit`."
    )
    tools: list[dict[str, Any]] = Field(
        description="MCP tools/list entries (name, description, inputSchema …), then `submit`."
    )
    openai_tools: list[dict[str, Any]] = Field(
        description="The same tools for OpenAI Chat Completions (strict function schemas)."
    )
    anthropic_tools: list[dict[str, Any]] = Field(description="The same tools for the Anthropic Messages API.")
    info: dict[str, Any] = Field(default_factory=dict)


class StepResult(BaseModel):
    """What `step` returns: the tool's result, the reward of this step, whether the episode ended, and info."""

    text: str = Field(
        description="The result as a model reads it: structured content as JSON, else the text parts (cut to a limit)."
    )
    content: list[dict[str, Any]] = Field(default_factory=list, description="The MCP content blocks of the result.")
    structured_content: dict[str, Any] | None = None
    is_error: bool = False
    reward: float | None = Field(
        0.0, description="None on the last step of an undecided episode (a judge check no judge answered decides it)."
    )
    terminated: bool = Field(False, description="The episode ended by `submit` (or `finish`).")
    truncated: bool = Field(
        False, description="The episode was cut: the scenario's tool-call limit (or the env's max_steps) was reached."
    )
    info: dict[str, Any] = Field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class EnvState(BaseModel):
    """Where the environment stands (cheap; no call to the apps)."""

    scenario: str | None = None
    seed: int | None = None
    episode_id: str | None = None
    steps: int = 0
    tool_calls: int = Field(0, description="Tool calls the gateway counted (the ones the scenario's limit counts).")
    max_tool_calls: int | None = None
    step_rewards: bool = False
    total_reward: float = 0.0
    done: bool = False
    terminated: bool = False
    truncated: bool = False
    score: float | None = Field(None, description="The verifier's score, once the episode has ended.")
    passed: bool | None = None
    process: dict[str, int] = Field(default_factory=dict, description="The running process counts of docs/rewards.md.")
