"""Which times a text sets aside: the old slot of a move, a time it cancels, someone else's availability, a rough
time, a bound, and a time given as the reason for a move. A time set aside is neither stated nor competing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from orchestrator.scenario.text.parse import MONTH, WEEKDAY

if TYPE_CHECKING:
    from orchestrator.scenario.text.times import TimeMention

# A time the text sets aside ("instead of 09:30", "can't make 10:00", "moved from Tuesday 10:00 to ...", "10:00
# doesn't work") is not one it states: it neither satisfies nor contradicts a check.
_DAY_WORD = r"(?:" + WEEKDAY + "|" + MONTH + r"|today|tomorrow|tonight|available|free|there)(?:'s)?\.?,?\s+"
_DATE_WORDS = (
    r"\s+(?:(?:at|on|the|a\s+las?|à|às|alle|um|om)\s+)?(?:" + _DAY_WORD + r")?"
    r"(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:" + _DAY_WORD + r")?)?(?:(?:at|the)\s+)?$"
)
_MOVE = (
    r"(?:mov(?:e|es|ed|ing)|shift(?:s|ed|ing)?|push(?:es|ed|ing)?|bump(?:s|ed|ing)?|chang(?:e|es|ed|ing)|"
    r"reschedul(?:e|es|ed|ing)|switch(?:es|ed|ing)?|swap(?:s|ped|ping)?|postpon(?:e|es|ed|ing)|"
    r"delay(?:s|ed|ing)?|brought|bring(?:ing)?|pull(?:s|ed|ing)?)"
)
_CANT = (
    r"(?:can(?:'|’)?t|can\s*not|could(?:n(?:'|’)?t|\s+not)|won(?:'|’)t|will\s+not|unable\s+to|not\s+able\s+to|"
    r"not\s+going\s+to)(?:\s+be\s+able\s+to)?"
)
# The same in the other languages the readers know: "no podía a las 12:00", "ne pouvait pas à 12h", "non poteva alle
# 12", "não podia às 12:00", "konnte nicht um 12:00" ("nicht"/"niet" alone are below).
_CANT_ELSEWHERE = (
    r"(?:(?:no|non|não)\s+(?:(?:le|lo|la|les|me|nos|se|ci|mi|gli)\s+)?(?:pued(?:e|o|en)|pod(?:ía|ia|íamos|ían|emos|rá|"
    r"ría|e|em|ia|iam)|pudo|può|poteva|posso|possono|potrà|pode)|ne\s+(?:peu[tx]|pouvai[st]|pourr(?:a|ait|ons)|pouvons|"
    r"peuvent)\s+pas)(?:\s+(?:asistir|venir|hacer|estar|ir|fazer|vir|venire|fare|esserci|être\s+là|faire))?"
)
SET_ASIDE = re.compile(
    r"\b(?:instead\s+of|rather\s+than|(?:an)?statt|au\s+lieu\s+de|en\s+(?:lugar|vez)\s+de|(?:the\s+)?usual|"
    r"(?:last\s+week|yesterday)(?:'s|’s)|no\s+longer(?:\s+(?:at|on|be|meeting))?|n(?:ot|icht|iet)(?:\s+(?:do|make))?|no|scrap|"
    r"drop|(?:initially|originally|first|previously|earlier)\s+(?:reported|said|announced|given|quoted|stated|posted|"
    r"listed)(?:\s+(?:as|at|for))?|"
    r"skip(?:ping|ped)?|ignore|disregard|old|previous|original|releas(?:e|ed|ing)|free(?:d)?\s+up|"
    r"(?:originally|previously|initially|formerly)(?:\s+(?:we|it|they|I))?(?:\s+(?:was|were|had|planned|scheduled|set|"
    r"booked|agreed))?(?:\s+(?:for|at|on))?|used\s+to\s+be|cancel(?:l?ed)?|declin(?:e|ed|ing)|turn(?:ed)?\s+down|"
    + _CANT
    + r"(?:\s+(?:make|do|manage|attend|join|get|take|be\s+there|be\s+in|be\s+on))?(?:\s+it)?|"
    + _CANT_ELSEWHERE
    + "|"
    + _MOVE
    + r"\b[^.!?\n]{0,40}?\bfrom)"
    + _DATE_WORDS,
    re.I,
)
# A move written without "from": "Moving Thursday's 10:00 to Friday", "Moved: 10:00 to 14:00".
MOVE_BEFORE = re.compile(r"\b" + _MOVE + r"\b[^.!?\n\d]{0,30}$", re.I)
MOVE_AFTER = re.compile(r"^\s*(?:(?:slot|meeting|call|one)\s+)?to\s", re.I)
MOVED_AFTER = re.compile(
    r"^\s*(?:(?:slot|meeting|call|one)\s+)?(?:is|has\s+been|was)\s+(?:moved|pushed|shifted)\s+to\s", re.I
)
MOVE_TO_BEFORE = re.compile(r"\b" + _MOVE + r"\b[^.!?\n\d]{0,30}\bto\s+$", re.I)
ARROW_AFTER = re.compile(r"^\s*(?:→|->|=>|⟶)\s*")
# The same in the other languages the readers know, after the time: "(om) 15:30 zit Ines al vast", "15:30 lukt niet",
# "15:30 geht nicht", "15:30 ne marche pas", "15:30 no me va".
_BUSY_ELSEWHERE = (
    r"(?:(?:zat|zit|zaten|zitten)\s+(?:[\w'’]+\s+){0,3}?vast|(?:ben|is|zijn|was|waren)\s+(?:[\w'’]+\s+){0,3}?"
    r"(?:bezet|niet\s+(?:beschikbaar|vrij|mogelijk))|(?:lukt|past|kan|gaat|werkt)\s+(?:[\w'’]+\s+){0,2}?niet|"
    r"(?:geht|passt|klappt|funktioniert)\s+(?:[\w'’]+\s+){0,2}?nicht|(?:bin|ist|sind|war|waren)\s+(?:[\w'’]+\s+){0,3}?"
    r"(?:belegt|besetzt|nicht\s+(?:verfügbar|frei|möglich))|ne\s+(?:marche|convient|va|fonctionne)\s+pas|"
    r"(?:n['’]est|est)\s+pas\s+(?:possible|disponible|libre)|no\s+(?:me\s+|nos\s+|le\s+|les\s+)?(?:funciona|va|"
    r"sirve|es\s+posible|está\s+(?:disponible|libre)))\b"
)
# What a text says after a time it sets aside: "10:00 doesn't work", "the 14:00 is cancelled", "15:30 would clash".
SET_ASIDE_AFTER = re.compile(
    r"^\s*(?:(?:slot|meeting|call|one)\s+)?(?:(?:cancell?ed|called\s+off)\b(?!\s+(?:the|a|an|my|our|your)\b)|"
    r"(?:is|has\s+been|was|were)\s+(?:out|off|cancell?ed|no\s+good|not\s+possible|"
    r"too\s+(?:early|late))\b|(?:[\w ]{0,30}?\s)?is\s+now\s+(?:at\s+|a\s+)?(?=\d)|"
    r"(?:(?:does|do|did|will)\s+not|(?:does|do|did)n(?:'|’)?t|won(?:'|’)t|no\s+longer|can(?:'|’)?t|cannot)\s+"
    r"(?:works?|suits?|fits?|happens?|be)\b|"
    r"(?:[\w'’ ]{0,30}?\s)?(?:(?:is|was|were|are)\s+(?:already\s+)?(?:taken|gone|full|unavailable|not\s+(?:available|free|"
    r"possible|an\s+option))|(?:is|was|were|are)n(?:'|’)?t\s+(?:available|free|possible|an\s+option))\b|"
    r"(?:(?!(?:since|because|as|so|when|while|and|but|or)\b)[\w'’]+\s+){0,3}?(?:(?:is|was|were|are|\w+['’](?:re|s))\s+"
    r"(?:(?:already|both|all)\s+)?(?:busy|occupied|tied\s+up|double[\s-]booked)|(?:(?:would|will)\s+)?"
    r"(?:clash(?:es|ed)?|conflict(?:s|ed)?|collid(?:e|es|ed)|overlap(?:s|ped)?))\b|" + _BUSY_ELSEWHERE + r")",
    re.I,
)
# A time of something else than the fact: someone's availability ("Lee is free until 16:30"), when something was
# noticed, sent or lands ("sent at 12:10", "landing around 21:00"), a time said to be wrong ("the 2:00 in her
# email was a typo"), a slot marked cancelled in its row ("❌ withdrew").
OTHER_BEFORE = re.compile(
    r"\b(?:free|available|busy|blocked|booked\s+up|tied\s+up|offline|unavailable|away|out\s+of\s+office|"
    r"in\s+(?:a\s+)?meetings?|on\s+a\s+(?:call|flight|plane)|(?:only\s+)?free\s+(?:from|after|before|until)|"
    r"noticed|sent|replied|received|back\s+online|roughly|approximately|give\s+or\s+take|"
    r"(?:email|e-mail|update|message|notice|page|report|alert|post|ticket|invite|note)s?\s+(?:says?|said|stated|states|"
    r"shows?|showed|had|has|listed|gave|claimed)|"
    r"(?:you|they|he|she|we)\s+(?:had\s+)?(?:originally\s+)?(?:said|suggested|asked\s+for|proposed|wanted|requested|"
    r"preferred|mentioned)|"
    r"(?:his|her|their|my)\s+(?:day|morning|afternoon|evening)\s+(?:starts|ends)|"
    r"(?:has|have|got)\s+(?:a|an|another|his|her|their)\s+(?:[\w-]+\s+){0,3}?(?:call|meeting|appointment|session|"
    r"commitment|conflict|clash|flight|train|interview)|"
    r"(?:has|have|got)\s+(?:something|stuff|plans|other\s+plans|things?)(?:\s+(?:on|else|booked|planned|scheduled))?)"
    r"\b[^.!?\n\d;]{0,25}$",
    re.I,
)
OTHER_AFTER = re.compile(
    r"^[\s)\]]*(?:[\w'’#@-]+\s+){0,5}?(?:(?:is|was|were)\s+(?:a\s+|an\s+)?(?:typo|mistake|wrong|error|outdated|incorrect)|"
    r"(?:is|was|has\s+been)\s+missed\b|"
    r"(?:is|was)\s+(?:when|the|just|only|our|their)\b[^.!?\n\d]{0,40}?,?\s+not\s+(?:the|when|a|an|our)\b|"
    r"(?:is|are)\s+not\s+(?:booked|confirmed|final|happening)\b|"
    r"(?:est|sont|a\s+été|ont\s+été|ist|wurde|è|fue|foi)\s+(?:annulée?s?|abgesagt|storniert|annullat[oa]|cancelad[oa])|"
    r"(?:is|are|has\s+been|was)\s+(?:now\s+)?(?:off|out|cancell?ed|called\s+off|scrapped|dropped|withdrawn|retired|"
    r"released|freed\s+up|gone)\b)",
    re.I,
)
TAKEN_BACK = re.compile(
    r"^[\s,;:—–-]*(?:(?:sorry|oops|actually|wait|no)[\s,!;:—–-]*)?(?:scratch|strike|ignore|disregard|forget)\s+that\b",
    re.I,
)
"""A time taken back right after it is written ("Next update: 10:00 UTC — sorry, scratch that")."""
ROUGHLY_BEFORE = re.compile(
    r"(?<!\bhow\s)(?<!\bwhat\s)(?<!['’]m\s)(?<!\bam\s)(?<!\bbe\s)(?<!\bis\s)(?<!\bare\s)"
    r"\b(?:around|about|approx(?:imately|\.)?|circa|ca\.|roughly|sometime\s+around)\s+$",
    re.I,
)
"""A time given roughly ("around 3pm", "about 6"): not a stated time, nor a competing one ("how about 15:00?" and
"I'm around 1-2:30pm" are no rough times)."""
BOUND_BEFORE = re.compile(r"\b(?:before|after|earlier\s+than|later\s+than|not\s+until)\s+$", re.I)
"""A time as a bound ("can't do anything before 15", "any time after 16:00"): not the time of the thing."""
END_BEFORE = re.compile(
    r"\b(?:finish(?:es|ing)?|ending|wrap(?:s|ping)?\s+up|closing)(?:\s+(?:at|by|around))?\s+$", re.I
)
"""The end of a slot said apart from its start ("13:00 for four hours, finishing 17:30")."""
OLD_LABEL = re.compile(
    r"\b(?:old|previous|original|former|earlier|cancell?ed)\s+(?:time|slot|start|date|meeting|booking)s?\s*[:=]\s*$",
    re.I,
)
STRUCK_ROW = re.compile(
    r"❌|✗|✘|🚫|⛔|\b(?:withdr[ae]wn?|cancell?ed|called\s+off|declined|not\s+(?:possible|available|an\s+option)|"
    r"(?:does|do|will)\s+not\s+work|(?:doesn|don|won)['’]?t\s+work|no\s+good|(?<!\bno\s)(?<!\bwithout\s)clash(?:es)?|"
    r"(?<!\bno\s)(?<!\bwithout\s)conflicts?)\b",
    re.I,
)
"""A table row that sets its times aside: marked cancelled or crossed, or saying the slot does not work."""
# Weaker: "it was 10:00", "the call that was at 10:30", "would have been 23:00 for Kenji": set aside only when the
# text states another time.
WAS_BEFORE = re.compile(
    r"\b(?:was|were|(?:would|could|might)(?:\s+have|['’]ve)\s+been|wäre|habría\s+sido|aurait\s+été|sarebbe\s+stat[oa])"
    r"(?:\s+(?:at|set\s+for|scheduled\s+for|planned\s+for|for))?" + _DATE_WORDS,
    re.I,
)


def set_aside(text: str, mentions: list[TimeMention]) -> None:
    """Which times the text sets aside: after "instead of", "can't make", "moved from", before "doesn't work",
    the old time of a move ("Moving Thursday's 10:00 to Friday", "10:00 → 14:00"), and after "was" when another
    time is stated."""
    weak = []
    for index, mention in enumerate(mentions):
        start = max(mention.sentence[0], mention.start - 80, mentions[index - 1].end if index else 0)
        before, after = text[start : mention.start], text[mention.end : mention.end + 40]
        nxt = mentions[index + 1] if index + 1 < len(mentions) else None
        joined = nxt is not None and nxt.sentence == mention.sentence
        if re.search(r"\bfrom" + _DATE_WORDS, before, re.I) and (
            SET_ASIDE.search(before) or _from_aside(text, before, mention)
        ):
            mention.set_aside = mention.moved = True
        elif (joined and ((ARROW_AFTER.match(after) and not leg(text, mention, nxt)) or MOVED_AFTER.match(after))) or (
            joined and MOVE_BEFORE.search(before) and MOVE_AFTER.match(after) and not re.search(r"\bto\s", before)
        ):
            mention.set_aside = mention.moved = True
        elif (
            SET_ASIDE.search(before)
            or SET_ASIDE_AFTER.match(after)
            or TAKEN_BACK.match(after)
            or _moved_to_from(text, mentions, index)
        ):
            mention.set_aside = True
        elif ROUGHLY_BEFORE.search(before):
            mention.set_aside = True  # "Back Thursday evening, around 6"
        elif OLD_LABEL.search(before):
            mention.set_aside = True  # "Old time: 10:00-11:00"
        elif OTHER_AFTER.match(text[mention.end : min(mention.sentence[1], mention.end + 60)]):
            mention.set_aside = True
        elif OTHER_BEFORE.search(before):
            mention.other = True  # "Lee is free until 16:30": not a competing time when another one is stated
        elif BOUND_BEFORE.search(before):
            mention.bound = True
        elif index and END_BEFORE.search(before) and mentions[index - 1].sentence == mention.sentence:
            mention.range_end = True  # "13:00 for four hours, finishing 17:30": the end of the slot it starts
        elif " | " in text[mention.sentence[0] : mention.sentence[1]] and STRUCK_ROW.search(
            text[mention.sentence[0] : mention.sentence[1]]
        ):
            mention.set_aside = True  # a table row marked cancelled
        elif WAS_BEFORE.search(before):
            weak.append(mention)
    for mention in weak:
        mention.set_aside = any(not m.set_aside and m not in weak for m in mentions)


LEG_WORD = re.compile(
    r"(?:" + WEEKDAY + "|" + MONTH + r"|today|tomorrow|tonight|on|at|the|\d+(?:st|nd|rd|th)?)\b", re.I
)


def leg(text: str, mention: TimeMention, nxt: TimeMention | None) -> bool:
    """Whether an arrow after `mention` leads to a place, not to a new time: a journey's leg ("NYP 08:00 → BOS
    11:35", "Tokyo 09:00 → Kyoto 11:15") states its departure and its arrival; "16:00 → 17:00" and "Wed 10:00 →
    Thu 14:00" move a slot."""
    arrow = ARROW_AFTER.match(text[mention.end :])
    if arrow is None or nxt is None:
        return False
    between = LEG_WORD.sub(" ", text[mention.end + arrow.end() : nxt.start])
    return re.search(r"[^\W\d_]", between) is not None


