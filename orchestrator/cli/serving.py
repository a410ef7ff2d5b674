"""`orchestrator serve` (one episode's gateway to an MCP client over stdio or HTTP, verified when stopped) and
`orchestrator serve-env` (scenarios as an OpenEnv environment).

The episode is wired by the episode driver (`orchestrator.episode.driver`) as every episode is, its transports are
`orchestrator.episode.serving`'s and closing it is `EpisodeDriver.finish`; the serve loop here starts the apps,
serves until the client, a signal or the end of stdin stops it, and writes the episode's record.
Over HTTP the gateway answers only under its secret (`/SECRET/mcp`): a random one unless `--secret` gives it.
"""

from __future__ import annotations

import re
import secrets
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import anyio
import typer

from orchestrator.cli.common import backend_or_exit, err, fail_usage, judge_or_exit, load_or_exit
from orchestrator.cli.options import BackendOption, JudgeOption, NoiseOption, output_folder

SECRET_ENV = "CLAWGYM_GATEWAY_SECRET"
SECRET_FORM = re.compile(r"[A-Za-z0-9_-]{16,128}")

if TYPE_CHECKING:
    from orchestrator.backends import Backend
    from orchestrator.episode.driver import EpisodeDriver
    from orchestrator.scenario import Scenario
    from orchestrator.verify.judge import Judge
    from orchestrator.verify.results import Result


