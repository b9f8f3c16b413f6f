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
