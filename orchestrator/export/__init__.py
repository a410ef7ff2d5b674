"""Training data out of run folders: `orchestrator export RUNS... --format openai|anthropic|sharegpt --out FILE.jsonl`.

One JSON line per episode, in path order: the tools, the conversation in the chosen format, and the
scenario id, seed, status, score, pass and stage scores (for SFT; prompt + reward for RL). An episode of a
model agent brings its own `messages.json`; any other episode (`cmd:`, oracle) is turned into a conversation
from its trace (`orchestrator.agents.models.convert.trace_messages`), with the tools of the apps it used.
Errored episodes (`error`, `agent_error`, `interrupted`: `orchestrator.record.is_errored`) are left out unless
asked for (`include_errored`): their conversation was cut short by something that is not the model's doing, and
their score says nothing of the task. Run folders are found and read through `orchestrator.record`, as the viewer reads them:
the same folders are episodes, and a trace line that does not parse costs that line only (counted in `bad_lines`).

A malformed folder costs that folder only, and says so (`skipped`, and `on_skip(path, why)` as it is met): a
results.json that is not JSON or not a run's record, an episode folder with no results.json (a run stopped before
writing its verdict), a messages.json that does not read as a conversation, a trace or messages file that is not
a regular file (a FIFO would block), fields of the wrong type.

May import: `record`, `agents.models.convert`, `episode.gateway` and `servers`; never `run` or the CLI.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
from orchestrator.record import (
    EPISODE,
    MESSAGES,
    RESULTS,
    TRACE,
    find_records,
    is_errored,
    loads,
    read_json,
    read_trace,
    run_folders,
)

FORMATS = ("openai", "anthropic", "sharegpt")


class ExportError(ValueError):
    """Bad input to `export`: a path that does not exist, a folder with no runs, an unknown format."""


@dataclass
class Found:
    """What `scan` found under the paths given: the episode folders, sorted, and what it skipped with why."""

    episodes: list[Path] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)


def _not_a_record(data: Any) -> str:
    """Why a results.json that `record.kind_of` does not know is not exported."""
    if data is None:
        return f"{RESULTS} does not read as JSON (cut short, not UTF-8 JSON, unreadable, or nested too deeply)"
    if not isinstance(data, dict):
        return f"{RESULTS} holds a JSON {type(data).__name__}, not a run's record"
    return f"{RESULTS} is not a ClawGym run record (no kind, and none of a verdict's fields)"


def _regular(path: Path) -> bool | None:
    """True: a regular file; False: something else is there (a folder, FIFO, device); None: nothing is."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return None


def scan(paths: Iterable[Path]) -> Found:
    """Every episode folder under `paths` (a folder whose results.json is one episode's verdict, `record.kind_of`),
    sorted by path; results.json files that are not run records and episode folders without one are skipped, with
    why. A path that does not exist, or holds no episode, is an ExportError naming what was skipped in it."""
    found, episodes = Found(), set()
    for path in paths:
        if not path.exists():
            raise ExportError(f"{path}: no such file or folder")
        here = {f.folder.resolve() for f in find_records(path) if f.kind == EPISODE}
        skipped = [(f.path, _not_a_record(f.data)) for f in find_records(path) if f.kind is None]
        for folder in run_folders(path) if path.is_dir() else []:
            results = _regular(folder / RESULTS)
            if results is False:
                skipped.append((folder / RESULTS, f"{RESULTS} is not a regular file (a folder, FIFO or device)"))
            elif results is None and (_regular(folder / TRACE) is not None or _regular(folder / MESSAGES) is not None):
                skipped.append(
                    (
                        folder,
                        f"an episode folder without {RESULTS} (its run stopped before writing the "
                        "verdict): nothing to score it by",
                    )
                )
        if not here:
            why = "; ".join(f"{where}: {reason}" for where, reason in skipped[:5])
            raise ExportError(
                f"{path}: holds no runs (no {RESULTS} of an episode in it; run `orchestrator run ... --out {path}` first)"
                + (f"; skipped {why}" if why else "")
            )
        episodes |= here
        found.skipped += skipped
    found.episodes = sorted(episodes, key=str)
    return found


