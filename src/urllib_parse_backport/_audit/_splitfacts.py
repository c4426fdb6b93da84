"""What one function does to a URL, read from its ``ast``: the facts the urlsplit check needs.

Why: whether a copy of ``urlsplit`` has a fix is decided by what its code
does, not by the names upstream gave the pieces: which characters it strips
from the front of the URL (gh-102153 strips U+0000-U+001F and the space),
which it removes everywhere (bpo-43882: tab, CR, LF), whether it validates
an IP address (gh-103848's ``ipaddress.ip_address`` on the bracketed host),
and whether the text before ``[`` and after ``]`` of a host decides a
``raise`` (gh-105704). ``_splitcopy`` joins the facts of the functions a
``urlsplit`` calls.
"""

import ast

from ._facts import dotted, literal_text

#: The most characters a constant built by ``''.join(map(chr, range(N)))`` may hold.
_MAX_RANGE = 256
#: How deep an expression :func:`value` follows (a constant is a few levels).
_MAX_DEPTH = 16
_STRIPS = frozenset(["lstrip", "strip"])
_PARTITIONS = frozenset(["partition", "split"])
_IP_CHECKS = frozenset(["ip_address", "IPv6Address"])
_COLLECTIONS = frozenset(["frozenset", "set", "tuple", "list"])
_FUNCTIONS = (ast.FunctionDef, getattr(ast, "AsyncFunctionDef", ast.FunctionDef))
_BLOCKS = ("body", "orelse", "finalbody", "handlers")


def module_level(tree):
    """The statements a module runs at import time, into ``if``/``try``/``with``
    blocks but not into functions or classes, breadth first, each once."""
    statements = list(tree.body)
    for statement in statements:  # grows as it goes (not list.pop(0): quadratic)
        if not isinstance(statement, _FUNCTIONS + (ast.ClassDef,)):
            for field in _BLOCKS:
                block = getattr(statement, field, None)
                if isinstance(block, list):  # not 2.7's Exec.body, an expression
                    statements.extend(block)
    return statements


def module_constants(statements):
    """``{NAME: (characters, items)}`` for module-level ``NAME = <characters>``
    (see :func:`value`)."""
    constants = {}
    for statement in statements:
        if isinstance(statement, ast.Assign):
            found = value(statement.value, constants)
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    if found is None:
                        constants.pop(target.id, None)
                    else:
                        constants[target.id] = found
    return constants


def characters(node, constants):
    """The set of characters *node* holds (see :func:`value`), else None."""
    found = value(node, constants)
    return None if found is None else found[0]


def value(node, constants, depth=0):
    """``(characters, items)`` for what *node* holds, where it can be known
    without running it: ``'\\t\\r\\n'``, ``['\\t', '\\r', '\\n']``, ``A + B``,
    a module constant, ``''.join(map(chr, range(0x21)))``; else None.
    *items*: the one-character texts a loop over it gives, None when one of
    them is longer (``['\\r\\n']``: a replace of that removes no lone ``\\r``)."""
    text = literal_text(node)
    if text is not None:
        return frozenset(text), frozenset(text)
    depth += 1
    if depth > _MAX_DEPTH:  # 'a' + 'a' + ... 100,000 times: not a constant we need
        return None
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = value(node.left, constants, depth), value(node.right, constants, depth)
        if left is None or right is None:
            return None
        items = None if left[1] is None or right[1] is None else left[1] | right[1]
        return left[0] | right[0], items
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        chars, items = frozenset(), frozenset()
        for element in node.elts:
            found = value(element, constants, depth)
            if found is None:
                return None
            chars |= found[0]
            single = literal_text(element)
            if items is not None and single is not None and len(single) == 1:
                items |= frozenset([single])
            else:
                items = None
        return chars, items
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _COLLECTIONS:
            return value(node.args[0], constants, depth)
        if isinstance(func, ast.Attribute) and func.attr == "join" \
                and literal_text(func.value) is not None:
            found = value(node.args[0], constants, depth)
            chars = found[0] if found is not None else _chr_range(node.args[0])
            return None if chars is None else (chars, chars)
    return None


def _chr_range(node):
    """The characters of ``map(chr, range(...))`` with integer literal bounds."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "map" and len(node.args) == 2
            and isinstance(node.args[0], ast.Name) and node.args[0].id == "chr"):
        return None
    numbers = node.args[1]
    if not (isinstance(numbers, ast.Call) and isinstance(numbers.func, ast.Name)
            and numbers.func.id == "range" and 1 <= len(numbers.args) <= 2):
        return None
    bounds = [_integer(arg) for arg in numbers.args]
    if None in bounds:
        return None
    start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
    if not 0 <= start <= stop <= _MAX_RANGE:
        return None
    return frozenset(u"%c" % code for code in range(start, stop))


def _integer(node):
    kind = type(node).__name__  # a Num before 3.8
    number = getattr(node, "value" if kind == "Constant" else "n", None)
    return number if kind in ("Num", "Constant") and type(number) is int else None


def url_name(function):
    """The name of *function*'s first positional parameter (the URL), else None."""
    params = function.args.args
    if not params:
        return None
    first = params[0]
    return getattr(first, "arg", None) or getattr(first, "id", None)  # 3.x arg, 2.7 Name


