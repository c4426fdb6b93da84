"""The default separator: PYTHON_URLLIB_QS_SEPARATOR (Red Hat) and the opt-in warning.

Mirrors the semantics of Fedora/RHEL's patch 00359 for CVE-2021-23336
(``test_parse_qs_separator_*`` in its test_urlparse), applied to the backport.
"""

import inspect
import sys
import warnings

import pytest

from urllib_parse_backport import QuerySeparatorWarning, parse_qs, parse_qsl, read_environment
from internals import _policy

QUERY = "a=1;b=2&c=3"


@pytest.fixture
def environ():
    """Set variables for the policy, re-read them, and restore the real ones."""
    values = {}

    def apply(**kwargs):
        values.clear()
        values.update(kwargs)
        return read_environment(values)

    yield apply
    read_environment()


def test_unset_is_upstream(environ):
    assert environ() is None
    assert _policy.apply_default is None
    assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]


@pytest.mark.parametrize("value, expected", [
    ("&", [("a", "1;b=2"), ("c", "3")]),
    (";", [("a", "1"), ("b", "2&c=3")]),
    ("legacy", [("a", "1"), ("b", "2"), ("c", "3")]),
    ("b", [("a", "1;"), ("", "2&c=3")]),
])
def test_variable_sets_the_default(environ, value, expected):
    environ(PYTHON_URLLIB_QS_SEPARATOR=value)
    assert parse_qsl(QUERY, keep_blank_values=True) == expected
    assert parse_qs(QUERY, keep_blank_values=True) == dict(
        (name, [v for n, v in expected if n == name]) for name, _ in expected)


def test_legacy_applies_to_bytes_and_counts_both(environ):
    environ(PYTHON_URLLIB_QS_SEPARATOR="legacy")
    assert parse_qsl(QUERY.encode("ascii")) == [(b"a", b"1"), (b"b", b"2"), (b"c", b"3")]
    with pytest.raises(ValueError, match="Max number of fields exceeded"):
        parse_qsl("a=1;b=2", max_num_fields=1)
    with pytest.raises(ValueError, match="bad query field"):
        parse_qsl("a=1;b", strict_parsing=True)


@pytest.mark.parametrize("value", ["", "abc", "safe", "&;", "SEP"])
def test_bad_value_raises_naming_the_variable(environ, value):
    environ(PYTHON_URLLIB_QS_SEPARATOR=value)
    with pytest.raises(ValueError) as info:
        parse_qsl("a=1")
    assert str(info.value) == (
        'PYTHON_URLLIB_QS_SEPARATOR (from environment variable) must contain 1 character, '
        'or "legacy". See https://access.redhat.com/articles/5860431 for more details.')
    # An explicit separator never consults the variable.
    assert parse_qsl("a=1", separator="&") == [("a", "1")]


@pytest.mark.parametrize("value", [";", "legacy", "bad"])
def test_explicit_separator_wins(environ, value):
    environ(PYTHON_URLLIB_QS_SEPARATOR=value)
    assert parse_qsl(QUERY, separator="&") == [("a", "1;b=2"), ("c", "3")]
    assert parse_qsl(QUERY, separator=";") == [("a", "1"), ("b", "2&c=3")]


def test_read_once_not_per_call(environ, monkeypatch):
    environ()
    monkeypatch.setenv("PYTHON_URLLIB_QS_SEPARATOR", ";")
    assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]  # not re-read
    assert read_environment() == ";"
    assert parse_qsl(QUERY) == [("a", "1"), ("b", "2&c=3")]


def test_default_shows_as_ampersand_in_the_signature():
    if sys.version_info[0] == 2:
        default = inspect.getargspec(parse_qsl).defaults[-1]
    else:
        default = inspect.signature(parse_qsl).parameters["separator"].default
        assert "separator='&'" in str(inspect.signature(parse_qsl))
    assert default == "&" and repr(default) == "'&'"
    assert default is _policy.DEFAULT_SEPARATOR


def test_warning_is_opt_in(environ):
    environ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]


def test_warning_when_enabled_and_semicolon_with_default(environ):
    assert environ(URLLIB_PARSE_BACKPORT_WARN="1") == "warn"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]
        parse_qsl(b"a=1;b=2")
        parse_qsl("a=1&b=2")  # no ';'
        parse_qsl(QUERY, separator="&")  # explicit
        parse_qsl(QUERY, separator=";")
    assert [w.category for w in caught] == [QuerySeparatorWarning] * 2
    assert issubclass(QuerySeparatorWarning, RuntimeWarning)
    assert "CVE-2021-23336" in str(caught[0].message)
    assert caught[0].filename == __file__


def test_parse_qs_warns_once_and_points_at_its_caller(environ):
    environ(URLLIB_PARSE_BACKPORT_WARN="1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert parse_qs(QUERY) == {"a": ["1;b=2"], "c": ["3"]}
    assert [w.category for w in caught] == [QuerySeparatorWarning]
    assert caught[0].filename == __file__


def test_warning_is_filterable(environ):
    environ(URLLIB_PARSE_BACKPORT_WARN="yes")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=QuerySeparatorWarning)
        parse_qsl(QUERY)
    with warnings.catch_warnings():
        warnings.simplefilter("error", QuerySeparatorWarning)
        with pytest.raises(QuerySeparatorWarning):
            parse_qs(QUERY)


def test_no_warning_when_the_variable_chose_the_separator(environ):
    environ(PYTHON_URLLIB_QS_SEPARATOR="&", URLLIB_PARSE_BACKPORT_WARN="1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_qsl(QUERY)


@pytest.mark.parametrize("value", ["0", "", "off", "no", "false"])
def test_warning_switch_off_values(environ, value):
    assert environ(URLLIB_PARSE_BACKPORT_WARN=value) is None


def test_patched_stdlib_follows_the_policy(environ, unpatched):
    environ(PYTHON_URLLIB_QS_SEPARATOR="legacy")
    stdlib = sys.modules["urlparse" if sys.version_info[0] == 2 else "urllib.parse"]
    unpatched.patch(force=True)
    assert stdlib.parse_qsl(QUERY) == [("a", "1"), ("b", "2"), ("c", "3")]
