"""`orchestrator run scenarios/ --backend inprocess` beside the warm MCP SDK floor, interleaved in one run.

    python benchmarks/bench_floor.py [--rounds N] [--repeat K] [--parallel P] [--scenarios DIR] [--before DIR]
                                     [--release-rows N] [--release-folder DIR]

Prints, for the library (every scenario of `scenarios/`, `--repeat K` episodes each, `--parallel P` at once):

- `orchestrator run` as a user runs it (the real command, a process of its own): episodes per second and CPU ms
  per episode of its whole process tree in the episode window (from its first `starting` line to its exit, the
  worker processes included), with `--workers 1` and with its default (one worker per core); and the whole
  command's wall time (start-up and loading included);
- the floor: the MCP SDK's own in-memory client (`mcp.Client` on each app's `MCPServer`, sessions opened once
  and kept warm) replaying the same reference solutions directly against the apps: seed each app's sandbox, the
  calls, a snapshot of the final state, delete. No gateway, no verdict, no files. In one process, and in one
  process per core;
- the ratios: ClawGym's rate over the floor's, one process against one process and all cores against all cores;
- the release's own tasks (`--release-rows N`, default 200; 0: none): a fixed sample of release v2's rows in its
  size mix (`release_sample`: drawn once with a fixed seed, each row's scenario generated once into a cache folder and
  checked against the row's content hash), `orchestrator run --workers 1` on each size's folder in the same rounds:
  CPU ms per episode per size (the episode window, and the whole command with loading the scenarios), their mean in
  the sample's mix and the large worlds' figure, beside the library's and the two floors;
- with `--before DIR` (another checkout, such as a `git worktree` of an older commit): that checkout's
  `orchestrator run` in the same rounds, with its default and, if it has `--workers`, with `--workers 1`; and the
  release sample's sizes run by that checkout too, beside this one's;
- the CPU seconds to load the sample's largest scenario file (`scenario.load`, in a process of its own), this
  checkout's and the one `--before` names, in the same rounds;
- `--release-only`: the release sample alone (no library, no floors).

The rounds are interleaved (floor, ClawGym, floor, ...) and the medians printed: the machine is shared and noisy,
so only figures from the same run compare. Every ClawGym episode must pass (else the benchmark stops).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from windows import run_window  # noqa: E402 - beside this script


def clawgym(scenarios: Path, repeat: int, parallel: int, workers: int | None, tree: Path = ROOT) -> dict[str, Any]:
    """One `orchestrator run` of the library (the checkout `tree`'s): episodes, their window's rate and process-tree
    CPU, the command's (`windows.run_window`)."""
    args = ["run", str(scenarios), "--backend", "inprocess", "--repeat", str(repeat), "--parallel", str(parallel)]
    return run_window(args + (["--workers", str(workers)] if workers is not None else []), tree)


# -- the floor: the SDK's in-memory client straight on the apps ------------------------------------------------


class FloorEpisode:
    """What the oracle agent needs of an episode, served by warm SDK clients on the apps' servers directly; with
    `python`, by the tool bodies called as Python functions on the sandboxes (each call in a transaction, its result
    dumped as the SDK would put it in structured content): no MCP at all, no journal, no middleware."""

    def __init__(
        self, scenario: Any, sandbox_id: str, endpoints: dict[str, Any], clients: dict[str, Any], python: bool = False
    ) -> None:
        self.scenario = scenario
        self.sandbox_id = sandbox_id
        self.endpoints = endpoints
        self.clients = clients
        self.python = python

    def connect(self, *, trusted: bool = False) -> Any:
        import contextlib

        episode = self

        class Direct:
            async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
                from mcp.types import CallToolResult, TextContent

                from servers.core.mcp import bind_sandbox

                app, _, tool = name.partition("__")
                client = episode.clients.get(app)
                if client is None:  # a gateway tool (world__…): there is no gateway here
                    return CallToolResult(content=[TextContent(type="text", text=f"no tool {name}")], is_error=True)
                if episode.python:
                    return python_call(episode.endpoints[app], episode.sandbox_id, tool, arguments)
                with bind_sandbox(episode.sandbox_id):
                    return await client.call_tool(tool, arguments)

        @contextlib.asynccontextmanager
        async def direct() -> Any:
            yield Direct()

        return direct()


def python_call(endpoint: Any, sandbox_id: str, tool: str, arguments: dict[str, Any]) -> Any:
    """The tool's body as a Python function on the sandbox, in a transaction (rolled back when it raises)."""
    from mcp.types import CallToolResult, TextContent
    from pydantic import BaseModel

    sandbox = endpoint.store.get(sandbox_id)
    fn = endpoint.store.app.tools.tools[tool].fn
    try:
        with sandbox.transaction():
            result = fn(sandbox, **arguments)
    except Exception as exc:
        return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)
    structured = result.model_dump(mode="json") if isinstance(result, BaseModel) else {"result": result}
    return CallToolResult(content=[], structured_content=structured)


