"""The injections gh-143916 and gh-144370 stop, before and after ``patch()``, and where
in each method the refusal comes (upstream's order and side effects).

The attacks: a ``Headers`` value, an ``add_header`` parameter and a status
line carrying CR/LF and a header line of the attacker's, the last two
through ``wsgiref.handlers.SimpleHandler`` writing a whole response.
"""

import os
import subprocess
import sys

import pytest

import wsgiref_backport
from wsgiref_helpers import (FIXES, HEADERS_MESSAGE, PY2, STATUS_MESSAGE, handlers, headers,
                             outcome, patched, respond)

INJECTED = "\r\nSet-Cookie: session=attacker"
DATE = ("Date", "Thu, 01 Jan 1970 00:00:00 GMT")
REFUSED_HEADER = ("ValueError", HEADERS_MESSAGE)


def value_attack(h):
    h["Location"] = "/next" + INJECTED
    return str(h)


def parameter_attack(h):
    h.add_header("Content-Disposition", "attachment", filename="report.txt" + INJECTED)
    return str(h)


@pytest.mark.parametrize("attack", [value_attack, parameter_attack])
def test_headers_attacks(attack):
    before = outcome(attack, headers.Headers([]))
    assert before[0] == "ok" and INJECTED in before[1]  # the stock class writes the line
    with patched():
        assert outcome(attack, headers.Headers([])) == REFUSED_HEADER
    assert outcome(attack, headers.Headers([])) == before


def test_status_line_attack_through_simple_handler():
    status = "200 OK" + INJECTED
    written, error = respond(status, [("Content-Type", "text/plain"), DATE])
    assert written.startswith(("HTTP/1.0 " + status + "\r\n").encode("latin-1"))
    with patched():
        written, error = respond(status, [("Content-Type", "text/plain"), DATE])
    assert b"attacker" not in written
    assert written.startswith(b"HTTP/1.0 500 Internal Server Error\r\n")
    assert error == "ValueError: " + STATUS_MESSAGE


def test_header_list_attack_through_simple_handler():
    """``start_response`` builds its ``Headers`` from the app's list (under __debug__)."""
    pairs = [("Content-Type", "text/plain"), ("Location", "/" + INJECTED), DATE]
    assert b"attacker" in respond("302 Found", pairs)[0]
    with patched():
        written, error = respond("302 Found", pairs)
    assert b"attacker" not in written and error == "ValueError: " + HEADERS_MESSAGE


def test_setitem_deletes_the_old_lines_before_refusing_the_value():
    with patched():
        h = headers.Headers([("X", "1"), ("Y", "2"), ("X", "3")])
        assert outcome(h.__setitem__, "X", "4" + INJECTED) == REFUSED_HEADER
        assert h.items() == [("Y", "2")]
        assert outcome(h.__setitem__, "Y\r", "5") == REFUSED_HEADER
        assert h.items() == [("Y", "2")]  # refused in ``del self[name]``, before deleting


def test_setdefault_checks_only_what_it_would_add():
    with patched():
        h = headers.Headers([("X", "1")])
        assert h.setdefault("X", "2" + INJECTED) == "1"  # upstream: get() answers first
        assert outcome(h.setdefault, "Z", "2" + INJECTED) == REFUSED_HEADER
        assert outcome(h.setdefault, "Z\n", "2") == REFUSED_HEADER


def test_lookups_refuse_control_characters_in_the_name():
    with patched():
        h = headers.Headers([("X", "1")])
        for lookup in (h.get, h.get_all, h.__getitem__, h.__contains__, h.__delitem__):
            assert outcome(lookup, "X\t") == REFUSED_HEADER
        assert h.items() == [("X", "1")]


def test_init_keeps_the_list_before_refusing():
    pairs = [("A", "1"), ("B", "2" + INJECTED)]
    with patched():
        h = headers.Headers.__new__(headers.Headers) if not PY2 else headers.Headers([])
        assert outcome(h.__init__, pairs) == REFUSED_HEADER
        assert h._headers is pairs


@pytest.mark.skipif(PY2, reason="2.7's Headers checks no types")
def test_type_checks_keep_their_place():
    """3.x: a value's type is checked before its characters, in upstream's order."""
    with patched():
        name_error = ("AssertionError", "Header names/values must be of type str (got b'X')")
        assert outcome(headers.Headers, [(b"X", "1" + INJECTED)]) == name_error
        assert outcome(headers.Headers, [("X" + INJECTED, b"1")]) == REFUSED_HEADER
        h = headers.Headers()
        assert outcome(h.add_header, b"X", "v" + INJECTED) == REFUSED_HEADER  # _value first
        assert outcome(h.add_header, b"X", "v", p="a" + INJECTED) == REFUSED_HEADER
        assert outcome(h.add_header, "X" + INJECTED, b"v") == (
            "AssertionError", "Header names/values must be of type str (got b'v')")


