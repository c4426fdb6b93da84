"""The rows of ``html_parser_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, FUTURE, PY2
from .._row import Fix

_HTML_PARSER = "HTMLParser" if PY2 else "html.parser"
_HTML = dict(package="html_parser_backport", module=_HTML_PARSER, copies=[FUTURE + "html.parser"],
             variable="HTML_PARSER_BACKPORT_PATCH", options=FORCE)

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2025-6069", issue="gh-135462",
        summary="HTMLParser.close() rescans the input from each unclosed tag or comment "
                "(CPU exhaustion)",
        exposed="HTML of many unclosed '<a ' or '<!--' costs this process quadratic CPU time",
        unfixed="close() quadratic in unclosed constructs",
        behaviour="HTMLParser.close() drops a start or end tag left open at the end of the "
                  "input, and reports an open comment or declaration as one, as HTML5 says",
        replaces=[_HTML_PARSER + ".HTMLParser.goahead"], fix="html_parser_backport._eof",
        **_HTML),
    Fix(cve="CVE-2026-15308", issue="gh-153030",
        summary="HTMLParser.feed() rescans an open construct on every call (CPU exhaustion)",
        exposed="an open HTML tag fed in small pieces costs this process quadratic CPU time",
        unfixed="feed() quadratic while a construct stays open",
        behaviour="a construct left open across HTMLParser.feed() calls gives its events at a "
                  "later feed() or at close()",
        replaces=[_HTML_PARSER + ".HTMLParser.feed", _HTML_PARSER + ".HTMLParser.close",
                  _HTML_PARSER + ".HTMLParser.reset"], fix="html_parser_backport._feed",
        **_HTML),
)
