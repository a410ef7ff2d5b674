"""The event engine: what the world does between the agent's calls, and the gateway's own tools.

The gateway asks the engine before it forwards each tool call (`before_call`)
and tells it the outcome after (`after_call`):

1. before a call, every event due by the episode's time is applied, in
   order of time, then of scheduling (declaration order for timed events), so
   the call sees the world as it is by then; the call carries the time in its
   `_meta`;
2. after it, the clock moves on by the call's step, and triggers are
   checked: `after_calls: N` once N calls were made, `when: {call: ...}` on
   the call itself, `when: {app, table, where}` and people's rules on the
   app's state after a call that writes. A trigger that holds schedules its
   event `delay` later; each trigger fires once.

Each event is applied through the backend's admin plane as the world's
change (journaled with `world: <name>`, never as an agent's call) and
recorded in the trace (`source: world`). Nothing the agent sends reaches the
engine's triggers except through the outcome of its own calls, and the clock
moves only by steps and by `world__wait`, within its bounds. The same
scenario, seed and calls give the same events at the same times.
"""

from __future__ import annotations

import heapq
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import mcp.types as types

from orchestrator.backends.base import AppEndpoint, BackendError
from orchestrator.scenario.conditions import Context, holds, row_matches
from orchestrator.scenario.model import Scenario
from orchestrator.scenario.worldspec import (
    ASK_TOOL,
    REPORT_STATUSES,
    REPORT_TOOL,
    WAIT_TOOL,
    CallTrigger,
    Event,
    StateTrigger,
)
from orchestrator.world.people import Reaction, Watcher, compile_people
from orchestrator.world.timeline import Timeline, WaitRefused
from servers import registry
from servers.core.world import CLOCK_META

MAX_QUESTION = 2000
MAX_SUMMARY = 8000
MAX_REFUSED_KEPT = 20
"""Refused calls of the gateway's own tools kept in the journal (without their arguments' values); later ones are
only counted, so an agent repeating a refused 8 KB report costs nothing per call."""


@dataclass(order=True)
class Pending:
    """A world change due at a sandbox time; changes due at the same time apply in `order`."""

    when: datetime
    order: int
    name: str = field(compare=False)
    app: str = field(compare=False)
    change: dict[str, Any] = field(compare=False)


def _is_tool(name: str, spec: str) -> bool:
    return name in spec.split("|")


