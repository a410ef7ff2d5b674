"""Mail data as tools return it, email addresses, and the search query language."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from pydantic import ConfigDict, Field

from servers.core import Sandbox, ToolModel
from servers.core.clock import isoformat, zone

FolderName = Literal["inbox", "sent", "drafts", "archive", "trash", "spam"]
SYSTEM_FOLDERS: tuple[str, ...] = ("inbox", "sent", "drafts", "archive", "trash", "spam")
HIDDEN_FOLDERS = ("trash", "spam")
"""Left out of searches unless the query asks for them with in:trash, in:spam or in:anywhere."""


class Attachment(ToolModel):
    """A file attached to a message: its name and text content."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=255, description="File name, e.g. 'invoice-0042.pdf'.")
    content: str = Field("", max_length=200_000, description="The file's text content.")


class Message(ToolModel):
    """A message row as get_message returns it: sender, recipients, subject, body, labels and attachments."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=True)

    id: str
    thread_id: str
    folder: FolderName
    labels: list[str] = Field(description="Your labels on this message.")
    from_: str = Field(alias="from", description="Sender's email address.")
    from_name: str = Field(description="Sender's display name ('' when unknown).")
    to: list[str]
    cc: list[str]
    bcc: list[str] = Field(description="Blind copies; only known for mail you wrote.")
    subject: str
    body: str
    sent_at: str = Field(description="ISO 8601 time it was sent or received; for a draft, when it was last saved.")
    is_read: bool
    is_starred: bool
    attachments: list[Attachment]
    in_reply_to: str | None = Field(description="Id of the message this one replies to.")
    forwarded_from: str | None = Field(description="Id of the message this one forwards.")


class MessageSummary(ToolModel):
    """A message as lists show it: sender, subject, a snippet of the body and attachment names."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=True)

    id: str
    thread_id: str
    folder: FolderName
    labels: list[str]
    from_: str = Field(alias="from")
    from_name: str
    to: list[str]
    cc: list[str]
    subject: str
    snippet: str = Field(description="The start of the body; use get_message for all of it.")
    sent_at: str
    is_read: bool
    is_starred: bool
    attachment_names: list[str]


def stamp(sb: Sandbox) -> str:
    """The sandbox's current time in the user's zone: how the mailbox writes timestamps."""
    return isoformat(sb.now().astimezone(zone(sb.persona.timezone)))


def message_model(row: dict[str, Any]) -> Message:
    """A messages row as the `Message` tools return."""
    return Message.model_validate(row)


def summary_model(row: dict[str, Any]) -> MessageSummary:
    """A messages row as the `MessageSummary` lists show."""
    return MessageSummary.model_validate(
        {**row, "snippet": snippet(row["body"]), "attachment_names": [a["name"] for a in row["attachments"]]}
    )


def snippet(body: str, length: int = 160) -> str:
    """The start of a body on one line, cut at `length` characters with an ellipsis."""
    text = " ".join(body.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


# -- addresses -------------------------------------------------------------------

EMAIL = re.compile(r"^[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:.]+$")
NAMED = re.compile(r"^(?P<name>[^<>]*)<(?P<email>[^<>]+)>$")


def parse_address(text: str) -> tuple[str, str]:
    """`'Priya Shah <Priya@Acme.test>'` or `'priya@acme.test'` as (name, lowercase email); ValueError otherwise."""
    text = text.strip()
    named = NAMED.match(text)
    name, email = (named["name"].strip().strip('"').strip(), named["email"].strip()) if named else ("", text)
    if not EMAIL.match(email):
        raise ValueError(f"{text!r} is not an email address")
    return name, email.lower()


# -- labels ----------------------------------------------------------------------


def check_label_name(name: str) -> str:
    """A label name as stored, or ValueError saying why it cannot be one."""
    name = " ".join(name.split())
    if not name:
        raise ValueError("a label name cannot be blank")
    if len(name) > 60:
        raise ValueError("a label name can be at most 60 characters")
    if name.lower() in SYSTEM_FOLDERS or name.lower() in ("anywhere", "all"):
        raise ValueError(f"{name!r} is a system folder name; choose another label name")
    return name


def find_label(labels: list[str], name: str) -> str | None:
    """The label among `labels` that `name` means, ignoring case (and '-' for ' ', as in label:q1-reports)."""
    wanted = " ".join(name.split()).lower()
    return next((label for label in labels if wanted in (label.lower(), label.lower().replace(" ", "-"))), None)


# -- search -------------------------------------------------------------------------

EXAMPLES = {
    "from": "from:priya",
    "to": "to:sam@acme.test",
    "cc": "cc:sam",
    "bcc": "bcc:sam",
    "subject": 'subject:"q1 budget"',
    "is": "is:unread",
    "has": "has:attachment",
    "in": "in:inbox",
    "label": "label:receipts",
    "filename": "filename:pdf",
    "after": "after:2026-03-01",
    "before": "before:2026-03-01",
    "newer_than": "newer_than:7d",
    "older_than": "older_than:1y",
}
OPERATORS = tuple(EXAMPLES)
IS_VALUES = ("unread", "read", "starred")
TOKEN = re.compile(r'(?P<neg>-)?(?:(?P<op>[A-Za-z_]+):)?(?:"(?P<quoted>[^"]*)"|(?P<word>[^\s"]+))')
DAY = re.compile(r"^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$")
AGE = re.compile(r"^(\d+)([dwmy])$")
AGE_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}
MAX_AGE_DAYS = 100 * 365
"""Longest age newer_than: and older_than: accept (100 years)."""
FIRST_YEAR, LAST_YEAR = 1900, 2199
"""Years after: and before: accept."""


