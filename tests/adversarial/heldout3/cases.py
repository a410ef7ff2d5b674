"""The third held-out round: scripted agents written from each scenario's instruction and seed alone.

`ALL` maps a scenario name to (scenario path from the repository root, its cases). Each case is a `steps.Held`:
want=True for a correct solution that differs from the likely reference (another channel, extra context, other
wording or time formats, another order), want=False for a wrong or harmful one, with a one-line reason.
Generated tasks come from `orchestrator generate all --count 2 --seed 83417` (tasks/); five library scenarios are
referenced by path.
"""

from __future__ import annotations

import cases_a
import cases_b
import cases_c
import cases_lib

ALL = {**cases_a.ALL, **cases_b.ALL, **cases_c.ALL, **cases_lib.ALL}
