# -*- coding: utf-8 -*-
"""``patch()`` and the start-up switch give the stdlib's own ``urlsplit`` the four later fixes.

What is checked against what:

* the patched stdlib ``urlsplit`` (and a name bound before ``patch()``)
  splits the checked-in reference rows (Debian 12's ``python3.11``, which
  carries every fix) exactly as the reference does;
* each fix is detected by behaviour: the report calls it "applied" exactly
  where the interpreter's own ``urlsplit`` lacks it (``stdlib_state``);
* ``unpatch()`` is exact: the same objects are bound again, and every row
  splits as it did before ``patch()`` (no result cached while patched is
  served afterwards, on the dict cache of 2.7-3.10 or 3.11+'s lru_cache);
* ``leave_out`` leaves one fix out and nothing else;
* ``URLLIB_PARSE_BACKPORT_PATCH=1`` at start-up, with and without
  ``CPYTHON_SECURITY_SKIP``, in fresh interpreters.
"""

import io
import json
import os
import sys

import pytest

import urllib_parse_backport as backport
from fresh_interpreter import run_json
from stdlib_state import SPLIT_LACKS, STDLIB

import urlsplit_cases

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "urlsplit_reference.json")
PY2 = sys.version_info[0] == 2
CVES = ["CVE-2023-24329", "CVE-2022-0391", "CVE-2024-11168", "CVE-2025-0938"]
BLOCKLIST = " https://evil.example/x"


def _rows():
    with io.open(DATA, encoding="ascii") as handle:
        return json.load(handle)["rows"]


def _same(expected, got):
    """As the differential test: on 2.7 errors compare by type (messages quote u'...')."""
    if PY2 and expected[0] == got[0] == "error":
        return expected[:2] == got[:2]
    return expected == got


def _outcomes(split, rows):
    return [urlsplit_cases.outcome(split, row["url"]) for row in rows]


@pytest.fixture
def unpatched():
    backport.unpatch()
    yield
    backport.unpatch()


def test_the_patched_stdlib_splits_every_reference_row_as_the_reference(unpatched):
    bound_before = STDLIB.urlsplit
    backport.patch()
    rows = _rows()
    for split in (STDLIB.urlsplit, bound_before):
        for row in rows:
            assert _same(row["str"], urlsplit_cases.outcome(split, row["url"])), row["url"]
            assert _same(row["scheme"], urlsplit_cases.outcome(split, row["url"], " \tftp\n"))
            if "bytes" in row and not PY2:
                assert _same(row["bytes"],
                             urlsplit_cases.outcome(split, row["url"].encode("ascii")))


def test_urlparse_and_names_bound_before_see_the_host(unpatched):
    urlparse = STDLIB.urlparse
    backport.patch()
    assert urlparse(BLOCKLIST).hostname == "evil.example"
    assert STDLIB.urljoin(BLOCKLIST, "y") == "https://evil.example/y"
    with pytest.raises(ValueError):
        urlparse("http://[::1]evil/")


def test_each_fix_is_applied_exactly_where_the_interpreter_lacks_it(unpatched):
    report = backport.patch()
    for cve in CVES:
        assert report.fixes[cve] == ("applied" if SPLIT_LACKS[cve] else "not needed"), cve
    if not any(SPLIT_LACKS.values()):
        assert not [name for name in report.changed if "urlsplit" in name]


def test_unpatch_puts_back_the_same_objects_and_the_same_results(unpatched):
    rows = _rows()
    original = STDLIB.urlsplit
    before = _outcomes(STDLIB.urlsplit, rows)
    backport.patch()
    patched = _outcomes(STDLIB.urlsplit, rows)  # fills the caches with fixed results
    assert (patched != before) is any(SPLIT_LACKS.values())
    backport.unpatch()
    assert STDLIB.urlsplit is original
    assert _outcomes(STDLIB.urlsplit, rows) == before


#: One URL per fix, whose split the fix changes (the registry's probes).
PROBES = [" http://h/", "http://a\tb/", "http://[1.2.3.4]/", "http://[::1]evil/"]


def test_no_result_cached_by_the_other_function_is_served(unpatched):
    # A reference no rebinding reaches (a container) keeps the original
    # object: its code forwards, and its cache must not answer for it.
    holder = [STDLIB.urlsplit]
    before = [urlsplit_cases.outcome(holder[0], url) for url in PROBES]
    backport.patch()
    during = [urlsplit_cases.outcome(holder[0], url) for url in PROBES]
    fixed = backport.urlsplit
    assert during == [urlsplit_cases.outcome(fixed, url) for url in PROBES]
    assert [a != b for a, b in zip(before, during)] == [SPLIT_LACKS[cve] for cve in CVES]
    backport.unpatch()
    assert [urlsplit_cases.outcome(holder[0], url) for url in PROBES] == before


