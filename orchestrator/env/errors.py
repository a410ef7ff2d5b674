"""`EnvError`: what every part of the environment API raises when it is used out of order or given what it cannot run.

May import nothing of the orchestrator.
"""

from __future__ import annotations


class EnvError(RuntimeError):
    """The environment was used out of order (a step before `reset`, after the end of the episode, after `close`)
    or given a scenario it cannot run; the message says what to do."""
