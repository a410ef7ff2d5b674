"""Held-out round 9: scripted agents (writer b)."""

from __future__ import annotations

APPROVE_REQUEST: list = []
INCIDENT_FOLLOWUP: list = []
DOC_COMMENTS: list = []
FLAKY_TRIAGE: list = []
