"""What a text says: date-times, dates, amounts, people, links, and reused confidential wording.

The text operators of `where` conditions (`mentions_time`, `mentions_date`,
`mentions_amount`, `mentions_person`, `links`, `leaks`) are decided here, by
parsing the text instead of matching a pattern, so that a reply written
"Thu 5 March, 3:30 pm", "2026-03-05 15:30" or "14:30 UTC" is read as the same
instant, and one that says "09:30 CET" is not.

Date-times are read with a small deterministic grammar rather than a general
date search (`dateparser.search` reads "we" as a weekday, "3.30pm" as 3 o'clock
and "5/3" month first); numbers of amounts are read with `price-parser`.

- Times: `15:30`, `3:30 pm`, `3.30pm`, `15h30`, `3 pm`, `noon`, ISO date-times;
  followed by a zone (`CET`, `UTC`, `+01:00`, `UTC+1`, `Europe/London`) or a place
  (`Lisbon time`, `New York`, `for Ana in Lisbon`, `UK time`), else in a zone said
  for them (`(London time):`), else in the reader's zone. `3:30` without am/pm
  (hours 1-11, no leading zero) may be either. Ranges (`14:00-14:45`, `2-2:45pm`,
  `from 2 to 3 pm`) state their start; `-05:00` after a time is an offset only
  when it cannot end a range.
- Dates: ISO `2026-03-05`, `5 March`, `March 5th, 2026`, `5/3` (day first, or month
  first when the day-first reading is impossible; both readings count when both
  are possible), `5.3.2026`, weekdays (`Thu`, `Thursday`: that day of the coming two
  weeks from the clock, today included; `this Thursday`, `Thursday next week`),
  `today`, `tomorrow`. A weekday next to a date is part of it.
- A time takes the nearest date of its sentence, else the nearest date before it.
- Quoted lines (`> ...`) and "On ... wrote:" headers are not read: quoting a
  message does not state its content.

Modules, one reading each: `clean` (what of a text is read), `zones`, `dates`, `times`, `instants`
(`mentions_time`, `mentions_date`), `amounts`, `people`, `links`, `leaks`, and `operators` (operands, whether an
operator holds, what the text says instead).

May import: nothing of the orchestrator (`price-parser` for amounts; `quotequail`, `markdown-it-py` and
`rapidfuzz` for the parse).
"""
