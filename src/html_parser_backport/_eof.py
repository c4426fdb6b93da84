"""The fix of CVE-2025-6069 (gh-135462): ``HTMLParser.goahead`` closes what EOF leaves open.

An unfixed ``goahead(1)`` (what ``close()`` runs) meets a construct that the
input never closes (``<a ``, ``</a``, ``<!--``, ``<!``, ``<?``,
``<![CDATA[``, ``<!doctype``), reports text up to the next ``>`` or ``<``
as data and parses again from there: each of *n* unclosed ``<a `` or
``<!--`` rescans the rest of the input, O(n**2) (``'<!--' * 24000`` costs
seconds). gh-135462 (commit 6eb6c5db; 3.9.24, 3.10.19 and the 3.11-3.14
releases after June 2025) ends the input at the first such construct, as
HTML5 says EOF does, in one step:

- an unclosed start tag, or end tag (``</`` and a letter), is dropped;
- ``</`` alone at the end is data ``'</'``; ``</`` and another character
  starts a bogus comment: ``handle_comment`` of the rest;
- ``<!--`` is a comment of the rest, less a trailing ``--!``, ``--`` or ``-``;
- ``<![CDATA[`` is ``unknown_decl`` of the rest from ``CDATA[``;
- ``<!doctype`` (any case) is ``handle_decl`` of the rest from ``doctype``;
- any other ``<!`` is a bogus comment of the rest, ``<?`` ``handle_pi`` of it.

Everything before that construct, and any input that closes what it opens,
is parsed as before: the loop is the stock one, line for line, with
upstream's branch in place of the rescan. The loop is the fixed code itself
(the rescan is inside it, so no check in front of the stock method can
remove it); its regular expressions are the stdlib module's own, read at
each call.

2.7's ``HTMLParser`` has the same loop and the same rescan, without
``convert_charrefs``; the two differences are in the block below.
"""

import re
import sys

from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "fits", "parameters"]

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    # 2.7: no convert_charrefs (data is never unescaped: the loop reads the
    # attribute only where this is False), and an entity reference cut by EOF
    # is an error (``HTMLParseError``), as in the stock loop.
    _NEVER_CONVERTS = True

    def _eof_in_entity(parser, i):
        parser.error("EOF in middle of entity or char ref")
else:
    _NEVER_CONVERTS = False

    def _eof_in_entity(parser, i):
        return parser.updatepos(i, i + 1)

#: gh-135462's ``endtagopen``: ``</`` and a letter, an end tag (the stdlib has none before).
ENDTAGOPEN = re.compile("</[a-zA-Z]")

_SEMI_OR_SPACE = re.compile(r"[\s;]")


def needs_fix(module):
    """Whether ``close()`` still reports an unclosed ``<!--x`` as data (the rescan).

    gh-135462 reports it as the comment ``'x'``. One throw-away parser, three
    characters; nothing of the module changes."""
    seen = []
    parser = module.HTMLParser()
    parser.handle_data = parser.handle_comment = seen.append
    parser.feed("<!--x")
    parser.close()
    return seen != ["x"]


def _at_eof(parser, rawdata, i, n):
    """gh-135462: report the construct at *i* that EOF leaves open; it ends the input."""
    startswith = rawdata.startswith
    if startswith("</", i):
        if i + 2 == n:
            parser.handle_data("</")
        elif not ENDTAGOPEN.match(rawdata, i):  # </ + no letter: a bogus comment
            parser.handle_comment(rawdata[i + 2:])
    elif startswith("<!--", i):
        j = n
        for suffix in ("--!", "--", "-"):
            if rawdata.endswith(suffix, i + 4):
                j -= len(suffix)
                break
        parser.handle_comment(rawdata[i + 4:j])
    elif startswith("<![CDATA[", i):
        parser.unknown_decl(rawdata[i + 3:])
    elif rawdata[i:i + 9].lower() == "<!doctype":
        parser.handle_decl(rawdata[i + 2:])
    elif startswith("<!", i):
        parser.handle_comment(rawdata[i + 2:])  # a bogus comment
    elif startswith("<?", i):
        parser.handle_pi(rawdata[i + 2:])
    # else: < + letter, an unclosed start tag, is dropped
    return n


