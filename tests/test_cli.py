"""``python -m urllib_parse_backport``: the self-check and its exit status (issue 4)."""

import json
import os
import subprocess
import sys

import pytest
from stdlib_state import FORCE, UNFIXED
ATTACK = "q=common_term&utm_content=s;q=malicious_term"


def self_check(*args, **env):
    environ = dict(os.environ)
    environ.pop("URLLIB_PARSE_BACKPORT_PATCH", None)
    environ.update(env)
    process = subprocess.Popen([sys.executable, "-W", "error", "-m", "urllib_parse_backport"]
                               + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environ, universal_newlines=True)
    out, err = process.communicate()
    return process.returncode, out, err


def test_json_report():
    rc, out, err = self_check("--json")
    info = json.loads(out)
    assert info["attack"]["query"] == ATTACK
    assert info["attack"]["backport"] == {"q": ["common_term"],
                                          "utm_content": ["s;q=malicious_term"]}
    assert info["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert info["stdlib"]["splits_semicolon"] is UNFIXED
    assert info["stdlib"]["has_separator"] is not UNFIXED
    assert info["shim"]["active"] is False
    assert info["exposed"] is UNFIXED
    assert rc == (1 if UNFIXED else 0), err


def test_text_report_and_exit_status():
    rc, out, err = self_check()
    assert "shim active:     no" in out
    assert ATTACK in out
    if UNFIXED:
        assert rc == 1
        assert "VULNERABLE" in out and "EXPOSED" in out
    else:
        assert rc == 0
        assert "fixed (bpo-42967)" in out and "verdict:         safe" in out


def test_shim_activated_by_the_variable_makes_the_process_safe():
    # Not forced where the stdlib is unfixed: exit 1 before (above), 0 after.
    rc, out, err = self_check("--json", URLLIB_PARSE_BACKPORT_PATCH="force" if FORCE else "1")
    info = json.loads(out)
    assert rc == 0, err
    assert info["shim"]["active"] is True
    assert info["attack"]["stdlib"] == info["attack"]["backport"]
    assert info["stdlib"]["splits_semicolon"] is UNFIXED  # as it was before the patch


@pytest.mark.parametrize("args", [["--bogus"], ["--json", "extra"]])
def test_usage_error(args):
    rc, out, err = self_check(*args)
    assert rc == 2
    assert "usage" in err


def test_main_in_process(capsys):
    from urllib_parse_backport._cli import main

    assert main([]) == (1 if UNFIXED else 0)
    assert "self-check" in capsys.readouterr().out


ADAPTER_PARSERS = [
    "webob.compat.parse_qsl_text", "cherrypy.lib.httputil._parse_qs",
    "cherrypy._cpreqbody.process_urlencoded", "twisted.web.http.parse_qs",
    "bottle._parse_qsl", "django.utils.http.limited_parse_qsl"]


def frameworks_check(**env):
    # Not under -W error: the frameworks' own imports warn on newer interpreters.
    environ = dict(os.environ)
    environ.pop("URLLIB_PARSE_BACKPORT_PATCH", None)
    environ.update(env)
    process = subprocess.Popen([sys.executable, "-m", "urllib_parse_backport",
                                "--frameworks", "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environ, universal_newlines=True)
    out, err = process.communicate()
    info = json.loads(out)
    return process.returncode, dict((entry["parser"], entry) for entry in info["frameworks"])


def test_frameworks_option_finds_a_framework_parser_that_splits_on_semicolons():
    # Twisted Web's parse_qs splits on ';' in every release pinned for the tests.
    pytest.importorskip("twisted.web.http")
    rc, parsers = frameworks_check()
    assert sorted(parsers) == sorted(ADAPTER_PARSERS)
    assert parsers["twisted.web.http.parse_qs"] == {
        "parser": "twisted.web.http.parse_qs", "exposed": True,
        "status": "splits on ';' (CVE-2021-23336)"}
    assert rc == 1


def test_frameworks_option_after_the_adapters_at_start_up():
    pytest.importorskip("twisted.web.http")
    rc, parsers = frameworks_check(URLLIB_PARSE_BACKPORT_PATCH="frameworks")
    assert parsers["twisted.web.http.parse_qs"]["status"] == "already splits on '&' only"
    assert not [name for name, entry in parsers.items() if entry["exposed"]]
    assert rc == 0


def test_frameworks_text_report():
    rc, out, err = self_check("--frameworks")
    assert "frameworks (patch(frameworks=True) fixes those that split on ';'):" in out
    for parser in ADAPTER_PARSERS:
        assert "  %s: " % parser in out


@pytest.mark.parametrize("args", [["--frameworks", "--frameworks"], ["--frameworks", "x"]])
def test_frameworks_usage_error(args):
    rc, out, err = self_check(*args)
    assert rc == 2
    assert "[--frameworks]" in err
