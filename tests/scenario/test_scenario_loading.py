"""Loading scenarios: templates, seed files, and errors that name file, line, YAML path and problem."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from textwrap import dedent

import pytest

from orchestrator import scenario as scenarios
from orchestrator.scenario.relative_dates import TemplateError, evaluate

START = datetime.fromisoformat("2026-03-04T15:20:00+01:00")  # a Wednesday afternoon

VALID = """
id: tiny-valid
title: Tiny
clock: {start: "2026-03-04T15:20:00+01:00"}
persona: {name: Dana, email: dana@acme.test, timezone: Europe/Berlin}
instruction: Meet Priya {{ next tuesday 10:00 | human_time }}.
apps:
  calendar:
    events: [{id: a, title: A, start: "{{ tomorrow 09:00 }}", end: "{{ tomorrow 10:00 }}"}]
stages:
  - name: booked
    checks:
      - {app: calendar, table: events, where: {start: {same_date: "{{ next tuesday | date }}"}}}
allow: {calendar: [events]}
oracle:
  - {tool: calendar__create_event, args: {title: B, start: "{{ next tuesday 10:00 }}"}}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(dedent(text))
    return path


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("now", "2026-03-04T15:20:00+01:00"),
        ("today", "2026-03-04T00:00:00+01:00"),
        ("tomorrow 9:30", "2026-03-05T09:30:00+01:00"),
        ("yesterday | date", "2026-03-03"),
        ("next wednesday | date", "2026-03-11"),
        ("this wednesday | date", "2026-03-04"),
        ("next friday 14:00", "2026-03-06T14:00:00+01:00"),
        ("monday next week 09:00", "2026-03-09T09:00:00+01:00"),
        ("today + 2d - 3h", "2026-03-05T21:00:00+01:00"),
        ("now + 1w | date", "2026-03-11"),
        ("next tuesday 10:00 | human_time", "Tuesday 10 March at 10:00"),
        ("next tuesday | human", "Tuesday 10 March"),
        ("tomorrow 08:05 | time", "08:05"),
    ],
)
def test_relative_dates(expr: str, value: str) -> None:
    assert evaluate(expr, START) == value


@pytest.mark.parametrize("expr", ["next moonday", "today | weekday", "tomorrow 25:00", "in two days"])
def test_bad_template_expressions(expr: str) -> None:
    with pytest.raises(TemplateError):
        evaluate(expr, START)


def test_valid_scenario_expands_templates_everywhere(tmp_path: Path) -> None:
    s = scenarios.load(write(tmp_path, VALID))
    assert s.instruction == "Meet Priya Tuesday 10 March at 10:00."
    assert s.apps["calendar"]["events"][0]["start"] == "2026-03-05T09:00:00+01:00"
    assert s.stages[0].checks[0].where == {"start": {"same_date": "2026-03-10"}}
    assert s.oracle[0].args["start"] == "2026-03-10T10:00:00+01:00"


def test_seed_files_are_read_relative_to_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "seeds").mkdir()
    write(
        tmp_path,
        "events: [{id: s, title: Seeded, start: '{{ today 11:00 }}', end: '{{ today 12:00 }}'}]\n",
        "seeds/cal.yaml",
    )
    text = VALID.replace(
        '  calendar:\n    events: [{id: a, title: A, start: "{{ tomorrow 09:00 }}", end: "{{ tomorrow 10:00 }}"}]',
        "  calendar: seeds/cal.yaml",
    )
    s = scenarios.load(write(tmp_path, text))
    assert s.apps["calendar"]["events"][0]["start"] == "2026-03-04T11:00:00+01:00"
    assert scenarios.discover([tmp_path]) == [tmp_path / "s.yaml"]


def problems_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(scenarios.ScenarioError) as caught:
        scenarios.load(write(tmp_path, text))
    return [str(p) for p in caught.value.problems]