async def floor(
    scenarios: list[Any], passes: int, parallel: int, start_at: float = 0.0, python: bool = False
) -> dict[str, Any]:
    """The floor over `scenarios`: one pass to warm up, then (from the epoch time `start_at`, so that processes
    measured together start together) `passes` passes, `parallel` episodes at once."""
    import contextlib
    import secrets

    import anyio
    from mcp import Client

    from orchestrator.agents.base import OracleAgent
    from orchestrator.backends.base import trust_results
    from orchestrator.backends.inprocess import InProcessEndpoint

    apps = sorted({app for s in scenarios for app in s.apps})
    endpoints = {app: InProcessEndpoint(app) for app in apps}
    async with contextlib.AsyncExitStack() as stack:
        clients = {app: await stack.enter_async_context(Client(endpoints[app].server)) for app in apps}
        for client in clients.values():
            trust_results(client)  # as the oracle's own trusted client: no second validation of each result

        async def one(scenario: Any, rng_seed: int) -> int:
            sandbox = f"{scenario.id}-{secrets.token_hex(5)}"
            mine = {app: endpoints[app] for app in scenario.apps}
            for app, endpoint in mine.items():
                await endpoint.create_sandbox(sandbox, scenario.sandbox_spec(app, rng_seed), replace=True)
                if app in scenario.faults:
                    await endpoint.set_faults(sandbox, scenario.faults[app])
            report = await OracleAgent().run(FloorEpisode(scenario, sandbox, mine, clients, python))  # type: ignore[arg-type]  # the benchmark's episode has what the oracle reads
            for endpoint in mine.values():
                await endpoint.snapshot(sandbox)
                await endpoint.delete(sandbox)
            return report.tool_calls

        for index, scenario in enumerate(scenarios):
            await one(scenario, index)
        slots = anyio.Semaphore(parallel)
        calls: list[int] = []

        async def run(scenario: Any, rng_seed: int) -> None:
            async with slots:
                calls.append(await one(scenario, rng_seed))

        await anyio.sleep(max(0.0, start_at - time.time()))
        cpu, started, began = time.process_time(), time.perf_counter(), time.time()
        async with anyio.create_task_group() as group:
            for p in range(passes):
                for scenario in scenarios:
                    group.start_soon(run, scenario, p)
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "episodes": len(calls),
        "seconds": took,
        "cpu_s": cpu,
        "calls": sum(calls),
        "began": began,
        "ended": began + took,
    }


def floor_process(
    scenarios_dir: Path, passes: int, parallel: int, processes: int, python: bool = False
) -> dict[str, Any]:
    """The floor in `processes` processes of its own at once (each warmed up, then timed together from the same
    moment): all their episodes over the time from the first one's start to the last one's end."""
    start_at = time.time() + 5.0 + 2.0 * processes  # after every process has imported and warmed up
    command = [
        sys.executable,
        __file__,
        "--floor-only",
        "--scenarios",
        str(scenarios_dir),
        "--repeat",
        str(passes),
        "--parallel",
        str(parallel),
        "--start-at",
        str(start_at),
    ] + (["--python"] if python else [])
    procs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in range(processes)]
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    if any(p.returncode for p in procs):
        raise SystemExit("the floor failed")
    episodes = sum(r["episodes"] for r in results)
    late = [r for r in results if r["began"] > start_at + 0.5]
    if late:
        print(f"  (floor: {len(late)} of {processes} processes were still warming up at the common start)")
    return {
        "episodes": episodes,
        "per_s": episodes / (max(r["ended"] for r in results) - min(r["began"] for r in results)),
        "cpu_ms": sum(r["cpu_s"] for r in results) * 1000 / episodes,
    }


def release_mix(rows: int, folder: Path) -> dict[str, tuple[int, Path]]:
    """The release sample's folders by size, generated once (`release_sample`): size -> (rows, folder)."""
    import release_sample

    picked = release_sample.sample(rows)
    folders = release_sample.scenarios(picked, folder)
    return {size: (len(picked[size]), folders[size]) for size in picked if picked[size]}


