"""Copies of CPython's ``urlsplit`` and the four later fixes each one lacks.

Why: a module that defines its own ``urlsplit`` (python-future's
``future.backports.urllib.parse``, 3.3's code; a hand copy of an old stdlib)
keeps the bugs of the release it was copied from whatever the interpreter
fixes. A module-level ``def urlsplit`` that splits the URL itself (it looks
for the ``//`` of a netloc; a wrapper around the stdlib's does not) is a
copy; what it and the module's functions it calls do (``_splitfacts``)
decides each fix:

* CVE-2023-24329 (gh-102153): the URL is ``lstrip``-ed (or ``strip``-ed) of
  every character U+0000-U+001F and the space.
* CVE-2022-0391 (bpo-43882): tab, CR and LF are each replaced by nothing.
* CVE-2024-11168 (gh-103848): an IP address is validated
  (``ipaddress.ip_address``, ``IPv6Address``, ``inet_pton(AF_INET6, ...)``).
* CVE-2025-0938 (gh-105704): the text before a host's ``[`` and the text
  after its ``]`` each decide a ``raise``.

Each missing fix is one finding at the ``def`` line.
"""

import ast
import re

from _cpython_security._registry import fixes_of

from ._splitfacts import FunctionFacts, module_constants, module_level

FUNCTION = "urlsplit"
#: gh-102153's ``_WHATWG_C0_CONTROL_OR_SPACE`` and bpo-43882's characters.
_C0_OR_SPACE = frozenset(u"%c" % code for code in range(0x21))
_UNSAFE = frozenset(u"\t\r\n")
_IP_CHECKS = frozenset(["ip_address", "IPv6Address"])
_FUNCTIONS = (ast.FunctionDef, getattr(ast, "AsyncFunctionDef", ast.FunctionDef))
_DEF = re.compile(r"^\s*(?:async\s+)?def\s")
#: A module-level ``def urlsplit(``, as the bytes of a file show it.
_DEFINES = re.compile(br"(?m)^(?:async[ \t]+)?def[ \t]+urlsplit[ \t]*\(")
_DEFINES_TEXT = re.compile(r"^(?:async\s+)?def\s+urlsplit\s*\(")


class Fix(object):
    """One upstream fix, from its registry row: its *cve*, *issue*, what a copy
    without it does (*without*), and the name upstream's fixed code gives it
    (*marker*, for the line search of files this interpreter cannot parse)."""

    def __init__(self, row):
        self.cve, self.issue = row.cve, row.issue
        self.without, self.marker = row.copy_lacks, row.upstream_name

    def why(self):
        return "a copy of urlsplit without %s's fix (%s): %s" % (self.issue, self.cve,
                                                                 self.without)


#: The fixes of ``urlsplit``: the registry's rows that name upstream's fixed code.
FIXES = tuple(Fix(row) for row in fixes_of("urllib_parse_backport")
              if row.upstream_name is not None)
ISSUES = dict((fix.cve, fix.issue) for fix in FIXES)


def may_define(data):
    """Whether the bytes of a file define ``urlsplit`` at module level (most do not)."""
    return b"urlsplit" in data and _DEFINES.search(data) is not None


def check(tree, lines):
    """``[(line, 'urlsplit', why, cve)]``: each fix each module-level copy lacks."""
    statements = module_level(tree)
    functions = {}
    for statement in statements:
        if isinstance(statement, _FUNCTIONS):
            functions.setdefault(statement.name, []).append(statement)
    copies = functions.get(FUNCTION, [])
    if not copies:
        return []
    constants = module_constants(statements)
    ip_names = _ip_names(statements)
    facts = dict((id(function), FunctionFacts(function, constants, functions, ip_names))
                 for defs in functions.values() for function in defs)
    joined = _joined(functions, facts)
    found = []
    for function in copies:
        own = facts[id(function)]
        done = _Joined([own])
        for callee in own.calls:
            done.add_general(joined[callee])
        for callee in own.url_calls:
            done.add_url(joined[callee])
        if not done.splits_netloc:
            continue  # a wrapper, not a copy
        line = _def_line(function, lines)
        for fix in FIXES:
            if not done.has(fix.cve):
                found.append((line, FUNCTION, fix.why(), fix.cve))
    return found


