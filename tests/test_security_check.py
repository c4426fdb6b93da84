"""``cpython-security-check``: the console script that runs every fix's self-check."""

import json
import os
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run

SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")


def check(*args, **env):
    """Run the installed console script with this environment's interpreter."""
    return run([SCRIPT] + list(args), **env)


def test_installed_with_the_wheel():
    assert os.path.isfile(SCRIPT)


def test_json_holds_every_status_document():
    rc, out, err = check("--json")
    document = json.loads(out)
    assert sorted(document) == ["ctypes_safe", "exposed", "http_cookies_backport",
                                "urllib_parse_backport"]
    assert document["urllib_parse_backport"]["cve"] == "CVE-2021-23336"
    assert document["ctypes_safe"]["cve"] == "CVE-2021-3177"
    assert document["http_cookies_backport"]["cve"] == "CVE-2024-7592"
    assert document["exposed"] is any(
        info["exposed"] for name, info in document.items() if name != "exposed")
    assert rc == (1 if document["exposed"] else 0)


def test_one_line_per_registry_entry():
    from internals import shared_registry
    rc, out, err = check()
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [
        fix.cve for fix in shared_registry.FIXES]
    assert "CVE-2024-7592" in [line.split(":")[0] for line in lines]
    assert lines[-1].startswith("verdict: ")


def test_bare_process_is_exposed():
    # Twisted Web's own parser splits on ';' in every pinned release; on 2.7
    # the stdlib and ctypes are unfixed too.
    importorskip("twisted.web.http")
    rc, out, err = check()
    assert rc == 1, err
    lines = out.splitlines()
    verdicts = dict((line.split()[0], line.split()[1]) for line in lines[:-1])
    assert verdicts["CVE-2021-23336:"] == "EXPOSED"
    assert verdicts["CVE-2021-3177:"] == ("EXPOSED" if sys.version_info[0] == 2 else "safe")
    # Every interpreter of the matrix lacks CVE-2025-0938's fix (3.12.9, 3.13.2).
    assert verdicts["CVE-2025-0938:"] == "EXPOSED"
    assert [line.split()[0] for line in lines[:-1]] == [
        "CVE-2021-23336:", "CVE-2023-24329:", "CVE-2022-0391:", "CVE-2024-11168:",
        "CVE-2025-0938:", "CVE-2021-3177:", "CVE-2024-7592:"]
    assert lines[-1].startswith("verdict: EXPOSED")


def test_every_switch_makes_the_process_safe():
    rc, out, err = check(URLLIB_PARSE_BACKPORT_PATCH="frameworks", CTYPES_SAFE_PATCH="1",
                         HTTP_COOKIES_BACKPORT_PATCH="1")
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "verdict: safe"


@pytest.mark.parametrize("args", [["--bogus"], ["extra"]])
def test_usage_error(args):
    rc, out, err = check(*args)
    assert rc == 2
    assert err.startswith("usage: cpython-security-check")
