"""The admin plane of an app server's sandboxes, in one place for every transport.

`SandboxAdmin` creates (or replaces), resets, snapshots, reads the journal of, sets the faults and the clock
of, applies world events to, deletes and summarises the sandboxes of one `SandboxStore`. Every operation that
reads or changes a sandbox's database holds that sandbox's lock (`SandboxStore.locked`), the lock its tool calls
hold, so an admin operation never sees a call half done and never closes a database under one; an operation
that waited while the sandbox was deleted meets `UnknownSandbox`, never a closed database.

Refusals are typed: `UnknownSandbox` (no such sandbox), `BadRequest` (what is wrong, per field where it can
say), `SandboxExists` (create without `replace`). The HTTP routes (`servers.core.http`) and the in-process
backend (`orchestrator.backends.inprocess`) map them to their own errors.

May import the rest of `servers.core`, never the HTTP layer.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from servers.core.app import SandboxSpec, SeedError, problems_from
from servers.core.faults import FaultPlan
from servers.core.sandbox import Sandbox
from servers.core.store import SandboxStore, check_sandbox_id
from servers.core.world import WorldChange, WorldError
from servers.core.world import apply as apply_world

CLOCK_LIMIT_S = 1e10
"""How far one clock change may move a clock (about 300 years)."""
MAX_SEQ = 2**63 - 1
"""The largest journal position (SQLite's largest integer)."""
EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, tzinfo=UTC)
"""The range of instants a clock may be moved to (a day inside the years 1 to 9999, whatever the time zone)."""

Model = TypeVar("Model", bound=BaseModel)


