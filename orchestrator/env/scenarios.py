"""Scenarios as an env takes them: a loaded `Scenario`, a path to a YAML file, YAML text, or a released task's id
(`ambiguous-v2-1-00003`, drawn again from its release's row: `orchestrator.integrations.releases`); and the scenarios of
files and folders (the OpenEnv and verifiers adapters serve several); and `fresh`, tasks drawn now from a held-out
split of the generator under a secret seed (`orchestrator run --fresh`'s draw):

    draw = fresh("test", count=4, families=["travel"])  # draw.seed: give it again to draw the same tasks
    env = ClawGymEnv(); obs = await env.reset(draw.scenarios[0])

May import `orchestrator.scenario`, `orchestrator.env.errors`, `orchestrator.run.fresh` and
`orchestrator.integrations.releases`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from orchestrator.env.errors import EnvError
from orchestrator.scenario.model import Scenario, ScenarioError, load


def scenario_files(sources: Sequence[str | Path]) -> list[tuple[Path, Scenario]]:
    """Every scenario named by `sources` (files, or folders of `*.yaml`/`*.yml`), loaded, with its resolved path;
    an id given twice, an empty folder or a missing path is an `EnvError` naming it."""
    found: list[tuple[Path, Scenario]] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            files = sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml"))
            if not files:
                raise EnvError(f"{path}: no scenario (*.yaml) in this folder")
        elif path.is_file():
            files = [path]
        else:
            raise EnvError(f"{path}: no such scenario file or folder")
        for file in files:
            scenario = load_scenario(file)
            if any(scenario.id == seen.id for _, seen in found):
                raise EnvError(f"{file}: scenario id {scenario.id!r} is given twice")
            found.append((file.resolve(), scenario))
    if not found:
        raise EnvError("give at least one scenario file or folder")
    return found


LOADED_KEPT = 256
_loaded: OrderedDict[tuple[str, int, int], Scenario] = OrderedDict()
"""Scenario files loaded by this process, by path, modification time and size: an env resetting on the same file
parses it once (a file changed since is loaded again). Loaded scenarios are shared and never changed."""


def load_scenario(scenario: Scenario | str | Path) -> Scenario:
    """A `Scenario` from a loaded scenario, a path to a YAML file (loaded once while it is unchanged), or YAML text
    (text with a line break or `id:`)."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, str) and ("\n" in scenario or scenario.lstrip().startswith("id:")):
        with tempfile.TemporaryDirectory(prefix="clawgym-env-") as folder:
            path = Path(folder) / "scenario.yaml"
            path.write_text(scenario)
            try:
                return load(path)
            except ScenarioError as exc:
                raise EnvError(str(exc).replace(str(path), "<scenario text>")) from None
    if isinstance(scenario, (str, Path)):
        path = Path(scenario)
        if not path.is_file():
            if isinstance(scenario, str) and released_id(scenario):
                return load_released(scenario)
            raise EnvError(
                f"scenario {str(scenario)!r}: no such file (give a path, a Scenario, YAML text or a released task's id)"
            )
        info = path.stat()
        key = (str(path.resolve()), info.st_mtime_ns, info.st_size)
        if (loaded := _loaded.get(key)) is not None:
            _loaded.move_to_end(key)
            return loaded
        try:
            loaded = load(path)
        except ScenarioError as exc:
            raise EnvError(str(exc)) from None
        _loaded[key] = loaded
        while len(_loaded) > LOADED_KEPT:
            _loaded.popitem(last=False)
        return loaded
    raise EnvError(f"scenario: expected a path, a Scenario or YAML text, not {type(scenario).__name__}")


def released_id(text: str) -> bool:
    """Whether `text` is shaped like a released task's id (`ambiguous-v2-1-00003`)."""
    from orchestrator.integrations.releases import looks_like_id

    return looks_like_id(text)


RELEASED_KEPT = 32
_released: OrderedDict[tuple[str | None, str], Scenario] = OrderedDict()
"""Released tasks loaded by id in this process, the last `RELEASED_KEPT` (a large world's scenario is big)."""


def load_released(task_id: str, release: str | None = None) -> Scenario:
    """The scenario of a released task (`release`: v2, v3 …; None: the id's edition's release), drawn again from its
    row (well under a second for small and medium worlds) and kept for the next reset of the same id; an unknown id
    or release is an `EnvError` naming close ids."""
    from orchestrator.integrations import releases

    key = (release, task_id)
    if (loaded := _released.get(key)) is not None:
        _released.move_to_end(key)
        return loaded
    try:
        found, row = releases.find(task_id, release)
        loaded = releases.scenario(found, row)
    except releases.ReleaseError as exc:
        raise EnvError(str(exc)) from None
    _released[key] = loaded
    while len(_released) > RELEASED_KEPT:
        _released.popitem(last=False)
    return loaded


@dataclass
class FreshDraw:
    """Tasks `fresh` drew: the loaded scenarios, the seed that draws them again, and the folder holding their files."""

    scenarios: list[Scenario]
    seed: int
    folder: Path
    ids: list[str] = field(default_factory=list)


def fresh(
    split: str = "test",
    count: int = 10,
    seed: int | None = None,
    families: Sequence[str] | None = None,
    folder: str | Path | None = None,
) -> FreshDraw:
    """Draw `count` tasks of the generator's `split` (test: the held-out organizations and phrasings) now, each proven
    as it is drawn, under `seed` (None: a secret one, returned in `FreshDraw.seed`; the same seed, split, count and
    families draw the same tasks). Their files go into `folder` (None: a new temporary folder), which no agent sees;
    a split, family or draw that fails is an `EnvError`."""
    from orchestrator.run import fresh as drawing

    where = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="clawgym-fresh-"))
    try:
        drawn = drawing.draw(split, count, where, seed, list(families) if families else None)
    except drawing.FreshError as exc:
        if folder is None:  # the temporary folder made here holds nothing to keep
            shutil.rmtree(where, ignore_errors=True)
        raise EnvError(str(exc)) from None
    return FreshDraw([load_scenario(f) for f in drawn.files], drawn.seed, where, drawn.ids)
