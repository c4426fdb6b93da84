"""The version of ctypes_safe: the distribution's, kept equal to ``urllib_parse_backport``'s.

Why: ctypes_safe never imports urllib_parse_backport (separate packages), so
it carries its own copy; tests/test_package.py checks that the two agree.
"""

__version__ = "1.0.0.dev0"
