"""The docs' per-interpreter table says what ``cpython-security-check`` says here.

``docs/_data/interpreters.json`` is written by ``tools/interpreter_table.py``,
which runs the check on every interpreter of the matrix. Where the row of the
interpreter running the tests is in the file (same implementation and patch
release), each fix it marks lacking must be one this interpreter's check
finds lacking, and no other.
"""

import io
import json
import os
import platform

import pytest

from fresh_interpreter import run
from test_security_check import SCRIPT

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs", "_data",
                    "interpreters.json")
NAME = "%s %s" % (platform.python_implementation(), platform.python_version())


def _row():
    if os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB"):
        # The py3X-unfixed environments revert bpo-42967 in a copy of the stdlib
        # (tools/unfixed_stdlib.py): not the interpreter the table measured.
        pytest.skip("a simulated unfixed stdlib, not the interpreter of the table")
    if not os.path.isfile(DATA):
        pytest.skip("no docs/_data/interpreters.json here")
    with io.open(DATA, encoding="utf-8") as handle:
        data = json.load(handle)
    rows = [row for row in data["interpreters"] if row["name"] == NAME]
    if not rows:
        pytest.skip("%s is not in the table (measured %s)" % (NAME, data["date"]))
    return data["cves"], rows[0]


def lacks_here():
    """``{CVE: whether this interpreter lacks the fix}``, as the check's JSON says."""
    code, out, err = run([SCRIPT, "--json"])
    document = json.loads(out)
    from internals import PACKAGES
    found = {}
    for package in PACKAGES:
        info = document[package]
        if "fixes" in info:  # a package of several fixes says each one
            found.update((cve, entry["lacks"]) for cve, entry in info["fixes"].items())
        else:
            found[info["cve"]] = bool(info["vulnerable"])
    return found


def test_this_interpreters_row_is_what_the_check_finds():
    cves, row = _row()
    assert sorted(cves) == sorted(lacks_here())
    assert row["lacks"] == lacks_here()
