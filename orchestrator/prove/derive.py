"""Trajectories derived from a reference solution: generic attacks that must fail and equivalent rewrites that must
pass.

App knowledge (which tools expose or destroy, which seeded rows exist, how an object can be created in two steps)
comes from each app's probes, reached through `servers.registry.probes`; what is generic lives here: duplicating the
final write, extra reads, reordering independent steps, rewriting dates in text and retitling created objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.prove import distortions, variation
from orchestrator.scenario.conditions import Context, row_matches
from orchestrator.scenario.model import SAVED_REF, OracleStep, Scenario, app_of
from orchestrator.scenario.worldspec import ASK_TOOL, GATEWAY_APP
from orchestrator.verify.facts import derive as derive_facts
from orchestrator.verify.tables import table_keys
from servers import registry
from servers.core.probes import ATTACK_KINDS, EQUIVALENT_KINDS, Computed, Probe, ProbeContext, Skip, Step

Snapshot = dict[str, list[dict[str, Any]]]
GATEWAY = "__"


@dataclass
class Call:
    """One call of a derived trajectory, as the agent makes it (tool named `app__tool`)."""

    tool: str
    args: dict[str, Any]
    save: str | None = None
    expect_error: bool = False
    probe: bool = False
    """Added or changed by the probe: if it fails, the probe did not apply."""


# -- tools ----------------------------------------------------------------------


def read_only(tool: str) -> bool:
    """Whether a tool only reads (its app says so; `world__ask_user` counts as a read)."""
    app, name = app_of(tool)
    if app == GATEWAY_APP:
        return tool == ASK_TOOL  # waiting moves the world on and a report is the agent's word: neither is a mere read
    definition = registry.load(app).tools.tools.get(name)
    return bool(definition and definition.annotations.read_only_hint)


def idempotent(tool: str) -> bool:
    """Whether calling a tool twice with the same arguments does what calling it once does (its app says so)."""
    app, name = app_of(tool)
    if app == GATEWAY_APP:
        return False
    definition = registry.load(app).tools.tools.get(name)
    return bool(definition and definition.annotations.idempotent_hint)


# -- contexts -------------------------------------------------------------------


def _keys(app: str) -> dict[str, str]:
    return {name: table.key for name, table in registry.load(app).tables.items()}


def _literals(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _literals(v)]
    if isinstance(value, list):
        return [x for v in value for x in _literals(v)]
    return [value]


def touched(
    scenario: Scenario,
    seeded: dict[str, Snapshot],
    final: dict[str, Snapshot],
    journal: list[dict[str, Any]] | None = None,
) -> dict[str, set[tuple[str, Any]]]:
    """Per app, the seeded rows the reference solution changes, removes or names in its arguments, and, given
    its journal, the rows it opened or acted on (named through a saved result, such as the mail it found)."""
    out: dict[str, set[tuple[str, Any]]] = {}
    handled: set[tuple[str, str, Any]] = set()
    if journal is not None:
        facts = derive_facts(seeded, [dict(e) for e in journal], table_keys(scenario))
        handled = facts.opened | facts.acted
    named = {v for step in scenario.oracle for v in _literals(step.args) if isinstance(v, str)}
    for app in scenario.apps:
        rows: set[tuple[str, Any]] = set()
        for table, key in _keys(app).items():
            after = {r[key]: r for r in final.get(app, {}).get(table, [])}
            for row in seeded.get(app, {}).get(table, []):
                if after.get(row[key]) != row or row[key] in named or (app, table, row[key]) in handled:
                    rows.add((table, row[key]))
        out[app] = rows
    return out


def contexts(
    scenario: Scenario,
    seeded: dict[str, Snapshot],
    final: dict[str, Snapshot],
    journal: list[dict[str, Any]] | None = None,
) -> dict[str, ProbeContext]:
    """A probe context for every app of the scenario that has probes; `journal` is the reference solution's."""
    changed = touched(scenario, seeded, final, journal)
    saves = {i: s.save for i, s in enumerate(scenario.oracle) if s.save}
    out: dict[str, ProbeContext] = {}
    for app in scenario.apps:
        if registry.probes(app) is None:
            continue
        steps = [
            Step(app_of(s.tool)[1], dict(s.args), s.save, origin=i)
            for i, s in enumerate(scenario.oracle)
            if app_of(s.tool)[0] == app
        ]
        out[app] = ProbeContext(
            app=app,
            seed=seeded.get(app, {}),
            persona=scenario.persona,
            instruction=scenario.instruction,
            steps=steps,
            touched=changed[app],
            saves=saves,
            destructible=destructible(scenario, seeded, app),
        )
    return out


