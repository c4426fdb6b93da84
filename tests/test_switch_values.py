"""Every value of every start-up variable is understood, or named in one line on stderr.

Each case runs a fresh interpreter of the test environment, where the wheel
(and so its ``.pth`` file) is installed, imports every stdlib module a fix is
for, and prints which packages that made patch. A value with blanks around
it is understood as the value without them (no line, the same patches); a
value of blanks only is no value the switch accepts: one line names it, and
the process patches what it patches with the variable unset (under
``CPYTHON_SECURITY_PATCH=1``, that package's fixes, never silently none).
"""

import json

import pytest

from fresh_interpreter import run_code
from internals import BY_PACKAGE, PACKAGES, shared_registry

UMBRELLA = "CPYTHON_SECURITY_PATCH"
SKIP = "CPYTHON_SECURITY_SKIP"
BLANKS = [" ", "\t", " \t "]

APP = """
import json, sys
for name in %r:
    try:
        __import__(name)
    except Exception:  # 2.7 has no ipaddress, a framework may be missing, python-future's
        pass           # copies do not import on 3.13 (re.error)
print(json.dumps(dict((package, package in sys.modules and sys.modules[package].is_patched())
                      for package in %r)))
""" % (sorted(set(name for fix in shared_registry.FIXES for name in fix.probes)), PACKAGES)

_SEEN = {}


def patched(**environ):
    """``({package: is_patched()}, stderr lines)`` of a fresh process with *environ* set."""
    key = tuple(sorted(environ.items()))
    if key not in _SEEN:
        code, out, err = run_code(APP, **environ)
        assert code == 0, err
        _SEEN[key] = json.loads(out.strip().splitlines()[-1]), err.splitlines()
    return _SEEN[key]


def one_line_naming(lines, variable, value):
    assert len(lines) == 1, lines
    assert "%s=%r" % (variable, value) in lines[0]


@pytest.mark.parametrize("value", BLANKS)
def test_a_blank_umbrella_is_named_in_one_line_and_patches_nothing(value):
    result, lines = patched(CPYTHON_SECURITY_PATCH=value)
    one_line_naming(lines, UMBRELLA, value)
    assert result == patched()[0]


@pytest.mark.parametrize("value, means", [(" 1 ", "1"), ("\tyes", "yes"), ("0 ", "0"),
                                          (" OFF\t", "off"), ("", None)])
def test_an_umbrella_value_with_blanks_around_it_is_that_value(value, means):
    result, lines = patched(CPYTHON_SECURITY_PATCH=value)
    assert lines == []
    assert result == patched(**({} if means is None else {UMBRELLA: means}))[0]


#: Every package's variable. The tests below set them all in one process (a fresh
#: interpreter importing every watched module costs 0.3-1.5 s, 4 s on PyPy): each
#: variable is read on its own, and named on a line of its own.
VARIABLES = [BY_PACKAGE[package].variable for package in PACKAGES]


def test_a_blank_package_variable_is_named_and_the_umbrella_still_decides():
    for umbrella, value in [({UMBRELLA: "1"}, " "), ({}, "\t")]:
        result, lines = patched(**dict(umbrella, **dict.fromkeys(VARIABLES, value)))
        assert len(lines) == len(VARIABLES), lines
        for variable in VARIABLES:
            one_line_naming([line for line in lines if "%s=" % variable in line],
                            variable, value)
        assert result == patched(**umbrella)[0]


def test_a_package_value_with_blanks_around_it_is_that_value():
    for value, means in [(" force ", "force"), ("0\t", "0")]:
        result, lines = patched(**dict({UMBRELLA: "1"}, **dict.fromkeys(VARIABLES, value)))
        assert lines == []
        assert result == patched(**dict({UMBRELLA: "1"}, **dict.fromkeys(VARIABLES, means)))[0]


@pytest.mark.parametrize("value", BLANKS)
def test_a_blank_skip_list_is_named_in_one_line_and_leaves_nothing_out(value):
    result, lines = patched(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP=value)
    one_line_naming(lines, SKIP, value)
    assert result == patched(CPYTHON_SECURITY_PATCH="1")[0]


@pytest.mark.parametrize("value, means", [
    (" http_cookies_backport ", "http_cookies_backport"),
    ("CVE-2024-7592 ,\tctypes_safe", "CVE-2024-7592,ctypes_safe"),
    ("", None)])
def test_a_skip_list_with_blanks_around_its_names_is_those_names(value, means):
    result, lines = patched(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP=value)
    assert lines == []
    assert result == patched(CPYTHON_SECURITY_PATCH="1", **(
        {} if means is None else {SKIP: means}))[0]
