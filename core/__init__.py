"""easymoney: play, script and simulate Easy Money (Milton Bradley, 1935) and its variants."""

__version__ = "0.1.0"
