"""Released task sets loaded by id: a row of a committed manifest (`releases/v2/tasks.jsonl.gz`, v3 …) drawn again
from its family and draw index, without regenerating the family (`orchestrator tasks get`, `export-tasks --release`,
the env API's `reset("ambiguous-v2-1-00003")`).

A release is a JSON file of `releases/` (`v2.json`, `v2-preview.json`, `v3.json` …) naming its manifest and the
`orchestrator generate` options it was drawn with (seed, size, edition, knobs). A row's scenario is the family's draw
number `index` under those options (`orchestrator.generate.drawing.draw`, no proofs): the same bytes the release
command wrote. `scenario_text` checks them against the row's `content_hash`, and `scenario` (which skips the YAML)
against every other field of the row, so a generator that draws differently since the release is an error naming the
row, never a silent other task.

    release = load("v2")
    row = release.row("ambiguous-v2-1-00003")       # ReleaseError naming close ids when unknown
    text = scenario_text(release, row)              # the scenario file's text, byte for byte
    loaded = scenario(release, row)                 # an orchestrator.scenario.Scenario, no YAML written

Splits (`select`): `train`, `test` (test-ood apart), `test-ood`, and `core`, the small part of test, which never
includes test-ood.

May import: `orchestrator.generate` modules and `orchestrator.scenario`.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

RELEASES_DIR = Path(__file__).resolve().parents[2] / "releases"
"""Where the committed releases are (`releases/` of this checkout)."""
TASK_ID = re.compile(r"^(?P<family>[a-z0-9][a-z0-9-]*?)-v(?P<edition>[0-9]+)-(?P<seed>[0-9]+)-(?P<index>[0-9]{5,})$")
"""A released task's id: family, edition, seed and draw index (`ambiguous-v2-1-00003`)."""
SPLITS = ("train", "test", "core", "test-ood")


class ReleaseError(ValueError):
    """A release or a row that cannot be loaded: an unknown release or id, a missing manifest, a draw that differs
    from its row; the message names it."""


def names() -> list[str]:
    """The releases this checkout commits with a manifest (`v2`, `v2-preview`, `v3` …)."""
    found = []
    for path in sorted(RELEASES_DIR.glob("*.json")):
        try:
            manifest = json.loads(path.read_text(encoding="utf-8")).get("manifest")
        except (OSError, ValueError):
            continue
        if manifest and (path.parent / manifest).is_file():
            found.append(path.stem)
    return found


def looks_like_id(text: str) -> bool:
    """Whether `text` has the shape of a released task's id (edition 2 on)."""
    return TASK_ID.match(text) is not None


@dataclass
class Release:
    """One committed release: its name, options and manifest (read once, on first use)."""

    name: str
    path: Path
    options: dict[str, Any]
    manifest: Path
    _text: str | None = field(default=None, repr=False)
    _rows: list[dict[str, Any]] | None = field(default=None, repr=False)

    def text(self) -> str:
        if self._text is None:
            raw = self.manifest.read_bytes()
            self._text = (gzip.decompress(raw) if self.manifest.suffix == ".gz" else raw).decode("utf-8")
        return self._text

    def rows(self) -> list[dict[str, Any]]:
        """Every row, in manifest order."""
        if self._rows is None:
            self._rows = [json.loads(line) for line in self.text().splitlines() if line.strip()]
        return self._rows

    def ids(self) -> list[str]:
        return re.findall(r'"id": "([^"]+)"', self.text())

    def row(self, task_id: str) -> dict[str, Any]:
        """The row of `task_id` (found without parsing the other rows); unknown: a `ReleaseError` naming close ids."""
        text = self.text()
        at = text.find(f'"id": {json.dumps(task_id)},')
        if at < 0:
            close = difflib.get_close_matches(task_id, self._candidates(task_id), n=3, cutoff=0.6)
            hint = f"; close ids: {', '.join(close)}" if close else ""
            raise ReleaseError(f"{task_id!r}: no such task in release {self.name} ({self.manifest.name}){hint}")
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        return json.loads(text[start : end if end >= 0 else None])

    def _candidates(self, task_id: str) -> list[str]:
        ids = self.ids()
        found = TASK_ID.match(task_id)
        if found:  # the same family first: difflib over 20,000 ids is slow, over one family's 1,000 it is not
            same = [i for i in ids if i.startswith(found["family"] + "-")]
            if same:
                return same
        return ids