def hostile_start(handler, **kwargs):
    return outcome(handler.start_response, "200 OK" + INJECTED, [("A", "b")], **kwargs)


def test_status_refusal_leaves_upstreams_state():
    with patched():
        handler = handlers.BaseHandler()
        assert hostile_start(handler) == ("ValueError", STATUS_MESSAGE)
        if PY2:  # the 2.7 stock sets both only after every check
            assert handler.status is None and handler.headers is None
        else:  # every 3.x stock sets both before its type check
            assert handler.status == "200 OK" + INJECTED
            assert handler.headers.items() == [("A", "b")]


def reraised(handler):
    """What ``start_response`` does with a hostile status once the headers are sent."""
    handler.headers_sent = True
    try:
        raise KeyError("the app's")
    except KeyError:
        return hostile_start(handler, exc_info=sys.exc_info())


def test_status_refusal_comes_after_the_stocks_own_refusals():
    stock = reraised(handlers.BaseHandler())
    assert stock[0] == "KeyError"  # the stock re-raises the app's error (3.6/3.7: a copy)
    with patched():
        handler = handlers.BaseHandler()
        handler.start_response("200 OK", [])
        assert hostile_start(handler) == ("AssertionError", "Headers already set!")
        assert reraised(handler) == stock
        handler.headers_sent = False  # an error page before any output: allowed
        found = hostile_start(handler, exc_info=(None, None, None))
        assert found == ("ValueError", STATUS_MESSAGE)


def test_probes_read_behaviour():
    assert FIXES["gh-143916"].needs_fix(headers) and FIXES["gh-144370"].needs_fix(handlers)
    with patched():
        assert not FIXES["gh-143916"].needs_fix(headers)
        assert not FIXES["gh-144370"].needs_fix(handlers)
    assert not FIXES["gh-143916"].needs_fix(sys) and not FIXES["gh-144370"].needs_fix(sys)


def test_replacements_look_like_the_stock_methods():
    for module, fix, cls in ((headers, FIXES["gh-143916"], headers.Headers),
                             (handlers, FIXES["gh-144370"], handlers.BaseHandler)):
        for path, new in fix.replacements(module).items():
            stock = cls.__dict__[path.split(".")[1]]
            assert new is not stock
            assert (new.__name__, new.__doc__) == (stock.__name__, stock.__doc__)
            assert getattr(new, "__qualname__", None) == getattr(stock, "__qualname__", None)


def test_under_O_init_is_unchecked_as_upstreams():
    """Upstream checks ``__init__``'s pairs under ``if __debug__:`` only (gh-150726 is
    open); ``__setitem__`` and the status are checked under ``-O`` too."""
    code = ("import wsgiref_backport, wsgiref.headers as H, wsgiref.handlers as W\n"
            "wsgiref_backport.patch(force=True)\n"
            "h = H.Headers([('X', 'a\\r\\nb')])\n"
            "for call in (lambda: h.__setitem__('Y', 'a\\r\\nb'),\n"
            "             lambda: W.BaseHandler().start_response('200 OK\\r\\nX: y', [])):\n"
            "    try:\n"
            "        call()\n"
            "    except ValueError:\n"
            "        print('refused')\n")
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.check_output([sys.executable, "-O", "-c", code], env=environ)
    assert out.decode("ascii").split() == ["refused", "refused"]


def test_unpatch_puts_the_stock_behaviour_back():
    wsgiref_backport.patch(force=True)
    wsgiref_backport.unpatch()
    assert outcome(value_attack, headers.Headers([]))[0] == "ok"
    assert hostile_start(handlers.BaseHandler())[0] == "ok"


@pytest.mark.skipif(not PY2, reason="2.7 keeps the native strings it found plain")
def test_the_plain_strings_kept_on_27_stay_few_and_plain():
    kept = FIXES["gh-143916"]._plain.__self__
    odd = outcome(headers.Headers([]).__setitem__, 5, "v")  # 2.7 checks no types
    with patched():
        h = headers.Headers([])
        for number in range(3000):
            h["X-%d" % number] = "v"
        assert 0 < len(kept) <= 2048
        assert outcome(h.__setitem__, "X-1", "v" + INJECTED) == REFUSED_HEADER
        h["Y"] = "z" * 300  # too long to keep
        assert "z" * 300 not in kept and all(
            type(key) is str and "\r" not in key for key in kept)
        assert outcome(h.__setitem__, 5, "v") == odd
        assert outcome(h.__setitem__, u"X-1\r", "v") == REFUSED_HEADER
