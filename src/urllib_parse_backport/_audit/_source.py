"""One source file for the audit: read, decode, parse, check; a line search as fallback.

Why: the audit reads code it must never import or run, and must not stop at a
file this interpreter cannot parse (Python 2 code under Python 3, or the other
way): such files are searched line by line for the known patterns instead,
and files it cannot read or decode are skipped with the reason. Two checks
run on a file: the query parsers that split on ';' (``_rules``), and the
copies of ``urlsplit`` without its later fixes (``_splitcopy``); each only on
files whose bytes show they may hold what it looks for.
"""

import ast
import codecs
import os
import re
import stat
import warnings

from . import _rules, _splitcopy
from .._compat import text_type

#: The CVE of the ``_rules`` findings, and the upstream issue that fixed it.
QUERY_CVE, QUERY_ISSUE = "CVE-2021-23336", "bpo-42967"
#: Files larger than this are listed as not read: generated tables, not parsers.
MAX_BYTES = 8 * 1024 * 1024
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once, and is then refused
_BINARY = getattr(os, "O_BINARY", 0)  # Windows
_NEWLINE = re.compile(u"\r\n|\r|\n")

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


def _codes(forms, others):
    """Patterns for a separator's code (*forms*: ``(literal, width)``) where the
    checks take it: after ``=``, ``==`` or ``!=`` (one blank at most), before
    ``==``/``!=``, or next to the other separator's code (*others*) and a comma:
    ``c == 59``, ``SEMI = 59``, ``c in (0x26, 0x3B)``, ``AMP, SEMI = 0x26, 0x3B``.
    A table of numbers (``(59, 0, 12),``) is none of these. Each pattern starts
    with the literal, which the regular expression engine then looks for as a
    string; a leading class would be tried at every byte."""
    patterns = []
    for literal, width in forms:
        dots = b"." * width
        places = [br"(?<==" + dots + br")", br"(?<==\s" + dots + br")", br"(?=\s?[!=]=)"]
        for other, other_width in others:
            places.append(br"(?=,\s?" + other + br"(?![\w.]))")
            places.extend(br"(?<=" + other + comma + dots + br")" for comma in (b",", b", "))
        patterns.append(re.compile(literal + br"(?![\w.])(?<![\w.]" + dots + br")(?:"
                                   + b"|".join(places) + b")"))
    return patterns


# A byte scanner may name them by their codes instead (c == 59, SEMI = 0x3B).
_SEMICOLON_FORMS, _AMPERSAND_FORMS = [(b"59", 2), (b"0x3[bB]", 4)], [(b"38", 2), (b"0x26", 4)]
_SEMICOLON_CODES = _codes(_SEMICOLON_FORMS, _AMPERSAND_FORMS)
_AMPERSAND_CODES = _codes(_AMPERSAND_FORMS, _SEMICOLON_FORMS)

# The line search, for files this interpreter cannot parse: a ';' split of a
# text that the same function splits on '&' (same name, or a name bound to its
# pieces), a regular expression matching both, a ';' -> '&' replacement.
# Each pattern takes linear time on any line: a name starts only where no name
# character precedes it, and every repetition is bounded, so no start position
# rescans the rest of a long line.
_Q = r"""\s{0,8}[bBuU]?(['"])"""
_NAME = r"(?<![\w.])([A-Za-z_][\w.]{0,100})"
_RECEIVER = _NAME + r"(?:\[[^\]\n]{0,100}\]){0,4}\.split\("
_SPLIT_SEMICOLON = re.compile(_RECEIVER + _Q + r";\2")
_SPLIT_AMPERSAND = re.compile(_RECEIVER + _Q + r"&\2")
_PIECES = re.compile(r"(?:\bfor\s{1,8}(\w{1,100})\s{1,8}in|(?<!\w)(\w{1,100})\s{0,8}=)"
                     r"[^#=\n]{0,200}\.split\(" + _Q + r"&\3")
_PARSE = re.compile(r"\bparse_qsl?\(")
_ANY_SPLIT_AMPERSAND = re.compile(r"\.split\(" + _Q + r"&\1")
_ANY_SPLIT = re.compile(r"\.split\(" + _Q + r"[&;]\1")
_REGEX_BOTH = re.compile(r"""(?:compile|split)\(\s{0,8}[rRbBuU]{0,2}['"][^'"\n]{0,100}?"""
                         r"""(?:\[[^\]'"\n]{0,30}&[^\]'"\n]{0,30};|\[[^\]'"\n]{0,30};"""
                         r"""[^\]'"\n]{0,30}&|&\|;|;\|&)""")
_REPLACE = re.compile(r"(?:" + _NAME + r"|[\])])\.replace\(" + _Q
                      + r"""([;&])\2\s{0,8},\s{0,8}[bBuU]?(['"])(?!\3)([;&])\4""")
