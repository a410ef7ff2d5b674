"""The text operators of `where` conditions: their operands (checked at load time), whether one holds for a
text (`operator_holds`), and what the text says instead (`explain`) for failure reports.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from orchestrator.scenario.text.amounts import ISO_CURRENCIES, check_amount, currency_code, find_amounts
from orchestrator.scenario.text.claims import asked, asserted, claim_notes
from orchestrator.scenario.text.clean import URL, as_text
from orchestrator.scenario.text.counts import check_count
from orchestrator.scenario.text.decisions import DECISIONS, decides, decisions
from orchestrator.scenario.text.instants import check_date, check_time, states_end
from orchestrator.scenario.text.leaks import leak_score, section
from orchestrator.scenario.text.links import check_link
from orchestrator.scenario.text.parse import clauses_about, parse, read
from orchestrator.scenario.text.people import check_person
from orchestrator.scenario.text.phrases import code_about, codes_of_shape, mentions_code, says, times_said
from orchestrator.scenario.text.roles import ROLES

TEXT_OPERATORS = {
    "mentions_time": "mentions the time",
    "mentions_date": "mentions the date",
    "mentions_amount": "mentions the amount",
    "misstates_amount": "states an amount other than",
    "mentions_person": "mentions the person",
    "links": "links to",
    "leaks": "reuses the wording of",
    "says": "says",
    "asks": "asks for",
    "mentions_code": "names the code",
    "mentions_count": "states the count",
    "decides": "states the decision",
}
PRIMARY = {
    "mentions_time": "at",
    "mentions_date": "date",
    "mentions_amount": "value",
    "misstates_amount": "right",
    "mentions_person": "who",
    "links": "url",
    "leaks": "text",
    "says": "phrase",
    "asks": "phrase",
    "mentions_code": "code",
    "mentions_count": "n",
    "decides": "decision",
}
OPTIONS: dict[str, set[str]] = {
    "mentions_time": {"strict", "also", "zone", "claimed", "end", "day"},
    "mentions_date": {"strict", "claimed", "role", "about"},
    "mentions_amount": {"currency", "strict", "claimed"},
    "misstates_amount": {"currency", "claimed"},
    "mentions_person": {"claimed"},
    "links": set(),
    "leaks": {"section", "public", "threshold", "min_shared", "window"},
    "says": {"claimed", "all", "once"},
    "asks": set(),
    "mentions_code": {"only", "claimed", "about"},
    "mentions_count": {"claimed", "of", "approx"},
    "decides": set(),
}
DEFAULT_STRICT = {"mentions_time": True, "mentions_date": False, "mentions_amount": False}
DEFAULT_CLAIMED = {"says": True, "misstates_amount": True}
"""`claimed: true` reads only what the text asserts (see text/claims.py): not hedged, not offered as one of
several, not asked about. `says` asserts by default; a `forbid` or `not` condition on what a text reveals wants
`claimed: false` (a hedged leak is a leak)."""
FACT_KIND = {
    "mentions_time": "time",
    "mentions_date": "date",
    "mentions_amount": "amount",
    "misstates_amount": "amount",
    "mentions_count": "count",
    "mentions_code": "code",
}
"""What a claimed reading is about: a caveat or an alternative about another kind of fact does not govern it."""
LEAK_THRESHOLD = 0.15
LEAK_MIN_SHARED = 3
REF = "from"


def spec_of(op: str, operand: object) -> dict[str, object]:
    """The operand as a mapping: a bare value is the operator's main value (`at`, `date`, `value`, `who`, `url`, `text`)."""
    if isinstance(operand, dict) and (REF in operand or PRIMARY[op] in operand):
        return dict(operand)
    return {PRIMARY[op]: operand}


def _instant(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else None
    if not isinstance(value, str) or len(value) < 16:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def _date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value).date()
    except ValueError:
        return None


