"""The single source of the distribution's version (read by setup.py)."""

__version__ = "1.0.0.dev0"
