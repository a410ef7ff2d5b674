"""Training data out of run folders: `orchestrator export RUNS... --format openai|anthropic|sharegpt --out FILE.jsonl`.

One JSON line per episode, in path order: the tools, the conversation in the chosen format, and the
scenario id, seed, status, score, pass and stage scores (for SFT; prompt + reward for RL). An episode of a
model agent brings its own `messages.json`; any other episode (`cmd:`, oracle) is turned into a conversation
from its trace (`orchestrator.agents.models.convert.trace_messages`), with the tools of the apps it used.
Errored episodes (`error`, `agent_error`, `interrupted`: `orchestrator.record.is_errored`) are left out unless
asked for (`include_errored`): their conversation was cut short by something that is not the model's doing, and
their score says nothing of the task. Run folders are found and read through `orchestrator.record`, as the viewer reads them:
the same folders are episodes, and a trace line that does not parse costs that line only (counted in `bad_lines`).

May import: `record`, `agents.models.convert`, `episode.gateway` and `servers`; never `run` or the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from orchestrator.agents.models.convert import (
    anthropic_to_openai,
    anthropic_tools,
    anthropic_tools_to_openai,
    openai_to_anthropic,
    openai_to_sharegpt,
    openai_tools,
    openai_tools_to_anthropic,
    trace_messages,
)
from orchestrator.record import EPISODE, MESSAGES, RESULTS, find_records, is_errored, read_json, read_trace

FORMATS = ("openai", "anthropic", "sharegpt")


class ExportError(ValueError):
    """Bad input to `export`: a path that does not exist, a folder with no runs, an unknown format."""


def find_episodes(paths: Iterable[Path]) -> list[Path]:
    """Every episode folder under `paths` (a folder whose results.json is one episode's verdict, `record.kind_of`),
    sorted by path."""
    found: set[Path] = set()
    for path in paths:
        if not path.exists():
            raise ExportError(f"{path}: no such file or folder")
        episodes = {f.folder.resolve() for f in find_records(path) if f.kind == EPISODE}
        if not episodes:
            raise ExportError(
                f"{path}: holds no runs (no {RESULTS} of an episode in it; run `orchestrator run ... --out {path}` first)"
            )
        found |= episodes
    return sorted(found, key=str)


_TOOLS: dict[str, list[dict[str, Any]]] = {}


def app_tools(apps: Iterable[str]) -> list[dict[str, Any]]:
    """The tools of `apps` as the gateway names them (`app__tool`), as MCP tools/list entries."""
    import anyio
    from mcp import Client

    from orchestrator.episode.gateway import gateway_name
    from servers import registry
    from servers.core import SandboxSpec, SandboxStore, build_mcp_server

    async def listed(app: str) -> list[dict[str, Any]]:
        store = SandboxStore(registry.load(app))
        store.create("default", SandboxSpec(seed={}))
        try:
            async with Client(build_mcp_server(registry.load(app), store)) as client:
                tools = (await client.list_tools()).tools
        finally:
            store.close()
        return [
            {"name": gateway_name(app, t.name), "description": t.description or "", "inputSchema": t.input_schema}
            for t in tools
        ]

    out: list[dict[str, Any]] = []
    for app in sorted(set(apps)):
        if app not in _TOOLS:
            try:
                _TOOLS[app] = anyio.run(listed, app)
            except Exception:  # an app this checkout does not have: its tools stay unknown
                _TOOLS[app] = []
        out += _TOOLS[app]
    return out


def conversation(
    folder: Path, results: dict[str, Any]
) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
    """(source, OpenAI-format messages, OpenAI-format tools, model) of one episode."""
    path = folder / MESSAGES
    if path.exists():
        try:
            data = json.loads(path.read_text())
        except ValueError as exc:
            raise ExportError(f"{path}: not valid JSON ({exc})") from None
        if isinstance(data, dict) and data.get("api") == "anthropic":
            return (
                MESSAGES,
                anthropic_to_openai(data.get("system"), data["messages"]),
                anthropic_tools_to_openai(data.get("tools") or []),
                data.get("model"),
            )
        if isinstance(data, dict) and data.get("api") == "openai":
            return MESSAGES, data["messages"], data.get("tools") or [], data.get("model")
    trace = read_trace(folder).entries
    apps = {str(e["source"])[4:] for e in trace if str(e.get("source", "")).startswith("app:")}
    apps |= {
        str((e.get("params") or {}).get("name", "")).split("__")[0] for e in trace if e.get("method") == "tools/call"
    }
    apps.discard("")
    instruction = str((results.get("episode") or {}).get("instruction") or "")
    tools = openai_tools(app_tools(apps), strict=True)
    return "trace", trace_messages(trace, instruction), tools, None


def record(folder: Path, results: dict[str, Any], fmt: str, root: Path | None = None) -> dict[str, Any]:
    """One episode's line of the export in format `fmt`: its verdict's numbers and its conversation."""
    source, messages, tools, model = conversation(folder, results)
    episode = results.get("episode") or {}
    agent = episode.get("agent") or {}
    line: dict[str, Any] = {
        "scenario": results.get("scenario"),
        "seed": episode.get("rng_seed"),
        "agent": agent.get("agent"),
        "model": model,
        "status": results.get("status"),
        "passed": results.get("passed"),
        "score": results.get("score"),
        "stages": [
            {"name": s.get("name"), "weight": s.get("weight"), "score": s.get("score"), "scored": s.get("scored", True)}
            for s in results.get("stages") or []
        ],
        "source": source,
        "folder": str(folder.relative_to(root)) if root and folder.is_relative_to(root) else str(folder),
    }
    if fmt == "openai":
        line |= {"tools": tools, "messages": messages}
    elif fmt == "anthropic":
        system, converted = openai_to_anthropic(messages)
        line |= {"tools": openai_tools_to_anthropic(tools), "system": system, "messages": converted}
    else:
        system, conversations = openai_to_sharegpt(messages)
        sharegpt_tools = [{"name": t["function"]["name"], "description": t["function"].get("description", ""),
                           "parameters": t["function"].get("parameters")} for t in tools]  # fmt: skip
        line |= {
            "system": system,
            "tools": json.dumps(sharegpt_tools, ensure_ascii=False),
            "conversations": conversations,
        }
    return line


def export(
    paths: list[Path],
    fmt: str,
    out: Path,
    *,
    passed_only: bool = False,
    min_score: float | None = None,
    include_errored: bool = False,
) -> dict[str, int]:
    """Write one line per episode under `paths` to `out`; returns counts: episodes found, written, left out by the
    filters, errored ones left out (`errors`; kept with `include_errored`), and trace lines skipped because they did
    not parse (`bad_lines`)."""
    if fmt not in FORMATS:
        raise ExportError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    folders = find_episodes(paths)
    root = Path.cwd().resolve()
    counts = {"episodes": len(folders), "written": 0, "filtered": 0, "errors": 0, "bad_lines": 0}
    lines = []
    for folder in folders:
        results = read_json(folder / RESULTS)
        if is_errored(results.get("status")) and not include_errored:
            counts["errors"] += 1
            continue
        if (passed_only and not results.get("passed")) or (
            min_score is not None and float(results.get("score") or 0) < min_score
        ):
            counts["filtered"] += 1
            continue
        line = record(folder, results, fmt, root)
        lines.append(json.dumps(line, ensure_ascii=False))
        counts["written"] += 1
        if line["source"] == "trace":
            counts["bad_lines"] += read_trace(folder).skipped
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(line + "\n" for line in lines))
    return counts


__all__ = ["FORMATS", "ExportError", "anthropic_tools", "export", "find_episodes", "record"]
