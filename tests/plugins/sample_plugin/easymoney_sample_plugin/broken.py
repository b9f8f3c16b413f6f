"""A plugin module that fails to import: the registry must report it in one line and go on."""

raise ImportError("this sample plugin is broken on purpose")
