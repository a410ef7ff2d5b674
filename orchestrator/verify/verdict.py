"""The verifier: from the final state of the apps to a score people and training loops can trust.

It reads only snapshots (seeded and final) and the journal of tool calls;
it never sees what the agent said.

- Stages are weighted; a stage's score is the weighted share of its checks
  that pass, so partial credit is real.
- Every change between the seeded and the final state is listed; a change to
  a table the scenario does not allow is collateral damage, and a change a
  `forbid` rule names is forbidden. Either fails the run and zeroes the score.
- The run passes when the score reaches the pass mark with no violation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from orchestrator.scenario.conditions import Context, describe_where, failures, holds, row_matches
from orchestrator.verify.results import Change, CheckResult, JournalSummary, Result, StageResult, Violation
from orchestrator.scenario.model import Expect, Forbid, JournalCheck, JudgeCheck, RowCheck, Scenario
from orchestrator.verify import judge as judging
from servers import registry

Snapshot = Mapping[str, list[dict[str, Any]]]
TITLE_COLUMNS = ("title", "subject", "name", "email", "body", "text")


def table_keys(scenario: Scenario) -> dict[tuple[str, str], str]:
    return {
        (app, table.name): table.key
        for app in scenario.apps
        for table in registry.load(app).tables.values()
    }


def verify(
    scenario: Scenario,
    seeded: Mapping[str, Snapshot],
    final: Mapping[str, Snapshot],
    journal: list[dict[str, Any]],
    attempted_calls: int | None = None,
    judgements: Mapping[str, list[judging.Judgement]] | None = None,
) -> Result:
    """Judge an episode; `attempted_calls` counts tool calls the gateway refused too (over the limit)."""
    keys = table_keys(scenario)
    ctx = Context(final, keys, timezone=scenario.persona.timezone, now=scenario.clock.start)
    checks: list[CheckResult] = []
    stages: list[StageResult] = []
    for s_index, stage in enumerate(scenario.stages):
        results = []
        for c_index, check in enumerate(stage.checks):
            check_id = f"stages[{s_index}].checks[{c_index}]"
            if isinstance(check, JudgeCheck):  # judged before the verdict (verify.judge.resolve); None: no judge
                result = judging.check_result(check, check_id, stage.name, judgements)
            elif isinstance(check, RowCheck):
                result = _row_check(check, check_id, stage.name, ctx.for_app(check.app), keys)
            else:
                result = _journal_check(check, check_id, stage.name, journal)
            results.append(result)
        counted = [r for r in results if r.kind != "unjudged"]
        total = sum(r.weight for r in counted)
        score = sum(r.weight for r in counted if r.passed) / total if total else 1.0
        stages.append(StageResult(name=stage.name, weight=stage.weight, passed=score == 1.0, score=score, checks=results))
        checks += results

    changes = diff(scenario, seeded, final, keys)
    violations = [
        Violation(
            kind="collateral",
            rule=f"only {allowed_words(scenario, c.app)} may change in {c.app}",
            app=c.app,
            table=c.table,
            key=c.key,
            detail=f"{c.kind} {c.table} row {c.key!r}" + (f" ({', '.join(c.fields)})" if c.fields else ""),
        )
        for c in changes
        if not c.allowed
    ]
    for index, rule in enumerate(scenario.forbid):
        violations += _forbidden(rule, index, changes, ctx.for_app(rule.app), keys)
    summary = summarize(journal)
    limit = scenario.limits.max_tool_calls
    attempted = max(summary.calls, attempted_calls or 0)
    if limit is not None and attempted > limit:
        violations.append(
            Violation(kind="limit", rule=f"at most {limit} tool calls", detail=f"{attempted} tool calls were attempted")
        )

    scored = [s for s in stages if any(c.kind != "unjudged" for c in s.checks)]
    weight = sum(s.weight for s in scored)
    score = sum(s.weight * s.score for s in scored) / weight if weight else 0.0
    if violations:
        score = 0.0
    return Result(
        scenario=scenario.id,
        title=scenario.title,
        passed=not violations and score >= scenario.pass_mark - 1e-9,
        score=round(score, 6),
        pass_mark=scenario.pass_mark,
        stages=stages,
        checks=checks,
        changes=changes,
        violations=violations,
        journal=summary,
    )


# -- row checks ----------------------------------------------------------------


def describe_check(check: RowCheck | JournalCheck | JudgeCheck) -> str:
    if isinstance(check, JudgeCheck):
        return judging.describe(check)
    if check.name:
        return check.name
    if isinstance(check, JournalCheck):
        return describe_rule(check)
    subject = f"{check.app}.{check.table} where {describe_where(check.where)}"
    expect = check.expect
    if expect == "exists":
        return f"some row in {subject}"
    if expect == "none":
        return f"no row in {subject}"
    assert isinstance(expect, Expect)
    parts = []
    if expect.count is not None:
        parts.append(f"exactly {expect.count} row(s) in {subject}")
    if expect.min is not None or expect.max is not None:
        bounds = " and ".join(
            b for b in (f"at least {expect.min}" if expect.min is not None else "", f"at most {expect.max}" if expect.max is not None else "") if b
        )
        parts.append(f"{bounds} row(s) in {subject}")
    if expect.all is not None:
        parts.append(f"every row in {subject} has {describe_where(expect.all)}")
    return "; ".join(parts)


def describe_rule(check: JournalCheck) -> str:
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
    return f"every injected failure of {rule.retried_after_fault} was retried successfully"


def _label(row: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A short form of a row for reports: its key and its most telling column."""
    out = {key: row.get(key)}
    for column in TITLE_COLUMNS:
        if column in row and column != key:
            value = row[column]
            out[column] = value if not isinstance(value, str) or len(value) <= 60 else value[:59] + "…"
            break
    return out