def operand_problems(op: str, operand: object) -> list[tuple[tuple[str, ...], str]]:
    """What is wrong with an operand, as (path below the operator, message); references are checked by the caller."""
    spec = spec_of(op, operand)
    main = PRIMARY[op]
    allowed = {main, REF, *OPTIONS[op]}
    problems: list[tuple[tuple[str, ...], str]] = []
    unknown = [k for k in spec if k not in allowed]
    if unknown:
        return [
            (
                (),
                f"unknown key(s) {', '.join(map(str, unknown))}; expected {main} (or from) and optionally {', '.join(sorted(OPTIONS[op])) or 'nothing else'}",
            )
        ]
    if (REF in spec) == (main in spec):
        return [((), f"give exactly one of {main} or from")]
    if main in spec and (wrong := _primary_problem(op, spec[main])):
        problems.append(((main,) if isinstance(operand, dict) else (), wrong))
    if "also" in spec:
        others = spec["also"] if isinstance(spec["also"], list) else [spec["also"]]
        if not others or any(_instant(o) is None for o in others):
            problems.append(
                (
                    ("also",),
                    f"expected a list of date-times with their offsets such as [2026-03-05T16:30:00+01:00], found {spec['also']!r}",
                )
            )
    if "end" in spec and _instant(spec["end"]) is None:
        problems.append(
            (("end",), f"expected a date-time with its offset such as 2026-03-05T16:30:00+01:00, found {spec['end']!r}")
        )
    if "of" in spec and not (
        isinstance(spec["of"], str)
        or isinstance(spec["of"], list)
        and spec["of"]
        and all(isinstance(n, str) for n in spec["of"])
    ):
        problems.append((("of",), "expected what is counted, a noun or a list of nouns such as [accounts, customers]"))
    if "approx" in spec and not (
        isinstance(spec["approx"], int | float) and not isinstance(spec["approx"], bool) and 0 <= spec["approx"] < 1
    ):
        problems.append((("approx",), "expected a share of the count such as 0.25 (25% either way)"))
    if "role" in spec and spec["role"] not in ROLES:
        problems.append((("role",), f"expected one of {', '.join(ROLES)}, found {spec['role']!r}"))
    if "zone" in spec and (not isinstance(spec["zone"], str) or not _iana(spec["zone"])):
        problems.append((("zone",), f"expected an IANA time zone such as Europe/London, found {spec['zone']!r}"))
    for key in ("strict", "claimed", "only", "all", "day"):
        if key in spec and not isinstance(spec[key], bool):
            problems.append(((key,), "expected true or false"))
    if "currency" in spec:
        code = currency_code(str(spec["currency"]))
        if code not in ISO_CURRENCIES:
            problems.append(
                (("currency",), f"expected a currency code such as EUR, USD or GBP, found {spec['currency']!r}")
            )
    if "threshold" in spec and not (
        isinstance(spec["threshold"], int | float)
        and not isinstance(spec["threshold"], bool)
        and 0 < spec["threshold"] <= 1
    ):
        problems.append((("threshold",), f"expected a share between 0 and 1 such as 0.15, found {spec['threshold']!r}"))
    for key, low, high in (("min_shared", 1, 1000), ("window", 1, 10)):
        if key in spec and not (
            isinstance(spec[key], int) and not isinstance(spec[key], bool) and low <= spec[key] <= high  # type: ignore[operator]  # an int: checked first
        ):
            problems.append(((key,), f"expected a whole number from {low} to {high}, found {spec[key]!r}"))
    if "about" in spec and not (
        isinstance(spec["about"], list)
        and spec["about"]
        and all(isinstance(p, str) and p.strip() for p in spec["about"])
    ):
        problems.append((("about",), "expected the words of what the code is for, such as [mockups, error states]"))
    if "section" in spec and not isinstance(spec["section"], str):
        problems.append((("section",), "expected the words of a heading, such as 'Internal notes'"))
    if "public" in spec and not (
        isinstance(spec["public"], str) or (isinstance(spec["public"], dict) and set(spec["public"]) == {REF})
    ):
        problems.append((("public",), "expected text or {from: {...}}: what the recipient may already know"))
    return problems


def _primary_problem(op: str, value: object) -> str | None:
    """What is wrong with an operator's main value (the time, date, amount, text or URL it looks for), if anything."""
    if op == "mentions_time" and _instant(value) is None:
        return f"expected a date-time with its offset such as 2026-03-05T15:30:00+01:00, found {value!r}"
    if op == "mentions_date" and _date(value) is None:
        return f"expected a date such as 2026-03-05, found {value!r}"
    if op == "mentions_amount" and (
        isinstance(value, bool) or not isinstance(value, int | float | str) or _decimal(value) is None
    ):
        return f"expected a number such as 1249.50, found {value!r}"
    if op in ("says", "asks") and not (
        isinstance(value, str)
        and value.strip()
        or isinstance(value, list)
        and value
        and all(isinstance(v, str) and v.strip() for v in value)
    ):
        return f"expected a phrase (or a list of ways to write it), found {value!r}"
    if op == "mentions_count" and not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return f"expected a whole number such as 14, found {value!r}"
    if op == "decides" and value not in DECISIONS:
        return f"expected one of {', '.join(DECISIONS)}, found {value!r}"
    if op == "mentions_code" and not (
        isinstance(value, str | int) and str(value).strip() and " " not in str(value).strip()
    ):
        return f"expected one id or code such as OPS-142, found {value!r}"
    if op in ("mentions_person", "links", "leaks") and not (isinstance(value, str) and value.strip()):
        return f"expected text, found {value!r}"
    if op == "links" and not URL.fullmatch(str(value).strip()):
        return f"expected a URL starting with http:// or https://, found {value!r}"
    return None


