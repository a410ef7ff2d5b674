"""Process checks: how the agent worked, judged by intent rather than by one tool name.

- `read_first: T` — every successful call of T (alternatives `a|b`) came after
  reads that returned each seeded entity it acted on (the message it replied
  to, the ticket it commented on, the draft's original…), by any read-only
  tool; with `entity: {app, table, where}`, those rows instead.
- `retried_after_fault: T` — every call of T that met an injected fault was
  followed by a successful call of the same tool with equivalent arguments
  (every argument both give has the same value, ignoring case and spacing;
  free text may be reworded; details added on the retry do not matter). A
  mail that failed may be sent again by another mail tool (a failed reply
  resent as a new mail) to the same people.
- `before: [A, B]` — some A succeeded before the first successful B.
- `no_duplicate_after_lost_reply: T` — no call of T (`*`: any tool) whose reply
  was lost (a `lost_reply` fault: committed, answered with an error) was
  redone: no later call added a row equal to one the lost call had added
  (same values once generated ids and timestamps are set aside; free text
  counts as equal when it mostly shares its words).
- `waited_for_rate_limit: T` — every `rate_limit` fault on T (`*`: any) was
  followed by a successful call of the same tool with equivalent arguments,
  and no call the limit covered came before the time the fault named.
  As scenario checks both fail when no such fault was met (nothing shows a
  recovery); under a noise profile (`judge_recovery`) they then hold. A
  `retried_after_fault` check holds when no call of T met a failure: the path
  the agent chose never met it (a new mail where the reference replies), and
  the outcome decides.
- `called`, `not_called`, `max_errors`, `max_calls` — counts over the journal.

Process checks are scored apart from the outcome (`Result.process`); a check
with `required: true` counts toward the outcome too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from orchestrator.scenario.checks import JournalCheck
from orchestrator.scenario.conditions import Context, describe_where, holds, row_matches
from orchestrator.verify.facts import Facts, is_read
from orchestrator.verify.results import JournalSummary

FREE_TEXT = 40


def is_tool(name: str, spec: str) -> bool:
    """Whether a call of `name` counts for `spec`: a tool name, or alternatives such as `docs__get_document|docs__search_documents`."""
    return name in spec.split("|")


def describe_rule(check: JournalCheck) -> str:
    """A journal check's rule in words, e.g. 'at most 3 failed tool call(s)'."""
    rule = check.journal
    if rule.max_errors is not None:
        return f"at most {rule.max_errors} failed tool call(s)"
    if rule.max_calls is not None:
        return f"at most {rule.max_calls} tool call(s)"
    if rule.called:
        args = f" with {describe_where(rule.args)}" if rule.args else ""
        most = f" and at most {rule.max}" if rule.max is not None else ""
        return f"{rule.called} succeeded at least {rule.min} time(s){most}{args}"
    if rule.not_called:
        return f"{rule.not_called} was never called"
    if rule.before:
        return f"{rule.before[0]} succeeded before {rule.before[1]}"
    if rule.read_first:
        what = (
            f"{rule.entity.app}.{rule.entity.table} where {describe_where(rule.entity.where)}"
            if rule.entity
            else "every seeded item it acted on"
        )
        return f"{what} was read before {rule.read_first}"
    if rule.no_duplicate_after_lost_reply:
        return f"no call of {_which(rule.no_duplicate_after_lost_reply)} whose reply was lost was redone (no duplicate side effect)"
    if rule.waited_for_rate_limit:
        return f"every rate-limited call of {_which(rule.waited_for_rate_limit)} was retried after the time given, not before"
    return f"every injected failure of {rule.retried_after_fault} was retried with the same arguments"


def _which(spec: str) -> str:
    return "any tool" if spec == "*" else spec


def _covers(spec: str, tool: str) -> bool:
    return spec == "*" or is_tool(tool, spec)