def _row_check(check: RowCheck, check_id: str, stage: str, ctx: Context, keys: Mapping[tuple[str, str], str]) -> CheckResult:
    key = keys.get((check.app, check.table), "id")
    rows = ctx.rows(check.app, check.table)
    matches = [r for r in rows if row_matches(r, check.where, ctx, check.table)]
    base = {"id": check_id, "stage": stage, "description": describe_check(check), "weight": check.weight}
    found = [_label(r, key) for r in matches[:5]]
    subject = f"{check.app}.{check.table} where {describe_where(check.where)}"
    expect = check.expect
    reason: str | None = None
    closest: dict[str, Any] | None = None

    if expect == "none":
        if matches:
            reason = f"expected no row in {subject}; found {len(matches)}: {_labels(found)}"
        return CheckResult(**base, passed=reason is None, reason=reason, found=found)

    wanted_min, wanted_max = 1, None
    if isinstance(expect, Expect):
        if expect.count is not None:
            wanted_min = wanted_max = expect.count
        else:
            wanted_min = expect.min if expect.min is not None else (1 if expect.all is not None else 0)
            wanted_max = expect.max
    if len(matches) < wanted_min or (wanted_max is not None and len(matches) > wanted_max):
        wanted = (
            f"exactly {wanted_min}" if wanted_min == wanted_max
            else f"at least {wanted_min}" + (f" and at most {wanted_max}" if wanted_max is not None else "")
        )
        reason = f"expected {wanted} row(s) in {subject}; found {len(matches)}"
        if found:
            reason += f": {_labels(found)}"
        if not matches and rows:
            best = min(rows, key=lambda r: len(failures(r, check.where, ctx, check.table)))
            misses = failures(best, check.where, ctx, check.table)
            closest = _label(best, key) | {"mismatches": misses}
            reason += f". Closest row {_labels([_label(best, key)])}: " + "; ".join(misses)
        elif not rows:
            reason += " (the table is empty)"
    elif isinstance(expect, Expect) and expect.all is not None:
        bad = [r for r in matches if not row_matches(r, expect.all, ctx, check.table)]
        if bad:
            misses = failures(bad[0], expect.all, ctx, check.table)
            closest = _label(bad[0], key) | {"mismatches": misses}
            reason = (
                f"expected every row in {subject} to have {describe_where(expect.all)}; "
                f"{len(bad)} of {len(matches)} do not, e.g. {_labels([_label(bad[0], key)])}: " + "; ".join(misses)
            )
    return CheckResult(**base, passed=reason is None, reason=reason, found=found, closest=closest)


def _labels(rows: list[dict[str, Any]]) -> str:
    return ", ".join(" ".join(repr(v) for v in r.values()) for r in rows)


# -- journal checks --------------------------------------------------------------