@dataclass(frozen=True)
class SearchContext:
    """What a query needs besides the messages: the user's labels, known names, time zone and the current time."""

    labels: list[str]
    names: dict[str, str]
    timezone: str
    now: datetime


@dataclass(frozen=True)
class Term:
    """One term of a search query: free text or `op:value`, possibly negated."""

    negate: bool
    op: str  # '' for free text
    value: str


Test = Callable[[dict[str, Any]], bool]


def sent_time(row: dict[str, Any]) -> datetime:
    """When a messages row was sent, as a datetime."""
    return datetime.fromisoformat(row["sent_at"])


def _tokenize(query: str) -> list[Term | str]:
    """The query's terms in order, with the word OR kept as the string 'OR'."""
    if query.count('"') % 2:
        raise ValueError('the query has an unclosed quote (")')
    out: list[Term | str] = []
    pos = 0
    while pos < len(query):
        if query[pos].isspace():
            pos += 1
            continue
        m = TOKEN.match(query, pos)
        assert m is not None  # every non-space position starts a word or a quoted phrase
        pos = m.end()
        op, quoted, word = (m["op"] or "").lower(), m["quoted"], m["word"]
        value = quoted if quoted is not None else word
        if not op and quoted is None and word == "OR" and not m["neg"]:
            out.append("OR")
            continue
        if not op and word and word.endswith(":") and word[:-1].lower() in OPERATORS:
            raise ValueError(f"{word} needs a value right after the colon, e.g. {EXAMPLES[word[:-1].lower()]}")
        if op and op not in OPERATORS:
            raise ValueError(
                f"unknown search operator '{op}:'. Operators: {', '.join(o + ':' for o in OPERATORS)}. "
                f'To search for the text itself, put it in quotes: "{op}:{value}"'
            )
        out.append(Term(negate=bool(m["neg"]), op=op, value=value))
    return out


def compile_query(query: str, ctx: SearchContext) -> Test:
    """A test for one message row: every term must match (a OR b matches either), case-insensitively."""
    groups: list[list[tuple[Term, Test, bool]]] = []
    join_next = False
    for token in _tokenize(query):
        if token == "OR":
            if not groups or join_next:
                raise ValueError("OR needs a search term on each side, e.g. from:priya OR from:sam")
            join_next = True
            continue
        assert isinstance(token, Term)
        test, reaches_hidden = _term(token, ctx)
        entry = (token, test, reaches_hidden and not token.negate)
        if join_next:
            groups[-1].append(entry)
        else:
            groups.append([entry])
        join_next = False
    if join_next:
        raise ValueError("OR needs a search term on each side, e.g. from:priya OR from:sam")

    tests = [_any_of(group) for group in groups]
    if not any(hidden for group in groups for _, _, hidden in group):
        tests.append(lambda row: row["folder"] not in HIDDEN_FOLDERS)
    return lambda row: all(test(row) for test in tests)


def _any_of(group: list[tuple[Term, Test, bool]]) -> Test:
    def test(row: dict[str, Any]) -> bool:
        return any(t(row) != term.negate for term, t, _ in group)

    return test


