"""The case helpers of this round: the rounds' shared `round_steps` (tests/adversarial/round_steps.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from round_steps import *  # noqa: E402, F403 - the round's cases import its helpers from here
