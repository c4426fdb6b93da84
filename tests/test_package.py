"""The installed distribution: what the tests import is the installed wheel."""

import importlib
import os
import re
import subprocess
import sys

from internals import BY_PACKAGE, PACKAGES

MODULES = [importlib.import_module(package) for package in PACKAGES]


def test_tests_import_the_installed_package_not_the_source_tree():
    for module in MODULES:
        path = os.path.abspath(module.__file__)
        assert "site-packages" in path, path
        assert os.sep + "src" + os.sep not in path, path


def test_one_version_for_the_distribution():
    assert re.match(r"^\d+\.\d+\.\d+", MODULES[0].__version__)
    assert [module.__version__ for module in MODULES] == [MODULES[0].__version__] * len(MODULES)


def test_no_package_imports_another():
    variables = set(["CPYTHON_SECURITY_PATCH"] + [fix.variable for fix in BY_PACKAGE.values()])
    env = dict((k, v) for k, v in os.environ.items() if k not in variables)
    for package in PACKAGES:
        others = [other for other in PACKAGES if other != package]
        code = "import sys, %s; print([n for n in %r if n in sys.modules])" % (package, others)
        out = subprocess.check_output([sys.executable, "-c", code], env=env)
        assert out.strip() == b"[]", package


def test_public_surface_is_listed():
    # The public face every fix package has; each has its own names besides.
    for module in MODULES:
        assert set(module.__all__) >= set(["patch", "unpatch", "is_patched", "status",
                                           "PatchReport", "__version__"]), module
        for name in module.__all__:
            assert getattr(module, name) is not None
