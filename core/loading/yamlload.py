"""Strict YAML reading: YAML 1.2 scalars, no duplicate keys, bounded size, every value's position kept."""

from __future__ import annotations

import bisect
import math
import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import (CollectionEndEvent, CollectionStartEvent, MappingStartEvent, NodeEvent,
                         StreamEndEvent)
from yaml.nodes import Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader, ReaderError
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from ..errors import VariantError

MAX_BYTES = 1 << 20          # 1 MiB: no variant file comes near it
MAX_NODES = 100_000          # values after expanding aliases (an "alias bomb" stops here)
MAX_TEXT = 4 * MAX_BYTES     # characters of keys and scalars after expanding aliases: one long
                             # string aliased many times is few values but endless output
MAX_DEPTH = 64               # nesting of mappings and sequences
MAX_DIGITS = 100             # digits of one integer (Python refuses to read 4,300 and more)

Path = tuple[Any, ...]       # keys (str) and indices (int) from the document root

STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"

# The YAML 1.2 core schema, integers restricted to plain decimals.
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|false)$", re.IGNORECASE)
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
# What YAML 1.1 (and so many people) read as booleans; here they are plain strings.
YAML11_BOOLEANS = {"on": True, "off": False, "yes": True, "no": False, "y": True, "n": False}


def resolve_scalar(text: str) -> str:
    """The tag of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    if _NULL.match(text):
        return NULL
    if _BOOL.match(text):
        return BOOL
    if _INT.match(text):
        return INT
    if _FLOAT.match(text):
        return FLOAT
    return STR


def _float(text: str) -> float:
    low = text.lower()
    if low.endswith(".inf"):
        return -math.inf if low.startswith("-") else math.inf
    if low == ".nan":
        return math.nan
    return float(text)


def parse_scalar(text: str) -> Any:
    """A value typed on a command line, read as a plain YAML 1.2 scalar: `200` -> 200, `on` -> 'on'."""
    text = text.strip()
    tag = resolve_scalar(text)
    if tag == NULL:
        return None
    if tag == BOOL:
        return text.lower() == "true"
    if tag == INT:
        digits = len(text.lstrip("+-"))
        if digits > MAX_DIGITS:
            raise ValueError(f"number too long: found {digits} digits; expected at most "
                             f"{MAX_DIGITS} digits")
        return int(text)
    if tag == FLOAT:
        return _float(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


class _Resolver12(BaseResolver):
    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is ScalarNode:
            return resolve_scalar(value) if implicit[0] else STR
        return SEQ if kind is SequenceNode else MAP


class _PyComposer(Reader, Scanner, Parser, Composer, _Resolver12):
    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        _Resolver12.__init__(self)


try:  # libyaml composes five times faster; same nodes, same marks
    from yaml._yaml import CParser

    class _CComposer(CParser, _Resolver12):  # type: ignore[misc, valid-type]
        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            _Resolver12.__init__(self)

    _Composer: type = _CComposer
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Composer = _PyComposer


def format_path(path: Path) -> str:
    """`board.spaces[3].rent`, `modify.spaces["Dover Street"].price`; `(top level)` for ()."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", part):
            out += ("." if out else "") + part
        else:
            out += '["' + part.replace('"', '\\"') + '"]'
    return out or "(top level)"


def show_value(value: Any, limit: int = 60) -> str:
    """A value as an error message quotes it: 'text', 12, true, null, [1, 2], {a: 1}."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, float):
        text = {math.inf: ".inf", -math.inf: "-.inf"}.get(value, ".nan" if value != value else repr(value))
    elif isinstance(value, list):
        text = "[" + ", ".join(show_value(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {show_value(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = repr(value)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


@dataclass
class Loaded:
    """A YAML document as plain data, with the (line, col) of every value and mapping key (1-based)."""

    data: Any
    file: str
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int]:
        """Where the value at `path` is, or the nearest enclosing value that exists."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def key_position(self, path: Path) -> tuple[int, int]:
        """Where the key of the mapping entry at `path` is (its value's position for list items)."""
        path = tuple(path)
        return self.key_positions.get(path) or self.position(path)


def _error(message: str, file: str, line: int | None = None, col: int | None = None) -> VariantError:
    return VariantError(message, file=file, line=line, col=col)