def journal_check(check: JournalCheck, journal: list[dict[str, Any]], facts: Facts, seeded_ctx: Context) -> str | None:
    """Why the rule fails, or None when it holds."""
    rule = check.journal
    ok_calls = [j for j in journal if not j["is_error"]]
    if rule.max_errors is not None:
        errors = [j for j in journal if j["is_error"] and not j.get("fault")]
        if len(errors) > rule.max_errors:
            return f"{len(errors)} tool calls failed (at most {rule.max_errors} allowed): " + ", ".join(
                f"{j['tool']}: {(j.get('error') or '')[:80]}" for j in errors[:3]
            )
        return None
    if rule.max_calls is not None:
        if len(journal) > rule.max_calls:
            return f"{len(journal)} tool calls were made (at most {rule.max_calls} allowed)"
        return None
    if rule.called:
        ctx = Context({}, {})
        hits = [
            j
            for j in ok_calls
            if is_tool(j["tool"], rule.called)
            and all(holds((j["arguments"] or {}).get(k), c, ctx) for k, c in rule.args.items())
        ]
        if len(hits) < rule.min or (rule.max is not None and len(hits) > rule.max):
            most = f" and at most {rule.max}" if rule.max is not None else ""
            return f"{rule.called} succeeded {len(hits)} time(s) with the required arguments; expected at least {rule.min}{most}"
        return None
    if rule.not_called:
        calls = [j for j in journal if is_tool(j["tool"], rule.not_called)]
        return f"{rule.not_called} was called {len(calls)} time(s)" if calls else None
    if rule.before:
        first, then = rule.before
        order = [j["tool"] for j in ok_calls]
        acted = next((i for i, tool in enumerate(order) if is_tool(tool, then)), None)
        if acted is None:
            return f"{then} never succeeded, so nothing was done after reading"
        if not any(is_tool(tool, first) for tool in order[:acted]):
            return f"{order[acted]} succeeded before any successful {first}"
        return None
    if rule.read_first:
        return _read_first(check, journal, facts, seeded_ctx)
    if rule.no_duplicate_after_lost_reply:
        return duplicate_after_lost_reply(rule.no_duplicate_after_lost_reply, journal, vacuous=False)
    if rule.waited_for_rate_limit:
        return hammered_rate_limit(rule.waited_for_rate_limit, journal, vacuous=False)
    return _retried(rule.retried_after_fault or "", journal, seeded_ctx.rows("mail", "messages"))


GENERATED = {"id", "key", "number", "thread_id", "seq"}
"""Columns the app fills in itself: a redone change differs in them and is still the same change."""


def _same_row(a: Mapping[str, Any], b: Mapping[str, Any], key: str | None) -> bool:
    """Whether two added rows are the same change made twice: generated columns and columns one of them leaves
    empty (a reply's `in_reply_to`, say) aside; text of several words equal when it mostly shares its words (a
    resend as a new mail says 'Offsite venue' where the reply said 'Re: Offsite venue address?')."""
    for name in set(a) & set(b):
        if name == key or name in GENERATED or name.endswith(("_at", "_id")):
            continue
        x, y = _norm(a[name]), _norm(b[name])
        if x in (None, "", [], {}) or y in (None, "", [], {}):
            continue
        if isinstance(x, str) and isinstance(y, str) and (" " in x or " " in y):
            if _overlap(x, y) < 0.5:
                return False
        elif isinstance(x, list) and isinstance(y, list):
            if sorted(map(repr, x)) != sorted(map(repr, y)):
                return False
        elif x != y:
            return False
    return True


def _overlap(x: str, y: str) -> float:
    a, b = set(x.split()), set(y.split())
    return len(a & b) / len(a | b) if a | b else 1.0


def _fault_kind(entry: Mapping[str, Any]) -> str | None:
    fault = entry.get("fault")
    return fault.get("kind", "error") if isinstance(fault, Mapping) else None


def duplicate_after_lost_reply(spec: str, journal: list[dict[str, Any]], *, vacuous: bool = True) -> str | None:
    """Why a lost reply was redone into a duplicate side effect, or None. Without `vacuous`, a run where no
    reply was lost fails too (a scenario's own check: nothing shows the agent recovered)."""
    lost = [i for i, j in enumerate(journal) if _fault_kind(j) == "lost_reply" and _covers(spec, j["tool"])]
    if not lost and not vacuous:
        return f"no call of {_which(spec)} met a lost reply, so nothing shows a recovery"
    for index, entry in enumerate(journal):
        if index not in lost:
            continue
        added = [
            (c["table"], c["after"]) for c in entry.get("changes") or [] if c.get("op") == "insert" and c.get("after")
        ]
        for later in journal[index + 1 :]:
            if later["is_error"] or later.get("app") != entry.get("app"):
                continue
            for change in later.get("changes") or []:
                if change.get("op") != "insert" or not change.get("after"):
                    continue
                for table, row in added:
                    if change["table"] == table and _same_row(row, change["after"], None):
                        return (
                            f"{entry['tool']} (call {entry.get('seq')}) was committed although its reply was lost, and "
                            f"{later['tool']} (call {later.get('seq')}) added the same {table} row again {change.get('key')!r}: "
                            "a duplicate side effect"
                        )
    return None


