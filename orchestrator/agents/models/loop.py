"""The model agent's loop: ask the model, run the tools it calls through the gateway, give back the results.

One episode: connect to the gateway as an MCP client (in process), list its tools, convert them to the API's
format, then turn after turn: one API request (retried on 408/409/429/529/5xx, timeouts and lost connections,
honouring Retry-After, with backoff) → the tool calls it asks for, each run through the gateway → results back
in the API's format. The episode ends when the model answers without a tool call, when its calls reach the
scenario's tool-call limit (`limits.max_tool_calls`: every later call would be refused), after `max_turns`, or when
the API keeps failing (`AgentReport.api_error`: the run records status `agent_error`, not a task failure).
`messages.json` (the whole conversation in the API's format, the tools, per-turn records) is written at the end
whatever happened, into the episode's folder.
"""

from __future__ import annotations

import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any
from zoneinfo import ZoneInfo

import anyio

from orchestrator.agents.base import Agent, AgentReport
from orchestrator.agents.models.convert import drop_unset_nulls, result_text
from orchestrator.agents.models.options import EndpointGate, ModelOptions
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import task_text
from orchestrator.scenario.model import Scenario

RETRY_STATUS = {408, 409, 429, 529}


class ModelAPIError(Exception):
    """The model's API failed for good (after retries, or with an error no retry fixes)."""


@dataclass
class Call:
    """A tool call the model asked for: the API's call id, the tool and its parsed arguments."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    problem: str | None = None
    """Why the arguments could not be used (not JSON, not an object): sent back as the tool's error."""


@dataclass
class Reply:
    """One model response: the tool calls it asks for (none: its final answer), why it stopped, and its tokens."""

    calls: list[Call]
    stop_reason: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0


@dataclass
class Outcome:
    """A tool call's result as the model is shown it: text, and whether it is an error."""

    text: str
    is_error: bool


@dataclass
class Usage:
    """The turns of one episode's loop, each a record of latency, tokens, stop reason, calls and retries."""

    turns: list[dict[str, Any]] = field(default_factory=list)
    retries: int = 0
    """Every retried request, those of a request that failed for good included (a turn records only its own)."""

    def totals(self, price: Any) -> dict[str, Any]:
        """Tokens, turns, retries and model latency summed over the turns, and `cost_usd` with a `Price`."""
        total = {key: sum(t[key] for t in self.turns) for key in ("input_tokens", "output_tokens", "cached_tokens")}
        total |= {
            "turns": len(self.turns),
            "retries": self.retries,
            "model_latency_s": round(sum(t["latency_ms"] for t in self.turns) / 1000, 3),
        }
        if price is not None:
            total["cost_usd"] = round(
                price.cost(total["input_tokens"], total["output_tokens"], total["cached_tokens"]), 6
            )
        return total


def prompt_preamble(scenario: Scenario) -> str:
    """Who the model works for and what "now" is (the persona, its time zone and the sandbox clock's date-time), and
    to do the task with the tools; a system prompt adds how to end (here: a summary; the environment API: `submit`)."""
    persona = scenario.persona
    zone = ZoneInfo(persona.timezone)
    now = scenario.clock.start.astimezone(zone)
    apps = ", ".join(sorted(scenario.apps))
    return (
        f"You are an assistant acting on behalf of {persona.name} <{persona.email}>, with access to their {apps} "
        f"through the tools you are given.\n"
        f"Their time zone is {persona.timezone}. The current date and time is {now:%A %d %B %Y, %H:%M} ({now.isoformat()}).\n"
        "Do the task you are given by calling the tools; do only what it asks."
    )


def system_prompt(scenario: Scenario) -> str:
    """The model loop's system prompt: the preamble, then to end with a summary and no tool call."""
    return (
        prompt_preamble(scenario)
        + " When you are done, answer with a short summary of what you did, without calling a tool."
    )


