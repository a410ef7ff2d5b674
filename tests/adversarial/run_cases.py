"""Print the verdict of every adversarial case (a development aid, not a test).

python tests/adversarial/run_cases.py [scenario-file-stem ...] [-v]
"""

import asyncio
import sys
import time

sys.path[:0] = ["tests", "tests/adversarial", "."]

import cases  # noqa: E402
from harness import failures  # noqa: E402

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402


async def main(names: list[str]) -> None:
    async with InProcessBackend() as backend:
        for name, (make_scenario, scenario_cases) in cases.ALL.items():
            if names and name not in names:
                continue
            scenario = make_scenario()
            for case in scenario_cases:
                started = time.time()
                result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
                missing = [reason for reason in case.fails_on if reason not in failures(result)]
                ok = result.passed == case.want and not missing
                want, got = "pass" if case.want else "fail", "pass" if result.passed else "fail"
                print(
                    f"{'OK ' if ok else 'BAD'} {name}:{case.id} want={want} got={got} score={result.score:.2f} "
                    f"{time.time() - started:.1f}s"
                )
                if missing:
                    print("   not failed on:", missing)
                if report.errors:
                    print("   agent errors:", report.errors)
                if not ok or "-v" in sys.argv:
                    print("   why:", _why(result)[:600])


if __name__ == "__main__":
    asyncio.run(main([a for a in sys.argv[1:] if not a.startswith("-")]))
