"""The distribution's version, which the package's public __version__ names."""

from _cpython_security._version import __version__

__all__ = ["__version__"]
