"""The verifier: a pure function from (scenario, seeded state, final state, journal) to a `Result`.

- `verdict`: stages of checks, collateral damage, forbidden changes, limits, the score.
- `results`: the `Result` model written to `results.json`.
- `harm`, `extras`: world rules, collateral damage, and the benign extras (additive, internal communication about the task).
- `world_changes`: the world's changes and the gateway's own tools in a verdict (a baseline of seeded state plus world changes).

May import: `scenario`, `servers.registry` and `servers.core.harm` (addresses inside the organization); never backends,
episodes or agents.
"""
