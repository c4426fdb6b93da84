"""The single source of the distribution's version (read by setup.py without importing it).

Every package's ``__version__`` is this one: they are one distribution.
"""

__version__ = "1.0.0.dev0"
