"""The verifier: a pure function from (scenario, seeded state, final state, journal) to a `Result`.

- `verdict`: stages of checks, collateral damage, forbidden changes, limits, the score.
- `results`: the `Result` model written to `results.json`.

May import `orchestrator.scenario` and `servers.registry`; never backends, episodes or agents.
"""
