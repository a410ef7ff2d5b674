"""Former location of `orchestrator.scenario.templates`: importing this name gives that module."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("orchestrator.scenario.templates")