def _goahead(module):
    """The stock loop with gh-135462's end; *module*'s patterns read at each call."""
    names = vars(module)

    def goahead(self, end):
        starttagopen, charref = names["starttagopen"], names["charref"]
        entityref, incomplete = names["entityref"], names["incomplete"]
        unescape = names.get("unescape")
        rawdata = self.rawdata
        i = 0
        n = len(rawdata)
        while i < n:
            if not _NEVER_CONVERTS and self.convert_charrefs and not self.cdata_elem:
                j = rawdata.find('<', i)
                if j < 0:
                    # a charref may be cut in half at the end: wait for more text
                    amppos = rawdata.rfind('&', max(i, n - 34))
                    if amppos >= 0 and not _SEMI_OR_SPACE.search(rawdata, amppos):
                        break
                    j = n
            else:
                match = self.interesting.search(rawdata, i)  # < or &
                if match:
                    j = match.start()
                else:
                    if self.cdata_elem:
                        break
                    j = n
            if i < j:
                if not _NEVER_CONVERTS and self.convert_charrefs and not self.cdata_elem:
                    self.handle_data(unescape(rawdata[i:j]))
                else:
                    self.handle_data(rawdata[i:j])
            i = self.updatepos(i, j)
            if i == n:
                break
            startswith = rawdata.startswith
            if startswith('<', i):
                if starttagopen.match(rawdata, i):  # < + letter
                    k = self.parse_starttag(i)
                elif startswith("</", i):
                    k = self.parse_endtag(i)
                elif startswith("<!--", i):
                    k = self.parse_comment(i)
                elif startswith("<?", i):
                    k = self.parse_pi(i)
                elif startswith("<!", i):
                    k = self.parse_html_declaration(i)
                elif (i + 1) < n:
                    self.handle_data("<")
                    k = i + 1
                else:
                    break
                if k < 0:
                    if not end:
                        break
                    k = _at_eof(self, rawdata, i, n)  # gh-135462: no rescan
                i = self.updatepos(i, k)
            elif startswith("&#", i):
                match = charref.match(rawdata, i)
                if match:
                    name = match.group()[2:-1]
                    self.handle_charref(name)
                    k = match.end()
                    if not startswith(';', k - 1):
                        k = k - 1
                    i = self.updatepos(i, k)
                    continue
                else:
                    if ";" in rawdata[i:]:  # bail by consuming &#
                        self.handle_data(rawdata[i:i + 2])
                        i = self.updatepos(i, i + 2)
                    break
            elif startswith('&', i):
                match = entityref.match(rawdata, i)
                if match:
                    name = match.group(1)
                    self.handle_entityref(name)
                    k = match.end()
                    if not startswith(';', k - 1):
                        k = k - 1
                    i = self.updatepos(i, k)
                    continue
                match = incomplete.match(rawdata, i)
                if match:
                    # match.group() will contain at least 2 chars
                    if end and match.group() == rawdata[i:]:
                        i = _eof_in_entity(self, i)
                    break  # incomplete
                elif (i + 1) < n:
                    # not the end of the buffer, and no other construct
                    self.handle_data("&")
                    i = self.updatepos(i, i + 1)
                else:
                    break
            else:
                raise AssertionError("interesting.search() lied")
        if end and i < n and not self.cdata_elem:
            if not _NEVER_CONVERTS and self.convert_charrefs:
                self.handle_data(unescape(rawdata[i:n]))
            else:
                self.handle_data(rawdata[i:n])
            i = self.updatepos(i, n)
        self.rawdata = rawdata[i:]

    return goahead


def _through(stock):
    def goahead(self, end):
        return stock(self, end)
    return goahead


def parameters(module):
    """The parameters of *module*'s ``HTMLParser.__init__`` after ``self`` (None: it has
    no code of its own to read, a class standing in for one)."""
    init = getattr(module.HTMLParser, "__init__", None)
    code = getattr(getattr(init, "__func__", init), "__code__", None)
    if code is None:
        return None
    return code.co_varnames[1:code.co_argcount + getattr(code, "co_kwonlyargcount", 0)]


def fits(module):
    """Whether *module*'s ``HTMLParser`` is the one this module's loop is written from:
    3.x's takes ``convert_charrefs`` (3.4+, bpo-13633), 2.7's takes nothing. A copy of
    3.3's (python-future's ``future.backports.html.parser``: ``strict``) parses with
    another loop, which this one would break."""
    names = parameters(module)
    if names is None:  # nothing to read: the loop is applied, as to any parser
        return True
    return names == () if _NEVER_CONVERTS else "convert_charrefs" in names


def replacements(module):
    """``{"HTMLParser.goahead": the loop with gh-135462's end}``, named as the stock one.

    Where the stock loop has the fix already (``patch(force=True)`` on a fixed
    interpreter), its loop is a later one than this module's (releases with
    the fix also parse tags, CDATA and raw text anew: gh-135661, gh-102555,
    gh-118350): the replacement calls it. A parser this loop does not fit
    (:func:`fits`) raises ``TypeError``: the engine leaves it unpatched, exposed."""
    if not fits(module):
        raise TypeError("HTMLParser(%s) is not the parser gh-135462's loop is written for"
                        % ", ".join(parameters(module)))
    stock = module.HTMLParser.__dict__["goahead"]
    new = _goahead(module) if needs_fix(module) else _through(stock)
    return {"HTMLParser.goahead": named_as(new, stock, module=True)}
