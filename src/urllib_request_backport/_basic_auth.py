"""The fix: the basic-auth realm regex in linear time (CVE-2020-8492, bpo-39503;
CVE-2021-3733, bpo-43075).

``AbstractBasicAuthHandler.rx`` reads the challenge of a ``WWW-Authenticate``
(or ``Proxy-Authenticate``) header a server sends with a 401 (407). Before
bpo-39503 it was ``(?:.*,)*[ \\t]*([^ \\t]+)[ \\t]+realm=...``: a repeated group
holding a repetition, so a header of commas that names no realm, e.g.
``'basic ' + ',' * 30 + '\\x00'``, costs time exponential in the commas
(measured in docs/urllib_request_backport.rst). A server the client talks
to, or a proxy or a redirect on the way, stalls the client's thread.

- bpo-39503 (CVE-2020-8492; commit 0b297d4f, PR GH-18284, 3.6 backport
  GH-19304; 3.5.10, 3.6.11, 3.7.8, 3.8.3; a 2.7 PR, GH-19302, was closed
  unmerged): ``(?:^|,)[ \\t]*([^ \\t]+)
  [ \\t]+realm=...``, and a new ``_parse_realm`` that reads every challenge of
  every header, taking the first Basic one (raising ValueError where no
  challenge is Basic).
- bpo-43075 (CVE-2021-3733; PR GH-24391; 3.6.14, 3.7.11, 3.8.10, 3.9.5): the
  scheme may not hold a comma (``[^ \\t,]+``): the bpo-39503 pattern was
  still polynomial.

Two rows, one per CVE, each its own binding (this module is CVE-2020-8492's;
``_basic_auth_rx`` is CVE-2021-3733's, from :func:`needs_fix_pattern` and
:func:`replace_pattern`):

- CVE-2021-3733's row binds ``rx`` to bpo-43075's pattern (:data:`FIXED_RX`):
  code that reads ``rx`` itself (a subclass, a copied handler) gets the fixed
  pattern.
- CVE-2020-8492's row binds ``http_error_auth_reqed``. On 2.7 the stock
  handler calls ``rx.search`` once and takes the challenge the old pattern
  finds: the last ``scheme realm=`` after a comma (the stock comment: "will
  stupidly pick the last one with a realm specified"). The replacement is
  2.7's handler with that search made in linear time by :func:`old_search`,
  which finds exactly the match the old pattern finds, for every header
  (honest or not), without the old pattern. On 3.x the stock handler is
  already bpo-39503's (``_parse_realm`` over ``rx``): the replacement is a
  copy of it (forced only), so its warning still names the caller's line.

python-future's ``future.backports.urllib.request`` (a copy of 3.3's module,
on 2.7 and 3.x alike) keeps the pre-bpo-39503 pattern and 3.3's handler,
which counts retries and refuses a first challenge that is not Basic
before its one ``rx.search``: the replacement there is 3.3's handler with
that search made by :func:`old_search`. Which handler a module holds is
read from its code (the names it reads), not from the interpreter.

What differs on 2.7 from 3.x's fix: one header is read (``headers.get``;
2.7's ``httplib`` joins repeated headers with ``", "``), the last challenge
that names a realm wins where 3.x takes the first Basic one, and a non-Basic
challenge returns None where 3.x raises ValueError. Those are 2.7's answers,
kept; only their cost changes.
"""

import re
import types
import warnings
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "needs_fix_pattern", "replace_pattern", "old_search",
           "FIXED_RX", "CVE_SEARCH", "CVE_PATTERN"]

#: The rows' CVEs: the handler's search (bpo-39503), the pattern itself (bpo-43075).
CVE_SEARCH, CVE_PATTERN = "CVE-2020-8492", "CVE-2021-3733"

#: bpo-43075's pattern, as upstream compiles it (3.6.14+).
FIXED_RX = re.compile('(?:^|,)'    # start of the string or ','
                      '[ \t]*'     # optional whitespaces
                      '([^ \t,]+)'  # scheme like "Basic"
                      '[ \t]+'     # mandatory whitespaces
                      # realm=xxx
                      # realm='xxx'
                      # realm="xxx"
                      'realm=(["\']?)([^"\']*)\\2',
                      re.I)

# The old pattern is ``(?:.*,)*`` + TAIL. TAIL at a position p: blanks, a run of
# non-blanks (the scheme: the rest of its run, since blanks must follow), blanks,
# ``realm=``, then a realm part that always matches. One anchored match: linear.
_TAIL = re.compile('[ \t]*([^ \t]+)[ \t]+realm=(["\']?)([^"\']*)\\2', re.I)
# Where TAIL matches (see _spans): found from each ``realm=`` that follows a blank,
# reading back over the reversed header with anchored matches.
_REALM = re.compile('realm=', re.I)
_BLANKS = re.compile('[ \t]*')
_TOKEN = re.compile('[^ \t]*')

# Two challenges the patterns answer differently: the old one ends its prefix at the
# last comma it can (Digest); bpo-39503's lets a scheme hold a comma ('a,b').
_TWO_CHALLENGES = 'Basic realm="a", Digest realm="b"'
_COMMA_SCHEME = 'a,b realm="x"'


def _spans(header):
    """The positions where TAIL matches, as ``[(start, end)]`` in order: for each
    ``realm=`` that follows a blank, from the start of the blanks before the run of
    non-blanks before it (or the run's start, at the string's start) to that run's
    end. Each run of blanks is read back at most twice, each run of non-blanks
    once: linear."""
    found = []
    size = len(header)
    back = None
    for match in _REALM.finditer(header):
        at = match.start()
        if not at or header[at - 1] not in " \t":
            continue
        if back is None:
            back = header[::-1]
        blanks = _BLANKS.match(back, size - at).end()
        token = _TOKEN.match(back, blanks).end()
        if token != blanks:
            found.append((size - _BLANKS.match(back, token).end(), size - blanks))
    return found