@pytest.mark.parametrize("cve", CVES)
def test_leave_out_leaves_one_fix_out(unpatched, cve):
    report = backport.patch(leave_out=[cve.lower()])
    assert report.fixes[cve] == ("left out" if SPLIT_LACKS[cve] else "not needed")
    info = backport.status()
    # python-future's copy, where imported, keeps every urlsplit fix out (no patch reaches
    # its urlsplit): an entry is exposed for the stdlib's own reason or for the copy's.
    copies = dict((other, any(copy["exposed"] for copy in
                              info["fixes"][other].get("copies", {}).values()))
                  for other in CVES)
    for other in CVES:
        assert info["fixes"][other]["exposed"] is (
            other == cve and SPLIT_LACKS[cve] or copies[other])
    assert info["exposed"] is (SPLIT_LACKS[cve] or any(copies.values())
                               or info["fixes"]["CVE-2021-23336"]["exposed"])


def test_leave_out_names_only_fixes_of_the_package(unpatched):
    with pytest.raises(ValueError) as caught:
        backport.patch(leave_out=["CVE-2021-3177"])
    assert "CVE-2021-3177" in str(caught.value) and "CVE-2025-0938" in str(caught.value)
    assert not backport.is_patched()


def test_the_self_check_shows_the_blocklist_case(unpatched):
    info = backport.status()
    expected = None if SPLIT_LACKS["CVE-2023-24329"] else "evil.example"
    assert info["blocklist"]["hostname_as_called"] == expected
    assert info["blocklist"]["hostname_backport"] == "evil.example"
    backport.patch()
    assert backport.status()["blocklist"]["hostname_as_called"] == "evil.example"


APP = """
import json
from %s import urlparse
try:
    urlparse("http://[::1]evil/")
    brackets = "accepted"
except ValueError:
    brackets = "refused"
print(json.dumps({"hostname": urlparse(%r).hostname, "brackets": brackets}))
""" % (STDLIB.__name__, BLOCKLIST)


def test_the_start_up_switch_fixes_urlparse_in_a_fresh_process():
    assert run_json(APP, URLLIB_PARSE_BACKPORT_PATCH="1") == {
        "hostname": "evil.example", "brackets": "refused"}


def test_the_skip_variable_leaves_one_fix_out_at_start_up():
    found = run_json(APP, URLLIB_PARSE_BACKPORT_PATCH="1",
                     CPYTHON_SECURITY_SKIP="CVE-2023-24329")
    assert found["hostname"] == (None if SPLIT_LACKS["CVE-2023-24329"] else "evil.example")
    assert found["brackets"] == "refused"
    found = run_json(APP, CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="cve-2025-0938")
    assert found == {"hostname": "evil.example",
                     "brackets": "accepted" if SPLIT_LACKS["CVE-2025-0938"] else "refused"}


@pytest.mark.skipif(sys.version_info >= (3, 7), reason="3.7+: module __getattr__ builds it")
def test_on_2_7_and_3_6_the_name_is_the_built_function_once_the_stdlib_is_loaded():
    # No forwarding call on the hot path: a name imported from the package is
    # the built function when the stdlib module was loaded first, and every
    # later attribute access gets it after the first call otherwise.
    found = run_json(
        "import json, %s\n"
        "from urllib_parse_backport import urlsplit\n"
        "print(json.dumps(urlsplit.__module__))" % STDLIB.__name__)
    assert found.endswith("._split2" if PY2 else "._split3")
    found = run_json(
        "import json, urllib_parse_backport as u\n"
        "first = u.urlsplit.__module__\n"
        "u.urlsplit('http://h/')\n"
        "print(json.dumps([first, u.urlsplit.__module__]))")
    assert found[0] == "urllib_parse_backport._parse" and found[1] != found[0]


def test_a_fix_left_out_at_start_up_says_so_even_when_nothing_else_was_patched():
    # On 3.11+ CVE-2025-0938's is the only fix missing: left out, nothing is
    # patched, and the self-check must say "left out", not "not patched".
    found = run_json("import json, %s, urllib_parse_backport as u\n"
                     "print(json.dumps(u.status()['fixes']['CVE-2025-0938']))" % STDLIB.__name__,
                     CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert found["exposed"] is SPLIT_LACKS["CVE-2025-0938"]
    assert found["state"] == ("left out" if SPLIT_LACKS["CVE-2025-0938"] else "not patched")
