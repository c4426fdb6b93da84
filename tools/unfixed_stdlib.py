"""Simulate an unfixed 3.x stdlib: this interpreter's urllib and cgi with bpo-42967 reverted.

Every 3.x interpreter the tests run on is a fixed patch release (3.6.15, 3.7.16,
3.8.18, 3.9.18), but the users who need the shim run 3.6.0-3.6.12, 3.7.0-3.7.9,
3.8.0-3.8.7 or 3.9.0-3.9.1. This tool copies the running interpreter's own
``urllib`` package and ``cgi.py`` into an overlay directory, takes the
bpo-42967 change out of them (``parse_qs``/``parse_qsl`` without *separator*,
fields split on ``'&'`` then ``';'``, ``max_num_fields`` counting both;
``cgi.parse``, ``cgi.parse_multipart`` and ``cgi.FieldStorage`` without
*separator*), and puts the overlay ahead of the stdlib with a ``.pth`` file in
this interpreter's site-packages whose name sorts before every other one.

Each edit is an exact text replacement that must match the expected number
of times: if the installed source is not what the fix left behind, the tool
stops with an error instead of producing a half-reverted stdlib. It then
checks the result by behaviour in a fresh interpreter.

Usage (tox ``commands_pre`` of the ``py3X-unfixed`` environments)::

    python tools/unfixed_stdlib.py OVERLAY_DIR
"""

from __future__ import print_function

import ast
import os
import shutil
import subprocess
import sys
import sysconfig

#: Sorts before the distribution's ``cpython_security_patch.pth``
#: and virtualenv's ``_virtualenv.pth``,
#: so the overlay is on sys.path before anything can import urllib.parse.
PTH_NAME = "00_unfixed_stdlib.pth"

#: The minor versions that had unfixed releases (bpo-42967 landed in 3.6.13,
#: 3.7.10, 3.8.8, 3.9.2 and 3.10.0).
SUPPORTED = ((3, 6), (3, 7), (3, 8), (3, 9))

_DOC_PARAGRAPH = ("        separator: str. The symbol to use for separating the query arguments.\n"
                  "            Defaults to &.\n")

#: (old text, new text, first minor version whose fixed source has it).
#: Every rule must match exactly once per occurrence listed (``count``).
PARSE_RULES = [
    # parse_qs and parse_qsl signatures (bpo-42967 added the parameter).
    ("max_num_fields=None, separator='&'):", "max_num_fields=None):", (3, 6), 2),
    ("\n" + _DOC_PARAGRAPH, "", (3, 6), 2),
    ("max_num_fields=max_num_fields, separator=separator)",
     "max_num_fields=max_num_fields)", (3, 6), 1),
    # GH-24818 (3.8.10, 3.9.5): bytes separators.
    ("    separator, _ = _coerce_args(separator)\n", "", (3, 8), 1),
    ("\n    if not separator or (not isinstance(separator, (str, bytes))):\n"
     "        raise ValueError(\"Separator must be of type string or bytes.\")\n", "", (3, 6), 1),
    # Before the fix both separators were counted and split on.
    ("num_fields = 1 + qs.count(separator)",
     "num_fields = 1 + qs.count('&') + qs.count(';')", (3, 6), 1),
    ("pairs = [s1 for s1 in qs.split(separator)]",
     "pairs = [s2 for s1 in qs.split('&') for s2 in s1.split(';')]", (3, 6), 1),
]

CGI_RULES = [
    ("          strict_parsing=0, separator='&'):", "          strict_parsing=0):", (3, 6), 1),
    (_DOC_PARAGRAPH.join(["\n", ""]), "", (3, 6), 1),
    ("encoding=encoding, separator=separator)", "encoding=encoding)", (3, 6), 1),
    # cgi.parse_multipart gained separator in 3.7 only (its 3.6 version does
    # not use FieldStorage).
    ("return parse_multipart(fp, pdict, separator=separator)",
     "return parse_multipart(fp, pdict)", (3, 7), 1),
    ('def parse_multipart(fp, pdict, encoding="utf-8", errors="replace", separator=\'&\'):',
     'def parse_multipart(fp, pdict, encoding="utf-8", errors="replace"):', (3, 7), 1),
    ("environ={'REQUEST_METHOD': 'POST'}, separator=separator)",
     "environ={'REQUEST_METHOD': 'POST'})", (3, 7), 1),
    # FieldStorage.__init__, read_urlencoded, read_multi and its sub-parts.
    ("                 max_num_fields=None, separator='&'):",
     "                 max_num_fields=None):", (3, 6), 1),
    ("        self.separator = separator\n", "", (3, 6), 1),
    ("max_num_fields=self.max_num_fields, separator=self.separator)",
     "max_num_fields=self.max_num_fields)", (3, 6), 2),
    ("self.encoding, self.errors, max_num_fields, self.separator)",
     "self.encoding, self.errors, max_num_fields)", (3, 6), 1),
]