def read_text(path: str, display: str | None = None) -> str:
    """The text of a file: at most MAX_BYTES, UTF-8; each failure a one-line VariantError."""
    shown = display or path
    if os.path.isdir(path):
        raise _error("cannot read: is a directory; expected a YAML file", shown)
    if not os.path.exists(path):
        raise _error("cannot read: no such file", shown)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device could block or never end
            raise _error("cannot read: not a regular file; expected a YAML file", shown)
        size = info.st_size
        if size > MAX_BYTES:
            raise _error(f"file too large: found {size} bytes; expected at most {MAX_BYTES} "
                         f"bytes (1 MiB)", shown)
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _error(f"cannot read: {exc.strerror or exc}", shown) from None
    if len(raw) > MAX_BYTES:
        raise _error(f"file too large: expected at most {MAX_BYTES} bytes (1 MiB)", shown)
    return decode(raw, shown)


def decode(raw: bytes, file: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise _error(f"not UTF-8 text: found byte 0x{raw[exc.start]:02x}; expected a UTF-8 "
                     f"encoded file", file, line, col) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_file(path: str, display: str | None = None) -> Loaded:
    """Read and load a YAML file (see `load_text`)."""
    shown = display or path
    return load_text(read_text(path, shown), shown)


def load_text(text: str, file: str = "<string>") -> Loaded:
    """Load one YAML document strictly. Raises VariantError located in `file`."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _error(f"file too large: expected at most {MAX_BYTES} bytes (1 MiB)", file)
    _check_depth(text, file)
    composer = _Composer(text)
    try:
        node = composer.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text, file) from None
    except ReaderError as exc:
        raise _reader_error(exc, text, file) from None
    except yaml.YAMLError as exc:
        raise _error(f"malformed YAML: {exc}", file) from None
    except RecursionError:
        raise _error(f"nesting too deep: expected at most {MAX_DEPTH} levels", file) from None
    finally:
        composer.dispose()
    if node is None:
        raise _error("empty file: found no YAML document; expected a mapping", file, 1, 1)
    loaded = Loaded(None, file)
    loaded.data = _Walker(loaded, text).walk(node, (), 0)
    return loaded


def _check_depth(text: str, file: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH on the event stream, before any node is composed.

    libyaml composes nodes recursively and checks its own nesting limit only afterwards:
    PyYAML 6.0.3 dies of a segmentation fault on 40,000 nested `[`. Parsing events is
    iterative, so counting the open collections there is safe. A malformed document stops
    the count: composing it then fails at the same place, no deeper than counted.
    """
    if not _deep_at(_Composer, text, file) and _Composer is not _PyComposer:
        # libyaml may stop early for a reason of its own (its 1,000-level limit, met while it
        # scans ahead, in PyYAML 6.0.4): the pure-Python parser counts on to our limit
        _deep_at(_PyComposer, text, file)


def _deep_at(parser_class: type, text: str, file: str) -> bool:
    """Raise at the first value nested too deep; False when the text does not parse."""
    try:
        parser = parser_class(text)  # the pure-Python reader checks the characters here
    except yaml.YAMLError:
        return False
    # per open collection: [a mapping?, its next value a key?]; a key is not a level of its own
    open_: list[list[bool]] = []
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, StreamEndEvent):
                return True
            if isinstance(event, NodeEvent):
                is_key = bool(open_) and open_[-1][0] and open_[-1][1]
                if open_ and open_[-1][0]:
                    open_[-1][1] = not open_[-1][1]
                if len(open_) > MAX_DEPTH and not (is_key and not isinstance(
                        event, CollectionStartEvent)):
                    line, col = _Lines(text).at(event.start_mark.index)
                    raise _error(f"nesting too deep: expected at most {MAX_DEPTH} levels",
                                 file, line, col)
                if isinstance(event, CollectionStartEvent):
                    open_.append([isinstance(event, MappingStartEvent), True])
            elif isinstance(event, CollectionEndEvent):
                open_.pop()
    except yaml.YAMLError:
        return False  # reported by the composer, with its location
    finally:
        parser.dispose()


_BREAK = re.compile(r"\r\n|\r|\n")
_NON_SPACE = re.compile(r"\S")


