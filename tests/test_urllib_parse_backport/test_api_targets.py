"""Each target diagnosed by behaviour, never by version (bpo-42967), and
``patch()``'s ``_targets`` seam: a parser of any shape is patched, or left
alone, as its behaviour says.
"""

import sys
import types
import warnings

import pytest

import urllib_parse_backport as backport
from internals import _targets
from test_api import ATTACK, SAFE_PAIRS

# Every test here starts and ends unpatched (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("unpatched")


def _fake_module(name, source):
    module = types.ModuleType(name)
    exec(source, module.__dict__)
    sys.modules[name] = module
    return module


VULNERABLE_SOURCE = '''
def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None):
    return [tuple(p.split("=", 1)) for s in qs.split("&") for p in s.split(";") if p]
def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None):
    return dict((k, [v]) for k, v in parse_qsl(qs))
'''

REDHAT_SOURCE = '''
def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None, separator=None):
    import warnings
    if separator is None and ";" in qs:
        warnings.warn("default separator", RuntimeWarning)
    return [tuple(p.split("=", 1)) for p in qs.split(separator or "&") if p]
def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None, separator=None):
    return dict((k, [v]) for k, v in parse_qsl(qs, separator=separator))
'''

NO_SEPARATOR_SOURCE = '''
def parse_qsl(qs, keep_blank_values=0, strict_parsing=0):
    return [tuple(p.split("=", 1)) for p in qs.split("&") if p]
'''


@pytest.fixture
def extra_target():
    """``add(name, source)``: a module made from *source*; ``add.patch(**options)``
    patches with it as one more target (``patch()``'s ``_targets`` seam)."""
    added, names = [], []

    def add(name, source):
        module = _fake_module(name, source)
        added.append(_targets.Target(name, {"parse_qs": backport.parse_qs,
                                            "parse_qsl": backport.parse_qsl}))
        names.append(name)
        return module

    add.patch = lambda **options: backport.patch(_targets=list(added), **options)
    yield add
    backport.unpatch()
    for name in names:
        del sys.modules[name]


def test_diagnose_by_behaviour():
    vulnerable = _fake_module("shim_test_diag_v", VULNERABLE_SOURCE)
    redhat = _fake_module("shim_test_diag_r", REDHAT_SOURCE)
    try:
        assert _targets.diagnose(vulnerable.parse_qsl)["splits_semicolon"] is True
        facts = _targets.diagnose(redhat.parse_qsl)
        assert facts["vendor_patched"] and facts["has_separator"]
        assert facts["splits_semicolon"] is None  # not probed: would warn
        assert _targets.diagnose(backport.parse_qsl) == {
            "has_separator": True, "separator_default": "&", "vendor_patched": False,
            "splits_semicolon": False}
    finally:
        del sys.modules["shim_test_diag_v"], sys.modules["shim_test_diag_r"]


def test_extra_vulnerable_target_is_patched_and_restored(extra_target):
    module = extra_target("shim_test_vulnerable", VULNERABLE_SOURCE)
    original = module.parse_qsl
    report = extra_target.patch()
    assert "shim_test_vulnerable.parse_qsl" in report.changed
    assert module.parse_qsl(ATTACK) == SAFE_PAIRS
    backport.unpatch()
    assert module.parse_qsl is original


def test_redhat_style_parser_is_left_alone_unless_forced(extra_target):
    module = extra_target("shim_test_redhat", REDHAT_SOURCE)
    original = module.parse_qsl
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = extra_target.patch()  # the probe must not trigger Red Hat's warning
    assert "vendor-patched" in dict(report.skipped)["shim_test_redhat"]
    assert module.parse_qsl is original
    backport.unpatch()
    extra_target.patch(force=True)
    # Red Hat's cgi passes separator=None to mean "the default".
    assert module.parse_qsl(ATTACK, separator=None) == SAFE_PAIRS
    assert module.parse_qsl(ATTACK, 0, 0, None, None) == SAFE_PAIRS
    assert module.parse_qsl("a=1;b=2", separator=";") == [("a", "1"), ("b", "2")]
    assert original(ATTACK, 0, 0, None, None) == SAFE_PAIRS  # in place, too
    backport.unpatch()
    assert module.parse_qsl is original


def test_parser_without_separator_is_patched(extra_target):
    module = extra_target("shim_test_noseparator", NO_SEPARATOR_SOURCE)
    report = extra_target.patch()
    assert "shim_test_noseparator.parse_qsl" in report.changed
    assert dict(report.skipped)["shim_test_noseparator.parse_qs"] == "absent"
    assert module.parse_qsl("a=1;b=2", separator=";") == [("a", "1"), ("b", "2")]
