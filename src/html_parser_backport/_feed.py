"""The fix of CVE-2026-15308 (gh-153030): ``HTMLParser.feed`` waits until the buffer doubles.

An unfixed ``feed(data)`` appends *data* to the unparsed buffer
(``rawdata = rawdata + data``) and parses the buffer again: while one
construct stays open (an 18 KB tag fed a character at a time), each call
copies and rescans all of it, O(n**2). gh-153030 (GH-153031; 3.10.21,
3.11.16, 3.12.14, 3.14.7; commit 07efb081 on 3.11) keeps new data in a list
while the last parse consumed nothing, and joins and parses it only once as
much has arrived as the buffer already holds; after a parse that consumed
something, the next call parses at once. ``close()`` joins what waits before
the stock ``close()``; ``reset()`` drops it after the stock ``reset()``.

So every call around the stock code: ``feed`` hands the joined text to the
stock ``feed`` (which appends it and parses), ``close`` and ``reset`` are
the stock methods with the list emptied before or after. Events come in the
same order as before; while nothing parses, they come at a later call.

One difference from upstream, on purpose: the list and its two counters
live in instance attributes of this package's own names, not upstream's
``_pending``, ``_pending_len`` and ``_parse_threshold``: a subclass written
for an interpreter without the fix may use those names itself (one that set
``self._pending = ''`` broke on 3.11.16 and 3.14.7). They are made on the
first ``feed()`` that needs them, so a parser made before ``patch()``, or
whose subclass's ``reset()`` does not call the stock one, works too. 2.7
runs the same code.

And one addition: upstream's list is never unbound, this one is. The stock
methods read the buffer (``rawdata``) only, so text left in the list at
``unpatch()`` would be lost to them, and come after the text fed meanwhile
once ``patch()`` binds the list's methods again (``<script`` read as
``<scr`` and the data ``ipt``). So the engine calls :func:`give_back` before
it unbinds: each parser that made a list (held weakly, by ``id``: a
subclass may be unhashable) has what it holds appended to its buffer, where
it came from, and parses at its next call. A parser then holds what a stock
parser fed the same text holds: the stock methods after ``unpatch()`` see
what they would have seen unpatched throughout (its events come at their
next call), and nothing in the list outlives the binding of the methods
that read it.
"""

import weakref

from _cpython_security._engine import named_as

from ._eof import fits, parameters

__all__ = ["needs_fix", "replacements", "give_back", "PENDING", "PENDING_LEN", "THRESHOLD"]

#: The instance attributes: upstream's ``_pending``, ``_pending_len``, ``_parse_threshold``.
PENDING = "_html_parser_backport_pending"
PENDING_LEN = "_html_parser_backport_pending_len"
THRESHOLD = "_html_parser_backport_threshold"


def needs_fix(module):
    """Whether ``feed()`` appends to an unparsed buffer at once (gh-153030 waits).

    After ``feed('<a')`` parses nothing, a fixed ``feed('b')`` keeps ``'b'``
    back (the buffer holds 2 characters, 1 has come); an unfixed one makes
    the buffer ``'<ab'``. One throw-away parser; nothing of the module changes."""
    parser = module.HTMLParser()
    parser.feed("<a")
    parser.feed("b")
    return parser.rawdata == "<ab"


#: ``{id(parser): parser}``, weakly: each parser that made a list (give_back's).
_LISTS = weakref.WeakValueDictionary()


def _made(parser):
    """A new list for *parser*'s waiting text, known to :func:`give_back`."""
    pending = []
    setattr(parser, PENDING, pending)
    _LISTS[id(parser)] = parser
    return pending


def _take(parser):
    """The text waiting in *parser*'s list (``''`` if none), the list emptied."""
    pending = getattr(parser, PENDING, None)
    if not pending:
        return ""
    text = "".join(pending)
    del pending[:]
    setattr(parser, PENDING_LEN, 0)
    return text


def give_back():
    """Each parser's waiting text back at the end of its buffer, and the next call to
    parse at once: the engine calls it before ``unpatch()`` unbinds (module docstring)."""
    for parser in list(_LISTS.values()):
        pending = getattr(parser, PENDING, None)
        if pending:
            try:
                parser.rawdata += "".join(pending)
            except UnicodeError:  # 2.7: a str of non-ASCII bytes and a unicode; the next
                continue  # fixed call that joins them raises it, as it always did
            del pending[:]
            setattr(parser, PENDING_LEN, 0)
        setattr(parser, THRESHOLD, 1)


def _waiting(stock_feed, stock_close, stock_reset):
    """gh-153030's ``feed``, ``close`` and ``reset``, around the stock methods."""

    # getattr/setattr, never self.__dict__: on 3.11+ reading an instance's __dict__
    # makes every later attribute access of that parser slower (docs/performance.rst).
    def feed(self, data):
        pending = getattr(self, PENDING, None)
        size = getattr(self, PENDING_LEN, 0) + len(data)
        if size < getattr(self, THRESHOLD, 1):
            if pending is None:
                pending = _made(self)
            pending.append(data)
            setattr(self, PENDING_LEN, size)
            return
        if pending:
            pending.append(data)
            data = "".join(pending)
            del pending[:]
        setattr(self, PENDING_LEN, 0)
        n = len(self.rawdata) + len(data)
        stock_feed(self, data)  # rawdata + data, then goahead(0)
        # Something parsed: parse at the next call; nothing: wait until the buffer doubles.
        setattr(self, THRESHOLD, 1 if len(self.rawdata) < n else len(self.rawdata))

    def close(self):
        text = _take(self)
        if text:
            self.rawdata += text
        return stock_close(self)

    def reset(self):
        result = stock_reset(self)
        pending = getattr(self, PENDING, None)
        if pending:
            del pending[:]
        setattr(self, PENDING_LEN, 0)
        setattr(self, THRESHOLD, 1)
        return result

    return feed, close, reset


def _through(stock_feed, stock_close, stock_reset):
    """Methods that call the stock ones (a stock ``feed()`` that waits already)."""

    def feed(self, data):
        return stock_feed(self, data)

    def close(self):
        return stock_close(self)

    def reset(self):
        return stock_reset(self)

    return feed, close, reset


def replacements(module):
    """``feed``, ``close`` and ``reset`` of ``HTMLParser`` with gh-153030's list.

    Where the stock ``feed()`` waits already (``patch(force=True)`` on a fixed
    interpreter), each calls the stock method: one list of waiting text. A parser
    gh-135462's loop does not fit (``_eof.fits``) raises ``TypeError``, as there."""
    if not fits(module):
        raise TypeError("HTMLParser(%s) is not the parser gh-153030's feed() is written for"
                        % ", ".join(parameters(module)))
    cls = module.HTMLParser
    stock = (cls.__dict__["feed"], cls.__dict__["close"], cls.__dict__["reset"])
    made = (_waiting if needs_fix(module) else _through)(*stock)
    return dict(("HTMLParser." + old.__name__, named_as(new, old, module=True))
                for old, new in zip(stock, made))
