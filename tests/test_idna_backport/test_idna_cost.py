"""The fix's work grows linearly: n against 4n, counted, never timed.

Work is counted with ``sys.setprofile`` (``idna_helpers.work``): the bidi
checks (``stringprep.in_table_d2`` calls) of gh-98433's loop, and every
Python call. With the fix bound, a right-to-left label of 4n characters
costs 4 times the bidi checks of one of n, through ``str.encode`` as
through ``ToUnicode``; the stock loop where ``needs_fix`` finds it
quadratic costs 16 times (the measure sees it), and the decoding of the
issue's attack costs the same few calls at 2,000 ``a`` as at 8,000.
"""

import pytest

import idna_helpers as helpers

RTL = u"\u05d0"


def _encode(name):
    return name.encode("idna")


def _ace(n):
    """``b'xn--016c' + b'a' * n``: punycode for a label of right-to-left letters."""
    return b"xn--016c" + b"a" * n


def _decode(data):
    return data.decode("idna")


def _growth(count, function, small, large):
    return float(count(function, large)) / count(function, small)


def _bidi(function, value):
    return helpers.work(function, value)[1]


def _calls(function, value):
    return helpers.work(function, value)[0]


def test_encoding_right_to_left_labels_costs_linear_bidi_checks(idna_fixed):
    assert _growth(_bidi, _encode, RTL * 100, RTL * 400) <= 4 * 1.1


def test_decoding_under_the_bound_costs_linear_bidi_checks(idna_fixed):
    # 250 and 1000 'a' after the prefix: both under 1024, both decoded.
    assert _growth(_bidi, _decode, _ace(250), _ace(1000)) <= 4 * 1.25


def test_decoding_past_the_bound_costs_the_same_at_any_length(idna_fixed):
    assert _calls(_decode, _ace(8000)) == _calls(_decode, _ace(2000))
    assert _bidi(_decode, _ace(8000)) == 0


def test_the_measure_sees_the_quadratic_stock_loop():
    # The stock functions: the bidi checks grow as the square (16 for 4 times
    # the size) exactly where needs_fix finds the quadratic loop (2.7, 3.6).
    growth = _growth(_bidi, _encode, RTL * 100, RTL * 400)
    assert (growth > 4 * 3) is helpers.fix._bidi_check_quadratic(helpers.module())


@pytest.mark.parametrize("n", [2000, 8000])
def test_the_measure_sees_the_stock_decoder_work_past_the_bound(n):
    # Without the bound the stock decoder runs punycode and nameprep over
    # every character: calls grow with n (3.12+: refused at once).
    if not helpers.fix._label_unbounded(helpers.module()):
        assert _calls(_decode, _ace(n)) < 50
    elif not helpers.fix._bidi_check_quadratic(helpers.module()):
        assert _calls(_decode, _ace(n)) > n
    else:
        pytest.skip("the quadratic stock loop at this size takes minutes under a profiler")
