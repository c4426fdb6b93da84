"""The audit's ``ast`` checks: where does a module split a query string on ``';'``?

Why: the shim and the adapters fix the parsers they know at run time
(CVE-2021-23336, bpo-42967); every other parser that splits on ``';'`` stays
exposed, and reading the source (never importing it) is how to find them.
A function is flagged when it splits one text (or its pieces) on both
``'&'`` and ``';'``, splits with a regular expression that matches both,
replaces ``';'`` by ``'&'`` before splitting on ``'&'``, or scans for both
(``_buffer``). Text split on ``';'`` alone (cookies, CSV, SQL) never is.
"""

import ast
import re

from ._buffer import AMP, SEMI, SEMI_CODE, _BOTH, BufferChecks
from ._regex import separator_chars
from ._facts import ModuleFacts, Scope, constant_key, dotted, literal_text, shown

#: Methods whose result is the same text, transformed (qs.strip(), qs.decode()).
_SAME_TEXT = frozenset(["strip", "lstrip", "rstrip", "lower", "upper", "casefold",
                        "decode", "encode", "replace"])
_SPLIT = frozenset(["split", "rsplit"])
#: Calls that parse their first argument as a query string on '&'.
_QUERY_PARSERS = frozenset(["parse_qs", "parse_qsl", "limited_parse_qsl", "url_decode",
                            "QueryDict"])
_STRING_MODULES = frozenset(["string", "str", "bytes", "unicode"])  # string.split(s, sep)
_PIECES = (ast.Subscript, getattr(ast, "Starred", ast.Subscript))  # no Starred on 2.7


def check(tree, lines=None):
    """Findings in a parsed module: ``[(line, function, why)]``, sorted by line.
    With its source *lines*, functions and classes without a ';' are not followed."""
    checker = _Checker(ModuleFacts(tree), lines)
    checker.visit_body(tree.body, len(lines) if lines else None)
    checker.judge(checker.scopes.pop())
    return sorted(set(checker.findings))