def hammered_rate_limit(spec: str, journal: list[dict[str, Any]], *, vacuous: bool = True) -> str | None:
    """Why a rate limit was not waited out (or never retried), or None. Without `vacuous`, a run where no call
    was rate-limited fails too."""
    if not vacuous and not any(_fault_kind(j) == "rate_limit" and _covers(spec, j["tool"]) for j in journal):
        return f"no call of {_which(spec)} was rate-limited, so nothing shows the limit was waited out"
    for index, entry in enumerate(journal):
        if _fault_kind(entry) != "rate_limit" or not _covers(spec, entry["tool"]):
            continue
        fault = entry["fault"]
        if fault.get("repeat"):
            return (
                f"{entry['tool']} (call {entry.get('seq')}) was called {fault.get('retry_after_s')} s before the time the "
                f"rate limit named ({fault.get('until')}): the limit was hammered, not waited out"
            )
        if not any(
            j["tool"] == entry["tool"]
            and not j["is_error"]
            and equivalent(entry.get("arguments") or {}, j.get("arguments") or {})
            for j in journal[index + 1 :]
        ):
            return f"{entry['tool']} (call {entry.get('seq')}) was rate-limited and never retried successfully with the same arguments"
    return None


def _read_first(check: JournalCheck, journal: list[dict[str, Any]], facts: Facts, seeded_ctx: Context) -> str | None:
    rule = check.journal
    spec = rule.read_first or ""
    calls = [i for i, j in enumerate(journal) if not j["is_error"] and is_tool(j["tool"], spec)]
    if not calls:
        return f"{spec} never succeeded, so nothing was done after reading"
    wanted_fixed: set[tuple[str, str, Any]] | None = None
    if rule.entity is not None:
        e = rule.entity
        key = facts.keys.get((e.app, e.table), "id")
        app_ctx = seeded_ctx.for_app(e.app)
        pool = seeded_ctx.candidates(e.app, e.table, e.where)  # the rows its where's equalities leave, or None
        wanted_fixed = {
            (e.app, e.table, r[key])
            for r in (seeded_ctx.rows(e.app, e.table) if pool is None else pool)
            if row_matches(r, e.where, app_ctx, e.table)
        }
        if not wanted_fixed:
            return f"no seeded {e.app}.{e.table} row matches {describe_where(e.where)}"
    for index in calls:
        wanted = wanted_fixed if wanted_fixed is not None else facts.acted_on(index)
        seen: set[tuple[str, str, Any]] = set()
        for earlier in range(index):
            if not journal[earlier]["is_error"] and is_read(journal[earlier]["tool"]):
                seen |= facts.returned.get(earlier, set())
        missing = sorted((f"{t} {k!r}" for (_, t, k) in wanted - seen), key=str)
        if missing:
            entry = journal[index]
            return f"{entry['tool']} (call {entry.get('seq')}) acted on {', '.join(missing[:3])} before any read returned it"
    return None


MAIL_SENDS = frozenset({"mail__send_message", "mail__reply", "mail__forward"})
"""Tools that deliver a mail: one that failed may be sent again by another (a failed reply as a new mail)."""


def _retried(tool: str, journal: list[dict[str, Any]], seeded_messages: list[dict[str, Any]]) -> str | None:
    # Failures only: a lost reply was committed (journaled as a success), latency and stale reads answered. A
    # path that never met the fault (a new mail where the reference replies) holds: the outcome decides.
    faulted = [i for i, j in enumerate(journal) if is_tool(j["tool"], tool) and j.get("fault") and j["is_error"]]
    messages = {m.get("id"): m for m in seeded_messages} | {
        c["key"]: c["after"]
        for j in journal
        for c in j.get("changes") or []
        if c.get("table") == "messages" and c.get("op") == "insert" and c.get("after")
    }
    for index in faulted:
        entry = journal[index]
        if not any(
            not j["is_error"]
            and (
                j["tool"] == entry["tool"]
                and equivalent(entry.get("arguments") or {}, j.get("arguments") or {})
                or _same_mail(entry, j, messages)
            )
            for j in journal[index + 1 :]
        ):
            message = (entry.get("fault") or {}).get("message", "")
            return f"{entry['tool']} failed with an injected fault ({message!r}) and was never retried successfully with the same arguments"
    return None


def _same_mail(failed: Mapping[str, Any], later: Mapping[str, Any], messages: Mapping[Any, Any]) -> bool:
    """Whether `later` sends the mail `failed` did not, by another mail tool: to every person it was for."""
    if failed["tool"] not in MAIL_SENDS or later["tool"] not in MAIL_SENDS or failed["tool"] == later["tool"]:
        return False
    wanted, sent = _mail_recipients(failed, messages), _mail_recipients(later, messages)
    return bool(wanted) and wanted <= sent