def gateway_tools(scenario: Scenario) -> dict[str, types.Tool]:
    """The tools the gateway itself offers in this scenario, as the agent sees them."""
    world = scenario.world
    if world is None:
        return {}
    out: dict[str, types.Tool] = {}
    if world.lives():
        out[WAIT_TOOL] = types.Tool(
            name=WAIT_TOOL,
            title="Wait",
            description="Let time pass, for example to wait for a reply. Without minutes, waits until something next "
            f"happens (at most {world.wait.max / 60:g} minutes). Returns the new time. Waiting is limited to "
            f"{world.wait.total / 60:g} minutes per task.",
            input_schema={
                "type": "object",
                "properties": {"minutes": {"type": "number", "exclusiveMinimum": 0, "maximum": world.wait.max / 60}},
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=False),
        )
    if world.user is not None:
        out[ASK_TOOL] = types.Tool(
            name=ASK_TOOL,
            title="Ask the user",
            description="Ask the person you work for a question only they can answer (a preference, a decision, a fact "
            "that is not in any app). Returns their answer.",
            input_schema={
                "type": "object",
                "properties": {"question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION}},
                "required": ["question"],
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=True),
        )
    if world.report:
        out[REPORT_TOOL] = types.Tool(
            name=REPORT_TOOL,
            title="Report to the user",
            description="Tell the user how the task went, once, at the end: status done, partly_done or not_done, and a "
            "summary of what you did and what could not be done and why.",
            input_schema={
                "type": "object",
                "properties": {
                    "status": {"type": "string", "enum": list(REPORT_STATUSES)},
                    "summary": {"type": "string", "minLength": 1, "maxLength": MAX_SUMMARY},
                },
                "required": ["status", "summary"],
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=False, idempotent_hint=False),
        )
    return out


class WorldEngine:
    """The living world of one episode: its timeline, pending events, triggers and the gateway's own tools."""

    def __init__(
        self, scenario: Scenario, endpoints: Mapping[str, AppEndpoint], sandbox_id: str, trace: Any = None
    ) -> None:
        assert scenario.world is not None
        self.scenario = scenario
        self.world = scenario.world
        self.endpoints = dict(endpoints)
        self.sandbox_id = sandbox_id
        self.trace = trace
        self.zone = ZoneInfo(scenario.persona.timezone)
        self.timeline = Timeline(scenario.clock.start.astimezone(self.zone), self.world.clock, self.world.wait)
        self.tools = gateway_tools(scenario)
        self.pending: list[Pending] = []
        self.order = 0
        self.calls = 0
        """Tool calls the agent made to apps."""
        self.per_app: dict[str, int] = {}
        """Per app, the calls forwarded to it so far: where each of the gateway's own calls falls among the apps'
        journals (`position`), exactly, where wall times of a millisecond cannot tell the order."""
        self.applied: list[dict[str, Any]] = []
        """Every event applied: name, app, time, and what the app did."""
        self.entries: list[dict[str, Any]] = []
        """Journal entries of the gateway's own tools (`world__*`), for the verifier."""
        self.refused = 0
        """Calls of the gateway's own tools refused (bad arguments, a second report, waiting used up): counted;
        the first `MAX_REFUSED_KEPT` are in `entries` with the shape of their arguments only, and the last of those
        counts the rest in `refused_calls`."""
        self._last_refused: dict[str, Any] = {}
        self.questions = 0
        self._answers: dict[str, str] = {}
        self._fired: set[int] = set()
        self.watchers: list[Watcher] = compile_people(scenario)
        self.watched = {w.app for w in self.watchers} | {
            e.when.app for e in self.world.events if isinstance(e.when, StateTrigger)
        }
        self.seen: dict[str, int] = {}
        """Per watched app, the last journal entry the engine has looked at."""
        self.initial_keys: dict[tuple[str, str], set[Any]] = {}
        self.keys: dict[tuple[str, str], str] = {
            (app, t.name): t.key for app in scenario.apps for t in registry.load(app).tables.values()
        }
        self._read_only: dict[str, bool] = {}

    # -- lifecycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Make every app follow the episode's time, schedule timed events and read the watched apps' state."""
        for endpoint in self.endpoints.values():
            await endpoint.apply_world(
                self.sandbox_id, {"event": "clock", "follow_clock": True, "at": self.timeline.iso()}
            )
        for index, event in enumerate(self.world.events):
            if event.at is not None:
                at = event.at if event.at.tzinfo is not None else event.at.replace(tzinfo=self.zone)
                self._schedule(event.name, event.app, at, self._change(event), order=index)
                self._fired.add(index)
            elif event.after_calls == 0:
                self._schedule(event.name, event.app, self.timeline.now, self._change(event))
                self._fired.add(index)
        for app in sorted(self.watched):
            state = await self.endpoints[app].snapshot(self.sandbox_id)
            for table, rows in state.items():
                key = self.keys.get((app, table), "id")
                self.initial_keys[(app, table)] = {r.get(key) for r in rows}
            self.seen[app] = 0
            ctx = self._context(app)
            for index, event in enumerate(self.world.events):  # a condition that holds from the start holds first now
                trigger = event.when
                if (
                    isinstance(trigger, StateTrigger)
                    and trigger.app == app
                    and trigger.added is not True
                    and any(row_matches(r, trigger.where, ctx, trigger.table) for r in state.get(trigger.table, []))
                ):
                    self._fire(index, event, self.timeline.now)

    def _context(self, app: str) -> Context:
        return Context({}, self.keys, app, seeded=self.initial_keys)

    def _change(self, event: Event) -> dict[str, Any]:
        return {
            "add": event.add,
            "update": [u.model_dump(mode="json", exclude_defaults=True) for u in event.update],
        }

    def _schedule(self, name: str, app: str, when: datetime, change: dict[str, Any], order: int | None = None) -> None:
        self.order += 1
        heapq.heappush(
            self.pending, Pending(when, order if order is not None else 10_000 + self.order, name, app, change)
        )

    # -- around each tool call -------------------------------------------------------

    async def before_call(self, tool: str) -> dict[str, Any]:
        """Apply what is due; the `_meta` the call carries (the episode's time)."""
        app = tool.partition("__")[0]
        self.per_app[app] = self.per_app.get(app, 0) + 1
        await self.apply_due()
        return {CLOCK_META: self.timeline.iso()}

    async def after_call(self, tool: str, arguments: Mapping[str, Any], is_error: bool) -> None:
        self.calls += 1
        self.timeline.step(tool)
        now = self.timeline.now
        for index, event in enumerate(self.world.events):
            if index in self._fired:
                continue
            if event.after_calls is not None and self.calls >= event.after_calls:
                self._fire(index, event, now)
            elif isinstance(event.when, CallTrigger) and not is_error and _is_tool(tool, event.when.call):
                plain = Context({}, {})
                if all(holds(arguments.get(k), c, plain) for k, c in event.when.args.items()):
                    self._fire(index, event, now)
        app = tool.partition("__")[0]
        if app in self.watched and not self._is_read(tool):  # a failed call too: a lost reply's change is made
            await self._watch(app, now)

    def _fire(self, index: int, event: Event, now: datetime) -> None:
        self._fired.add(index)
        self._schedule(event.name, event.app, now + timedelta(seconds=event.delay), self._change(event))

    def _is_read(self, tool: str) -> bool:
        if tool not in self._read_only:
            app, _, name = tool.partition("__")
            try:
                definition = registry.load(app).tools.tools.get(name)
            except KeyError:
                definition = None
            self._read_only[tool] = bool(definition and definition.annotations.read_only_hint)
        return self._read_only[tool]

    async def _watch(self, app: str, now: datetime) -> None:
        """Read the rows the agent's calls changed since last time (the app's journal); feed state triggers
        and people's rules. World changes are not the agent's and are skipped; a call whose reply was lost (an error
        to the agent, its change made all the same) counts by its changes, as the app keeps them."""
        entries = await self.endpoints[app].journal(self.sandbox_id, self.seen.get(app, 0))
        if not entries:
            return
        self.seen[app] = max(int(e["seq"]) for e in entries)
        changes = [c for e in entries if e.get("tool") for c in e.get("changes") or []]
        if not changes:
            return
        ctx = self._context(app)
        for index, event in enumerate(self.world.events):
            trigger = event.when
            if index in self._fired or not isinstance(trigger, StateTrigger) or trigger.app != app:
                continue
            rows = [c["after"] for c in changes if c["table"] == trigger.table and c.get("after") is not None]
            if trigger.added is not None:
                rows = [r for r in rows if ctx.is_added(app, trigger.table, r) == trigger.added]
            if any(row_matches(r, trigger.where, ctx, trigger.table) for r in rows):
                self._fire(index, event, now)
        state: dict[str, Any] = {}
        if app == "calendar" and any(w.app == "calendar" and w.person.invitations == "busy" for w in self.watchers):
            state = {app: await self.endpoints[app].snapshot(self.sandbox_id)}  # their own calendar decides
        for watcher in self.watchers:
            if watcher.app != app:
                continue
            for change in changes:
                if (
                    change["table"] == watcher.table
                    and change.get("after") is not None
                    and change.get("before") != change["after"]
                ):
                    reaction = watcher.react(self.scenario, change.get("before"), change["after"], ctx, state)
                    if reaction is not None:
                        self._react(reaction, now)

    def _react(self, reaction: Reaction, now: datetime) -> None:
        self._schedule(reaction.name, reaction.app, now + timedelta(seconds=reaction.delay), reaction.change)

    async def apply_due(self) -> None:
        while self.pending and self.pending[0].when <= self.timeline.now:
            await self._apply(heapq.heappop(self.pending))

    async def _apply(self, item: Pending) -> None:
        wall = datetime.now(UTC)
        started = time.perf_counter()
        change = {"event": item.name, "at": item.when.isoformat(timespec="seconds"), **item.change}
        error: str | None = None
        done: dict[str, Any] | None = None
        try:
            done = await self.endpoints[item.app].apply_world(self.sandbox_id, change)
        except BackendError as exc:
            error = str(exc)
        record = {
            "event": item.name,
            "app": item.app,
            "at": item.when.isoformat(timespec="seconds"),
            "result": done,
            "error": error,
        }
        self.applied.append(record)
        if self.trace is not None:
            self.trace.add(
                source="world",
                wall=wall.isoformat(timespec="milliseconds"),
                method="world/event",
                params={"event": item.name, "app": item.app, "at": record["at"]},
                result=done,
                error=error,
                is_error=error is not None,
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
            )

    # -- the gateway's own tools -------------------------------------------------------

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> types.CallToolResult:
        wall = datetime.now(UTC)
        try:
            if name == WAIT_TOOL:
                text = await self._wait(arguments)
            elif name == ASK_TOOL:
                scripted = self._ask(arguments)  # None: no rule matched, a model plays the user
                text = (
                    scripted
                    if scripted is not None
                    else await self._ask_model(str(arguments["question"])[:MAX_QUESTION])
                )
            else:
                text = self._report(arguments)
            result, is_error = _text(text), False
        except ValueError as exc:
            result, is_error = _text(str(exc), error=True), True
        if is_error:
            self.refused += 1
            if self.refused > MAX_REFUSED_KEPT:  # counted on the last one kept, not stored
                self._last_refused["refused_calls"] = self.refused - MAX_REFUSED_KEPT + 1
                return result
        self.entries.append(
            {
                "seq": len(self.entries) + 1,
                "app": "world",
                "tool": name,
                "arguments": _shape(arguments) if is_error else _bounded(arguments),
                "result": None if is_error else _plain(result),
                "error": _plain(result)[:MAX_QUESTION] if is_error else None,
                "is_error": is_error,
                "fault": None,
                "changes": [],
                "gateway": True,
                "position": dict(self.per_app),
                "wall": wall.isoformat(timespec="milliseconds"),
                "clock": self.timeline.iso(),
                "latency_ms": 0.0,
            }
        )
        if is_error:
            self._last_refused = self.entries[-1]
        return result

    async def _wait(self, arguments: Mapping[str, Any]) -> str:
        unknown = set(arguments) - {"minutes"}
        if unknown:
            raise ValueError(f"{WAIT_TOOL} takes only 'minutes'")
        minutes = arguments.get("minutes")
        await self.apply_due()
        if minutes is None:
            bound = self.timeline.wait_bound()
            if bound <= 0:
                raise ValueError(
                    f"this task allows at most {self.world.wait.total / 60:g} minutes of waiting in all, all used"
                )
            gap = (self.pending[0].when - self.timeline.now).total_seconds() if self.pending else bound
            seconds = min(max(gap, 60.0), bound)
        else:
            if isinstance(minutes, bool) or not isinstance(minutes, int | float) or minutes != minutes:
                raise ValueError("minutes must be a number")
            seconds = float(minutes) * 60
        try:
            self.timeline.wait(seconds)
        except WaitRefused as exc:
            raise ValueError(f"Cannot wait that long: {exc}.") from None
        await self.apply_due()
        return f"Waited {seconds / 60:g} minutes. It is now {self.timeline.now.strftime('%A %d %B %Y, %H:%M')} ({self.scenario.persona.timezone})."

    def _ask(self, arguments: Mapping[str, Any]) -> str | None:
        """The scripted answer; None when the user is played by a model and no rule matched."""
        user = self.world.user
        assert user is not None
        question = arguments.get("question")
        if not isinstance(question, str) or not question.strip() or set(arguments) - {"question"}:
            raise ValueError(f"{ASK_TOOL} takes one argument, question: the question as text")
        if len(question) > MAX_QUESTION:
            raise ValueError(f"{ASK_TOOL}: a question is at most {MAX_QUESTION} characters; ask a shorter one")
        self.questions += 1
        if self.questions > user.max_questions:
            raise ValueError(f"The user has answered {user.max_questions} questions already and will not answer more.")
        for answer in user.answers:
            if re.search(answer.match, question[:MAX_QUESTION], re.IGNORECASE):
                return answer.answer
        return None if user.played_by is not None else user.otherwise

    async def _ask_model(self, question: str) -> str:
        """The user's answer from a model playing them (persona and private facts), temperature 0, once per question."""
        assert self.world.user is not None and self.world.user.played_by is not None
        spec = self.world.user.played_by
        if question in self._answers:
            return self._answers[question]
        provider, _, model = spec.model.partition(":")
        persona = self.scenario.persona
        system = (
            f"You are {persona.name or persona.email}, the user an assistant works for. {spec.persona}\n"
            f"What you know (private; share only what the question asks for):\n{spec.facts}\n"
            "Answer the assistant's question in one or two sentences, in your own voice. If what you know does not "
            "cover it, say you don't know. Never do the assistant's task for it."
        )
        env = "OPENAI" if provider == "openai" else "ANTHROPIC"
        base_url = spec.base_url or os.environ.get(f"{env}_BASE_URL") or None
        key = os.environ.get(f"{env}_API_KEY") or ("none" if base_url else None)
        if key is None:
            raise ValueError(f"The user cannot answer right now ({env}_API_KEY is not set for the model playing them).")
        try:
            if provider == "openai":
                import openai

                client = openai.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=2, timeout=60)
                response = await client.chat.completions.create(
                    model=model,
                    max_tokens=spec.max_tokens,
                    temperature=0,
                    messages=[{"role": "system", "content": system}, {"role": "user", "content": question}],
                )
                text = response.choices[0].message.content or ""
            else:
                import anthropic

                claude = anthropic.AsyncAnthropic(api_key=key, base_url=base_url, max_retries=2, timeout=60)
                message = await claude.messages.create(
                    model=model,
                    max_tokens=spec.max_tokens,
                    extra_body={"temperature": 0},  # the SDK (2.x) no longer takes it as an argument
                    system=system,
                    messages=[{"role": "user", "content": question}],
                )
                text = "".join(getattr(b, "text", "") for b in message.content)
        except Exception as exc:  # noqa: BLE001 - the provider's words; the agent sees a plain error
            raise ValueError(f"The user cannot answer right now: {type(exc).__name__}") from None
        self._answers[question] = text.strip() or self.world.user.otherwise
        return self._answers[question]

    def final_message(self, text: str) -> None:
        """A model agent's final answer, taken as its report when the scenario asks for one and none was given:
        status `partly_done` when it says something could not be done (`CANNOT`), else `done`."""
        if (
            not self.world.report
            or not text.strip()
            or any(e["tool"] == REPORT_TOOL and not e["is_error"] for e in self.entries)
        ):
            return
        status = "partly_done" if CANNOT.search(text) else "done"
        self.entries.append(
            {
                "seq": len(self.entries) + 1,
                "app": "world",
                "tool": REPORT_TOOL,
                "arguments": {"status": status, "summary": text[:MAX_SUMMARY]},
                "result": "Report received.",
                "error": None,
                "is_error": False,
                "fault": None,
                "changes": [],
                "gateway": True,
                "position": dict(self.per_app),
                "final_message": True,
                "wall": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "clock": self.timeline.iso(),
                "latency_ms": 0.0,
            }
        )

    def _report(self, arguments: Mapping[str, Any]) -> str:
        status, summary = arguments.get("status"), arguments.get("summary")
        if status not in REPORT_STATUSES or not isinstance(summary, str) or not summary.strip():
            raise ValueError(f"{REPORT_TOOL} takes status (one of {', '.join(REPORT_STATUSES)}) and summary (text)")
        if len(summary) > MAX_SUMMARY:
            raise ValueError(f"{REPORT_TOOL}: the summary is at most {MAX_SUMMARY} characters; write a shorter one")
        if any(e["tool"] == REPORT_TOOL and not e["is_error"] for e in self.entries):
            raise ValueError("The report was already given; it is given once, at the end.")
        return "Report received."


