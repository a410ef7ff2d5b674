"""A code hedged where it is written is not stated (`mentions_code` with `claimed`): "probably OPS-12", "OPS-12 (not
confirmed yet)", "OPS-12, I think"; a hedge about something else in the same text, or a question that uses the code,
leaves it stated."""

from __future__ import annotations

import pytest

from orchestrator.scenario.text.phrases import mentions_code

HEDGED = [
    "The follow-ups are in probably RISK-41; the notes are linked there.",
    "Tracked in maybe RISK-41 - Dana will check.",
    "It should be RISK-41.",
    "I believe RISK-41 is the one.",
    "Filed as RISK-41 (not yet confirmed).",
    "Filed as RISK-41 (to be confirmed by Dana).",
    "Filed as RISK-41 (TBC).",
    "The key is RISK-41, I think.",
    "The key is RISK-41, if I'm not mistaken.",
]
STATED = [
    "The follow-ups are in RISK-41; the notes are linked there.",
    "Filed as RISK-41. I will probably add more details later.",
    "Could you add your notes to RISK-41?",
    "Maybe later today, but the ticket is RISK-41.",
    "Filed as RISK-41 (created this morning).",
    "RISK-41 is the tracker; it is probably worth a look before Friday.",
]


@pytest.mark.parametrize("text", HEDGED)
def test_a_code_hedged_where_it_is_written_is_not_stated(text: str) -> None:
    assert mentions_code(text, "RISK-41")  # named, all the same
    assert not mentions_code(text, "RISK-41", claimed=True)


@pytest.mark.parametrize("text", STATED)
def test_a_hedge_about_something_else_leaves_the_code_stated(text: str) -> None:
    assert mentions_code(text, "RISK-41", claimed=True)


@pytest.mark.parametrize(
    "text", ["It is RISK-41 or RISK-42, I'll check.", "Either RISK-40 or RISK-41.", "RISK-41 or maybe RISK-14."]
)
def test_a_code_offered_against_another_is_not_stated(text: str) -> None:
    assert not mentions_code(text, "RISK-41", claimed=True)


def test_a_code_beside_an_or_of_other_things_is_stated() -> None:
    assert mentions_code("Filed as RISK-41 or so I was told by Dana, or ask her.", "RISK-41", claimed=True)
    assert mentions_code("Filed RISK-41; ping me or Dana with questions.", "RISK-41", claimed=True)
