"""`decides`: approve and refuse read as a decision with its polarity, clause by clause."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds
from orchestrator.scenario.text.decisions import decisions

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 8, tzinfo=UTC))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He has decided not to approve it.", {"refuse"}),
        ("Sorry, I can't sign off on this one.", {"refuse"}),
        ("It's a no from Helga on the $3.4k monitor order.", {"refuse"}),
        ("We are unable to approve the business-class fare.", {"refuse"}),
        ("Declined — the boardroom is held by the partners.", {"refuse"}),
        ("No-go for Friday's deploy.", {"refuse"}),
        ("Refund approved: USD 980.00 for the damaged rug.", {"approve"}),
        ("Legal has given the green light on the MSA redline.", {"approve"}),
        ("Finance: good to go.", {"approve"}),
        ("That's fine — approved. Your start date moves.", {"approve"}),
        ("Not approved yet, waiting on finance.", set()),
        ("The CFO is leaning towards approving it, but she wants Legal's view first.", set()),
        ("The board didn't approve or reject — deferred to 15 Oct.", set()),
        ("Emergency changes need VP Eng approval.", set()),
        ("Could you approve the hotel?", set()),
        ("If Marta approves, I'll book it.", set()),
        ("Budget approved! Just to be clear, we're still waiting on the CFO's signature.", set()),
        ("A dividend is proposed, subject to shareholder approval.", set()),
        ("> Approved.\n\nThanks, I'll wait for Marta.", set()),
    ],
)
def test_a_decision_is_read_with_its_polarity(text: str, expected: set[str]) -> None:
    assert decisions(text) == expected


def test_decides_is_a_text_operator() -> None:
    refusal = "Hi Sam, Marcus has decided not to approve the conference pass this quarter."
    assert holds(refusal, {"decides": "refuse"}, CTX)
    assert not holds(refusal, {"decides": "approve"}, CTX)
    assert holds("Approved - go ahead and book it.", {"decides": {"decision": "approve"}}, CTX)


def test_the_old_phrase_list_read_a_refusal_as_an_approval() -> None:
    """A `says` list of approving phrases finds "approve" in "decided not to approve"; `decides` does not."""
    refusal = "He has decided not to approve it."
    assert not holds(refusal, {"decides": "approve"}, CTX)
    assert holds(refusal, {"decides": "refuse"}, CTX)


def test_an_unknown_decision_is_a_load_error() -> None:
    from orchestrator.scenario.text.operators import operand_problems

    assert operand_problems("decides", "maybe") == [((), "expected one of approve, refuse, found 'maybe'")]


def test_decisions_written_in_other_languages_and_in_other_words() -> None:
    from orchestrator.scenario.text.decisions import decisions

    assert decisions("Ihr Schadenfall CLM-7781 wurde geprüft und genehmigt.") == {"approve"}
    assert decisions("Ihr Urlaubsantrag wurde leider abgelehnt.") == {"refuse"}
    assert decisions("Der Antrag wurde nicht genehmigt.") == {"refuse"}
    assert decisions("Votre candidature n'a pas été retenue.") == {"refuse"}
    assert decisions("La solicitud ha sido rechazada.") == {"refuse"}
    assert decisions("Wij kennen u vergunningen toe voor 2 voertuigen.") == {"approve"}
    assert decisions("We have decided not to proceed with your application.") == {"refuse"}
    assert decisions("I told them the 10% rush fee is a no.") == {"refuse"}
    # a condition on how an approval is carried out still approves; one on the approval itself leaves it open
    assert decisions("The Board has approved your protocol, subject to the minor revisions listed.") == {"approve"}
    assert decisions("Approved, subject to CFO approval.") == set()
