"""Reading YAML with PyYAML: YAML 1.2 scalars, no duplicate keys, bounded nesting and size,
every value's position kept; and writing it back (`dump`). What the loader calls is
easymoney.loading.yamlload."""

from __future__ import annotations

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
from .yamltext import (BOOL, FLOAT, INT, MAP, MAX_DEPTH, MAX_DIGITS, MAX_NODES, MAX_TEXT, NULL,
                       SEQ, STR, _BOOL, _FLOAT, _INT, _NON_SPACE, _NULL, Loaded, Path, _error,
                       _float, _Lines, format_path, resolve_scalar)


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


def compose(text: str, file: str) -> Loaded:
    """Read one YAML document strictly (PyYAML, libyaml when built with it). Raises
    VariantError located in `file`."""
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