def find_episodes(paths: Iterable[Path]) -> list[Path]:
    """Every episode folder under `paths`, sorted by path (`scan`'s episodes)."""
    return scan(paths).episodes


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
    kind = _regular(path)
    if kind is False:
        raise ExportError(f"{MESSAGES} is not a regular file (a folder, FIFO or device): not read")
    if kind:
        try:
            data = loads(path.read_text(encoding="utf-8", errors="replace"))
        except ValueError as exc:
            raise ExportError(f"{MESSAGES} is not valid JSON ({exc})") from None
        api = data.get("api") if isinstance(data, dict) else None
        if api in ("anthropic", "openai"):
            messages, tools = data.get("messages"), data.get("tools") or []
            if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
                raise ExportError(f"{MESSAGES} ({api}) has no list of messages")
            if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
                raise ExportError(f"{MESSAGES} ({api}): its tools are not a list of tools")
            model = data.get("model") if isinstance(data.get("model"), str) else None
            if api == "anthropic":
                return (
                    MESSAGES,
                    anthropic_to_openai(data.get("system"), messages),
                    anthropic_tools_to_openai(tools),
                    model,
                )
            return MESSAGES, messages, tools, model
    if _regular(folder / TRACE) is False:
        raise ExportError(f"{TRACE} is not a regular file (a folder, FIFO or device): not read")
    trace = read_trace(folder).entries
    apps = {str(e["source"])[4:] for e in trace if str(e.get("source", "")).startswith("app:")}
    apps |= {
        str((e.get("params") or {}).get("name", "")).split("__")[0] for e in trace if e.get("method") == "tools/call"
    }
    apps.discard("")
    instruction = str(_mapping(results.get("episode")).get("instruction") or "")
    tools = openai_tools(app_tools(apps), strict=True)
    return "trace", trace_messages(trace, instruction), tools, None


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def record(folder: Path, results: dict[str, Any], fmt: str, root: Path | None = None) -> dict[str, Any]:
    """One episode's line of the export in format `fmt`: its verdict's numbers and its conversation."""
    source, messages, tools, model = conversation(folder, results)
    episode = _mapping(results.get("episode"))
    agent = _mapping(episode.get("agent"))
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
            if isinstance(s, dict)
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
        sharegpt_tools = [
            {
                "name": t["function"]["name"],
                "description": t["function"].get("description", ""),
                "parameters": t["function"].get("parameters"),
            }
            for t in tools
        ]
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
    on_skip: Callable[[Path, str], None] | None = None,
) -> dict[str, int]:
    """Write one line per episode under `paths` to `out`; returns counts: episodes found, written, left out by the
    filters, errored ones left out (`errors`; kept with `include_errored`), malformed folders and files skipped
    (`skipped`, each given to `on_skip(path, why)`), and trace lines skipped because they did not parse
    (`bad_lines`)."""
    if fmt not in FORMATS:
        raise ExportError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    found = scan(paths)
    root = Path.cwd().resolve()
    counts = {"episodes": len(found.episodes), "written": 0, "filtered": 0, "errors": 0, "skipped": 0, "bad_lines": 0}

    def skip(where: Path, why: str) -> None:
        counts["skipped"] += 1
        if on_skip is not None:
            on_skip(where, why)

    for where, why in found.skipped:
        skip(where, why)
    lines = []
    for folder in found.episodes:
        results = read_json(folder / RESULTS)
        if not isinstance(results, dict):  # rewritten since it was found
            skip(folder, _not_a_record(results))
            continue
        if is_errored(results.get("status")) and not include_errored:
            counts["errors"] += 1
            continue
        score = results.get("score")
        if min_score is not None and not isinstance(score, int | float | None):
            skip(folder, f"its score is {score!r}, not a number, so --min-score cannot judge it")
            continue
        if (passed_only and results.get("passed") is not True) or (
            min_score is not None and float(score or 0) < min_score
        ):
            counts["filtered"] += 1
            continue
        try:
            line = record(folder, results, fmt, root)
            text = json.dumps(line, ensure_ascii=False)
        except ExportError as exc:
            skip(folder, str(exc))
            continue
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
            skip(folder, f"its record does not read as one episode's ({type(exc).__name__}: {exc})")
            continue
        lines.append(text)
        counts["written"] += 1
        if line["source"] == "trace":
            counts["bad_lines"] += read_trace(folder).skipped
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(line + "\n" for line in lines))
    return counts


__all__ = ["FORMATS", "ExportError", "anthropic_tools", "export", "find_episodes", "record"]
