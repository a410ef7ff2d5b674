"""Every held-out scenario and its cases: ALL maps a short name to (scenario path, cases)."""

import cases_inbox
import cases_library
import cases_moves
import cases_requests
import cases_work

ALL = {**cases_requests.CASES, **cases_inbox.CASES, **cases_work.CASES, **cases_moves.CASES, **cases_library.CASES}
