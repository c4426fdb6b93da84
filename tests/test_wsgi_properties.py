"""Property: behind ``protect()``, a framework's own parser returns what the fixed
``parse_qs`` returns on the original query (or body), for generated queries.

The frameworks are the installed ones of tests/requirements/frameworks.txt,
called in-process as WSGI applications (tests/wsgi_apps.py; the same apps go
over HTTP in test_wsgi_http.py). Each keeps blank values, so the oracle is
``parse_qs(original, keep_blank_values=True)``. The generated queries use
the characters that decide how fields split (``&``, ``;``, ``=``, ``+``, the
escapes of those) and escapes that decode to ASCII or valid UTF-8. Left out: raw non-ASCII bytes,
invalid UTF-8 and malformed escapes, where the frameworks differ from
``parse_qs`` with or without ``protect()``, which never touches them
(CherryPy's body parser drops the ``%`` of ``%zz``; WebOb 1.8 on 3.x reads
``%4`` at the end as ``\x04``).
"""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsgi_apps import FRAMEWORKS, call, import_framework

from urllib_parse_backport import parse_qs
from urllib_parse_backport.wsgi import protect

PY2 = sys.version_info[0] == 2
SETTINGS = settings(max_examples=150, deadline=None)

TOKENS = ["a", "b", "c", "=", "=", "&", "&", ";", ";", "+", "%3B", "%3b", "%26", "%3D",
          "%2B", "%25", "%41", "%C3%A9", "&&", ";;"]
queries = st.lists(st.sampled_from(TOKENS), max_size=14).map("".join)

_APPS = {}


def app_of(name):
    """The framework's app, built once (Django and CherryPy are configured once
    per process), or a skip if the framework is not installed here."""
    if name not in _APPS:
        found = import_framework(name)
        _APPS[name] = found and found[0]()
    if _APPS[name] is None:
        pytest.skip("%s is not installed for Python %d.%d" % ((name,) + sys.version_info[:2]))
    return _APPS[name]


def expected(query, **options):
    fields = parse_qs(query, keep_blank_values=True, **options)
    if PY2:  # native str in, str out: the frameworks give text
        fields = dict((name.decode("utf-8"), [value.decode("utf-8") for value in values])
                      for name, values in fields.items())
    return fields


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@SETTINGS
@given(query=queries)
def test_the_framework_parses_a_protected_query_as_parse_qs(framework, query):
    app = protect(app_of(framework))
    assert call(app, query=query)["query"] == expected(query)


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@SETTINGS
@given(query=queries)
def test_the_framework_parses_a_protected_body_as_parse_qs(framework, query):
    app = protect(app_of(framework))
    assert call(app, "POST", body=query.encode("ascii"))["form"] == expected(query)


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@SETTINGS
@given(query=queries)
def test_with_semicolon_as_separator_the_framework_parses_as_parse_qs(framework, query):
    app = protect(app_of(framework), separator=";")
    answer = call(app, query=query)
    assert answer["query"] == expected(query, separator=";")
    assert answer["original"] == query