def test_every_problem_is_reported_with_file_line_and_path(tmp_path: Path) -> None:
    broken = (
        VALID.replace("title: Tiny", "title: Tiny\ncolour: red")
        .replace("where: {start: {same_date:", "where: {begin: {same_date:")
        .replace("tool: calendar__create_event", "tool: calendar__create_meeting")
    )
    found = problems_of(tmp_path, broken)
    file = str(tmp_path / "s.yaml")
    assert f"{file}:4: colour: Extra inputs are not permitted" in found
    assert any(p.startswith(f"{file}:14: stages[0].checks[0].where.begin: unknown column 'begin'") for p in found)
    assert any(p.startswith(f"{file}:17: oracle[0].tool: app 'calendar' has no tool 'create_meeting'") for p in found)
    assert len(found) == 3


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("apps:\n  calendar:", "apps:\n  calender:"), "apps.calender: unknown app 'calender'"),
        (
            ("table: events, where", "table: meetings, where"),
            "stages[0].checks[0].table: app 'calendar' has no table 'meetings'",
        ),
        (
            ("{app: calendar, table: events, where", "{app: mail, table: messages, where"),
            "stages[0].checks[0].app: app 'mail' is not in this scenario's apps",
        ),
        (("same_date:", "same_day:"), "stages[0].checks[0].where.start.same_day: unknown operator 'same_day'"),
        (
            ("{{ next tuesday | date }}", "{{ next moonday | date }}"),
            "stages[0].checks[0].where.start.same_date: cannot read {{ next moonday | date }}",
        ),
        (('end: "{{ tomorrow 10:00 }}"', "end: soon"), "apps.calendar.events[0].end: calendar seed:"),
        (
            ("allow: {calendar: [events]}", "allow: {calendar: [meetings]}"),
            "allow.calendar.meetings: app 'calendar' has no table 'meetings'",
        ),
        (
            ("args: {title: B,", "save: ev, args: {title: '${ev.id}',"),
            "oracle[0].args: ${ev.id} refers to a result no earlier step saved",
        ),
        (
            ('clock: {start: "2026-03-04T15:20:00+01:00"}', 'clock: {start: "2026-03-04T15:20:00"}'),
            "clock.start: Input should have timezone info",
        ),
        (
            ("- name: booked\n    checks:", "- name: booked\n    weight: 0\n    checks:"),
            "stages[0].weight: Input should be greater than 0",
        ),
    ],
)
def test_specific_problems(tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    old, new = change
    assert old in VALID
    found = problems_of(tmp_path, VALID.replace(old, new))
    assert any(expected in p for p in found), found


def test_journal_checks_and_expectations_are_validated(tmp_path: Path) -> None:
    text = VALID.replace(
        '      - {app: calendar, table: events, where: {start: {same_date: "{{ next tuesday | date }}"}}}',
        "      - {journal: {called: calendar__make_event}}\n"
        "      - {journal: {max_errors: 0, max_calls: 3}}\n"
        "      - {app: calendar, table: events, expect: {count: 1, min: 1}}",
    )
    found = problems_of(tmp_path, text)
    assert any("stages[0].checks[0].journal.called: app 'calendar' has no tool 'make_event'" in p for p in found), found
    assert any("stages[0].checks[1].journal: Value error, give exactly one of" in p for p in found), found
    assert any("stages[0].checks[2].expect: Value error, give either count, or min and/or max" in p for p in found), (
        found
    )


def test_yaml_syntax_errors_name_the_line(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "id: x\ntitle: [unclosed\n")
    assert found[0].startswith(f"{tmp_path / 's.yaml'}:3: (file): not valid YAML")


def test_a_scenario_too_large_is_refused_at_once_naming_the_file_and_the_limit(tmp_path: Path) -> None:
    """A 13 MB scenario (a valid one with 76,000 seeded events) is refused by its size before it is parsed: parsing
    it took over 30 s and 185 MB. The largest generated world's scenario (edition 2, large) is about 6 MB."""
    import time

    from orchestrator.scenario import yamlpaths

    event = '      - {id: e%06d, title: "Planning session number %06d with the whole team", start: "2026-03-05T09:00:00+01:00", end: "2026-03-05T10:00:00+01:00", location: "Room 4"}\n'
    rows = "".join(event % (i, i) for i in range(76_000))
    path = write(
        tmp_path,
        VALID.replace(
            '    events: [{id: a, title: A, start: "{{ tomorrow 09:00 }}", end: "{{ tomorrow 10:00 }}"}]\n',
            "    events:\n" + rows,
        ),
        "big.yaml",
    )
    size = path.stat().st_size
    assert 12_500_000 < size < 14_000_000
    started = time.perf_counter()
    with pytest.raises(scenarios.ScenarioError) as caught:
        scenarios.load(path)
    assert time.perf_counter() - started < 1.0
    message = str(caught.value)
    assert str(path) in message and f"{size:,} bytes" in message and f"{yamlpaths.MAX_FILE_BYTES:,}" in message
    assert yamlpaths.MAX_FILE_BYTES < size