def search(lines):
    """The line search for a file this interpreter cannot parse: at each
    module-level ``def urlsplit``, the fixes whose upstream name (``marker``)
    the file never mentions."""
    text = u"\n".join(lines)
    missing = [fix for fix in FIXES if fix.marker not in text]
    found = []
    for number, line in enumerate(lines, 1):
        if _DEFINES_TEXT.match(line):
            found.extend((number, FUNCTION, fix.why(), fix.cve) for fix in missing)
    return found


def _ip_names(statements):
    """The local names of ``from ipaddress import ip_address`` (or ``IPv6Address``)."""
    names = set()
    for statement in statements:
        if isinstance(statement, ast.ImportFrom) and statement.module == "ipaddress":
            names.update(alias.asname or alias.name for alias in statement.names
                         if alias.name in _IP_CHECKS)
    return names


class _Joined(object):
    """The facts of some functions together: what they strip and remove of the URL
    (kept to the characters the fixes name), and the checks any of them makes."""

    def __init__(self, parts=()):
        self.stripped, self.removed = set(), set()
        self.validates_ip = self.refuses_before = self.refuses_after = False
        self.splits_netloc = False
        for part in parts:
            self.add_general(part)
            self.add_url(part)

    def add_general(self, other):
        """Add *other*'s checks; whether anything changed."""
        before = (self.validates_ip, self.refuses_before, self.refuses_after,
                  self.splits_netloc)
        self.validates_ip = self.validates_ip or other.validates_ip
        self.refuses_before = self.refuses_before or other.refuses_before
        self.refuses_after = self.refuses_after or other.refuses_after
        self.splits_netloc = self.splits_netloc or other.splits_netloc
        return before != (self.validates_ip, self.refuses_before, self.refuses_after,
                          self.splits_netloc)

    def add_url(self, other):
        """Add what *other* strips and removes of the URL; whether anything changed."""
        sizes = len(self.stripped), len(self.removed)
        self.stripped.update(_C0_OR_SPACE.intersection(other.stripped))
        self.removed.update(_UNSAFE.intersection(other.removed))
        return sizes != (len(self.stripped), len(self.removed))

    def has(self, cve):
        if cve == "CVE-2023-24329":
            return _C0_OR_SPACE <= self.stripped
        if cve == "CVE-2022-0391":
            return _UNSAFE <= self.removed
        if cve == "CVE-2024-11168":
            return self.validates_ip
        return self.refuses_before and self.refuses_after


def _joined(functions, facts):
    """``{name: _Joined}``: each module function's facts with those of every
    function it calls, the URL's along the calls that hand it the URL. A
    worklist: each function is looked at again only when a callee's facts
    grow, and they grow a bounded number of times (39 characters, 4 checks),
    so the time is linear in the calls, cycles and hostile modules included."""
    joined = dict((name, _Joined([facts[id(function)] for function in defs]))
                  for name, defs in functions.items())
    callers, url_callers = {}, {}
    for name, defs in functions.items():
        for function in defs:
            for callee in facts[id(function)].calls:
                callers.setdefault(callee, set()).add(name)
            for callee in facts[id(function)].url_calls:
                url_callers.setdefault(callee, set()).add(name)
    pending = list(joined)
    while pending:
        name = pending.pop()
        for caller in callers.get(name, ()):
            if joined[caller].add_general(joined[name]):
                pending.append(caller)
        for caller in url_callers.get(name, ()):
            if joined[caller].add_url(joined[name]):
                pending.append(caller)
    return joined


def _def_line(function, lines):
    """The line of the ``def`` itself: before 3.8 a decorated function's
    ``lineno`` is its first decorator's."""
    if not function.decorator_list:
        return function.lineno
    for number in range(function.lineno, function.body[0].lineno + 1):
        if 0 < number <= len(lines) and _DEF.match(lines[number - 1]):
            return number
    return function.lineno
