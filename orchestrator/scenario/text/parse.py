"""One parse of a text, read by every reader: what the author wrote, in sentences and clauses.

`parse(text)` keeps what the author wrote and writes it plainly:

- quoted and forwarded parts go: `>` lines, an "On ... wrote:" line (or "Le ... a écrit :", "Am ... schrieb
  ...:", "El ... escribió:") and all below it, a "-----Original Message-----" or "Forwarded message" line and
  all below it, and an Outlook-style header block (From: / Sent: / To: / Subject:) and all below it
  (quotequail finds these; its cut is taken only where a quote header starts);
- a signature goes: everything below a `-- ` line, and "Sent from my ..." lines;
- markdown is read for its structure: a table is a line per row, each cell after its column's header ("New
  York: 09:30 | London: 14:30"; a header that only says what the column holds, such as "City" or "Time",
  is left out), cells parted by " | "; struck-through text (`~~10:00~~`) is what the author crossed out and
  is not read; emphasis, code marks and heading marks go, list items stay lines;
- the names of days and months are written the one way the readers know: misspellings ("Thrusday",
  "Frdiay", "Feburary", found with rapidfuzz's edit distance, a month only next to a number so that "Marco"
  stays a name), shorthand ("tmrw"), German and French names ("3. März", "le 3 mars", "Donnerstag").

The calendar words (months, weekdays) are kept here once (`MONTHS`, `WEEKDAYS`, `MONTH`, `WEEKDAY`) for all
readers, and so is the sentence splitter (`sentences`, `SENTENCE`): pysbd was measured and not taken (4.7 ms
for a 300-character mail, and it ends a sentence at "Thu. 5 March").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import quotequail
from markdown_it import MarkdownIt
from rapidfuzz.distance import OSA

from orchestrator.scenario.text.clean import per_text

_MONTH_NAMES = [
    ("jan", "january"),
    ("feb", "february"),
    ("mar", "march"),
    ("apr", "april"),
    ("may",),
    ("jun", "june"),
    ("jul", "july"),
    ("aug", "august"),
    ("sep", "sept", "september"),
    ("oct", "october"),
    ("nov", "november"),
    ("dec", "december"),
]
MONTHS = {name: index for index, names in enumerate(_MONTH_NAMES, start=1) for name in names}
"""Month names and their short forms, lower case, to the month's number."""
_WEEKDAY_NAMES = [
    ("monday", "mon"),
    ("tuesday", "tue", "tues"),
    ("wednesday", "wed", "weds"),
    ("thursday", "thu", "thur", "thurs"),
    ("friday", "fri"),
    ("saturday", "sat"),
    ("sunday", "sun"),
]
WEEKDAYS = {name: index for index, names in enumerate(_WEEKDAY_NAMES) for name in names}
"""Weekday names and their short forms, lower case, to the weekday's number (Monday 0)."""
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![^\W\d_])"
)
"""A month's name or short form as a whole word (use with re.I): "Mar" and "March", never "Marco"."""
WEEKDAY = r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)(?![^\W\d_])"
"""A weekday's name or short form as a whole word (use with re.I)."""

