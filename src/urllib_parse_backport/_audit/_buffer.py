"""The checks for parsers that scan one buffer for either separator, rather than split it.

Why: python-multipart's ``QuerystringParser`` (Starlette's and FastAPI's form
bodies) ends a field at ``data.find(b"&", i)`` or else ``data.find(b";", i)``,
and at a byte equal to ``b"&"[0]`` or ``b";"[0]``: ``a=1;b=2`` gives two
fields on every interpreter (CVE-2021-23336, bpo-42967). Other scanners
compare with the codes themselves (38 and 59, ``0x26`` and ``0x3B``), and
``re.findall`` with ``([^&;=]+)=([^&;]*)`` splits the same way. A text
searched for ``'&'`` and ``';'`` apart (an HTML entity's ``&`` and the ``;``
that closes it) is not flagged: only the two searches' results bound to one
name, or one comparison that treats both characters (or codes) alike.
"""

import ast
import re

from ._facts import char_value, code_char, literal_text, shown
from ._regex import field_class

AMP, SEMI = u"&", u";"
#: The code of ';' as a literal (59, 0x3B), as the checks find it in a function's text.
SEMI_CODE = re.compile(r"(?<![\w.])(?:59|0[xX]3[bB])(?![\w.])")
_FEW = 4  # the most items a membership test of byte codes has
_BOTH = frozenset([AMP, SEMI])
_FIND = frozenset(["find", "index", "rfind", "rindex"])
FIND_WHY = "looks for '&' (line %d) and for ';' in the same text to end a field"
COMPARE_WHY = "compares one character with '&' and with ';' to end a field"
FINDALL_WHY = "finds fields with the regular expression %s, whose class holds '&' and ';'"


def _unwrapped(node):
    """``c`` for ``ord(c)``: the character compared, whichever way it is read."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "ord" and len(node.args) == 1:
        return node.args[0]
    return node


class BufferChecks(object):
    """Mixed into the checker: ``find``/``index`` of both, comparisons, ``findall``."""

    def _found_char(self, node):
        """(the text, the separator) when *node* is ``text.find('&' or ';', ...)``."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _FIND and node.args:
            char = self._constant(node.args[0])
            if char in _BOTH:
                return node.func.value, char
        return None

    def check_position(self, name, value):
        """``name = text.find(sep, ...)``: flag a name that holds the position of either."""
        found = self._found_char(value)
        if found is None:
            return
        scope = self.scopes[-1]
        finds = scope.positions.setdefault((self._root(found[0]), name), {AMP: [], SEMI: []})
        finds[found[1]].append(value)
        if len(finds[AMP]) == 1 and found[1] == AMP:  # the ';' searches seen so far
            semicolons = finds[SEMI]
        else:
            semicolons = [value] if found[1] == SEMI and finds[AMP] else []
        for node in semicolons:  # each ';' search once, with the nearest '&' one
            before = [amp.lineno for amp in finds[AMP] if amp.lineno <= node.lineno]
            self._report(node, FIND_WHY % (before or [finds[AMP][0].lineno])[-1])

    def check_findall(self, node):
        """``re.findall``/``finditer`` (or a compiled pattern's) with a field class."""
        for method in ("findall", "finditer"):
            regex = self._regex(node, method)
            if regex is not None and field_class(regex[0]):
                self._report(node, FINDALL_WHY % (shown(regex[0]),))
                return True
        return False

    def visit_BoolOp(self, node):
        """``ch == AMPERSAND or ch == SEMICOLON`` (or ``!=`` ... ``and`` ...)."""
        self.generic_visit(node)
        wanted = ast.Eq if isinstance(node.op, ast.Or) else ast.NotEq
        chars = {}
        for value in node.values:
            if isinstance(value, ast.Compare) and len(value.ops) == 1 \
                    and isinstance(value.ops[0], wanted):
                for subject, other in ((value.left, value.comparators[0]),
                                       (value.comparators[0], value.left)):
                    char = self._char(other)
                    if char in _BOTH:
                        chars.setdefault(self._root(_unwrapped(subject)), set()).add(char)
        if any(found == _BOTH for found in chars.values()):
            self._report(node, COMPARE_WHY)

    def visit_Compare(self, node):
        """``ch in (AMPERSAND, SEMICOLON)``, ``ch in b'&;'``."""
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            container = node.comparators[0]
            if isinstance(container, (ast.Tuple, ast.List, ast.Set)):
                items = container.elts  # many numbers, 38 and 59 among them: not bytes
                chars = set(self._char(item) for item in items
                            if len(items) <= _FEW or code_char(item) is None)
            else:
                text = literal_text(container)
                chars = set(text) if text is not None and len(text) <= 4 else set()
            if _BOTH <= chars:
                self._report(node, COMPARE_WHY)

    def _char(self, node):
        """The one character a constant (``'&'``, ``b'&'[0]``, ``ord('&')``, a name) holds."""
        text = self._constant(node)
        if text is None:
            text = char_value(node)
        return text if text is not None and len(text) == 1 else None
