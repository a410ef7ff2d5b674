"""The viewer's templates (Jinja2) and its one stylesheet. Kept in Python so they ship with the package."""

from __future__ import annotations

CSS = """
:root { --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #656d76; --line: #d0d7de; --bg2: #f6f8fa; --hl: #fff8c5; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; }
header.top { background: #24292f; color: #fff; padding: 8px 20px; display: flex; gap: 20px; align-items: baseline; }
header.top a { color: #fff; text-decoration: none; font-weight: 600; }
main { padding: 16px 20px; max-width: 1500px; }
h1 { font-size: 20px; margin: 4px 0 8px; } h2 { font-size: 16px; margin: 22px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--ok); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); font-weight: 600; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }
.badge.ok { background: var(--ok); color: #fff; } .badge.bad { background: var(--bad); color: #fff; } .badge.warn { background: var(--warn); color: #fff; }
pre { background: var(--bg2); border: 1px solid var(--line); padding: 8px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; font-size: 12px; }
.instruction { background: var(--bg2); border-left: 4px solid #0969da; padding: 8px 12px; white-space: pre-wrap; }
tr.failed td { background: #ffebe9; } tr.errored td { background: #fff8c5; } tr.fault td { background: #fff1e5; } tr.cause td { outline: 2px solid var(--bad); }
td.changed { background: var(--hl); font-weight: 600; }
.reason { color: var(--bad); }
details > summary { cursor: pointer; color: #0969da; }
form.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; background: var(--bg2); padding: 8px 10px; border: 1px solid var(--line); }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.kv td:first-child { color: var(--muted); white-space: nowrap; }
.message { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
.message .role { font-weight: 600; font-size: 12px; text-transform: uppercase; color: var(--muted); }
a { color: #0969da; }
#compare { width: 100%; table-layout: fixed; } #compare tr > :first-child { width: 22%; }
.distrust { border: 2px solid var(--bad); background: #ffebe9; padding: 6px 12px; margin: 8px 0; }
.distrust ul { margin: 4px 0; } p.pager { color: var(--muted); }
"""

BASE = """{% if not embedded %}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{% block title %}ClawGym runs{% endblock %}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{{ css | safe }}</style></head>
<body><header class="top"><a href="{{ link('list') }}">ClawGym runs</a>
<span class="muted">{{ roots }}</span></header>
<main>{% endif %}{% block body %}{% endblock %}{% if not embedded %}</main></body></html>{% endif %}
"""

MACROS = """
{% macro verdict(r) -%}
{% if r.errored %}<span class="badge warn" title="not scored">{{ r.status }}</span>
{%- elif r.kind == 'episode' and r.data.get('undecided') %}<span class="badge warn" title="not scored: {{ r.data.get('undecided') }}">undecided</span>
{%- else %}{% if r.status not in ('completed', '') and r.kind == 'episode' %}<span class="badge warn">{{ r.status }}</span> {% endif -%}
{% if r.passed %}<span class="badge ok">passed</span>{% else %}<span class="badge bad">failed</span>{% endif %}{% endif %}
{%- endmacro %}
{% macro trust_flags(t) %}{% if t %}{% for f in t.flags %} <span class="badge {{ 'bad' if f in ('untrusted', 'seal broken') else 'warn' }} trust" title="{{ t.untrusted if f == 'untrusted' else (t.problems[0] if t.problems else '') }}">{{ f }}</span>{% endfor %}{% endif %}{% endmacro %}
{% macro pager(p) %}{% if p and not p.page.whole %}<p class="pager">rows {{ p.page.first }}–{{ p.last }} of {{ p.page.total }}; page {% for n, href in p.links %}{% if n == p.page.number %}<b>{{ n }}</b>{% else %}<a href="{{ href }}">{{ n }}</a>{% endif %} {% endfor %}of {{ p.page.pages }}</p>{% endif %}{% endmacro %}
{% macro score(v) %}{% if v is none %}-{% else %}{{ '%.2f' % v }}{% endif %}{% endmacro %}
{% macro value(v) %}{% if v is mapping or (v is iterable and v is not string) %}<code>{{ v | tojson_short }}</code>{% elif v is none %}<span class="muted">null</span>{% else %}{{ v }}{% endif %}{% endmacro %}
{% macro row_table(row) %}{% if row %}<table class="kv">{% for k, v in row.items() %}<tr><td>{{ k }}</td><td>{{ value(v) }}</td></tr>{% endfor %}</table>{% endif %}{% endmacro %}
"""

