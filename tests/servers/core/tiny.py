"""A deliberately small app, to test the core without any real app's rules."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from servers.core import App, Sandbox, ToolError, Toolset

tools = Toolset()


class Note(BaseModel):
    id: str
    text: str
    tags: list[str]
    pinned: bool


class Notes(BaseModel):
    notes: list[Note]


@tools.tool(read_only=True)
def list_notes(sb: Sandbox) -> Notes:
    """List every note."""
    return Notes(notes=[Note.model_validate(r) for r in sb.select("notes")])


@tools.tool()
def add_note(sb: Sandbox, text: str, tags: list[str] = [], fail_after_write: bool = False) -> Note:  # noqa: B006
    """Add a note; with fail_after_write the note is written and then the call fails."""
    row = sb.insert("notes", {"id": sb.new_id("note"), "text": text, "tags": tags, "pinned": False})
    if fail_after_write:
        raise ToolError("failed after writing")
    return Note.model_validate(row)


class NoteSeed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    tags: list[str] = Field(default_factory=list)
    pinned: bool = False


class Seed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    notes: list[NoteSeed] = Field(default_factory=list)


def load(sb: Sandbox, seed: Seed) -> None:
    for note in seed.notes:
        sb.insert("notes", {"id": sb.new_id("note"), **note.model_dump()})


APP = App(
    "tiny",
    title="Tiny notes",
    instructions="Notes for core tests.",
    schema="CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, tags JSON NOT NULL, pinned BOOLEAN NOT NULL);",
    seed_model=Seed,
    load_seed=load,
    tools=tools,
)