_DEF = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\s+(\w+)")
TEXT_MATCH = "(text match, file not parseable by this interpreter)"


class Skipped(Exception):
    """A file the audit could not read or decode; the message says why."""


def may_hold_findings(data):
    """False when the bytes of a file show it cannot hold a finding (most files):
    no ';' where a check takes it, as text or by its code, or no '&' likewise.
    The code is looked for by a pattern only where the bytes hold ``59`` or
    ``x3``: two substring searches cost less than a pattern on every file."""
    if b";" in data and b"&" in data and _ANY_SEMICOLON.search(data) is not None \
            and _SEMICOLON.search(data) is not None:
        return _AMPERSAND.search(data) is not None or _any(_AMPERSAND_CODES, data)
    if (b"59" not in data and b"x3" not in data) or not _any(_SEMICOLON_CODES, data):
        return False
    return (b"&" in data and _AMPERSAND.search(data) is not None) \
        or _any(_AMPERSAND_CODES, data)


def _any(patterns, data):
    return any(pattern.search(data) is not None for pattern in patterns)


def read(path):
    """The bytes of the regular file *path*, read at most once and never past the cap.

    Why: a named pipe called ``x.py`` would block a plain ``open()`` forever and a
    link to ``/dev/zero`` would read until memory runs out; the file is opened
    without blocking and checked on the open descriptor, so it cannot change
    between the check and the read. The read asks for the size ``fstat`` gave
    and one byte more, then, only if the file grew, for the rest up to the cap:
    PyPy makes a buffer of the size asked for, and zeroed it for 8 MiB at each
    file (47 of the 52 s a scan of the test environment took there)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except (IOError, OSError) as exc:
        raise Skipped("cannot read: %s" % (exc,))
    with os.fdopen(descriptor, "rb") as stream:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise Skipped("not a regular file, not read")
        if info.st_size > MAX_BYTES:
            raise Skipped("larger than %d bytes, not read" % (MAX_BYTES,))
        try:
            data = stream.read(info.st_size + 1)
            if len(data) > info.st_size:  # grew since fstat: the rest, to the cap
                data += stream.read(MAX_BYTES + 1 - len(data))
        except (IOError, OSError) as exc:
            raise Skipped("cannot read: %s" % (exc,))
    if len(data) > MAX_BYTES:  # grew while it was read
        raise Skipped("larger than %d bytes, not read" % (MAX_BYTES,))
    return data


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
    try:  # 2.7 also runs bytes-to-bytes codecs: zlib.error, binascii.Error, TypeError
        text = data.decode(encoding)
    except Exception as exc:
        raise Skipped("cannot decode as %s: %s: %s" % (encoding, type(exc).__name__, exc))
    if not isinstance(text, text_type):
        raise Skipped("cannot decode as %s: not a text encoding" % (encoding,))
    return text


def source_lines(text):
    """*text*'s lines as the tokenizer counts them: ended by ``\\n``, ``\\r\\n`` or
    ``\\r`` only (``str.splitlines`` also breaks at form feed, NEL and U+2028)."""
    return _NEWLINE.split(text)


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


def analyse(data, path="<audit>"):
    """The ``ast`` checks of one file's bytes: ``(findings, None)``, findings being
    ``[(line, function, why, cve)]``, or ``(None, why not)`` when it cannot be parsed
    or checked. The caller runs this in a child process (``_worker``)."""
    lines = source_lines(decode(data))
    tree, why_not = parse(data, path)
    if tree is None:
        return None, why_not
    try:
        found = []
        if may_hold_findings(data):
            found.extend((line, function, why, QUERY_CVE)
                         for line, function, why in _rules.check(tree, lines))
        if _splitcopy.may_define(data):
            found.extend(_splitcopy.check(tree, lines))
        return sorted(found), None
    except Exception as exc:  # nested deeper than the checker goes (RecursionError)
        return None, "the checks failed: %s: %s" % (type(exc).__name__, exc)


def scan(path, checks=analyse):
    """``(findings, note)`` for one file: findings are ``(line, function, why, cve,
    code)``; *note* says why the file was only searched by text, else None.
    *checks* is :func:`analyse` or its stand-in in a child process. Raises
    :class:`Skipped` for a file it cannot read or decode."""
    data = read(path)
    queries, copies = may_hold_findings(data), _splitcopy.may_define(data)
    if not (queries or copies):
        return [], None
    lines = source_lines(decode(data))
    found, why_not = checks(data, path)
    if found is None:
        found = [(line, function, why, QUERY_CVE)
                 for line, function, why in (search(lines) if queries else [])]
        found = sorted(found + (_splitcopy.search(lines) if copies else []))
    return [(line, function, why, cve, _line(lines, line))
            for line, function, why, cve in found], why_not


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