def load(name: str) -> Release:
    """The release called `name` (`v2`, `v3`, `v2-preview` …) or the release file at that path."""
    return _load(str(name))


@cache
def _load(name: str) -> Release:
    path = Path(name) if name.endswith(".json") else RELEASES_DIR / f"{name}.json"
    if not path.is_file():
        known = names()
        raise ReleaseError(
            f"release {name!r}: no such release (known: {', '.join(known) or 'none'}; or give a release file)"
        )
    data = json.loads(path.read_text(encoding="utf-8"))
    if not data.get("manifest"):
        raise ReleaseError(
            f"release {name!r} ({path}) commits no manifest: its tasks are generated with `{data.get('command')}`"
        )
    manifest = path.parent / data["manifest"]
    if not manifest.is_file():
        raise ReleaseError(f"release {name!r}: its manifest {manifest} is missing")
    return Release(path.stem, path, dict(data["options"]), manifest)


def release_of(task_id: str, name: str | None = None) -> Release:
    """The release holding `task_id`: `name` when given, else the release of the id's edition (`-v2-`: v2), or its
    preview when only that is written."""
    if name:
        return load(name)
    found = TASK_ID.match(task_id)
    if found is None:
        raise ReleaseError(
            f"{task_id!r}: not a released task id (family-vEDITION-SEED-INDEX, e.g. ambiguous-v2-1-00003)"
        )
    edition = f"v{int(found['edition'])}"
    for candidate in (edition, f"{edition}-preview"):
        if candidate in names():
            return load(candidate)
    raise ReleaseError(f"{task_id!r}: no release of edition {edition[1:]} is committed (known: {', '.join(names())})")


def find(task_id: str, name: str | None = None) -> tuple[Release, dict[str, Any]]:
    """The release and the row of `task_id`."""
    release = release_of(task_id, name)
    return release, release.row(task_id)


