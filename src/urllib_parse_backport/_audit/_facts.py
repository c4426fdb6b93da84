"""What a module (and each scope in it) binds, as the audit's checks need it.

Why: a query parser often splits with a pattern compiled once at import time
(``FIELDS_MATCH = re.compile('[&;]')``, Django 1.11) or a separator constant;
the checks in ``_rules`` look those up here, read from the ``ast``.
"""

import ast

from .._compat import text_type

_REGEX_MODULES = frozenset(["re", "regex"])
_REGEX_FUNCTIONS = frozenset(["split", "compile", "sub", "findall", "finditer"])
_Constant = getattr(ast, "Constant", None)
_FUNCTIONS = (ast.FunctionDef, getattr(ast, "AsyncFunctionDef", ast.FunctionDef))
_CODES = {0x26: u"&", 0x3B: u";"}


def literal_text(node):
    """The value of a str or bytes literal as text (bytes read as latin-1), else None."""
    if _Constant is not None and type(node) is _Constant:
        value = node.value
    elif type(node).__name__ in ("Str", "Bytes"):  # before 3.8
        value = node.s
    else:
        return None
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value if isinstance(value, text_type) else None


def code_char(node):
    """The separator an integer literal is the code of: 38 (``0x26``) gives ``'&'``,
    59 (``0x3B``) gives ``';'``, any other number None. Why: a byte scanner may
    compare ``data[i]`` (an int on 3.x) with the codes themselves."""
    kind = type(node).__name__  # a Num before 3.8, whose n is deprecated after
    if kind not in ("Num", "Constant"):
        return None
    number = getattr(node, "value" if kind == "Constant" else "n", None)
    return _CODES.get(number) if type(number) is int else None  # not True, not 59.0


def char_value(node):
    """The character a byte or code point constant stands for: ``b'&'[0]``,
    ``ord('&')`` and 38 give ``'&'`` (python-multipart compares bytes with the
    first two), else None."""
    code = code_char(node)
    if code is not None:
        return code
    if isinstance(node, ast.Subscript):
        index = node.slice
        if type(index).__name__ == "Index":  # before 3.9
            index = index.value
        kind = type(index).__name__  # a Num before 3.8, whose n is deprecated after
        number = getattr(index, "value" if kind == "Constant" else "n", None)
        text = literal_text(node.value)
        if text and kind in ("Num", "Constant") and number == 0:
            return text[0]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "ord" and len(node.args) == 1:
        text = literal_text(node.args[0])
        if text is not None and len(text) == 1:
            return text
    return None


def constant_key(node):
    """The text of a subscript's constant string key (``environ['QUERY_STRING']``), else None."""
    key = getattr(node, "slice", None)
    if type(key).__name__ == "Index":  # before 3.9
        key = key.value
    return literal_text(key) if key is not None else None


def shown(text):
    """*text* as a literal, without 2.7's ``u`` prefix."""
    literal = repr(text)
    return literal[1:] if literal.startswith("u") else literal


def dotted(node):
    """``a.b.c`` for an attribute chain on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class ModuleFacts(object):
    """What module- and class-level statements bind: ``re`` names, regexes, constants."""

    def __init__(self, tree):
        self.regex_modules = set()
        self.regex_functions = {}  # local name -> "split", "compile", "sub", "findall"...
        self.constants = {}  # NAME -> text, for NAME = ';', b';'[0], ord(';') or 59
        self.patterns = {}  # NAME -> pattern text, for NAME = re.compile('[&;]')
        statements = list(tree.body)
        for statement in statements:  # grows as it goes: breadth first, each once
            # Module level, into if/try/with/class bodies, not into functions. (Not
            # list.pop(0), which made a module of 300,000 statements take 9 s.)
            if not isinstance(statement, _FUNCTIONS):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(statement, field, None)
                    if isinstance(block, list):  # not 2.7's Exec.body, an expression
                        statements.extend(block)
        for statement in statements:
            self.add_import(statement)
        for statement in statements:
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    for name, value in _pairs(target, statement.value):
                        self.add_binding(name, value)

    def add_import(self, node):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in _REGEX_MODULES:
                    self.regex_modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module in _REGEX_MODULES:
            for alias in node.names:
                if alias.name in _REGEX_FUNCTIONS:
                    self.regex_functions[alias.asname or alias.name] = alias.name

    def add_binding(self, name, value):
        text = literal_text(value)
        if text is None:
            text = char_value(value)
        if text is not None:
            self.constants[name] = text
        pattern = self.compiled(value, self.constants.get)
        if pattern is not None:
            self.patterns[name] = pattern

    def regex_function(self, func):
        """The name of the ``re`` function *func* is ("split", "compile"...), else None."""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in self.regex_modules:
            return func.attr
        if isinstance(func, ast.Name):
            return self.regex_functions.get(func.id)
        return None

    def compiled(self, node, constant):
        """The pattern of ``re.compile(PATTERN, ...)``, *constant* resolving names."""
        if isinstance(node, ast.Call) and node.args \
                and self.regex_function(node.func) == "compile":
            first = node.args[0]
            text = literal_text(first)
            if text is None and isinstance(first, ast.Name):
                text = constant(first.id)
            return text
        return None


def _pairs(target, value):
    """``(name, value)`` for ``NAME = value`` and each name of ``A, B = x, y``."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts):
        return [(item.id, item_value) for item, item_value in zip(target.elts, value.elts)
                if isinstance(item, ast.Name)]
    return []


class Scope(object):
    """One function, class body or module: what it binds and how it splits text."""

    def __init__(self, name):
        self.name = name
        self.roots = {}  # local name -> the text it holds (a root key)
        self.constants = {}
        self.patterns = {}
        self.splits = []  # (root, '&' or ';', node)
        self.normalised = []  # (root, old, new, node) for a ';' <-> '&' replacement
        self.parsed = set()  # roots passed to a query parser
        self.positions = {}  # (root, name) -> {'&' or ';': [node]}, for name = text.find(...)
