"""The running interpreter's own parse_qs/parse_qsl tests, run against the backport.

Where the interpreter ships ``test.test_urlparse`` (and ``test.test_cgi``, whose
``cgi`` module calls ``parse_qs``/``parse_qsl``), the relevant test methods are
run with the stdlib functions swapped for the backport for the duration of the
run (``urlparse.*`` on 2.7, ``urllib.parse.*`` on 3.x: both test modules and
``cgi`` look the functions up on that module at call time), then restored.
Without ``test.test_urlparse`` (e.g. Docker images) everything here skips.

Expected, documented differences (the host's tests encode that host's
behaviour; the backport is 3.13 on every Python 3, and 2.7.18 without ';'
splitting on 2.7). Each is checked row by row: exactly these rows fail
with the backport, the host's own stdlib passes them, every other row passes.

* 2.7.18, ``test_urlparse.test_qsl`` / ``test_qs``: the 10 rows where ';'
  splits (``";"``, ``";;"``, ``";a=b"``, ``"a=a+b;b=b+c"``, ``"a=1;a=2"``
  and their ``b""`` twins, which are the same ``str`` on 2.7): bpo-42967.
* 2.7.18, ``test_cgi.test_strict``: the 5 rows where ';' splits (``";"``,
  ``";&;"``, ``"=;="``, ``"x=1;y=2.0&z=2-3.%2b0"``, ``"x=1;y=2.0;z=2-3.%2b0"``).
* 3.6-3.10, ``test_cgi.test_strict``: the row ``("", ValueError("bad query
  field: ''"))``: 3.11+ (bpo-45874) and so the backport return ``{}`` for an
  empty query even when strict.

Nothing else differs: the 3.6-3.12 ``test_urlparse`` tables are subsets of
3.13's, their separator tests use only what 3.8+ and 3.13 agree on, and their
suites have no bytes-result, false-value or separator-validation tests.
"""

import contextlib
import importlib
import inspect
import sys
import unittest
import warnings

import pytest
from stdlib_state import cgi_module

import urllib_parse_backport

PY2 = sys.version_info[0] == 2
if PY2:
    import urlparse as STDLIB_MODULE
else:
    import urllib.parse as STDLIB_MODULE


# test_cgi replaces cgi.sys at import (so that cgi ignores pytest's argv);
# that stays in force only while a host test runs.
_CGI_SYS_FOR_HOST_TESTS = []


