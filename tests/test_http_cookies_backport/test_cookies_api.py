"""patch()/unpatch()/is_patched()/status(): the stdlib's ``_unquote`` replaced and put back.

Object identity before, during and after, as truststore's tests check it;
aliases made with ``from http.cookies import _unquote`` are reached both ways.
"""

import sys
import types

import cookie_helpers as helpers
from http_cookies_backport import PatchReport, unquote

LABEL = helpers.STDLIB_MODULE + "._unquote"
CVE = "CVE-2024-7592"


def test_patch_replaces_and_unpatch_restores_the_same_object(cookies_unpatched):
    module = helpers.stdlib()
    original = module._unquote
    report = cookies_unpatched.patch(force=True)
    assert isinstance(report, PatchReport) and report.forced
    assert LABEL in report.changed
    fix = module._unquote
    assert fix is not original and fix.__code__ is unquote.__code__
    assert cookies_unpatched.is_patched()
    assert cookies_unpatched.patch(force=True) is report  # idempotent
    undone = cookies_unpatched.unpatch()
    assert LABEL in undone.changed
    assert module._unquote is original and not cookies_unpatched.is_patched()
    assert not cookies_unpatched.unpatch().changed  # nothing left to undo


def test_simple_cookie_load_goes_through_the_fix(cookies_unpatched):
    cookies_unpatched.patch(force=True)
    cookie = helpers.stdlib().SimpleCookie()
    cookie.load('a="\\\\\\042"')
    assert helpers.as_text(cookie["a"].value) == '\\"'


def _module_with_alias(name):
    alias = types.ModuleType(name)
    exec("from %s import _unquote" % helpers.STDLIB_MODULE, alias.__dict__)
    sys.modules[name] = alias
    return alias


def test_aliases_are_reached_both_ways(cookies_unpatched):
    original = helpers.stdlib()._unquote
    before = _module_with_alias("cookie_alias_before")
    try:
        report = cookies_unpatched.patch(force=True)
        assert "cookie_alias_before._unquote" in report.changed
        fix = helpers.stdlib()._unquote
        assert before._unquote is fix
        during = _module_with_alias("cookie_alias_during")  # bound while patched
        assert during._unquote is fix
        undone = cookies_unpatched.unpatch()
        assert before._unquote is original and during._unquote is original
        assert "cookie_alias_during._unquote" in undone.changed
    finally:
        sys.modules.pop("cookie_alias_before", None)
        sys.modules.pop("cookie_alias_during", None)


def test_an_applications_own_binding_of_unquote_is_left_alone(cookies_unpatched):
    mine = types.ModuleType("cookie_user")
    mine.unquote = unquote
    sys.modules["cookie_user"] = mine
    try:
        cookies_unpatched.patch(force=True)
        cookies_unpatched.unpatch()
        assert mine.unquote is unquote
    finally:
        del sys.modules["cookie_user"]


def test_a_binding_rebound_by_someone_else_is_left_alone(cookies_unpatched):
    module = helpers.stdlib()
    original = module._unquote
    cookies_unpatched.patch(force=True)

    def theirs(value):
        return value

    module._unquote = theirs
    try:
        undone = cookies_unpatched.unpatch()
        assert module._unquote is theirs
        assert (LABEL, "rebound by someone else since: left alone") in undone.skipped
    finally:
        module._unquote = original


def test_patch_without_force_changes_only_a_vulnerable_interpreter(cookies_unpatched):
    original = helpers.stdlib()._unquote
    report = cookies_unpatched.patch()
    if cookies_unpatched.status()["fixes"][CVE]["lacks"]:
        assert LABEL in report.changed and helpers.stdlib()._unquote is not original
    else:
        assert LABEL not in report.changed and CVE in [name for name, _ in report.skipped]
        assert helpers.stdlib()._unquote is original


def test_status_says_exposed_until_patched(cookies_unpatched):
    vulnerable = cookies_unpatched.is_vulnerable()
    info = cookies_unpatched.status()
    assert (info["package"], info["cve"], info["fixes"][CVE]["target"]) == (
        "http_cookies_backport", CVE, LABEL)
    assert info["exposed"] is info["vulnerable"] is vulnerable
    assert info["activation"]["variable"] == "HTTP_COOKIES_BACKPORT_PATCH"
    cookies_unpatched.patch(force=True)
    info = cookies_unpatched.status()
    assert (info["exposed"], info["patched"], info["vulnerable"]) == (False, True, vulnerable)
