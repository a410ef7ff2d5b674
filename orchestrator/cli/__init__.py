"""`orchestrator`: run, serve, validate and inspect ClawGym scenarios.

The Typer app and `main` (the `orchestrator` script) live here; the commands live by group, each a thin layer over
the package that does the work:

- `authoring`: show, list, generate, inject, validate.
- `running`: run (one scenario, K episodes, or a suite); `retrying`: retry (a run's errored episodes again);
  `agent`: `--agent` and its options as an agent maker; `dotenv`: `./.env` read before a command runs.
- `serving`: serve (one episode to an MCP client, the serve loop) and serve-env (an OpenEnv environment).
- `records`: export, verify-digest, view, report; `tasks`: export-tasks (the task set as a Hugging Face
  dataset) and tasks get (a released task's scenario file by id).
- `ops`: config claude-desktop, down.
- `options`: option types several commands share; `common`: consoles, usage errors (exit 2), loaders.

At module level these import only typer and rich, so `orchestrator --help` loads no MCP SDK, Ray, vendor SDK,
Docker client, Faker or web server: each command imports what it needs when it runs.

May import: `scenario`, `show`, `generate`, `prove`, `backends`, `run`, `episode`, `record`, `export`, `view`, `env`, `world`, `verify`, `agents`, `integrations`, `cluster`.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from orchestrator.cli import authoring, ops, records, retrying, running, serving, tasks
from orchestrator.cli.common import err

app = typer.Typer(
    name="orchestrator",
    help="Run agents against ClawGym scenarios, serve scenarios to MCP clients, and validate scenarios.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
config_app = typer.Typer(
    help="Print MCP client configuration for a scenario.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"clawgym {version('clawgym')}")
        except PackageNotFoundError:  # run from a checkout that was not installed
            from servers import __version__

            typer.echo(f"clawgym {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Run agents against ClawGym scenarios, serve scenarios to MCP clients, and validate scenarios."""


def help_text(doc: str | None) -> str | None:
    """A command's docstring as its help: each paragraph on one line, for rich to wrap at the console's width (typer
    keeps the docstring's own line breaks, which break lines mid-sentence); a paragraph that starts with click's
    `\\b` keeps its lines."""
    if doc is None:
        return None
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(
        p if p.startswith("\b") else " ".join(line.strip() for line in p.splitlines()) for p in paragraphs
    )


def _command(group: typer.Typer, name: str, fn: Callable[..., Any]) -> None:
    group.command(name, help=help_text(fn.__doc__))(fn)


# In the order `orchestrator --help` lists them.
_command(app, "show", authoring.show_command)
_command(app, "list", authoring.list_command)
_command(app, "generate", authoring.generate_command)
_command(app, "inject", authoring.inject_command)
_command(app, "validate", authoring.validate_command)
_command(app, "run", running.run_command)
_command(app, "retry", retrying.retry_command)
_command(app, "serve", serving.serve_command)
app.add_typer(config_app, name="config")
_command(config_app, "claude-desktop", ops.claude_desktop_config)
_command(app, "export", records.export_command)
_command(app, "verify-digest", records.verify_digest_command)
_command(app, "view", records.view_command)
_command(app, "report", records.report_command)
_command(app, "export-tasks", tasks.export_tasks_command)
app.add_typer(tasks.tasks_app, name="tasks")
_command(tasks.tasks_app, "get", tasks.get_command)
_command(app, "serve-env", serving.serve_env_command)
_command(app, "down", ops.down_command)


def _wide_piped_help(args: list[str]) -> None:
    """Help piped to a file or a pager is laid out 120 columns wide, not rich's 80 that cuts option names with '…';
    COLUMNS or TERMINAL_WIDTH, when set, still decide, and a terminal's own width is kept. Only a command line that
    shows help sets it (-h, --help, or a bare command or group): typer's help layer imports rich's Markdown and
    pygments, 60 to 150 ms that a run would otherwise pay before it starts anything."""
    import os

    if not ({"-h", "--help"} & set(args) or len(args) <= 1):
        return
    if not sys.stdout.isatty() and not os.environ.get("COLUMNS") and not os.environ.get("TERMINAL_WIDTH"):
        from typer import rich_utils

        rich_utils.MAX_WIDTH = 120


def main() -> None:
    """The `orchestrator` and `clawgym` scripts: run the app; Ctrl-C outside a command's own handling exits 130.
    The process then leaves as `leave` does."""
    _wide_piped_help(sys.argv[1:])
    code: object = 0
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        code = 130
    except SystemExit as exc:
        code = exc.code
    leave(code)


def leave(code: object) -> NoReturn:
    """Exit with `code` as `sys.exit(code)` would (None is 0; a message is printed and is 1), the exit handlers run
    (logging's, temporary folders', multiprocessing's) and the output flushed, but without tearing the interpreter
    down: freeing every module and object a run loaded takes about a quarter of a second that a command line only
    waits for. With another thread still running, the interpreter exits as usual (it waits for that thread)."""
    if any(t is not threading.main_thread() and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)  # type: ignore[arg-type]  # sys.exit takes any object: another is printed, status 1
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


__all__ = ["app", "leave", "main"]
