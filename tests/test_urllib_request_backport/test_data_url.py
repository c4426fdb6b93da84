"""CVE-2025-15282 (gh-143925): no control characters in a ``data:`` URL's media type.

Mirrors CPython's test_urllib ``urlopen_DataTests`` (the honest URLs: text,
base64 text, an image whose base64 holds a newline and blanks, a missing
comma, bad padding) on a patched interpreter, and gh-143925's check: every
C0 control character and DEL, in the media type and before ``;base64``,
refused with upstream's ValueError and message. Then honest URLs generated:
the patched handler's response (body, headers, URL) or error is the stock
one's; the unfixed stock handler's injected header (the test that fails
without the fix); the probe; ``patch()``/``unpatch()`` by identity. 2.7's
``urllib2`` has no ``data:`` handler: there, only that nothing is patched.
"""

import base64
import sys

import pytest
from hypothesis import given, settings, strategies as st

import urllib_request_backport
from budget import examples

PY2 = sys.version_info[0] == 2
MESSAGE = "Control characters not allowed in data: mediatype"
CONTROL = [chr(code) for code in range(0x20)] + ["\x7f"]

if PY2:  # pragma: no cover - exercised by the py27 environment
    import urllib2 as request
else:
    import urllib.request as request

needs_3 = pytest.mark.skipif(PY2, reason="2.7's urllib2 has no data: handler")

# CPython's urlopen_DataTests values.
TEXT = u"test data URLs :;,%=& \u00f6 \u00c4 "
IMAGE = (b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00'
         b'\x01\x08\x02\x00\x00\x00{@\xe8\xdd\x00\x00\x00\x01sRGB\x00\xae'
         b'\xce\x1c\xe9\x00\x00\x00\x0fIDAT\x08\xd7c```\xf8\xff\xff?\x00'
         b'\x06\x01\x02\xfe\no/\x1e\x00\x00\x00\x00IEND\xaeB`\x82')
TEXT_URL = ("data:text/plain;charset=UTF-8,test%20data%20URLs%20%3A%3B%2C%25%3"
            "D%26%20%C3%B6%20%C3%84%20")
TEXT_URL_BASE64 = ("data:text/plain;charset=ISO-8859-1;base64,dGVzdCBkYXRhIFVSTHMgOjs"
                   "sJT0mIPYgxCA%3D")
IMAGE_URL = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7\n"
             "QOjdAAAAAXNSR0IArs4c6QAAAA9JREFUCNdj%0AYGBg%2BP//PwAGAQL%2BCm8 "
             "vHgAAAABJRU5ErkJggg%3D%3D%0A%20")


def _open(url):
    opener = request.OpenerDirector()
    opener.add_handler(request.DataHandler())
    return opener.open(url)


def _outcome(url):
    """``(body, headers, url)`` of opening *url*, or ``(error type, message)``."""
    try:
        response = _open(url)
    except Exception as error:
        return type(error).__name__, str(error)
    with response:
        return response.read(), sorted(response.info().items()), response.geturl()


@needs_3
def test_cpython_data_urls_read_patched():
    urllib_request_backport.patch()
    text = _open(TEXT_URL)
    assert text.read().decode(dict(text.info().get_params())["charset"]) == TEXT
    assert text.geturl() == TEXT_URL
    based = _open(TEXT_URL_BASE64)
    assert based.info().get_params() == [("text/plain", ""), ("charset", "ISO-8859-1")]
    assert based.read().decode("ISO-8859-1") == TEXT
    image = _open(IMAGE_URL)  # a newline and blanks in the data, not the media type
    assert image.info()["content-length"] == str(len(IMAGE))
    assert image.read() == IMAGE
    assert _open("data:,").info().get_params() == [("text/plain", ""),
                                                   ("charset", "US-ASCII")]


@needs_3
@pytest.mark.parametrize("url", ["data:text/plain", "data:;base64,Cg="])
def test_cpython_data_url_errors_patched(url):
    # test_missing_comma, test_invalid_base64_data: the stock function's ValueError.
    stock = _outcome(url)
    assert stock[0] in ("ValueError", "Error")
    urllib_request_backport.patch()
    assert _outcome(url) == stock


@needs_3
@pytest.mark.parametrize("character", CONTROL, ids=[hex(ord(c)) for c in CONTROL])
def test_gh_143925_control_characters_in_the_media_type_are_refused(character):
    urllib_request_backport.patch()
    for url in ("data:text/html;%s,data" % character,
                "data:text/html%s;base64,ZGF0YQ==" % character,
                "data:%s,data" % character):
        with pytest.raises(ValueError) as caught:
            _open(url)
        assert type(caught.value) is ValueError
        assert str(caught.value) == MESSAGE