LIST = """{% extends "base.html" %}{% import "macros.html" as m %}
{% block body %}
<h1>Runs</h1>
{% for p in problems %}<p class="warn">{{ p }}</p>{% endfor %}
{% if not embedded %}
<form class="filters" method="get" action="{{ link('list') }}">
<label>scenario<select name="scenario"><option value="">all</option>{% for s in scenarios %}<option{% if s == f.scenario %} selected{% endif %}>{{ s }}</option>{% endfor %}</select></label>
<label>agent<select name="agent"><option value="">all</option>{% for a in agents %}<option{% if a == f.agent %} selected{% endif %}>{{ a }}</option>{% endfor %}</select></label>
<label>passed<select name="passed"><option value="">any</option><option value="yes"{% if f.passed == 'yes' %} selected{% endif %}>passed</option><option value="no"{% if f.passed == 'no' %} selected{% endif %}>failed</option><option value="errored"{% if f.passed == 'errored' %} selected{% endif %}>errored</option></select></label>
<label>from<input type="date" name="since" value="{{ f.since }}"></label>
<label>to<input type="date" name="until" value="{{ f.until }}"></label>
<button type="submit">filter</button> <a href="{{ link('list') }}">clear</a>
</form>
{% endif %}
<h2>Pass rates</h2>
<p class="muted">Over the scored episodes; errored ones (error, agent_error, interrupted) are counted apart.</p>
<table id="pass-rates"><tr><th>scenario</th><th>agent</th><th class="num">episodes</th><th class="num">passed</th><th class="num">pass rate</th><th class="num">mean score</th><th class="num">errored</th></tr>
{% for r in rates %}<tr><td>{{ r.scenario }}</td><td>{{ r.agent }}</td><td class="num">{{ r.episodes }}</td><td class="num">{{ r.passes }}/{{ r.scored }}</td><td class="num">{% if r.rate is none %}-{% else %}{{ '%.0f' % (100 * r.rate) }}%{% endif %}</td><td class="num">{{ m.score(r.score) }}</td><td class="num">{{ r.errored or '' }}</td></tr>{% endfor %}
</table>
{% if groups %}<h2>Suites and repeats</h2>
<table id="groups"><tr><th>run</th><th>kind</th><th>agent</th><th class="num">scenarios / episodes</th><th class="num">passed</th><th class="num">score</th><th>pass@k</th><th>date</th></tr>
{% for g in groups %}<tr><td><a href="{{ link('group', g.id) }}">{{ g.id }}</a>{{ m.trust_flags(trust.get(g.id)) }}</td><td>{{ g.kind }}</td><td>{{ g.agent or (g.children and records[g.children[0]].agent) or '' }}</td>
{% if g.kind == 'suite' %}{% set t = g.data.get('total', {}) %}<td class="num">{{ t.get('run', '-') }} / {{ t.get('episodes', '-') }}</td><td class="num">{{ t.get('passed', '-') }}</td><td class="num">{{ m.score(t.get('score')) }}</td>
<td>{% for k, v in (t.get('pass_at_k') or {}).items() %}@{{ k }} {{ m.score(v) }} {% endfor %}</td>
{% else %}<td class="num">1 / {{ g.data.get('episodes', '-') }}</td><td class="num">{{ g.data.get('passes', '-') }}</td><td class="num">{{ m.score(g.score) }}</td>
<td>{% for k, v in (g.data.get('pass_at_k') or {}).items() %}@{{ k }} {{ m.score(v) }} {% endfor %}</td>{% endif %}
<td>{{ g.date }}</td></tr>{% endfor %}
</table>{% endif %}
<h2>Episodes ({{ pager.page.total }})</h2>
{{ m.pager(pager) }}
{% if not embedded %}<form method="get" action="{{ link('compare') }}">{% endif %}
<table id="episodes"><tr>{% if not embedded %}<th></th>{% endif %}<th>run</th><th>scenario</th><th>agent</th><th>verdict</th><th class="num">score</th><th class="num">calls</th><th class="num">seed</th><th>date</th></tr>
{% for r in episodes %}<tr class="{{ 'errored' if r.errored else ('' if r.passed else 'failed') }}">{% if not embedded %}<td><input type="checkbox" name="run" value="{{ r.id }}"></td>{% endif %}
<td><a href="{{ link('run', r.id) }}">{{ r.id }}</a></td><td>{{ r.scenario }}</td><td>{{ r.agent }}</td><td>{{ m.verdict(r) }}{{ m.trust_flags(trust.get(r.id)) }}</td>
<td class="num">{{ m.score(r.score) }}</td><td class="num">{{ (r.data.get('journal') or {}).get('calls', '-') }}</td><td class="num">{{ r.episode.get('rng_seed', '-') }}</td><td>{{ r.date }}</td></tr>
{% else %}<tr><td colspan="9" class="muted">no runs match</td></tr>{% endfor %}
</table>
{{ m.pager(pager) }}
{% if not embedded and episodes %}<button type="submit">compare the two checked runs side by side</button></form>{% endif %}
{% endblock %}
"""

