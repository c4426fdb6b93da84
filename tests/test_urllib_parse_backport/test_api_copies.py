"""patch() reaches the parsers other modules hold: six's and python-future's
moves, and python-future's own copy of 3.3's parser (bpo-42967).
"""

import sys
import warnings

import pytest

from dependencies import importorskip
from stdlib_state import FORCE

import urllib_parse_backport as backport
from test_api import ATTACK, SAFE, SAFE_PAIRS, stdlib

# Every test here starts and ends unpatched (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("unpatched")


def test_six_moves_cached_before_patch():
    six = importorskip("six")
    original = six.moves.urllib.parse.parse_qsl  # six caches it on first access
    assert original is stdlib.parse_qsl
    backport.patch(force=FORCE)
    assert six.moves.urllib.parse.parse_qsl(ATTACK) == SAFE_PAIRS
    assert six.moves.urllib.parse.parse_qs(ATTACK) == SAFE
    backport.unpatch()
    assert six.moves.urllib.parse.parse_qsl is original


def test_future_moves_urllib_parse():
    importorskip("future")
    from future.moves.urllib import parse as moves

    original = moves.parse_qsl
    backport.patch(force=FORCE)
    assert moves.parse_qsl(ATTACK) == SAFE_PAIRS
    backport.unpatch()
    assert moves.parse_qsl is original


def test_future_backports_own_copy_is_patched_even_on_a_fixed_stdlib():
    importorskip("future")
    from future.backports.urllib import parse as copy

    originals = copy.parse_qs, copy.parse_qsl
    assert len(copy.parse_qsl("a=1;b=2")) == 2  # vulnerable everywhere
    report = backport.patch()  # not forced: its own probe says it splits ';'
    assert "future.backports.urllib.parse.parse_qsl" in report.changed
    assert dict((str(k), [str(v) for v in vs]) for k, vs in copy.parse_qs(ATTACK).items()) == SAFE
    assert [tuple(map(str, pair)) for pair in copy.parse_qsl(ATTACK)] == SAFE_PAIRS
    assert copy.parse_qsl("a=%3B;b", True) == [("a", ";;b")]
    backport.unpatch()
    assert (copy.parse_qs, copy.parse_qsl) == originals
    assert copy.parse_qsl is originals[1]


@pytest.mark.parametrize("setting", [
    {"PYTHON_URLLIB_QS_SEPARATOR": ";"},
    {"PYTHON_URLLIB_QS_SEPARATOR": "legacy"},
    {"PYTHON_URLLIB_QS_SEPARATOR": "&"},
    {}])
def test_future_backports_own_copy_follows_the_separator_policy(setting):
    # The operator's separator applies to every parser the shim fixes, this one too.
    importorskip("future")
    from future.backports.urllib import parse as copy

    query = "a=1;b=2&c=3"
    try:
        backport.read_environment(setting)
        backport.patch()
        expected = backport.parse_qsl(query)
        assert [tuple(map(str, pair)) for pair in copy.parse_qsl(query)] == expected
    finally:
        backport.unpatch()
        backport.read_environment()


def test_future_backports_own_copy_warns_naming_its_caller():
    importorskip("future")
    from future.backports.urllib import parse as copy

    try:
        backport.read_environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
        backport.patch()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            line = sys._getframe().f_lineno + 1
            copy.parse_qsl("a=1;b=2")
        assert [warning.category for warning in caught] == [backport.QuerySeparatorWarning]
        assert (caught[0].filename.rstrip("c"), caught[0].lineno) == (
            __file__.rstrip("c"), line)
    finally:
        backport.unpatch()
        backport.read_environment()
