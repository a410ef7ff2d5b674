"""What a date is in its clause: its role (a meeting, a travel day out or back, a deadline, a holiday, a delivery,
a start, a due date, an event), and whether the text sets it aside (the old date of a move, a cancelled slot).

The role is read from the words nearest the date in its clause ("Sam has a public holiday on Tuesday 3 March, so
we fly in on Wednesday": Tuesday is a holiday, Wednesday a travel day), else in its sentence (a table row:
"Date: Tue 3 March | Leg: Outbound to Berlin"). A date with no role word near it has no role.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.scenario.text.parse import clauses

ROLES = ("meeting", "travel-out", "travel-back", "travel", "deadline", "holiday", "delivery", "start", "due", "event")
CUES: dict[str, re.Pattern[str]] = {
    role: re.compile(pattern, re.I)
    for role, pattern in {
        "travel-back": r"\b(?:return(?:s|ing)?|back\s+(?:on|home)|fly(?:ing)?\s+(?:back|home)|flight\s+back|"
        r"homebound|inbound|head(?:ing)?\s+back|come\s+back|coming\s+back|check[\s-]?out|checking\s+out|"
        r"ret\.?|rückflug|rückreise|retour|volta|vuelta|regreso|return\s+flight|"
        r"back(?=\s*[:|]|\s+(?:on\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d)))\b",
        "travel-out": r"\b(?:fly(?:ing)?\s+(?:out|in|to)|flies\s+(?:out|in|to)|depart(?:s|ing|ure)?|dep\.?|outbound|"
        r"(?<!annual\s)(?<!on\s)(?<!sick\s)(?<!parental\s)(?<!maternity\s)(?<!paternity\s)(?<!unpaid\s)(?<!study\s)"
        r"(?<!of\s)(?<!for\s)(?<!your\s)(?<!special\s)(?<!sabbatical\s)(?<!compassionate\s)(?<!bereavement\s)"
        r"leav(?:e|es|ing)(?!\s+(?:request|balance|starts?|begins?|runs?))|out\s+on|travel(?:ling|ing)?\s+(?:out|in|to)|arriv(?:e|es|ing|al)\s+in|"
        r"check[\s-]?in|checking\s+in|hinflug|hinreise|anreise|aller|ida|outward|salida|"
        r"(?<!['’]m\s)(?<!['’]re\s)(?<!\bis\s)(?<!\bam\s)(?<!\bbe\s)(?<!\bare\s)"
        r"out(?=\s*[:|]|\s+(?:on\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d)))\b",
        "travel": r"\b(?:travel(?:s|ling|ing)?|trip|fly(?:ing)?|flights?|train|journey|travel\s+days?|hotel|nights?)\b",
        "holiday": r"\b(?:holiday|bank\s+holiday|public\s+holiday|vacation|pto|off\s+(?:on|that|sick)|"
        r"day\s+off|out\s+of\s+(?:the\s+)?office|ooo|on\s+leave|(?:annual|parental|sick|maternity|paternity|unpaid|"
        r"study|special|sabbatical|compassionate|bereavement)\s+leave|days?\s+of\s+leave|sabbatical|feiertag|urlaub|(?:office\s+)?closed|"
        r"shut|labou?r\s+day|memorial\s+day|thanksgiving|christmas(?:\s+day)?|boxing\s+day|new\s+year(?:'s)?\s+day|"
        r"easter\s+(?:monday|friday)|good\s+friday|independence\s+day|national\s+day|(?:king|queen)(?:'s)?\s+day)\b",
        "deadline": r"\b(?:deadline|due|by|no\s+later\s+than|latest|before|until|till|cut-?off|submit(?:ted)?|last\s+day|"
        r"reply|respond|resubmit|expires?|closes?|frist|bis|entro|hasta|avant|spätestens|uiterlijk|prazo|plazo|"
        r"scadenza|antes\s+del?|kündig\w*|fristgerecht|"
        r"ends?(?=\s+(?:on\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d)))\b",
        "delivery": r"\b(?:deliver(?:y|ed|ies|s)?|ship(?:s|ped|ping|ment)?|dispatch(?:ed)?|arriv(?:e|es|al)|lands?|"
        r"eta|lieferung|liefertermin|livraison|pick-?up|collect(?:ion|ed)?|courier|consegn[ae]|consegnat[oaie]|"
        r"entrega(?:do|da|r)?|levering|geleverd|zustellung|geliefert|envío|envio)\b",
        "start": r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|go[\s-]?live|first\s+day|"
        r"commenc(?:e|es|ing|ement)|effective|onboarding|joins?|joining|launch(?:es)?|beginn|reopen(?:s|ing)?|"
        r"releas(?:e|es|ed)|day\s+one|lease|move-?in|takes?\s+effect|in\s+(?:effect|force)|"
        r"runs?(?=\s+(?:from\s+)?\d))\b",
        "due": r"\b(?:due|payable|pay(?:ment)?|paid|renew(?:al|s)?|invoice|billing|charge[sd]?|fällig|payout|"
        r"reimburse(?:ment|d)?|refund(?:ed)?|settle(?:ment|d)?|réglée?s?|payée?s?|paiement|pagamento|pago|zahlung|"
        r"bezahlt|betaald|betaling|payroll|salar(?:y|ies)|wages|disburs(?:e|ed|es|ement)|instal(?:l)?ments?)\b",
        "meeting": r"\b(?:meet(?:ing)?s?|call|sync|review|interview|session|1:1|one-on-one|catch-?up|stand-?up|"
        r"demo|workshop|appointment|kick-?off|briefing|debrief|retro|board|huddle|termin|réunion|moved|"
        r"resched(?:uled?)?|invite|weekly|panel|1-1|catch\s+up|cab|planning\s+(?:session|meeting|call)|the\s+planning)\b",
        "event": r"\b(?:event|party|conference|summit|dinner|lunch|offsite|off-site|agm|launch|wedding|training|"
        r"ceremony|gala|webinar|keynote|seminar|fair|festival|celebration|rehearsal|visit|tour|exam|"
        r"hearing|signing|closing|mixer|drinks|happy\s+hour|meet-?up|get-?together|outing|picnic|barbecue|bbq|"
        r"concert|fundraiser|open\s+(?:day|house)|hackathon|retreat|networking|fiesta|cena|almuerzo|feier|"
        r"soirée|dîner|déjeuner|cocktail)\b",
    }.items()
}
KIN = {
    "travel": {"travel", "travel-out", "travel-back"},
    "travel-out": {"travel-out"},
    "travel-back": {"travel-back"},
    "deadline": {"deadline", "due"},
    "due": {"due", "deadline"},
    "meeting": {"meeting", "event"},
    "event": {"event", "meeting"},
    "holiday": {"holiday"},
    "delivery": {"delivery"},
    "start": {"start"},
}
"""The roles a wanted role accepts: a travel day is a day out or back; a due date a deadline; an event a meeting."""


ARRIVAL = re.compile(r"arriv|land", re.I)
TRAVELLER = re.compile(
    r"\b(?:flights?|fly|flies|flying|landing|airport|terminal|train|hotel|nights?|reservations?|stay|"
    r"[A-Z]{2}\s?\d{2,4})\b|"
    r"\b(?:I|we|you|he|she|they|Mr|Ms|Mrs|Dr)\b[^.!?\n]{0,30}\barriv",
)
"""What makes an arrival a traveller's day out rather than a delivery: a flight, train, hotel or stay (nights, a
reservation) in its sentence, or a person arriving ("Mr Obi will arrive on 10 October")."""


NEXT_PART = re.compile(r"\s*(?:[,;]\s*)?(?:and|&|then|und|et|en|y)\s+(?:then\s+)?", re.I)
NEXT_ITEM = re.compile(r"\s*[,;]\s*")
ITS_OWN_DAY = re.compile(
    r"(?:\s+(?:on|am|le|el|il))?\s+(?:(?:the\s+)?\d{1,2}(?!\d|\s*[:.h]\d)|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b)",
    re.I,
)
"""What joins a date to the next part of a list ("out on the 24th of February and back on the 26th"; "out on the 24th
of February, back on 26 February"): a role word right after it is that part's (after a comma, only when a day of its
own follows it: "Sat 9 May, dep 10:15" departs on 9 May)."""


def _next_part(text: str, end: int, cue: re.Match[str]) -> bool:
    """Whether the role word `cue`, after a date that ends at `end`, opens the next part of a list (`NEXT_PART`)."""
    return bool(
        NEXT_PART.fullmatch(text, end, cue.start())
        or (NEXT_ITEM.fullmatch(text, end, cue.start()) and ITS_OWN_DAY.match(text, cue.end()))
    )


def _nearest(text: str, lo: int, hi: int, start: int, end: int, context: tuple[int, int] | None = None) -> str | None:
    """The role of the cue nearest the date `text[start:end]` in `text[lo:hi]` (before it on a tie; not one that
    opens the next part of a list after it); an arrival is a traveller's day out when people travel in the span, else
    a delivery."""
    best: tuple[int, int, str, str] | None = None
    for order, (role, cue) in enumerate(CUES.items()):
        for m in cue.finditer(text, lo, hi):
            if start <= m.start() < end or (m.start() >= end and _next_part(text, end, m)):
                continue
            distance = start - m.end() if m.end() <= start else m.start() - end + 1
            key = (max(distance, 0), order, role, m.group(0))
            if best is None or key < best:
                best = key
    if best is None:
        return None
    if best[2] == "delivery" and ARRIVAL.match(best[3]) and TRAVELLER.search(text, *(context or (lo, hi))):
        return "travel-out"
    return best[2]


TITLE_END = re.compile(r"[.!?:;,]$|[.!?]\s")
LINE_LABEL = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])?[ \t]*(?P<label>[^\W\d][^:\n|]{0,45}):[ \t]")
"""A line's label: "- Back: ", "Arrival: "."""
FROM_DAY = re.compile(
    r"\b(?:from|as\s+of|effective|starting|ab|vanaf|à\s+partir\s+du|a\s+partir\s+del?|dal|desde)\s+(?:the\s+|le\s+)?$",
    re.I,
)
"""A date things hold from ("12 months from 1 October", "EUR 2,260 per month from 1 May"): a start."""


