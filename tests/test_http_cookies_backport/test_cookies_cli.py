"""``python -m http_cookies_backport`` and its start-up switch, in fresh interpreters."""

import json

import pytest

import cookie_helpers as helpers
import http_cookies_backport
from fresh_interpreter import run, run_code

EXPOSED = http_cookies_backport.is_vulnerable()
#: Whether this interpreter lacks the unquoting fix itself (3.13.0 lacks only the Morsel's).
UNQUOTE_LACKS = http_cookies_backport.status()["fixes"]["CVE-2024-7592"]["lacks"]


def test_json_is_status_and_the_exit_status_the_verdict():
    code, out, err = run(["-m", "http_cookies_backport", "--json"])
    info = json.loads(out)
    assert code == (1 if EXPOSED else 0), err
    assert (info["cve"], info["exposed"], info["patched"]) == ("CVE-2024-7592", EXPOSED, False)


def test_text_report_and_usage_error():
    code, out, err = run(["-m", "http_cookies_backport"])
    if EXPOSED:  # the words of each fix the interpreter lacks, the unquoting's first
        assert out.splitlines()[-1].startswith(
            "verdict:      EXPOSED: a Cookie header of backslashes costs this process "
            "quadratic CPU time" if UNQUOTE_LACKS else
            "verdict:      EXPOSED: a cookie value or attribute with CR LF")
    else:
        assert out.splitlines()[-1] == "verdict:      safe"
    assert run(["-m", "http_cookies_backport", "--bogus"])[0] == 2


STARTUP = """
import json, sys
import %s as cookies
print(json.dumps(["http_cookies_backport" in sys.modules,
                  cookies._unquote.__module__]))
""" % helpers.STDLIB_MODULE


@pytest.mark.parametrize("value", ["1", "force"])
def test_the_switch_patches_on_import_where_needed(value):
    code, out, err = run_code(STARTUP, HTTP_COOKIES_BACKPORT_PATCH=value)
    assert (code, err) == (0, "")
    loaded, owner = json.loads(out)
    assert loaded is (EXPOSED or value == "force")
    replaced = UNQUOTE_LACKS or value == "force"
    assert owner == ("http_cookies_backport._unquote" if replaced else helpers.STDLIB_MODULE)


def test_a_bad_value_is_named_and_nothing_is_patched():
    code, out, err = run_code(STARTUP, HTTP_COOKIES_BACKPORT_PATCH="yse")
    assert code == 0 and json.loads(out) == [False, helpers.STDLIB_MODULE]
    assert err.startswith("http_cookies_backport: ignoring HTTP_COOKIES_BACKPORT_PATCH='yse'")


def test_status_before_the_cookie_module_is_imported_lets_the_switch_patch():
    # status() imports http.cookies, whose import runs the switch's patch():
    # the import must come before status() takes the state lock (it did not:
    # the process hung on the lock).
    code, out, err = run_code("import http_cookies_backport as h; print(h.status()['patched'])",
                              HTTP_COOKIES_BACKPORT_PATCH="force")
    assert (code, out.strip(), err) == (0, "True", "")
