"""Print the verdict of every case (development aid): python tests/adversarial/run_cases.py [scenario-file-stem ...]"""
import asyncio, sys, importlib, time
sys.path.insert(0, "tests"); sys.path.insert(0, "tests/adversarial"); sys.path.insert(0, ".")
from orchestrator.agents import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.prove.validate import run_once, _why
import cases as C

async def main(names):
    async with InProcessBackend() as b:
        for name, (scn, cs) in C.ALL.items():
            if names and name not in names: continue
            s = scn()
            for c in cs:
                t = time.time()
                r, rep = await run_once(s, b, OracleAgent(c.steps(s)))
                ok = r.passed == c.want
                print(f"{'OK ' if ok else 'BAD'} {name}:{c.id} want={'pass' if c.want else 'fail'} got={'pass' if r.passed else 'fail'} score={r.score:.2f} {time.time()-t:.1f}s")
                if rep.errors: print("   agent errors:", rep.errors)
                if not ok or '-v' in sys.argv: print("   why:", _why(r)[:600])
asyncio.run(main([a for a in sys.argv[1:] if not a.startswith('-')]))