def date_role(text: str, start: int, end: int, sentence: tuple[int, int]) -> str | None:
    """The role of the date written at `text[start:end]` in its `sentence` (a span of `text`), if any is said: the
    role word nearest it in its clause (a start when things hold from it and no role word comes before it there),
    else in its sentence. A line's label says the role of the dates on it ("- Back: Sun 19 July, Lisbon → Dublin,
    dep 11:25" is the day back); a label that says none ("When:"), the title of its block."""
    line = text.rfind("\n", 0, start) + 1
    label = LINE_LABEL.match(text, line, start)
    own = next(((a, b) for a, b in clauses(text, *sentence) if a <= start < b), sentence)
    if label is not None and own[0] <= label.end():  # the label's own clause: not a later aside on its line
        head = re.search(r"\s(?:before|after|for|of|in|on|with|to|from)\s", text[label.start("label") : label.end()])
        stop = label.start("label") + head.start() if head else label.end()  # "CAB before the freeze": the CAB
        found = _nearest(text, label.start("label"), stop, start, end, (0, len(text)))
        if found:
            return found
    for a, b in clauses(text, *sentence):
        if a <= start < b:
            if FROM_DAY.search(text, max(a, start - 20), start) and _nearest(text, a, start, start, end) is None:
                return "start"  # "runs in waves from Monday 1 June, with the last wave no later than 31 July": a
                # day things hold from, with no role word before it ("leave from 3 March" is a holiday)
            found = _nearest(text, a, b, start, end)
            if found:
                return found
    found = _nearest(text, *sentence, start, end)
    if found:
        return found
    if label is not None:  # "Design sprint workshop⏎⏎When: Wednesday 8 July": the block's title says the role
        title = _title(text, line)
        if title is not None:
            return _nearest(text, *title, title[1], title[1])
    return None