@needs_3
def test_the_stock_handler_lets_a_header_in():
    # What gh-143925 is for: fails (no X-Injected) on an interpreter that has the fix.
    url = "data:text/plain\nX-Injected: 1,hello"
    assert _open(url).info()["X-Injected"] == "1"
    urllib_request_backport.patch()
    assert _outcome(url) == ("ValueError", MESSAGE)


@needs_3
def test_control_characters_in_the_data_pass_as_stock():
    url = "data:text/plain,a\x00b\nc\x7f%0Ad"
    stock = _outcome(url)
    urllib_request_backport.patch()
    assert _outcome(url) == stock
    assert stock[0] == b"a\x00b\nc\x7f\nd"


@needs_3
def test_a_url_the_stock_code_cannot_split_fails_as_stock():
    class Request(object):
        def __init__(self, url):
            self.full_url = url

    handler = request.DataHandler()
    urls = ["data", "data:text/plain\n", b"data:text/plain\n,x", None]
    stock = []
    for url in urls:
        with pytest.raises(Exception) as caught:
            handler.data_open(Request(url))
        stock.append((type(caught.value), str(caught.value)))
    urllib_request_backport.patch()
    for url, (kind, text) in zip(urls, stock):
        with pytest.raises(kind) as caught:
            handler.data_open(Request(url))
        assert str(caught.value) == text


_MEDIA = st.sampled_from(["", "text/plain", "text/html", "image/png", "application/json",
                          "text/plain;charset=UTF-8", ";charset=iso-8859-7",
                          "text/plain;a=b;c=d", "TEXT/Plain", "x/y;name=\"quoted value\""])
_DATA = st.binary(max_size=40)


@needs_3
@settings(max_examples=examples(200), deadline=None)
@given(_MEDIA, st.booleans(), _DATA, st.sampled_from(["quote", "raw", "fragment"]))
def test_honest_data_urls_get_the_stock_response(media, based, data, form):
    from urllib.parse import quote_from_bytes
    if based:
        body = base64.b64encode(data).decode("ascii")
        url = "data:%s;base64,%s" % (media, quote_from_bytes(body.encode("ascii"))
                                     if form == "quote" else body)
    else:
        body = quote_from_bytes(data) if form != "raw" else data.decode("latin-1")
        url = "data:%s,%s" % (media, body)
    if form == "fragment":
        url += "#part"
    stock = _outcome(url)
    urllib_request_backport.patch()
    try:
        assert _outcome(url) == stock
    finally:
        urllib_request_backport.unpatch()


def test_the_probe_on_this_interpreter():
    from urllib_request_backport import _data_url
    assert _data_url.needs_fix(request) is not PY2  # 3.6.15 to 3.13.0: none has gh-143925
    if PY2:
        assert "DataHandler" not in vars(request)
        report = urllib_request_backport.patch()
        assert ("urllib.request", "not in this interpreter: nothing to fix") in report.skipped
        assert not [label for label in report.changed if "data_open" in label]


@needs_3
def test_the_patched_handler_passes_the_probe():
    from urllib_request_backport import _data_url
    urllib_request_backport.patch()
    assert _data_url.needs_fix(request) is False
    assert urllib_request_backport.status()["fixes"]["CVE-2025-15282"] == {
        "lacks": True, "exposed": False, "issue": "gh-143925", "state": "patched",
        "target": "urllib.request.DataHandler.data_open",
        "copies": {"future.backports.urllib.request": {  # python-future's, not imported here
            "lacks": None, "exposed": False, "state": "not imported"}}}


@needs_3
def test_patch_binds_data_open_and_unpatch_restores_it_by_identity():
    stock = request.DataHandler.__dict__["data_open"]
    report = urllib_request_backport.patch()
    assert "urllib.request.DataHandler.data_open" in report.changed
    new = request.DataHandler.__dict__["data_open"]
    assert new is not stock
    assert (new.__name__, new.__qualname__, new.__doc__) == (
        stock.__name__, stock.__qualname__, stock.__doc__)
    assert urllib_request_backport.patch() is report
    back = urllib_request_backport.unpatch()
    assert "urllib.request.DataHandler.data_open" in back.changed
    assert request.DataHandler.__dict__["data_open"] is stock
