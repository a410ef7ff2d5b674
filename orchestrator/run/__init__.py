"""Running episodes for `orchestrator run`: serve the gateway, run the agent, verify, write the record.

- `runner`: one episode or K of them in parallel, each in its own folder, with pass@k and pass^k.

May import `scenario`, `verify`, `backends`, `episode` and `agents`.
"""