class _Checker(BufferChecks, ast.NodeVisitor):
    """Follows each text through one scope: which splits and replaces reach it."""

    def __init__(self, facts, lines):
        self.facts = facts
        self.scopes = [Scope("<module>")]
        self.findings = []
        self.lines = lines
        self.ends = {}  # id(statement) -> its last line, before 3.8's end_lineno
        names = sorted(name for name, text in list(facts.constants.items())
                       + list(facts.patterns.items()) if SEMI in text)
        self.names = re.compile("|".join([SEMI_CODE.pattern] + [r"\b%s\b" % n for n in names]))

    def _relevant(self, node):
        """Whether *node*'s lines hold a ';' or its code, or a name bound to either."""
        end = getattr(node, "end_lineno", None) or self.ends.get(id(node))
        if self.lines is None or end is None or end < node.lineno:
            return True
        text = "\n".join(self.lines[node.lineno - 1:end])
        return SEMI in text or self.names.search(text) is not None

    # -- scopes -----------------------------------------------------------
    def visit_body(self, statements, end=None):
        for index, statement in enumerate(statements):
            if index + 1 < len(statements):  # a statement ends where the next begins
                self.ends[id(statement)] = statements[index + 1].lineno - 1
            elif end is not None:
                self.ends[id(statement)] = end
            self.visit(statement)

    def visit_FunctionDef(self, node):
        for expression in node.decorator_list:
            self.visit(expression)
        if self._relevant(node):
            self.visit(node.args)  # defaults belong to the enclosing scope
            self._enter(node.name, node.body, self.ends.get(id(node)))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.visit(node.args)
        self._enter("<lambda>", [node.body])

    def visit_ClassDef(self, node):
        for expression in node.decorator_list + node.bases:
            self.visit(expression)
        if self._relevant(node):
            self._enter(node.name, node.body, self.ends.get(id(node)))

    def _enter(self, name, body, end=None):
        outer = self.scopes[-1].name
        self.scopes.append(Scope(name if outer == "<module>" else outer + "." + name))
        self.visit_body(body, end)
        self.judge(self.scopes.pop())

    def judge(self, scope):
        """Report the ';' splits of texts this scope also splits on '&', and the
        replacements of one by the other before a split on the other."""
        split_on = {AMP: {}, SEMI: {}}  # char -> {root: first line split on it}
        for root, char, node in scope.splits:
            split_on[char].setdefault(root, node.lineno)
        for root, char, node in scope.splits:
            if char == SEMI and root in split_on[AMP]:
                self._report(node, "splits the same text on '&' (line %d) and on ';'"
                             % split_on[AMP][root], scope)
        for root, old, new, node in scope.normalised:
            if root in split_on[new]:
                self._report(node, "replaces %r by %r before splitting on %r (line %d)"
                             % (str(old), str(new), str(new), split_on[new][root]), scope)
            elif new == AMP and root in scope.parsed:
                self._report(node, "replaces ';' by '&' before parsing it as a query string",
                             scope)

    def _report(self, node, why, scope=None):
        self.findings.append((node.lineno, (scope or self.scopes[-1]).name, why))

    # -- bindings ---------------------------------------------------------
    def visit_Import(self, node):
        self.facts.add_import(node)

    visit_ImportFrom = visit_Import

    def visit_Assign(self, node):
        self.visit(node.value)
        for target in node.targets:
            self._bind(target, node.value)
            if isinstance(target, ast.Name):
                self.check_position(target.id, node.value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
            self._bind(node.target, node.value)

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        self._bind(node.target, node.value)

    def visit_For(self, node):
        self.visit(node.iter)
        self._bind_item(node.target, node.iter)
        self.visit_body(node.body + node.orelse)

    visit_AsyncFor = visit_For

    def _comprehension(self, node, results):
        for generator in node.generators:
            self.visit(generator.iter)
            self._bind_item(generator.target, generator.iter)
            self.visit_body(generator.ifs)
        self.visit_body(results)

    def visit_ListComp(self, node):  # and the set, generator and dict comprehensions
        results = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        self._comprehension(node, results)

    visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_ListComp

    def _bind(self, target, value):
        scope = self.scopes[-1]
        if isinstance(target, ast.Name):
            scope.roots[target.id] = self._root(value)
            scope.constants.pop(target.id, None)
            scope.patterns.pop(target.id, None)
            text = self._constant(value)
            if text is not None:
                scope.constants[target.id] = text
            pattern = self.facts.compiled(value, self._constant_name)
            if pattern is not None:
                scope.patterns[target.id] = pattern
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for item, item_value in zip(target.elts, value.elts):
                    self._bind(item, item_value)
            else:  # first, rest = qs.split('&', 1): pieces of the same text
                split = self._split(value) if isinstance(value, ast.Call) else None
                pieces = split is not None and split[1] & _BOTH
                for item in target.elts:
                    self._bind_item(item, value if pieces else None)
        else:
            self.visit(target)

    def _bind_item(self, target, iterable):
        """Bind a loop (or unpacking) *target* to the items of *iterable* (None: to
        a text of its own)."""
        if isinstance(target, ast.Name) and iterable is not None:
            self.scopes[-1].roots[target.id] = self._root(iterable)
            return
        for node in ast.walk(target):  # `for k, v in ...`: unrelated texts
            if isinstance(node, ast.Name):
                self.scopes[-1].roots[node.id] = ("node", id(node))

    # -- what a text is ---------------------------------------------------
    def _root(self, node):
        """A key naming the text *node* holds: equal keys, same text (or its pieces)."""
        if isinstance(node, ast.Name):
            return self.scopes[-1].roots.get(node.id, ("name", node.id))
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            if name is not None:
                return ("name", name)
        elif isinstance(node, _PIECES):
            key = constant_key(node)  # environ['QUERY_STRING'], environ['HTTP_COOKIE']
            value = self._root(node.value)
            return value if key is None else ("key", value, key)
        elif isinstance(node, ast.BoolOp):
            return self._root(node.values[0])
        elif isinstance(node, ast.IfExp):
            return self._root(node.body)
        elif isinstance(node, ast.Call):
            split = self._split(node)
            if split is not None and split[1] & _BOTH:
                return self._root(split[0])
            if isinstance(node.func, ast.Attribute) and node.func.attr in _SAME_TEXT:
                return self._root(node.func.value)
            substitution = self._regex(node, "sub")
            if substitution is not None and len(substitution[1]) > 1:
                return self._root(substitution[1][1])
        return ("node", id(node))

    def _constant_name(self, name):
        scope = self.scopes[-1]
        if name in scope.constants:
            return scope.constants[name]
        return None if name in scope.roots else self.facts.constants.get(name)

    def _constant(self, node):
        text = literal_text(node)
        if text is None and isinstance(node, ast.Name):
            text = self._constant_name(node.id)
        return text

    def _pattern(self, node):
        """The pattern text of a compiled regular expression *node*, else None."""
        if isinstance(node, ast.Name):
            scope = self.scopes[-1]
            if node.id in scope.patterns or node.id in scope.roots:
                return scope.patterns.get(node.id)
            return self.facts.patterns.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return self.facts.patterns.get(node.attr)  # self.PATTERN, cls.PATTERN
        return self.facts.compiled(node, self._constant_name)

    def _regex(self, node, method):
        """(pattern, the other arguments) when *node* calls ``re.<method>`` or a compiled
        pattern's ``<method>``, else None."""
        func, args = node.func, list(node.args)
        if self.facts.regex_function(func) == method and args:
            pattern = self._constant(args[0])
            return None if pattern is None else (pattern, args[1:])
        if isinstance(func, ast.Attribute) and func.attr == method:
            pattern = self._pattern(func.value)
            return None if pattern is None else (pattern, args)
        return None

    def _split(self, node):
        """(the text, the separator characters) when *node* splits a text, else None."""
        regex = self._regex(node, "split")
        if regex is not None:
            pattern, args = regex
            return (args[0], separator_chars(pattern)) if args else None
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in _SPLIT:
            return None
        args = list(node.args) + [keyword.value for keyword in node.keywords
                                  if keyword.arg == "sep"]
        text = func.value
        if isinstance(text, ast.Name) and text.id in _STRING_MODULES and len(args) > 1:
            text, args = args[0], args[1:]
        separator = self._constant(args[0]) if args else None
        return None if separator is None else (text, set([separator]))

    # -- the checks -------------------------------------------------------
    def visit_Call(self, node):
        self.generic_visit(node)
        if self.check_findall(node):
            return
        scope = self.scopes[-1]
        split = self._split(node)
        if split is not None:
            text, chars = split
            if _BOTH <= chars:
                self._report(node, "splits on the regular expression %s, which matches "
                             "'&' and ';'" % (shown(self._regex(node, "split")[0]),))
                return
            for char in chars & _BOTH:
                scope.splits.append((self._root(text), char, node))
            return
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "replace" and len(node.args) > 1:
            old, new = self._constant(node.args[0]), self._constant(node.args[1])
            if set([old, new]) == _BOTH:  # ';' -> '&', or '&' -> ';'
                scope.normalised.append((self._root(func.value), old, new, node))
            return
        regex = self._regex(node, "sub")
        if regex is not None and len(regex[1]) > 1 and SEMI in separator_chars(regex[0]) \
                and self._constant(regex[1][0]) == AMP:
            scope.normalised.append((self._root(regex[1][1]), SEMI, AMP, node))
            return
        name = getattr(func, "attr", None) or getattr(func, "id", None)
        if name in _QUERY_PARSERS and node.args:
            scope.parsed.add(self._root(node.args[0]))
