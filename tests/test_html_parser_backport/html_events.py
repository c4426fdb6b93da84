"""What the html_parser_backport tests share: the stdlib module, a recording
parser, and the work a parse does (counted, never timed).

``Recorder`` is the recording subclass of upstream's ``test_htmlparser``
(``EventCollector``), written for 2.7 and 3.x alike; ``close()`` is marked in
its events, so a test sees which events came from it.
"""

import os
import sys

PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    import HTMLParser as stdlib  # noqa: N813
else:
    import html.parser as stdlib

HERE = os.path.dirname(os.path.abspath(__file__))
CLOSE = ("close",)


class Recorder(stdlib.HTMLParser):
    """Records every event as upstream's EventCollector does, and where close() began."""

    def __init__(self, convert_charrefs=False):
        self.events = []
        if PY2:
            stdlib.HTMLParser.__init__(self)
        else:
            stdlib.HTMLParser.__init__(self, convert_charrefs=convert_charrefs)

    def handle_starttag(self, tag, attrs):
        self.events.append(("starttag", tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.events.append(("startendtag", tag, attrs))

    def handle_endtag(self, tag):
        self.events.append(("endtag", tag))

    def handle_comment(self, data):
        self.events.append(("comment", data))

    def handle_charref(self, data):
        self.events.append(("charref", data))

    def handle_entityref(self, data):
        self.events.append(("entityref", data))

    def handle_data(self, data):
        self.events.append(("data", data))

    def handle_decl(self, data):
        self.events.append(("decl", data))

    def handle_pi(self, data):
        self.events.append(("pi", data))

    def unknown_decl(self, data):
        self.events.append(("unknown decl", data))


def merged(events):
    """*events* with runs of data joined, and without the close() mark (upstream's
    get_events: buffer artefacts do not split text)."""
    out = []
    for event in events:
        if event == CLOSE:
            continue
        if out and event[0] == "data" and out[-1][0] == "data":
            out[-1] = ("data", out[-1][1] + event[1])
        else:
            out.append(event)
    return out


def parse(chunks, convert_charrefs=False, parser_class=Recorder):
    """The events of *chunks* fed one by one, then the close() mark and close()'s events
    (and what the parser raised, as the last event)."""
    parser = parser_class(convert_charrefs=convert_charrefs)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        parser.events.append(CLOSE)
        parser.close()
    except Exception as exc:  # 2.7's HTMLParseError at an entity EOF cuts: an event too
        parser.events.append(("raised", type(exc).__name__, str(exc)))
    return parser.events


def expect(source, convert_charrefs=False):
    """Upstream's ``_run_check``: the events of *source* (a string or a list of
    chunks), merged."""
    return merged(parse([source] if isinstance(source, str) else source, convert_charrefs))


class Work(Recorder):
    """Counts the characters each scan may cover: the buffer at every goahead(), the
    rest of it at every parse_* call. Each override calls the class's own method, so
    the stdlib class's binding (stock or fixed) does the parsing."""

    def __init__(self, convert_charrefs=False):
        self.work = 0
        Recorder.__init__(self, convert_charrefs)

    def goahead(self, end):
        self.work += len(self.rawdata)
        return stdlib.HTMLParser.goahead(self, end)

    def _scan(self, name, i, rest):
        self.work += len(self.rawdata) - i
        return getattr(stdlib.HTMLParser, name)(self, i, *rest)

    def parse_starttag(self, i, *rest):
        return self._scan("parse_starttag", i, rest)

    def parse_endtag(self, i, *rest):
        return self._scan("parse_endtag", i, rest)

    def parse_comment(self, i, *rest):
        return self._scan("parse_comment", i, rest)

    def parse_pi(self, i, *rest):
        return self._scan("parse_pi", i, rest)

    def parse_html_declaration(self, i, *rest):
        return self._scan("parse_html_declaration", i, rest)


def work(chunks):
    """The characters the parse of *chunks* (then close()) may scan."""
    parser = Work()
    for chunk in chunks:
        parser.feed(chunk)
    parser.close()
    return parser.work


def growth(make, n=400):
    """How much the work grows from ``make(n)`` to ``make(4 * n)``: 4 when linear, 16
    when quadratic. *make* returns the chunks."""
    return float(work(make(4 * n))) / max(work(make(n)), 1)
