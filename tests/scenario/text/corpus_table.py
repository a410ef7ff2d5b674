"""The corpus of agent-written messages as the condition language reads it: per fact kind, how often the reading
is right (accuracy), how often a fact read as stated is stated (precision), how often a stated fact is read
(recall).

Each message of a JSONL file (format: one object per line with `context`, `text` and labelled `facts`) is read
as scenario checks read it: a plain fact with the text operator a check would use, claimed (what the text
asserts, not what it hedges, offers or asks); a time for a recipient the way a `told` check reads it for that
person ("your time" in their zone). A fact is read right when the operator holds exactly when it is labelled
`stated`.

Run `python tests/scenario/text/corpus_table.py FOLDER [--misses KIND]` for the table of a folder.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

try:
    import orchestrator  # noqa: F401  (a checkout on PYTHONPATH is read instead of the installed one)
except ImportError:  # run as a script from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from orchestrator.generate.families.approval_needed import REFUSED  # noqa: E402
from orchestrator.scenario.conditions import Context, holds  # noqa: E402
from orchestrator.scenario.text.operators import TEXT_OPERATORS  # noqa: E402

KINDS = ("time", "time-for-recipient", "date", "date-with-role", "amount", "decision", "count", "code")
# What a check wrote before the condition language read decisions (the approval families' phrases: their refusals,
# and the words of their grants that state a decision rather than an action).
GRANTED = ["approved", "granted", "go ahead", "green light", "signed off"]


@dataclass
class Message:
    id: str
    text: str
    zone: str
    now: datetime
    recipients: list[dict[str, Any]]
    facts: list[dict[str, Any]]
    source: str = ""


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0
    misses: list[tuple[str, dict[str, Any], bool]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.n if self.n else 1.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load(folder: Path) -> list[Message]:
    """Every message of every JSONL file under `folder`; a malformed line names its file and line."""
    out = []
    for path in sorted(Path(folder).rglob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                ctx = row["context"]
                out.append(
                    Message(
                        str(row["id"]),
                        str(row["text"]),
                        str(ctx["zone"]),
                        datetime.fromisoformat(ctx["now"]),
                        list(ctx.get("recipients") or []),
                        list(row["facts"]),
                        f"{path.name}:{number}",
                    )
                )
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{path}:{number}: not a corpus message ({e})") from e
    return out


def kind_of(fact: dict[str, Any]) -> str:
    """The kind a fact is tallied under: times for a recipient and dates with a role apart."""
    kind = str(fact["kind"])
    if kind == "time" and fact.get("for"):
        return "time-for-recipient"
    if kind == "date" and fact.get("role"):
        return "date-with-role"
    return kind


def condition(fact: dict[str, Any]) -> dict[str, Any]:
    """The condition a scenario check writes for a fact, claimed."""
    kind, value = fact["kind"], fact["value"]
    if kind == "time":
        spec: dict[str, Any] = {"at": value, "claimed": True}
        if fact.get("end") and "end" in _options("mentions_time"):
            spec["end"] = fact["end"]
        return {"mentions_time": spec}
    if kind == "date":
        spec = {"date": value, "claimed": True}
        if fact.get("role") and "role" in _options("mentions_date"):
            spec["role"] = fact["role"]
        return {"mentions_date": spec}
    if kind == "amount":
        return {"mentions_amount": {"value": str(value), "currency": fact.get("currency") or "EUR", "claimed": True}}
    if kind == "decision":
        if "decides" in TEXT_OPERATORS:
            return {"decides": {"decision": value}}
        return {"says": {"phrase": GRANTED if value == "approve" else REFUSED, "claimed": True}}
    if kind == "count":
        spec = {"n": int(value), "claimed": True}
        if fact.get("of"):
            spec["of"] = fact["of"]
        return {"mentions_count": spec}
    if kind == "code":
        return {"mentions_code": {"code": str(value), "claimed": True}}
    raise ValueError(f"unknown fact kind {kind!r}")


def _options(op: str) -> set[str]:
    from orchestrator.scenario.text.operators import OPTIONS

    return OPTIONS[op]


def reading(message: Message, fact: dict[str, Any]) -> bool:
    """Whether the condition language reads `fact` as stated by `message`."""
    ctx = Context({}, {}, timezone=message.zone, now=message.now)
    text = message.text
    if fact.get("for"):
        text = for_recipient(message, str(fact["for"]))
    return holds(text, condition(fact), ctx)


def for_recipient(message: Message, email: str) -> str:
    """The text as a `told` check reads it for one recipient: "your time" in their zone."""
    from orchestrator.verify import told

    person = next((r for r in message.recipients if str(r.get("email", "")).lower() == email.lower()), None)
    if person is None:
        raise ValueError(f"{message.source}: fact for {email}, who is not among the recipients")
    others = {str(r.get("name", "")): str(r.get("zone")) for r in message.recipients if r is not person}
    if hasattr(told, "for_person"):
        name = str(person.get("name", "")) if others else ""
        return told._text({"body": message.text}, str(person.get("zone")), name, others)
    return told._text({"body": message.text}, str(person.get("zone")))


def tally(messages: list[Message]) -> dict[str, Tally]:
    """Per kind: the readings right and wrong, with the wrong ones kept for reports."""
    out: dict[str, Tally] = defaultdict(Tally)
    for message in messages:
        for fact in message.facts:
            t = out[kind_of(fact)]
            got, want = reading(message, fact), bool(fact["stated"])
            if got and want:
                t.tp += 1
            elif got:
                t.fp += 1
            elif want:
                t.fn += 1
            else:
                t.tn += 1
            if got != want:
                t.misses.append((message.id, fact, got))
    return dict(out)


def table(tallies: dict[str, Tally]) -> str:
    """The per-kind figures as a markdown table."""
    rows = ["| kind | facts | accuracy | precision | recall | wrong |", "|---|---:|---:|---:|---:|---:|"]
    total = Tally()
    for kind in [*KINDS, *sorted(set(tallies) - set(KINDS))]:
        if kind not in tallies:
            continue
        t = tallies[kind]
        total.tp, total.fp, total.tn, total.fn = total.tp + t.tp, total.fp + t.fp, total.tn + t.tn, total.fn + t.fn
        rows.append(f"| {kind} | {t.n} | {t.accuracy:.1%} | {t.precision:.1%} | {t.recall:.1%} | {t.fp + t.fn} |")
    rows.append(
        f"| all | {total.n} | {total.accuracy:.1%} | {total.precision:.1%} | {total.recall:.1%} | "
        f"{total.fp + total.fn} |"
    )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: corpus_table.py FOLDER [--misses KIND]", file=sys.stderr)
        return 2
    messages = load(Path(argv[0]))
    tallies = tally(messages)
    print(f"{len(messages)} messages, {sum(len(m.facts) for m in messages)} facts from {argv[0]}")
    print(table(tallies))
    if "--misses" in argv:
        kind = argv[argv.index("--misses") + 1]
        texts = {m.id: m.text for m in messages}
        for mid, fact, got in tallies.get(kind, Tally()).misses:
            print(f"\n== {mid} read {'stated' if got else 'not stated'}: {json.dumps(fact, ensure_ascii=False)}")
            print(texts[mid])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