def print_release(rows: dict[str, list[dict[str, Any]]], mix: dict[str, tuple[int, Path]], median: Any) -> None:
    """The release sample's figures: per size, the mix's mean, beside the library and the floors."""
    total = sum(n for n, _ in mix.values())
    print(
        f"  release v2 sample: {total} rows ({', '.join(f'{n} {size}' for size, (n, _) in mix.items())}), --workers 1"
    )
    print(f"  {'':36} {'CPU ms/episode':>15} {'with loading':>13}")
    today: dict[str, float] = {}
    for suffix in ("", ", before"):
        if f"release v2 sample, {next(iter(mix))}{suffix}" not in rows:
            continue
        means = {"cpu_ms": 0.0, "command_cpu_ms": 0.0}
        for size, (n, _) in mix.items():
            name = f"release v2 sample, {size}{suffix}"
            for key in means:
                means[key] += median(name, key) * n / total
            print(f"  {name:36} {median(name, 'cpu_ms'):15.1f} {median(name, 'command_cpu_ms'):13.1f}")
        mean_name = f"release v2 sample, mean in its mix{suffix}"
        print(f"  {mean_name:36} {means['cpu_ms']:15.1f} {means['command_cpu_ms']:13.1f}")
        if suffix == "":
            today = dict(means)
        load = f"load the largest scenario{suffix}"
        if load in rows:
            print(f"  {load:36} {median(load, 'load_s') * 1000:15.1f} (CPU ms, scenario.load in a process of its own)")
    means = today
    if "orchestrator run --workers 1" not in rows:  # --release-only
        return
    library, sdk = median("orchestrator run --workers 1", "cpu_ms"), median("floor, 1 process", "cpu_ms")
    python = median("Python-function floor, 1 process", "cpu_ms")
    large = median("release v2 sample, large", "cpu_ms") if "large" in mix else float("nan")
    print(
        f"  side by side, CPU ms per episode: library today {library:.1f} | SDK floor {sdk:.1f} | Python-function "
        f"floor {python:.1f} | release sample mean {means['cpu_ms']:.1f} (target <= 25) | large {large:.1f} "
        f"(target <= 150)"
    )


