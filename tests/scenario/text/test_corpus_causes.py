"""General causes of misreadings found on the corpus of agent-written messages, one test per cause."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from orchestrator.scenario.conditions import Context, holds

CTX = Context({}, {}, timezone="Europe/Berlin", now=datetime(2026, 3, 2, 8, tzinfo=UTC))
AT = "2026-03-05T15:30:00+01:00"
CLAIMED = {"mentions_time": {"at": AT, "claimed": True}}


def test_a_conversion_for_someone_is_read_in_their_place() -> None:
    # a right conversion restates the time wherever it follows ("for you in Chicago", a person's place)
    assert holds("Review: Thursday 5 March, 15:30 Berlin. Emma, 14:30 in London; Dan, 9:30 in New York.", CLAIMED, CTX)
    assert holds("Thursday 5 March at 15:30 CET, that's 8:30 for you in Chicago.", CLAIMED, CTX)
    # "for you" in a zone the reader does not know is read for that person (a told check), not as another time
    assert holds("Thursday 5 March at 15:30 CET. Anil, that's 20:00 for you.", CLAIMED, CTX)
    # a wrong conversion is another time for the same thing
    assert not holds("Review: Thursday 5 March, 15:30 Berlin; Dan, that's 8:30 in New York.", CLAIMED, CTX)
    assert not holds("Review: Thursday 5 March, 15:30 CET. See you at 16:30 CET.", CLAIMED, CTX)


def test_places_people_write_in_tables_and_other_languages() -> None:
    table = "| Option | Berlin | Hawaii | Status |\n|---|---|---|---|\n| **Thu 5 Mar** | **15:30** | **04:30** | confirmed |"
    assert holds(table, CLAIMED, CTX)
    assert holds(
        "Die Prüfung ist am Donnerstag, 5. März um 15:30 (Berlin), es decir 8:30 en Ciudad de México.", CLAIMED, CTX
    )


def test_an_old_time_set_aside_in_other_words() -> None:
    old = {"mentions_time": {"at": "2026-03-05T10:00:00+01:00", "claimed": True}}
    for text in (
        "Moved Thursday's standup to 15:30 (from 10:00).",
        "Der Termin ist jetzt am 5. März um 15:30 Uhr (statt 10 Uhr).",
        "Thursday 5 March, 15:30 (last week's 10:00 slot is retired).",
        "Thursday 5 March lands at 15:30 for the team, not the usual 10:00.",
    ):
        assert holds(text, CLAIMED, CTX), text
        assert not holds(text, old, CTX), text


def date(day: str, role: str) -> dict[str, object]:
    return {"mentions_date": {"date": day, "role": role, "claimed": True}}


def test_a_trip_s_range_of_days_is_its_day_out_and_its_day_back() -> None:
    text = "Here's the Lisbon trip (8–14 Nov, 6 nights); hotel booked."
    assert holds(text, date("2026-11-08", "travel-out"), CTX)
    assert holds(text, date("2026-11-14", "travel-back"), CTX)
    assert not holds(text, date("2026-11-14", "travel-out"), CTX)
    # a travel day without its leg: the first is the day out, the last of several the day back
    two = "Your flight to Lisbon is on Sunday 8 November. The flight home is on Saturday 14 November."
    assert holds(two, date("2026-11-08", "travel-out"), CTX)
    assert holds(two, date("2026-11-14", "travel-back"), CTX)


def test_role_words_agents_write() -> None:
    assert holds("Office closed Monday 7 September (Labour Day).", date("2026-09-07", "holiday"), CTX)
    assert holds("Payout is on 30 March.", date("2026-03-30", "due"), CTX)
    assert holds("The office reopens on 6 April.", date("2026-04-06", "start"), CTX)
    assert holds(
        "| Pessoa | Ida | Volta |\n|---|---|---|\n| Caio | 8 Nov | 14 Nov |", date("2026-11-14", "travel-back"), CTX
    )


def test_a_day_written_with_another_weekday_is_not_stated() -> None:
    assert holds("The review is on Tuesday 14 April 2026.", date("2026-04-14", "meeting"), CTX)
    assert not holds("The review is on Monday 14 April 2026.", date("2026-04-14", "meeting"), CTX)


def count(n: int, of: str) -> dict[str, object]:
    return {"mentions_count": {"n": n, "of": of, "claimed": True}}


def test_a_count_of_a_noun_phrase_is_a_count_of_its_head_noun() -> None:
    assert holds("The 2 replacement docking stations arrive Friday.", count(2, "docking stations"), CTX)
    assert holds("Two laptops were imaged.", count(2, "imaged laptops"), CTX)
    assert not holds("The 2 replacement docking stations arrive Friday.", count(3, "docking stations"), CTX)


def test_a_month_that_ends_a_sentence_does_not_make_the_next_number_a_day() -> None:
    assert holds("The office reopens on Thursday 7 January. 5 people on the rota.", count(5, "people"), CTX)
    assert not holds("We meet on January 5 with the team.", count(5, "people"), CTX)


def test_the_rows_of_a_table_of_options_not_taken_are_offers() -> None:
    table = (
        "| Hotel | Rate | Status |\n|---|---|---|\n| Langham | USD 412 | over policy |\n"
        "| Hyatt | USD 289 | **booked** |\n| Hampton | USD 219 | available |"
    )
    amount = {"mentions_amount": {"value": "289.00", "currency": "USD", "claimed": True}}
    assert holds(table, amount, CTX)
    assert not holds(table, {"mentions_amount": {"value": "412.00", "currency": "USD", "claimed": True}}, CTX)
    # a table with no row marked taken states every row
    plain = table.replace("**booked**", "available")
    assert holds(plain, {"mentions_amount": {"value": "412.00", "currency": "USD", "claimed": True}}, CTX)


def test_a_recipient_is_told_the_time_given_in_their_zone() -> None:
    from orchestrator.verify.told import _text

    body = "Hi Olena, hi Giorgi,\n\nPlanning call: Thursday 5 March, 15:30 Berlin, 16:30 in Kyiv, 17:30 in Tbilisi."
    others = {"Olena Shevchenko": "Europe/Kyiv"}
    # 15:30 Berlin is 18:30 in Tbilisi: the message tells Giorgi a wrong time, though it states the meeting's time
    assert not holds(_text({"body": body}, "Asia/Tbilisi", "Giorgi Beridze", others), CLAIMED, CTX)
    right = body.replace("17:30 in Tbilisi", "18:30 in Tbilisi")
    assert holds(_text({"body": right}, "Asia/Tbilisi", "Giorgi Beridze", others), CLAIMED, CTX)
    assert holds(
        _text({"body": body}, "Europe/Kyiv", "Olena Shevchenko", {"Giorgi Beridze": "Asia/Tbilisi"}), CLAIMED, CTX
    )


def test_both_ends_of_a_range_of_iso_dates() -> None:
    text = "Dates: 2026-03-03 arrive, 2026-03-04-2026-03-05 offsite at Factory Berlin, back 2026-03-06."
    assert holds(text, {"mentions_date": {"date": "2026-03-05", "claimed": True}}, CTX)
    assert holds(text, {"mentions_date": {"date": "2026-03-04", "claimed": True}}, CTX)


def test_the_steps_of_a_day_are_not_competing_times() -> None:
    day = (
        "Your day one:\n\n- **Arrive:** Thursday 5 March, 15:30 at reception\n- **Orientation:** Thu 5 March 16:30\n"
        "- **Lunch:** with your team at 12:30"
    )
    assert holds(day, CLAIMED, CTX)
    table = "| Leg | Departs | Arrives |\n|---|---|---|\n| Out | Thu 5 Mar, 15:30 CET | Thu 5 Mar, 18:45 GMT |"
    assert holds(table, CLAIMED, CTX)
    incident = "- Declared 15:30 CET; bridge is open.\n- Suspected cause: the 14:50 CET config push.\n- Next update: 17:00 CET."
    assert holds(incident, CLAIMED, CTX)
    # options listed without a label of their own compete; so do entries named as options
    assert not holds("Options:\n- Thu 5 Mar, 10:00\n- Thu 5 Mar, 15:30\n- Fri 6 Mar, 09:30", CLAIMED, CTX)
    assert not holds("- Option A: Thu 5 Mar, 15:30\n- Option B: Thu 5 Mar, 17:00", CLAIMED, CTX)
    # a conversion in its own entry, wrong by an hour, still competes
    assert not holds("- Review: Thursday 5 March, 15:30 CET\n- Dan: Thu 5 March, 10:30 EST", CLAIMED, CTX)


def test_a_slot_s_length_must_agree_with_its_range() -> None:
    slot = {"mentions_time": {"at": AT, "end": "2026-03-05T17:30:00+01:00", "claimed": True}}
    assert holds("Workshop: Thursday 5 March, 15:30–17:30. Driver calls 30 min ahead.", slot, CTX)
    assert not holds("Workshop: Thursday 5 March, 15:30–17:30\nLength: one hour", slot, CTX)
    assert not holds("Workshop: Thursday 5 March, 15:30 for one hour, finishing 17:30.", slot, CTX)
    # the end said apart ("finishing 17:30") is no competing start
    assert holds("Workshop: Thursday 5 March, 15:30 for two hours, finishing 17:30.", slot, CTX)
    assert holds("Workshop: Thursday 5 March, 15:30 for two hours, finishing 17:30.", CLAIMED, CTX)


def test_times_said_of_other_things_do_not_compete() -> None:
    for text in (
        "Call moved to 15:30 on Thursday 5 March — 14:00 was taken.",
        "Pickup Thursday 5 March, 15:30 (the 14:00 you asked for wasn't available).",
        "Thursday 5 March we leave at 15:30 (I know you said 14:00 suits you better).",
        "Moved the call to Thursday 5 March 15:30; Sami can't do anything before 15.",
    ):
        assert holds(text, CLAIMED, CTX), text


def test_nothing_final_takes_back_the_plan_not_its_counts_deadlines_or_other_sentences() -> None:
    count = {"mentions_count": {"n": 40, "of": "chairs", "claimed": True}}
    text = "Supplier call: probably Thursday 5 March 15:30, nothing is final yet.\nOrder of 40 chairs ships Friday 6 March."
    assert holds(text, {"mentions_date": {"date": "2026-03-06", "claimed": True}}, CTX)
    assert holds(text, count, CTX)
    assert not holds(text, CLAIMED, CTX)
    options = (
        "| Slot | Seats |\n|---|---|\n| Thu 5 Mar 15:30 | 40 chairs |\n| Fri 6 Mar 10:00 | 40 chairs |\n\n"
        "Nothing is booked yet: pick one by Wednesday 4 March."
    )
    assert not holds(options, CLAIMED, CTX)
    assert holds(options, count, CTX)
    assert holds(options, {"mentions_date": {"date": "2026-03-04", "role": "deadline", "claimed": True}}, CTX)
    assert not holds("Nothing is final yet, but we are leaning to Thursday 5 March, 15:30.", CLAIMED, CTX)


def test_roles_read_from_what_holds_from_a_date_and_from_other_languages() -> None:
    assert holds("Term: 12 months from 1 October 2026.", date("2026-10-01", "start"), CTX)
    assert holds("The rent rises to EUR 2,260 per month from 1 May 2027.", date("2027-05-01", "start"), CTX)
    assert holds("The last day to give notice is Friday 1 May 2026.", date("2026-05-01", "deadline"), CTX)
    invoice = "Votre facture sera réglée le 30 avril 2027, et non le 15 avril."
    assert holds(invoice, date("2027-04-30", "due"), CTX)
    assert not holds(invoice, date("2027-04-15", "due"), CTX)
    # leave taken is no travel day
    assert not holds("Anna is on annual leave on Monday 16 March.", date("2026-03-16", "travel-out"), CTX)
    assert holds("Anna is on annual leave on Monday 16 March.", date("2026-03-16", "holiday"), CTX)


def test_an_amount_taken_back_is_not_stated_and_each_is_read_where_it_is_written() -> None:
    def amount(value: str, currency: str) -> dict[str, object]:
        return {"mentions_amount": {"value": value, "currency": currency, "claimed": True}}

    assert not holds("The invoice is $3.4k — sorry, no, it's €3.4k.", amount("3400", "USD"), CTX)
    assert holds("The invoice is $3.4k — sorry, no, it's €3.4k.", amount("3400", "EUR"), CTX)
    # a declined amount is still the amount at issue (the decision refuses it)
    assert holds("Your expense claim of €312.80 was rejected.", amount("312.80", "EUR"), CTX)
    # the same amount written twice is read where each is written: set aside once, stated once
    assert holds("Not €500 as first quoted: the total is €500 after all.", amount("500", "EUR"), CTX)


def test_a_time_takes_no_day_the_text_sets_aside() -> None:
    # the rows under "Thu 5 March (moved from Wed 4)" are on Thursday
    table = "**Review — Thu 5 March** (moved from Wed 4)\n\n| City | Time |\n|---|---|\n| Berlin | 15:30 |"
    assert holds(table, CLAIMED, CTX)
    # "(was Wed 2pm)": the old slot with its day is set aside, and the new one stands
    moved = "Client review is now Thurs 5 March, 3:30pm (was Wed 2pm)."
    assert holds(moved, CLAIMED, CTX)
    assert not holds(moved, {"mentions_time": {"at": "2026-03-04T14:00:00+01:00", "claimed": True}}, CTX)


def test_counts_in_other_languages_and_of_people_named_by_their_role() -> None:
    def count(n: int, of: str) -> dict[str, object]:
        return {"mentions_count": {"n": n, "of": of, "claimed": True}}

    booking = "Confermiamo la prenotazione dal 12 al 14 luglio: 2 notti, 2 camere per 4 persone, e non 3 notti."
    assert holds(booking, count(2, "nights"), CTX)
    assert holds(booking, count(4, "people"), CTX)
    assert not holds(booking, count(3, "nights"), CTX)
    assert holds("Participarán dos personas del equipo.", count(2, "interviewers"), CTX)
    assert holds("Nous livrons douze palettes le 3 mars.", count(12, "pallets"), CTX)
    assert holds("They're sending a team of 4; badges by Friday.", count(4, "auditors"), CTX)
    # "due" is an English word, not the Italian two
    assert not holds("The report is due tomorrow for the auditors.", count(2, "auditors"), CTX)


def test_a_list_offered_as_options_and_a_rough_time_state_no_time() -> None:
    options = "Three options for the steering call — none booked yet:\n\n- Thu 5 Mar, 15:30\n- Fri 6 Mar, 10:00\n"
    assert not holds(options, CLAIMED, CTX)
    picked = "Panel options:\n- Wed 4 Mar, 13:00\n- Thu 5 Mar, 15:30 ✅ booked\n- Fri 6 Mar, 15:30"
    assert holds(picked, CLAIMED, CTX)
    assert not holds(picked, {"mentions_time": {"at": "2026-03-04T13:00:00+01:00", "claimed": True}}, CTX)
    assert not holds("Back Thursday 5 March, around 15:30, on LH 2039.", CLAIMED, CTX)
    assert not holds("I think it's Thursday 5 March at 15:30.", CLAIMED, CTX)


def test_a_slot_released_cancelled_in_other_words_or_not_booked_is_set_aside() -> None:
    old = {"mentions_time": {"at": "2026-03-06T10:00:00+01:00", "claimed": True}}
    for text in (
        "Thursday 5 March at 15:30 works. I've released the Friday 10:00 hold.",
        "- When: Thu 5 Mar, 15:30\n- The backup slot (Fri 6 Mar 10:00) has been released.",
        "Booked Thursday 5 March, 15:30. The Friday 10:00 alternative is NOT booked.",
    ):
        assert holds(text, CLAIMED, CTX), text
        assert not holds(text, old, CTX), text
    assert not holds("La réunion prévue le 6 mars à 10h est annulée.", old, CTX)


def test_status_words_are_read_through_a_slip() -> None:
    old = {"mentions_time": {"at": "2026-03-04T14:00:00+01:00", "claimed": True}}
    typo = "Wed 4 March 2pm cancelld, moved to Thursday 5 March 15:30. Invite sent."
    assert holds(typo, CLAIMED, CTX)
    assert not holds(typo, old, CTX)
    relased = "Confimed for Thursday 5 March at 15:30. Old slot (Wednesday 4 March, 14:00) is relased."
    assert holds(relased, CLAIMED, CTX)
    assert not holds(relased, old, CTX)


def test_a_date_dropped_taken_or_cancelled_in_other_words_is_set_aside() -> None:
    def meeting(day: str) -> dict[str, object]:
        return {"mentions_date": {"date": day, "role": "meeting", "claimed": True}}

    for text, old in (
        ("No standup on Wednesday 4 March (strike day). Standup as usual Thursday 5 March.", "2026-03-04"),
        ("08:00 works, but Wednesday's taken (board offsite). Let's meet Thursday 5 March instead.", "2026-03-04"),
        ("Set the release call for Thursday 5 March (we'd originally said Wednesday).", "2026-03-04"),
        ("The Wednesday 10:00 review with Iberdata is cancelled; the call is on Thursday 5 March.", "2026-03-04"),
        ("Termin am Donnerstag, 5. März. Der ursprünglich vorgeschlagene Termin am 4. März entfällt.", "2026-03-04"),
    ):
        assert holds(text, meeting("2026-03-05"), CTX), text
        assert not holds(text, meeting(old), CTX), text
    # an arrow right after a day moves it; one after its time and other words does not
    assert holds("Call Thu 5 March 9:00 CET works → that's 8:00 for Siobhán.", meeting("2026-03-05"), CTX)


def test_a_length_written_like_a_clock_time_is_a_length() -> None:
    slot = {"mentions_time": {"at": AT, "end": "2026-03-05T17:30:00+01:00", "claimed": True}}
    training = "Formation RGPD : jeudi 5 mars, 15h30–17h30, soit 2h. Salle Voltaire."
    assert holds(training, CLAIMED, CTX)
    assert holds(training, slot, CTX)
    assert holds("Due Thursday 5 March, 15:30 CET: Business tier (2h), not Premium (1h30).", CLAIMED, CTX)


def test_an_undercut_about_its_own_subject_takes_back_only_its_clause() -> None:
    # a caveat with its own subject or its own value governs its clause, not the sentence's other clauses
    assert holds("- Accounts: 4 of 6 created; VPN + Jira pending.", count(4, "accounts"), CTX)
    split = (
        "Part 1 (6 items) delivered 2026-07-22; part 2 back-ordered, supplier says 2026-08-05 but can't guarantee it."
    )
    assert holds(split, {"mentions_date": {"date": "2026-07-22", "claimed": True}}, CTX)
    assert not holds(split, {"mentions_date": {"date": "2026-08-05", "claimed": True}}, CTX)
    # a caveat of its own, about nothing named, still takes back the sentence
    assert not holds("Thursday 5 March, 15:30 - not confirmed yet.", CLAIMED, CTX)
    assert not holds(
        "Provisionally Monday 16:00 CEST (10:00 ET) - I'll confirm on Friday once Legal replies.",
        {"mentions_time": {"at": "2026-03-09T16:00:00+01:00", "claimed": True}},
        CTX,
    )


def test_another_set_of_the_same_things_does_not_contradict_a_count() -> None:
    assert holds("- 3 pallets arrive Monday. The other 2 pallets are stuck in customs.", count(3, "pallets"), CTX)
    assert holds("Access review: 14 of 16 managers done.", count(14, "managers"), CTX)
    assert holds("Part 1 (6 items) delivered; part 2 (2 items) back-ordered.", count(6, "items"), CTX)
    assert holds("Total: 3 nights (the earlier request for 4 nights is withdrawn).", count(3, "nights"), CTX)
    assert not holds("Total: 3 nights (the earlier request for 4 nights is withdrawn).", count(4, "nights"), CTX)
    # a second count of the very same things still contradicts
    assert not holds("Booked 5 rooms. Later: 4 rooms at the Hilton.", count(5, "rooms"), CTX)
    # a number naming a place in a series is no count ("dock 4", "car 7")
    assert not holds("3 pallets arrive at dock 4, car 7.", count(4, "pallets"), CTX)


def test_a_count_s_noun_read_through_a_slip_another_form_or_an_adjective() -> None:
    assert holds("Confirmed for Tuesday. Attendess: 6.", count(6, "attendees"), CTX)
    assert holds("- 62 registered so far", count(62, "registrants"), CTX)
    assert holds("Mandatory for the 18 new joiners.", count(18, "people"), CTX)
    assert not holds("We made 14 new offers.", count(14, "people"), CTX)


def test_a_journey_s_departure_and_arrival_are_two_steps_not_a_move() -> None:
    ctx = Context({}, {}, timezone="America/New_York", now=datetime(2027, 1, 15, 17, tzinfo=UTC))
    dep = {"mentions_time": {"at": "2027-01-19T08:00:00-05:00", "claimed": True}}
    arr = {"mentions_time": {"at": "2027-01-19T11:35:00-05:00", "claimed": True}}
    for text in (
        "Train booked: Amtrak 2153, Tue 19 Jan, dep NYP 08:00 → BOS 11:35.",
        "Train booked: Amtrak 2153, Tue 19 Jan, NYP 08:00 → BOS 11:35.",
        "Train booked: Amtrak 2153 to Boston, Tue 19 Jan, dep 08:00, arr 11:35 local.",
    ):
        assert holds(text, dep, ctx), text
        assert holds(text, arr, ctx), text
    # an arrow straight to another time is a move: the old time is set aside
    moved = "Standup moved Tue 19 Jan 08:00 → 11:35."
    assert holds(moved, arr, ctx)
    assert not holds(moved, dep, ctx)
    # two departures compete
    assert not holds("Tue 19 Jan: dep 08:00, or dep 11:35 if the first is full.", dep, ctx)


def test_an_offset_written_after_utc_is_no_clock_time() -> None:
    ctx = Context({}, {}, timezone="Asia/Kolkata", now=datetime(2027, 3, 1, 8, tzinfo=UTC))
    at = {"mentions_time": {"at": "2027-03-04T20:30:00+05:30", "claimed": True}}
    for text in (
        "Thursday 4 March: it's 8:30pm (IST is UTC+5:30, ET is UTC−5 this week).",
        "Thursday 4 March at 8:30pm IST (GMT +5:30).",
    ):
        assert holds(text, at, ctx), text


@pytest.mark.parametrize(
    "text",
    [
        "INC-8120: service restored 15:30 CET on 5 March (initially reported as 15:00).",
        "Outage began 15:30 CET on 5 March. Our earlier update said it started at 15:00; the monitor data shows 15:30.",
        "The 15:00 ETA on 5 March is missed; next update at 15:30 CET.",
        "Next update on 5 March: 15:00 CET — sorry, scratch that, we're already past it: next update 15:30 CET.",
        "On 5 March the failover was at 15:30 CET. The 15:00 timestamp in #alerts was the first warning, not the failover.",
        "Treffen am Donnerstag, 5. März, 15:30 – nicht 15 Uhr wie ursprünglich geplant.",
        "Response on 5 March was due 15:30 CET. The customer's email says it was due at 15:00, but their tier differs.",
    ],
)
def test_a_time_reported_earlier_or_taken_back_is_set_aside(text: str) -> None:
    assert holds(text, CLAIMED, CTX)
    assert not holds(text, {"mentions_time": {"at": "2026-03-05T15:00:00+01:00", "claimed": True}}, CTX)


@pytest.mark.parametrize(
    ("text", "day", "role"),
    [
        (
            "You fly out Sunday 21 June and back Friday 26 June; I'll book the flights today.",
            "2026-06-26",
            "travel-back",
        ),
        ("- Back: Sun 19 July, Lisbon → Dublin, EI 485, dep 11:25", "2026-07-19", "travel-back"),
        ("Back Thu 29 Oct, evening, on LH 2039.", "2026-10-29", "travel-back"),
        (
            "- Arrival: Sunday 14 June, SK 909 from Copenhagen, landing at JFK 13:05 local time",
            "2026-06-14",
            "travel-out",
        ),
        ("Hotel booked Mon 11 – Thu 14 May, 3 nights, Motel One Hamburg.", "2026-05-11", "travel-out"),
        ("Hotel booked Mon 11 – Thu 14 May, 3 nights, Motel One Hamburg.", "2026-05-14", "travel-back"),
        ("Still 2 nights in Cologne, 19–21 Aug.", "2026-08-21", "travel-back"),
        ("La consegna dei 12 server è prevista per martedì 3 marzo 2026.", "2026-03-03", "delivery"),
        ("A entrega do pedido foi reagendada para sexta, 30/10, entre 14h e 18h.", "2026-10-30", "delivery"),
        ("Le proposte andranno inviate entro venerdì 13 marzo.", "2026-03-13", "deadline"),
        ("The SLA takes effect on 1 April 2026; until then the old terms apply.", "2026-04-01", "start"),
        ("Leave runs 16 March – 14 August 2026; manager approval is recorded there.", "2026-03-16", "start"),
    ],
)
def test_a_date_s_role_in_the_words_agents_write(text: str, day: str, role: str) -> None:
    assert holds(text, date(day, role), CTX)


def test_an_arrival_of_goods_is_a_delivery_and_of_people_a_day_out() -> None:
    assert holds("The laptops arrive on Friday 6 March.", date("2026-03-06", "delivery"), CTX)
    assert not holds("The laptops arrive on Friday 6 March.", date("2026-03-06", "travel-out"), CTX)
    assert not holds("Hotel booked Mon 11 – Thu 14 May, 3 nights.", date("2026-05-14", "travel-out"), CTX)


def test_a_line_s_label_gives_the_role_of_its_own_clause_only() -> None:
    text = "Design review: Wed 3 Jun 10:00 (2 June is Festa della Repubblica, office closed)."
    assert holds(text, date("2026-06-02", "holiday"), CTX)
    assert holds(text, date("2026-06-03", "meeting"), CTX)
    legs = "Booking now for Nuria: out Mon 11 May, back Wed 13 May, 2 nights at the Motel One."
    assert holds(legs, date("2026-05-11", "travel-out"), CTX)
    assert holds(legs, date("2026-05-13", "travel-back"), CTX)
    assert not holds("I'm out Mon 11 May, back Wed 13 May.", date("2026-05-11", "travel-out"), CTX)
    # a time said of something else names no other time across the end of its sentence
    due = "Timesheets are due Thursday 5 March by 5pm. The 12th you mentioned is the pay date, not the cutoff."
    assert holds(due, {"mentions_time": {"at": "2026-03-05T17:00:00+01:00", "claimed": True}}, CTX)


def test_a_declined_slot_is_set_aside_and_a_proposal_awaiting_an_answer_is_not_stated() -> None:
    text = "Declined the Thu 5 Mar 10:00 invite on your behalf; proposed Thu 5 Mar 15:30 instead — waiting for Hugo to accept."
    old = {"mentions_time": {"at": "2026-03-05T10:00:00+01:00", "claimed": True}}
    assert not holds(text, old, CTX)
    assert not holds(text, CLAIMED, CTX)
    assert not holds("Declined Thursday's 10:00; suggested Thursday 5 March 15:30 instead, no reply yet.", CLAIMED, CTX)
    assert not holds("I beleive the review is Thursday 5 March at 15:30, but check with Conor.", CLAIMED, CTX)
    # once accepted, the proposal is the time
    assert holds("Declined the Thu 5 Mar 10:00 invite; Hugo accepted Thu 5 Mar 15:30 instead.", CLAIMED, CTX)
    assert not holds("Declined the Thu 5 Mar 10:00 invite; Hugo accepted Thu 5 Mar 15:30 instead.", old, CTX)
    assert not holds("The venue declined Thursday 5 March; holding Friday 6 March.", date("2026-03-05", "event"), CTX)


def test_a_table_row_s_place_is_where_someone_is_not_where_they_come_from() -> None:
    lisbon = Context({}, {}, timezone="Europe/Lisbon", now=datetime(2026, 10, 14, 9, tzinfo=UTC))
    arrivals = (
        "Arrivals (Wed 21 Oct), Lisbon local times.\n\n| Person | From | Flight | Lands LIS |\n|---|---|---|---|\n"
        "| Mateus | São Paulo | TP 088 | 06:50 |\n| Ben | NYC (JFK) | TP 210 | 07:15 |"
    )
    assert holds(arrivals, {"mentions_time": {"at": "2026-10-21T07:15:00+01:00", "claimed": True}}, lisbon)
    assert holds(arrivals, {"mentions_time": {"at": "2026-10-21T06:50:00+01:00", "claimed": True}}, lisbon)
    ny = Context({}, {}, timezone="America/New_York", now=datetime(2026, 4, 20, 9, tzinfo=UTC))
    who = (
        "All — LP update call Tuesday April 28, 4:00 pm ET.\n\n| Who | Local |\n|---|---|\n"
        "| Tyler (SF) | 1:00 pm Tue |\n| Fiona (London) | 9:00 pm Tue |"
    )
    assert holds(who, {"mentions_time": {"at": "2026-04-28T16:00:00-04:00", "claimed": True}}, ny)
    assert not holds(who.replace("1:00 pm", "2:00 pm"), {"mentions_time": {"at": "2026-04-28T16:00:00-04:00"}}, ny)


def test_a_time_after_a_person_s_name_is_read_for_them() -> None:
    # "Chidi 16:30": a time for a person in a zone this reader does not know, read for them (a told check)
    for text in (
        "Regional call: Thu 5 March, 15:30 CET. Chidi 15:30, Thandi 16:30, Leila 17:30.",
        "Moved to Thursday 5 March, 15:30 CET. Dewi 14:30 · Somchai 14:30 · Paolo 15:30.",
    ):
        assert holds(text, CLAIMED, CTX), text
    # without a zone on the meeting's time, or after a day or an option, another time still competes
    assert not holds("Regional call: Thu 5 March, 15:30. Thursday 16:30 for the rest.", CLAIMED, CTX)
    assert not holds("Thu 5 March, 15:30 CET; Option 16:30.", CLAIMED, CTX)
    assert holds("Thu 5 March, 15:30 CET; Chidi 16:30.", CLAIMED, CTX)


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("The tasting is the day after tomorrow at 14:00, not tomorrow.", "2026-03-04T14:00:00+01:00"),
        ("De zitting is verplaatst naar dinsdag 3 maart om 15.30 uur, in zaal 2.14.", "2026-03-03T15:30:00+01:00"),
        ("ok — Tues 3/3 at 4 for the 3 of us.", "2026-03-03T16:00:00+01:00"),
        (
            "The client drinks on Thursday 5 March still kick off at six, so plenty of time.",
            "2026-03-05T18:00:00+01:00",
        ),
    ],
)
def test_days_and_hours_said_in_words_and_other_languages(text: str, at: str) -> None:
    assert holds(text, {"mentions_time": {"at": at, "claimed": True}}, CTX)


def amount(value: str, currency: str) -> dict[str, object]:
    return {"mentions_amount": {"value": value, "currency": currency, "claimed": True}}


def test_amounts_written_the_way_their_country_writes_them() -> None:
    assert holds("CTC: INR 32,00,000 per annum (fixed + variable).", amount("3200000", "INR"), CTX)
    assert not holds("CTC: INR 32,00,000 per annum (fixed + variable).", amount("32", "INR"), CTX)
    assert holds("Refund approved: R$ 1.249,90 to order #BR-330184.", amount("1249.90", "BRL"), CTX)
    assert not holds("Refund approved: R$ 1.249,90 to order #BR-330184.", amount("1249.90", "USD"), CTX)
    assert holds("Booked at A$ 412 a night.", amount("412", "AUD"), CTX)
    refund = "Refund approved: R$ 1.249,90 (original charge R$ 1.429,90; shipping is kept)."
    assert not holds(refund, amount("1429.90", "BRL"), CTX)


def test_an_amount_that_was_is_set_aside_only_beside_another_one() -> None:
    assert holds("Deposit was $320, I'll send the Venmo request.", amount("320", "USD"), CTX)
    assert not holds("The fee was $320; it is now $280.", amount("320", "USD"), CTX)
    assert holds("The fee was $320; it is now $280.", amount("280", "USD"), CTX)


@pytest.mark.parametrize(
    ("text", "day", "role"),
    [
        ("Logged 5 days of leave for you: Mon 16 – Thu 19 Nov.", "2026-11-16", "holiday"),
        ("Your request for sabbatical leave from 1 March 2027 to 31 August 2027 is approved.", "2027-03-01", "holiday"),
        ("December payroll runs Mon 21 Dec (not the usual 28th).", "2026-12-21", "due"),
        ("The award will be disbursed in two instalments, the first on 15 January 2027.", "2027-01-15", "due"),
        ("Sprint 57 now ends Tuesday 20 October because of the offsite.", "2026-10-20", "deadline"),
        ("Le rogamos que confirme su asistencia antes del viernes 27 de febrero.", "2026-02-27", "deadline"),
        ("Hiermit kündigen wir den Vertrag fristgerecht zum 31. März 2027.", "2027-03-31", "deadline"),
        ("The commencement date is amended from 1 February 2027 to 15 February 2027.", "2027-02-15", "start"),
        ("- Last regular CAB before the freeze: Tue 15 Dec", "2026-12-15", "meeting"),
        ("WMS implementation kickoff confirmed: Tuesday March 24, 9:00 am CT, Room 3B.", "2026-03-24", "meeting"),
        (
            "Flights booked (LH 400).\n- Arrival: Monday 13 July 2026 (instead of Sunday 12 July)",
            "2026-07-13",
            "travel-out",
        ),
    ],
)
def test_the_roles_of_absences_payments_ends_and_meetings(text: str, day: str, role: str) -> None:
    assert holds(text, date(day, role), CTX)


@pytest.mark.parametrize(
    "text",
    [
        "Your final invoice, expected to be in the region of £7,800, is due by 15 January.",
        "Registration is EUR 450 (≈ GBP 7,800 at today's rate).",
        "Il costo complessivo dovrebbe aggirarsi intorno ai 7.800 £, ma attendiamo la fattura.",
        "Die Kosten liegen bei etwa 7.800 £.",
    ],
)
def test_an_amount_given_roughly_in_other_words_is_not_stated(text: str) -> None:
    assert not holds(text, amount("7800", "GBP"), CTX)


def test_an_estimate_or_an_expectation_of_an_amount_is_set_aside() -> None:
    assert not holds("The repair estimate of $640.00 is therefore not covered.", amount("640", "USD"), CTX)
    text = "Salary: EUR 72,000. Your application mentioned a salary expectation of EUR 68,000."
    assert not holds(text, amount("68000", "EUR"), CTX)
    assert holds(text, amount("72000", "EUR"), CTX)


def test_a_part_of_a_whole_counts_the_whole_s_noun() -> None:
    assert holds("Two of the three panelists liked his portfolio.", count(2, "panelists"), CTX)
    assert holds("You're at 2 of 5 modules.", count(2, "modules"), CTX)
    assert not holds("You're at 2 of 5 modules.", count(3, "modules"), CTX)


def test_a_time_for_both_or_all_of_you_in_a_place_is_read_there() -> None:
    ny = Context({}, {}, timezone="America/New_York", now=datetime(2026, 10, 14, 9, tzinfo=UTC))
    sync = {"mentions_time": {"at": "2026-10-21T11:00:00-04:00", "claimed": True}}
    text = "The sync moves to Wednesday 21 October, 11:00 ET, which is 16:00 for both of you in Dublin and Lisbon."
    assert holds(text, sync, ny)
    assert not holds(text.replace("16:00", "17:00"), sync, ny)


def test_what_is_on_hold_is_not_booked() -> None:
    text = "5 rooms on hold for 12–14 April at the Hotel Sacher; the hold releases on 2 April unless we confirm."
    assert not holds(text, date("2026-04-12", "travel-out"), CTX)
    assert holds("5 rooms booked for 12–14 April at the Hotel Sacher.", date("2026-04-12", "travel-out"), CTX)
    assert holds(text, count(5, "rooms"), CTX)
