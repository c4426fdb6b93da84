"""The header guards' shared fast test, ``_cpython_security._plain.is_plain``.

What must hold: True never for a string holding a C0 control character or DEL
(the guards then skip upstream's check), True for every printable ASCII
string (the honest case the guards keep cheap), and on 2.7 the memo of
strings found plain stays bounded whatever the traffic sends.
"""

import random
import sys

import pytest

from _cpython_security._plain import is_plain

CONTROLS = [chr(code) for code in range(0x20)] + ["\x7f"]
PY2 = sys.version_info[0] == 2


def _texts(count, seed):
    rng = random.Random(seed)
    alphabet = [chr(code) for code in range(0x20, 0x7f)]
    for _ in range(count):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        yield text


def test_printable_ascii_is_plain():
    assert all(is_plain(text) for text in _texts(500, 1))


@pytest.mark.parametrize("control", CONTROLS)
def test_a_control_character_anywhere_is_never_plain(control):
    for text in _texts(50, ord(control)):
        for at in (0, len(text) // 2, len(text)):
            hostile = text[:at] + control + text[at:]
            assert not is_plain(hostile)
            assert not is_plain(hostile)  # asked twice: no memo lets it through


def test_a_non_string_raises_so_the_exact_check_runs():
    with pytest.raises(TypeError):
        is_plain(42)


@pytest.mark.skipif(not PY2, reason="3.x asks str.isprintable and keeps nothing")
def test_the_memo_of_2_7_stays_bounded():
    memo = is_plain.__self__
    for index in range(5000):
        assert is_plain("value-%d" % index)
    assert 0 < len(memo) <= 2048
    long_text = "a" * 257
    assert is_plain(long_text) and long_text not in memo
    assert is_plain(u"unicode text") and u"unicode text" not in [
        key for key in memo if type(key) is not str]
    assert all(type(key) is str and len(key) <= 256 for key in memo)