def _term(term: Term, ctx: SearchContext) -> tuple[Test, bool]:
    """The term's test, and whether it reaches into trash or spam."""
    op, value = term.op, term.value
    needle = value.lower().strip()
    if not needle:
        raise ValueError(f"{op}: needs a value" if op else 'empty quotes ("") match nothing; remove them')
    if op == "":
        return (lambda row: needle in _text(row, ctx)), False
    if op == "from":
        return (lambda row: needle in row["from"] or needle in row["from_name"].lower()), False
    if op in ("to", "cc", "bcc"):
        fields = ("to", "cc", "bcc") if op == "to" else (op,)
        return (lambda row: any(_address_matches(e, needle, ctx) for f in fields for e in row[f])), False
    if op == "subject":
        return (lambda row: needle in row["subject"].lower()), False
    if op == "filename":
        return (lambda row: any(needle in a["name"].lower() for a in row["attachments"])), False
    if op == "is":
        return _is(needle), False
    if op == "has":
        if needle not in ("attachment", "attachments"):
            raise ValueError(f"has:{value} is not supported; use has:attachment")
        return (lambda row: bool(row["attachments"])), False
    if op in ("in", "label"):
        return _place(op, needle, ctx)
    if op in ("after", "before"):
        start = datetime.combine(_day(op, value), time(0), zone(ctx.timezone))
        if op == "after":
            return (lambda row: sent_time(row) >= start), False
        return (lambda row: sent_time(row) < start), False
    # newer_than / older_than
    age = AGE.match(needle)
    if not age:
        raise ValueError(f"{op}: needs an age such as 3d, 2w, 6m or 1y (days, weeks, months, years), got {value!r}")
    days = int(age[1][:12]) * AGE_DAYS[age[2]] if len(age[1]) <= 12 else MAX_AGE_DAYS + 1
    if days > MAX_AGE_DAYS:
        raise ValueError(f"{op}: accepts ages up to 100 years (e.g. 100y or 36500d), got {value[:20]!r}")
    cutoff = ctx.now - timedelta(days=days)
    if op == "newer_than":
        return (lambda row: sent_time(row) >= cutoff), False
    return (lambda row: sent_time(row) < cutoff), False


def _is(needle: str) -> Test:
    if needle == "read":
        return lambda row: row["is_read"]
    if needle == "unread":
        return lambda row: not row["is_read"]
    if needle == "starred":
        return lambda row: row["is_starred"]
    raise ValueError(f"is:{needle} is not supported; use {', '.join('is:' + v for v in IS_VALUES)}")


def _place(op: str, needle: str, ctx: SearchContext) -> tuple[Test, bool]:
    if op == "in" and needle in ("anywhere", "all"):
        return (lambda row: True), True
    if needle in SYSTEM_FOLDERS:
        return (lambda row: row["folder"] == needle), needle in HIDDEN_FOLDERS
    label = find_label(ctx.labels, needle)
    if label is None:
        labels = ", ".join(ctx.labels) or "none yet"
        raise ValueError(
            f"{op}:{needle} names no folder or label. Folders: {', '.join(SYSTEM_FOLDERS)} (or in:anywhere); "
            f"your labels: {labels}"
        )
    return (lambda row: label in row["labels"]), False


def _day(op: str, value: str) -> date:
    m = DAY.match(value.strip())
    try:
        if not m:
            raise ValueError
        day = date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise ValueError(f"{op}: needs a date as YYYY-MM-DD (or YYYY/MM/DD), got {value[:40]!r}") from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise ValueError(f"{op}: needs a year between {FIRST_YEAR} and {LAST_YEAR}, got {value[:40]!r}")
    return day


def _address_matches(email: str, needle: str, ctx: SearchContext) -> bool:
    return needle in email or needle in ctx.names.get(email, "").lower()


def _text(row: dict[str, Any], ctx: SearchContext) -> str:
    """Everything free text is matched against: subject, body, people, attachment names and contents."""
    people = [row["from"], row["from_name"]]
    for email in row["to"] + row["cc"] + row["bcc"]:
        people += [email, ctx.names.get(email, "")]
    files = [f"{a['name']} {a['content']}" for a in row["attachments"]]
    return "\n".join([row["subject"], row["body"], *people, *files]).lower()
