"""CVE-2026-15308 (gh-153030): feed() waits until the buffer doubles while nothing parses.

Upstream's commit (07efb081 on 3.11, GH-153031 on main) adds no test the
index here holds; these tests take the issue's attack (an 18 KB tag fed a
character at a time) as counted work at n and 4n, and check what the
commit's feed(), close() and reset() promise: the same events, at a later
call while a construct stays open; nothing held back after close() or
lost after reset(). Then what a subclass sees, overriding one method or
keeping state under upstream's own names.
"""

import pytest

import html_parser_backport
from html_events import CLOSE, Recorder, Work, growth, merged, parse, stdlib
from html_parser_backport import is_vulnerable

TAG = '<a href="' + "x" * 18000 + '">'


def _one_at_a_time(text):
    return lambda n: list(text(n))


OPEN_FOR_A_WHILE = [
    _one_at_a_time(lambda n: "<a " + "b" * (10 * n) + ">"),
    _one_at_a_time(lambda n: "<!--" + "b" * (10 * n) + "-->"),
    _one_at_a_time(lambda n: "<p>" + "<![CDATA[" + "c" * (10 * n) + "]]>"),
    _one_at_a_time(lambda n: "<a title='" + "<" * (10 * n) + "'>"),
]


@pytest.mark.parametrize("make", OPEN_FOR_A_WHILE)
def test_feed_works_linearly(html_patched, make):
    assert growth(make) < 4 * 1.5


@pytest.mark.parametrize("make", OPEN_FOR_A_WHILE[:2])
def test_the_measure_sees_the_quadratic_stock_feed(make):
    assert (growth(make) > 4 * 2.5) is is_vulnerable()


# Upstream's test_buffer_artefacts (Lib/test/test_htmlparser.py): the events of a
# construct split across feed() calls, which gh-153030's wait must not change.
BUFFER_ARTEFACTS = [
    ([["<a b='<'>"], ["<a ", "b='<'>"], ["<a b", "='<'>"], ["<a b=", "'<'>"],
      ["<a b='<", "'>"], ["<a b='<'", ">"]], [("starttag", "a", [("b", "<")])]),
    ([["<a b='>'>"], ["<a ", "b='>'>"], ["<a b", "='>'>"], ["<a b=", "'>'>"],
      ["<a b='>", "'>"], ["<a b='>'", ">"]], [("starttag", "a", [("b", ">")])]),
    ([["", "<!--abc-->"], ["<", "!--abc-->"], ["<!", "--abc-->"], ["<!-", "-abc-->"],
      ["<!--", "abc-->"], ["<!--a", "bc-->"], ["<!--ab", "c-->"], ["<!--abc", "-->"],
      ["<!--abc-", "->"], ["<!--abc--", ">"], ["<!--abc-->", ""]], [("comment", "abc")]),
]


@pytest.mark.parametrize("sources, expected", BUFFER_ARTEFACTS)
def test_upstream_buffer_artefacts(html_patched, sources, expected):
    for source in sources:
        assert merged(parse(source)) == expected, source


def test_the_brief_s_tag_gives_the_events_it_gives_whole(html_patched):
    whole = parse([TAG])
    assert whole == [("starttag", "a", [("href", "x" * 18000)]), CLOSE]
    assert merged(parse(list(TAG))) == merged(whole)


def test_text_waits_while_nothing_parses_and_close_takes_it(html_patched):
    parser = Recorder()
    parser.feed("<a")
    parser.feed("b")  # 1 character, the buffer holds 2: waits
    assert parser.rawdata == "<a" and parser.events == []
    parser.feed("c")  # 2 have come: joined and parsed (still open)
    assert parser.rawdata == "<abc"
    parser.feed(">")
    assert parser.events == []  # 1 of 4: waits
    parser.close()
    assert parser.events == [("starttag", "abc", [])] and parser.rawdata == ""


def test_after_something_parses_the_next_call_parses_at_once(html_patched):
    parser = Recorder()
    parser.feed("<b>x")
    assert parser.events == [("starttag", "b", []), ("data", "x")]
    parser.feed("<")
    parser.feed("/b>")
    assert parser.events[-1] == ("endtag", "b")


def test_reset_drops_what_waits(html_patched):
    parser = Recorder()
    parser.feed("<a")
    parser.feed("b")
    parser.reset()
    parser.feed("<i>")
    parser.close()
    assert parser.events == [("starttag", "i", [])]


def test_a_parser_made_before_patch_works(html_unpatched):
    parser = Recorder()
    html_unpatched.patch(force=True)
    for char in "<a x=1>t</a>":
        parser.feed(char)
    parser.close()
    assert merged(parser.events) == [("starttag", "a", [("x", "1")]), ("data", "t"),
                                     ("endtag", "a")]


class OwnPending(Recorder):
    """A subclass of its own with upstream's attribute names (as one that broke on
    3.11.16 and 3.14.7: ``self._pending = ''``, set after the base's __init__)."""

    def __init__(self, convert_charrefs=False):
        Recorder.__init__(self, convert_charrefs)
        self._pending = ""
        self._pending_len = "no"
        self._parse_threshold = None


class NoSuperReset(Recorder):
    def reset(self):  # the base's reset() is never called: its state is set here
        self.rawdata = ""
        self.lasttag = "???"
        self.interesting = stdlib.interesting_normal
        self.cdata_elem = None
        self.lineno, self.offset = 1, 0


@pytest.mark.parametrize("parser_class", [OwnPending, NoSuperReset])
def test_subclasses_keeping_their_own_state_work(html_patched, parser_class):
    events = parse(list("<a><!-- c -->t</a>"), parser_class=parser_class)
    assert merged(events) == [("starttag", "a", []), ("comment", " c "), ("data", "t"),
                              ("endtag", "a")]


class OwnFeed(Work):
    def feed(self, data):  # overrides feed(), calls the class's: the fix applies
        stdlib.HTMLParser.feed(self, data.replace("B", "b"))


def test_a_subclass_calling_the_base_feed_gets_the_fix(html_patched):
    def work(n):
        parser = OwnFeed()
        for char in "<a " + "B" * (10 * n) + ">":
            parser.feed(char)
        parser.close()
        assert parser.events == [("starttag", "a", [("b" * (10 * n), None)])]
        return parser.work
    assert float(work(1600)) / work(400) < 4 * 1.5


def test_needs_fix_reads_behaviour_not_the_version(html_unpatched):
    from internals import shared_registry
    rows = shared_registry.fixes_of("html_parser_backport")
    feed = __import__(rows[1].fix, None, None, ("needs_fix",))
    assert feed.needs_fix(stdlib) is is_vulnerable()
    html_parser_backport.patch(force=True)
    assert not feed.needs_fix(stdlib)