#: Run in a fresh interpreter after the overlay is in place: the unfixed
#: behaviour of 3.6.8-3.6.12 / 3.7.2-3.7.9 / 3.8.0-3.8.7 / 3.9.0-3.9.1.
#: With ``started`` given, the shim was activated at start-up and patched
#: the parsers: then only where they come from is checked.
CHECK = r"""
import inspect, io, os, sys, warnings
overlay, started = sys.argv[1], len(sys.argv) > 2
import urllib.parse
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import cgi
for module in (urllib.parse, cgi):
    assert module.__file__.startswith(overlay + os.sep), module.__file__
if started:
    assert sys.modules["urllib_parse_backport"].is_patched()
    print("the shim's .pth runs after the overlay's")
    sys.exit(0)
assert urllib.parse.parse_qsl("a=1;b=2&c=3") == [("a", "1"), ("b", "2"), ("c", "3")]
assert urllib.parse.parse_qs(b"a=1;a=2") == {b"a": [b"1", b"2"]}
for function in (urllib.parse.parse_qs, urllib.parse.parse_qsl, cgi.parse,
                 cgi.parse_multipart, cgi.FieldStorage.__init__):
    assert "separator" not in inspect.signature(function).parameters, function
try:
    urllib.parse.parse_qsl("a=1;b=2", max_num_fields=1)
except ValueError as exc:
    assert str(exc) == "Max number of fields exceeded"
else:
    raise AssertionError("max_num_fields does not count ';'")
form = cgi.FieldStorage(environ={"REQUEST_METHOD": "GET", "QUERY_STRING": "a=1;b=2"})
assert sorted(form.keys()) == ["a", "b"], form
body = b"a=1;b=2"
form = cgi.FieldStorage(fp=io.BytesIO(body), environ={
    "REQUEST_METHOD": "POST", "CONTENT_TYPE": "application/x-www-form-urlencoded",
    "CONTENT_LENGTH": str(len(body))})
assert sorted(form.keys()) == ["a", "b"], form
assert cgi.parse(environ={"REQUEST_METHOD": "GET", "QUERY_STRING": "a=1;b=2"}) == {
    "a": ["1"], "b": ["2"]}
print("unfixed stdlib in place:", urllib.parse.__file__, cgi.__file__)
"""


def revert(text, rules, filename, version):
    """Apply *rules* to *text*; stop with an error when one does not match as expected."""
    for old, new, since, count in rules:
        expected = count if version >= since else 0
        found = text.count(old)
        if found != expected:
            raise SystemExit("tools/unfixed_stdlib.py: %s: expected %d occurrence(s) of %r, "
                             "found %d: not the bpo-42967 source this tool knows"
                             % (filename, expected, old, found))
        text = text.replace(old, new)
    return text


def _names_in(tree, functions):
    """Every name, argument and attribute spelled ``separator`` inside *functions*."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in functions:
            for inner in ast.walk(node):
                name = (getattr(inner, "id", None) or getattr(inner, "arg", None)
                        or getattr(inner, "attr", None))
                if name == "separator":
                    found.append("%s (line %d)" % (node.name, inner.lineno))
    return found


def write(path, text, functions):
    leftover = _names_in(ast.parse(text, path), functions)
    if leftover:
        raise SystemExit("tools/unfixed_stdlib.py: %s: separator left in %s"
                         % (path, ", ".join(leftover)))
    with open(path, "w") as handle:
        handle.write(text)


def main(argv):
    if len(argv) != 1:
        raise SystemExit("usage: python tools/unfixed_stdlib.py OVERLAY_DIR")
    version = sys.version_info[:2]
    if version not in SUPPORTED:
        raise SystemExit("tools/unfixed_stdlib.py: Python %d.%d never had a release without "
                         "bpo-42967 that this tool simulates" % version)
    overlay = os.path.abspath(argv[0])
    # The installed stdlib, not whatever ``urllib`` resolves to now: the
    # overlay of an earlier run may already be on sys.path.
    stdlib = sysconfig.get_paths()["stdlib"]
    if os.path.isdir(overlay):
        shutil.rmtree(overlay)
    os.makedirs(overlay)
    shutil.copytree(os.path.join(stdlib, "urllib"), os.path.join(overlay, "urllib"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    parse_py = os.path.join(overlay, "urllib", "parse.py")
    with open(parse_py) as handle:
        text = revert(handle.read(), PARSE_RULES, parse_py, version)
    write(parse_py, text, ("parse_qs", "parse_qsl"))
    with open(os.path.join(stdlib, "cgi.py")) as handle:
        text = revert(handle.read(), CGI_RULES, "cgi.py", version)
    write(os.path.join(overlay, "cgi.py"), text,
          ("parse", "parse_multipart", "FieldStorage"))

    site_packages = sysconfig.get_paths()["purelib"]
    others = sorted(name for name in os.listdir(site_packages)
                    if name.endswith(".pth") and name != PTH_NAME)
    if others and others[0] < PTH_NAME:
        raise SystemExit("tools/unfixed_stdlib.py: %s sorts before %s" % (others[0], PTH_NAME))
    with open(os.path.join(site_packages, PTH_NAME), "w") as handle:
        handle.write("import sys; sys.path.insert(0, %r)\n" % overlay)

    environ = dict(os.environ)
    environ.pop("PYTHONPATH", None)
    environ.pop("URLLIB_PARSE_BACKPORT_PATCH", None)
    subprocess.check_call([sys.executable, "-c", CHECK, overlay], env=environ)
    if _shim_installed(site_packages):
        environ["URLLIB_PARSE_BACKPORT_PATCH"] = "1"
        subprocess.check_call([sys.executable, "-c", CHECK, overlay, "started"], env=environ)
    return 0


def _shim_installed(site_packages):
    return os.path.exists(os.path.join(site_packages, "cpython_security_patch.pth"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
