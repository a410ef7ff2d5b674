"""An episode: one run of a scenario, in its own sandboxes, behind its own gateway.

    async with Episode(scenario, endpoints, rng_seed=7) as episode:
        async with episode.connect() as client:      # what an agent sees
            await client.call_tool("mail__search_messages", {"query": "Berlin"})
        result, journal = await episode.finish()    # the verdict, as every entry point closes an episode

Entering seeds one sandbox per app (clock, persona, fault plan), records the
seeded state and opens the gateway; verifying reads the final state and the
journals (asking the episode's LLM judge, if it has one, about `judge` checks);
`finish` is the one way an episode is closed and judged, whatever runs it (the
runner, the environment API, Ray workers, `orchestrator serve`); leaving closes
every connection and deletes the sandboxes.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from orchestrator.backends.base import (
    MCP_TIMEOUT,
    AppEndpoint,
    Upstream,
    remember_output_validators,
    ssl_context,
    trust_results,
)
from orchestrator.episode.gateway import Gateway, InProcessSession, Trace, gateway_name, task_text
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge, resolve
from orchestrator.verify.process_checks import injected_faults, judge_recovery
from orchestrator.verify.results import Result
from orchestrator.verify.verdict import verify
from orchestrator.world.events import make_engine
from orchestrator.world.noise import noise_profile


async def each(items: Mapping[str, Any], fn: Callable[[str, Any], Awaitable[Any]]) -> dict[str, Any]:
    """Run `fn(key, value)` for every item concurrently; results by key."""
    results: dict[str, Any] = {}

    async def one(key: str, value: Any) -> None:
        results[key] = await fn(key, value)

    async with anyio.create_task_group() as tg:
        for key, value in items.items():
            tg.start_soon(one, key, value)
    return results


def judge_noise(result: Result, scenario: Scenario, journal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Under a noise profile, judge in place how the run recovered from the injected faults (`judge_recovery`);
    the profile as results record it, or None for a scenario run as written (nothing is judged then)."""
    profile = noise_profile(scenario)
    if profile is not None:
        judge_recovery(result, journal)
    return profile


