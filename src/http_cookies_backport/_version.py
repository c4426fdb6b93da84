"""The version of http_cookies_backport: the distribution's, kept equal to the other packages'.

Why: it imports neither other package, so it carries its own copy;
tests/test_package.py checks that the copies agree.
"""

__version__ = "1.0.0.dev0"