def _mail_recipients(entry: Mapping[str, Any], messages: Mapping[Any, Any]) -> set[str]:
    """Who a mail call sends to: the recipients of the message it added, else its arguments' (a reply's: the
    sender of the message it answers, and with reply_all its recipients too)."""
    for change in entry.get("changes") or []:
        if change.get("table") == "messages" and change.get("op") == "insert" and change.get("after"):
            return _addresses(change["after"], ("to", "cc", "bcc"))
    args = entry.get("arguments") or {}
    people = _addresses(args, ("to", "cc", "bcc"))
    original = messages.get(args.get("message_id")) if entry["tool"] == "mail__reply" else None
    if original is not None:
        people |= _addresses(original, ("from", "to", "cc") if args.get("reply_all") else ("from",))
    return people


def _addresses(row: Mapping[str, Any], fields: tuple[str, ...]) -> set[str]:
    found: set[str] = set()
    for name in fields:
        value = row.get(name)
        for address in [value] if isinstance(value, str) else value or []:
            if isinstance(address, str) and address.strip():
                found.add(address.strip().casefold())
    return found


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _norm(v) for k, v in value.items() if v not in (None, "", [], {})}
    return value


WORDING = frozenset({"title", "subject", "body", "description", "content", "summary"})
"""Arguments that are wording whatever their length (a short title reworded on a retry is the same ticket)."""


def _free_text(value: Any) -> bool:
    return isinstance(value, str) and (len(value) > FREE_TEXT or "\n" in value)


def equivalent(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Arguments that ask for the same thing: every argument both calls give has the same value once case
    and spacing are ignored, except free text (a title, a body, a description), which may be reworded; an
    argument only one of them gives (a detail added on the retry) does not matter."""
    a, b = _norm(a), _norm(b)
    for name in set(a) & set(b):
        x, y = a[name], b[name]
        if name in WORDING or _free_text(x) or _free_text(y):
            continue
        if isinstance(x, list) and isinstance(y, list):
            if sorted(map(repr, x)) != sorted(map(repr, y)):
                return False
        elif x != y:
            return False
    return True


def summarize(journal: list[dict[str, Any]]) -> JournalSummary:
    """Counts of the journal: calls, failed calls (injected faults apart), faults and calls by tool."""
    return JournalSummary(
        calls=len(journal),
        errors=sum(1 for j in journal if j["is_error"] and not j.get("fault")),
        faults=sum(1 for j in journal if j.get("fault")),
        by_tool=dict(Counter(j["tool"] for j in journal)),
    )


RECOVERY_STAGE = "recovery from injected faults"


def judge_recovery(result: Any, journal: list[dict[str, Any]]) -> None:
    """Judge how a run under a noise profile recovered from its injected faults, in place on its `Result`.

    Both recovery rules are reported as process checks of the stage `RECOVERY_STAGE` (in `checks`, beside the
    outcome). A lost reply that was redone is a duplicate side effect the world sees (a second mail to a customer):
    it is also a violation, so the run fails and scores 0, as harm does."""
    from orchestrator.verify.results import CheckResult, Violation

    added = []
    for index, (rule, reason) in enumerate(
        (
            ("no_duplicate_after_lost_reply", duplicate_after_lost_reply("*", journal)),
            ("waited_for_rate_limit", hammered_rate_limit("*", journal)),
        )
    ):
        description = describe_rule(JournalCheck(journal={rule: "*"}))
        added.append(
            CheckResult(
                id=f"recovery[{index}]",
                stage=RECOVERY_STAGE,
                description=description,
                passed=reason is None,
                weight=1.0,
                reason=reason,
                kind="process",
            )
        )
        if rule == "no_duplicate_after_lost_reply" and reason is not None:
            result.violations.append(Violation(kind="forbidden", rule=description, detail=reason))
            result.score = 0.0
            result.passed = False
    weights = [(c.weight, c.passed) for c in result.checks if c.kind == "process" or c.id.startswith("recovery[")]
    result.checks += added
    weights += [(c.weight, c.passed) for c in added]
    result.process = round(sum(w for w, ok in weights if ok) / sum(w for w, _ in weights), 6)


def injected_faults(journal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every injected fault with the call it hit, for `results.json`."""
    out = []
    for entry in journal:
        fault = entry.get("fault")
        if not isinstance(fault, Mapping):
            continue
        record = {
            "app": entry.get("app"),
            "seq": entry.get("seq"),
            "tool": entry.get("tool"),
            "clock": entry.get("clock"),
            "kind": fault.get("kind", "error"),
            "arguments": entry.get("arguments"),
        }
        wanted = {
            "rate_limit": ("retry_after_s", "until", "repeat"),
            "unavailable": ("retry_after_s", "until", "repeat"),
            "latency": ("latency_ms",),
            "timeout": ("latency_ms",),
            "stale_read": ("delay_s", "hidden_changes"),
        }
        for key in ("message", *wanted.get(record["kind"], ())):
            if fault.get(key) is not None:
                record[key] = fault[key]
        out.append(record)
    return out
