"""patch()/unpatch()/is_patched()/status(): the methods bound on the stdlib class.

By identity before, during and after; what a subclass gets: the fixed
methods through the class, unless it overrides one with code of its own.
"""

import pytest

from html_events import Recorder, Work, growth, merged, parse, stdlib
from html_parser_backport import PatchReport, is_vulnerable

METHODS = ["goahead", "feed", "close", "reset"]
LABELS = ["%s.HTMLParser.%s" % (stdlib.__name__, name) for name in METHODS]


def _own():
    return dict((name, stdlib.HTMLParser.__dict__[name]) for name in METHODS)


def test_patch_binds_on_the_class_and_unpatch_restores_the_same_objects(html_unpatched):
    stock = _own()
    report = html_unpatched.patch(force=True)
    assert isinstance(report, PatchReport) and report.forced
    assert sorted(report.changed) == sorted(LABELS)
    fixed = _own()
    for name in METHODS:
        assert fixed[name] is not stock[name]
        assert fixed[name].__name__ == stock[name].__name__
        assert fixed[name].__doc__ == stock[name].__doc__
    assert html_unpatched.is_patched()
    assert html_unpatched.patch(force=True) is report  # idempotent
    undone = html_unpatched.unpatch()
    assert sorted(undone.changed) == sorted(LABELS)
    assert _own() == stock and not html_unpatched.is_patched()
    assert not html_unpatched.unpatch().changed


def test_patch_without_force_follows_the_probes(html_unpatched):
    report = html_unpatched.patch()
    assert bool(report.changed) is is_vulnerable()
    status = html_unpatched.status()
    assert not status["exposed"]
    assert set(status["fixes"]) == set(["CVE-2025-6069", "CVE-2026-15308"])


def test_a_rebinding_by_someone_else_is_left_alone(html_unpatched):
    stock = stdlib.HTMLParser.__dict__["feed"]
    html_unpatched.patch(force=True)
    theirs = lambda self, data: None  # noqa: E731
    stdlib.HTMLParser.feed = theirs
    try:
        report = html_unpatched.unpatch()
        assert stdlib.HTMLParser.__dict__["feed"] is theirs
        assert [label for label, _ in report.skipped] == [LABELS[1]]
    finally:
        stdlib.HTMLParser.feed = stock


class CallsBase(Work):
    """A subclass whose goahead wraps the base's: it gets the fix."""

    def goahead(self, end):
        self.work += len(self.rawdata)
        return stdlib.HTMLParser.goahead(self, end)


def _close_growth(parser_class):
    def work(n):
        parser = parser_class()
        parser.feed("<!--" * n)
        parser.close()
        return parser.work
    return float(work(1600)) / work(400)


def test_a_subclass_calling_the_base_method_gets_the_fix(html_patched):
    assert _close_growth(CallsBase) < 4 * 1.5


def test_a_subclass_with_its_own_loop_keeps_its_cost(html_unpatched):
    # What the docs say: patch() binds on HTMLParser; a subclass's own goahead (here
    # the stock loop itself, as a copy of it would be) is its own, and keeps the
    # rescan at close().
    stock_loop = stdlib.HTMLParser.__dict__["goahead"]

    class OwnLoop(Work):
        goahead = stock_loop

    html_unpatched.patch(force=True)
    assert (_close_growth(OwnLoop) > 4 * 2.5) is is_vulnerable()
    # feed() is still the class's: its wait holds for that subclass too.
    assert growth(lambda n: list("<a " + "b" * (10 * n) + ">")) < 4 * 1.5


@pytest.mark.parametrize("convert", [False, True])
def test_events_of_a_page_are_the_same_patched(html_unpatched, convert):
    page = ('<!DOCTYPE html><html><head><title>T &amp; U</title>'
            '<script>if (a<b) x="</p>";</script></head>'
            '<body class="x"><!-- c --><p>caf&eacute; &#8364; &lt;<br/></p></body></html>')
    stock = parse([page], convert)
    html_unpatched.patch(force=True)
    assert parse([page], convert) == stock
    assert merged(parse([page[i:i + 7] for i in range(0, len(page), 7)], convert)) == \
        merged(stock)


def test_a_recorder_made_while_patched_parses_after_unpatch(html_unpatched):
    html_unpatched.patch(force=True)
    parser = Recorder()
    html_unpatched.unpatch()
    parser.feed("<a>x</a>")
    parser.close()
    assert parser.events == [("starttag", "a", []), ("data", "x"), ("endtag", "a")]


def _fix_module(index):
    from internals import shared_registry
    row = shared_registry.fixes_of("html_parser_backport")[index]
    return __import__(row.fix, None, None, ("needs_fix", "replacements"))


class Upstream(stdlib.HTMLParser):
    """gh-153030's feed(), close() and reset() as upstream wrote them (its names)."""

    def reset(self):
        stdlib.HTMLParser.reset(self)
        self._pending, self._pending_len, self._parse_threshold = [], 0, 1

    def feed(self, data):
        self._pending_len += len(data)
        if self._pending_len < self._parse_threshold:
            self._pending.append(data)
            return
        self._pending.append(data)
        self.rawdata += "".join(self._pending)
        self._pending, self._pending_len = [], 0
        n = len(self.rawdata)
        self.goahead(0)
        self._parse_threshold = 1 if len(self.rawdata) < n else len(self.rawdata)

    def close(self):
        self.rawdata += "".join(self._pending)
        self._pending, self._pending_len = [], 0
        self.goahead(1)


def test_force_on_a_fixed_parser_calls_its_own_methods(html_unpatched):
    # A stdlib module whose HTMLParser has both fixes (its loop stands for a later
    # CPython's): the probes say so, and replacements() call its own methods, as
    # patch(force=True) binds them there.
    import types
    eof, feed = _fix_module(0), _fix_module(1)
    loop, calls = eof.replacements(stdlib)["HTMLParser.goahead"], []

    def goahead(self, end):
        calls.append(end)
        return loop(self, end)

    own = dict((name, Upstream.__dict__[name]) for name in ("feed", "close", "reset"))
    own["goahead"] = goahead
    fixed = types.ModuleType("fixed_html_parser")
    fixed.__dict__.update(vars(stdlib))
    fixed.HTMLParser = type(stdlib.HTMLParser)("HTMLParser", (stdlib.HTMLParser,), own)
    assert not eof.needs_fix(fixed) and not feed.needs_fix(fixed)

    def events():
        parser = fixed.HTMLParser()
        seen = []
        parser.handle_starttag = lambda tag, attrs: seen.append(tag)
        parser.handle_comment = seen.append
        for char in "<x><abc><!--y":
            parser.feed(char)
        parser.close()
        assert not hasattr(parser, feed.PENDING)  # the package's list is not used
        return seen

    before = events()
    assert before == ["x", "abc", "y"]
    forced = dict(eof.replacements(fixed), **feed.replacements(fixed))
    for path, new in forced.items():
        setattr(fixed.HTMLParser, path.split(".")[1], new)
    del calls[:]
    assert events() == before and calls[-1] == 1  # the class's own loop, still