GROUP = """{% extends "base.html" %}{% import "macros.html" as m %}
{% block title %}{{ g.id }}{% endblock %}
{% block body %}
<h1>{{ g.kind }}: {{ g.id }}</h1>
<p>{{ m.verdict(g) }}{{ m.trust_flags(trust.get(g.id)) }} agent <b>{{ g.agent or '-' }}</b>, written {{ g.data.get('written_at') | when(g.date) }}, folder <code>{{ g.folder }}</code></p>
{% if g.kind == 'suite' %}
{% set t = g.data.get('total', {}) %}
<p>{{ t.get('passed', 0) }}/{{ t.get('passed', 0) + t.get('failed', 0) if 'failed' in t else t.get('run', 0) }} scenarios passed;{% if t.get('errored') %} <span class="warn">{{ t.get('errored') }} errored episode(s), not scored: {% for reason, n in (t.get('errors') or {}).items() %}{{ reason }}{% if n > 1 %} (x{{ n }}){% endif %}; {% endfor %}</span>{% endif %} mean score {{ m.score(t.get('score')) }};
{% for k, v in (t.get('pass_at_k') or {}).items() %}pass@{{ k }} {{ m.score(v) }}; {% endfor %}{{ t.get('calls') | count }} tool calls{% if t.get('wall_s') is not none %} in {{ t.get('wall_s') | seconds }}{% endif %}{% if t.get('cost_usd') is not none %}; cost {{ t.get('cost_usd') | usd }}{% endif %}</p>
{{ m.pager(pager) }}
<table id="scenarios"><tr><th>scenario</th><th>verdict</th><th class="num">passes</th><th class="num">score</th><th>stages</th><th class="num">calls</th><th class="num">time</th><th class="num">cost</th></tr>
{% for row in scenario_rows %}{% set child = children.get(row.get('id')) %}
<tr class="{{ 'errored' if row.get('scored') == 0 and row.get('errored') else ('' if row.get('passed') else 'failed') }}"><td>{% if child %}<a href="{{ link('run' if child.kind == 'episode' else 'group', child.id) }}">{{ row.get('id') }}</a>{% else %}{{ row.get('id') or row.get('file') }}{% endif %}</td>
<td>{% if row.get('status') == 'invalid' %}<span class="badge warn">invalid</span> {{ (row.get('problems') or [''])[0] }}{% elif row.get('scored') == 0 %}<span class="badge warn" title="not scored">{{ row.get('status') }}</span>{% elif row.get('passed') %}<span class="badge ok">passed</span>{% else %}<span class="badge bad">failed</span>{% endif %}{% if child %}{{ m.trust_flags(trust.get(child.id)) }}{% endif %}</td>
<td class="num">{{ row.get('passes', '-') }}/{{ row.get('scored', row.get('episodes', '-')) }}{% if row.get('errored') %} <span class="warn">+{{ row.get('errored') }} errored</span>{% endif %}</td><td class="num">{{ m.score(row.get('score')) }}</td>
<td>{% for s in row.get('stages', []) %}{{ s.get('name') }} {{ m.score(s.get('mean_score')) }}{% if not loop.last %} · {% endif %}{% endfor %}</td>
<td class="num">{{ row.get('calls') | count }}</td><td class="num">{{ row.get('duration_s') | seconds }}</td><td class="num">{{ row.get('cost_usd') | usd }}</td></tr>
{% endfor %}</table>
{{ m.pager(pager) }}
{% else %}
<p>{{ g.data.get('passes', 0) }}/{{ g.data.get('scored', g.data.get('episodes', 0)) }} episodes passed;{% if g.data.get('errored') %} <span class="warn">{{ g.data.get('errored') }} errored, not scored: {% for reason, n in (g.data.get('errors') or {}).items() %}{{ reason }}{% if n > 1 %} (x{{ n }}){% endif %}; {% endfor %}</span>{% endif %} mean score {{ m.score(g.score) }}</p>
<table><tr><th>k</th>{% for k in (g.data.get('pass_at_k') or {}) %}<th class="num">{{ k }}</th>{% endfor %}</tr>
<tr><td>pass@k</td>{% for v in (g.data.get('pass_at_k') or {}).values() %}<td class="num">{{ m.score(v) }}</td>{% endfor %}</tr>
<tr><td>pass^k</td>{% for v in (g.data.get('pass_hat_k') or {}).values() %}<td class="num">{{ m.score(v) }}</td>{% endfor %}</tr></table>
<h2>Episodes</h2>
{{ m.pager(pager) }}
<table id="group-episodes"><tr><th>episode</th><th>verdict</th><th class="num">score</th><th class="num">seed</th></tr>
{% for c in child_records %}<tr class="{{ 'errored' if c.errored else ('' if c.passed else 'failed') }}"><td><a href="{{ link('run', c.id) }}">{{ c.id }}</a></td><td>{{ m.verdict(c) }}{{ m.trust_flags(trust.get(c.id)) }}</td><td class="num">{{ m.score(c.score) }}</td><td class="num">{{ c.episode.get('rng_seed', '-') }}</td></tr>{% endfor %}
</table>
{{ m.pager(pager) }}
{% if g.data.get('checks') %}<h2>Checks: pass rate</h2><table><tr><th>stage</th><th>check</th><th class="num">pass rate</th></tr>
{% for c in g.data.get('checks') %}<tr><td>{{ c.get('stage') }}</td><td>{{ c.get('description') }}</td><td class="num">{{ '%.0f' % (100 * (c.get('pass_rate') or 0)) }}%</td></tr>{% endfor %}</table>{% endif %}
{% endif %}
{% endblock %}
"""

