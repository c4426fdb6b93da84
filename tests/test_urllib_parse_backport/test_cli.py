"""``python -m urllib_parse_backport``: the self-check, its verdict and its exit status.

The self-check covers the stdlib parser as the process calls it and the
parsers of installed frameworks. Twisted Web's own parser splits on ``';'`` in
every release pinned for the tests, so without the framework adapters the
verdict is "exposed" on every interpreter here.
"""

import json
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import ATTACK, SAFE, run, run_code
from stdlib_state import LACKS_A_FIX, UNFIXED

PY2 = sys.version_info[0] == 2
ADAPTER_PARSERS = [
    "webob.compat.parse_qsl_text", "cherrypy.lib.httputil._parse_qs",
    "cherrypy._cpreqbody.process_urlencoded", "twisted.web.http.parse_qs",
    "bottle._parse_qsl", "django.utils.http.limited_parse_qsl",
    "python_multipart.multipart.QuerystringParser.write",
    "multipart.multipart.QuerystringParser.write"]


def self_check(*args, **env):
    return run(["-m", "urllib_parse_backport"] + list(args), **env)


def json_check(**env):
    rc, out, err = self_check("--json", **env)
    info = json.loads(out)
    info["parsers"] = dict((entry["parser"], entry) for entry in info["frameworks"])
    return rc, info


def stdlib_splits():
    return UNFIXED


def stdlib_lacks_a_fix():
    return LACKS_A_FIX


