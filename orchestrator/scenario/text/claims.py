"""What a text asserts: the text with everything it does not claim blanked out (offsets hold).

A fact counts as *claimed* only where the writer asserts it. Blanked:

- a sentence that hedges ("hoping for Tuesday", "maybe Thursday", "it might ship Friday"), a clause under a
  condition ("if it ships Friday"), and a question ("does Thursday work?"; only its last clause in "Thursday,
  14 guests - could you confirm?"; a request such as "could you book Thursday?" asserts what it asks for);
- a whole sentence that takes back its own certainty ("..., but no date yet", "not confirmed", "tentatively",
  "TBC", "I'll let you know");
- alternatives ("Wednesday or Thursday", "12 to 14 people", "between 12 and 14"): a value offered as one of
  several is not stated.

Clauses end at `;`, `:`, a dash between spaces, ", but", ", though", ", although", ", unless" and ", if"; sentences
at `.`, `!`, `?` and blank lines. The readers of times, dates, amounts and phrases then run on what is left.
"""

from __future__ import annotations

import re

from orchestrator.scenario.text.clean import per_text
from orchestrator.scenario.text.parse import MONTH, WEEKDAY, clauses, sentences

HEDGE = re.compile(
    r"\b(?:hop(?:e|es|ed|ing)(?!\s+(?:this|that|it)\s+helps|\s+(?:you|all|everything)(?:'re|\s+are|\s+is|'s)\s+(?:well|good|fine)|"
    r"\s+you\s+(?:had|have|enjoy|are\s+doing))|hopefully|maybe|perhaps|possibl[ey]|probabl[ey]|might|"
    r"may\s+(?:be|slip|change|move|shift|still|not|need|end\s+up)|"
    r"aim(?:s|ed|ing)?\s+(?:for|at|to)|targeting|tentative(?:ly)?|(?<!un)likely|guess|"
    r"not\s+sure|unsure|unclear|uncertain|ideally|pencil(?:l?ed)?\s+(?:in|for)|fingers\s+crossed|realistically|"
    r"propos(?:e|ing)|suggest(?:ing)?|provisional(?:ly)?|tentative|in\s+principle|should\s+be|ish|thinks?|"
    r"bel(?:ie|ei)ves?)\b",
    re.I,
)
CONDITION = re.compile(
    r"\b(?:if|unless|assuming|provided\s+that|depend(?:s|ing)?\s+on|contingent\s+on|could(?!\s+you))\b", re.I
)
ANSWER_PENDING = re.compile(
    r"\b(?:(?:waiting|wait)\s+(?:for|on)\s+(?:[\w'’]+\s+){1,3}?to\s+(?:accept|reply|respond|agree)|"
    r"no\s+(?:reply|response|answer)\s+yet|on\s+hold)\b",
    re.I,
)
"""A proposal still awaiting its answer ("proposed Wed 14:00 instead, waiting for Hugo to accept"), a booking on
hold: its day and time are not asserted (an amount or a count beside it is: "5 rooms on hold")."""
AWAITED = re.compile(
    r"\b(?:still\s+(?:waiting|pending)|pending|awaiting|waiting\s+(?:for|on)|once\s+\w+\s+confirms?)\b", re.I
)
"""An undercut that says what is still awaited (a confirmation, a signature, someone's diary), not that the values
are unsure: "6 people — pending confirmation from facilities", "refund requested (USD 129) — pending with Amtrak".
Like an answer pending, it takes back when the thing happens (its day and time), not how much or how many it is
for; "EUR 180,000 (to be confirmed by Finance)" or "TBC" say the value itself is unsure."""
QUESTION_BREAK = re.compile(r"[,;:]\s|\s[–—-]\s")
REQUEST = re.compile(r"^\W*(?:\w+,\s*)?(?:(?:could|can|would|will)\s+you|please)\b", re.I)
UNDERCUT = re.compile(
    r"\b(?:no\s+(?:firm\s+|fixed\s+|confirmed\s+|final\s+)?(?:date|time|day|number|figure|eta|decision|answer|word)\s+yet|"
    r"not\s+(?:yet\s+)?(?:confirmed|final(?:i[sz]ed)?|fixed|decided|settled|certain|set\s+in\s+stone|definite)|"
    r"(?:un|not\s+)confirmed|tbc|tbd|to\s+be\s+(?:confirmed|determined|decided|agreed)|"
    r"(?:i|we)(?:'ll|\s+will)\s+(?:let\s+you\s+know|confirm|get\s+back\s+to\s+you)|"
    r"(?:will|to)\s+confirm\s+(?:later|soon|once|when|by)|subject\s+to\s+(?:change|confirmation)|"
    r"not\s+(?:100\s*%|a\s+hundred\s+percent)|can(?:'t|not)\s+(?:promise|guarantee|commit)|"
    r"still\s+(?:waiting|open|pending|unknown|tbd)|pending|no\s+guarantee|once\s+\w+\s+confirms?|"
    r"awaiting\s+(?:confirmation|sign-?off)|(?:can|could)\s+still\s+(?:change|move|slip))",
    re.I,
)
OR_ALTERNATIVES = re.compile(
    r"\b(?P<a>[\w:.,/$€£-]+)\s+(?:or|and/or)\s+(?:maybe\s+|perhaps\s+|possibly\s+)?(?:on\s+|at\s+)?(?P<b>[\w:.,/$€£-]+)",
    re.I,
)
NUMBER_RANGE = re.compile(
    r"(?<![\w:./-])(?:between\s+)?\d+(?:[.,]\d+)?\s*(?:to|-|–|—|or|and)\s*\d+(?:[.,]\d+)?(?![\d:/-])"
    r"(?!\s*(?:[ap]\.?m\b|h\d*\b|uhr\b))",
    re.I,
)
FACT_WORD = re.compile(
    r"^(?:\d[\w:.,/-]*|[$€£]\d[\d.,]*|[A-Z]{3}\d[\d.,]*|eur|usd|gbp|chf|jpy|cad|aud|euros?|dollars?|pounds?|"
    + WEEKDAY
    + "|"
    + MONTH
    + r"|today|tomorrow|noon|midday|morning|afternoon|evening|next|this|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)$",
    re.I,
)


