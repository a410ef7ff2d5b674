"""Former location of `orchestrator.prove.validate`: importing this name gives that module."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("orchestrator.prove.validate")