def destructible(scenario: Scenario, seeded: dict[str, Snapshot], app: str) -> set[tuple[str, Any]]:
    """(table, key) of the seeded rows of `app` the task may destroy: those a `relax: destruction` rule selects."""
    keys = table_keys(scenario)
    ctx = Context(seeded, keys, app, timezone=scenario.persona.timezone, now=scenario.clock.start)
    return {
        (rule.table, row[keys.get((app, rule.table), "id")])
        for rule in scenario.relax.destruction
        if rule.app == app
        for row in seeded.get(app, {}).get(rule.table, [])
        if row_matches(row, rule.where, ctx, rule.table)
    }


# -- trajectories ---------------------------------------------------------------


def _gateway(app: str, step: Step) -> str:
    return f"{app}{GATEWAY}{step.tool}"


def plan(oracle: list[OracleStep], probe: Probe, app: str | None = None) -> list[Call]:
    """The reference solution with `probe` applied; probe steps name tools of `app` unless already `app__tool`."""

    def call(step: Step) -> Call:
        tool = step.tool if GATEWAY in step.tool else _gateway(app or "", step)
        if step.origin is not None:
            original = oracle[step.origin]
            same = original.tool == tool and original.args == step.args and original.save == step.save
            return Call(tool, step.args, step.save, original.expect_error, probe=not same)
        return Call(tool, step.args, step.save, probe=True)

    calls = [call(s) for s in probe.prepend]
    for index, step in enumerate(oracle):
        if index in probe.replace:
            calls += [call(s) for s in probe.replace[index]]
        else:
            calls.append(Call(step.tool, step.args, step.save, step.expect_error))
    calls += [call(s) for s in probe.append]
    return calls


def oracle_step(index: int, step: OracleStep) -> Step:
    """A reference step as a probe step (tool keeps its `app__tool` name)."""
    return Step(step.tool, dict(step.args), step.save, origin=index)


def qualified(app: str, probe: Probe) -> Probe:
    """`probe` with every app-local tool name turned into `app__tool`."""

    def fix(steps: list[Step]) -> list[Step]:
        return [s if GATEWAY in s.tool else Step(_gateway(app, s), s.args, s.save, s.origin) for s in steps]

    return Probe(
        probe.kind,
        probe.description,
        {i: fix(v) for i, v in probe.replace.items()},
        fix(probe.prepend),
        fix(probe.append),
    )


# -- attacks --------------------------------------------------------------------