class FunctionFacts(object):
    """What one function does: ``stripped`` (characters stripped from the front of
    the URL), ``removed`` (characters replaced by nothing in it), ``validates_ip``,
    ``refuses_before`` / ``refuses_after`` (the text before ``[`` / after ``]``
    decides a ``raise``), ``splits_netloc`` (it looks for the ``//`` that starts
    a netloc: ``url[:2] == '//'``); ``calls`` (module function names it calls) and
    ``url_calls`` (those it hands the URL, as their first argument)."""

    def __init__(self, function, constants, module_functions, ip_names):
        self.stripped, self.removed = set(), set()
        self.validates_ip = self.refuses_before = self.refuses_after = False
        self.splits_netloc = False
        self.calls, self.url_calls = set(), set()
        self._constants, self._functions = constants, module_functions
        self._url = url_name(function)
        nodes = list(ast.walk(function))  # iterative: no recursion on deep code
        loops = self._loop_characters(nodes)
        before, after = set(), set()
        for node in nodes:
            if isinstance(node, ast.Call):
                self._call(node, ip_names)
                self.splits_netloc = self.splits_netloc or _startswith(node, u"//")
            elif isinstance(node, ast.Compare):
                self.splits_netloc = self.splits_netloc or _compares_with(node, u"//")
            elif isinstance(node, (ast.Assign, ast.Return)):
                self._url_result(node, loops)
                if isinstance(node, ast.Assign):
                    _pieces(node, before, after)
        for node in nodes:
            if isinstance(node, ast.If) and _raises(node.body):
                names = set(item.id for item in ast.walk(node.test) if isinstance(item, ast.Name))
                self.refuses_before = self.refuses_before or bool(names & before) \
                    or _tests_startswith(node.test, u"[")
                self.refuses_after = self.refuses_after or bool(names & after)

    def _loop_characters(self, nodes):
        """``{name: one-character items}`` for ``for b in <characters>:`` loops (a
        name bound by two loops: the items both give)."""
        loops = {}
        for node in nodes:
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                found = value(node.iter, self._constants)
                items = found[1] if found is not None and found[1] is not None else frozenset()
                name = node.target.id
                loops[name] = items if name not in loops else loops[name] & items
        return loops

    def _call(self, node, ip_names):
        func = node.func
        if isinstance(func, ast.Name) and func.id in self._functions:
            self.calls.add(func.id)
            if node.args and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id == self._url:
                self.url_calls.add(func.id)
        elif isinstance(func, ast.Name) and func.id in ip_names:
            self.validates_ip = True
        elif isinstance(func, ast.Attribute) and func.attr in _IP_CHECKS:
            self.validates_ip = True  # ipaddress.ip_address(host), any alias
        elif isinstance(func, ast.Attribute) and func.attr == "inet_pton" and node.args:
            self.validates_ip = self.validates_ip or (
                (dotted(node.args[0]) or "").endswith("AF_INET6"))

    def _url_result(self, node, loops):
        """``url = <calls on url>`` or ``return <calls on url>``: what they strip and
        remove of the URL."""
        if self._url is None or not isinstance(node.value, ast.Call):
            return
        if isinstance(node, ast.Assign) and not any(
                self._url in _names(target) for target in node.targets):
            return
        call = node.value
        while isinstance(call, ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute) or not self._on_url(func.value):
                return
            self._method(func.attr, call.args, loops)
            call = func.value

    def _on_url(self, node):
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        return isinstance(node, ast.Name) and node.id == self._url

    def _method(self, name, args, loops):
        if name in _STRIPS and len(args) == 1:
            self.stripped.update(characters(args[0], self._constants) or ())
        elif name == "replace" and len(args) == 2 and literal_text(args[1]) == u"":
            old = args[0]  # removes that text: one character, or a loop's items
            if isinstance(old, ast.Name) and old.id in loops:
                self.removed.update(loops[old.id])
            else:
                text = characters(old, self._constants) if literal_text(old) is None \
                    else literal_text(old)
                if text is not None and len(text) == 1:
                    self.removed.update(text)


def _names(target):
    return set(node.id for node in ast.walk(target) if isinstance(node, ast.Name))


def _pieces(node, before, after):
    """Record the names *node* binds to the text before ``[`` or after ``]``:
    ``a, _, b = t.partition('[')``, ``a = t.partition('[')[0]``,
    ``a = t.split('[', 1)[0]``, ``h, _, p = t.partition(']')``."""
    value = node.value
    index = None
    if isinstance(value, ast.Subscript):
        index = value.slice
        if type(index).__name__ == "Index":  # before 3.9
            index = index.value
        index = _integer(index)
        value = value.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in _PARTITIONS and value.args):
        return
    separator = literal_text(value.args[0])
    if separator not in (u"[", u"]"):
        return
    last = 2 if value.func.attr == "partition" else 1
    wanted, pieces = (0, before) if separator == u"[" else (last, after)
    for target in node.targets:
        if isinstance(target, (ast.Tuple, ast.List)) and index is None:
            if len(target.elts) > wanted and isinstance(target.elts[wanted], ast.Name):
                pieces.add(target.elts[wanted].id)
        elif isinstance(target, ast.Name) and index == wanted:
            pieces.add(target.id)


def _raises(statements):
    return any(isinstance(node, ast.Raise) for statement in statements
               for node in ast.walk(statement))


def _tests_startswith(test, prefix):
    """Whether *test* holds ``x.startswith(prefix)``."""
    return any(_startswith(node, prefix) for node in ast.walk(test))


def _startswith(node, prefix):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == "startswith" and len(node.args) == 1 \
        and literal_text(node.args[0]) == prefix


def _compares_with(node, text):
    """Whether the comparison *node* is ``x == text`` or ``x != text``."""
    return len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)) \
        and text in (literal_text(node.left), literal_text(node.comparators[0]))