def _title(text: str, line: int) -> tuple[int, int] | None:
    """The title of the block of labelled lines (or table rows) that the line at `line` is in: the nearest line above
    them that is not a label's, short and with no sentence's end ("Design sprint workshop", "Q3 offsite")."""
    while line > 0:
        top = text.rfind("\n", 0, line - 1) + 1
        above = text[top : line - 1]
        if above.strip() and not LINE_LABEL.match(above):
            words = above.strip()
            return (top, line - 1) if len(words) <= 80 and not TITLE_END.search(words) else None
        line = top
    return None


TRAVEL = ("travel", "travel-out", "travel-back")


def travel_leg(
    role: str | None, wanted: object, dates: Sequence[object], said: str, first: bool, last: bool
) -> str | None:
    """A travel day's leg: the start of a range of days is the day out, its end the day back ("trip 8-14 Nov");
    a travel date without its leg is the day out when it is the text's first travel date, the day back when it is
    its last of several."""
    if role not in TRAVEL:
        return role
    if len(dates) == 2 and re.search(r"[–—-]|\bto\b|\buntil\b|\bbis\b|\bal\b|\ba\b", said) and dates[0] != dates[1]:
        return "travel-out" if wanted == dates[0] else "travel-back" if wanted == dates[-1] else role
    if role == "travel" and first != last:
        return "travel-out" if first else "travel-back"
    if role == "travel" and first and last:
        return "travel-out"
    return role


def plays(role: str | None, wanted: str) -> bool:
    """Whether a date read in `role` is one in the `wanted` role."""
    return role is not None and role in KIN.get(wanted, {wanted})