def attacks(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    """Every generic attack that applies to the scenario, and the kinds that do not, with why."""
    found: list[Probe] = []
    skips: list[Skip] = []
    for app, ctx in ctxs.items():
        probes = registry.probes(app)
        assert probes is not None
        made, skipped = probes.attacks(ctx)
        # A call meant to fail changes nothing, so an attack changing it tests nothing.
        found += [qualified(app, p) for p in made if not any(scenario.oracle[i].expect_error for i in p.replace)]
        skips += [Skip(s.kind, f"{app}: {s.reason}") for s in skipped]
    duplicate = _duplicate_final_write(scenario.oracle)
    if duplicate:
        found.append(duplicate)
    else:
        skips.append(Skip("duplicate-write", "the reference solution makes no write that is not idempotent"))
    return found, _unexplained(found, skips, ATTACK_KINDS, scenario)


def _unexplained(found: list[Probe], skips: list[Skip], kinds: dict[str, str], scenario: Scenario) -> list[Skip]:
    """One skip per kind nothing was generated for, joining the apps' reasons."""
    made = {p.kind for p in found}
    apps = ", ".join(scenario.apps)
    out: list[Skip] = []
    for kind in kinds:
        if kind in made:
            continue
        reasons = [s.reason for s in skips if s.kind == kind]
        out.append(Skip(kind, "; ".join(reasons) or f"does not apply to the apps of this scenario ({apps})"))
    return out


def _duplicate_final_write(oracle: list[OracleStep]) -> Probe | None:
    for index in range(len(oracle) - 1, -1, -1):
        step = oracle[index]
        if step.expect_error or read_only(step.tool) or idempotent(step.tool):
            continue
        again = Step(step.tool, dict(step.args), None)
        return Probe("duplicate-write", f"{step.tool} (step {index}) made twice", append=[again])
    return None


# -- equivalents ----------------------------------------------------------------


def varied_attacks(
    scenario: Scenario, ctxs: dict[str, ProbeContext], budget: int = variation.BUDGET
) -> tuple[list[Probe], list[Skip]]:
    """The attacks by variation (hedges, claims without the action, stuffing, wrong zones, stale values,
    paraphrased secrets; see `distortions`), sampled to `budget` episodes (0: all), and the kinds that do not
    apply, with why."""
    return distortions.attacks(scenario, ctxs, read_only, budget)


def varied_equivalents(
    scenario: Scenario, ctxs: dict[str, ProbeContext], budget: int = variation.BUDGET
) -> tuple[list[Probe], list[Skip]]:
    """The equivalents by variation (each app's channel variants and benign extras, at least twenty wordings of
    the reference's texts; see `variation`), sampled to `budget` episodes (0: all), and the kinds that do not
    apply, with why."""
    other: list[Probe] = []
    for app, ctx in ctxs.items():
        probes = registry.probes(app)
        assert probes is not None
        for make in (probes.channels, probes.extras):
            other += [qualified(app, p) for p in make(ctx) if _meets_faults(scenario, p)] if make is not None else []
    return variation.equivalents(scenario, other, budget)


def equivalents(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], list[Skip]]:
    """Every generic correct rewrite of the reference solution, and the kinds that do not apply, with why."""
    found: list[Probe] = []
    skips: list[Skip] = []
    for app, ctx in ctxs.items():
        probes = registry.probes(app)
        assert probes is not None
        found += [qualified(app, p) for p in probes.rewrites(ctx) if _meets_faults(scenario, p)]
    if "mail" not in scenario.apps:
        skips.append(Skip("draft-send", "no mail app"))
    elif not any(p.kind == "draft-send" for p in found):
        skips.append(Skip("draft-send", "the reference solution sends no mail"))
    if not any(p.kind == "create-update" for p in found):
        skips.append(
            Skip("create-update", "the reference solution creates nothing that has more than its required fields")
        )
    for make in (_extra_reads, _reorders, _date_formats, _retitles):
        made, skip = make(scenario, ctxs)
        found += made
        if skip:
            skips.append(skip)
    if not scenario.oracles:
        skips.append(Skip("oracles", "the scenario lists no alternative reference solutions"))
    return found, [s for s in skips if s.kind not in {p.kind for p in found}]


def _meets_faults(scenario: Scenario, probe: Probe) -> bool:
    """The rewrite leaves the reference's calls that meet faults as they are: a call meant to fail is not rewritten
    (its retry is), nor a call of a tool a fault rule names (the rule counts that tool's calls, and a rewrite to other
    tools would never meet the fault its checks are about)."""
    return not any(
        scenario.oracle[i].expect_error or _faulted(scenario, scenario.oracle[i].tool) for i in probe.replace
    )