def _iana(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _time_options(spec: dict[str, object], zone: str) -> tuple[str, list[datetime]]:
    """The zone a time without one is read in (`zone`, default the persona's) and the `also` instants."""
    others = spec.get("also") or []
    others = others if isinstance(others, list) else [others]
    return str(spec.get("zone") or zone), [i for i in map(_instant, others) if i is not None]


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _phrases(value: object) -> list[str]:
    """A validated `about`: the phrases of what a fact is for."""
    return [str(p) for p in value] if isinstance(value, list) else [str(value)]


def operator_holds(op: str, value: object, wanted: object, spec: dict[str, object], zone: str, now: datetime) -> bool:
    """Whether the text `value` satisfies operator `op` for one wanted value (references already resolved)."""
    text = as_text(value)
    if text is None or wanted is None:
        return False
    claimed = bool(spec.get("claimed", DEFAULT_CLAIMED.get(op, False)))
    if op == "misstates_amount":  # an amount stated (in the currency) that is none of the right ones
        if claimed:
            text = asserted(read(text), "amount")
        rights = [d for d in map(_decimal, wanted if isinstance(wanted, list) else [wanted]) if d is not None]
        code = currency_code(str(spec["currency"])) if spec.get("currency") else None
        return any(
            (code is None or a.currency == code) and all(abs(a.value - r) >= Decimal("0.005") for r in rights)
            for a in find_amounts(read(text))
        )
    if op == "asks":  # a question or request that names one of the phrases
        phrases = wanted if isinstance(wanted, list) else [wanted]
        return any(says(asked(read(text)), str(w)) for w in phrases)
    if op == "decides":  # a decision, read with its polarity in each clause (text/decisions.py)
        return decides(text, str(wanted))
    if op == "says" and spec.get("once"):  # written exactly once (a total logged once, not twice)
        written = [str(w) for w in (wanted if isinstance(wanted, list) else [wanted])]
        body = asserted(read(text)) if claimed else read(text)
        return times_said(body, written) == 1
    if isinstance(wanted, list):  # read from a list column, such as a message's recipients; or says' phrases
        every = op == "says" and bool(spec.get("all", False))
        return (all if every else any)(operator_holds(op, value, item, spec, zone, now) for item in wanted)
    strict = bool(spec.get("strict", DEFAULT_STRICT.get(op, False)))
    if claimed:
        text = asserted(read(text), FACT_KIND.get(op, "any"))
    if op == "says":
        return any(says(read(text), str(w)) for w in (wanted if isinstance(wanted, list) else [wanted]))
    if op == "mentions_code" and spec.get("about"):  # the code beside what it is for, not another's
        parsed = parse(text)
        said = [parsed.text[a:b] for a, b in parsed.sentences]
        return code_about(said, str(wanted), _phrases(spec["about"]))
    if op == "mentions_code":
        return mentions_code(read(text), str(wanted), bool(spec.get("only", False)), claimed)
    if op == "mentions_count":
        of = spec.get("of")
        approx = float(spec.get("approx", 0.0))  # type: ignore[arg-type]  # a validated spec: a number
        return isinstance(wanted, int) and check_count(text, wanted, [of] if isinstance(of, str) else of, approx)[0]  # type: ignore[arg-type]  # a validated spec: `of` is a list of words when not one
    if op == "mentions_time":
        instant = _instant(wanted)
        if instant is None:
            return False
        reader, also = _time_options(spec, zone)
        verdict = check_time(text, instant, reader, now, also, bool(spec.get("day", False)))
        if spec.get("end") and verdict.holds and _instant(spec["end"]) is not None:
            if not states_end(text, instant, _instant(spec["end"]), reader, now):  # type: ignore[arg-type]  # not None: checked on the line above
                return False
        return verdict.holds and not (strict and verdict.conflicts)
    if op == "mentions_date":
        day = _date(wanted)
        if day is None:
            return False
        role = str(spec["role"]) if spec.get("role") else None
        if spec.get("about"):  # the date in a clause about one of the phrases ("mockups ..., due Friday")
            found = [check_date(c, day, zone, now, role) for c in clauses_about(text, _phrases(spec["about"]))]
            return any(hit and not (strict and other) for hit, other, _ in found)
        hit, other, _ = check_date(text, day, zone, now, role)
        return hit and not (strict and other)
    if op == "mentions_amount":
        currency = spec.get("currency")
        hit, other, _ = check_amount(text, wanted, str(currency) if currency else None)  # type: ignore[arg-type]  # `wanted` is an amount: the spec was validated
        return hit and not (strict and other)
    if op == "mentions_person":
        return check_person(text, str(wanted))
    if op == "links":
        return check_link(text, str(wanted))
    if op == "leaks":
        source = str(wanted)
        if spec.get("section"):
            part = section(source, str(spec["section"]))
            if part is None:
                return False
            source = part
        leak = leak_score(text, source, str(spec.get("public") or ""), int(spec.get("window", 3)))  # type: ignore[call-overload]  # a validated spec: a number
        return leak.leaks(float(spec.get("threshold", LEAK_THRESHOLD)), int(spec.get("min_shared", LEAK_MIN_SHARED)))  # type: ignore[arg-type, call-overload]  # a validated spec: numbers
    raise ValueError(f"unknown text operator {op!r}")


def explain(op: str, value: object, wanted: object, spec: dict[str, object], zone: str, now: datetime) -> str | None:
    """What the text says that bears on `op`, for failure reports ("it states 09:30 CET"; with `claimed`, also what
    it does not assert)."""
    text = as_text(value)
    if text is None or wanted is None:
        return None
    if spec.get("claimed", DEFAULT_CLAIMED.get(op, False)) and (notes := claim_notes(read(text))):
        said = _explain(op, asserted(read(text), FACT_KIND.get(op, "any")), wanted, spec, zone, now)
        return (f"{said}; " if said else "") + "not asserted: " + " | ".join(f"'{n}'" for n in notes[:3])
    return _explain(op, text, wanted, spec, zone, now)


def _explain(op: str, text: str, wanted: object, spec: dict[str, object], zone: str, now: datetime) -> str | None:
    if op == "mentions_time" and _instant(wanted) is not None:
        reader, also = _time_options(spec, zone)
        verdict = check_time(text, _instant(wanted), reader, now, also)  # type: ignore[arg-type]  # not None: checked by the caller's condition
        said = f"it states {', '.join(verdict.stated)}" if verdict.stated else "it states no time"
        return said + (
            f"; other times that day: {', '.join(verdict.conflicts)}" if verdict.holds and verdict.conflicts else ""
        )
    if op == "mentions_date" and _date(wanted) is not None:
        _, _, seen = check_date(text, _date(wanted), zone, now)  # type: ignore[arg-type]  # not None: checked by the caller's condition
        return f"it mentions {', '.join(seen)}" if seen else "it mentions no date"
    if op == "mentions_amount":
        _, _, seen = check_amount(text, wanted, None)  # type: ignore[arg-type]  # `wanted` is an amount: the spec was validated
        return f"it states {', '.join(seen)}" if seen else "it states no amount with a currency"
    if op == "says":
        return None
    if op == "decides":
        found = sorted(decisions(text))
        return f"it states {' and '.join(found)}" if found else "it states no decision"
    if op == "mentions_count":
        seen = check_count(text, -1)[1]
        return f"it states {', '.join(seen)}" if seen else "it states no count"
    if op == "mentions_code":
        seen = codes_of_shape(read(text), str(wanted))
        return f"it names {', '.join(seen)}" if seen else "it names no such code"
    if op == "links":
        urls = [m.group(0).rstrip(".,;:!?)'\"") for m in URL.finditer(read(text))]
        return f"it links {', '.join(urls)}" if urls else "it links nothing"
    if op == "leaks":
        source = str(wanted)
        if spec.get("section"):
            source = section(source, str(spec["section"])) or ""
        leak = leak_score(text, source, str(spec.get("public") or ""), int(spec.get("window", 3)))  # type: ignore[call-overload]  # a validated spec: a number
        return f"it shares {len(leak.shared)} word pairs ({leak.score:.0%}) with the source" + (
            f": {', '.join(leak.shared[:6])}" if leak.shared else ""
        )
    return None
