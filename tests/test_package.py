"""The installed distribution: what the tests import is the installed wheel."""

import os
import re
import subprocess
import sys

import ctypes_safe
import http_cookies_backport
import urllib_parse_backport


def test_tests_import_the_installed_package_not_the_source_tree():
    for module in (urllib_parse_backport, ctypes_safe, http_cookies_backport):
        path = os.path.abspath(module.__file__)
        assert "site-packages" in path, path
        assert os.sep + "src" + os.sep not in path, path


def test_one_version_for_the_distribution():
    # Two copies (neither package imports the other): they must not drift apart.
    assert re.match(r"^\d+\.\d+\.\d+", urllib_parse_backport.__version__)
    assert ctypes_safe.__version__ == urllib_parse_backport.__version__
    assert http_cookies_backport.__version__ == urllib_parse_backport.__version__


def test_neither_package_imports_the_other():
    for package, other in (("ctypes_safe", "urllib_parse_backport"),
                           ("urllib_parse_backport", "ctypes_safe")):
        code = "import sys, %s; print(%r in sys.modules)" % (package, other)
        env = dict((k, v) for k, v in os.environ.items()
                   if k not in ("CTYPES_SAFE_PATCH", "URLLIB_PARSE_BACKPORT_PATCH"))
        out = subprocess.check_output([sys.executable, "-c", code], env=env)
        assert out.strip() == b"False", package


def test_public_surface_is_listed():
    assert set(urllib_parse_backport.__all__) >= {"parse_qs", "parse_qsl", "__version__"}
    for name in urllib_parse_backport.__all__:
        assert getattr(urllib_parse_backport, name) is not None
