"""What an app is: its tables, its seed model, its tools.

Each app folder builds one `App`; the core turns it into an MCP server, an
admin API and a sandbox store without knowing anything else about it.
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from servers.core.clock import ClockSpec
from servers.core.harm import HarmModel, check_domain
from servers.core.schema import Table, read_schema


class Persona(BaseModel):
    """The person the agent works for: the owner of the mailbox, calendar, drive and tickets."""

    model_config = ConfigDict(extra="forbid")

    name: str = "Alex Morgan"
    email: str = "alex@example.test"
    timezone: str = "UTC"
    domains: list[str] = Field(
        default_factory=list,
        description="The organization's email domains (subdomains included); default: the domain of `email`. "
        "Addresses outside them are outside the organization.",
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a tz folder ('America'), a name too long
            shown = value if len(value) <= 80 else value[:80] + "…"
            raise ValueError(f"unknown IANA time zone {shown!r} (for example 'Europe/Berlin')") from None
        return value

    @field_validator("email")
    @classmethod
    def _lower_email(cls, value: str) -> str:
        if "@" not in value:
            raise ValueError(f"{value!r} is not an email address")
        return value.lower()

    @field_validator("domains")
    @classmethod
    def _domain_names(cls, value: list[str]) -> list[str]:
        out: list[str] = []
        for entry in value:
            domain = check_domain(entry)
            if domain not in out:
                out.append(domain)
        return out

    @model_validator(mode="after")
    def _default_domain(self) -> Persona:
        if not self.domains:
            self.domains = [check_domain(self.email.rpartition("@")[2])]
        return self


class SeedRow(BaseModel):
    """Base of every seed model: an unknown key is an error, never silently ignored."""

    model_config = ConfigDict(extra="forbid")


def _without_docstring(schema: dict[str, Any], cls: type) -> None:
    if cls.__doc__ and schema.get("description") == inspect.cleandoc(cls.__doc__):
        del schema["description"]


class ToolModel(BaseModel):
    """Base of the models tools take and return: the class docstring documents the code and stays out of the JSON
    schema (pydantic would copy it into every tool listing an agent reads; the fields' descriptions are there)."""

    model_config = ConfigDict(json_schema_extra=_without_docstring)


class SandboxSpec(BaseModel):
    """Everything needed to build a sandbox: the app's seed data, who the user is, the clock, the episode seed."""

    model_config = ConfigDict(extra="forbid")

    seed: dict[str, Any] = Field(default_factory=dict)
    persona: Persona = Field(default_factory=Persona)
    clock: ClockSpec = Field(default_factory=ClockSpec)
    rng_seed: int = 0


class Problem(BaseModel):
    """One problem with seed data: where it is (a dotted location) and what is wrong."""

    loc: str
    message: str
    parts: list[str | int] | None = Field(None, exclude=True)


class SeedError(ValueError):
    """Seed data an app refuses, with one problem per offending field."""

    def __init__(self, app: str, problems: list[Problem]) -> None:
        self.app = app
        self.problems = problems
        lines = "\n".join(f"  {p.loc}: {p.message}" for p in problems)
        super().__init__(f"{app} seed is invalid:\n{lines}")

    @classmethod
    def at(cls, app: str, loc: Iterable[str | int], message: str) -> SeedError:
        """A SeedError with one problem at `loc` (a path of keys and indexes into the seed)."""
        parts = list(loc)
        return cls(app, [Problem(loc=format_loc(parts), message=message, parts=parts)])

    def naming_rows_of(self, data: Any) -> SeedError:
        """The same problems, their locations naming the ids of the rows in `data`."""
        problems = [
            p.model_copy(update={"loc": format_loc(p.parts, data)}) if p.parts is not None else p for p in self.problems
        ]
        return SeedError(self.app, problems)

    @classmethod
    def from_validation(cls, app: str, error: ValidationError, data: Any) -> SeedError:
        """A SeedError with one problem per error of pydantic's validation of `data`."""
        return cls(app, problems_from(error, data))


KEY_ERRORS = ("missing", "extra_forbidden")
"""Pydantic error types whose last location part is a key absent from the data: the field at fault."""


def problems_from(error: ValidationError, data: Any) -> list[Problem]:
    """One problem per offending field, union-branch noise folded away."""
    seen: dict[str, Problem] = {}
    for e in error.errors(include_url=False):
        parts = data_path(e["loc"], data, keep_last=e["type"] in KEY_ERRORS)
        loc = format_loc(parts, data)
        seen.setdefault(loc, Problem(loc=loc, message=e["msg"], parts=parts))
    return list(seen.values())


ROW_NAMES = ("id", "key", "email")
"""Fields that name a seed row in error messages, first found wins."""


def data_path(loc: Iterable[str | int], data: Any, keep_last: bool = True) -> list[str | int]:
    """A pydantic error location as a path into `data`.

    Parts that are not in the data (pydantic's names for union branches and
    validators, such as `datetime` in `start.datetime`) are left out; a final
    part missing from the data is kept when `keep_last` says it is the field
    at fault (a missing or unknown key).
    """
    parts = list(loc)
    out: list[str | int] = []
    node = data
    for index, part in enumerate(parts):
        if isinstance(part, int):
            out.append(part)
            node = node[part] if isinstance(node, list) and part < len(node) else None
        elif isinstance(node, dict) and (part in node or (index == len(parts) - 1 and keep_last)):
            out.append(part)
            node = node.get(part)
    return out


def format_loc(path: Iterable[str | int], data: Any = None) -> str:
    """`["events", 3, "start"]` as `events[3] (id 'x').start`, naming a table's row by its id, key or email."""
    parts = list(path)
    out = ""
    node = data
    for index, part in enumerate(parts):
        if isinstance(part, int):
            out += f"[{part}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
            following = parts[index + 1] if index + 1 < len(parts) else None
            if isinstance(node, dict) and index == 1:  # a row of a table: name it
                name = next((k for k in ROW_NAMES if isinstance(node.get(k), str | int)), None)
                if name and name != following:
                    out += f" ({name} {node[name]!r})"
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or "(root)"


@dataclass(frozen=True)
class ToolHints:
    """What a tool tells clients about itself: MCP's tool annotations, field for field (`servers.core.mcp`
    publishes them as such), kept here as plain data so that describing an app needs no MCP import."""

    title: str | None
    read_only_hint: bool
    destructive_hint: bool | None
    idempotent_hint: bool | None
    open_world_hint: bool


@dataclass(frozen=True)
class ToolDef:
    """One registered tool: its function, name, title and hints."""

    fn: Callable[..., Any]
    name: str
    title: str | None
    annotations: ToolHints

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.fn.__doc__ or "")