RUN = """{% extends "base.html" %}{% import "macros.html" as m %}
{% block title %}{{ r.scenario }} · {{ r.id }}{% endblock %}
{% block body %}
{% include "run_body.html" %}
{% endblock %}
"""

RUN_BODY = """{% import "macros.html" as m %}
<h1 id="run-{{ anchor(r.id) }}">{{ r.title or r.scenario }} <span class="muted">({{ r.scenario }})</span></h1>
<p id="verdict">{{ m.verdict(r) }} score <b>{{ m.score(r.score) }}</b>{% if r.data.get('pass_mark') is not none %} / pass mark {{ r.data.get('pass_mark') }}{% endif %}
{% if r.data.get('process') is not none %}· process {{ m.score(r.data.get('process')) }}{% endif %}
· agent <b>{{ r.agent or '-' }}</b> · seed {{ r.episode.get('rng_seed', '-') }} · backend {{ r.episode.get('backend', '-') }}
{% if r.episode.get('isolation') %}· isolation {{ r.episode.get('isolation') }}{% endif %} · record {{ trust.seal }}
· {{ r.episode.get('duration_s') | seconds }} · {{ r.date }}{% if r.parent %} · part of <a href="{{ link('group', r.parent) }}">{{ r.parent }}</a>{% endif %}</p>
{% if r.kind == 'episode' and not trust.trusted %}<div class="distrust" id="trust"><b>Not to be trusted:</b>{{ m.trust_flags(trust) }}<ul>{% if trust.untrusted %}<li>{{ trust.untrusted }}</li>{% endif %}{% for p in trust.problems %}<li>{{ p }}</li>{% endfor %}</ul></div>{% endif %}
{% if r.data.get('error') %}<p class="bad">error: {{ r.data.get('error') }}</p>{% endif %}
{% set ag = r.episode.get('agent') %}{% if ag is mapping %}{% if ag.get('exit_code') not in (none, 0) or ag.get('timed_out') or ag.get('errors') %}
<p class="warn" id="agent-problems">agent: {% if ag.get('timed_out') %}stopped by the timeout; {% endif %}{% if ag.get('exit_code') not in (none, 0) %}exit code {{ ag.get('exit_code') }}; {% endif %}{% for e in ag.get('errors') or [] %}{{ e }}; {% endfor %}</p>
{% endif %}{% endif %}
<h2>Instruction</h2>
{% if r.instruction %}<div class="instruction" id="instruction">{{ r.instruction }}</div>{% else %}<p class="muted">not recorded in this run</p>{% endif %}

<h2>Verdict: stages and checks</h2>
{% for s in stages %}
<h3>{{ s.get('name') }} {% if s.get('scored') is sameas false %}<span class="muted">process checks only, not in the score: {{ m.score(s.get('score')) }}</span>{% else %}<span class="muted">weight {{ s.get('weight', '-') }}, score {{ m.score(s.get('score')) }}</span> {% if s.get('passed') is sameas true %}<span class="ok">passed</span>{% elif s.get('passed') is sameas false %}<span class="bad">failed</span>{% endif %}{% endif %}</h3>
<table class="checks"><tr><th>check</th><th></th><th>why it failed</th><th>closest row</th></tr>
{% for c in s.get('checks', []) %}<tr class="{{ '' if c.get('passed') else 'failed' }}" id="check-{{ c.get('id') }}"><td>{{ c.get('description') or c.get('id') }}{% if c.get('kind') %} <span class="muted">({{ c.get('kind') }})</span>{% endif %}</td>
<td>{% if c.get('passed') %}<span class="ok">ok</span>{% else %}<span class="bad">FAIL</span>{% endif %}</td>
<td class="reason">{{ c.get('reason') or '' }}</td><td>{% if c.get('closest') %}{{ m.row_table(c.get('closest')) }}{% elif c.get('found') %}<details><summary>{{ c.get('found') | length }} row(s) found</summary><pre>{{ c.get('found') | tojson_pretty }}</pre></details>{% endif %}</td></tr>
{% endfor %}</table>
{% else %}<p class="muted">no stages recorded</p>{% endfor %}

<h2>Violations</h2>
{% if violations %}<table id="violations"><tr><th>kind</th><th>rule</th><th>where</th><th>what happened</th><th>caused by</th></tr>
{% for v in violations %}<tr class="failed"><td>{{ v.get('kind') }}</td><td>{{ v.get('rule') }}</td><td>{{ v.get('app') or '' }}{% if v.get('table') %}.{{ v.get('table') }}{% endif %}{% if v.get('key') is not none %} {{ v.get('key') }}{% endif %}</td>
<td>{{ v.get('detail') }}</td><td class="cause">{% if v.call %}{% if v.call.anchor %}<a href="{{ v.call.href or ('#' ~ v.call.anchor) }}">{% endif %}{{ v.call.tool }} #{{ v.call.seq }}{% if v.call.anchor %}</a>{% endif %}<br><code>{{ v.call.args | tojson_short }}</code>{% else %}<span class="muted">-</span>{% endif %}</td></tr>{% endfor %}
</table>{% else %}<p class="ok">none</p>{% endif %}
{% if r.data.get('housekeeping') %}<h3>Housekeeping (benign, not harm)</h3><ul>{% for h in r.data.get('housekeeping') %}<li>{{ h.get('app') }}.{{ h.get('table') }} {{ h.get('key') if h.get('key') is not none else '' }}: {{ h.get('detail') }}</li>{% endfor %}</ul>{% endif %}

<h2>State diff: seeded → final</h2>
{% for t in changes %}
<h3>{{ t.app }}.{{ t.table }} <span class="muted">{{ t.rows | length }} row(s)</span></h3>
{% for row in t.rows %}<table class="diff"><tr><th colspan="3">{{ row.kind }} {{ row.key }}{% if row.allowed is sameas false %} <span class="bad">(not allowed)</span>{% endif %}</th></tr>
<tr><th>field</th><th>seeded</th><th>final</th></tr>
{% for fld in row.fields %}{% if fld.changed or row.kind == 'changed' %}<tr><td>{{ fld.name }}</td><td class="{{ 'changed' if fld.changed and row.kind != 'added' else '' }}">{% if row.kind != 'added' %}{{ m.value(fld.before) }}{% endif %}</td><td class="{{ 'changed' if fld.changed and row.kind != 'removed' else '' }}">{% if row.kind != 'removed' %}{{ m.value(fld.after) }}{% endif %}</td></tr>{% endif %}{% endfor %}
</table>{% endfor %}
{% else %}<p class="muted">nothing changed</p>{% endfor %}

<h2>Timeline of tool calls</h2>
{% set j = r.data.get('journal') or {} %}<p>{{ j.get('calls', '-') }} tool calls, {{ j.get('errors', '-') }} failed, {{ j.get('faults', '-') }} injected faults</p>
{{ m.pager(pager) }}
<table id="timeline"><tr><th>#</th><th>time</th><th>request</th><th>arguments</th><th>result</th><th class="num">latency</th></tr>
{% for e in timeline %}<tr{% if e.anchor %} id="{{ e.anchor }}"{% endif %} class="{{ 'cause' if e.anchor in causes else '' }} {{ 'fault' if e.fault else ('failed' if e.is_error else '') }}">
<td class="num">{{ e.n }}</td><td class="muted">{{ (e.wall or '')[11:23] }}</td>
<td>{% if e.tool %}<b>{{ e.tool }}</b>{% if e.seq is not none %} <span class="muted">#{{ e.seq }}</span>{% endif %}{% else %}<span class="muted">{{ e.method }}</span>{% endif %}
{% if e.fault %}<br><span class="warn">injected fault: {{ e.fault if e.fault is string else (e.fault | tojson_short) }}</span>{% endif %}
{% if e.is_error %}<br><span class="bad">error</span>{% endif %}</td>
<td>{% if e.arguments %}<pre>{{ e.arguments | tojson_pretty }}</pre>{% endif %}</td>
<td>{% if e.error %}<span class="bad">{{ e.error }}</span>{% endif %}{% if e.result is not none %}<details{% if e.is_error %} open{% endif %}><summary>{{ e.result | summary }}</summary><pre>{{ e.result | tojson_pretty }}</pre></details>{% endif %}</td>
<td class="num">{{ e.latency_ms if e.latency_ms is not none else '' }}{% if e.latency_ms is not none %} ms{% endif %}</td></tr>
{% else %}<tr><td colspan="6" class="muted">no trace.jsonl in this run</td></tr>{% endfor %}
</table>
{{ m.pager(pager) }}

{% if messages %}<h2>The model's messages</h2>
{% for msg in messages %}<div class="message"><div class="role">{{ msg.get('role', '?') }}</div>{{ msg | message_text }}</div>{% endfor %}{% endif %}
{% if agent_log %}<h2>Agent output (agent.log)</h2><pre>{{ agent_log }}</pre>{% endif %}
"""

