"""Measure the verdict on held-out round 9's scripted agents (a measurement script, not a test).

python tests/adversarial/heldout9/run_heldout.py [scenario-name ...] [--json FILE] [--markdown FILE] [--check] [--tasks DIR]

Runs every case of tests/adversarial/heldout9/cases.py in process through the gateway and prints, per scenario and in
total, how many correct solutions the verdict rejected and how many wrong ones it accepted, then each misjudged case
with the verdict's reason. --json writes the figures and every case's verdict; --markdown appends a section with the
figures and the misjudged cases to FILE (RESULTS.md). --check prints only the cases whose own tool calls failed (an
invalid case), not verdicts. --tasks reads the generated tasks from another folder (the same seed regenerated).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from round_runner import main  # noqa: E402

if __name__ == "__main__":
    main(Path(__file__).resolve().parent, __doc__.splitlines()[0], why_limit=300)
