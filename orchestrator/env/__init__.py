"""The environment API for reinforcement learning: a scenario as `reset` / `step` / `close`.

    from orchestrator.env import ClawGymEnv

    async with ClawGymEnv() as env:                          # in process by default; any Backend or backend name
        obs = await env.reset("scenarios/travel.yaml", seed=0, step_rewards=True)
        out = await env.step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}})
        ...
        out = await env.step({"name": "submit", "arguments": {"message": "done"}})   # or: await env.finish("done")
        out.reward, out.terminated, env.result.score         # the last step's info has the whole verdict

Interface (names are stable; docs/rewards.md is the reward contract):

- `ClawGymEnv(backend="inprocess", *, step_rewards=False, max_result_chars=20_000, max_steps=None, judge=None)`;
  `async with` it, or call `close()` yourself. `backend` is a `Backend` (the caller closes it) or a name; `judge`
  an `orchestrator.verify.judge.Judge` for the scenario's `judge` checks (None: they are unjudged).
- `await env.reset(scenario, seed=0, *, step_rewards=None, episode_id=None, noise="none") -> Observation`:
  `scenario` is a path, a loaded `Scenario`, YAML text or a released task's id
  (`"ambiguous-v2-1-00003"`, drawn again from its release's row); `noise` a profile of `orchestrator run --noise`.
  Ends the previous episode.
- `await env.step(action) -> StepResult`: `action` is a `ToolCall(name, arguments, id=None)`, a dict
  `{"name": "app__tool", "arguments": {...}}`, an OpenAI tool call or an Anthropic `tool_use` block (dicts or
  SDK objects; see `parse_action`). The action named `SUBMIT` (`"submit"`) ends the episode (`terminated`).
  The step whose call reaches the scenario's `limits.max_tool_calls` (or the env's `max_steps`) ends it too
  (`truncated`). A step after the end raises `EnvError`.
- `await env.finish(message="") -> StepResult`: the same as stepping `submit`.
- `await env.close()`: deletes the episode's sandboxes, closes a backend the env started. Idempotent.
- `await env.snapshot()`: the apps' current state (app → table → rows); `await env.trace()`: gateway trace and
  journals; `env.state -> EnvState` (scenario, seed, episode_id, steps, tool_calls, max_tool_calls, step_rewards,
  total_reward, done, terminated, truncated, score, passed, process); `env.result -> Result | None` (the verdict);
  `env.observation -> Observation | None` (what the last reset returned); `env.scenario -> Scenario | None`
  (the episode's scenario as run, noise applied).
- `Observation`: scenario, title, task, persona, now, system_prompt, tools (MCP tools/list entries), openai_tools,
  anthropic_tools (each list ends with the `submit` tool), info (episode_id, seed, apps, step_rewards,
  max_tool_calls, max_steps, pass_mark, baseline_score, end_action, noise). Checks and reference solutions never
  appear in an observation or a step's result (a step's info names checks by id, e.g. `stages[1].checks[0]`).
- `StepResult`: text, content, structured_content, is_error, reward, terminated, truncated, info (and `.done`).
  info holds step, tool, call_id, changed, world_changed, fault, failed, recovered, process; with step rewards credited,
  withdrawn, harm, harm_cleared, score_so_far; at the end score, passed, process_score, violations, result.
- `SyncClawGymEnv(backend="inprocess", **options)`: the same methods, blocking (an event loop in its own thread).
- `EnvError`: the env used out of order or given a scenario it cannot run.
- `fresh(split="test", count=10, seed=None, families=None) -> FreshDraw`: tasks drawn now from a held-out split of the
  generator, each proven, under a secret seed (`.scenarios`, `.seed`: the same seed draws the same tasks).

- `orchestrator.env.vector.VectorEnv(num_envs, *, workers=None, **options)`: a batch of envs stepped together,
  spread over worker processes (one per core by default): `reset(scenarios, seeds)`, `step(actions)` (None: that
  env does not step), `finish(messages)`, `states()`, `results()`, `snapshots()`, `traces()`, `close()`, one entry
  per env in env order; an env's `EnvError` names the env, a dead worker is an `EnvError` that closes it.
- `orchestrator.cluster.RayEnv(cluster, **options)`: the same methods, each one call to a Ray actor hosting a
  `ClawGymEnv` on a worker of the cluster (`orchestrator.cluster.RayBackend`).

Episodes run through `orchestrator.episode.Episode` and its gateway, the path every agent takes (trace, tool-call
limit, faults, the living world), and end in `Episode.finish`, as `orchestrator run` ends them. Nothing imports
this package but its adapters (`openenv.py`, `verifiers_env.py`), `orchestrator.cluster` (on Ray) and the CLI.

May import: `episode`, `backends`, `scenario`, `verify`, `world`, `guard`, `run.fresh` (fresh draws), `integrations.releases` (released tasks by id) and `agents.models` (noise profiles; the
local servers' token, Host and Origin checks; tool formats and the model loop's prompt preamble).
"""

from orchestrator.env.actions import SUBMIT, SUBMIT_TOOL, ToolCall, parse_action
from orchestrator.env.core import ClawGymEnv
from orchestrator.env.errors import EnvError
from orchestrator.env.scenarios import FreshDraw, fresh, load_scenario
from orchestrator.env.schema import EnvState, Observation, StepResult
from orchestrator.env.sync import SyncClawGymEnv

__all__ = [
    "SUBMIT",
    "SUBMIT_TOOL",
    "ClawGymEnv",
    "EnvError",
    "EnvState",
    "FreshDraw",
    "Observation",
    "StepResult",
    "SyncClawGymEnv",
    "ToolCall",
    "fresh",
    "load_scenario",
    "parse_action",
]
