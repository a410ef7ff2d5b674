"""Which amounts a text states as the value it is about, claimed: not a part beside its whole,
not someone's ask, not one of two offered, not corrected or contradicted by a later one; and which counts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 9, tzinfo=UTC))


def amount(value: str, currency: str) -> dict[str, object]:
    return {"mentions_amount": {"value": value, "currency": currency, "claimed": True}}


def count(n: int, of: str) -> dict[str, object]:
    return {"mentions_count": {"n": n, "of": of, "claimed": True}}


# (text, amounts stated, amounts written but not stated), one currency per text
CASES = [
    # a part beside its whole
    (
        "Paid the CHF 200 deposit for the boat; the balance of CHF 650 is due on the day (CHF 850 in all).",
        ["850"],
        ["200", "650"],
    ),
    ("We received a part payment of ¥30,000; the amount still owed is ¥95,000.", ["95000"], ["30000"]),
    ("The board approved a budget of $80,000. The first tranche of $20,000 is released in May.", ["80000"], ["20000"]),
    ("Approved €940 of your claim, except the €60 taxi, so €880 goes out with payroll.", ["880"], ["60"]),
    ("Split the SEK 9,000 into 3 instalments of SEK 3,000.", ["9000"], ["3000"]),
    # a part alone is the amount at issue
    ("Please pay the GBP 400 deposit by Friday to hold the venue.", ["400"], []),
    # a rate is stated beside the total (a check may ask for the nightly limit)
    (
        "Hotels are capped at 150 EUR per night; this one is 162 EUR per night (324 EUR for 2 nights).",
        ["150", "162", "324"],
        [],
    ),
    ("The new price is $24 per seat per month.", ["24"], []),
    # a limit is an amount the text states (a check may ask for it)
    ("Your €260 hotel is over the €200 city cap, so I can't approve it.", ["260", "200"], []),
    # someone's ask is not what is agreed
    ("Your request for £3,500 was reviewed; we can offer £3,000.", ["3000"], ["3500"]),
    ("The supplier wants 900 euros upfront; we agreed to pay 600 euros now.", ["600"], ["900"]),
    ("Refund approved: $45. The guest had asked for 50% ($110).", ["45"], ["110"]),
    ("The agent had expected approval for €2,000; the insurer paid €1,400.", ["1400"], ["2000"]),
    # a refused amount is still the one at issue
    ("The director rejected the €14k training budget.", ["14000"], []),
    # two amounts in one currency offered side by side
    ("Two rooms held (GBP 120 / GBP 150 a night) - your choice.", [], ["120", "150"]),
    # a correction unsays the first
    ("The invoice total is €2,310 - sorry, I meant €2,130.", ["2130"], ["2310"]),
    ("Quote: $760. Correction: the quote should read $680.", ["680"], ["760"]),
    # two figures of one thing with digits swapped contradict each other
    ("Order total: NOK 4,730. Can you approve the NOK 4,370 today?", [], ["4730", "4370"]),
    ("Refund sent: €315. It will show as €351 on your statement.", [], ["315", "351"]),
    # a submitted amount beside the approved one
    ("You submitted €705, but €75 of it was personal; reimbursing €630.", ["630"], ["705"]),
    ("Claim: AUD 980 submitted, AUD 890 approved.", ["890"], ["980"]),
    # an amount beside what is still awaited is still stated
    (
        "Renewal of the support contract agreed (€12,000/yr); signature still pending with their legal team.",
        ["12000"],
        [],
    ),
    ("Conference fee USD 750 - pending sign-off from Grace.", ["750"], []),
    # ... but an amount still to be confirmed is not
    ("Estimated saving: EUR 90,000 a year (to be confirmed by Finance).", [], ["90000"]),
    ("Catering is NZD 1,200, not confirmed yet.", [], ["1200"]),
]


@pytest.mark.parametrize(("text", "stated", "unstated"), CASES)
def test_the_amount_a_text_states(text: str, stated: list[str], unstated: list[str]) -> None:
    currency = next(
        c
        for s, c in (
            ("€", "EUR"),
            ("EUR", "EUR"),
            ("euros", "EUR"),
            ("NZD", "NZD"),
            ("CHF", "CHF"),
            ("¥", "JPY"),
            ("SEK", "SEK"),
            ("GBP", "GBP"),
            ("£", "GBP"),
            ("AUD", "AUD"),
            ("NOK", "NOK"),
            ("USD", "USD"),
            ("$", "USD"),
        )
        if s in text
    )
    for value in stated:
        assert holds(text, amount(value, currency), CTX), value
    for value in unstated:
        assert not holds(text, amount(value, currency), CTX), value


def test_a_table_of_options_none_taken_states_none_of_them() -> None:
    text = (
        "Shortlist for the Lisbon offsite - nothing booked yet:\n\n"
        "| Venue | Per day | Total |\n|---|---|---|\n| Palácio | €1,900 | €3,800 |\n| Armazém | €1,450 | €2,900 |\n"
    )
    assert not holds(text, amount("2900", "EUR"), CTX)
    chosen = text.replace("| Armazém | €1,450 | €2,900 |", "| Armazém ✅ booked | €1,450 | €2,900 |").replace(
        "nothing booked yet", "one booked"
    )
    assert holds(chosen, amount("2900", "EUR"), CTX)
    assert not holds(chosen, amount("3800", "EUR"), CTX)
    plain = "Costs so far:\n\n| Item | Cost |\n|---|---|\n| Venue | €2,900 |\n| Catering | €1,100 |\n"
    assert holds(plain, amount("2900", "EUR"), CTX)


@pytest.mark.parametrize(
    ("text", "n", "of", "stated"),
    [
        ("Booked the Shinkansen, Sat 14 Nov. 6 seats, car 9.", 6, "seats", True),
        ("Phase 1 (200 users) is live. Phase 2 (1,800 users) starts Monday.", 1800, "users", True),
        ("Response time now 2h (was 8h) for priority tickets.", 2, "hours", True),
        ("Response time now 2h (was 8h) for priority tickets.", 8, "hours", False),
        ("Standup is now at 14h, 5 people.", 14, "hours", False),
        ("Room 2.14 for Wed 10:00, 9 people - pending confirmation from facilities.", 9, "people", True),
    ],
)
def test_counts_as_agents_write_them(text: str, n: int, of: str, stated: bool) -> None:
    assert holds(text, count(n, of), CTX) is stated


@pytest.mark.parametrize(
    ("text", "code", "stated"),
    [
        ("Your booking ref is ZK4PM8 - please quote ZK4MP8 at the desk.", "ZK4PM8", False),
        ("Your booking ref is ZK4PM8 - please quote ZK4MP8 at the desk.", "ZK4MP8", False),
        ("Logged as FAC-3097; follow up on FAC-3079 if anything changes.", "FAC-3079", False),
        ("Paid ACC-5561 today, not ACC-5516 (still disputed).", "ACC-5561", True),
        ("Closed TCK-2870 as a duplicate of TCK-2807.", "TCK-2870", True),
        ("Paid ACC-5561 and ACC-7740 today.", "ACC-5561", True),
    ],
)
def test_a_code_beside_its_swapped_twin_is_not_asserted(text: str, code: str, stated: bool) -> None:
    assert holds(text, {"mentions_code": {"code": code, "claimed": True}}, CTX) is stated