def _faulted(scenario: Scenario, tool: str) -> bool:
    """A fault rule of the scenario names this gateway tool (`app__tool`); a rule for every tool (`*`) names none."""
    app, name = app_of(tool)
    plan = scenario.faults.get(app)
    return plan is not None and any(rule.tool == name for rule in plan.rules)


def _extra_reads(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], Skip | None]:
    reads: list[Step] = []
    for app, ctx in ctxs.items():
        probes = registry.probes(app)
        assert probes is not None
        reads += [Step(_gateway(app, s), s.args, s.save) for s in probes.reads(ctx)]
    if not reads:
        return [], Skip("extra-reads", "no app offers reads")
    oracle = scenario.oracle
    room = (scenario.limits.max_tool_calls or 10**6) - len(oracle)
    if room <= 0:
        return [], Skip("extra-reads", "the reference solution already uses every tool call the limit allows")
    start = reads[: max(1, room // 3)]
    room -= len(start)
    between: dict[int, list[Step]] = {}
    for index, step in enumerate(oracle):
        if room <= 1:
            break
        between[index] = [oracle_step(index, step), reads[index % len(reads)]]
        room -= 1
    end = reads[: max(0, min(len(reads), room))]
    probe = Probe(
        "extra-reads",
        f"{len(start) + len(between) + len(end)} extra reads: before the first step, after steps and at the end",
        replace=between,
        prepend=start,
        append=end,
    )
    return [probe], None


def _refs(value: Any) -> set[str]:
    return {m[0] for m in SAVED_REF.findall(repr(value))}


def _targets(step: OracleStep) -> set[str]:
    app, _ = app_of(step.tool)
    probes = registry.probes(app) if app in registry.available() else None
    names = probes.target_args if probes else ()
    found: set[str] = set()
    for name in names:
        for value in _literals(step.args.get(name)):
            if value is not None:
                found.add(f"{app}:{str(value).lower()}")
    return found


def independent(a: OracleStep, b: OracleStep) -> bool:
    """Whether `a` then `b` may run as `b` then `a`: no saved result flows between them, they act on
    different objects and containers, and they are both reads or both writes."""
    if a.expect_error or b.expect_error or read_only(a.tool) != read_only(b.tool):
        return False
    if app_of(a.tool)[0] == GATEWAY_APP or app_of(b.tool)[0] == GATEWAY_APP:
        return False  # waiting, asking and reporting depend on what came before them
    if (a.save and a.save in _refs(b.args)) or (b.save and b.save in _refs(a.args)):
        return False
    return not (_targets(a) & _targets(b))


def _reorders(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], Skip | None]:
    oracle = scenario.oracle
    out: list[Probe] = []
    for index in range(len(oracle) - 1):
        a, b = oracle[index], oracle[index + 1]
        if independent(a, b):
            swapped = [oracle_step(index + 1, b), oracle_step(index, a)]
            out.append(
                Probe(
                    "reorder",
                    f"steps {index} ({a.tool}) and {index + 1} ({b.tool}) swapped",
                    replace={index: swapped, index + 1: []},
                )
            )
    return out, None if out else Skip("reorder", "no two neighbouring steps are independent")


# dates and times in text

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTH = "|".join(MONTHS)
_WEEKDAY = "|".join(WEEKDAYS)
ISO_DATETIME = r"(?P<iso>\d{4}-\d{2}-\d{2})[T ](?P<isotime>\d{2}:\d{2})(?::\d{2})?(?P<offset>Z|[+-]\d{2}:\d{2})?"
HUMAN_DATE = rf"(?:(?P<weekday>{_WEEKDAY}),? )?(?P<day>\d{{1,2}}) (?P<month>{_MONTH})(?: (?P<year>\d{{4}}))?"
TIME = r"(?P<hour>[01]?\d|2[0-3]):(?P<minute>[0-5]\d)"
MENTION = re.compile(
    rf"(?<![\w:.-])(?:{ISO_DATETIME}|(?P<date>\d{{4}}-\d{{2}}-\d{{2}})|{HUMAN_DATE}(?: at {TIME})?|(?P<clock>{TIME.replace('P<hour>', 'P<hour2>').replace('P<minute>', 'P<minute2>')}))(?![\w:]|-\d)",
    re.IGNORECASE,
)


@dataclass
class Mention:
    """A day and a time of day a text states."""

    day: date | None
    at: time | None


def _resolve(match: re.Match[str], today: date, zone: ZoneInfo) -> Mention | None:
    g = match.groupdict()
    try:
        if g["iso"]:
            when = datetime.fromisoformat(f"{g['iso']}T{g['isotime']}{(g['offset'] or '').replace('Z', '+00:00')}")
            if when.tzinfo is not None:
                when = when.astimezone(zone)
            return Mention(when.date(), when.time())
        if g["date"]:
            return Mention(date.fromisoformat(g["date"]), None)
        if g["month"]:
            month = MONTHS.index(g["month"].lower()) + 1
            year = int(g["year"]) if g["year"] else today.year
            day = date(year, month, int(g["day"]))
            if not g["year"] and (day - today).days < -180:
                day = date(year + 1, month, int(g["day"]))
            at = time(int(g["hour"]), int(g["minute"])) if g["hour"] else None
            return Mention(day, at)
        if g["clock"]:
            return Mention(None, time(int(g["hour2"]), int(g["minute2"])))
    except ValueError:
        return None
    return None


def _twelve_hour(at: time) -> str:
    hour = at.hour % 12 or 12
    suffix = "am" if at.hour < 12 else "pm"
    return f"{hour}:{at.minute:02d} {suffix}" if at.minute else f"{hour} {suffix}"


STYLES = {
    "iso": (
        "2026-03-05, 3:30 pm",
        lambda m: " on ".join(
            x for x in ((_twelve_hour(m.at) if m.at else ""), (m.day.isoformat() if m.day else "")) if x
        ),
    ),
    "short": (
        "Thu 5 Mar 2026, 15h30",
        lambda m: ", ".join(
            x
            for x in (
                (f"{m.day:%a} {m.day.day} {m.day:%b %Y}" if m.day else ""),
                (f"{m.at.hour}h{m.at.minute:02d}" if m.at else ""),
            )
            if x
        ),
    ),
}


def rewrite_dates(text: str, style: str, today: date, zone: ZoneInfo) -> str:
    """`text` with every date and time it mentions written in `style` (see `STYLES`); `${…}` references are kept."""
    render = STYLES[style][1]
    pieces = re.split(r"(\$\{[^}]*\})", text)

    def one(match: re.Match[str]) -> str:
        mention = _resolve(match, today, zone)
        return render(mention) if mention else match.group(0)

    return "".join(p if SAVED_REF.fullmatch(p) else MENTION.sub(one, p) for p in pieces)


def _text_args(tool: str) -> tuple[str, ...]:
    app, name = app_of(tool)
    probes = registry.probes(app) if app in registry.available() else None
    return probes.text_args.get(name, ()) if probes else ()


def _date_formats(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], Skip | None]:
    zone = ZoneInfo(scenario.persona.timezone)
    today = scenario.clock.start.astimezone(zone).date()
    out: list[Probe] = []
    for style, (example, _) in STYLES.items():
        replace: dict[int, list[Step]] = {}
        for index, step in enumerate(scenario.oracle):
            changes = {
                name: rewrite_dates(step.args[name], style, today, zone)
                for name in _text_args(step.tool)
                if isinstance(step.args.get(name), str)
            }
            changes = {k: v for k, v in changes.items() if v != step.args[k]}
            if changes:
                replace[index] = [oracle_step(index, step).with_args(**changes)]
        if replace:
            out.append(
                Probe(
                    "date-format",
                    f"dates and times in text written like '{example}' (steps {', '.join(map(str, replace))})",
                    replace=replace,
                )
            )
    return out, None if out else Skip("date-format", "the reference solution's text mentions no date or time")