def _import_host_test(name):
    """Import ``test.<name>`` from the interpreter's stdlib, or return None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 3.11/3.12: 'cgi' is deprecated
        try:
            # Imported first so that test_cgi's import-time side effect
            # (it replaces cgi.sys) can be undone.
            import cgi
        except ImportError:  # 3.13 removed cgi
            cgi = None
        saved_cgi_sys = getattr(cgi, "sys", None)
        try:
            return importlib.import_module("test." + name)
        except ImportError:
            return None
        finally:
            if saved_cgi_sys is not None and cgi.sys is not saved_cgi_sys:
                _CGI_SYS_FOR_HOST_TESTS.append((cgi, cgi.sys))
                cgi.sys = saved_cgi_sys


HOST_URLPARSE = _import_host_test("test_urlparse")
HOST_CGI = _import_host_test("test_cgi") if HOST_URLPARSE is not None else None

pytestmark = pytest.mark.skipif(HOST_URLPARSE is None,
                                reason="this interpreter does not ship test.test_urlparse")

# test_cgi's tests that go through parse_qs/parse_qsl (cgi.parse, FieldStorage,
# the deprecated cgi.parse_qs/parse_qsl); only those present are run.
CGI_METHODS = [
    "test_strict", "test_separator", "test_max_num_fields", "testQSAndUrlEncode",
    "testQSAndFormData", "testQSAndFormDataFile", "test_deprecated_parse_qs",
    "test_deprecated_parse_qsl", "test_weird_formcontentdict",
]

_SEMICOLON_URLPARSE_ROWS = [";", ";;", ";a=b", "a=a+b;b=b+c", "a=1;a=2"] * 2
if PY2:
    # (module name, method) -> (module-level table the method reads, the
    # first element of every row expected to fail with the backport)
    EXPECTED_DIFFERENCES = {
        ("test_urlparse", "test_qsl"): ("parse_qsl_test_cases", _SEMICOLON_URLPARSE_ROWS),
        ("test_urlparse", "test_qs"): ("parse_qs_test_cases", _SEMICOLON_URLPARSE_ROWS),
        ("test_cgi", "test_strict"): ("parse_strict_test_cases", [
            ";", ";&;", "=;=", "x=1;y=2.0&z=2-3.%2b0", "x=1;y=2.0;z=2-3.%2b0"]),
    }
elif sys.version_info < (3, 11):
    EXPECTED_DIFFERENCES = {
        ("test_cgi", "test_strict"): ("parse_strict_test_cases", [""]),
    }
else:
    EXPECTED_DIFFERENCES = {}

HOST_MODULES = {"test_urlparse": HOST_URLPARSE, "test_cgi": HOST_CGI}


def _host_methods():
    """(module name, TestCase class, method name) for every selected host test."""
    selected = []
    if HOST_URLPARSE is not None:
        case = HOST_URLPARSE.UrlParseTestCase
        for name in sorted(dir(case)):
            if name in ("test_qs", "test_qsl") or name.startswith("test_parse_qs"):
                selected.append(("test_urlparse", case, name))
    if HOST_CGI is not None:
        case = HOST_CGI.CgiTests
        for name in CGI_METHODS:
            if hasattr(case, name):
                selected.append(("test_cgi", case, name))
    return selected


HOST_METHODS = _host_methods()


def _cgi_lacks_separator():
    # In a py3X-unfixed environment cgi is the copy with bpo-42967 reverted.
    cgi = cgi_module()
    return (cgi is not None and not PY2
            and "separator" not in inspect.signature(cgi.FieldStorage).parameters)


#: Host tests that need what only the fixed cgi has: the swap cannot give it.
NEED_FIXED_CGI = {("test_cgi", "test_separator")} if _cgi_lacks_separator() else set()


@contextlib.contextmanager
def backport_swapped(calls):
    """Put the backport (counting its calls) in place of the stdlib functions."""
    saved = STDLIB_MODULE.parse_qs, STDLIB_MODULE.parse_qsl

    def counting(function):
        def wrapper(*args, **kwargs):
            calls.append(function.__name__)
            return function(*args, **kwargs)
        return wrapper

    STDLIB_MODULE.parse_qs = counting(urllib_parse_backport.parse_qs)
    STDLIB_MODULE.parse_qsl = counting(urllib_parse_backport.parse_qsl)
    try:
        yield
    finally:
        STDLIB_MODULE.parse_qs, STDLIB_MODULE.parse_qsl = saved
    assert (STDLIB_MODULE.parse_qs, STDLIB_MODULE.parse_qsl) == saved


@contextlib.contextmanager
def table_replaced(module, attribute, rows):
    saved = getattr(module, attribute)
    setattr(module, attribute, rows)
    try:
        yield
    finally:
        setattr(module, attribute, saved)


def run_host_test(case, name):
    """Run one host test method; return the unittest result."""
    result = unittest.TestResult()
    for cgi, hacked_sys in _CGI_SYS_FOR_HOST_TESTS:
        real_sys, cgi.sys = cgi.sys, hacked_sys
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            case(name).run(result)
    finally:
        for cgi, hacked_sys in _CGI_SYS_FOR_HOST_TESTS:
            cgi.sys = real_sys
    assert result.testsRun == 1
    return result


def _problems(result):
    return [text for _, text in result.failures + result.errors]


def test_host_tests_are_found():
    """The selection is not empty where test_urlparse exists (else nothing is proved)."""
    names = set(name for module_name, _, name in HOST_METHODS if module_name == "test_urlparse")
    assert set(["test_qs", "test_qsl"]) <= names
    if not PY2:
        assert "test_parse_qsl_separator" in names
    found = set((module_name, name) for module_name, _, name in HOST_METHODS)
    assert set(EXPECTED_DIFFERENCES) <= found


def _params(expected_to_differ):
    # A function, not a module-level comprehension: on 2.7 the loop variable
    # would leak into the module and pytest would collect the host TestCase.
    params = []
    for module_name, case, name in HOST_METHODS:
        if ((module_name, name) in EXPECTED_DIFFERENCES) == expected_to_differ:
            marks = ()
            if (module_name, name) in NEED_FIXED_CGI:
                marks = pytest.mark.skip(reason="this cgi.FieldStorage has no separator "
                                         "(bpo-42967 reverted); patch() does not add one")
            params.append(pytest.param(module_name, case, name, marks=marks,
                                       id="%s.%s.%s" % (module_name, case.__name__, name)))
    return params


@pytest.mark.parametrize("module_name, case, name", _params(expected_to_differ=False))
def test_host_test_passes_with_backport(module_name, case, name):
    calls = []
    with backport_swapped(calls):
        result = run_host_test(case, name)
    assert _problems(result) == []
    assert result.skipped == []
    assert calls, "the host test never reached parse_qs/parse_qsl: the swap proves nothing"


@pytest.mark.parametrize("module_name, case, name", _params(expected_to_differ=True))
def test_host_test_fails_exactly_on_documented_rows(module_name, case, name):
    module = HOST_MODULES[module_name]
    attribute, expected_rows = EXPECTED_DIFFERENCES[(module_name, name)]
    table = list(getattr(module, attribute))

    # The whole host test fails with the backport...
    with backport_swapped([]):
        assert _problems(run_host_test(case, name)) != []

    # ...exactly on the documented rows,
    failing_rows = []
    for row in table:
        with table_replaced(module, attribute, [row]):
            calls = []
            with backport_swapped(calls):
                failed = bool(_problems(run_host_test(case, name)))
            assert calls
        if failed:
            failing_rows.append(row)
            # while the host's own stdlib passes that row (the difference is ours),
            with table_replaced(module, attribute, [row]):
                assert _problems(run_host_test(case, name)) == []
    assert sorted(row[0] for row in failing_rows) == sorted(expected_rows)

    # ...and every other row passes in one run.
    others = [row for row in table if row not in failing_rows]
    with table_replaced(module, attribute, others):
        with backport_swapped([]):
            assert _problems(run_host_test(case, name)) == []


def test_swap_is_undone():
    before = STDLIB_MODULE.parse_qs, STDLIB_MODULE.parse_qsl
    with backport_swapped([]):
        assert STDLIB_MODULE.parse_qsl("a=1") == [("a", "1")]
        assert STDLIB_MODULE.parse_qsl is not before[1]
    assert (STDLIB_MODULE.parse_qs, STDLIB_MODULE.parse_qsl) == before
    assert STDLIB_MODULE.parse_qsl is not urllib_parse_backport.parse_qsl
