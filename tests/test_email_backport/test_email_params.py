"""gh-136063: ``email.message._parseparam`` in linear time, with the stock results.

Mirrors upstream's regression test of GH-136072 (Lib/test/test_email/test_email.py:
100,000 equal parameters, and one quoted parameter of 99,999 ``;``), a
complexity test (CPU at n and 4n, one run, a generous bound) and property
tests: generated values give what the stock function gives, directly and
through ``Message.get_param``/``get_params``/``get_filename``/``get_boundary``/
``get_content_charset``.
"""

import random

import pytest

import email
import email.message
import email_backport
from email_helpers import PY2
from work import growth


def _parse(s):
    """``_parseparam`` as its callers use it (2.7's callers pass ``';' + value``)."""
    return email.message._parseparam(";" + s if PY2 else s)


@pytest.mark.parametrize("s, r", [("", ""), ("foo=bar", "foo=bar"), (" FOO = bar ", "foo=bar")])
def test_upstream_linear_complexity_cases(s, r):
    email_backport.patch()
    n = 100000
    res = _parse((s + ";") * (n - 1) + s)
    assert len(res) == n and len(set(res)) == 1 and res[0] == r
    malformed = 's="' + ";" * (n - 1)  # one parameter: the quote is never closed
    assert _parse(malformed) == [malformed]


HOSTILE = [lambda n: '"' + ";" * n, lambda n: 's="' + ";" * n, lambda n: "a;" * n,
           lambda n: '"' + '\\";' * n]


@pytest.mark.parametrize("make", HOSTILE)
def test_patched_cost_grows_linearly(make):
    email_backport.patch()
    small, large = make(25000), make(100000)
    ratio = growth(lambda: _parse(small), lambda: _parse(large))
    assert ratio < 8, ratio  # linear: about 4; quadratic: 16


def test_stock_cost_grows_quadratically():
    """The can-fail side: the stock function, where the interpreter lacks gh-136063."""
    if not email_backport.status()["fixes"]["gh-136063"]["lacks"]:
        pytest.skip("this interpreter's _parseparam has gh-136063")
    make = HOSTILE[0]
    small, large = make(4000), make(16000)
    ratio = growth(lambda: _parse(small), lambda: _parse(large), tries=3)
    assert ratio > 8, ratio


def test_message_api_cost_grows_linearly():
    email_backport.patch()

    def read(n):
        message = email.message_from_string(
            'Content-Type: multipart/mixed; boundary="' + ";" * n + '\n\n')
        return lambda: (message.get_params(), message.get_boundary(),
                        message.get_filename(), message.get_content_charset())

    ratio = growth(read(25000), read(100000))
    assert ratio < 8, ratio


ALPHABET = [";", ";", "=", "=", '"', '"', "\\", " ", "\t", "a", "B", "c", "*", "'", "%",
            "\u00e9" if not PY2 else "e"]


def _values(seed, count):
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
            for _ in range(count)]


def _outcome(function, value):
    try:
        return function(value)
    except Exception as error:  # the outcome compared, whatever it is
        return (type(error).__name__, str(error))


def test_generated_values_parse_as_the_stock_function_parses_them():
    values = _values(136063, 4000) + ["a=1; b=2", 'filename="x;y.txt"; size=3', "; ;",
                                      'a="\\";"; b', "x=\"'\"; y=\"\\\\\""]
    stock = [_outcome(_parse, value) for value in values]
    email_backport.patch(force=True)
    assert [_outcome(_parse, value) for value in values] == stock


def _read(value):
    message = email.message.Message()
    message["Content-Type"] = "multipart/mixed; " + value
    message["Content-Disposition"] = "attachment; " + value
    return (message.get_params(), message.get_param("a"), message.get_boundary(),
            message.get_filename(), message.get_content_charset(), message.get_params(
                header="content-disposition"))


def test_generated_values_read_through_the_message_api_as_stock():
    values = _values(6063, 1500) + ['boundary="b;c"; charset=UTF-8', "filename*=utf-8''a%20b",
                                    "a=1; a*0=x; a*1=y", 'name="\\"q\\";"; a=b']
    stock = [_outcome(_read, value) for value in values]
    email_backport.patch(force=True)
    assert [_outcome(_read, value) for value in values] == stock


def test_the_public_parseparam_is_the_fix():
    """In each version's shape: 2.7's is given the leading ``;`` its callers add."""
    value = ';a="b;c"; D = e' if PY2 else 'a="b;c"; D = e'
    assert email_backport.parseparam(value) == ['a="b;c"', "d=e"]