_FULL_WEEKDAYS = [names[0] for names in _WEEKDAY_NAMES]
_FULL_MONTHS = [names[-1] for names in _MONTH_NAMES if len(names[-1]) >= 5]
FOREIGN = {
    # German
    "januar": "January",
    "jänner": "January",
    "februar": "February",
    "märz": "March",
    "maerz": "March",
    "mai": "May",
    "juni": "June",
    "juli": "July",
    "oktober": "October",
    "dezember": "December",
    # Dutch
    "januari": "January",
    "februari": "February",
    "maart": "March",
    "mei": "May",
    "augustus": "August",
    # French
    "janvier": "January",
    "février": "February",
    "fevrier": "February",
    "mars": "March",
    "avril": "April",
    "juin": "June",
    "juillet": "July",
    "août": "August",
    "aout": "August",
    "septembre": "September",
    "octobre": "October",
    "novembre": "November",
    "décembre": "December",
    "decembre": "December",
    # Spanish
    "enero": "January",
    "febrero": "February",
    "marzo": "March",
    "abril": "April",
    "mayo": "May",
    "junio": "June",
    "julio": "July",
    "agosto": "August",
    "septiembre": "September",
    "octubre": "October",
    "noviembre": "November",
    "diciembre": "December",
}
"""Month names of other languages, read only right after a day's number ("3. März", "le 3 mars")."""
FOREIGN_WEEKDAYS = {
    "montag": "Monday",
    "dienstag": "Tuesday",
    "mittwoch": "Wednesday",
    "donnerstag": "Thursday",
    "freitag": "Friday",
    "samstag": "Saturday",
    "sonnabend": "Saturday",
    "sonntag": "Sunday",
    "lundi": "Monday",
    "mardi": "Tuesday",
    "mercredi": "Wednesday",
    "jeudi": "Thursday",
    "vendredi": "Friday",
    "samedi": "Saturday",
    "dimanche": "Sunday",
    "maandag": "Monday",
    "dinsdag": "Tuesday",
    "woensdag": "Wednesday",
    "donderdag": "Thursday",
    "vrijdag": "Friday",
    "zaterdag": "Saturday",
    "zondag": "Sunday",
    "lunedì": "Monday",
    "martedì": "Tuesday",
    "mercoledì": "Wednesday",
    "giovedì": "Thursday",
    "venerdì": "Friday",
    "lunes": "Monday",
    "miércoles": "Wednesday",
    "jueves": "Thursday",
    "viernes": "Friday",
}
SHORTHAND = {
    "tmrw": "tomorrow",
    "tmw": "tomorrow",
    "tmr": "tomorrow",
    "tomorow": "tomorrow",
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tdy": "today",
    "2day": "today",
    "tonite": "tonight",
}

# Quotes and signatures
QUOTE_HEADER = re.compile(
    r"^\s*(?:On|Le|Am|Op|El|Em|Il)\b.{3,300}?\b(?:(?:wrote|a\s+écrit|escribió|escreveu|ha\s+scritto)\s*|"
    r"(?:schrieb|schreef)\b.{0,150}?):\s*$",
    re.I | re.S,
)
ORIGINAL_BLOCK = re.compile(
    r"^\s*(?:-{2,}|_{2,})?\s*(?:Forwarded message|Original Message|Begin forwarded message:?)\s*(?:-{2,}|_{2,})?\s*$",
    re.I,
)
HEADER_LINE = re.compile(
    r"^\s*\**(?:From|Sent|Date|To|Cc|Subject|Von|Gesendet|An|Betreff|De|Envoyé|À|Objet|Enviado|Enviada|Para|Asunto|"
    r"Assunto|Fecha|Da|Inviato|Oggetto|Data|A|Van|Verzonden|Aan|Onderwerp|Datum)\**\s*:",
    re.I,
)
RULE_LINE = re.compile(r"^\s*(?:_{5,}|-{5,}|={5,})\s*$")
SIGNATURE = re.compile(r"^--\s*$")
SENT_FROM = re.compile(r"^\s*Sent from my \w+", re.I)

SENTENCE_MARK = re.compile(r"[.!?]+(?=[\"'’”)\]]*(?:[ \t]+(?P<next>\S)|[ \t]*(?:\n|$)))|\n")
ABBREVIATION = re.compile(
    r"\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|excl|min|max|no|nr|dr|mr|mrs|ms|st|prof|dept|ref|[ap]\.m|[a-z])$",
    re.I,
)
CLAUSE_BREAK = re.compile(
    r";|:(?!\d)|\s\|\s|\s[–—-]\s|,\s*(?=(?:but|though|although|unless|if|however|yet|and\s+let|let|please|thanks|"
    r"feel|so|while|whereas|since|because|as)\b)|\((?=[^)]*\))|\)|[\u2705\u2714\u274c\U0001F300-\U0001FAFF]",
    re.I,
)
"""Where a clause ends inside a sentence: `;`, `:`, a table's cell, a dash between spaces, a parenthesis, and a
comma before but, though, unless, if, so, because, while ..."""