# created objects retitled

WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+", re.UNICODE)
FUNCTION_WORDS = frozenset(
    "a an the and or but nor of to in on at for with from by about into onto over under after before as per via is are "
    "was were be been it its this that these those my me mine our ours your yours his her hers their theirs them we you "
    "he she they all every each any some no not so too also just then than there here what which who whom whose when "
    "where why how can could should would will shall may might must do does did done make made get got put set let "
    "please up out off".split()
)


def _stem(word: str) -> str:
    """A crude stem, so "released" counts as a word of an instruction that says "release"."""
    low = word.lower()
    for suffix in ("ing", "ed", "es", "s", "d"):
        if len(low) > len(suffix) + 3 and low.endswith(suffix):
            low = low[: -len(suffix)]
            break
    return low[:-1] if len(low) > 4 and low.endswith("e") else low


def retitle(title: str, instruction: str, fallback: str) -> str:
    """A title keeping only the words of `title` that the instruction uses, in any form (numbers, and words of
    three letters or more that say something), in another order."""
    said = {_stem(w) for w in WORD.findall(instruction)}
    kept: list[str] = []
    for word in WORD.findall(title):
        low = word.lower()
        meaningful = low[0].isdigit() or (len(low) >= 3 and low not in FUNCTION_WORDS)
        if meaningful and _stem(word) in said and low not in {k.lower() for k in kept}:
            kept.append(word)
    if not kept:
        return fallback
    kept.reverse()
    head, *rest = kept
    text = head[:1].upper() + head[1:]
    return f"{text} - {' '.join(rest)}" if rest else text


