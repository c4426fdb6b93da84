"""``python -m urllib_parse_backport``: the self-check and its exit status (issue 4)."""

import json
import os
import subprocess
import sys

import pytest

PY2 = sys.version_info[0] == 2
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
    assert info["stdlib"]["splits_semicolon"] is PY2
    assert info["stdlib"]["has_separator"] is not PY2
    assert info["shim"]["active"] is False
    assert info["exposed"] is PY2
    assert rc == (1 if PY2 else 0), err


def test_text_report_and_exit_status():
    rc, out, err = self_check()
    assert "shim active:     no" in out
    assert ATTACK in out
    if PY2:
        assert rc == 1
        assert "VULNERABLE" in out and "EXPOSED" in out
    else:
        assert rc == 0
        assert "fixed (bpo-42967)" in out and "verdict:         safe" in out


def test_shim_activated_by_the_variable_makes_the_process_safe():
    rc, out, err = self_check("--json", URLLIB_PARSE_BACKPORT_PATCH="force")
    info = json.loads(out)
    assert rc == 0, err
    assert info["shim"]["active"] is True
    assert info["attack"]["stdlib"] == info["attack"]["backport"]
    assert info["stdlib"]["splits_semicolon"] is PY2  # as it was before the patch


@pytest.mark.parametrize("args", [["--bogus"], ["--json", "extra"]])
def test_usage_error(args):
    rc, out, err = self_check(*args)
    assert rc == 2
    assert "usage" in err


def test_main_in_process(capsys):
    from urllib_parse_backport._cli import main

    assert main([]) == (1 if PY2 else 0)
    assert "self-check" in capsys.readouterr().out
