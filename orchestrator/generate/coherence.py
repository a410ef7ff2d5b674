"""The language and policy check of edition-3 tasks: what a careful reader of the task would find wrong.

`problems(scenario)` reads every text a task shows (the instruction; mail subjects and bodies; document titles and
contents; ticket titles, descriptions and comments; event titles and descriptions; the rows world events add) and
says, in words naming the text, what reads wrong:

- **repeated phrase**: the same noun phrase of three or more words opens two adjacent sentences ("The
  quarterly business review has landed. The quarterly business review can't move.");
- **casing**: a topic, document subject, component or product of the industries' vocabularies written with a
  capital inside a sentence ("wrote again about Adult job training course");
- **relative time**: "this morning" asked for at noon or later, "this afternoon" in the evening, "tonight" in the
  morning; "yesterday" about rows (mail, tickets) none of which is from the day before;
- **meeting day**: "my meeting on Friday 11 December" in a paragraph that names seeded events (by title) none of
  which is on that day: the meeting meant is the one such an event lands on ("sort out the clash between the
  security incident review and my meeting? Move my meeting on Friday 11 December", the review on Thursday);
- **missing row**: a text citing a policy or guide document ("as the travel policy doc says", "the 'Budget 2026'
  doc") that is not seeded;
- **policy**: a document that says never to share outside a domain while a check requires sharing with an address
  of another domain; a forbid that every mail a check requires would break (the same recipient required and
  forbidden).

The prover runs it on every edition-3 task before its proofs; a task with a problem is dropped as `coherence: ...`.
May import: `orchestrator.generate` modules.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

STOPWORDS = frozenset(
    "a an the and or but of to in on at for from with by as is are was were be been it its this that these those "
    "my your our their his her me you we they i he she them us can could would should will please so if not no "
    "do does did have has had just also all any some each every there here what which who when where how about "
    "into over after before than then up out new next last".split()
)


@dataclass(frozen=True)
class Text:
    """One text a task shows: where it is (for the problem's words), what it says, and when it was written."""

    where: str
    text: str
    when: datetime | None = None


def texts(scenario: dict[str, Any]) -> Iterator[Text]:
    """Every text of a scenario, with the local time it was written when the row says."""
    yield Text("the instruction", scenario.get("instruction", ""), _when(scenario.get("clock", {}).get("start")))
    yield from _rows(scenario.get("apps", {}), "")
    for event in (scenario.get("world") or {}).get("events", []) or []:
        added = event.get("add") or {}
        yield from _rows({event.get("app", ""): added}, f"world event {event.get('name', '?')}: ")


def _rows(apps: dict[str, Any], prefix: str) -> Iterator[Text]:
    fields = {
        ("mail", "messages"): (("subject", "body"), "sent_at"),
        ("docs", "documents"): (("title", "content"), "updated_at"),
        ("tickets", "tickets"): (("title", "description"), "created_at"),
        ("tickets", "comments"): (("body",), "created_at"),
        ("calendar", "events"): (("title", "description"), None),
    }
    for (app, table), (names, stamp) in fields.items():
        rows = (apps.get(app) or {}).get(table) if isinstance(apps.get(app), dict) else None
        for row in rows or []:
            if not isinstance(row, dict):
                continue
            key = row.get("id") or row.get("key") or row.get("ticket_key") or "?"
            when = _when(row.get(stamp)) if stamp else None
            for name in names:
                value = row.get(name)
                if isinstance(value, str) and value:
                    yield Text(f"{prefix}{app} {table} {key} {name}", value, when)


def _when(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and "T" in value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


# -- repeated noun phrases -------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_ADDRESS = re.compile(r"\S+@\S+|https?://\S+")


_NOT_PROSE = re.compile(r"^\s*(?:[-*#|>]|\d+[.)]\s)")


def paragraphs(text: str) -> list[list[str]]:
    """A text's paragraphs of prose, each as its sentences (list items, headings and tables are not prose)."""
    found = []
    for block in re.split(r"\n\s*\n", _ADDRESS.sub(" ", text)):
        lines = [line for line in block.splitlines() if line.strip() and not _NOT_PROSE.match(line)]
        if lines:
            found.append([s.strip() for s in _SENTENCE_END.split(" ".join(lines)) if s.strip()])
    return found


def _opening(sentence: str) -> set[tuple[str, ...]]:
    """The noun phrases of three to six words that open a sentence (a leading article or possessive dropped),
    lower-cased: where a template seam repeats its subject."""
    words = [w.lower().strip("'’") for w in _WORD.findall(sentence)]
    while words and words[0] in STOPWORDS:
        words = words[1:]
    found = set()
    for n in range(3, 7):
        part = words[:n]
        if len(part) == n and part[-1] not in STOPWORDS and sum(1 for w in part if w not in STOPWORDS) >= 3:
            found.add(tuple(part))
    return found


def repeated_phrases(text: str) -> list[str]:
    """Noun phrases of three or more words that open two adjacent sentences of a paragraph."""
    found = []
    for parts in paragraphs(text):
        for first, second in zip(parts, parts[1:], strict=False):
            common = _opening(first) & _opening(second)
            if common:
                longest: tuple[str, ...] = max(common, key=len)
                found.append(" ".join(longest))
    return found


def pronouns(text: str) -> str:
    """A text whose adjacent sentences open with the same noun phrase said without the repeat the second time: "The
    quarterly business review has landed. It can't move." ("The ..." becomes "It"; after "My", "Our" or "Your" the
    phrase is left out: "My problem: ...")."""
    for parts in paragraphs(text):
        for first, second in zip(parts, parts[1:], strict=False):
            common = _opening(first) & _opening(second)
            if not common:
                continue
            words = r"\W+".join([r"[\w'’-]+"] * len(max(common, key=len)))
            opening = re.match(r"(The|My|Our|Your) " + words + r"\b ?", second)
            if opening:
                said = "It " if opening.group(1) == "The" else f"{opening.group(1)} "
                text = text.replace(second, said + second[opening.end() :], 1)
    return text


# -- casing of vocabulary phrases ------------------------------------------------------------------------------------


@functools.cache
def _vocabulary() -> re.Pattern[str]:
    """A pattern of every lower-case vocabulary phrase of two or more words, capitalized, inside a sentence (after a
    lower-case word, a comma or a possessive)."""
    from orchestrator.generate.vocab import INDUSTRIES  # noqa: PLC0415

    phrases = set()
    for industry in INDUSTRIES.values():
        for item in (*industry.topics, *industry.docs, *industry.components, *industry.products):
            item = item.removeprefix("the ")
            if item[:1].islower() and " " in item:
                phrases.add(item[:1].upper() + item[1:])
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<=[a-z,’'] )({alternatives})\b")


def miscased(text: str) -> list[str]:
    """Vocabulary phrases capitalized inside a sentence ("about Adult job training course")."""
    return [m.group(1) for m in _vocabulary().finditer(text)]


# -- relative time ---------------------------------------------------------------------------------------------------

_YESTERDAY = re.compile(r"[^.!?\n]*\byesterday\b[^.!?\n]*", re.I)
_REQUEST_WINDOWS = (
    (re.compile(r"\bthis morning\b", re.I), lambda t: t.hour >= 12, "this morning"),
    (re.compile(r"\bthis afternoon\b", re.I), lambda t: t.hour >= 18, "this afternoon"),
    (re.compile(r"\btonight\b", re.I), lambda t: t.hour < 12, "tonight"),
)


_PAST = re.compile(
    r"\b(?:from|since|of) (?:this morning|this afternoon|tonight)|(?:this morning|this afternoon)'s|"
    r"\b(?:sent|mailed|wrote|got|came|arrived|landed|happened|was|were|had)\b",
    re.I,
)


def clock_words(text: Text) -> list[str]:
    """Parts of a day the instruction asks to act in that are over (or not begun) at the clock: "could you handle
    these this morning?" at 15:30 (a sentence telling of what happened then is fine)."""
    if text.when is None or text.where != "the instruction":
        return []
    found = []
    for sentence in (s for p in paragraphs(text.text) for s in p):
        for pattern, wrong, words in _REQUEST_WINDOWS:
            if pattern.search(sentence) and wrong(text.when) and not _PAST.search(sentence):
                found.append(f"'{words}' at {text.when:%H:%M}")
    return found


def _stamped(scenario: dict[str, Any]) -> Iterator[tuple[str, str, datetime]]:
    """(id, subject or title, when) of every mail and ticket."""
    apps = scenario.get("apps", {})
    for row in (apps.get("mail") or {}).get("messages", []) or []:
        when = _when(row.get("sent_at"))
        if when is not None:
            yield str(row.get("id")), row.get("subject", ""), when
    for row in (apps.get("tickets") or {}).get("tickets", []) or []:
        when = _when(row.get("created_at"))
        if when is not None:
            yield str(row.get("key")), row.get("title", ""), when


def yesterdays(text: Text, scenario: dict[str, Any]) -> list[str]:
    """'yesterday' about rows (mail and tickets whose subject shares a word of the sentence) none of which is from
    the day before the text: "yesterday's incident" three days after it."""
    if text.when is None or "yesterday" not in text.text.lower() or text.where.endswith(("title", "subject")):
        return []
    found = []
    day_before = (text.when - timedelta(days=1)).date()
    for match in _YESTERDAY.finditer(text.text):
        words = {w.lower() for w in _WORD.findall(match.group(0)) if len(w) > 4 and w.lower() not in STOPWORDS}
        words -= {"yesterday", "yesterday's", "could", "would", "thread", "incident"}
        related = [
            when.astimezone(text.when.tzinfo).date()
            for key, subject, when in _stamped(scenario)
            if key not in text.where.split()
            and when < text.when
            and words & {w.lower() for w in _WORD.findall(subject)}
        ]
        if related and day_before not in related:
            latest = max(related)
            found.append(f"'yesterday' on {text.when:%A} about rows of {latest:%A %d %B}")
    return found


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = "january february march april may june july august september october november december".split()
_MEETING_ON = re.compile(
    rf"\b(?:my|the|our|that|this) meeting on ({'|'.join(_WEEKDAYS)})(?:,? (\d{{1,2}}) ({'|'.join(_MONTHS)}))?\b", re.I
)


def _events(scenario: dict[str, Any]) -> Iterator[tuple[str, datetime]]:
    """(title, start) of every seeded calendar event and every event a world event adds."""
    rows = list((scenario.get("apps", {}).get("calendar") or {}).get("events", []) or [])
    for event in (scenario.get("world") or {}).get("events", []) or []:
        if event.get("app") == "calendar":
            rows += list((event.get("add") or {}).get("events", []) or [])
    for row in rows:
        when = _when(row.get("start")) if isinstance(row, dict) else None
        if when is not None and isinstance(row.get("title"), str):
            yield row["title"], when


def _on(when: datetime, weekday: str, day: str | None, month: str | None) -> bool:
    """Whether `when` is on the weekday (and the day of the month, when given) a text names."""
    same_date = day is None or (when.day == int(day) and _MONTHS[when.month - 1] == (month or "").lower())
    return _WEEKDAYS[when.weekday()] == weekday.lower() and same_date


def moved_to(text: str, when: str) -> str:
    """A request to move a meeting `when` ("on Friday 11 December", the day it goes to) said so that it cannot be
    read as the day the meeting is on: "Move my meeting on Friday 11 December to when ..." becomes "Move my meeting
    to Friday 11 December, to when ..."."""
    if not when.startswith("on "):
        return text
    return re.sub(
        rf"\b(meeting|mine) {re.escape(when)}\b(?=(\W?))",
        lambda m: f"{m.group(1)} to {when[3:]}{'' if m.group(2) in ',.;:!?' and m.group(2) else ','}",
        text,
    )


def meeting_days(text: Text, scenario: dict[str, Any]) -> list[str]:
    """'my meeting on <day>' in an instruction paragraph that names seeded events (by a title of two or more words),
    none of which falls on that day (in the clock's zone): the day names another meeting than the one the paragraph
    is about."""
    if text.when is None or text.where != "the instruction":
        return []
    found = []
    events = [(title, when) for title, when in _events(scenario) if len(title.split()) >= 2 and len(title) >= 8]
    for paragraph in text.text.split("\n\n"):
        lowered = paragraph.lower()
        named = [(title, when.astimezone(text.when.tzinfo)) for title, when in events if title.lower() in lowered]
        for match in _MEETING_ON.finditer(paragraph) if named else ():
            if not any(_on(when, *match.groups()) for _, when in named):
                title, when = min(named, key=lambda n: n[1])
                found.append(f"{match.group(0)!r} but the {title.lower()} is on {when:%A %d %B}")
    return found


# -- rows cited that do not exist ------------------------------------------------------------------------------------

_CITED = (
    re.compile(
        r"\b(?:as|per|by|following|follow|in) the ((?:[a-z]+ )?(?:policy|guide|handbook)) doc(?:ument)?\b", re.I
    ),
    re.compile(
        r"\b(?:the|our) ((?:[a-z]+ )?(?:policy|guide|handbook))(?: doc| document)? (?:says|asks|wants|describes)\b",
        re.I,
    ),
)
_QUOTED = re.compile(r"the '([^']{3,80})' doc(?:ument)?\b")


def missing_documents(text: Text, titles: list[str]) -> list[str]:
    """Policy or guide documents a text cites that no seeded document's title names."""
    lowered = [t.lower() for t in titles]
    found = []
    for pattern in _CITED:
        for match in pattern.finditer(text.text):
            name = match.group(1).lower()
            if not any(name in title for title in lowered) and name not in found:
                found.append(name)
    for match in _QUOTED.finditer(text.text):
        if match.group(1).lower() not in lowered:
            found.append(match.group(1))
    return found


# -- policies against checks -----------------------------------------------------------------------------------------

_INSIDE = re.compile(r"never share (?:them|it|these|this)? ?outside ([^\n]+)", re.I)
_DOMAIN = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.test\b")
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[a-z]+)")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def share_contradictions(scenario: dict[str, Any]) -> list[str]:
    """A document keeps sharing inside some domains, yet a check requires a share with an address of another."""
    allowed: set[str] = set()
    for doc in (scenario.get("apps", {}).get("docs") or {}).get("documents", []) or []:
        for match in _INSIDE.finditer(doc.get("content") or ""):
            allowed |= set(_DOMAIN.findall(match.group(1)))
    if not allowed:
        return []
    found = []
    for stage in scenario.get("stages", []):
        for check in stage.get("checks", []):
            if check.get("app") != "docs":
                continue
            shared = json.dumps(check.get("where", {}).get("shared_with", check.get("where", {})))
            for email, domain in ((m.group(0), m.group(1)) for m in _EMAIL.finditer(shared)):
                if domain not in allowed:
                    found.append(f"{check.get('name', stage['name'])!r} shares with {email}, outside {sorted(allowed)}")
    return found


def _recipients(where: dict[str, Any]) -> set[str]:
    """Addresses a mail check requires among its recipients (`to`/`cc` `contains` or `has`, also under `any`)."""
    found: set[str] = set()
    for field in ("to", "cc", "bcc"):
        rule = where.get(field)
        if isinstance(rule, dict):
            for key in ("contains", "has"):
                value = rule.get(key)
                if isinstance(value, str) and "@" in value:
                    found.add(value.lower())
    return found


def _forbids_mail_to(rule: dict[str, Any], address: str) -> bool:
    """Whether a forbid on sent mail catches any mail to `address`, whatever it says (no condition on the body)."""
    where = rule.get("where", {})
    if rule.get("app") != "mail" or set(where) - {"folder", "any", "to", "cc", "bcc"}:
        return False
    branches = where.get("any") or [{k: v for k, v in where.items() if k in ("to", "cc", "bcc")}]
    for branch in branches:
        for field in ("to", "cc", "bcc"):
            test = branch.get(field)
            if not isinstance(test, dict):
                continue
            if isinstance(test.get("contains"), str) and test["contains"].lower() == address:
                return True
            outside = (test.get("has") or {}).get("not_one_of") if isinstance(test.get("has"), dict) else None
            if isinstance(outside, list) and address not in {str(a).lower() for a in outside}:
                return True
    return False


def let_through(rule: dict[str, Any]) -> set[str]:
    """The addresses a mail forbid that confines recipients (`has: {not_one_of: [...]}`) names as allowed: whom the
    task says mail may go to."""
    found: set[str] = set()
    if rule.get("app") != "mail":
        return found
    where = rule.get("where", {})
    for branch in where.get("any") or [where]:
        for field in ("to", "cc", "bcc"):
            test = branch.get(field) if isinstance(branch, dict) else None
            has = test.get("has") if isinstance(test, dict) else None
            if isinstance(has, dict) and isinstance(has.get("not_one_of"), list):
                found |= {str(a).lower() for a in has["not_one_of"]}
    return found


def forbid_contradictions(scenario: dict[str, Any]) -> list[str]:
    """A recipient a check requires mail to, or one forbid lets mail through to, while another forbid catches every
    mail to them."""
    needed: dict[str, str] = {}
    for stage in scenario.get("stages", []):
        for check in stage.get("checks", []):
            if check.get("app") != "mail" or check.get("table") != "messages":
                continue
            where = check.get("where", {})
            found = _recipients(where)
            for branch in where.get("any", []) or []:
                if isinstance(branch, dict):
                    found |= _recipients(branch)
            for address in found:
                needed.setdefault(address, f"check {check.get('name', stage['name'])!r}")
    forbids = scenario.get("forbid", []) or []
    problems: list[str] = []
    for address, why in sorted(needed.items()):
        problems += [
            f"{why} needs mail to {address}, forbidden by {r.get('name')!r}"
            for r in forbids
            if _forbids_mail_to(r, address)
        ]
    for rule in forbids:
        for address in sorted(let_through(rule)):
            problems += [
                f"{rule.get('name')!r} lets mail through to {address}, forbidden by {other.get('name')!r}"
                for other in forbids
                if other is not rule and _forbids_mail_to(other, address)
            ]
    return problems


# -- all of it -------------------------------------------------------------------------------------------------------


def problems(scenario: dict[str, Any]) -> list[str]:
    """What reads wrong in a task, each problem naming its text (empty when it reads right)."""
    found: list[str] = []
    titles = [d.get("title", "") for d in (scenario.get("apps", {}).get("docs") or {}).get("documents", []) or []]
    for text in texts(scenario):
        found += [f"repeated phrase in {text.where}: {p!r}" for p in repeated_phrases(text.text)]
        found += [f"casing in {text.where}: {p!r} inside a sentence" for p in miscased(text.text)]
        found += [f"relative time in {text.where}: {p}" for p in clock_words(text) + yesterdays(text, scenario)]
        found += [f"meeting day in {text.where}: {p}" for p in meeting_days(text, scenario)]
        found += [f"missing row in {text.where}: no document {p!r}" for p in missing_documents(text, titles)]
    found += [f"policy: {p}" for p in share_contradictions(scenario) + forbid_contradictions(scenario)]
    return found
