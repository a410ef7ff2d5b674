"""Proving scenarios sound (`orchestrator validate`): the reference solution passes, doing nothing
fails, and weakened solutions fail.

- `validate`: runs the reference solution, the noop agent and mutations on fresh sandboxes.

May import everything below the CLI: `scenario`, `verify`, `backends`, `episode`, `agents`.
"""