def select(
    release: Release, split: str | None = None, family: str | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """The release's rows of a split (`core`: the core part of test, never test-ood) and family, the first `limit`."""
    if split is not None and split not in SPLITS:
        raise ReleaseError(f"--split {split!r}: expected one of {', '.join(SPLITS)}")
    rows = release.rows()
    if family is not None:
        rows = [r for r in rows if r["family"] == family]
        if not rows:
            known = sorted({r["family"] for r in release.rows()})
            raise ReleaseError(f"--family {family!r}: not a family of release {release.name} ({', '.join(known)})")
    rows = [r for r in rows if in_split(r, split)]
    return rows[:limit] if limit is not None else rows


def in_split(row: dict[str, Any], split: str | None) -> bool:
    """Whether a row is of `split` (None: any; `core`: the core part of test, never test-ood)."""
    if split is None:
        return True
    if split == "core":
        return bool(row.get("core")) and row["split"] != "test-ood"
    return row["split"] == split


def draw(release: Release, row: dict[str, Any]) -> Any:
    """The row's task (`orchestrator.generate.family.Task`), drawn again from its family and index."""
    from orchestrator.generate import drawing  # noqa: PLC0415

    _faster_fakers()
    options = release.options
    family = _family(row["family"])
    if family is None:
        raise ReleaseError(f"{row['id']}: family {row['family']!r} is not one this generator draws")
    edition = options.get("edition", 1)
    task = drawing.draw(
        family(),
        options["seed"],
        options.get("size") or "small",
        row["index"],
        dict(options.get("knobs") or {}),
        edition=edition,
    )
    if task is None or task.id != row["id"]:
        raise ReleaseError(f"{row['id']}: draw {row['index']} of {row['family']} is not this task any more")
    return task


def _family(name: str) -> Any:
    """The family class called `name`: its own module imported when it is named after the family (a tenth of the
    time of importing every family), else every family."""
    import importlib  # noqa: PLC0415

    from orchestrator.generate import family  # noqa: PLC0415

    if name not in family.FAMILIES:
        try:
            importlib.import_module(f"orchestrator.generate.families.{name.replace('-', '_')}")
        except ImportError:
            pass
    if name not in family.FAMILIES:
        family.families()
    return family.FAMILIES.get(name)


def _same_row(release: Release, row: dict[str, Any], task: Any, text: str | None) -> None:
    drawn = task.manifest_row(text if text is not None else "")
    fields = sorted(
        k for k in set(row) | set(drawn) if (text is not None or k != "content_hash") and row.get(k) != drawn.get(k)
    )
    if fields:
        raise ReleaseError(
            f"{row['id']}: drawn again, it differs from release {release.name}'s row in {', '.join(fields)} "
            "(the generator draws differently since the release was written)"
        )


def scenario_text(release: Release, row: dict[str, Any], task: Any = None) -> str:
    """The row's scenario file, byte for byte as the release command wrote it (checked against `content_hash`;
    `task`: the row's task when already drawn)."""
    task = task if task is not None else draw(release, row)
    text = dump_yaml(task.scenario)
    if hashlib.sha256(text.encode()).hexdigest() != row["content_hash"]:
        text = task.yaml()  # the generator's own dump, should the fast one ever differ
    _same_row(release, row, task, text)
    return text


def scenario(release: Release, row: dict[str, Any]) -> Any:
    """The row's scenario, loaded from the drawn data (no YAML written); every field of the row but its content hash
    is checked against the draw."""
    from orchestrator.scenario.model import ScenarioError, load_data  # noqa: PLC0415

    task = draw(release, row)
    _same_row(release, row, task, None)
    try:
        return load_data(task.scenario, f"{row['id']}.yaml")
    except ScenarioError as exc:
        raise ReleaseError(f"{row['id']}: the drawn scenario does not load: {exc}") from None


def rows_with_text(release: Release, rows: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each row with its scenario file's text, in order."""
    for row in rows:
        yield row, scenario_text(release, row)


# -- the scenario file's YAML, faster ---------------------------------------------------------------------------------


def dump_yaml(data: Any) -> str:
    """`orchestrator.generate.family.dump_yaml`'s bytes, in a third of its time on large worlds: plain data is turned
    into YAML nodes by one function (not the representer's per-node dispatch), and the resolver's answers for plain
    scalars are remembered. The emitter, and so every byte, is the generator's (`scenario_text` checks the hash)."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode  # noqa: PLC0415

    dumper_class = _fast_dumper()
    stream = io.StringIO()
    dumper = dumper_class(stream, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)

    def node(value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return ScalarNode(_STR, value, style="|" if "\n" in value else None)
        if kind is dict:
            return MappingNode(_MAP, [(node(k), node(v)) for k, v in value.items()], flow_style=False)
        if kind is list:
            return SequenceNode(_SEQ, [node(v) for v in value], flow_style=False)
        if kind is bool:
            return ScalarNode(_BOOL, "true" if value else "false")
        if kind is int:
            return ScalarNode(_INT, str(value))
        if value is None:
            return ScalarNode(_NULL, "null")
        return dumper.represent_data(value)  # floats, dates …: the representer's own rules

    try:
        dumper.open()
        dumper.serialize(node(data))
        dumper.close()
    finally:
        dumper.dispose()
    return stream.getvalue()


_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_BOOL, _INT, _NULL = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:null"
_RESOLVED_KEPT = 200_000


@cache
def _fast_dumper() -> type:
    from yaml.nodes import ScalarNode  # noqa: PLC0415

    from orchestrator.generate.family import _Dumper  # noqa: PLC0415

    resolved: dict[str, str] = {}

    class FastDumper(_Dumper):  # the generator's dumper class, picked at run time
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode:
                if not implicit[0]:  # quoted: no implicit resolver applies, no path resolvers are registered
                    return _STR
                tag = resolved.get(value)
                if tag is None:
                    tag = super().resolve(kind, value, implicit)
                    if len(resolved) < _RESOLVED_KEPT:
                        resolved[value] = tag
                return tag
            return super().resolve(kind, value, implicit)

    return FastDumper


@cache
def _faster_fakers() -> None:
    """Faker lists its provider modules on the file system for every `Faker(locale)`; a world of many offices makes
    a dozen. The listing of a module does not change while the process runs, so it is listed once."""
    try:
        import faker.factory  # noqa: PLC0415
    except ImportError:  # pragma: no cover - faker is a dependency of the generator
        return
    listing = faker.factory.list_module
    if not hasattr(listing, "cache_info"):
        faker.factory.list_module = cache(listing)
