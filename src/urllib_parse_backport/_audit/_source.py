"""One source file for the audit: read, decode, parse, check; a line search as fallback.

Why: the audit reads code it must never import or run, and must not stop at a
file this interpreter cannot parse (Python 2 code under Python 3, or the other
way): such files are searched line by line for the known patterns instead,
and files it cannot read or decode are skipped with the reason.
"""

import ast
import codecs
import re
import warnings

from . import _rules

_COOKIE = re.compile(br"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
# Which files can hold a finding at all, tested on the bytes so that most files
# are never parsed: a ';' where a split, search, replacement, pattern, constant
# or comparison takes it, and an '&' likewise.
_LITERAL = br"""\s*[bBuUrR]{0,2}['"][^'"\n]{0,24}"""
_EXACTLY = br"""\s*[bBuUrR]{0,2}(?:'\\?%s'|"\\?%s")"""
_BOTH_IN_A_CLASS = br"""\[[^\]'"\n]{0,10}(?:&[^\]'"\n]{0,10};|;[^\]'"\n]{0,10}&)|&\|;|;\|&"""
_TAKES_A_PATTERN = br"(?:split|compile|findall|finditer|find|index)\("
_ANY_SEMICOLON = re.compile(br"(?:[(,=]|\bin\s)" + _LITERAL + b";")
_PATTERN_CONSTANT = (br"""|=\s*[bBuUrR]{0,2}['"](?:""" + _BOTH_IN_A_CLASS
                     + br""")|\bin\s*[bBuU]?['"](?:&;|;&)['"]""")
_SEMICOLON = re.compile(
    _TAKES_A_PATTERN + _LITERAL + br";|replace\(" + _EXACTLY % (b";", b";")
    + br"|sub\(" + _LITERAL + br""";[^'"\n]{0,24}['"]\s*,""" + _EXACTLY % (b"&", b"&")
    + br"|(?:[=,]|ord\()" + _EXACTLY % (b";", b";") + _PATTERN_CONSTANT)
_AMPERSAND = re.compile(br"(?:sub\(|" + _TAKES_A_PATTERN + b")" + _LITERAL + br"&|[(,=]"
                        + _EXACTLY % (b"&", b"&") + br"(?!\s*\.)" + _PATTERN_CONSTANT)

# The line search, for files this interpreter cannot parse: a ';' split of a
# text that the same function splits on '&' (same name, or a name bound to its
# pieces), a regular expression matching both, a ';' -> '&' replacement.
_Q = r"""\s*[bBuU]?(['"])"""
_RECEIVER = r"([A-Za-z_][\w.]*)(?:\[[^\]]*\])*\.split\("
_SPLIT_SEMICOLON = re.compile(_RECEIVER + _Q + r";\2")
_SPLIT_AMPERSAND = re.compile(_RECEIVER + _Q + r"&\2")
_PIECES = re.compile(r"(?:\bfor\s+(\w+)\s+in|(\w+)\s*=)[^#=]*\.split\(" + _Q + r"&\3")
_PARSE = re.compile(r"\bparse_qsl?\(")
_ANY_SPLIT_AMPERSAND = re.compile(r"\.split\(" + _Q + r"&\1")
_ANY_SPLIT = re.compile(r"\.split\(" + _Q + r"[&;]\1")
_REGEX_BOTH = re.compile(r"""(?:compile|split)\(\s*[rRbBuU]{0,2}['"][^'"]*?"""
                         r"""(?:\[[^\]'"]*&[^\]'"]*;|\[[^\]'"]*;[^\]'"]*&|&\|;|;\|&)""")
_REPLACE = re.compile(r"(?:([A-Za-z_][\w.]*)|[\])])\.replace\(" + _Q
                      + r"""([;&])\2\s*,\s*[bBuU]?(['"])(?!\3)([;&])\4""")
_DEF = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\s+(\w+)")
TEXT_MATCH = "(text match, file not parseable by this interpreter)"


class Skipped(Exception):
    """A file the audit could not read or decode; the message says why."""


def may_hold_findings(data):
    """False when the bytes of a file show it cannot hold a finding (most files)."""
    return (b";" in data and b"&" in data and _ANY_SEMICOLON.search(data) is not None
            and _SEMICOLON.search(data) is not None and _AMPERSAND.search(data) is not None)


def decode(data):
    """*data* as text: a UTF-8 BOM or PEP 263 coding cookie, else UTF-8."""
    encoding = "utf-8"
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    else:
        for line in data.split(b"\n", 2)[:2]:
            match = _COOKIE.match(line)
            if match:
                encoding = match.group(1).decode("ascii")
                break
            if not line.lstrip().startswith(b"#") and line.strip():
                break
    try:
        return data.decode(encoding)
    except (LookupError, UnicodeError) as exc:
        raise Skipped("cannot decode as %s: %s" % (encoding, exc))


def parse(data, path):
    """The module's ``ast``, or (None, why not) when this interpreter's grammar cannot
    read it (or it is too deep for the parser)."""
    with warnings.catch_warnings():  # invalid escapes and the like: not our business
        warnings.simplefilter("ignore")
        try:
            return compile(data, path, "exec", ast.PyCF_ONLY_AST, True), None
        except SyntaxError as exc:
            return None, "%s: %s (line %s)" % (type(exc).__name__, exc.msg, exc.lineno)
        except Exception as exc:  # null bytes (ValueError/TypeError), too deep...
            return None, "%s: %s" % (type(exc).__name__, exc)


def scan(path):
    """``(findings, note)`` for one file: findings are ``(line, function, why, code)``;
    *note* says why the file was only searched by text, else None. Raises
    :class:`Skipped` for a file it cannot read or decode."""
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except (IOError, OSError) as exc:
        raise Skipped("cannot read: %s" % (exc,))
    if not may_hold_findings(data):
        return [], None
    lines = decode(data).splitlines()
    tree, why_not = parse(data, path)
    if tree is not None:
        try:
            found = _rules.check(tree, lines)
        except Exception as exc:  # nested deeper than the checker goes (RecursionError)
            tree, why_not = None, "the checks failed: %s: %s" % (type(exc).__name__, exc)
    if tree is None:
        found = search(lines)
    return [(line, function, why, _line(lines, line)) for line, function, why in found], why_not


def search(lines):
    """The line search: ``[(line, function, why)]`` for what the checks would flag,
    by regular expressions on the text, each marked as a text match."""
    functions = _functions(lines)
    split_on_amp = {}  # function -> names of texts it splits on '&', and of their pieces
    for index, line in enumerate(lines):
        names = split_on_amp.setdefault(functions[index], set())
        names.update(match.group(1) for match in _SPLIT_AMPERSAND.finditer(line))
        names.update(name for match in _PIECES.finditer(line) for name in match.groups()[:2])
        if _PARSE.search(line):
            names.add(_PARSE)
    found = []
    for index, line in enumerate(lines):
        texts = split_on_amp[functions[index]]
        here = _ANY_SPLIT_AMPERSAND.search(line) is not None
        replaced = _REPLACE.search(line)
        if _REGEX_BOTH.search(line):
            why = "a regular expression that matches '&' and ';'"
        elif any(here or match.group(1) in texts for match in _SPLIT_SEMICOLON.finditer(line)):
            why = "splits on ';' a text it splits on '&'"
        elif replaced and (_ANY_SPLIT.search(line) or replaced.group(1) in texts
                           or _PARSE in texts):
            why = "replaces '%s' by '%s' in a text it splits" % replaced.group(3, 5)
        else:
            continue
        found.append((index + 1, functions[index], "%s %s" % (why, TEXT_MATCH)))
    return found


def _functions(lines):
    """For each line, the dotted name of the def or class its indentation puts it in."""
    stack, names = [], []  # stack: [(indent, name)]
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            indent = len(line) - len(line.lstrip())
            while stack and stack[-1][0] >= indent:
                stack.pop()
            match = _DEF.match(line)
            if match:
                stack.append((indent, match.group(2)))
        names.append(".".join(name for _, name in stack) or "<module>")
    return names


def _line(lines, number):
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""
