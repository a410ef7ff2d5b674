"""What a generated organization costs, per size and edition: building it, and what every task on it pays again.

    python benchmarks/bench_build_org.py [--orgs N] [--sizes small,medium,large] [--editions 1,2]

For N organizations of each size and edition (distinct seeds, after one warm-up organization that creates the Faker
locales), the median milliseconds of:

- `build`: `build_organization` on a cold cache (the builder itself);
- `copy`: the copy every task gets (`Organization.copy`, a deep copy);
- `digest`: `Organization.digest` (the manifest records it);
- `yaml`: the organization written as a scenario writes it (`dump_yaml` of the apps; every task file holds its organization);
- `seed`: one in-process episode seeding those apps (what every proof episode pays: a basic proof is two episodes,
  a full proof dozens);

and the organization's rows and YAML size. The pipeline's cost per task is roughly `copy + yaml + episodes * seed`; the
build is paid once per organization.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.episode.episode import Episode  # noqa: E402
from orchestrator.generate import build as orgs  # noqa: E402
from orchestrator.generate.family import dump_yaml  # noqa: E402
from orchestrator.scenario.model import ScenarioError, load_data  # noqa: E402


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def scenario_of(org: orgs.Organization) -> dict[str, Any]:
    """The smallest scenario over the whole organization: its head, its apps, one check."""
    return {
        "id": f"bench-{org.seed}",
        "title": "bench",
        **org.scenario_head(),
        "instruction": "Nothing to do.",
        "apps": org.apps,
        "stages": [
            {
                "name": "x",
                "checks": [{"app": "mail", "table": "messages", "where": {"id": "none"}, "expect": {"count": 0}}],
            }
        ],
        "oracle": [],
    }


refused: list[str] = []


async def measure(size: str, edition: int, n: int, backend: InProcessBackend) -> dict[str, Any]:
    times: dict[str, list[float]] = {k: [] for k in ("build", "copy", "digest", "yaml", "seed")}
    orgs.build_organization(10_000 + edition, size, edition=edition)  # warm-up: Faker locales, imports
    rows = chars = 0
    for i in range(n):
        orgs._CACHE.clear()
        started = time.perf_counter()
        org = orgs.build_organization(20_000 + i, size, edition=edition)
        times["build"].append(_ms(started))
        started = time.perf_counter()
        org.copy()
        times["copy"].append(_ms(started))
        started = time.perf_counter()
        org.digest()
        times["digest"].append(_ms(started))
        started = time.perf_counter()
        text = dump_yaml(scenario_of(org))
        times["yaml"].append(_ms(started))
        rows, chars = sum(org.rows().values()), len(text)
        try:
            scenario = load_data(scenario_of(org))
        except ScenarioError as exc:  # one the apps refuse (edition 1's wall-clock history across a DST change)
            refused.append(f"{size} edition {edition} seed {org.seed}: {str(exc).splitlines()[-1].strip()}")
            continue
        started = time.perf_counter()
        async with Episode(scenario, await backend.start(scenario.apps)):
            pass
        times["seed"].append(_ms(started))
    return {"rows": rows, "kb": chars // 1024, **{k: statistics.median(v or [0.0]) for k, v in times.items()}}


async def main(n: int, sizes: list[str], editions: list[int]) -> None:
    print(f"median ms per organization ({n} each; rows and YAML of the last)")
    print(f"{'size':<8}{'ed':>3}{'rows':>8}{'YAML KB':>9}{'build':>9}{'copy':>8}{'digest':>8}{'yaml':>8}{'seed':>9}")
    async with InProcessBackend() as backend:
        for size in sizes:
            for edition in editions:
                r = await measure(size, edition, n, backend)
                print(
                    f"{size:<8}{edition:>3}{r['rows']:>8}{r['kb']:>9}{r['build']:>9.1f}{r['copy']:>8.1f}"
                    f"{r['digest']:>8.1f}{r['yaml']:>8.1f}{r['seed']:>9.1f}",
                    flush=True,
                )
    for line in refused:
        print(f"  refused by the apps: {line}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orgs", type=int, default=5)
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--editions", default="1,2")
    options = parser.parse_args()
    anyio.run(main, options.orgs, options.sizes.split(","), [int(e) for e in options.editions.split(",")])