def _quoted(title: str, instruction: str) -> bool:
    """The instruction gives this title in quotes ("a ticket \"Open loose ends\"", 'titled “Q3 plan”'), in any case."""
    low = instruction.lower()
    want = title.lower()
    return any(f"{a}{want}{b}" in low for a, b in (('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019")))


def _title_arg(tool: str) -> str | None:
    app, name = app_of(tool)
    probes = registry.probes(app) if app in registry.available() else None
    return probes.title_args.get(name) if probes else None


def _retitles(scenario: Scenario, ctxs: dict[str, ProbeContext]) -> tuple[list[Probe], Skip | None]:
    replace: dict[int, list[Step]] = {}
    renamed: dict[str, str] = {}  # the same title (a retried call, say) gets the same new title
    for index, step in enumerate(scenario.oracle):
        arg = _title_arg(step.tool)
        value = step.args.get(arg) if arg else None
        if not isinstance(value, str) or SAVED_REF.search(value) or _quoted(value, scenario.instruction):
            continue  # a title the user quotes is the one asked for: another is not an equivalent
        if value not in renamed:
            renamed[value] = retitle(value, scenario.instruction, f"Item {len(renamed) + 1}")
        if renamed[value] != value:
            replace[index] = [oracle_step(index, step).with_args(**{arg: renamed[value]})]  # type: ignore[arg-type]  # `arg` is set: the value was read with it
    titles = [f"{old!r} -> {new!r}" for old, new in renamed.items() if old != new]
    if not replace:
        return [], Skip("retitle", "the reference solution creates nothing with a title")
    return [Probe("retitle", "created objects retitled: " + "; ".join(titles), replace=replace)], None


__all__ = [
    "ATTACK_KINDS",
    "EQUIVALENT_KINDS",
    "Call",
    "Computed",
    "Probe",
    "Skip",
    "attacks",
    "contexts",
    "equivalents",
    "plan",
]
