"""The JSON Schema of variant files: generated from the plugins, shipped, and usable by any validator."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from easymoney.engine import core_plugin
from easymoney.engine.registry import Registry, discover, plugin_info
from easymoney.loading.schema import dumps, main as schema_main, variant_schema
from easymoney.loading.yamlload import load_file

ROOT = Path(__file__).parent.parent
SHIPPED = ROOT / "schemas" / "variant.schema.json"
VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))


@pytest.fixture(scope="module")
def schema():
    return variant_schema(discover(autoload=False))


def test_shipped_schema_is_the_generated_one(schema):
    # regenerate with: python -m easymoney.loading.schema > schemas/variant.schema.json
    assert SHIPPED.read_text(encoding="utf-8") == dumps(schema)


def test_regeneration_command_prints_it(schema, capsys):
    # `python -m easymoney.loading.schema` runs this main()
    assert schema_main() == 0
    assert json.loads(capsys.readouterr().out) == schema


def test_schema_is_draft_2020_12(schema):
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def _closed(node, path="#"):
    """Every object schema with properties is closed (additionalProperties: false)."""
    if isinstance(node, dict):
        if "properties" in node and path.split("/")[-1] not in ("properties",):
            if not path.endswith("/if") and "kind" not in path.split("/")[-2:]:
                yield path, node.get("additionalProperties")
        for key, value in node.items():
            yield from _closed(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _closed(value, f"{path}/{i}")


def test_objects_are_closed(schema):
    open_ones = [p for p, extra in _closed(schema)
                 if extra is not False and not p.endswith("items")  # spaces, cards: closed by then
                 and "/if" not in p]
    assert open_ones == []


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_shipped_variant_files_validate(schema, path):
    errors = list(Draft202012Validator(schema).iter_errors(load_file(str(path)).data))
    assert errors == []


def test_rules_have_one_property_per_plugin(schema):
    registry = discover(autoload=False)
    rules = schema["properties"]["rules"]
    assert list(rules["properties"]) == list(registry.plugins)
    assert rules["additionalProperties"] is False
    doubles = rules["properties"]["doubles"]
    assert doubles["type"] == ["boolean", "object"]
    assert doubles["then"]["properties"]["after_card"]["enum"] == ["backward", "forward"]
    validator = Draft202012Validator(rules)
    assert validator.is_valid({"doubles": {"after_card": "forward"}, "four_sides": False})
    assert not validator.is_valid({"doubles": {"after_card": "sideways"}})
    assert not validator.is_valid({"four_sides": "off"})
    assert not validator.is_valid({"four_side": True})


def test_best_match_names_the_right_kind(schema):
    doc = load_file(str(ROOT / "variants" / "standard.yaml")).data
    doc["board"]["spaces"][1]["prise"] = doc["board"]["spaces"][1].pop("price")
    error = best_match(Draft202012Validator(schema).iter_errors(doc))
    assert list(error.absolute_path) == ["board", "spaces", 1]
    assert "price" in error.message
    doc = load_file(str(ROOT / "variants" / "standard.yaml")).data
    doc["deck"][0]["kind"] = "advanse"
    error = best_match(Draft202012Validator(schema).iter_errors(doc))
    assert list(error.absolute_path) == ["deck", 0, "kind"]


def test_schema_follows_the_registry():
    module = types.ModuleType("fake", "A fake rule.")
    module.PLUGIN_ID = "fake"
    module.RULES = ("R900",)
    module.SPACE_KINDS = {"pit": {"properties": {"depth": {"type": "integer"}},
                                  "required": ["depth"]}}
    module.CARD_KINDS = {"jump": {}}
    module.OPTIONS = {"height": {"type": "integer", "default": 3}}
    registry = Registry()
    registry.add(plugin_info(core_plugin, "built-in"))
    registry.add(plugin_info(module, "test"))
    schema = variant_schema(registry)
    space = schema["properties"]["board"]["properties"]["spaces"]["items"]
    assert space["properties"]["kind"]["enum"] == ["plain", "pit"]
    pit = space["allOf"][1]["then"]
    assert pit["required"] == ["name", "kind", "depth"] and pit["additionalProperties"] is False
    card = schema["properties"]["deck"]["items"]
    assert card["properties"]["kind"]["enum"] == ["jump"]
    assert list(schema["properties"]["rules"]["properties"]) == ["core", "fake"]
    assert "A fake rule. (R900)" in schema["properties"]["rules"]["properties"]["fake"]["description"]


# ---------------------------------------------------------------- the built-in variants, checked ahead

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from easymoney.errors import VariantError  # noqa: E402
from easymoney.loading import prechecked  # noqa: E402
from easymoney.loading.checks import _plain_condition  # noqa: E402
from easymoney.loading.loader import load_variant  # noqa: E402
from easymoney.loading.make_checked import checked_data  # noqa: E402
from easymoney.loading.schema import validator_class  # noqa: E402

CHECKED = ROOT / "schemas" / prechecked.CHECKED


def test_the_shipped_checked_variants_are_those_the_schema_accepts_now():
    # regenerate with: python -m easymoney.loading.make_checked
    shipped = json.loads(CHECKED.read_text(encoding="utf-8"))
    assert shipped == checked_data(discover(autoload=False))
    assert len(shipped["documents"]) >= len(VARIANTS)


_IMPORTED = """
import sys
from easymoney.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("jsonschema" in sys.modules)
"""


@pytest.mark.parametrize("args", [["check", "standard"], ["check", "variants/standard.yaml"],
                                  ["check", "classic-1936", "no-four-sides", "reference-card"],
                                  ["play", "examples/01-first-turns.game"]])
@pytest.mark.parametrize("module", ["jsonschema", "yaml"])
def test_a_builtin_variant_is_not_checked_against_the_schema_again(args, module):
    # as a user runs it: without the tests' plugin site, whose plugins change the schema;
    # nor read with PyYAML (schemas/read-variants.json)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = _IMPORTED.replace('"jsonschema"', f'"{module}"')
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, cwd=ROOT, env=env)
    assert done.stdout.splitlines()[-1] == "False", done.stdout + done.stderr


def test_third_party_plugins_have_builtin_variants_checked_in_full():
    # the tests' plugin site installs plugins with options and kinds: another schema
    assert os.environ.get("PYTHONPATH")
    done = subprocess.run([sys.executable, "-c", _IMPORTED, "check", "standard"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.splitlines() == ["standard: ok", "True"], done.stderr


def test_an_edited_copy_is_checked_in_full_with_its_errors_located(tmp_path):
    text = (ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
    assert "starting_cash: 20000" in text
    copy = tmp_path / "mine.yaml"
    copy.write_text(text.replace("starting_cash: 20000", "starting_cash: 20000.5"), "utf-8")
    line = next(n for n, row in enumerate(copy.read_text().splitlines(), 1)
                if "starting_cash" in row)
    with pytest.raises(VariantError) as caught:
        load_variant(str(copy))
    assert caught.value.file == str(copy) and caught.value.line == line
    assert "wrong type" in caught.value.message and "an integer" in caught.value.message
    done = subprocess.run([sys.executable, "-m", "easymoney", "check", str(copy)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"{copy}:{line}:")


def test_an_unedited_copy_is_the_same_document(tmp_path):
    copy = tmp_path / "mine.yaml"
    copy.write_bytes((ROOT / "variants" / "standard.yaml").read_bytes())
    assert load_variant(str(copy)).document == load_variant("standard").document


def test_a_fingerprint_tells_types_and_order_apart():
    fp = prechecked.fingerprint
    assert fp({"a": 1}) != fp({"a": True}) != fp({"a": "1"}) != fp({"a": 1.0})
    assert fp({"a": 1, "b": 2}) != fp({"b": 2, "a": 1})
    assert fp([1, [2]]) != fp([[1], 2]) and fp({1: "a"}) != fp({"1": "a"})
    assert fp({"a": object()}) is None
    assert fp({"a": [1, {"b": None}]}) == fp({"a": [1, {"b": None}]})


def test_no_document_passes_ahead_under_another_schema(monkeypatch):
    registry = discover(autoload=False)
    doc = load_file(str(ROOT / "variants" / "standard.yaml")).data
    assert prechecked.passes_ahead(doc, registry)
    assert not prechecked.passes_ahead({**doc, "name": "mine"}, registry)
    monkeypatch.setattr(prechecked, "schema_fingerprint", lambda registry: "another schema")
    assert not prechecked.passes_ahead(doc, registry)
    monkeypatch.undo()
    monkeypatch.setattr(prechecked, "_shipped", lambda: ("", frozenset()))  # absent, damaged
    assert not prechecked.passes_ahead(doc, registry)


@pytest.mark.parametrize("cond", [{"type": "object"}, {"required": ["extends"]},
                                  {"type": "object", "required": ["a", "b"]},
                                  {"type": "array"}, {"type": "string", "required": ["a"]}])
def test_a_plain_condition_is_decided_as_jsonschema_decides_it(cond):
    for value in (None, True, 0, 1.5, "a", [], ["a"], {}, {"a": 1}, {"a": 1, "b": 2},
                  {"extends": "standard"}):
        assert _plain_condition(cond, value) == validator_class()(cond).is_valid(value), value
    assert _plain_condition({"type": "integer"}, 1) is None
    assert _plain_condition({"enum": [1]}, 1) is None


# ---------------------------------------------------------------- built-in texts read ahead

from easymoney.loading import yamlload  # noqa: E402
from easymoney.loading.make_checked import read_data  # noqa: E402
from easymoney.loading.yamlparse import compose  # noqa: E402

READ = ROOT / "schemas" / yamlload.READ


def _typed(loaded):
    return (prechecked.fingerprint(loaded.data), loaded.file, list(loaded.positions.items()),
            list(loaded.key_positions.items()))


def test_the_shipped_read_variants_are_what_reading_them_gives_now():
    # regenerate with: python -m easymoney.loading.make_checked
    assert json.loads(READ.read_text(encoding="utf-8")) == read_data()


@pytest.mark.parametrize("path", sorted((ROOT / "variants").glob("*.yaml")), ids=lambda p: p.name)
def test_a_builtin_text_read_ahead_is_what_pyyaml_reads(path):
    text = path.read_text(encoding="utf-8")
    ahead = yamlload.read_ahead(text.encode("utf-8"), "mine.yaml")
    assert ahead is not None
    assert _typed(ahead) == _typed(compose(text, "mine.yaml")) == _typed(
        yamlload.load_text(text, "mine.yaml"))
    ahead.data["name"] = "changed"  # values of its own: the next reading is not changed
    assert yamlload.read_ahead(text.encode("utf-8"), "x").data["name"] != "changed"


@pytest.mark.parametrize("shipped", [b"", b"not json at all", b'{"texts": {}}'])
def test_without_the_read_ahead_file_pyyaml_reads_the_same(monkeypatch, shipped):
    text = (ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
    before = _typed(yamlload.load_text(text, "s.yaml"))
    monkeypatch.setattr(yamlload, "_shipped", lambda: shipped)
    assert yamlload.read_ahead(text.encode("utf-8"), "s.yaml") is None
    assert _typed(yamlload.load_text(text, "s.yaml")) == before


def test_an_edited_builtin_text_is_read_by_pyyaml_with_its_errors_located(tmp_path):
    text = (ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
    copy = tmp_path / "mine.yaml"
    copy.write_text(text.replace("starting_cash: 20000", "starting_cash: [20000"), "utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "starting_cash" in row)
    with pytest.raises(VariantError) as caught:
        yamlload.load_file(str(copy))
    assert caught.value.file == str(copy) and caught.value.line is not None
    assert caught.value.line > line and "malformed YAML" in caught.value.message
