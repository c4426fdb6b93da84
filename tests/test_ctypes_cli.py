"""``python -m ctypes_safe``: the self-check and its exit status (CVE-2021-3177, bpo-42938)."""

import json
import subprocess
import sys

import ctypes_helpers as helpers


def run(*args):
    process = subprocess.Popen([sys.executable, "-m", "ctypes_safe"] + list(args),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    return process.returncode, out.decode("utf-8"), err.decode("utf-8")


def test_json_report():
    code, out, err = run("--json")
    report = json.loads(out)
    assert report["vulnerable"] is (not helpers.FIXED)
    assert report["patched"] is False
    assert report["safe"] is helpers.FIXED
    assert report["probe"] is None
    assert report["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert code == (0 if helpers.FIXED else 1), err


def test_text_report_and_probe():
    code, out, err = run("--probe")
    assert code == (0 if helpers.FIXED else 1), err
    assert "interpreter: CPython %d.%d.%d" % sys.version_info[:3] in out
    if helpers.FIXED:
        assert "fixed (bpo-42938)" in out
        assert "exit 0, <cparam 'd' (1e+300)>" in out
        assert out.rstrip().endswith("status: safe")
    else:
        assert "VULNERABLE" in out
        assert "killed by SIG" in out  # the child died, this process did not
        assert "status: EXPOSED" in out


def test_probe_json():
    code, out, _ = run("--json", "--probe")
    probe = json.loads(out)["probe"]
    assert probe["crashed"] is (not helpers.FIXED)
    if not helpers.FIXED:
        assert probe["signal"] in ("SIGSEGV", "SIGILL", "SIGBUS", "SIGABRT")


def test_bad_arguments():
    code, _, err = run("--nope")
    assert code == 2 and "usage" in err
