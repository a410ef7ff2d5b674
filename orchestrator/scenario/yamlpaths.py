"""YAML loading that remembers where every value came from, for error messages with line numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

Path_ = tuple[str | int, ...]


class YamlFileError(ValueError):
    """A YAML file that cannot be read or parsed, with the line of the problem when known."""

    def __init__(self, path: Path, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


def load(path: Path) -> tuple[Any, dict[Path_, int]]:
    """The document's data and a map from each value's path to its 1-based line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise YamlFileError(path, None, f"cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise YamlFileError(path, line, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise YamlFileError(path, line, "holds a NUL byte; a scenario is a UTF-8 text file") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise YamlFileError(path, line, f"not valid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:  # e.g. a control character the YAML reader refuses
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc, yaml.reader.ReaderError) else None
        raise YamlFileError(path, line, f"not valid YAML: {exc}") from None
    lines: dict[Path_, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return data, lines


def _walk(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            child = (*path, key.value)
            lines[child] = key.start_mark.line + 1
            _walk(value, child, lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines)


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of `path`, or of its nearest ancestor that has one."""
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]


def dotted(path: Path_) -> str:
    """A YAML path as written in messages: `stages[0].checks[1].where`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(root)"