def retry_after(exc: BaseException) -> float | None:
    """Seconds the API asked to wait (`retry-after-ms`, `retry-after` in seconds or as an HTTP date)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
    except ValueError:
        pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(
                0.0, (parsedate_to_datetime(value) - datetime.now(parsedate_to_datetime(value).tzinfo)).total_seconds()
            )
        except (TypeError, ValueError):
            return None


class ModelAgent(Agent, ABC):
    """A tool-calling loop over one vendor API; subclasses speak the API (`openai`, `anthropic`)."""

    api: str
    isolation = "none"
    client: Any
    """The vendor SDK's async client."""

    def __init__(self, model: str, options: ModelOptions, gate: EndpointGate | None = None) -> None:
        self.model = model
        self.options = options
        self.gate = gate or EndpointGate()
        self.name = f"{self.api}:{model}"
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self.schemas: dict[str, dict[str, Any]] = {}
        self.usage = Usage()
        self.retries = 0
        self.on_progress: Callable[[str], None] = lambda _: None
        """Told of the loop's progress as it goes (the runner shows it): each turn's tokens so far, each retry's wait."""

    # ---- what each API provides ----
    @abstractmethod
    def start(self, system: str, task: str, tools: list[Any]) -> None:
        """Set `self.tools` and the first messages."""

    @abstractmethod
    async def request(self) -> Reply:
        """One API call; appends the assistant's message to `self.messages`."""

    @abstractmethod
    def add_results(self, results: list[tuple[Call, Outcome]]) -> None:
        """Append the tool results as the API expects them."""

    @abstractmethod
    def retryable(self, exc: BaseException) -> bool | None:
        """True: retry; False: an API error no retry fixes; None: not an API error at all."""

    @abstractmethod
    def describe(self, exc: BaseException) -> str:
        """A one-line account of an API error for the report (status, type, message)."""

    def transcript(self) -> dict[str, Any]:
        """What `messages.json` holds besides the turns: the API, model, base URL, tools and messages."""
        return {
            "api": self.api,
            "model": self.model,
            "base_url": self.options.base_url,
            "tools": self.tools,
            "messages": self.messages,
        }

    # ---- the loop ----
    async def run(self, episode: Episode) -> AgentReport:
        """Ask the model in turns with the gateway's tools until it answers without a call, its calls reach the
        scenario's tool-call limit, `max_turns` runs out or the API fails for good (`api_error`); the final answer goes to the world as the report to the user, and
        `messages.json` is written to the episode's folder whatever happens."""
        report = AgentReport(agent=self.name)
        started = time.perf_counter()
        try:
            async with episode.connect() as client:
                listed = (await client.list_tools()).tools
                self.schemas = {t.name: t.input_schema for t in listed}
                self.start(system_prompt(episode.scenario), task_text(episode.scenario), listed)
                try:  # caught inside the client's task group, which would wrap it in an exception group
                    await self._turns(client, report, episode)
                except ModelAPIError as exc:
                    report.api_error = str(exc)
                    report.errors.append(str(exc))
                world = episode.gateway.world if episode.gateway is not None else None
                if world is not None:  # the final answer is the model's report to the user, when it gave none
                    world.final_message(self.final_text())
        finally:
            with anyio.CancelScope(shield=True):  # the SDK's HTTP connections close in this event loop, not at exit
                await self.client.close()
            report.duration_s = time.perf_counter() - started
            self.fill_report(report)
            if episode.workdir is not None:
                self.write_messages(episode.workdir / "messages.json")
        return report

    async def _turns(self, client: Any, report: AgentReport, episode: Episode) -> None:
        limit = episode.scenario.limits.max_tool_calls
        for _ in range(self.options.max_turns):
            reply = await self._request_with_retries()
            if not reply.calls:
                return
            results = []
            for call in reply.calls:
                outcome = await self._execute(client, call)
                report.tool_calls += 1
                results.append((call, outcome))
            self.add_results(results)
            made = episode.gateway.calls if episode.gateway is not None else report.tool_calls
            if limit is not None and made >= limit:  # the gateway refuses every later call: asking on only costs
                report.errors.append(
                    f"stopped at the scenario's tool-call limit of {limit} calls (limits.max_tool_calls)"
                )
                return
        report.errors.append(f"stopped after {self.options.max_turns} turns (--max-turns) without a final answer")

    def final_text(self) -> str:
        """The text of the model's last answer (Chat Completions or Messages format), or ''."""
        for message in reversed(self.messages):
            if message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
            return ""
        return ""

    def progress_text(self) -> str:
        """The loop so far in a few words: turns, tokens in and out, and the cost with a price."""
        total = self.usage.totals(self.options.price)
        text = f"turn {total['turns']}, {total['input_tokens']:,} tokens in, {total['output_tokens']:,} out"
        return text + (f", ${total['cost_usd']:.4f}" if "cost_usd" in total else "")

    def fill_report(self, report: AgentReport) -> None:
        """Put the turns and usage so far on `report` (the runner's, when a timeout or a signal stopped the loop)."""
        report.usage = self.usage.totals(self.options.price)
        report.turns = self.usage.turns

    def write_messages(self, path: Any) -> None:
        """Write the conversation, its turns and usage totals to `path` (an episode's `messages.json`)."""
        data = self.transcript() | {"turns": self.usage.turns, "usage": self.usage.totals(self.options.price)}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")

    async def _request_with_retries(self) -> Reply:
        attempt = 0
        while True:
            began = time.perf_counter()
            try:
                async with self.gate:
                    began = time.perf_counter()
                    reply = await self.request()
            except Exception as exc:
                verdict = self.retryable(exc)
                if verdict is None:
                    raise
                if not verdict or attempt >= self.options.max_retries:
                    tries = f" after {attempt + 1} attempts" if attempt else ""
                    raise ModelAPIError(f"{self.name}: the API failed{tries}: {self.describe(exc)}") from exc
                wait = retry_after(exc)
                if wait is None:
                    wait = self.options.backoff_s * 2**attempt * random.uniform(0.8, 1.2)
                attempt += 1
                self.retries += 1
                self.usage.retries += 1
                wait = min(wait, self.options.max_backoff_s)
                self.on_progress(
                    f"retrying in {round(wait, 2):g} s (retry {attempt} of {self.options.max_retries}) after "
                    f"{self.describe(exc)}"
                )
                await anyio.sleep(wait)
                continue
            self.usage.turns.append(
                {
                    "turn": len(self.usage.turns) + 1,
                    "latency_ms": round((time.perf_counter() - began) * 1000, 3),
                    "input_tokens": reply.input_tokens,
                    "output_tokens": reply.output_tokens,
                    "cached_tokens": reply.cached_tokens,
                    "stop_reason": reply.stop_reason,
                    "tool_calls": len(reply.calls),
                    "retries": attempt,
                }
            )
            self.on_progress(self.progress_text())
            return reply

    async def _execute(self, client: Any, call: Call) -> Outcome:
        if call.problem is not None or call.arguments is None:
            return Outcome(
                f"the arguments of {call.name} could not be used: {call.problem}. Call the tool again with one "
                "JSON object that matches its schema.",
                True,
            )
        if call.name not in self.schemas:
            return Outcome(f"there is no tool named {call.name!r}; the tools are listed in this request", True)
        arguments = drop_unset_nulls(call.arguments, self.schemas[call.name])
        try:
            result = await client.call_tool(call.name, arguments)
        except Exception as exc:  # a protocol error from the gateway is the model's to read, not a crash
            return Outcome(f"{type(exc).__name__}: {exc}", True)
        return Outcome(result_text(result, self.options.max_result_chars), bool(result.is_error))


def parse_arguments(raw: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """Tool-call arguments as the model sent them (a JSON string) → (object, None) or (None, what is wrong)."""
    try:
        value = json.loads(raw or "{}")
    except ValueError as exc:
        return None, f"not valid JSON ({exc})"
    if not isinstance(value, dict):
        return None, f"expected a JSON object, got {type(value).__name__}"
    return value, None
