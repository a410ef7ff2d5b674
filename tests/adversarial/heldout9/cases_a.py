"""Held-out round 9: scripted agents (writer a)."""

from __future__ import annotations

MEETING_TZ: list = []
CUSTOMER_ANSWER: list = []
ASK_COLLEAGUE: list = []
CHANGED_REQUEST: list = []