def load_cpu_s(file: Path, tree: Path = ROOT) -> dict[str, Any]:
    """CPU seconds of `scenario.load(file)` by the checkout `tree`, in a fresh process (imports not counted)."""
    code = (
        "import sys, time\nfrom orchestrator import scenario\nstarted = time.process_time()\n"
        "scenario.load(sys.argv[1])\nprint(time.process_time() - started)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(file)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    return {"load_s": float(done.stdout.strip().splitlines()[-1])}


def largest(mix: dict[str, tuple[int, Path]]) -> Path:
    """The sample's largest scenario file."""
    return max((f for _, folder in mix.values() for f in folder.glob("*.yaml")), key=lambda f: f.stat().st_size)


def library(scenarios_dir: Path) -> list[Any]:
    from orchestrator import scenario

    return [scenario.load(path) for path in scenario.discover([scenarios_dir])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3; medians are printed)")
    parser.add_argument("--repeat", type=int, default=10, help="episodes of each scenario per measurement (default 10)")
    parser.add_argument("--parallel", type=int, default=8, help="episodes at once (default 8, as --parallel)")
    parser.add_argument("--scenarios", type=Path, default=ROOT / "scenarios", help="the library (default scenarios/)")
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout (e.g. a `git worktree` of an older commit): its orchestrator run too",
    )
    parser.add_argument(
        "--release-rows", type=int, default=200, help="rows of the release v2 sample (default 200; 0: none)"
    )
    parser.add_argument(
        "--release-folder",
        type=Path,
        default=None,
        help="where the sample's scenarios are generated once (default ~/.cache/clawgym/release-v2-sample)",
    )
    parser.add_argument("--release-only", action="store_true", help="the release sample alone: no library, no floors")
    parser.add_argument("--floor-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--python", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_only:
        import anyio

        print(
            json.dumps(
                anyio.run(floor, library(args.scenarios), args.repeat, args.parallel, args.start_at, args.python)
            )
        )
        return
    cores = len(os.sched_getaffinity(0))
    rows: dict[str, list[dict[str, Any]]] = {}
    mix: dict[str, tuple[int, Path]] = {}
    if args.release_rows > 0:
        import release_sample

        mix = release_mix(args.release_rows, args.release_folder or release_sample.default_folder())
    release = [
        (f"release v2 sample, {size}", lambda folder=folder: clawgym(folder, 1, args.parallel, 1))
        for size, (_, folder) in mix.items()
    ]
    if mix:
        biggest = largest(mix)
        release.append(("load the largest scenario", lambda: load_cpu_s(biggest)))
    if mix and args.before:
        release += [
            (
                f"release v2 sample, {size}, before",
                lambda folder=folder: clawgym(folder, 1, args.parallel, 1, args.before),
            )
            for size, (_, folder) in mix.items()
        ]
        release.append(("load the largest scenario, before", lambda: load_cpu_s(biggest, args.before)))
    scenarios = args.scenarios.resolve()
    # the older checkout runs its own library: scenarios are written for the verifier of their time
    then = args.before / "scenarios" if args.before and args.scenarios == ROOT / "scenarios" else scenarios
    one_before = "orchestrator run --workers 1, before"
    before = [("orchestrator run, before", lambda: clawgym(then, args.repeat, args.parallel, None, args.before))]
    if args.before and (args.before / "orchestrator" / "run" / "pool.py").exists():  # it has --workers
        before.insert(0, (one_before, lambda: clawgym(then, args.repeat, args.parallel, 1, args.before)))
    for _ in range(args.rounds):
        for name, measure in (
            release
            if args.release_only
            else (
                *(before if args.before else ()),
                ("floor, 1 process", lambda: floor_process(args.scenarios, args.repeat, args.parallel, 1)),
                (
                    "Python-function floor, 1 process",
                    lambda: floor_process(args.scenarios, args.repeat, args.parallel, 1, True),
                ),
                ("orchestrator run --workers 1", lambda: clawgym(args.scenarios, args.repeat, args.parallel, 1)),
                (
                    f"floor, {cores} processes",
                    lambda: floor_process(args.scenarios, args.repeat, max(1, args.parallel // cores), cores),
                ),
                (
                    f"orchestrator run ({cores} workers)",
                    lambda: clawgym(args.scenarios, args.repeat, args.parallel, None),
                ),
                *release,
            )
        ):
            rows.setdefault(name, []).append(measure())

    def median(name: str, key: str) -> float:
        return statistics.median(r[key] for r in rows[name])

    if args.release_only:
        print_release(rows, mix, median)
        return
    first = next(iter(rows.values()))[0]
    print(
        f"{first['episodes']} episodes per measurement ({args.repeat} of each scenario of {args.scenarios}), "
        f"{args.parallel} at once; medians of {args.rounds} interleaved rounds"
    )
    print(f"  {'':36} {'episodes/s':>10} {'CPU ms/episode':>15} {'whole command':>14}")
    for name in (n for n in rows if not n.startswith("release v2 sample")):
        command = f"{median(name, 'command_s'):12.1f} s" if "command_s" in rows[name][0] else ""
        print(f"  {name:36} {median(name, 'per_s'):10.1f} {median(name, 'cpu_ms'):15.1f} {command:>14}")
    one = median("orchestrator run --workers 1", "per_s") / median("floor, 1 process", "per_s")
    cpu = median("orchestrator run --workers 1", "cpu_ms")
    print(
        f"  CPU per episode, --workers 1: {cpu / median('floor, 1 process', 'cpu_ms'):.2f}x the SDK floor, "
        f"{cpu / median('Python-function floor, 1 process', 'cpu_ms'):.2f}x the Python-function floor"
    )
    many = median(f"orchestrator run ({cores} workers)", "per_s") / median(f"floor, {cores} processes", "per_s")
    cross = median(f"orchestrator run ({cores} workers)", "per_s") / median("floor, 1 process", "per_s")
    print(
        f"  ClawGym / floor: {one:.2f}x in one process, {many:.2f}x on {cores} cores each; "
        f"orchestrator run's default / the floor in one process: {cross:.2f}x"
    )
    if mix:
        print_release(rows, mix, median)
    if args.before:
        then = median("orchestrator run, before", "per_s")
        one_then = median(one_before, "per_s") if one_before in rows else then
        print(
            f"  orchestrator run's default / before: {median(f'orchestrator run ({cores} workers)', 'per_s') / then:.2f}x "
            f"episodes/s; --workers 1 / before: {median('orchestrator run --workers 1', 'per_s') / one_then:.2f}x"
        )


if __name__ == "__main__":
    main()