def _blank(text: str, start: int, end: int) -> str:
    piece = text[start:end]
    return text[:start] + re.sub(r"[^\n]", " ", piece) + text[end:]


def _is_time_range(sentence: str, m: re.Match[str]) -> bool:
    """A range of clock times or of dates ("14:00–15:00", "2-3pm", "5-7 March"), or the numbers after a name (a
    street's "Herrmannallee 1-9"), is a stated span, not alternatives."""
    before = sentence[max(0, m.start() - 12) : m.start()].lower()
    after = sentence[m.end() : m.end() + 14].lower()
    months = r"\s*" + MONTH
    if re.match(r"\s*(?:[ap]\.?m\b|h\b|uhr|o'clock|hrs|" + MONTH + ")", after) or re.search(
        r"\b(?:from|at)\s*$", before
    ):
        return True
    if ":" in m.group(0) or re.search(months + r"\.?\s*$", before):
        return True
    named = re.search(  # a word of four letters or more, or a hyphenated name ("Ursula-Schmidtke-Weg 96-85")
        r"\b([A-ZÄÖÜ][^\W\d_]{3,}|[A-ZÄÖÜ][^\W\d_]*(?:-[^\W\d_]+)+)\s*$", sentence[max(0, m.start() - 30) : m.start()]
    )
    return bool(named and not FACT_WORD.match(named.group(1)))  # "Fechnergasse 71-79", "Rooms 4-6": numbers of a name


NAME_BEFORE = re.compile(r"\b[A-ZÄÖÜ][^\W\d_]+ $")
NAME_AFTER = re.compile(r"^ ([A-ZÄÖÜ][^\W\d_]+)")


