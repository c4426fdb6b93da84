"""gh-98433's own tests, and the codec's ways in: the fix reaches every caller.

Mirrors CPython's ``test_codecs.IDNACodecTest.test_builtin_decode_length_limit``
(added by gh-98433: 3.12 expects "way too long" for 1100 ``a``, the 3.7-3.11
backports "too long" for both) and the cases of ``test_builtin_decode``,
``test_builtin_encode``, ``test_stream``, ``test_incremental_decode`` and
``test_incremental_encode`` with the fix bound. Then the attack of the
issue, ``b'xn--016c' + b'a' * 3000``, through each way the codec is
reached: ``bytes.decode``, a ``CodecInfo`` looked up before the fix was
bound, the incremental decoder, the stream reader, and ``str.encode`` of
right-to-left labels through ``http.client``'s ``Host`` and
``socket.getaddrinfo`` (which encode before any network use).
"""

import codecs
import io
import socket

import pytest

import idna_helpers as helpers

if helpers.PY2:  # pragma: no cover - exercised by the py27 environment
    import httplib as http_client
else:
    import http.client as http_client

#: The issue's attack, and a label just under the bound (it still goes through punycode).
ATTACK = b"xn--016c" + b"a" * 3000
UNDER = b"xn--016c" + b"a" * (1024 - 8)
RTL = u"\u05d0"


def _decode(data):
    return data.decode("idna")


def test_cpython_builtin_decode_length_limit(idna_fixed):
    with pytest.raises(UnicodeError, match="way too long"):
        (b"xn--016c" + b"a" * 1100).decode("idna")
    with pytest.raises(UnicodeError, match="too long"):
        (b"xn--016c" + b"a" * 70).decode("idna")


CPYTHON_DECODE = [
    (b"python.org", u"python.org"),
    (b"python.org.", u"python.org."),
    (b"xn--pythn-mua.org", u"pyth\xf6n.org"),
    (b"xn--pythn-mua.org.", u"pyth\xf6n.org."),
]


@pytest.mark.parametrize("data, expected", CPYTHON_DECODE)
def test_cpython_builtin_decode(idna_fixed, data, expected):
    assert _decode(data) == expected


@pytest.mark.parametrize("expected, host", CPYTHON_DECODE)
def test_cpython_builtin_encode(idna_fixed, expected, host):
    assert helpers.text(host.encode("idna")) == expected.decode("ascii")


def test_cpython_stream(idna_fixed):
    reader = codecs.getreader("idna")(io.BytesIO(b"abc"))
    reader.read(3)
    assert reader.read() == u""


def test_cpython_incremental_decode(idna_fixed):
    decoder = codecs.getincrementaldecoder("idna")()
    assert decoder.decode(b"python.org.", True) == u"python.org."
    decoder = codecs.getincrementaldecoder("idna")()
    assert decoder.decode(b"xn--xam", ) == u""
    assert decoder.decode(b"ple-9ta.o", ) == u"\xe4xample."
    assert decoder.decode(b"rg", True) == u"org"


def test_cpython_incremental_encode(idna_fixed):
    encoder = codecs.getincrementalencoder("idna")()
    assert helpers.text(encoder.encode(u"\xe4x")) == u""
    assert helpers.text(encoder.encode(u"ample.org.")) == u"xn--xample-9ta.org."
    assert helpers.text(encoder.encode(u"", True)) == u""


def _refused_cheaply(function, *args):
    calls, bidi, result = helpers.work(function, *args)
    assert result[0] == "error" and "way too long" in result[2], result
    assert bidi == 0 and calls < 50, (calls, bidi)


def test_the_attack_through_bytes_decode(idna_fixed):
    _refused_cheaply(_decode, ATTACK)


def test_the_attack_through_a_codec_info_looked_up_before(idna_fixed):
    # codecs.lookup caches a CodecInfo holding Codec().decode: the method
    # reads ToUnicode from the module's globals at each call.
    info = codecs.lookup("idna")
    _refused_cheaply(info.decode, ATTACK)


def test_the_attack_through_the_incremental_decoder(idna_fixed):
    decoder = codecs.getincrementaldecoder("idna")()
    _refused_cheaply(decoder.decode, ATTACK + b".", True)


def test_the_attack_through_the_stream_reader(idna_fixed):
    _refused_cheaply(lambda data: codecs.getreader("idna")(io.BytesIO(data)).read(), ATTACK)


def test_a_label_under_the_bound_is_decoded_as_before(idna_fixed):
    # 1024 characters: not refused by the bound, refused by step 8 as ever,
    # with the bidi check run once per character.
    calls, bidi, result = helpers.work(_decode, UNDER)
    assert result[0] == "error" and "too long" in result[2]
    assert "way too long" not in result[2]
    assert bidi <= 2 * len(UNDER)


def _putrequest(host):
    connection = http_client.HTTPConnection(host, 80)
    connection.putrequest("GET", "/")  # encodes the Host header; connects only on send


@pytest.mark.parametrize("way", [_putrequest, lambda host: socket.getaddrinfo(host, 80)])
def test_right_to_left_host_names_cost_linear_bidi_checks(idna_fixed, way):
    # str.encode('idna') runs ToASCII -> nameprep on a non-ASCII label: 1000
    # right-to-left letters cost 1000 bidi checks, not 1000 ** 2.
    calls, bidi, result = helpers.work(way, RTL * 1000)
    assert result[0] == "error" and "too long" in result[2], result
    assert 1000 <= bidi <= 1100


def test_the_fix_is_the_names_the_codec_reads(idna_fixed):
    module = helpers.module()
    new = helpers.fix.replacements(module)
    assert set(new) <= {"ToUnicode", "nameprep"} and "ToUnicode" in new
    for name, function in new.items():
        stock = helpers.STOCK[name]
        assert (function.__name__, function.__doc__, function.__module__) == \
            (stock.__name__, stock.__doc__, stock.__module__)
        assert getattr(function, "__qualname__", None) == getattr(stock, "__qualname__", None)
