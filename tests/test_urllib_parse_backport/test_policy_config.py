"""Red Hat's configuration file ``/etc/python/urllib.cfg`` sets the default separator.

Mirrors Fedora/RHEL patch 00359 for CVE-2021-23336 (its test_urlparse's
``test_parse_qs_separator_*`` cases with the config file): ``[parse_qs]``
``PYTHON_URLLIB_QS_SEPARATOR`` is read when the variable is not set; the
variable wins; the same values are accepted; a bad value raises Red Hat's
``ValueError`` naming the file. The file is a temporary one here, given to
``read_environment(environ, config_file=...)``.
"""

import os
import subprocess
import sys
import warnings

import pytest
from stdlib_state import FORCE, STDLIB

from internals import _policy
from urllib_parse_backport import parse_qs, parse_qsl, read_environment

QUERY = "a=1;b=2&c=3"
MESSAGE = ('PYTHON_URLLIB_QS_SEPARATOR (from %s) must contain 1 character, or "legacy". '
           'See https://access.redhat.com/articles/5860431 for more details.')


@pytest.fixture
def config(tmpdir):
    """``config(text, **environ)``: write the file, re-read the policy; all undone after."""
    path = str(tmpdir.join("urllib.cfg"))

    def apply(text=None, **environ):
        if text is not None:
            with open(path, "w") as handle:
                handle.write(text)
        return read_environment(environ, config_file=path)

    apply.path = path
    yield apply
    read_environment()


def separator_file(value):
    return "[parse_qs]\nPYTHON_URLLIB_QS_SEPARATOR = %s\n" % value


def test_missing_file_is_upstream(config):
    assert not os.path.exists(config.path)
    assert config() is None
    assert _policy.apply_default is None and _policy.source is None
    assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]


@pytest.mark.parametrize("value, expected", [
    ("&", [("a", "1;b=2"), ("c", "3")]),
    (";", [("a", "1"), ("b", "2&c=3")]),
    ("legacy", [("a", "1"), ("b", "2"), ("c", "3")]),
    ("b", [("a", "1;"), ("", "2&c=3")]),
])
def test_file_sets_the_default(config, value, expected):
    assert config(separator_file(value)) == value
    assert _policy.source == config.path
    assert parse_qsl(QUERY, keep_blank_values=True) == expected
    assert parse_qs(QUERY, keep_blank_values=True) == dict(
        (name, [v for n, v in expected if n == name]) for name, _ in expected)


def test_legacy_from_the_file_counts_both_separators(config):
    config(separator_file("legacy"))
    with pytest.raises(ValueError, match="Max number of fields exceeded"):
        parse_qsl("a=1;b=2", max_num_fields=1)
    assert parse_qsl(b"a=1;b=2") == [(b"a", b"1"), (b"b", b"2")]


def test_the_variable_wins_over_the_file(config):
    text = separator_file("legacy")
    assert config(text, PYTHON_URLLIB_QS_SEPARATOR=";") == ";"
    assert _policy.source == "environment variable"
    assert parse_qsl(QUERY) == [("a", "1"), ("b", "2&c=3")]
    # Even a bad variable: Red Hat reads the file only when the variable is unset.
    config(text, PYTHON_URLLIB_QS_SEPARATOR="")
    with pytest.raises(ValueError) as info:
        parse_qsl(QUERY)
    assert str(info.value) == MESSAGE % "environment variable"
    # And an explicit argument wins over both.
    config(text)
    assert parse_qsl(QUERY, separator="&") == [("a", "1;b=2"), ("c", "3")]


@pytest.mark.parametrize("value", ["", "abc", "safe", "&;", "SEP"])
def test_bad_value_raises_naming_the_file(config, value):
    assert config(separator_file(value)) == value
    with pytest.raises(ValueError) as info:
        parse_qsl("a=1")
    assert str(info.value) == MESSAGE % config.path
    assert parse_qsl("a=1", separator="&") == [("a", "1")]


def test_file_without_the_section_raises_configparsers_error_when_used(config):
    # Red Hat's parse_qsl lets ConfigParser's NoSectionError through; so does
    # the backport, but only when the default is used, never at import.
    assert config("[other]\nkey = value\n") is None
    for _ in range(2):  # each call raises afresh
        with pytest.raises(Exception) as info:
            parse_qsl("a=1")
        assert type(info.value).__name__ == "NoSectionError"
        assert "parse_qs" in str(info.value)
    assert parse_qsl("a=1", separator="&") == [("a", "1")]
    config("[parse_qs]\nother = value\n")
    with pytest.raises(Exception) as info:
        parse_qsl("a=1")
    assert type(info.value).__name__ == "NoOptionError"


@pytest.mark.parametrize("text", [
    "[other]\nkey = value\n", "[parse_qs]\nother = value\n", "not an ini file\n",
    separator_file("abc"), separator_file(""),
])
def test_protect_raises_the_parsers_error_for_the_file(config, text):
    # The error parse_qsl raises with the default separator, at wrap time.
    from urllib_parse_backport.wsgi import protect
    config(text)
    with pytest.raises(Exception) as parser_error:
        parse_qsl("a=1")
    with pytest.raises(Exception) as protect_error:
        protect(lambda environ, start_response: [])
    assert type(protect_error.value) is type(parser_error.value)
    assert str(protect_error.value) == str(parser_error.value)


def test_protect_follows_the_separator_from_the_file(config):
    from urllib_parse_backport.wsgi import protect
    seen = []
    config(separator_file(";"))
    protect(lambda environ, start_response: seen.append(environ["QUERY_STRING"]))(
        {"QUERY_STRING": QUERY}, None)
    assert seen == ["a=1&b=2%26c=3"]


def test_no_warning_when_the_file_chose_the_separator(config):
    config(separator_file("&"), URLLIB_PARSE_BACKPORT_WARN="1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert parse_qsl(QUERY) == [("a", "1;b=2"), ("c", "3")]


def test_patched_stdlib_follows_the_file(config, unpatched):
    config(separator_file("legacy"))
    unpatched.patch(force=FORCE)
    assert STDLIB.parse_qsl(QUERY) == [("a", "1"), ("b", "2"), ("c", "3")]


def test_import_without_the_file_imports_no_configparser(tmpdir):
    # A fresh interpreter, the real path: only meaningful where it does not exist.
    if os.path.exists(_policy.CONFIG_FILE):
        pytest.skip("%s exists on this host" % _policy.CONFIG_FILE)
    code = ("import sys; import urllib_parse_backport as u; "
            "print(u.read_environment() is None and not "
            "({'configparser', 'ConfigParser'} & set(sys.modules)))")
    environ = dict((name, value) for name, value in os.environ.items()
                   if not name.startswith(("PYTHON_URLLIB", "URLLIB_PARSE")))
    out = subprocess.check_output([sys.executable, "-c", code], env=environ,
                                  universal_newlines=True)
    assert out.strip() == "True"
