"""Every development-round case, by scenario: name -> (scenario path from the repository root, cases)."""

import cases_calendar
import cases_library
import cases_requests
import cases_work

ALL = {**cases_requests.ALL, **cases_work.ALL, **cases_calendar.ALL, **cases_library.ALL}