DATE_SET_ASIDE_BEFORE = re.compile(
    r"(?:\b(?:instead\s+of|rather\s+than|not|no\s+longer|cancel(?:l?ed|s)?|(?:et|and|y|e|und|en)\s+non|non\s+pas|"
    r"nicht|niet|(?:an)?statt|au\s+lieu\s+d[eu]|en\s+(?:lugar|vez)\s+del?|invece\s+del?|antes\s+(?:era|estaba|estava)|"
    r"ursprünglich(?:\s+\w+)?|anfänglich|initialement|originalmente|inicialmente|originariamente|"
    r"no\s+(?!later\b|earlier\b|sooner\b|more\s+than\b)[\w-]+(?:\s+[\w-]+)?|"
    r"(?:mov|shift|push|postpon|reschedul|chang|bring|brought|delay|switch|swap)\w*\b[^.!?\n]{0,40}?\bfrom|drop(?:ped)?|skip(?:ping|ped)?|"
    r"scrap(?:ped)?|old|previous(?:ly)?|original(?:ly)?|earlier|initial(?:ly)?|formerly|declin(?:e|ed|es|ing)|"
    r"(?:was|were)\s+(?:meant|supposed|planned|scheduled|due|set|booked|going)(?:\s+to\s+be|\s+to\s+happen|\s+for)?|"
    r"used\s+to\s+be|can(?:'|’)?t\s+(?:do|make|move\s+it\s+to)|won(?:'|’)?t\s+(?:do|make|be)|was|were|"
    r"(?:mov|shift|push|switch)\w*\s+(?:[\w'’-]+\s+){0,3}?off|ignore|disregard|replac(?:es|ed|ing)|"
    r"no\s+earlier\s+than|is(?:n['’]t|\s+not)|are(?:n['’]t|\s+not)|moved\s+away\s+from|superseded|void)"
    r"(?:\s+(?:on|the|for|at|of|date|slot|plan|one|was|le|la|du|del|el|am|den|dem|der|il|said|planned|agreed|"
    r"scheduled|proposed|booked|vorgeschlagene|termin))*\s*)$",
    re.I,
)
DATE_SET_ASIDE_AFTER = re.compile(
    r"^\s*(?:→|->|=>|⟶)|"
    r"^['\"’)\s]*(?:\d{1,2}[:.]\d{2}\s+)?(?:[\w'’]+\s+){0,4}?(?:(?:is|are|was|has\s+been)\s+(?:now\s+)?(?:off|out|cancell?ed|dropped|scrapped|"
    r"taken|full|gone|"
    r"moved|pushed|postponed|no\s+longer|not\s+(?:happening|possible|going\s+ahead))|"
    r"(?:does|do|did|will)(?:\s+not|n['’]t)\s+(?:work|go\s+ahead|happen)|no\s+longer|anymore|"
    r"\(old\)|\(cancell?ed\)|['’]s\s+(?:taken|out|off|gone|full|cancell?ed)\b|entf[äa]llt|entfallen|f[äa]llt\s+aus|"
    r"(?:est|sont|ist|wurde|è|fue|foi)\s+(?:annulée?s?|abgesagt|storniert|annullat[oa]|cancelad[oa])|(?:is|are|was)\s+(?:now\s+)?(?:superseded|void|obsolete|withdrawn|fully\s+booked)|"
    r"(?:[\w'’]+\s+){0,3}(?:which|that)\s+(?:i|we)(?:['’]ve|\s+have)\s+cancell?ed|"
    r"[\s,;:—–-]*(?:(?:please\s+)?(?:ignore|disregard)\s+(?:that|this|it)\b|(?:[\w'’]+\s+){0,4}?(?:was|is)\s+"
    r"(?:wrong|incorrect|a\s+typo|a\s+mistake|an\s+error|outdated)\b))",
    re.I,
)


def set_aside(text: str, start: int, end: int, sentence: tuple[int, int]) -> bool:
    """Whether the date at `text[start:end]` is set aside: the old date of a move ("moved from Wednesday to
    Thursday", "It was meant to be the 28th Jan"), a cancelled one ("the 12 March slot is cancelled", "the earlier
    window (Sat 17 Oct) is cancelled"), one said not to be it ("not Friday") or taken back ("the site said Friday —
    that was wrong", "an earlier draft said 20 Dec — ignore that")."""
    clause = next(((a, b) for a, b in clauses(text, *sentence) if a <= start < b), sentence)
    before = text[max(clause[0], start - 50) : start]
    after = text[end : min(clause[1], end + 50)]
    if not after.strip(" \t)]"):  # "The earlier window (Sat 17 Oct) is cancelled": a bracket's day, said of after it
        after = text[end : min(sentence[1], end + 50)]
    return DATE_SET_ASIDE_BEFORE.search(before) is not None or DATE_SET_ASIDE_AFTER.match(after) is not None