@dataclass(frozen=True)
class Parsed:
    """A text as the readers read it: what the author wrote (`text`), and its sentences as spans of it."""

    text: str
    sentences: tuple[tuple[int, int], ...]

    def sentence_at(self, pos: int) -> tuple[int, int]:
        """The span of the sentence that holds `pos` (an empty span at the end)."""
        for a, b in self.sentences:
            if a <= pos < b:
                return a, b
        return len(self.text), len(self.text)


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of an (already parsed) text as spans, blank ones left out. A sentence ends at the end of a
    line, or at `.`, `!` or `?` before a space and a word that does not start in lower case; not after an
    abbreviation ("e.g.", "Dr.", "a.m.", "Thu."), nor at a decimal point."""
    spans, start = [], 0
    for m in SENTENCE_MARK.finditer(text):
        if m.group(0) != "\n":
            following = m.group("next")
            if following is not None and (following.islower() or following.isdigit()):
                continue
            if m.group(0) == "." and ABBREVIATION.search(text, max(0, m.start() - 12), m.start()):
                continue
        end = m.end()
        if text[start:end].strip():
            spans.append((start, end))
        start = end
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The clauses of the sentence `text[start:end]` as spans of `text`."""
    spans, at = [], start
    for m in CLAUSE_BREAK.finditer(text, start, end):
        if m.start() > at:
            spans.append((at, m.start()))
        at = m.end()
    if end > at:
        spans.append((at, end))
    return spans


def clauses_about(text: str, phrases: list[str]) -> list[str]:
    """The clauses of a text that say one of `phrases` (whole words, any case)."""
    parsed = parse(text)
    found = [parsed.text[a:b] for s, e in parsed.sentences for a, b in clauses(parsed.text, s, e)]
    words = [re.compile(rf"(?<!\w){re.escape(p.strip())}(?!\w)", re.I) for p in phrases]
    return [c for c in found if any(w.search(c) for w in words)]


@per_text
def parse(text: str) -> Parsed:
    """The one parse of a text (see the module's docstring)."""
    own = _words(_markdown(_own_part(text.replace("\r\n", "\n").replace("\r", "\n"))))
    return Parsed(own, tuple(sentences(own)))


def read(text: str) -> str:
    """What the author of `text` wrote, as the readers read it (`parse(text).text`)."""
    return parse(text).text


def _own_part(text: str) -> str:
    """The author's part: no quoted or forwarded message below it, no `>` lines, no signature."""
    lines = text.split("\n")
    cut = len(lines)
    for i, line in enumerate(lines):
        if ORIGINAL_BLOCK.match(line) or _header_block(lines, i) or QUOTE_HEADER.match(line):
            cut = i
            break
        if QUOTE_HEADER.match(" ".join(lines[i : i + 2])) and not lines[i].strip().startswith(">"):
            cut = i  # "On Mon, 2 Mar 2026 at 08:00, Priya Shah\n<priya@acme.test> wrote:"
            break
        if SIGNATURE.match(line) and i > 0:
            cut = i
            break
    if cut == len(lines) and "\n" in text:
        cut = _quotequail_cut(text, lines)
    kept = ["" if line.lstrip().startswith(">") or SENT_FROM.match(line) else line for line in lines[:cut]]
    while kept and RULE_LINE.match(kept[-1] or "-----"):
        kept.pop()
    return "\n".join(kept)


