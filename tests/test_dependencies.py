"""A missing framework that this environment's requirements list fails; one they
do not list skips (tests/helpers/dependencies.py).

Shown on a tiny sample run by pytest in a child process, with
``BACKPORT_TEST_REQUIREMENTS`` naming a requirements file that lists a
distribution no index has: listed, the test fails; listed behind an
environment marker false here, or not listed, it skips.
"""

import os
import re
import subprocess
import sys

import dependencies

HELPERS = os.path.dirname(os.path.abspath(dependencies.__file__))
ROOT = dependencies.ROOT

SAMPLE = """
from dependencies import importorskip, missing

def test_needs_the_framework():
    importorskip("no_such_framework_h38")

def test_finds_it_missing_itself():
    missing("no_such_framework_h38.web")
"""

MODULE_LEVEL = """
from dependencies import importorskip
importorskip("no_such_framework_h38")

def test_never_collected_without_it():
    pass
"""


def _run(tmpdir, sample, requirement):
    folder = str(tmpdir)
    with open(os.path.join(folder, "test_sample.py"), "w") as handle:
        handle.write(sample)
    environ = dict(os.environ, PYTHONPATH=HELPERS, PYTHONDONTWRITEBYTECODE="1")
    environ.pop(dependencies.VARIABLE, None)
    if requirement is not None:
        listing = os.path.join(folder, "frameworks.txt")
        with open(listing, "w") as handle:
            handle.write("# a framework no index has\n%s\n" % requirement)
        environ[dependencies.VARIABLE] = "-r tests/requirements/test.txt\n-r " + listing
    process = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
                                "test_sample.py"], cwd=folder, env=environ,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
    out = process.communicate()[0]
    return process.returncode, out


def _counts(out):
    return dict((word, int(n)) for n, word in re.findall(r"(\d+) (failed|passed|skipped|error)",
                                                         out.splitlines()[-1]))


def test_a_listed_framework_that_is_missing_fails(tmpdir):
    code, out = _run(tmpdir, SAMPLE, "no-such-framework-h38==1.0")
    assert code == 1 and _counts(out) == {"failed": 2}, out
    assert "frameworks.txt lists no-such-framework-h38 for this interpreter" in out, out


SUBMODULE = """
from dependencies import importorskip, missing

def test_needs_a_module_this_version_lacks():
    importorskip("json.no_such_module_h38")

def test_finds_a_module_this_version_lacks_itself():
    missing("json.no_such_module_h38")
"""


def test_a_listed_framework_whose_version_lacks_a_module_skips(tmpdir):
    # As Django 1.11 and 2.2 (pinned for 3.6-3.7 and 3.9) have no ASGI handler:
    # the distribution is installed, so the promise holds.
    code, out = _run(tmpdir, SUBMODULE, "json==1.0")
    assert code == 0 and _counts(out) == {"skipped": 2}, out
    assert "json has no json.no_such_module_h38 in the version installed" in out, out


def test_a_framework_listed_for_other_interpreters_only_skips(tmpdir):
    code, out = _run(tmpdir, SAMPLE, 'No_Such.Framework_h38==1.0; python_version < "2"')
    assert code == 0 and _counts(out) == {"skipped": 2}, out


def test_without_the_variable_a_missing_framework_skips(tmpdir):
    code, out = _run(tmpdir, SAMPLE, None)
    assert code == 0 and _counts(out) == {"skipped": 2}, out


def test_a_listed_framework_missing_at_module_level_fails_the_collection(tmpdir):
    code, out = _run(tmpdir, MODULE_LEVEL, "no-such-framework-h38==1.0")
    assert code not in (0, 5) and "error" in _counts(out), out
    code, out = _run(tmpdir, MODULE_LEVEL, None)
    assert code in (0, 5) and _counts(out) == {"skipped": 1}, out


def test_markers_and_nested_files_decide_what_is_listed(tmpdir):
    listing = os.path.join(str(tmpdir), "nested.txt")
    with open(listing, "w") as handle:
        handle.write('Web.py==0.62; python_version >= "2"\n'
                     'pyramid==1.10.8; python_version < "2"  # never\n')
    listed = dependencies.parse("-r %s\nsix==1.17.0\n" % listing, "deps")
    assert listed == {"web-py": os.path.relpath(listing, ROOT), "six": "deps"}
    assert dependencies.distribution("web.application") == "web-py"
    assert dependencies.distribution("django.core.handlers.asgi") == "django"


def test_no_test_skips_on_a_missing_module_past_the_helper():
    # pytest.importorskip would skip whatever the requirements list.
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as handle:
                    if "pytest." + "importorskip(" in handle.read():
                        found.append(name)
    assert found == []


def test_tox_promises_its_deps():
    # tox.ini's [testenv] sets the variable to its own deps: one list.
    with open(os.path.join(ROOT, "tox.ini")) as handle:
        text = handle.read()
    assert "\n    %s = {[testenv]deps}\n" % dependencies.VARIABLE in text