def old_search(header):
    """The match of 2.7's ``rx.search(header)`` (the pre-bpo-39503 pattern), found in
    time linear in *header*; None where it finds none.

    Its groups (scheme, quote, realm) are the old pattern's; its span starts
    where the old pattern's ``(?:.*,)*`` stopped. Why this is that match:
    ``search`` tries each start s in turn; from s, ``(?:.*,)*`` can stop at s
    or just after any comma on s's line (``.`` stops at a newline), and tries
    the furthest first. TAIL matches at p exactly when p lies in one of
    ``_spans``' spans. So the old search stops at the first s from which
    such a p is reachable (the first span's start, or the start of the line
    of the first comma whose next position is in a span), and takes the last
    comma on s's line whose next position is in a span, else s itself."""
    spans = _spans(header)
    if not spans:
        return None
    start = spans[0][0]
    for left, right in spans:  # the first comma that leads into a span
        comma = header.find(",", max(left - 1, 0), right - 1)
        if comma >= 0:
            start = min(start, header.rfind("\n", 0, comma) + 1)
            break
    end = header.find("\n", start)
    if end < 0:
        end = len(header)
    for left, right in reversed(spans):  # the last such comma on start's line
        low, high = max(left - 1, start), min(right - 1, end)
        if low < high:
            comma = header.rfind(",", low, high)
            if comma >= 0:
                return _TAIL.match(header, comma + 1)
    return _TAIL.match(header, start)


def _scheme(rx, header):
    match = rx.search(header)
    return match and match.group(1)


def needs_fix(module):
    """CVE-2020-8492: whether the handler class's ``rx`` is the pre-bpo-39503 pattern,
    read from what it finds in two challenges (the old one takes the last). The
    stock handler of such a module searches with it; 3.6.11+ parse with
    ``_parse_realm``."""
    rx = module.__dict__["AbstractBasicAuthHandler"].__dict__["rx"]
    return _scheme(rx, _TWO_CHALLENGES) == "Digest"


def needs_fix_pattern(module):
    """CVE-2021-3733: whether ``rx`` is not bpo-43075's: the old pattern (as above),
    or bpo-39503's, whose scheme may hold a comma."""
    rx = module.__dict__["AbstractBasicAuthHandler"].__dict__["rx"]
    return needs_fix(module) or _scheme(rx, _COMMA_SCHEME) == "a,b"


def _handler_27(original):
    """2.7.18's ``http_error_auth_reqed``, its one ``rx.search`` made by :func:`old_search`."""

    def http_error_auth_reqed(self, authreq, host, req, headers):
        authreq = headers.get(authreq, None)
        if authreq:
            mo = old_search(authreq)
            if mo:
                scheme, quote, realm = mo.groups()
                if quote not in ['"', "'"]:
                    warnings.warn("Basic Auth Realm was unquoted",
                                  UserWarning, 2)
                if scheme.lower() == 'basic':
                    return self.retry_http_basic_auth(host, req, realm)
    return named_as(http_error_auth_reqed, original)


def _handler_33(original):
    """3.3's ``http_error_auth_reqed`` (python-future's copy), its one ``rx.search`` made
    by :func:`old_search`; ``HTTPError`` read from its module at call time, as it does."""
    names = original.__globals__

    def http_error_auth_reqed(self, authreq, host, req, headers):
        authreq = headers.get(authreq, None)

        if self.retried > 5:
            raise names["HTTPError"](req.get_full_url(), 401, "basic auth failed",
                                     headers, None)
        else:
            self.retried += 1

        if authreq:
            scheme = authreq.split()[0]
            if scheme.lower() != 'basic':
                raise ValueError("AbstractBasicAuthHandler does not"
                                 " support the following scheme: '%s'" %
                                 scheme)
            else:
                mo = old_search(authreq)
                if mo:
                    scheme, quote, realm = mo.groups()
                    if quote not in ['"', "'"]:
                        warnings.warn("Basic Auth Realm was unquoted",
                                      UserWarning, 2)
                    if scheme.lower() == 'basic':
                        response = self.retry_http_basic_auth(host, req, realm)
                        if response and response.code != 401:
                            self.retried = 0
                        return response
    return named_as(http_error_auth_reqed, original)


def _copy(original):
    """A function of its own with *original*'s code: the same frames, a new identity."""
    return named_as(types.FunctionType(original.__code__, original.__globals__,
                                       original.__name__, original.__defaults__,
                                       original.__closure__), original)


def replacements(module):
    """CVE-2020-8492: ``AbstractBasicAuthHandler.http_error_auth_reqed`` (see above): a
    copy of bpo-39503's (it calls ``_parse_realm``), else 3.3's (it counts ``retried``)
    or 2.7's with :func:`old_search`."""
    original = module.__dict__["AbstractBasicAuthHandler"].__dict__["http_error_auth_reqed"]
    reads = original.__code__.co_names
    if "_parse_realm" in reads:
        new = _copy(original)
    elif "retried" in reads:
        new = _handler_33(original)
    else:
        new = _handler_27(original)
    return {"AbstractBasicAuthHandler.http_error_auth_reqed": new}


def replace_pattern(module):
    """CVE-2021-3733: ``AbstractBasicAuthHandler.rx``, bpo-43075's pattern. Its own
    compiled object (``re`` caches by pattern): ``in_effect`` reads identity."""
    return {"AbstractBasicAuthHandler.rx": re.compile(FIXED_RX.pattern + "(?#bpo-43075)",
                                                      FIXED_RX.flags)}