def _header_block(lines: list[str], i: int) -> bool:
    """Whether line `i` starts a quoted message's header block: a From: line with another header line (Sent:,
    Date:, To:, Subject:) among the next three, or a rule line right before it."""
    if not re.match(r"^\s*\**(?:From|Von|De|Da|Van)\**\s*:", lines[i], re.I):
        return False
    below = lines[i + 1 : i + 4]
    return sum(bool(HEADER_LINE.match(line)) for line in below) >= 1 or (i > 0 and bool(RULE_LINE.match(lines[i - 1])))


def _quotequail_cut(text: str, lines: list[str]) -> int:
    """The line where quotequail finds a quoted message (only where that line is a quote's header), else the end."""
    try:
        parts = quotequail.quote(text)
    except Exception:  # noqa: BLE001  (a parser's failure on odd text leaves the text whole)
        return len(lines)
    if len(parts) < 2 or parts[0][0] is not True:
        return len(lines)
    at = parts[0][1].count("\n")
    if at < len(lines):
        rest = lines[at:]
        head = next((line for line in rest if line.strip()), "")
        if HEADER_LINE.match(head) or ORIGINAL_BLOCK.match(head) or head.lstrip().startswith(">"):
            return at
    return len(lines)


GENERIC_HEADERS = re.compile(
    r"^(?:city|cities|location|locations|place|office|where|region|country|time\s*zone|tz|zone|local\s+time|time|"
    r"times|when|date|dates|day|days|name|names|person|people|who|attendee|attendees|participant|participants|"
    r"recipient|item|items|what|details?|value|values|notes?|#|no\.?|)$",
    re.I,
)
STRUCK = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.S)
EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![\w*])|`([^`\n]+)`")
HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t#]*$", re.M)
_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _markdown(text: str) -> str:
    """Tables as rows with their header cells; struck text, emphasis, code and heading marks gone."""
    if "|" in text:
        text = _tables(text)
    text = STRUCK.sub(lambda m: re.sub(r"\S", " ", m.group(0)), text)
    text = EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", text)
    return HEADING.sub(lambda m: m.group(1), text)


def _tables(text: str) -> str:
    """Each markdown table written as a line per row: "Header: cell | Header: cell"."""
    lines = text.split("\n")
    tokens = _MD.parse(text)
    out: list[tuple[int, int, list[str]]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].type != "table_open" or tokens[i].map is None:
            i += 1
            continue
        first, last = tokens[i].map  # type: ignore[misc]  # not None: checked just above
        header: list[str] = []
        rows: list[list[str]] = []
        row: list[str] = []
        in_head = False
        while i < len(tokens) and tokens[i].type != "table_close":
            kind = tokens[i].type
            if kind == "thead_open":
                in_head = True
            elif kind == "thead_close":
                in_head = False
            elif kind == "tr_open":
                row = []
            elif kind == "inline":
                row.append(tokens[i].content.strip())
            elif kind == "tr_close":
                if in_head:
                    header = row
                else:
                    rows.append(row)
            i += 1
        written = [_row(header, r) for r in rows]
        out.append((first, last, written))
        i += 1
    for first, last, written in reversed(out):
        lines[first:last] = written
    return "\n".join(lines)


TIME_CELL = re.compile(r"\d{1,2}[:.h]\d{2}|\d{1,2}\s?[ap]\.?m\b", re.I)
TIME_SPAN = re.compile(
    r"\d{1,2}(?:[:.h]\d{2})?(?:\s?[ap]\.?m\.?)?(?:\s*[–—-]\s*\d{1,2}(?:[:.h]\d{2})?(?:\s?[ap]\.?m\.?)?)?", re.I
)
ZONE_WORD = re.compile(r"\b[A-Z]{2,5}\b|(?:UTC|GMT)\s*[+−-]\s*\d{1,2}")


def _where(words: str) -> str | None:
    """The zone or place a header or cell names ("Amsterdam (CEST)" → "CEST", "New York", "Lisboa"), if any."""
    from orchestrator.scenario.text.zones import place_zone, zone_named

    words = EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", words).strip()
    for token in ZONE_WORD.findall(words):
        if zone_named(token) is not None:
            return token
    plain = re.sub(r"\s*\(.*?\)\s*", " ", words).strip()
    found = place_zone(plain) if plain else None
    if found is None or found[1] < len(plain) - 1:
        return None
    return next((n for n in _places() if n.lower() == plain.lower()), plain)


ORIGIN_HEADER = re.compile(
    r"\b(?:from|to|origin|destination|depart\w*|arriv\w*|route|leg|flight|via|venue|hotel|vendor|supplier)\b", re.I
)
"""A column whose place is not where the row's person is: where they come from or go to, a venue, a hotel."""


def _where_within(cell: str) -> str | None:
    """The place a cell names in parentheses after a name ("Tyler (SF)", "Ana (Toronto)")."""
    inner = re.fullmatch(
        r"[^()]*\(([^()]+)\)\s*", EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", cell)
    )
    return _where(inner.group(1)) if inner else None


def _row(header: list[str], cells: list[str]) -> str:
    """A table row as a line: each cell after its column's header; a time in a column (or a row) that names a
    place or zone is written with it ("10:00 (CEST)", "14:00 (Lisboa)")."""
    place = next(
        (
            w
            for w in (
                _where(c) or _where_within(c)
                for i, c in enumerate(cells)
                if not TIME_CELL.search(c) and not ORIGIN_HEADER.search(header[i] if i < len(header) else "")
            )
            if w
        ),
        None,
    )
    parts = []
    for index, cell in enumerate(cells):
        if not cell:
            continue
        head = header[index] if index < len(header) else ""
        plain = EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", head).strip()
        if TIME_CELL.search(cell) and not ZONE_WORD.search(cell):
            where = _where(plain) or place
            if where:
                at = TIME_SPAN.match(cell, TIME_CELL.search(cell).start()).end()  # type: ignore[union-attr]  # a time: searched just above
                parts.append(f"{cell[:at]} ({where}){cell[at:]}")  # "1:00 pm (SF) Tue": the zone beside its time
                continue
        parts.append(cell if GENERIC_HEADERS.match(plain) else f"{plain}: {cell}")
    return " | ".join(parts) + "."


WORD = re.compile(r"(?<![\w/@.-])([^\W\d_]{3,})(?![\w@/])")
DAY_BEFORE = re.compile(r"\d{1,2}(?:st|nd|rd|th|\.)?\s*(?:de\s+|of\s+)?$", re.I)
DAY_AFTER = re.compile(r"^\s*\d{1,2}(?!\d)")


def _words(text: str) -> str:
    """Day and month names written the one way the readers know (see the module's docstring)."""

    def fix(m: re.Match[str]) -> str:
        word = m.group(1)
        low = word.lower()
        if low in MONTHS or low in WEEKDAYS:
            return word
        if low in SHORTHAND:
            return SHORTHAND[low]
        if low in FOREIGN_WEEKDAYS:
            return FOREIGN_WEEKDAYS[low]
        before, after = text[max(0, m.start() - 12) : m.start()], text[m.end() : m.end() + 6]
        dated = bool(DAY_BEFORE.search(before) or DAY_AFTER.match(after))
        if low in FOREIGN and DAY_BEFORE.search(before):
            return FOREIGN[low]
        if word.islower() and _place_near_time(low, before, after):
            return next(n for n in _places() if n.lower() == low)
        if len(low) >= 6:
            day = _close(low, _FULL_WEEKDAYS)
            if day:
                return day.capitalize()
        if len(low) >= 5 and dated:
            month = _close(low, _FULL_MONTHS)
            if month:
                return month.capitalize()
        if len(low) >= 6:
            status = _status(low)
            if status:
                return status.capitalize() if word[0].isupper() else status
        return word

    text = DOTTED_DAY.sub(r"\1 ", WORD.sub(fix, text))
    text = UHR.sub(lambda m: f"{m['h']}:{m['m'] or '00'}", text)
    return ORDINAL_WORDS.sub(lambda m: _ORDINALS[" ".join(m.group(1).lower().replace("-", " ").split())], text)


UHR = re.compile(r"\b(?P<h>[01]?\d|2[0-3])(?:[:.](?P<m>[0-5]\d))?\s*(?:Uhr|uur)\b")
"""German "15 Uhr", "11:30 Uhr" and Dutch "15.30 uur": the clock time alone."""
_UNITS = "first second third fourth fifth sixth seventh eighth ninth".split()
_ORDINALS = (
    {w: f"{i}" for i, w in enumerate(_UNITS, 1)}
    | {
        w: f"{i}"
        for i, w in enumerate(
            "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth "
            "seventeenth eighteenth nineteenth".split(),
            10,
        )
    }
    | {"twentieth": "20", "thirtieth": "30"}
    | {f"twenty {w}": f"{20 + i}" for i, w in enumerate(_UNITS, 1)}
    | {"thirty first": "31"}
)
ORDINAL_WORDS = re.compile(
    r"\b(?<!-)(" + "|".join(sorted((k.replace(" ", "[ -]") for k in _ORDINALS), key=len, reverse=True)) + r")"
    r"(?=\s+(?:of\s+)?" + MONTH + r")",
    re.I,
)
"""A day in words before its month ("the thirty-first of May"): its number."""


DOTTED_DAY = re.compile(r"(?<![\d.])(\d{1,2})\.\s+(?=" + MONTH + ")", re.I)


def _places() -> dict[str, str]:
    from orchestrator.scenario.text.zones import PLACES

    return PLACES


def _place_near_time(low: str, before: str, after: str) -> bool:
    """A place written in lower case right after a time or before "time" ("9:30 nyc", "london time")."""
    from orchestrator.scenario.text.zones import PLACES_ANY_CASE

    if low not in PLACES_ANY_CASE or low in COMMON_WORDS:
        return False
    return bool(re.search(r"(?:\d|[ap]\.?m\.?)\s*(?:\(|in\s+|for\s+)?$", before, re.I) or re.match(r"\s+time\b", after))


COMMON_WORDS = frozenset(
    {
        "central",
        "eastern",
        "mountain",
        "pacific",
        "wake",
        "center",
        "easter",
        "rio",
        "victoria",
        "june",
        "may",
        "hope",
        "reunion",
        "eucla",
        "us",
        "la",
        "ny",
        "sf",
    }
)


STATUS_WORDS = ("cancelled", "released", "confirmed", "postponed", "rescheduled", "tentative", "tentatively")
"""Words that say what became of a slot, read through one slip ("cancelld", "relased", "Confimed")."""


def _status(word: str) -> str | None:
    """The status word `word` misspells by one letter missing, extra, wrong or two swapped; not another form of it
    ("confirms", "release", "reschedule")."""
    if word.endswith(("s", "ing")):
        return None
    found = [
        n
        for n in STATUS_WORDS
        if n[0] == word[0] and OSA.distance(word, n) == 1 and not n.startswith(word) and not word.startswith(n)
    ]
    return found[0] if len(found) == 1 else None


def _close(word: str, names: list[str]) -> str | None:
    """The one name `word` misspells: a letter missing or extra, or two swapped (two such slips, or a wrong letter,
    in a name of eight letters or more); "Marco" (one letter wrong) is no "March"."""
    found = [n for n in names if n[0] == word[0] and _slip(word, n)]
    return found[0] if len(found) == 1 else None


def _slip(word: str, name: str) -> bool:
    distance = OSA.distance(word, name)
    if len(name) >= 8:
        return distance <= 2
    return distance == 1 and (len(word) != len(name) or sorted(word) == sorted(name))