class Episode:
    """One run of `scenario` in its own sandboxes behind its own gateway; `judge` is the LLM judge its `judge` checks
    are asked of (None: they are reported unjudged and do not count). Each episode has its own: two episodes in one
    process may ask different judges, and a worker process is given the judge with the episode."""

    def __init__(
        self,
        scenario: Scenario,
        endpoints: Mapping[str, AppEndpoint],
        *,
        rng_seed: int = 0,
        episode_id: str | None = None,
        keep: bool = False,
        workdir: Path | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.scenario = scenario
        self.judge = judge
        self.endpoints = {app: endpoints[app] for app in scenario.apps}
        self.rng_seed = rng_seed
        self.sandbox_id = f"{scenario.id[:40]}-{episode_id or uuid.uuid4().hex[:10]}"
        self.keep = keep
        self.workdir = workdir
        self.trace = Trace()
        self.seeded: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self.final: dict[str, dict[str, list[dict[str, Any]]]] = {}
        """Each app's tables as the last `verify` read them."""
        self.secrets: dict[str, str | None] = {}
        """Each app's sandbox secret: the capability to call its tools, held here and never shown to the agent."""
        self.gateway: Gateway | None = None
        self.gateway_url: str | None = None
        self.started = time.perf_counter()
        self.phases: dict[str, float] = {}
        """Seconds spent in each phase of the episode so far: seed, connect, tools, snapshot, verify, teardown."""
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Episode:
        try:
            with self._phase("seed"):
                await each(self.endpoints, self._seed)
            with self._phase("connect"):
                upstreams: dict[str, Upstream] = {}
                for app, endpoint in self.endpoints.items():
                    upstreams[app] = await self._stack.enter_async_context(
                        endpoint.connect(self.sandbox_id, self.secrets.get(app))
                    )
                self.gateway = Gateway(self.scenario, upstreams, self.trace)
            with self._phase("tools"):
                await self.gateway.load_tools()
                self.gateway.world = make_engine(self.scenario, self.endpoints, self.sandbox_id, self.trace)
                if self.gateway.world is not None:
                    await self.gateway.world.start()
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    @contextlib.contextmanager
    def _phase(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - started

    async def _seed(self, app: str, endpoint: AppEndpoint) -> None:
        spec = self.scenario.sandbox_spec(app, self.rng_seed)
        self.secrets[app], seeded = await endpoint.create_and_snapshot(self.sandbox_id, spec, replace=True)
        if app in self.scenario.faults:  # a fault plan changes no table
            await endpoint.set_faults(self.sandbox_id, self.scenario.faults[app])
        self.seeded[app] = seeded

    async def __aexit__(self, *exc: object) -> None:
        # Connections close first, outside any new cancel scope (their task groups
        # were opened before it); deleting sandboxes is shielded from cancellation.
        with self._phase("teardown"):
            await self._stack.aclose()
            with anyio.CancelScope(shield=True):
                if not self.keep:
                    for app in self.seeded:
                        with contextlib.suppress(Exception):
                            await self.endpoints[app].delete(self.sandbox_id)

    @contextlib.asynccontextmanager
    async def connect(self, *, trusted: bool = False) -> AsyncIterator[Client]:
        """A client session on the gateway: over HTTP when it is served, in process otherwise.

        `trusted` is for the orchestrator's own agents that read results without showing the tool listing to
        anyone (the oracle, the environment API): their client does not validate each result against its output
        schema a second time, nor list the tools to learn the schemas. The app server validated the result against
        the model the schema is made from before it sent it, and the gateway passes it on unchanged (see
        `orchestrator.backends.base.UpstreamClient` and tests/servers/core/test_output_schemas.py). In process,
        such an agent calls the gateway's handlers directly (`InProcessSession`): the same answers and the same
        trace, without a JSON-RPC round trip inside the process.
        """
        assert self.gateway is not None, "the episode is not open"
        if trusted and self.gateway_url is None:
            async with InProcessSession(self.gateway) as session:
                yield session  # type: ignore[misc]  # InProcessSession makes the calls a ClientSession makes
            return
        async with contextlib.AsyncExitStack() as stack:
            if self.gateway_url is None:
                client = await stack.enter_async_context(Client(self.gateway.server))
            else:
                http = await stack.enter_async_context(httpx2.AsyncClient(verify=ssl_context(), timeout=MCP_TIMEOUT))
                client = await stack.enter_async_context(
                    Client(streamable_http_client(self.gateway_url, http_client=http))
                )
            if trusted:
                trust_results(client)
            else:
                remember_output_validators(client)
            yield client

    async def journal(self) -> list[dict[str, Any]]:
        """Every app's journal, tools named as the agent saw them, in the order the calls happened."""
        with self._phase("snapshot"):
            journals = await each(self.endpoints, lambda app, endpoint: endpoint.journal(self.sandbox_id))
        return self._merged(journals)

    def _merged(self, journals: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
        merged = [
            entry | {"app": app, "tool": gateway_name(app, entry["tool"]) if entry["tool"] else entry["tool"]}
            for app, entries in journals.items()
            for entry in entries
        ]
        if self.gateway is not None and self.gateway.world is not None:
            merged += self.gateway.world.entries  # the gateway's own tools (world__report …), marked `gateway`
        return sorted(merged, key=lambda e: (e["wall"], e["app"], e["seq"]))

    async def final_state(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """Each app's tables as they are now in the episode's sandboxes."""
        with self._phase("snapshot"):
            return await each(self.endpoints, lambda app, endpoint: endpoint.snapshot(self.sandbox_id))

    async def verify(
        self,
        journal: list[dict[str, Any]] | None = None,
        final: dict[str, dict[str, list[dict[str, Any]]]] | None = None,
    ) -> Result:
        """The verdict; pass the journal and the final state when they were already read, to read them once."""
        final = self.final = final if final is not None else await self.final_state()
        journal = journal if journal is not None else await self.journal()
        attempted = self.gateway.calls if self.gateway else None
        with self._phase("verify"):
            # claims for an LLM judge are asked before the (pure) verdict
            judgements = await resolve(self.scenario, self.seeded, final, self.judge) if self.judge else None
            result = verify(
                self.scenario, self.seeded, final, journal, attempted_calls=attempted, judgements=judgements
            )
        result.episode.update(
            {
                "sandbox": self.sandbox_id,
                "rng_seed": self.rng_seed,
                "duration_s": round(time.perf_counter() - self.started, 3),
                "instruction": task_text(self.scenario),
            }  # what the agent was asked, for readers of the record
        )
        if self.trace.capped:  # the trace was cut: what it kept and what it only counted
            result.episode["trace_capped"] = self.trace.capped
        world = self.gateway.world if self.gateway is not None else None
        if world is not None and world.refused:
            result.episode["world_refused"] = world.refused
        return result

    async def finish(self) -> tuple[Result, list[dict[str, Any]]]:
        """Close the books of the episode: the verdict and the journal it was computed from.

        Reads each app's state and journal together, once; verifies (asking the episode's judge), judges recovery
        under a noise profile (`episode["noise"]` records the profile) and lists the injected faults
        (`episode["faults"]`). Every entry point ends an episode here; the journal is for `merged_trace` and the
        record."""
        with self._phase("snapshot"):
            read = await each(self.endpoints, lambda app, endpoint: endpoint.state(self.sandbox_id))
        journal = self._merged({app: entries for app, (_, entries) in read.items()})
        result = await self.verify(journal, {app: tables for app, (tables, _) in read.items()})
        if (profile := judge_noise(result, self.scenario, journal)) is not None:
            result.episode["noise"] = profile
        if faults := injected_faults(journal):
            result.episode["faults"] = faults
        return result, journal

    async def merged_trace(self, journal: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The gateway's trace and the apps' journals, one timeline."""
        journal = journal if journal is not None else await self.journal()
        apps = [{"source": f"app:{e['app']}", **e} for e in journal]
        return sorted([*self.trace.entries, *apps], key=lambda e: e["wall"])