class Toolset:
    """The tools of one app, registered with `@tools.tool(...)`.

    A tool is a plain function whose first parameter is the `Sandbox`; the
    rest are its typed arguments, its return type is its output schema and
    its docstring is the description the model reads.
    """

    def __init__(self) -> None:
        self.tools: dict[str, ToolDef] = {}

    def tool(
        self,
        *,
        read_only: bool = False,
        destructive: bool = False,
        idempotent: bool = False,
        title: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as a tool, with its MCP hints; the function must have a docstring."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            if not fn.__doc__:
                raise TypeError(f"tool {fn.__name__} needs a docstring: it is the description the model reads")
            annotations = ToolHints(
                title=title,
                read_only_hint=read_only,
                destructive_hint=None if read_only else destructive,
                idempotent_hint=None if read_only else idempotent,
                open_world_hint=False,
            )
            self.tools[fn.__name__] = ToolDef(fn=fn, name=fn.__name__, title=title, annotations=annotations)
            return fn

        return register


class App:
    """One simulated application.

    `load_seed(sandbox, seed)` writes a validated seed into a new `servers.core.sandbox.Sandbox` (typed loosely
    here: the sandbox module builds on this one, not the other way round). `load_more(sandbox, seed)`, when the app
    has one, writes more validated seed rows (a world event's) into a copy of a sandbox's seeded state, as
    `load_seed` would have written them listed after the seed's own, and returns True; False when those rows would
    change how the seed's own rows load (`servers.core.world` then loads the seed with them whole).
    """

    def __init__(
        self,
        name: str,
        *,
        title: str,
        instructions: str,
        schema: str,
        seed_model: type[BaseModel],
        load_seed: Callable[[Any, Any], None],
        tools: Toolset,
        harm: HarmModel | None = None,
        load_more: Callable[[Any, Any], bool] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.instructions = instructions
        self.schema = schema
        self.seed_model = seed_model
        self.load_seed = load_seed
        self.load_more = load_more
        self.tools = tools
        conn = sqlite3.connect(":memory:")
        conn.executescript(schema)
        self.tables: dict[str, Table] = read_schema(conn)
        conn.close()
        self.change_triggers = "".join(table.change_triggers() for table in self.tables.values())
        """SQL installing the triggers that log every row change of the app's tables into `_changes`."""
        self.undo_schema = "".join(table.undo_schema() for table in self.tables.values())
        """SQL creating the undo tables an in-memory sandbox is rolled back with (`Sandbox.restore_seeded`)."""
        self.harm = harm if harm is not None else HarmModel()
        """Which row changes expose data, destroy it, or are housekeeping (see `servers.core.harm`)."""
        self.harm.check({name: table.columns for name, table in self.tables.items()})
        self.harm.keys = {name: table.key for name, table in self.tables.items()}

    def validate_seed(self, data: Any) -> BaseModel:
        """The seed as the app's seed model, or a `SeedError` naming each offending field.

        The seed model alone cannot see what only loading shows (a reference to a row that is not in the seed,
        a duplicate id): `servers.core.sandbox.check_seed` loads it into a throwaway sandbox too.
        """
        try:
            return self.seed_model.model_validate(data or {})
        except ValidationError as error:
            raise SeedError.from_validation(self.name, error, data) from None

    def __repr__(self) -> str:
        return f"App({self.name!r}, tables={list(self.tables)}, tools={len(self.tools.tools)})"