class BadRequest(ValueError):
    """A request the admin plane refuses as it stands: `str()` says why, `problems` where (`{loc, message}` each)."""

    def __init__(self, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems


class SandboxExists(FileExistsError):
    """A sandbox (or a folder left under its name) already has the id a create without `replace` asked for."""


class ClockChange(BaseModel):
    """A move of a sandbox's clock: by `advance_seconds`, to `set`, or to `set` and then by `advance_seconds`."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    advance_seconds: float | None = Field(
        None, ge=-CLOCK_LIMIT_S, le=CLOCK_LIMIT_S, description="Move the clock forward (or back, if negative)."
    )
    set: AwareDatetime | None = Field(None, description="Move the clock to this instant.")


def parse(model: type[Model], data: Any) -> Model:
    """`data` as `model`, or a `BadRequest` naming each offending field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = problems_from(exc, data)
        lines = "; ".join(f"{p.loc}: {p.message}" for p in problems)
        raise BadRequest(f"invalid {model.__name__} request: {lines}", [p.model_dump() for p in problems]) from None


def clock_problem(sandbox: Sandbox, change: ClockChange) -> str | None:
    """Why `change` cannot be applied (it would leave the range of dates), or None."""
    try:
        when = change.set if change.set is not None else sandbox.now()
        if change.advance_seconds is not None:
            when = when + timedelta(seconds=change.advance_seconds)
    except OverflowError:
        when = None
    if when is None or not EARLIEST <= when <= LATEST:
        return "the clock change would move the clock outside the years 1 to 9999"
    return None


def summary(sandbox: Sandbox) -> dict[str, Any]:
    """What the admin plane tells about a sandbox: who made it, when, its size, clock, persona and seed."""
    access = sandbox.access
    return {
        "id": sandbox.id,
        "owner": access.get("owner"),
        "created": access.get("created"),
        "secret": access.get("secret_sha256") is not None,
        "rows": sandbox.size(),
        "now": sandbox.now_iso(),
        "clock": sandbox.clock.spec.model_dump(mode="json"),
        "persona": sandbox.persona.model_dump(mode="json"),
        "rng_seed": sandbox.spec.rng_seed,
        "durable": sandbox.directory is not None,
    }


def clock_state(sandbox: Sandbox) -> dict[str, Any]:
    """A sandbox's time and the clock spec it runs by."""
    return {"now": sandbox.now_iso(), "clock": sandbox.clock.spec.model_dump(mode="json")}


class SandboxAdmin:
    """The admin operations on the sandboxes of one store, each under the sandbox's lock."""

    def __init__(self, store: SandboxStore) -> None:
        self.store = store

    def summaries(self) -> list[dict[str, Any]]:
        """The summary of every sandbox."""
        return [summary(s) for s in list(self.store.sandboxes.values())]

    async def summary(self, sandbox_id: str) -> dict[str, Any]:
        """One sandbox's summary."""
        async with self.store.locked(sandbox_id) as sandbox:
            return summary(sandbox)

    async def create(
        self,
        sandbox_id: str,
        spec: SandboxSpec,
        *,
        replace: bool = False,
        secret: str | None = None,
        owner: str | None = None,
    ) -> Sandbox:
        """Build and seed a sandbox; one already under `sandbox_id` is replaced (once no call uses it) only when asked."""
        try:
            check_sandbox_id(sandbox_id)
        except ValueError as exc:
            raise BadRequest(str(exc), [{"loc": "id", "message": str(exc)}]) from None
        try:
            while (existing := self.store.sandboxes.get(sandbox_id)) is not None:
                async with existing.lock:  # not while a tool call is using it
                    if (
                        self.store.sandboxes.get(sandbox_id) is existing
                    ):  # else replaced or deleted meanwhile: look again
                        return self.store.create(sandbox_id, spec, replace=replace, secret=secret, owner=owner)
            return self.store.create(sandbox_id, spec, replace=replace, secret=secret, owner=owner)
        except SeedError as exc:
            raise BadRequest(str(exc), [p.model_dump() for p in exc.problems]) from None
        except FileExistsError as exc:
            raise SandboxExists(str(exc)) from None

    async def reset(self, sandbox_id: str) -> tuple[Sandbox, float]:
        """Back to its seeded state; returns the sandbox and how long the reset took, in milliseconds."""
        async with self.store.locked(sandbox_id) as sandbox:
            started = time.perf_counter()
            sandbox.reset()
            return sandbox, (time.perf_counter() - started) * 1000

    async def snapshot(self, sandbox_id: str) -> dict[str, list[dict[str, Any]]]:
        """Every app table's rows, between tool calls."""
        async with self.store.locked(sandbox_id) as sandbox:
            return sandbox.snapshot()

    async def journal(self, sandbox_id: str, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The journal entries after position `after`, at most `limit` of them."""
        if not 0 <= after <= MAX_SEQ or (limit is not None and not 0 <= limit <= MAX_SEQ):
            raise BadRequest(f"query parameters 'after' and 'limit' must be between 0 and {MAX_SEQ}")
        async with self.store.locked(sandbox_id) as sandbox:
            return sandbox.journal(after, limit)

    async def state(self, sandbox_id: str) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
        """Every app table's rows and the whole journal, read together between tool calls."""
        async with self.store.locked(sandbox_id) as sandbox:
            return sandbox.snapshot(), sandbox.journal(0, None)

    def faults(self, sandbox_id: str) -> FaultPlan:
        """The sandbox's fault plan."""
        return self.store.get(sandbox_id).faults

    async def set_faults(self, sandbox_id: str, plan: FaultPlan) -> FaultPlan:
        """Replace the sandbox's fault plan (its open windows close)."""
        async with self.store.locked(sandbox_id) as sandbox:
            sandbox.set_faults(plan)
            return sandbox.faults

    def clock(self, sandbox_id: str) -> dict[str, Any]:
        """The sandbox's time and clock spec."""
        return clock_state(self.store.get(sandbox_id))

    async def set_clock(self, sandbox_id: str, change: ClockChange) -> dict[str, Any]:
        """Move the sandbox's clock; a move out of the years 1 to 9999 is a `BadRequest`. Returns `clock`'s answer."""
        async with self.store.locked(sandbox_id) as sandbox:
            problem = clock_problem(sandbox, change)
            if problem:
                loc = "advance_seconds" if change.advance_seconds else "set"
                raise BadRequest(problem, [{"loc": loc, "message": problem}])
            sandbox.set_clock(advance=change.advance_seconds, to=change.set)
            return clock_state(sandbox)

    async def apply_world(self, sandbox_id: str, change: WorldChange) -> dict[str, Any]:
        """Apply a world event (see `servers.core.world`); one that does not fit the sandbox is a `BadRequest`."""
        async with self.store.locked(sandbox_id) as sandbox:
            try:
                return apply_world(sandbox, change)
            except WorldError as exc:
                raise BadRequest(
                    f"world event {change.event!r} cannot be applied: {exc}", [p.model_dump() for p in exc.problems]
                ) from None

    async def delete(self, sandbox_id: str) -> None:
        """Remove the sandbox and its files, once no call uses it."""
        async with self.store.locked(sandbox_id):
            self.store.delete(sandbox_id)