def _hedges(sentence: str) -> bool:
    """The sentence hedges; a hedge word capitalized inside a name, after the sentence's first word and next to
    another capitalized word that is no day or month ("offsite at Hope Forum", "Bob Hope"), is not a hedge."""
    for m in HEDGE.finditer(sentence):
        word, before, after = m.group(0), sentence[: m.start()], sentence[m.end() :]
        if word[0].isupper() and re.search(r"\w", before):
            beside = NAME_AFTER.match(after)
            if NAME_BEFORE.search(before) or (beside and not FACT_WORD.match(beside.group(1))):
                continue
        return True
    return False


KINDS = ("any", "time", "date", "amount", "count", "code")
"""What a reading is about: an undercut or an alternative of another kind of fact does not govern it."""
GOVERNS = {
    "any": {"time", "date", "amount", "count"},
    "time": {"time", "date"},
    "date": {"date"},
    "amount": {"amount", "count"},
    "count": {"count"},
    "code": set(),
}
"""The kinds of alternatives that take a reading's value away: a time on one of two days is not stated either."""
TOPIC = re.compile(
    r"\b(?P<time>(?:flight|start|end|departure|arrival|pick-?up|exact)\s+times?|times|timings?|eta|slots?)\b|"
    r"\b(?P<date>dates?|days?|deadline)\b|"
    r"\b(?P<amount>prices?|costs?|fares?|budget|amounts?|figures?|rates?|fees?|totals?|quotes?|invoice)\b|"
    r"\b(?P<count>numbers|headcount|attendance|guest\s+list)\b|"
    r"\b(?P<other>hotels?|rooms?|venues?|address|locations?|seats?|catering|menu|agenda|details|rest|logistics|"
    r"transport|car|train|taxi|visa|links?|dial-?in|speakers?|owners?|format|name|flight\s+numbers?|gates?|"
    r"terminal|signature|paperwork|contract|pricing\s+tier|room\s+number|flights?|tickets?|bookings?|"
    r"reservations?|seat\s+numbers?)\b",
    re.I,
)
NOTHING_FINAL = re.compile(
    r"\b(?:nothing(?:'s|\s+is|\s+has\s+been)?\s+(?:final|confirmed|fixed|booked|set|settled|decided)(?:\s+yet)?|"
    r"none\s+of\s+(?:this|it)\s+is\s+(?:final|confirmed))\b",
    re.I,
)

_TAKE_BACK = (
    r"(?:reject|refus|declin|den(?:y|ie)|revok|withdr[ae]w|revers|rescind|overturn|undo|un-?approv|"
    r"pull(?:ed|ing)?\s+(?:(?:it|this|that|the\s+approval)\s+)?back|take(?:n)?\s+(?:(?:it|this|that|the\s+approval)\s+)?back)"
)
DECISION_TAKEN_BACK = re.compile(
    r"\b(?:(?:this|it|that|approval|decision|request|I|we)\s+(?:may|might|could)\s+(?:still\s+|yet\s+|well\s+)?"
    r"(?:(?:have|need)\s+to\s+)?(?:be\s+)?" + _TAKE_BACK + r"|"
    r"(?:approval|decision)\s+(?:is|remains)\s+(?:provisional|conditional|tentative|on\s+hold))",
    re.I,
)
"""A decision taken back or left open after it is given ("so this might still need to be declined", "the approval may
be pulled back", "I might have to reverse this", "the approval is provisional"): like "nothing is final", said alone
in its clause it takes back what the text states (the approved amount), else its own sentence."""


DEADLINE = re.compile(
    r"\b(?:by|due|no\s+later\s+than|deadline|reply|respond|pick|vote)\b[^.;\n]{0,30}?(?:\d|"
    + WEEKDAY
    + r"|today|tomorrow|tonight|end\s+of)",
    re.I,
)


