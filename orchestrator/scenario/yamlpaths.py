"""YAML loading that remembers where every value came from, for error messages with line numbers.

A file is read within bounds set before and while it is parsed: a regular file (never a FIFO or a device, which
could hang or never end) of at most `MAX_FILE_BYTES`, nested at most `MAX_DEPTH` deep (checked on the parser's
events, before anything is built) and at most `MAX_NODES` values once every alias is expanded (counted on the
node graph, where an alias is still one shared node): an alias bomb is a clear error at once.
"""

from __future__ import annotations

import os
import stat
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


MAX_FILE_BYTES = 10_000_000
"""The largest scenario or seed file read, in bytes. The largest generated world (edition 2, large) makes a scenario of
about 6 MB, which loads in about 1.3 s of CPU (`scenario.load`); a larger file is refused by its size before a byte of
it is parsed."""
MAX_DEPTH = 100
"""How deeply a file's mappings and lists may nest."""
MAX_NODES = 1_000_000
"""How many values a file may hold once its aliases (`*name`) are expanded."""


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of `path` when it is a regular file of at most `limit` bytes; else a YamlFileError saying what it
    is. A FIFO is opened without blocking and refused, as is a device such as /dev/zero."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise YamlFileError(path, None, f"cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = (
                "a FIFO"
                if stat.S_ISFIFO(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket"
                if stat.S_ISSOCK(mode)
                else "not a regular file"
            )
            raise YamlFileError(path, None, f"is {kind}; expected a regular file")
        size = os.fstat(fd).st_size
        if size > limit:
            raise YamlFileError(path, None, _too_large(size, limit))
        try:
            raw = file.read(limit + 1)
        except OSError as exc:
            raise YamlFileError(path, None, f"cannot read: {exc.strerror}") from None
    if len(raw) > limit:  # it grew while read
        raise YamlFileError(path, None, _too_large(len(raw), limit))
    return raw


def _too_large(size: int, limit: int) -> str:
    more = "at least " if size == limit + 1 else ""
    return f"is {more}{size:,} bytes: larger than {limit:,} bytes, the limit for a scenario or seed file"


FAST_LOADER: type[yaml.SafeLoader] | None = getattr(yaml, "CSafeLoader", None)
"""libyaml's parser with the same safe constructor, when PyYAML was built with it: a file is parsed in C; one it
refuses is parsed again by the pure-Python parser, whose words the error gives (`load`)."""


def _check_depth(text: str, path: Path, loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> bool:
    """Refuse nesting deeper than `MAX_DEPTH` from the parser's events, before any node is built (PyYAML builds
    nodes recursively: a deep file would exhaust the stack). True when the document is a plain tree: no alias
    (`*name`) and at most `MAX_NODES` values, so that it needs no expansion check (`_check_expansion`)."""
    depth = 0
    values = 0
    aliases = False
    collection_start, collection_end = yaml.CollectionStartEvent, yaml.CollectionEndEvent
    node_event, alias_event = yaml.NodeEvent, yaml.AliasEvent
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, node_event):
            if isinstance(event, alias_event):
                aliases = True
                continue
            values += 1
            if isinstance(event, collection_start):
                depth += 1
                if depth > MAX_DEPTH:
                    line = event.start_mark.line + 1 if event.start_mark else None
                    raise YamlFileError(path, line, f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, collection_end):
            depth -= 1
    return not aliases and values <= MAX_NODES


def _check_expansion(root: yaml.Node, path: Path) -> None:
    """Refuse a document of more than `MAX_NODES` values with its aliases expanded, counting each shared node's
    size once (no expansion happens), and an alias that contains itself."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_.discard(key)
            children = _children(node)
            sizes[key] = min(1 + sum(sizes[id(c)] for c in children), MAX_NODES + 1)
            if sizes[key] > MAX_NODES:
                raise YamlFileError(
                    path,
                    node.start_mark.line + 1,
                    f"holds more than {MAX_NODES:,} values once its "
                    "aliases (*name) are expanded; an alias bomb is not a scenario",
                )
            continue
        if key in sizes:
            continue
        if key in open_:
            raise YamlFileError(path, node.start_mark.line + 1, "an alias (*name) refers to a value that contains it")
        open_.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [item for pair in node.value for item in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def load(path: Path) -> tuple[Any, dict[Path_, int]]:
    """The document's data and a map from each value's path to its 1-based line, within the module's bounds."""
    raw = read_regular(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise YamlFileError(path, line, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise YamlFileError(path, line, "holds a NUL byte; a scenario is a UTF-8 text file") from None
    try:
        if FAST_LOADER is None or yaml.reader.Reader.NON_PRINTABLE.search(text):
            data, lines = _compose(text, path, yaml.SafeLoader)
        else:
            try:
                data, lines = _compose(text, path, FAST_LOADER)
            except yaml.YAMLError:  # not valid YAML: read again in pure Python, for the same error as ever
                data, lines = _compose(text, path, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        at = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise YamlFileError(path, at, f"not valid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:  # e.g. a control character the YAML reader refuses
        at = text.count("\n", 0, exc.position) + 1 if isinstance(exc, yaml.reader.ReaderError) else None
        raise YamlFileError(path, at, f"not valid YAML: {exc}") from None
    return data, lines


def _compose(text: str, path: Path, loader_class: type[yaml.SafeLoader]) -> tuple[Any, dict[Path_, int]]:
    """The document's data and the line of each value's path, read by `loader_class` within `MAX_DEPTH` and
    `MAX_NODES`. A plain tree (no alias, the common case) is built in one walk that also records the lines; a
    document with aliases is checked for its expanded size and built by the loader's own constructor."""
    built = _from_events(text, path, loader_class)
    if built is not None:
        return built
    tree = _check_depth(text, path, loader_class)
    loader = loader_class(text)
    lines: dict[Path_, int] = {}
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines
        if tree:
            return _build(loader, node, (), lines), lines
        _check_expansion(node, path)
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    _walk(node, (), lines)
    return data, lines


_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE_OR_VALUE = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")


class _NotPlain(Exception):
    """A document `_from_events` leaves to the composer and the constructor: an alias, an explicit tag on a
    mapping or a list, a key that is not a scalar, a merge key, more than one document, or an error to report."""


def _from_events(text: str, path: Path, loader_class: type[yaml.SafeLoader]) -> tuple[Any, dict[Path_, int]] | None:
    """The document's data and lines built straight from the parser's events, checking its depth as they come
    (no node graph, no second parse): what the loader's safe constructor and `_walk` make of a plain tree, the
    common case of a large scenario. None for any other document (`_NotPlain`), which `_compose` reads as ever."""
    builder = loader_class("")
    try:
        return _events_tree(text, path, loader_class, builder)
    except (_NotPlain, yaml.YAMLError):
        return None
    finally:
        builder.dispose()


def _events_tree(
    text: str, path: Path, loader_class: type[yaml.SafeLoader], builder: yaml.SafeLoader
) -> tuple[Any, dict[Path_, int]]:
    resolvers = loader_class.yaml_implicit_resolvers
    wildcard = resolvers.get(None, [])
    if loader_class.yaml_path_resolvers:
        raise _NotPlain
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    mapping_end, sequence_end, document_start = yaml.MappingEndEvent, yaml.SequenceEndEvent, yaml.DocumentStartEvent
    lines: dict[Path_, int] = {}
    # each open collection: [its value, its path, whether a mapping, the pending key's (value, raw text) or None]
    stack: list[list[Any]] = []
    root: Any = None
    values = documents = 0
    for event in yaml.parse(text, Loader=loader_class):
        kind = type(event)
        if kind is scalar_event:
            raw = event.value
            tag = event.tag
            if tag is None or tag == "!":
                tag = _STR
                if event.implicit[0]:
                    for resolved, regexp in resolvers.get(raw[:1], []) + wildcard:
                        if regexp.match(raw):
                            tag = resolved
                            break
            if stack and stack[-1][2] and stack[-1][3] is None:  # a mapping's key
                if tag in _MERGE_OR_VALUE:
                    raise _NotPlain
                top = stack[-1]
                key = raw if tag == _STR else _scalar(builder, tag, event)
                top[3] = (key, raw)
                lines[(*top[1], raw)] = event.start_mark.line + 1
                values += 1
                continue
            value: Any = raw if tag == _STR else _scalar(builder, tag, event)
        elif kind is mapping_start or kind is sequence_start:
            tag = event.tag
            if tag is not None and tag != "!" and tag != (_MAP if kind is mapping_start else _SEQ):
                raise _NotPlain
            if len(stack) >= MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else None
                raise YamlFileError(path, line, f"nested more than {MAX_DEPTH} levels deep")
            if stack and stack[-1][2] and stack[-1][3] is None:
                raise _NotPlain  # a mapping or a list as a key
            value = {} if kind is mapping_start else []
        elif kind is mapping_end or kind is sequence_end:
            stack.pop()
            continue
        elif kind is alias_event:
            raise _NotPlain
        elif kind is document_start:
            documents += 1
            if documents > 1:
                raise _NotPlain
            continue
        else:
            continue
        values += 1
        if values > MAX_NODES:
            raise _NotPlain
        line = event.start_mark.line + 1
        if not stack:
            at: Path_ = ()
            root = value
        else:
            top = stack[-1]
            if top[2]:
                key, raw_key = top[3]
                top[3] = None
                at = (*top[1], raw_key)
                top[0][key] = value
            else:
                at = (*top[1], len(top[0]))
                top[0].append(value)
        lines.setdefault(at, line)
        if kind is mapping_start or kind is sequence_start:
            stack.append([value, at, kind is mapping_start, None])
    return root, lines


def _scalar(builder: yaml.SafeLoader, tag: str, event: yaml.ScalarEvent) -> Any:
    """A scalar of another tag than a plain string (a number, a date, null …), as the constructor builds it."""
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
    value = builder.construct_object(node, deep=True)
    builder.constructed_objects.clear()
    return value


def _build(loader: yaml.SafeLoader, node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> Any:
    """`node`'s value as the loader's safe constructor builds it, and the lines of its paths as `_walk` records
    them, in one walk of a tree without aliases. Plain strings, mappings with plain string keys and lists are
    built here; every other node (a number, a date, a merge key `<<`, a set …) by the loader itself."""
    lines.setdefault(path, node.start_mark.line + 1)
    tag = node.tag
    if tag == _STR and isinstance(node, yaml.ScalarNode):
        return node.value
    if tag == _MAP and isinstance(node, yaml.MappingNode):
        if all(k.tag == _STR and isinstance(k, yaml.ScalarNode) for k, _ in node.value):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                child = (*path, key_node.value)
                lines[child] = key_node.start_mark.line + 1
                out[key_node.value] = _build(loader, value_node, child, lines)
            return out
    elif tag == _SEQ and isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, (*path, index), lines) for index, item in enumerate(node.value)]
    value = loader.construct_document(node)
    _walk(node, path, lines)
    return value


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
