"""An approval that a later clause takes back or leaves open is no firm decision: "this may still have to be
rejected", "the approval may be pulled back", "don't order it yet", "hold off", "the approval is provisional". What
follows about how to carry the approval out leaves it standing."""

from __future__ import annotations

import pytest

from orchestrator.scenario.text.decisions import decisions


@pytest.mark.parametrize(
    "text",
    [
        "Hi Priya,\n\napproved, USD 1,240.00.\n\nMarc\n\nP.S. Checking the travel policy again, the cap is USD 1,200, "
        "so this might still need to be declined; please don't book anything yet.",
        "Approved: EUR 480 for the monitor.\n\nOne thing: the approval may be pulled back if Finance finds the "
        "budget is gone.",
        "Your leave request is approved. I might have to reverse this once I see the rota.",
        "Approved! Actually, don't order the laptop yet - I need to double-check the cap.",
        "Approved — note the approval is provisional until the audit closes.",
        "The trip is approved. We could still withdraw it if the client moves the date.",
        "Good to go on the offsite. Please hold off on the deposit for now.",
    ],
)
def test_an_approval_taken_back_after_it_decides_nothing(text: str) -> None:
    assert "approve" not in decisions(text)


@pytest.mark.parametrize(
    "text",
    [
        "Approved: EUR 712.00 for the course. You can cancel the booking free of charge until Friday.",
        "Approved. Go ahead and book it; don't forget to attach the receipt.",
        "Approved. Don't book business class, economy only.",
        "Approved. We can't reverse charges after the invoice is paid, so check the amount.",
    ],
)
def test_what_follows_about_carrying_it_out_leaves_the_approval(text: str) -> None:
    assert decisions(text) == {"approve"}


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("Hi Priya,\n\napproved, USD 1,240.00.\n\nMarc\n\nP.S. The cap may be USD 1,200, so this might still need to "
         "be declined.", False),
        ("Approved: USD 1,240.00. Heads-up: the approval may be pulled back after the audit.", False),
        ("USD 1,240.00 approved, though I might have to reverse this if the budget is cut.", False),
        ("Approved: USD 1,240.00. The approval is provisional until the audit closes.", False),
        ("Approved: USD 1,240.00. You can still cancel the hotel free of charge.", True),
        ("Approved: USD 1,240.00. We may need to reconsider the supplier.", True),
    ],
)  # fmt: skip
def test_an_amount_approved_then_taken_back_is_not_told(text: str, told: bool) -> None:
    from datetime import UTC, datetime

    from orchestrator.scenario.conditions import Context, holds

    ctx = Context({}, {}, timezone="America/New_York", now=datetime(2026, 3, 2, 14, tzinfo=UTC))
    assert holds(text, {"mentions_amount": {"value": 1240, "currency": "USD", "claimed": True}}, ctx) == told