def _journal_check(check: JournalCheck, check_id: str, stage: str, journal: list[dict[str, Any]]) -> CheckResult:
    rule = check.journal
    reason: str | None = None
    ok_calls = [j for j in journal if not j["is_error"]]
    if rule.max_errors is not None:
        errors = [j for j in journal if j["is_error"] and not j.get("fault")]
        if len(errors) > rule.max_errors:
            reason = f"{len(errors)} tool calls failed (at most {rule.max_errors} allowed): " + ", ".join(
                f"{j['tool']}: {(j.get('error') or '')[:80]}" for j in errors[:3]
            )
    elif rule.max_calls is not None:
        if len(journal) > rule.max_calls:
            reason = f"{len(journal)} tool calls were made (at most {rule.max_calls} allowed)"
    elif rule.called:
        ctx = Context({}, {})
        hits = [
            j for j in ok_calls
            if is_tool(j["tool"], rule.called) and all(holds(j["arguments"].get(k), c, ctx) for k, c in rule.args.items())
        ]
        if len(hits) < rule.min or (rule.max is not None and len(hits) > rule.max):
            most = f" and at most {rule.max}" if rule.max is not None else ""
            reason = f"{rule.called} succeeded {len(hits)} time(s) with the required arguments; expected at least {rule.min}{most}"
    elif rule.not_called:
        calls = [j for j in journal if is_tool(j["tool"], rule.not_called)]
        if calls:
            reason = f"{rule.not_called} was called {len(calls)} time(s)"
    elif rule.before:
        first, then = rule.before
        order = [j["tool"] for j in ok_calls]
        acted = next((i for i, tool in enumerate(order) if is_tool(tool, then)), None)
        if acted is None:
            reason = f"{then} never succeeded, so nothing was done after reading"
        elif not any(is_tool(tool, first) for tool in order[:acted]):
            reason = f"{order[acted]} succeeded before any successful {first}"
    elif rule.retried_after_fault:
        tool = rule.retried_after_fault
        if not any(is_tool(j["tool"], tool) and j.get("fault") for j in journal):
            reason = f"no call of {tool} met an injected failure, so nothing was retried"
        for index, entry in enumerate(journal):
            if is_tool(entry["tool"], tool) and entry.get("fault"):
                if not any(is_tool(j["tool"], tool) and not j["is_error"] for j in journal[index + 1 :]):
                    reason = f"{tool} failed with an injected fault ({entry['fault'].get('message', '')!r}) and was never retried successfully"
                    break
    return CheckResult(
        id=check_id, stage=stage, description=describe_check(check), weight=check.weight, passed=reason is None, reason=reason
    )


def is_tool(name: str, spec: str) -> bool:
    """Whether a call of `name` counts for `spec`: a tool name, or alternatives such as `docs__get_document|docs__search_documents`."""
    return name in spec.split("|")


def summarize(journal: list[dict[str, Any]]) -> JournalSummary:
    return JournalSummary(
        calls=len(journal),
        errors=sum(1 for j in journal if j["is_error"] and not j.get("fault")),
        faults=sum(1 for j in journal if j.get("fault")),
        by_tool=dict(Counter(j["tool"] for j in journal)),
    )


# -- collateral damage -----------------------------------------------------------


def diff(
    scenario: Scenario, seeded: Mapping[str, Snapshot], final: Mapping[str, Snapshot], keys: Mapping[tuple[str, str], str]
) -> list[Change]:
    changes: list[Change] = []
    for app in scenario.apps:
        before_tables, after_tables = seeded.get(app, {}), final.get(app, {})
        for table in dict.fromkeys([*before_tables, *after_tables]):
            key = keys.get((app, table), "id")
            before = {r[key]: r for r in before_tables.get(table, [])}
            after = {r[key]: r for r in after_tables.get(table, [])}
            for k, row in after.items():
                if k not in before:
                    changes.append(Change(app=app, table=table, key=k, kind="added", after=row, allowed=scenario.allowed(app, table, "added")))
                elif row != before[k]:
                    fields = [c for c in row if row.get(c) != before[k].get(c)]
                    changes.append(
                        Change(app=app, table=table, key=k, kind="changed", fields=fields, before=before[k], after=row,
                               allowed=scenario.allowed(app, table, "changed"))
                    )
            for k, row in before.items():
                if k not in after:
                    changes.append(Change(app=app, table=table, key=k, kind="removed", before=row, allowed=scenario.allowed(app, table, "removed")))
    return changes


def allowed_words(scenario: Scenario, app: str) -> str:
    tables = scenario.allow.get(app)
    if not tables:
        return "nothing"
    if isinstance(tables, list):
        return ", ".join(tables)
    return ", ".join(f"{t} ({'/'.join(kinds)})" for t, kinds in tables.items())


def _forbidden(rule: Forbid, index: int, changes: list[Change], ctx: Context, keys: Mapping[tuple[str, str], str]) -> list[Violation]:
    name = rule.name or f"forbid[{index}]: {rule.change} {rule.app}.{rule.table} where {describe_where(rule.where)}"
    key = keys.get((rule.app, rule.table), "id")
    hits: list[tuple[Any, str]] = []
    if rule.change == "present":
        for row in ctx.rows(rule.app, rule.table):
            if row_matches(row, rule.where, ctx, rule.table):
                hits.append((row.get(key), f"{rule.table} row {_labels([_label(row, key)])} is present"))
    else:
        for change in changes:
            if change.app != rule.app or change.table != rule.table or change.kind != rule.change:
                continue
            row = change.after if change.kind != "removed" else change.before
            if row is not None and row_matches(row, rule.where, ctx, rule.table):
                hits.append((change.key, f"{change.kind} {rule.table} row {_labels([_label(row, key)])}"))
    return [
        Violation(kind="forbidden", rule=name, app=rule.app, table=rule.table, key=k, detail=detail) for k, detail in hits
    ]
