"""patch() and unpatch() between feed() calls: the parser's input stays in order.

The fixed ``feed()`` (gh-153030) keeps text back while nothing parses;
``unpatch()`` gives it back to the buffer the stock methods parse
(``rawdata``), so a parser patched, unpatched and patched again across its
``feed()`` calls gives the events one parser gives for the whole input:
nothing lost at ``unpatch()``, nothing reordered after the next ``patch()``
(``<script`` was ``<scr`` and the data ``ipt``).
"""

import itertools

import pytest

import html_parser_backport
from budget import stride
from html_events import PY2, Recorder, merged, parse


def _state(patched):
    if patched != html_parser_backport.is_patched():
        html_parser_backport.patch(force=True) if patched else html_parser_backport.unpatch()


def _run(pieces, states, convert_charrefs=False):
    """The events of *pieces* fed one by one, then close(); before each call the
    package patched or not as *states* says (one more state than pieces: close())."""
    _state(states[0])
    parser = Recorder(convert_charrefs=convert_charrefs)
    for piece, patched in zip(pieces, states):
        _state(patched)
        parser.feed(piece)
    _state(states[-1])
    parser.close()
    return merged(parser.events)


def _whole(pieces, patched, convert_charrefs=False):
    """The events of one parser fed the whole input at once, closed patched or not."""
    _state(patched)
    return merged(parse(["".join(pieces)], convert_charrefs))


def test_text_held_at_unpatch_is_parsed_in_its_place(html_unpatched):
    html_unpatched.patch(force=True)
    parser = Recorder()
    for piece in ["<", "s", "c", "r", "i"]:  # the buffer "<scr" parsed nothing: "i" waits
        parser.feed(piece)
    html_unpatched.unpatch()
    parser.feed("pt>x")
    html_unpatched.patch(force=True)
    parser.feed("</script>")
    parser.close()
    assert merged(parser.events) == [("starttag", "script", []), ("data", "x"),
                                     ("endtag", "script")]


def test_text_held_at_unpatch_reaches_the_stock_close(html_unpatched):
    html_unpatched.patch(force=True)
    parser = Recorder()
    parser.feed("<a")
    parser.feed(">")  # 1 character, the buffer holds 2: waits
    html_unpatched.unpatch()
    parser.close()
    assert merged(parser.events) == [("starttag", "a", [])]


def test_a_parser_unpatched_then_patched_parses_at_once(html_unpatched):
    html_unpatched.patch(force=True)
    parser = Recorder()
    parser.feed("<a " + "b" * 64)  # parses nothing: the next feed() waits for 67
    parser.feed("c")
    html_unpatched.unpatch()
    parser.feed(">")
    html_unpatched.patch(force=True)
    parser.feed("<i>")
    assert parser.events == [("starttag", "a", [("b" * 64 + "c", None)]),
                             ("starttag", "i", [])]


# Every interleaving of patch()/unpatch() across the feed() boundaries (and before
# close()) of a few inputs fed in pieces (a text waits where the piece before it
# parsed nothing): the events of the whole input, closed as the interleaving closes it.
INPUTS = [
    ["<", "s", "c", "r", "ipt>", "x</script>"],
    ["<sc", "r", "i", "pt>x", "</scr", "ipt>"],
    ["<a", " ", "x", "=1>", "t</a>"],
    ["<", "!", "-", "-c-", "->t"],
    ["<p", "&", "amp", ";</p><br/", ">"],
    ["<b", "r", "<", "i>"],  # an open construct at close(): gh-135462's end of input
]


@pytest.mark.parametrize("convert_charrefs", [False] if PY2 else [False, True])
@pytest.mark.parametrize("pieces", INPUTS)
def test_every_interleaving_gives_the_events_of_the_whole_input(html_unpatched, pieces,
                                                                convert_charrefs):
    whole = dict((closed, _whole(pieces, closed, convert_charrefs)) for closed in (0, 1))
    # All of them on the thorough interpreters, one in eight elsewhere (budget.py).
    for states in stride(itertools.product([False, True], repeat=len(pieces) + 1)):
        assert _run(pieces, states, convert_charrefs) == whole[states[-1]], states