class _Lines:
    """A text's lines as an editor counts them (a line ends at \\n, \\r\\n or \\r, not at the
    U+0085 or U+2028 that YAML 1.1 also breaks at), and where a character index falls."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _BREAK.split(text)
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        if len(self.lines) > 1 and self.lines[-1] == "":  # a final break opens no line
            self.lines.pop()
            self.starts.pop()

    def at(self, index: int) -> tuple[int, int]:
        """1-based (line, col) of a character index; past the end: the end of the last line."""
        i = max(bisect.bisect_right(self.starts, index) - 1, 0)
        width = len(self.lines[i])
        return i + 1, min(index - self.starts[i], width) + 1

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


def _reader_error(exc: ReaderError, text: str, file: str) -> VariantError:
    """A character YAML does not allow (a control character), located by its position."""
    position = exc.position if isinstance(exc.position, int) else 0
    line, col = _Lines(text).at(position)
    char = exc.character
    shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return _error(f"unacceptable character: found {shown} ({exc.reason}); expected printable "
                  f"text (write a control character as an escape in a double-quoted string)",
                  file, line, col)


def _yaml_error(exc: yaml.MarkedYAMLError, text: str, file: str) -> VariantError:
    mark = exc.problem_mark or exc.context_mark
    lines = _Lines(text)
    line, col = lines.at(mark.index) if mark else (None, None)
    if line is not None:
        src = lines.line(line)
        indent = src[:len(src) - len(src.lstrip(" \t"))]
        if "\t" in indent or "\\t" in str(exc.problem) or "tab" in str(exc.problem):
            tab = src.find("\t")
            if tab >= 0:
                return _error("tab character in indentation: found a tab; expected spaces "
                              "(YAML indents with spaces only)", file, line, tab + 1)
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    if "maximum nesting depth" in problem:  # libyaml's own limit, met before ours
        return _error(f"nesting too deep: expected at most {MAX_DEPTH} levels", file, line, col)
    if context and not context.startswith("while"):
        problem = f"{context}, {problem}" if problem else context
        context = ""
    message = f"malformed YAML: {problem}" if problem else "malformed YAML"
    if context and exc.context_mark is not None and exc.context_mark is not mark:
        at = lines.at(exc.context_mark.index)
        message += f" ({context} at line {at[0]}, col {at[1]})"
    return _error(message, file, line, col)


class _Walker:
    """Turns a node graph into plain data, expanding aliases under the node and depth limits."""

    def __init__(self, loaded: Loaded, text: str) -> None:
        self.loaded = loaded
        self.text = _Lines(text)
        self.count = 0
        self.chars = 0
        self.top: Node | None = None  # the top-level value being read (where a bomb is reported)

    def place(self, node: Node) -> tuple[int, int]:
        """(line, col) of a node; the end of the last line for one that starts past it."""
        return self.text.at(node.start_mark.index)

    def fail(self, message: str, node: Node) -> VariantError:
        return _error(message, self.loaded.file, *self.place(node))

    def walk(self, node: Node, path: Path, depth: int) -> Any:
        self.count += 1
        if depth == 1:
            self.top = node
        if self.count > MAX_NODES:
            raise self.fail(f"too many values after expanding aliases: more than {MAX_NODES} "
                            f"(the limit; is this an alias bomb?)", self.top or node)
        if depth > MAX_DEPTH:
            raise self.fail(f"nesting too deep: expected at most {MAX_DEPTH} levels", node)
        self.loaded.positions[path] = self.place(node)
        if isinstance(node, ScalarNode):
            self.count_text(node)
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            if node.tag != SEQ:
                raise self.fail(f"unsupported tag: found {node.tag}; expected a plain sequence", node)
            return [self.walk(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if node.tag != MAP:
            raise self.fail(f"unsupported tag: found {node.tag}; expected a plain mapping", node)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise self.fail("mapping key: found a sequence or mapping; expected a string", key_node)
            self.count_text(key_node)
            key = self.scalar(key_node)
            if key == "<<" and not key_node.style:
                raise self.fail("merge keys ('<<') are not supported: found '<<'; expected the "
                                "keys written out, or an alias (*name) for the whole value", key_node)
            if getattr(node, "flow_style", None) and self._no_value(key_node, value_node):
                raise self.fail(f"{format_path(path)}: entry without a value: found "
                                f"{key_node.value!r}; expected KEY: VALUE (a ',' inside {{...}} "
                                f"separates entries: quote text that contains a comma)", key_node)
            if not isinstance(key, str):
                raise self.fail(f"mapping key: found {key_node.value}; expected a string "
                                f"(quote it: \"{key_node.value}\")", key_node)
            where = self.place(key_node)
            if key in result:
                first = self.loaded.key_positions[path + (key,)]
                raise self.fail(f"{format_path(path + (key,))}: duplicate key: found {key!r} a "
                                f"second time; expected each key once (first at line {first[0]}, "
                                f"col {first[1]})", key_node)
            self.loaded.key_positions[path + (key,)] = where
            result[key] = self.walk(value_node, path + (key,), depth + 1)
        return result

    def count_text(self, node: ScalarNode) -> None:
        self.chars += len(node.value)
        if self.chars > MAX_TEXT:
            raise self.fail(f"too much text after expanding aliases: more than {MAX_TEXT:,} "
                            f"characters (the limit; is one long value aliased many times?)",
                            self.top or node)

    def _no_value(self, key: Node, value: Node) -> bool:
        """`{a, b: 1}`: the flow entry `a` has no `:` at all (YAML reads it as `a: null`)."""
        if not (isinstance(value, ScalarNode) and value.tag == NULL and value.value == ""):
            return False
        found = _NON_SPACE.search(self.text.text, key.end_mark.index)
        return found is not None and found.group() in ",}"

    def scalar(self, node: ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == STR:
            return text
        if tag == NULL and _NULL.match(text):
            return None
        if tag == BOOL and _BOOL.match(text):
            return text.lower() == "true"
        if tag == INT and _INT.match(text):
            digits = len(text.lstrip("+-"))
            if digits > MAX_DIGITS:
                raise self.fail(f"number too long: found {digits} digits; expected at most "
                                f"{MAX_DIGITS} digits", node)
            return int(text)
        if tag == FLOAT and (_FLOAT.match(text) or _INT.match(text)):
            return _float(text)
        if tag in (NULL, BOOL, INT, FLOAT):
            raise self.fail(f"cannot read {text!r} as {tag.rsplit(':', 1)[-1]}", node)
        raise self.fail(f"unsupported tag: found {tag}; expected plain YAML values "
                        f"(no language-specific tags)", node)


class _Dumper(yaml.SafeDumper):
    """Safe output that reads back the same under YAML 1.1 and 1.2: quotes `on`, `1e3`, `0x1`."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        tag = super().resolve(kind, value, implicit)
        if kind is ScalarNode and implicit[0] and tag == STR and resolve_scalar(value) != STR:
            return resolve_scalar(value)
        return tag

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _flat(node: Node) -> bool:
    if isinstance(node, ScalarNode):
        return True
    if isinstance(node, SequenceNode):
        return (all(isinstance(item, ScalarNode) for item in node.value)
                and sum(len(item.value) + 2 for item in node.value) < 80)
    return all(isinstance(k, ScalarNode) and _flat(v) for k, v in node.value)


def _style(node: Node, depth: int, in_list: bool) -> None:
    if isinstance(node, ScalarNode):
        return
    # one line per space, card, side or rule options; lists of scalars inline
    # collection nodes (the only ones that reach here) have flow_style; Node's stub does not
    node.flow_style = (  # type: ignore[attr-defined]
        _flat(node) and (in_list or depth >= 2 or isinstance(node, SequenceNode)))
    if isinstance(node, SequenceNode):
        for item in node.value:
            _style(item, depth + 1, True)
    else:
        for _, value in node.value:
            _style(value, depth + 1, False)


def dump(data: Any) -> str:
    """Plain data as YAML that `load_text` reads back equal, in the data's own key order."""
    import io
    stream = io.StringIO()
    dumper = _Dumper(stream, default_flow_style=False, sort_keys=False, allow_unicode=True,
                     width=1 << 16)
    try:
        dumper.open()
        node = dumper.represent_data(data)
        _style(node, 0, False)
        dumper.serialize(node)
        dumper.close()
    finally:
        dumper.dispose()
    return stream.getvalue()