def _from_aside(text: str, before: str, mention: TimeMention) -> bool:
    """The old time of a move given aside after the new one: "Moved tmrw's standup to 3pm (from 9:30)"."""
    return bool(re.search(r"\(\s*(?:was\s+|previously\s+)?from\s+$", before, re.I)) and bool(
        re.search(r"\b" + _MOVE + r"\b", text[mention.sentence[0] : mention.start], re.I)
    )


def _moved_to_from(text: str, mentions: list[TimeMention], index: int) -> bool:
    """The old time of a move written new time first: "moved the call to 15:00 from 14:00"."""
    if not index:
        return False
    prev = mentions[index - 1]
    if not re.fullmatch(r"\s*from\s+", text[prev.end : mentions[index].start], re.I):
        return False
    return MOVE_TO_BEFORE.search(text[prev.sentence[0] : prev.start]) is not None


REASON_THEN_MOVE = re.compile(
    r"(?:,\s*|;\s*|\s[-–—]\s*|\b)(?:so|therefore|hence|which\s+is\s+why|that(?:'|’)s\s+why)\b[^.!?\n]{0,40}?\b"
    + _MOVE
    + r"\b[^.!?\n]{0,80}?\bto\b",
    re.I,
)
MOVE_THEN_REASON = re.compile(r"(?:,\s*|\s[-–—]\s*|\s\(|\b)(?:because|since|given\s+that|now\s+that)\s", re.I)


def reasons_for_a_move(text: str, mentions: list[TimeMention]) -> None:
    """A time in the reason given for a move is said of something else: "the review now takes Monday 10:00-11:30,
    so I've moved our walkthrough to Monday 15:00" states 15:00 only; "moved it to 15:00 because the review now takes
    10:00" too. Such a time is `other`: set aside when the text states another time."""
    for mention in mentions:
        if mention.set_aside:
            continue
        s0, s1 = mention.sentence
        sentence = text[s0:s1]
        same = [m for m in mentions if m is not mention and m.sentence == mention.sentence]
        move = REASON_THEN_MOVE.search(sentence)
        if move and mention.start < s0 + move.start() and any(m.start >= s0 + move.end() for m in same):
            mention.other = True
            continue
        reason = MOVE_THEN_REASON.search(sentence, 0, mention.start - s0)
        if (
            reason
            and any(m.end <= s0 + reason.start() for m in same)
            and re.search(r"\b" + _MOVE + r"\b[^.!?\n]{0,80}?\bto\b", sentence[: reason.start()], re.I)
        ):
            mention.other = True
