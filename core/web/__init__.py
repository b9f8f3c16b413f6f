"""`easymoney serve`: play, watch and step through games in a browser (needs the `web` extra)."""

from __future__ import annotations

INSTALL_WEB = "pip install 'easymoney-game[web]'"
