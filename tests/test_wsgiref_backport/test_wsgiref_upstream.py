"""CPython's own tests of gh-143916 and gh-144370, after ``wsgiref_backport.patch()``.

Mirrored from ``Lib/test/test_wsgiref.py``: ``HeaderTests.testRaisesControlCharacters``
(GH-143917, in the form GH-144118 gave it: HTAB is allowed in values, not
names), ``HandlerTests.testRaisesControlCharacters`` (GH-144371), and the
``HeaderTests`` those commits kept passing (``testMappingInterface``,
``testRequireList``, ``testExtras``). ``control_characters_c0`` is
``test.support``'s, written in ``wsgiref_helpers``. 2.7's ``Headers`` takes
its list without a default: ``Headers([])`` there.
"""

import pytest

import wsgiref_backport
from wsgiref_helpers import control_characters_c0, handlers, headers

Headers = headers.Headers


def new_headers(pairs=None):
    return Headers([] if pairs is None else pairs)


@pytest.fixture
def fixed():
    wsgiref_backport.patch(force=True)


@pytest.mark.parametrize("c0", control_characters_c0())
def test_header_raises_control_characters(fixed, c0):
    """HeaderTests.testRaisesControlCharacters."""
    h = new_headers()
    with pytest.raises(ValueError):
        h["key" + c0] = "val"
    with pytest.raises(ValueError):
        h.add_header("key" + c0, "val", param="param")
    if c0 == "\t":  # HTAB (\x09) is allowed in values, not names.
        h["key"] = "val" + c0
        h.add_header("key", "val" + c0)
        h.setdefault("key", "val" + c0)
        assert h.get_all("key") == ["val\t", "val\t"]
    else:
        with pytest.raises(ValueError):
            h["key"] = "val" + c0
        with pytest.raises(ValueError):
            h.add_header("key", "val" + c0, param="param")
        with pytest.raises(ValueError):
            h.add_header("key", "val", param="param" + c0)


@pytest.mark.parametrize("c0", control_characters_c0())
def test_handler_raises_control_characters(fixed, c0):
    """HandlerTests.testRaisesControlCharacters: the status alone, and after a code."""
    for status in (c0, "200 OK" + c0, "200" + c0 + "OK"):
        base = handlers.BaseHandler()
        with pytest.raises(ValueError):
            base.start_response(status, [("x", "y")])


def test_unpatched_stock_takes_them():
    """Without the fix the stock classes let every C0 value and status through (or
    fail only the status asserts): the tests above can fail."""
    accepted = 0
    for c0 in control_characters_c0():
        h = new_headers()
        h["key"] = "val" + c0
        h.add_header("key", "val", param="param" + c0)
        base = handlers.BaseHandler()
        base.start_response("200 OK" + c0, [("x", "y")])
        accepted += 1
    assert accepted == 33


def test_mapping_interface(fixed):
    """HeaderTests.testMappingInterface."""
    test = [("x", "y")]
    assert len(new_headers()) == 0
    assert len(Headers([])) == 0
    assert len(Headers(test[:])) == 1
    assert Headers(test[:]).keys() == ["x"]
    assert Headers(test[:]).values() == ["y"]
    assert Headers(test[:]).items() == test
    assert Headers(test).items() is not test  # must be copy!

    h = new_headers()
    del h["foo"]  # should not raise an error

    h["Foo"] = "bar"
    for m in h.__contains__, h.get, h.get_all, h.__getitem__:
        assert m("foo")
        assert m("Foo")
        assert m("FOO")
        assert not m("bar")

    assert h["foo"] == "bar"
    h["foo"] = "baz"
    assert h["FOO"] == "baz"
    assert h.get_all("foo") == ["baz"]

    assert h.get("foo", "whee") == "baz"
    assert h.get("zoo", "whee") == "whee"
    assert h.setdefault("foo", "whee") == "baz"
    assert h.setdefault("zoo", "whee") == "whee"
    assert h["foo"] == "baz"
    assert h["zoo"] == "whee"


def test_require_list(fixed):
    """HeaderTests.testRequireList."""
    with pytest.raises(TypeError):
        Headers("foo")


def test_extras(fixed):
    """HeaderTests.testExtras."""
    h = new_headers()
    assert str(h) == "\r\n"

    h.add_header("foo", "bar", baz="spam")
    assert h["foo"] == 'bar; baz="spam"'
    assert str(h) == 'foo: bar; baz="spam"\r\n\r\n'

    h.add_header("Foo", "bar", cheese=None)
    assert h.get_all("foo") == ['bar; baz="spam"', "bar; cheese"]

    assert str(h) == ('foo: bar; baz="spam"\r\n'
                      "Foo: bar; cheese\r\n"
                      "\r\n")
