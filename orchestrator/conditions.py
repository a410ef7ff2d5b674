"""Former location of `orchestrator.scenario.conditions`: importing this name gives that module."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("orchestrator.scenario.conditions")
