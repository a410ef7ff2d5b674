"""Keeping `validate` fast: it runs dozens of short episodes per scenario, each with fresh MCP sessions.

A new MCP client session checks every tool's output schema against the JSON
Schema meta-schema the first time the tool answers, before validating the
result. The check depends on the schema alone, yet costs about 60 times the
validation itself, and with a session per episode it dominated validation
time (two thirds of each episode). `schema_checks_remembered` remembers which
schemas already passed the check, for as long as it is entered; results are
still validated on every call. (Sessions an `Episode` opens need no such
patch: they share compiled validators through
`orchestrator.backends.base.remember_output_validators`.)
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Any

from jsonschema import validators

_LOCK = threading.Lock()
_ENTERED = 0
_ORIGINALS: dict[type, Any] = {}
_PASSED: set[tuple[type, str]] = set()


def _remembered(original: Any) -> classmethod:
    def check_schema(cls: type, schema: Any, *args: Any, **kwargs: Any) -> None:
        key = (cls, json.dumps(schema, sort_keys=True, default=str))
        if key in _PASSED:
            return
        original.__get__(None, cls)(schema, *args, **kwargs)
        _PASSED.add(key)

    return classmethod(check_schema)


@contextlib.contextmanager
def schema_checks_remembered() -> Iterator[None]:
    """While entered (by any thread, nested or not), each jsonschema validator class checks a given schema against
    its meta-schema once; the classes are restored when the last entry leaves."""
    global _ENTERED
    with _LOCK:
        if _ENTERED == 0:
            classes = [
                c
                for c in vars(validators).values()
                if isinstance(c, type) and hasattr(c, "check_schema") and hasattr(c, "META_SCHEMA")
            ]
            _ORIGINALS.clear()
            _ORIGINALS.update({cls: cls.__dict__.get("check_schema") for cls in classes})
            for cls, original in _ORIGINALS.items():
                if original is not None:
                    cls.check_schema = _remembered(original)  # type: ignore[attr-defined]  # jsonschema is unannotated: its validators are plain types here
        _ENTERED += 1
    try:
        yield
    finally:
        with _LOCK:
            _ENTERED -= 1
            if _ENTERED == 0:
                for cls, original in _ORIGINALS.items():
                    if original is not None:
                        cls.check_schema = original  # type: ignore[attr-defined]  # jsonschema is unannotated: its validators are plain types here
