"""The engine's own declarations: the `plain` space kind, a space where nothing happens."""

PLUGIN_ID = "core"
RULES: tuple[str, ...] = ()
ESSENTIAL = True
SPACE_KINDS: dict[str, dict[str, object]] = {"plain": {}}