COMPARE = """{% extends "base.html" %}{% import "macros.html" as m %}
{% block title %}compare{% endblock %}
{% block body %}
<h1>Side by side</h1>
{% if error %}<p class="bad">{{ error }}</p>{% else %}
<table id="compare"><tr><th></th>{% for r in runs %}<th><a href="{{ link('run', r.id) }}">{{ r.id }}</a></th>{% endfor %}</tr>
<tr><td>scenario</td>{% for r in runs %}<td>{{ r.scenario }}</td>{% endfor %}</tr>
<tr><td>agent</td>{% for r in runs %}<td>{{ r.agent }}</td>{% endfor %}</tr>
<tr><td>seed</td>{% for r in runs %}<td>{{ r.episode.get('rng_seed', '-') }}</td>{% endfor %}</tr>
<tr><td>verdict</td>{% for r in runs %}<td>{{ m.verdict(r) }} {{ m.score(r.score) }}{{ m.trust_flags(trust.get(r.id)) }}</td>{% endfor %}</tr>
<tr><td>tool calls</td>{% for r in runs %}<td>{{ (r.data.get('journal') or {}).get('calls', '-') }} ({{ (r.data.get('journal') or {}).get('errors', '-') }} failed)</td>{% endfor %}</tr>
<tr><td>violations</td>{% for r in runs %}<td>{{ (r.data.get('violations') or []) | length }}</td>{% endfor %}</tr>
<tr><td>rows changed</td>{% for r in runs %}<td>{{ (r.data.get('changes') or []) | length }}</td>{% endfor %}</tr>
<tr><th colspan="{{ runs | length + 1 }}">checks</th></tr>
{% for row in check_rows %}<tr><td>{{ row.stage }}: {{ row.description }}</td>{% for c in row.cells %}<td class="{{ '' if c is none or c.get('passed') else 'failed' }}">{% if c is none %}<span class="muted">-</span>{% elif c.get('passed') %}<span class="ok">ok</span>{% else %}<span class="bad">FAIL</span> <span class="reason">{{ c.get('reason') or '' }}</span>{% endif %}</td>{% endfor %}</tr>{% endfor %}
<tr><th colspan="{{ runs | length + 1 }}">tool calls in order</th></tr>
<tr><td></td>{% for calls in call_lists %}<td><ol>{% for c in calls %}<li class="{{ 'bad' if c.is_error else '' }}">{{ c.tool }}</li>{% endfor %}</ol>{% if calls_left[loop.index0] %}<p class="muted">and {{ calls_left[loop.index0] }} more calls (on the run's page)</p>{% endif %}</td>{% endfor %}</tr>
</table>{% endif %}
{% endblock %}
"""

REPORT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ClawGym report</title><style>{{ css | safe }} section.run { border-top: 3px solid #24292f; margin-top: 30px; }</style></head>
<body><header class="top"><a href="#top">ClawGym report</a><span class="muted">{{ roots }} · written {{ written }}</span></header><main id="top">
{{ listing | safe }}
{% for g in groups %}<section class="run" id="group-{{ anchor(g.id) }}">{{ g.html | safe }}</section>{% endfor %}
{% for r in runs %}<section class="run">{{ r | safe }}</section>{% endfor %}
</main></body></html>
"""

TEMPLATES = {
    "base.html": BASE,
    "macros.html": MACROS,
    "list.html": LIST,
    "group.html": GROUP,
    "run.html": RUN,
    "run_body.html": RUN_BODY,
    "compare.html": COMPARE,
    "report.html": REPORT,
}