def serve_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    transport: Annotated[
        str, typer.Option("--transport", help="stdio (what Claude Desktop launches) or http.")
    ] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port (0 picks a free one).")] = 8765,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", help="Extra Host name accepted over HTTP (e.g. a compose service name)."),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Parent folder: each served episode gets its own ID-TIME folder in it, and DIR/latest points at the newest.",
            callback=output_folder,
        ),
    ] = Path("runs"),
    secret: Annotated[
        str | None,
        typer.Option(
            "--secret",
            envvar=SECRET_ENV,
            help="Over HTTP: the secret in the MCP URL (http://HOST:PORT/SECRET/mcp) without which a request is "
            f"refused (404); default a new random one, printed with the URL. Also ${SECRET_ENV}.",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Episode seed.")] = 0,
    noise: NoiseOption = "none",
    backend: BackendOption = "local",
    judge: JudgeOption = None,
) -> None:
    """Seed a scenario and serve its gateway to an MCP client until stopped; then verify and write the results.

    Serving ends at the end of stdin (stdio), on Ctrl-C or on SIGTERM. Over stdio nothing but protocol goes to stdout."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.base import first_error
    from orchestrator.episode.serving import ServeError, episode_folder, listen
    from orchestrator.show import render_result
    from orchestrator.world.noise import noisy

    if transport not in ("stdio", "http"):
        raise fail_usage(f"--transport must be stdio or http, not {transport!r}")
    if secret is not None and not SECRET_FORM.fullmatch(secret):
        raise fail_usage(
            f"--secret (or ${SECRET_ENV}): at least 16 letters, digits, '-' or '_', or leave it out for a random one"
        )
    the_judge = judge_or_exit(judge)
    loaded = noisy(load_or_exit(scenario), noise, seed)
    if transport == "http":
        try:
            listen(host, port).close()  # fail before starting any app server
        except ServeError as exc:
            raise fail_usage(str(exc)) from None
    if backend == "ray":
        raise fail_usage(
            "--backend ray runs whole episodes on a Ray cluster (orchestrator run); serve needs local, inprocess, docker or remote"
        )
    backend_impl = backend_or_exit(backend, None)  # a misconfigured backend fails before any folder is made
    folder = episode_folder(out, loaded.id)
    if hasattr(backend_impl, "log_dir"):
        backend_impl.log_dir = folder / "logs"
    how = Serving(transport, host, port, allowed_host, secret or secrets.token_urlsafe(18))
    try:
        result = anyio.run(lambda: serve_episode(loaded, backend_impl, folder, how, seed=seed, judge=the_judge))
    except (BackendError, ServeError) as exc:
        raise fail_usage(str(exc)) from None
    except BaseExceptionGroup as group:
        problem = first_error(group)
        if isinstance(problem, (BackendError, ServeError)):
            raise fail_usage(str(problem)) from None
        raise
    render_result(err, result)
    err.print(f"results: {folder / 'results.json'}  trace: {folder / 'trace.jsonl'}")
    raise typer.Exit(0 if result.passed else 1)


@dataclass
class Serving:
    """How an episode's gateway is served: `stdio`, or `http` on HOST:PORT accepting the extra Host names given."""

    transport: str
    host: str = "127.0.0.1"
    port: int = 8765
    allowed_hosts: list[str] | None = None
    secret: str | None = None
    """Over HTTP, the capability in the MCP URL's path: another local process that finds the port cannot use it."""


async def serve_episode(
    scenario: Scenario, backend: Backend, folder: Path, how: Serving, *, seed: int, judge: Judge | None
) -> Result:
    """One served episode, wired by the episode driver: start the apps, serve the gateway until stopped (the agent's
    stage), then close the episode (`finish`: verify, judge) and write its folder. The record says who served it and
    what stopped it."""
    from orchestrator.episode.driver import EpisodeDriver

    async with backend, EpisodeDriver(scenario, backend, rng_seed=seed, workdir=folder, judge=judge) as driver:
        await driver.prepare()
        stopped_by = (await driver.run_agent(lambda: serve_until_stopped(driver, how))).value
        # A client that closed stdin may follow up with SIGTERM: finish the record first.
        for stop in (signal.SIGINT, signal.SIGTERM):
            signal.signal(stop, signal.SIG_IGN)
        result, _ = await driver.finish(trace=True)
        result.episode.update(
            {"agent": {"agent": f"served over {how.transport}"}, "backend": backend.name, "stopped_by": stopped_by}
        )
        driver.record(folder, result)
    return result


async def serve_until_stopped(driver: EpisodeDriver, how: Serving) -> str | None:
    """Serve the episode's gateway until the end of stdin (stdio), SIGINT or SIGTERM; what stopped it (None: an HTTP
    server that ended by itself)."""
    from orchestrator.episode.serving import serve_stdio

    assert driver.episode is not None and driver.episode.gateway is not None
    gateway = driver.episode.gateway
    name = driver.scenario.id
    stopped_by = "end of stdin" if how.transport == "stdio" else None
    async with anyio.create_task_group() as tg:

        async def stop_on_signal() -> None:
            nonlocal stopped_by
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for received in signals:
                    stopped_by = signal.Signals(received).name
                    err.print(f"{stopped_by}: stopping and verifying")
                    tg.cancel_scope.cancel()
                    return

        async def serve() -> None:
            http = how.transport == "http"
            async with driver.connect(
                http=http, host=how.host, port=how.port, allowed_hosts=how.allowed_hosts, secret=how.secret
            ) as url:
                if not http:
                    err.print(f"serving {name} over stdio", highlight=False)
                    await serve_stdio(gateway)
                else:
                    err.print(f"serving {name} at {url} (Ctrl-C to stop and verify)", highlight=False)
                    await anyio.sleep_forever()
            tg.cancel_scope.cancel()

        tg.start_soon(stop_on_signal)
        tg.start_soon(serve)
    return stopped_by


def serve_env_command(
    scenario_paths: Annotated[
        list[Path], typer.Argument(metavar="SCENARIO|DIR...", help="Scenario files or folders of them.")
    ],
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port on 127.0.0.1.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="Address to bind (loopback by default).")] = "127.0.0.1",
    backend: Annotated[str, typer.Option("--backend", help="inprocess, local, docker or remote.")] = "inprocess",
    step_rewards: Annotated[
        bool, typer.Option("--step-rewards", help="Declared per-step rewards (docs/rewards.md).")
    ] = False,
    max_sessions: Annotated[
        int, typer.Option("--max-sessions", min=1, help="Concurrent sessions, each its own episode.")
    ] = 16,
    idle_timeout: Annotated[
        float,
        typer.Option("--idle-timeout", min=0.001, help="Seconds before an idle session (and its episode) is closed."),
    ] = 600.0,
    token: Annotated[
        str | None,
        typer.Option("--token", help="The token clients need (default: a new random one, printed in the URL shown)."),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", help="Extra Host name accepted (a name clients reach a non-loopback bind by)."),
    ] = None,
) -> None:
    """Serve scenarios as an OpenEnv environment (HTTP/WebSocket reset, step, state; tools over MCP). Needs the openenv extra.

    Clients need the token: give them the base URL printed (http://HOST:PORT/t/TOKEN)."""
    from orchestrator.env.errors import EnvError

    try:
        from orchestrator.env.openenv import serve
    except ImportError as exc:
        raise fail_usage(str(exc)) from None
    if token is not None and len(token) < 16:
        raise fail_usage("--token: at least 16 characters, or leave it out for a random one")
    try:
        serve(
            scenario_paths,
            host=host,
            port=port,
            backend=backend,
            step_rewards=step_rewards,
            max_sessions=max_sessions,
            idle_timeout_s=idle_timeout,
            token=token,
            extra_hosts=allowed_host or (),
            say=lambda line: err.print(line, highlight=False, markup=False),
        )
    except EnvError as exc:
        raise fail_usage(str(exc)) from None