def test_json_is_status_of_a_fresh_process():
    rc, out, err = self_check("--json")
    rc2, out2, err2 = run_code(
        "import json, urllib_parse_backport as u\n"
        "print(json.dumps(u.status(), indent=2, sort_keys=True, separators=(',', ': ')))")
    assert json.loads(out) == json.loads(out2)
    info = json.loads(out)
    assert sorted(info) == sorted([
        "package", "version", "cve", "interpreter", "patched", "report", "activation",
        "stdlib", "policy", "attack", "frameworks", "framework_checks", "exposed", "fixes",
        "blocklist"])
    assert (info["package"], info["cve"]) == ("urllib_parse_backport", "CVE-2021-23336")
    assert info["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert info["attack"] == {"query": ATTACK, "backport": SAFE}
    assert [entry["parser"] for entry in info["frameworks"]] == ADAPTER_PARSERS


def test_bare_process_is_exposed_through_twisted_and_the_stdlib_where_it_splits():
    importorskip("twisted.web.http")
    rc, info = json_check()
    assert rc == 1 and info["exposed"] is True
    assert info["patched"] is False and info["report"] is None
    assert info["stdlib"]["splits_semicolon"] is stdlib_splits()
    assert info["stdlib"]["replaced_by_shim"] is False
    assert (info["stdlib"]["attack_as_called"] == SAFE) is not stdlib_splits()
    assert info["parsers"]["twisted.web.http.parse_qs"] == {
        "parser": "twisted.web.http.parse_qs", "installed": True, "patched": False,
        "exposed": True, "status": "splits on ';' (CVE-2021-23336)"}


def test_plain_start_up_patch_fixes_the_stdlib_but_not_the_frameworks():
    importorskip("twisted.web.http")
    rc, info = json_check(URLLIB_PARSE_BACKPORT_PATCH="1")
    assert rc == 1 and info["exposed"] is True
    assert info["stdlib"]["attack_as_called"] == SAFE
    assert info["stdlib"]["replaced_by_shim"] is stdlib_splits()
    assert info["parsers"]["twisted.web.http.parse_qs"]["exposed"] is True
    if PY2 and _installed("django"):  # Django 1.11: its own parser splits on [&;]
        assert info["parsers"]["django.utils.http.limited_parse_qsl"]["exposed"] is True


def _installed(name):
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_frameworks_start_up_patch_makes_the_process_safe():
    rc, info = json_check(URLLIB_PARSE_BACKPORT_PATCH="frameworks")
    assert rc == 0 and info["exposed"] is False
    assert info["stdlib"]["attack_as_called"] == SAFE
    assert not [name for name, entry in info["parsers"].items() if entry["exposed"]]
    if _installed("twisted.web.http"):
        twisted = info["parsers"]["twisted.web.http.parse_qs"]
        assert twisted["patched"] is True
        assert twisted["status"] == "the adapter replaced it; the original splits on ';'"
        assert "twisted.web.http.parse_qs" in info["report"]["changed"]


def test_text_report_names_what_the_stdlib_does_and_that_the_shim_replaced_it():
    rc, out, err = self_check(URLLIB_PARSE_BACKPORT_PATCH="frameworks")
    assert rc == 0, err
    if stdlib_splits():
        assert ("splits on ';' (CVE-2021-23336); replaced by the shim in this process"
                in out)
    else:
        assert "fixed (bpo-42967)" in out
    assert "hint:" not in out  # nothing left to do
    assert out.rstrip().endswith("verdict:         safe")
    for parser in ADAPTER_PARSERS:
        assert "  %s: " % parser in out


def test_text_report_hints_only_what_applies():
    importorskip("twisted.web.http")
    rc, out, err = self_check(URLLIB_PARSE_BACKPORT_PATCH="1")
    assert rc == 1
    assert "set URLLIB_PARSE_BACKPORT_PATCH=1" not in out  # already set
    assert "set URLLIB_PARSE_BACKPORT_PATCH=frameworks" in out
    assert "EXPOSED: a parser this process calls hands the app the smuggled q" in out
    rc, out, err = self_check()
    if stdlib_splits():
        assert "VULNERABLE: splits on ';' (CVE-2021-23336); not replaced" in out
    if stdlib_lacks_a_fix():
        assert "set CPYTHON_SECURITY_PATCH=1 (every fix, at start-up)" in out
    else:
        assert "set CPYTHON_SECURITY_PATCH=1 " not in out


def _stdlib_hints(out):
    return [line for line in out.splitlines()
            if line.startswith("hint:") and "=frameworks" not in line]


def test_text_report_with_a_typo_in_the_variable():
    rc, out, err = self_check(URLLIB_PARSE_BACKPORT_PATCH="ture")
    assert len(err.splitlines()) == 1 and "URLLIB_PARSE_BACKPORT_PATCH='ture'" in err
    if stdlib_lacks_a_fix():
        assert rc == 1
        assert _stdlib_hints(out) == [
            "hint:            URLLIB_PARSE_BACKPORT_PATCH='ture' is not an accepted value: use "
            "1/true/yes/on, force, frameworks (patch) or 0/false/no/off/empty (nothing)"]
    else:
        assert _stdlib_hints(out) == []


def test_text_report_when_the_variable_is_set_but_the_pth_did_not_run():
    # The variable appears only after start-up, as when the .pth file is missing.
    rc, out, err = run_code(
        "import os, runpy\n"
        "os.environ['URLLIB_PARSE_BACKPORT_PATCH'] = '1'\n"
        "runpy.run_module('urllib_parse_backport', run_name='__main__')\n")
    assert err == ""
    if stdlib_lacks_a_fix():
        assert rc == 1
        assert _stdlib_hints(out) == [
            "hint:            URLLIB_PARSE_BACKPORT_PATCH=1 is set but nothing was patched at "
            "start-up: is cpython_security_patch.pth in this interpreter's "
            "site-packages, and python run without -S?"]
    else:
        assert _stdlib_hints(out) == []


@pytest.mark.parametrize("name, meant", [
    ("URLLIB_PARSE_BACKPORT_PACTH", "URLLIB_PARSE_BACKPORT_PATCH"),
    ("urllib_parse_backport_patch", "URLLIB_PARSE_BACKPORT_PATCH"),
    ("PYTHON_URLLIB_QS_SEPERATOR", "PYTHON_URLLIB_QS_SEPARATOR")])
def test_text_report_names_a_misspelt_variable(name, meant):
    rc, out, err = self_check(**{name: "1"})
    assert err == ""
    assert "hint:            %s is set, but this package does not read it: did you mean %s?" % (
        name, meant) in out.splitlines()


@pytest.mark.parametrize("args", [["--bogus"], ["--json", "extra"], ["--frameworks"]])
def test_usage_error(args):
    rc, out, err = self_check(*args)
    assert rc == 2
    assert err.startswith("usage: python -m urllib_parse_backport")


def test_help():
    rc, out, err = self_check("--help")
    assert rc == 0
    assert out.startswith("usage: python -m urllib_parse_backport [-h] [--json]")
    assert "--json" in out


def test_main_in_process(capsys):
    from urllib_parse_backport import status
    from urllib_parse_backport.__main__ import main

    verdict = 1 if status()["exposed"] else 0
    assert main([]) == verdict
    out = capsys.readouterr().out
    assert "self-check" in out
    assert ("verdict:         EXPOSED" in out) == (verdict == 1)
    assert main(["--nope"]) == 2
