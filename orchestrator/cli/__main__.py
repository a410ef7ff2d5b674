"""`python -m orchestrator.cli`: the `orchestrator` script, run by this interpreter (how MCP clients launch `serve`)."""

from orchestrator.cli import main

main()
