"""Honest headers and statuses: after ``patch()`` every outcome is the stock one, byte
for byte; and for any string, the patched outcome is upstream's rule.

Property tests over generated names (tokens), values (printable Latin-1,
spaces, HTAB), ``add_header`` parameters and statuses (``201 Created``, a
``Content-Disposition`` file name with a space): each program of ``Headers``
calls, and each whole response written by ``SimpleHandler`` (origin server)
and ``BaseCGIHandler`` (``Status:``), is run on the unpatched classes, then
with the package patched. Then strings with any character, C0 included: the
patched outcome is a refusal exactly where upstream's rule refuses, and the
stock outcome elsewhere.
"""

import re

from hypothesis import given, settings, strategies as st

from budget import examples
from wsgiref_helpers import (HEADERS_MESSAGE, PY2, STATUS_MESSAGE, handlers, headers, outcome,
                             patched, respond)

SETTINGS = settings(max_examples=examples(150), deadline=None)

TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
PRINTABLE = [chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA0, 0x100)]


def native(text):
    """*text* as the native ``str`` (2.7: its Latin-1 bytes)."""
    return text.encode("latin-1") if PY2 else text


def texts(alphabet, min_size=0, max_size=24):
    return st.text(alphabet=alphabet, min_size=min_size, max_size=max_size).map(native)


names = texts(TCHAR, min_size=1, max_size=16)
values = texts(PRINTABLE + ["\t"])
param_keys = texts("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
params = st.dictionaries(param_keys, st.one_of(st.none(), values), max_size=3)
pairs = st.lists(st.tuples(names, values), max_size=5)

operations = st.one_of(
    st.tuples(st.just("__setitem__"), st.tuples(names, values)),
    st.tuples(st.just("setdefault"), st.tuples(names, values)),
    st.tuples(st.just("__delitem__"), st.tuples(names)),
    st.tuples(st.just("get"), st.tuples(names)),
    st.tuples(st.just("get_all"), st.tuples(names)),
    st.tuples(st.just("__contains__"), st.tuples(names)),
    st.tuples(st.just("add_header"), st.tuples(names, st.one_of(st.none(), values), params)),
)


def run_program(initial, program):
    """Each call's outcome and the headers as text, on the classes as they are now."""
    h = headers.Headers(list(initial))
    found = []
    for name, args in program:
        if name == "add_header":
            found.append(outcome(h.add_header, args[0], args[1], **args[2]))
        else:
            found.append(outcome(getattr(h, name), *args))
    return found, h.items(), str(h), repr(h)


@SETTINGS
@given(pairs, st.lists(operations, max_size=8))
def test_honest_header_programs_are_the_stock_ones(initial, program):
    stock = run_program(initial, program)
    with patched():
        assert run_program(initial, program) == stock


def test_parameter_order_is_the_callers():
    """2.7: a dict of keyword arguments built again may iterate in another order
    (``_`` and ``_a`` collide): the patched ``add_header`` keeps the stock order."""
    def program():
        h = headers.Headers([])
        h.add_header("0", None, _=None, _a=None)
        h.add_header("1", "v", _a="x", _="y", b_c=None)
        return str(h)
    stock = program()
    with patched():
        assert program() == stock


def test_a_file_name_with_a_space():
    def program():
        h = headers.Headers([("Content-Type", "text/plain")])
        h.add_header("Content-Disposition", "attachment", filename="my report.txt")
        return str(h)
    stock = program()
    assert 'filename="my report.txt"' in stock
    with patched():
        assert program() == stock


reasons = texts(PRINTABLE, max_size=20)
statuses = st.one_of(st.just(native("201 Created")),
                     st.builds(lambda code, reason: native("%03d " % code) + reason,
                               st.integers(100, 599), reasons))
handler_classes = st.sampled_from([handlers.SimpleHandler, handlers.BaseCGIHandler])
DATE = (native("Date"), native("Thu, 01 Jan 1970 00:00:00 GMT"))


@SETTINGS
@given(statuses, pairs, handler_classes)
def test_honest_responses_are_the_stock_bytes(status, header_list, handler_class):
    header_list = [pair for pair in header_list if pair[0].lower() not in (
        native("connection"), native("keep-alive"), native("te"), native("trailers"),
        native("transfer-encoding"), native("upgrade"))] + [DATE]  # hop-by-hop: refused
    stock = respond(status, header_list, handler_class)
    assert stock[1] == ""  # nothing went wrong
    with patched():
        assert respond(status, header_list, handler_class) == stock


# Upstream's rule, said once more in the tests' own words (gh-143916, gh-144370).
NAME_REFUSES = re.compile("[\x00-\x1f\x7f]")
VALUE_REFUSES = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
ANY = [chr(c) for c in range(0x00, 0x80)] + ["\xa0", "\xe9"]
any_text = texts(ANY, max_size=12)


@SETTINGS
@given(any_text, any_text, param_keys, any_text)
def test_any_strings_follow_upstreams_rule(name, value, key, parameter):
    def program():
        h = headers.Headers([])
        return (outcome(h.__setitem__, name, value),
                outcome(h.add_header, native("X"), native("v"), **{key: parameter}),
                str(h))
    stock = program()
    with patched():
        fixed = program()
    refused = ("ValueError", HEADERS_MESSAGE)
    if NAME_REFUSES.search(name) or VALUE_REFUSES.search(value):
        assert fixed[0] == refused
    else:
        assert fixed[0] == stock[0]
    assert fixed[1] == (refused if VALUE_REFUSES.search(parameter) else stock[1])
    if fixed[:2] == stock[:2]:
        assert fixed[2] == stock[2]


@SETTINGS
@given(st.integers(100, 599), any_text)
def test_any_status_follows_upstreams_rule(code, reason):
    status = native("%03d " % code) + reason

    def start():
        return outcome(handlers.BaseHandler().start_response, status, [])[0]
    stock = start()
    with patched():
        fixed = start()
        served = respond(status, [DATE])
    if NAME_REFUSES.search(reason):
        assert fixed == "ValueError" and served[1] == "ValueError: " + STATUS_MESSAGE
        assert (status if PY2 else status.encode("latin-1")) not in served[0]
    else:
        assert fixed == stock
