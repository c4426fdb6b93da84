"""Property: behind ``protect()``, a framework's own parser returns what the fixed
``parse_qs`` returns on the original query (or body), for generated queries.

The frameworks are the installed ones of tests/requirements/frameworks.txt,
called in-process as WSGI applications (wsgi_apps.py; the same apps go
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

from dependencies import missing
from label_blind import without_label_blind_parser
from wsgi_apps import FRAMEWORKS, call, import_framework, server_environ

from urllib_parse_backport import parse_qs
from urllib_parse_backport.wsgi import protect
from budget import examples

PY2 = sys.version_info[0] == 2
SETTINGS = settings(max_examples=examples(150), deadline=None)

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
        missing(FRAMEWORKS[name][0])
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


# --- bodies in every framing and label -----------------------------------------------

#: Spellings of the urlencoded media type a client may send: any case, charset
#: parameters given once or twice, quoted, unknown, not ASCII-compatible. (Each
#: names UTF-8 or nothing a framework can use, so the escapes decode as
#: ``parse_qs`` decodes them; a framework that refuses a spelling is skipped.)
form_types = st.tuples(
    st.sampled_from(["application/x-www-form-urlencoded", "APPLICATION/X-WWW-FORM-URLENCODED",
                     "Application/x-www-form-urlencoded", " application/x-www-form-urlencoded"]),
    st.sampled_from(["", "; charset=utf-8", ";charset=UTF-8", '; charset="utf-8"',
                     "; charset=utf-8; charset=utf-8", "; charset=no-such-charset"]),
).map("".join) | st.sampled_from([
    # Unlabelled (cgi, WebOb, CherryPy), blank, another label (Bottle 0.12.18,
    # label-blind: loaded here, so protect() counts it), a list (CherryPy
    # splits it on commas and takes the greatest element).
    None, "", "text/plain", "application/json",
    "MULTIPART/x, application/x-www-form-urlencoded",
])

_READS = {}


def reads(framework, content_type, chunked):
    """Whether the framework, unprotected, parses a body so labelled and framed at all."""
    key = (framework, content_type, chunked)
    if key not in _READS:
        try:
            form = call(app_of(framework), "POST", body=b"z=1", content_type=content_type,
                        chunked=chunked)["form"]
        except Exception:  # WebOb refuses a charset other than UTF-8
            form = None
        _READS[key] = form == {"z": ["1"]}
    return _READS[key]


@pytest.mark.parametrize("chunked", [False, True, "framed"], ids=["length", "chunked", "framed"])
@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
@SETTINGS
@given(query=queries, content_type=form_types)
def test_a_protected_form_body_in_any_framing_parses_as_parse_qs(
        framework, chunked, query, content_type):
    if not reads(framework, content_type, chunked):
        return  # the framework leaves such a body alone, with or without protect()
    if framework == "bottle":
        assert "bottle" in sys.modules  # the label-blind parser protect() must see
    # The in-house parser reads any body as a form, and tells protect() so.
    answer = call(protect(app_of(framework), label_blind=framework == "inhouse"), "POST",
                  body=query.encode("ascii"), content_type=content_type, chunked=chunked)
    assert answer["form"] == expected(query)


def test_each_framework_reads_some_framing_the_property_checks():
    # The property above returns early where a framework reads nothing: it
    # must still check each installed framework on some spelling and framing.
    for name in sorted(FRAMEWORKS):
        if import_framework(name) is None:
            continue
        assert reads(name, "application/x-www-form-urlencoded", False), name


def _json_text():
    alphabet = st.sampled_from(list(u"ab=&;+%3B \u00e9\n\""))
    return st.lists(alphabet, max_size=12).map(u"".join)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _json_text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(_json_text(), children, max_size=4),
    max_leaves=12)


def _dump(value, compact):
    import json
    if compact:  # JSON.stringify's output: no whitespace at all
        return json.dumps(value, separators=(",", ":")).encode("ascii")
    return json.dumps(value, indent=1).encode("ascii")


words = st.lists(st.sampled_from(["q=1", "a;b", "&", "note", "x=y;z", "%3B", "hello"]),
                 min_size=2, max_size=8)


def _multipart(fields):
    parts = [b"--xyz\r\nContent-Disposition: form-data; name=\"f%d\"\r\n\r\n%s\r\n"
             .replace(b"%d", str(i).encode("ascii")).replace(b"%s", value)
             for i, value in enumerate(fields)]
    return b"".join(parts) + b"--xyz--\r\n"


def _data_url(data):
    import base64
    return b"data:image/png;base64," + base64.b64encode(data)  # canvas.toDataURL()


def _gzip(data):
    import zlib
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    return compressor.compress(data) + compressor.flush()


def _binary(data, at):
    at = at % (len(data) + 1)
    return data[:at] + b"\x00" + data[at:]  # one byte no text has


not_forms = st.one_of(
    st.tuples(json_values, st.booleans()).map(lambda pair: _dump(*pair)),
    words.map(lambda w: " ".join(w).encode("ascii")),                      # prose
    words.map(lambda w: "\n".join(w).encode("ascii")),                     # lines
    st.lists(st.binary(max_size=20).map(lambda b: b.replace(b"\r\n", b"")),
             max_size=4).map(_multipart),
    st.tuples(st.binary(max_size=40), st.integers(0, 40)).map(lambda pair: _binary(*pair)),
    st.binary(min_size=1, max_size=60).map(_data_url),
    words.map(lambda w: ("a{b:c;d:%s}" % ";".join(w)).encode("ascii")),  # minified CSS
    words.map(lambda w: _gzip(";".join(w).encode("ascii"))),
)
labels = st.sampled_from(["text/plain", "application/json", "application/octet-stream",
                          "text/plain;charset=UTF-8", "text/css", "application/gzip",
                          "multipart/form-data; boundary=xyz", "image/png"])


def _raw_reader(environ, start_response):
    """Echoes the body as read: ``CONTENT_LENGTH`` bytes, or to the end of a de-chunked one."""
    stream = environ["wsgi.input"]
    if environ.get("CONTENT_LENGTH"):
        body = stream.read(int(environ["CONTENT_LENGTH"]))
    else:
        body = stream.read()
    start_response("200 OK", [])
    return [body]


@SETTINGS
@given(body=not_forms, content_type=labels, chunked=st.sampled_from([False, True, "framed"]))
def test_a_body_that_is_no_form_reaches_the_app_byte_for_byte(body, content_type, chunked):
    # With no label-blind parser loaded, nothing reads such a body as a form.
    environ = server_environ("POST", body=body, content_type=content_type, chunked=chunked)
    length = environ.get("CONTENT_LENGTH")
    sent = environ["wsgi.input"].getvalue()  # the body, or its chunked framing
    with without_label_blind_parser():
        out = b"".join(protect(_raw_reader)(environ, lambda status, headers: None))
    assert out == sent
    assert environ.get("CONTENT_LENGTH") == length
