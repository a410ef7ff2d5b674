"""Scenarios as an env takes them: a loaded `Scenario`, a path to a YAML file, or YAML text; and the scenarios of
files and folders (the OpenEnv and verifiers adapters serve several).

May import `orchestrator.scenario` and `orchestrator.env.errors`.
"""

from __future__ import annotations

import tempfile
from collections import OrderedDict
from collections.abc import Sequence
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
            raise EnvError(f"scenario {str(scenario)!r}: no such file (give a path, a Scenario, or YAML text)")
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