def _nothing_final(
    text: str, spans: list[tuple[int, int]], final: re.Pattern[str] = NOTHING_FINAL, own_clause: bool = False
) -> str | None:
    """`text` as a "nothing is final" sentence leaves it, or None when it has none. Said beside values of its own
    ("probably Thursday 3pm, nothing is final yet"), it takes back its sentence; said alone ("Nothing is final
    yet."), the whole text, but for the clauses that set a deadline ("pick one by Friday 11 September"). With
    `own_clause`, alone means alone in its clause (a decision taken back: "..., so this may still be rejected")."""
    finals = [(a, b) for a, b in spans if final.search(text[a:b])]
    if not finals:
        return None
    out = text
    alone = False
    for a, b in finals:
        m = final.search(text, a, b)
        said = _blank(text, m.start(), m.end())  # type: ignore[union-attr]  # found just above
        parts = [(x, y) for x, y in clauses(text, a, b) if not own_clause or x <= m.start() < y]  # type: ignore[union-attr]  # found above
        rest = " ".join(said[x:y] for x, y in parts if not DEADLINE.search(text, x, y))
        if _has_value(re.sub(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", " ", rest, flags=re.I)):
            out = _blank(out, a, b)
        else:
            alone = True
    if not alone:
        return out
    kept = [(x, y) for a, b in spans for x, y in clauses(text, a, b) if DEADLINE.search(text, x, y)]
    out = _blank(out, 0, len(text))
    for x, y in kept:
        out = out[:x] + text[x:y] + out[y:]
    return out


ESTIMATE = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|approx\.?|circa|ca\.|up\s+to|"
    r"nearly|almost|estimated|est\.|indicative(?:ly)?|ballpark|some|in\s+the\s+region\s+of|of\s+the\s+order\s+of|"
    r"intorno\s+a(?:i|l|lla|gli)?|environ|etwa|ungefähr|rund|aproximadamente|cerca\s+de|ongeveer)|~|±|≈)"
    r"\s*(?:[A-Z]{3}\s?|[$€£¥]\s?)?\d[\d.,']*(?:\s?(?:k|m|mn|bn|million|thousand|billion)\b)?|"
    r"\b(?:about|around|roughly|approximately|nearly|almost|some)\s+(?:a\s+)?(?:dozen|twenty|thirty|forty|fifty|"
    r"a\s+hundred|hundred)|"
    r"\b(?:estimated|projected|forecast)\s+(?:[^\W\d_]+\s+){0,2}?(?:of\s+|at\s+|is\s+|:\s*|=\s*)"
    r"(?:[A-Z]{3}\s?|[$€£¥]\s?)?\d[\d.,']*(?:\s?(?:k|m|mn|bn|million|thousand|billion)\b)?",
    re.I,
)
"""An estimate ("about 2,300", "roughly CHF 85k", "~€240.000", "up to 120", "estimated saving: EUR 180,000"): a
claimed count or amount is exact."""


def _value_kinds(word: str) -> set[str]:
    """The kinds of fact a word of an alternative may be a value of."""
    word = word.strip(".,;:()")
    kinds = set()
    if re.fullmatch(
        r"\d{1,2}(?:[:.h]\d{2})?(?:\s?[ap]\.?m\.?)?|\d{1,2}[ap]m|noon|midday|morning|afternoon|evening|"
        r"midnight|\d{1,2}ish",
        word,
        re.I,
    ):
        kinds.add("time")
    if re.fullmatch(
        WEEKDAY + "|" + MONTH + r"|today|tomorrow|tonight|next|this|\d{1,2}(?:st|nd|rd|th)|\d{1,2}/\d{1,2}|"
        r"\d{4}-\d{2}-\d{2}",
        word,
        re.I,
    ):
        kinds.add("date")
    if re.fullmatch(
        r"[$€£]\d[\d.,]*k?|[A-Z]{3}\d[\d.,]*|eur|usd|gbp|chf|jpy|cad|aud|euros?|dollars?|pounds?", word, re.I
    ):
        kinds.add("amount")
    if re.fullmatch(
        r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
        r"sixteen|seventeen|eighteen|nineteen|twenty",
        word,
        re.I,
    ):
        kinds.add("count")
    if re.fullmatch(r"\d[\d.,']*\d|\d", word):
        kinds.add("amount")
    return kinds


def _offers(clause: str, kind: str) -> bool:
    """The clause offers values of a kind that governs `kind` as alternatives ("Wednesday or Thursday" for dates
    and times, "4 or 5 people" for counts, "12 to 14 people"); "A or B" of other things offers nothing."""
    governed = GOVERNS[kind]
    for m in OR_ALTERNATIVES.finditer(clause):
        shared = _value_kinds(m.group("a")) & _value_kinds(m.group("b"))
        if shared & governed or (
            "time" in governed
            and _value_kinds(m.group("a")) & {"time"}
            and _value_kinds(m.group("b")) & {"date", "time"}
        ):
            return True
    if "time" in governed and TIME_OR_TIME.search(clause):
        return True
    if "amount" in governed and any(m["a"].upper() == m["b"].upper() for m in AMOUNT_ALTERNATIVES.finditer(clause)):
        return True
    if governed & {"count", "amount"}:
        return any(not _is_time_range(clause, m) for m in NUMBER_RANGE.finditer(clause))
    return False


_CLOCK = r"\d{1,2}(?:[:.h]\d{2})?\s*(?:[ap]\.?m\.?\b)?"
TIME_OR_TIME = re.compile(
    rf"(?<![\d:.]){_CLOCK}(?:\s*[-–—]\s*{_CLOCK})?(?:\s+[A-Za-z][\w/]*){{1,3}}\s+(?:or|and/or)\s+"
    rf"(?:maybe\s+|perhaps\s+|possibly\s+)?(?:at\s+)?\d{{1,2}}(?::\d{{2}}|\s*[ap]\.?m\.?\b)"
    r"(?![\d:])(?!\s*(?:[-–—]\s*\d|[A-Z]|in\b|your\b|for\b|local\b|time\b|on\s+the\b))"
)
"""A time with its zone said, then another bare time offered against it ("12:00-12:30 New York time or 13:00"): two
slots; "9am PT or 12pm ET" (the second with its own zone) is one time converted, and stays stated."""
AMOUNT_ALTERNATIVES = re.compile(
    r"(?P<a>[$€£¥]|\b[A-Z]{3}(?=\s?\d))\s?\d[\d.,']*(?:\s?k\b)?\s*/\s*(?P<b>[$€£¥]|\b[A-Z]{3}(?=\s?\d))\s?\d"
)
"""Two amounts in one currency offered side by side: "2 options on hold (EUR 145 / EUR 172 per night)"; in two
currencies ("EUR 450 / USD 490") they are one amount converted."""


def _undercut_kinds(clause: str) -> set[str] | None:
    """What an undercut clause takes back: the kinds its subject names ("flight times are still TBD": times;
    "hotel TBC": nothing of ours), or None for everything ("not confirmed", "nothing is final yet")."""
    topics = list(TOPIC.finditer(clause))
    if not topics:
        return None
    names = {k for t in topics for k in ("time", "date", "amount", "count") if t.group(k)}  # "flight TBD, date TBC"
    return names | {"time"} if "date" in names else names  # takes back the date, "flight TBD" alone nothing of ours


@per_text
def asserted(text: str, kind: str = "any") -> str:
    """`text` with what it does not assert about a fact of `kind` blanked (see the module's docstring)."""
    if kind == "code":
        return text
    out = text
    spans = sentences(text)
    reading = {"time", "date", "amount", "count"} if kind == "any" else {kind}
    if reading != {"count"} and (final := _nothing_final(text, spans)) is not None:
        out = final  # "Nothing is final yet.": the plan's values are not asserted (its counts and deadlines are)
    if reading != {"count"} and (back := _nothing_final(text, spans, DECISION_TAKEN_BACK, True)) is not None:
        out = "".join(b if b == " " else o for o, b in zip(out, back, strict=True))  # "approved; ... may be rejected"
    if reading & {"count", "amount"}:
        for m in ESTIMATE.finditer(text):
            out = _blank(out, m.start(), m.end())
    for a, b in _options_not_taken(text):
        out = _blank(out, a, b)
    for a, b in spans:
        sentence = text[a:b]
        if sentence.rstrip().endswith("?") and not REQUEST.match(sentence):
            breaks = list(QUESTION_BREAK.finditer(sentence))  # "Thursday, 14 guests - could you confirm?" asks the end
            out = _blank(out, a + (breaks[-1].end() if breaks else 0), b)
            continue
        parts = clauses(text, a, b)
        for start, end in parts:
            clause = text[start:end]
            undercut = UNDERCUT.search(clause)
            pending = undercut is None and ANSWER_PENDING.search(clause) is not None
            if pending or undercut:
                taken = {"time", "date"} if pending else _undercut_kinds(clause)
                if taken is None and len(parts) > 1 and _own_undercut(clause, undercut):
                    taken = set()  # "part 2 back-ordered, supplier says 5 Aug but can't guarantee it": its clause
                if taken is None and undercut is not None and AWAITED.fullmatch(undercut.group(0)):
                    taken = {"time", "date"}  # "6 people - pending confirmation": when, not how many
                if taken is None or taken & reading:
                    out = _blank(out, a, b)
                    break
                if not pending:  # a booking on hold still states how many it holds
                    out = _blank(out, start, end)
            elif _hedges(clause) or CONDITION.search(clause) or _offers(clause, kind):
                out = _blank(out, start, _aside_end(text, end, b))
                if not _has_value(clause) and _hedges(clause):
                    out = _blank(out, a, b)  # "Probably — Thursday 15:30": the hedge stands for the sentence
                    break
    return out


ASIDE = re.compile(r"[ \t]*\([^()\n]*\)")


def _aside_end(text: str, end: int, stop: int) -> int:
    """Where a clause ends with the brackets right after it, which it governs: "I'm proposing Thursday 14:00 UTC
    (20:30 for you, Anil)" offers the conversion too."""
    aside = ASIDE.match(text, end, stop)
    return aside.end() if aside is not None else end


CHOSEN = re.compile(
    r"✅|✔|☑|(?<!not\s)(?<!un)\b(?:booked|confirmed|chosen|selected|picked|accepted|agreed|going\s+with|"
    r"winner|signed)\b",
    re.I,
)


OFFERED = re.compile(
    r"\b(?:options?|alternatives?|choices?|(?:possible|candidate|free|open|available)\s+slots?|slots?\s+(?:that\s+)?"
    r"(?:work|are\s+free)|pick\s+one|which\s+(?:one\s+)?(?:works|suits)|(?:you\s+)?could\s+do)\b[^\n]*:\s*$",
    re.I,
)
"""A line that offers the list below it ("Three options for the steering call — none booked yet:")."""
ITEM_LINE = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+\S")


def _options_not_taken(text: str) -> list[tuple[int, int]]:
    """The rows of a table of options that are not the one taken: when some rows of a table are marked taken
    ("booked", "✅ confirmed") and others are not, the others are offers, not statements; so are the items of a list
    that a line offers as options ("Panel options:"), but for one marked taken."""
    out: list[tuple[int, int]] = _offered_items(text)
    rows: list[tuple[int, int]] = []
    at = 0
    lead = ""
    for line in [*text.split("\n"), ""]:
        if " | " in line:
            rows.append((at, at + len(line)))
        else:
            taken = [r for r in rows if CHOSEN.search(text, *r)]
            if taken and len(taken) < len(rows):
                out += [r for r in rows if r not in taken]
            elif not taken and len(rows) > 2 and (OFFER_LEAD.search(lead) or OFFER_HEAD.match(text, rows[0][0])):
                out += rows  # "Options for London Tech Week ...", "| Option | Hotel | Price |": none is taken
            if rows:
                lead = ""
            if line.strip():
                lead = "\n".join([*lead.split("\n")[-1:], line])  # the two lines before a table
            rows = []
        at += len(line) + 1
    return out


OFFER_LEAD = re.compile(
    r"\b(?:options?|alternatives?|choices?|pick(?![\s-]*up)|choose|shortlist(?:ed)?|which\s+(?:one\s+)?(?:works|suits))\b",
    re.I,
)
"""The text just before a table that offers its rows ("Options for London Tech Week", "pick your session")."""
OFFER_HEAD = re.compile(r"[ \t]*\|?[ \t*]*(?:options?|alternatives?|choices?)\b", re.I)


def _offered_items(text: str) -> list[tuple[int, int]]:
    """The items of each list offered as options by the line before it, but for one marked taken."""
    out: list[tuple[int, int]] = []
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    i = 0
    while i < len(lines):
        if not OFFERED.search(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        items = []
        while j < len(lines) and ITEM_LINE.match(lines[j]):
            items.append((starts[j], starts[j] + len(lines[j])))
            j += 1
        taken = [r for r in items if CHOSEN.search(text, *r)]
        if len(items) > 1 and len(taken) <= 1:
            out += [r for r in items if r not in taken]
        i = max(j, i + 1)
    return out


NAMED_SUBJECT = re.compile(r"\b(?!(?:The|It|This|That|All|Everything|Nothing|I|We|You)\b)[A-Z][\w+&-]*")


def _own_undercut(clause: str, undercut: re.Match[str] | None) -> bool:
    """An undercut clause (`undercut`: where UNDERCUT matched in it) that is about something of its own: it holds its
    own value ("supplier says 2026-08-05 but can't guarantee it"), or names what is pending ("VPN + Jira pending");
    it takes back only itself, not the other clauses of its sentence."""
    before = clause[: undercut.start()] if undercut else clause
    return _has_value(before) or bool(NAMED_SUBJECT.search(before))


def _has_value(clause: str) -> bool:
    return any(_value_kinds(w) for w in re.findall(r"[\w:.$€£/-]+", clause))


ASKING = re.compile(
    r"\b(?:(?:could|can|would|will)\s+(?:you|i\s+(?:get|have)|we\s+(?:get|have))|please|pls|let\s+me\s+know|"
    r"(?:i|we)\s+(?:need|would\s+like|'d\s+like|am\s+asking\s+for|are\s+asking\s+for)\s+your|"
    r"(?:waiting|awaiting)\s+(?:on|for)\s+your|(?:request(?:ing)?|ask(?:ing)?\s+for|seek(?:ing)?)\s+your|"
    r"may\s+(?:i|we)|do\s+you\s+(?:mind|approve|agree)|"
    r"(?:ready|up|submitted|here)\s+for\s+your\s+(?:sign[\s-]?off|approval|ok|okay|go[\s-]?ahead|green\s+light))\b",
    re.I,
)


@per_text
def asked(text: str) -> str:
    """`text` with everything blanked but its questions and requests: sentences that end in `?` or ask someone to
    act or answer ("could you approve", "please sign off", "let me know if it's OK", "I need your go-ahead",
    "ready for your sign-off")."""
    out = text
    for a, b in sentences(text):
        sentence = text[a:b]
        if sentence.strip() and not (sentence.rstrip().endswith("?") or ASKING.search(sentence)):
            out = _blank(out, a, b)
    return out


def claim_notes(text: str) -> list[str]:
    """The sentences of `text` it does not assert, cut short, for failure reports."""
    kept = asserted(text)
    notes = []
    for a, b in sentences(text):
        if kept[a:b] != text[a:b]:
            notes.append(" ".join(text[a:b].split())[:80])
    return notes