CANNOT = re.compile(
    r"(?i)\b(could ?n[o']?t|can ?n[o']?t|cannot|unable|was ?n[o']?t able|were ?n[o']?t able|not possible|impossible|failed to|"
    r"did ?n[o']?t manage|no way to|not able to)\b"
)
"""Words of a final answer that says some part could not be done."""


def _bounded(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as the journal keeps them: text cut at the longest a gateway tool accepts (a refused call's
    megabyte stays out of the journal)."""
    return {
        str(k)[:100]: v[:MAX_SUMMARY]
        if isinstance(v, str)
        else v
        if isinstance(v, int | float | bool) or v is None
        else repr(v)[:MAX_SUMMARY]
        for k, v in list(arguments.items())[:20]
    }


def _shape(arguments: Mapping[str, Any]) -> dict[str, str]:
    """A refused call's arguments as the journal keeps them: each name (up to 20) with its type and size, no value."""
    return {
        str(k)[:100]: f"{type(v).__name__}, {len(v)} characters" if isinstance(v, str) else type(v).__name__
        for k, v in list(arguments.items())[:20]
    }


def _text(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _plain(result: types.CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def make_engine(
    scenario: Scenario, endpoints: Mapping[str, AppEndpoint], sandbox_id: str, trace: Any = None
) -> WorldEngine | None:
    """The engine of a scenario with a `world:` section, else None."""
    return None if scenario.world is None else WorldEngine(scenario, endpoints, sandbox_id, trace)
