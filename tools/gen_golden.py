#!/usr/bin/env python3
"""Generate the golden differential corpora for ``parse_qs``/``parse_qsl``.

Run it with any Python 3 from the repository root::

    python3 tools/gen_golden.py           # rewrite golden_py3.json, golden_py2.json
    python3 tools/gen_golden.py --check   # regenerate in memory, fail if the files differ

The driver draws every call from ``random.Random(SEED)`` (plus a fixed list of
hand-picked calls), so the output is byte-for-byte reproducible. The outcomes
are never computed by this process: the same file is re-run as a worker
(``--worker py3`` / ``--worker py2``) under the reference interpreters, which
execute the calls and report each outcome.

References
----------
Python 3 (``golden_py3.json``): the real, unmodified ``urllib.parse.parse_qs`` /
``parse_qsl`` of CPython 3.13.0 (``python3.13`` of pyenv's 3.13.0, found under
``$PYENV_ROOT``, or ``$GOLDEN_PY313``). The worker refuses to run on any other version.

Python 2 (``golden_py2.json``): CPython 2.7.18's own ``urlparse.parse_qsl`` and
``urlparse.parse_qs`` source, taken with ``inspect.getsource`` from the installed
``urlparse.py``, with exactly these textual edits (each must match exactly once,
otherwise the generator stops):

* both ``def`` lines gain a trailing ``separator='&'`` parameter, and
  ``parse_qs``'s call to ``parse_qsl`` passes it on;
* ``num_fields = 1 + qs.count('&') + qs.count(';')`` becomes
  ``num_fields = 1 + qs.count(separator)``;
* ``pairs = [s2 for s1 in qs.split('&') for s2 in s1.split(';')]`` becomes
  ``pairs = qs.split(separator)``.

The edited source is compiled with ``urlparse.py``'s file name and line numbers
and executed in a copy of the ``urlparse`` module namespace, so everything else
(the empty-field, ``=``, ``keep_blank_values`` and ``strict_parsing`` logic, the
``bad query field`` message, ``'+'`` handling and 2.7.18's ``unquote`` for
``str`` and ``unicode``) is 2.7.18's own code. 2.7.18 has no ``separator``, so
the only code that is not 2.7.18's is a prologue in the wrappers below
(``_py2_reference``), which states the backport's specification rather than
observed behaviour: a false or non-``str``/``unicode`` separator raises
``ValueError("Separator must be of type string or bytes.")`` before anything
else (3.13's order), and the separator is converted to the query's type with
the ASCII codec (to ``unicode`` for a ``unicode`` query, to ``str`` otherwise).
Limits: the separator rules are therefore checked against the spec, not against
an independent implementation; calls are made through wrappers named
``parse_qsl``/``parse_qs`` with the backport's signature, so signature errors
("takes at most 5 arguments") are those of that signature.

Data format
-----------
One JSON object: ``"header"`` (how the file was made) and ``"cases"``, one per
line: ``{"f": function name, "a": [positional args], "k": [[name, value], ...],
"o": outcome}`` and, for a few cases, ``"m": "type"``. An outcome is
``{"ok": value}`` or ``{"exc": [exception type name, str(exception)]}``.
Values are tagged lists, lossless in both directions:
``["text", s]`` (3.x ``str`` / 2.x ``unicode``), ``["bytes", latin-1 text]``
(3.x ``bytes`` / 2.x ``str``), ``["bytearray", ...]``, ``["memoryview", ...]``,
``["int", n]``, ``["bool", b]``, ``["float", repr]``, ``["none"]``,
``["list", [...]]``, ``["tuple", [...]]``, ``["dict", [[key, value], ...]]``
(insertion order on Python 3; sorted by encoded key on Python 2, where dict
order is arbitrary).

``"m": "type"`` marks calls whose exception message comes from a host builtin
whose wording changed between 3.6 and 3.13: a non-``str`` ``encoding`` or
``errors`` reaching ``bytes.decode`` ("decode() argument 1 must be str" on
3.6-3.9, "argument 'encoding' must be str" later). For those the replay
compares only the exception type. Every other message must match exactly.
"""

from __future__ import print_function

import json
import os
import random
import subprocess
import sys

SEED = 23336  # CVE-2021-23336
N_PY3 = 3400
N_PY2 = 1600

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "test_urllib_parse_backport")
PYENV_VERSIONS = os.path.join(
    os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv"), "versions")
PY313 = os.environ.get("GOLDEN_PY313", os.path.join(PYENV_VERSIONS, "3.13.0", "bin", "python"))
PY2718 = os.environ.get("GOLDEN_PY2718", os.path.join(PYENV_VERSIONS, "2.7.18", "bin", "python"))

# The case format, shared with the replay in the test folder's test_golden.py.
sys.path.insert(0, DATA)
from golden_cases import PY2, encode, run_case, text_type  # noqa: E402


# --------------------------------------------------------------------------
# Workers: run inside the reference interpreters

_PY2_EDITS = {
    "parse_qsl": [
        ("def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None):",
         "def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None,"
         " separator='&'):"),
        ("num_fields = 1 + qs.count('&') + qs.count(';')",
         "num_fields = 1 + qs.count(separator)"),
        ("pairs = [s2 for s1 in qs.split('&') for s2 in s1.split(';')]",
         "pairs = qs.split(separator)"),
    ],
    "parse_qs": [
        ("def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None):",
         "def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None,"
         " separator='&'):"),
        ("max_num_fields):", "max_num_fields, separator):"),
    ],
}


def _py2_reference():
    """2.7.18's parse_qsl/parse_qs with only the split step edited (see module docstring)."""
    import inspect
    import urlparse

    namespace = dict(vars(urlparse))
    for name in ("parse_qsl", "parse_qs"):
        original = getattr(urlparse, name)
        lines, first_line = inspect.getsourcelines(original)
        source = "".join(lines)
        for old, new in _PY2_EDITS[name]:
            if source.count(old) != 1:
                raise SystemExit("2.7.18 %s source does not contain %r exactly once" % (name, old))
            source = source.replace(old, new)
        code = compile("\n" * (first_line - 1) + source, urlparse.__file__, "exec")
        exec(code, namespace)
    edited_qsl = namespace["parse_qsl"]
    edited_qs = namespace["parse_qs"]

    # The only non-2.7.18 code: the backport's separator rules (2.7.18 has no separator).
    def separator_for(qs, separator):
        if not separator or not isinstance(separator, (str, text_type)):
            raise ValueError("Separator must be of type string or bytes.")
        if isinstance(qs, text_type):
            if not isinstance(separator, text_type):
                separator = separator.decode("ascii")
        elif isinstance(separator, text_type):
            separator = separator.encode("ascii")
        return separator

    def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None, separator="&"):
        separator = separator_for(qs, separator)
        return edited_qsl(qs, keep_blank_values, strict_parsing, max_num_fields, separator)

    def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None, separator="&"):
        separator = separator_for(qs, separator)
        return edited_qs(qs, keep_blank_values, strict_parsing, max_num_fields, separator)

    return {"parse_qsl": parse_qsl, "parse_qs": parse_qs}


def worker(kind):
    if kind == "py3":
        if sys.version_info[:3] != (3, 13, 0):
            raise SystemExit("the Python 3 reference must be CPython 3.13.0, not %s" % sys.version)
        from urllib.parse import parse_qs, parse_qsl
        functions = {"parse_qsl": parse_qsl, "parse_qs": parse_qs}
    else:
        if sys.version_info[:3] != (2, 7, 18):
            raise SystemExit("the Python 2 reference must be CPython 2.7.18, not %s" % sys.version)
        functions = _py2_reference()
    cases = json.loads(sys.stdin.read())
    outcomes = [run_case(functions, case) for case in cases]
    out = {"version": sys.version.split()[0], "executable": sys.executable, "outcomes": outcomes}
    sys.stdout.write(json.dumps(out))


# --------------------------------------------------------------------------
# Case generation (driver, Python 3)

PARAMS3 = ["qs", "keep_blank_values", "strict_parsing", "encoding", "errors",
           "max_num_fields", "separator"]
DEFAULTS3 = {"keep_blank_values": False, "strict_parsing": False, "encoding": "utf-8",
             "errors": "replace", "max_num_fields": None, "separator": "&"}
PARAMS2 = ["qs", "keep_blank_values", "strict_parsing", "max_num_fields", "separator"]
DEFAULTS2 = {"keep_blank_values": 0, "strict_parsing": 0, "max_num_fields": None,
             "separator": "&"}

# Pieces of a query: structure, valid and malformed escapes (both hex cases),
# escapes of the structural characters, non-ASCII text.
TEXT_TOKENS = (
    ["a", "b", "c", "key", "x", "1", "2", "v", " "] * 3
    + ["&"] * 6 + [";"] * 4 + ["="] * 5 + ["+"] * 2 + ["%"] * 2
    + ["%41", "%62", "%20", "%3D", "%3d", "%26", "%3B", "%3b", "%2B", "%2b", "%25",
       "%e9", "%E9", "%C3%A9", "%c3%a9", "%E2%82%AC", "%F0%9F%98%80", "%ff", "%80",
       "%C3", "%zz", "%4", "%4g", "%G1", "%%", "%%41", "%0", "%00",
       "\xe9", "\u20ac", "\u2603", "\U0001f600", "\xa6", "&&", ";;", "=="]
)
BYTE_TOKENS_EXTRA = [b"\xe9", b"\xff", b"\x80", b"\xc3\xa9", b"\xa6", b"\x00"]


def random_text(rng, max_tokens=12):
    if rng.random() < 0.5:
        return "".join(rng.choice(TEXT_TOKENS) for _ in range(rng.randint(0, max_tokens)))
    # name=value fields joined by a separator-ish character
    fields = []
    for _ in range(rng.randint(1, 5)):
        name = "".join(rng.choice(TEXT_TOKENS[:40] + ["%41", "\xe9", "+", ";"])
                       for _ in range(rng.randint(0, 3)))
        value = "".join(rng.choice(TEXT_TOKENS) for _ in range(rng.randint(0, 3)))
        eq = rng.choice(["=", "=", "=", "", "=="])
        fields.append(name + eq + value)
    return rng.choice(["&", "&", ";", "&;", "&&"]).join(fields)


def random_bytes(rng):
    text = random_text(rng)
    mode = rng.random()
    if mode < 0.6:
        data = text.encode("utf-8")
    elif mode < 0.8:
        data = text.encode("latin-1", "replace")
    else:
        data = text.encode("ascii", "ignore")
    if rng.random() < 0.2:
        data += rng.choice(BYTE_TOKENS_EXTRA)
    return data


def pick(rng, weighted):
    total = sum(w for w, _ in weighted)
    x = rng.random() * total
    for w, value in weighted:
        x -= w
        if x < 0:
            return value() if callable(value) else value
    return weighted[-1][1]


def qs3(rng):
    return pick(rng, [
        (45, lambda: random_text(rng)),
        (25, lambda: random_bytes(rng)),
        (7, lambda: bytearray(random_bytes(rng))),
        (5, lambda: memoryview(random_bytes(rng))),
        (2, ""), (2, b""), (1, bytearray()), (1, memoryview(b"")),
        (1, None), (1, 0), (1, 0.0), (1, []), (1, ()), (1, {}), (1, False),
        (1, 5), (1, True), (1, [97, 61, 98]), (1, (97, 61)), (1, 1.5), (1, ["a=b"]),
    ])


def separator3(rng):
    return pick(rng, [
        (40, "&"), (12, ";"), (4, "&&"), (2, ";&"), (3, "="), (2, "%"), (2, "+"),
        (2, "a"), (2, "\xe9"), (1, "\u2603"),
        (6, b"&"), (4, b";"), (2, b"&&"), (2, b"\xa6"), (1, b"="), (1, b"%"),
        (2, bytearray(b"&")), (1, memoryview(b"&")),
        (2, ""), (2, b""), (2, None), (1, 0), (1, 1), (1, []), (1, ["&"]),
        (1, bytearray()), (1, 0.0), (1, True),
    ])


def encoding3(rng):
    return pick(rng, [(30, "utf-8"), (15, "latin-1"), (10, "ascii"), (8, None),
                      (2, "utf-16"), (2, "no-such-codec"), (1, "UTF8")])


def errors3(rng):
    return pick(rng, [(20, "strict"), (12, "ignore"), (15, "replace"), (8, None),
                      (3, "backslashreplace"), (3, "surrogateescape"),
                      (2, "xmlcharrefreplace"), (2, "no-such-handler")])


def max_num_fields(rng):
    return pick(rng, [(40, None), (6, 0), (8, 1), (8, 2), (6, 3), (4, 5), (3, 100),
                      (4, -1), (1, -5), (1, 2.5), (1, True)])


def flag(rng):
    return pick(rng, [(10, False), (10, True), (3, 0), (3, 1), (1, None), (1, ""), (1, "yes")])


def make_call(rng, params, defaults, values):
    """Spread *values* over positional and keyword arguments at random."""
    mode = rng.random()
    if mode < 0.3:  # all positional, up to the last specified parameter
        last = max(params.index(p) for p in values)
        n_pos = last + 1
    elif mode < 0.6:  # all keyword except qs
        n_pos = 1
    else:
        n_pos = rng.randint(1, len(params))
    args = [values.get(p, defaults.get(p)) for p in params[:n_pos]]
    kwargs = [(p, values[p]) for p in params[n_pos:] if p in values]
    rng.shuffle(kwargs)
    if n_pos == 1 and rng.random() < 0.05:  # qs itself by keyword
        kwargs.insert(0, ("qs", args.pop()))
    return args, kwargs


def random_case3(rng):
    values = {"qs": qs3(rng)}
    if rng.random() < 0.5:
        values["keep_blank_values"] = flag(rng)
    if rng.random() < 0.35:
        values["strict_parsing"] = flag(rng)
    if rng.random() < 0.4:
        values["encoding"] = encoding3(rng)
    if rng.random() < 0.4:
        values["errors"] = errors3(rng)
    if rng.random() < 0.3:
        values["max_num_fields"] = max_num_fields(rng)
    if rng.random() < 0.55:
        values["separator"] = separator3(rng)
    case = {}
    if rng.random() < 0.015:  # non-str encoding/errors: message is host-specific
        values[rng.choice(["encoding", "errors"])] = rng.choice([1, b"utf-8"])
        case["m"] = "type"
    args, kwargs = make_call(rng, PARAMS3, DEFAULTS3, values)
    case.update({"f": rng.choice(["parse_qsl", "parse_qsl", "parse_qs"]), "a": args, "k": kwargs})
    return case


def qs2(rng):
    return pick(rng, [
        (50, lambda: random_bytes(rng)),
        (40, lambda: random_text(rng)),
        (1, lambda: bytearray(random_bytes(rng))),
        (1, lambda: bytearray(random_text(rng).replace("%", "").encode("latin-1", "replace"))),
        (2, b""), (2, ""), (1, None), (1, 0), (1, []),
    ])


def separator2(rng):
    # Python 2 view: bytes == native str, text == unicode.
    return pick(rng, [
        (40, b"&"), (12, b";"), (4, b"&&"), (3, b"="), (2, b"%"), (2, b"+"), (2, b"\xe9"),
        (8, "&"), (4, ";"), (2, "\xe9"), (1, "\u2603"), (1, "&&"),
        (2, b""), (2, ""), (2, None), (1, 0), (1, 1), (1, []), (1, bytearray(b"&")),
    ])


def random_case2(rng):
    values = {"qs": qs2(rng)}
    if rng.random() < 0.5:
        values["keep_blank_values"] = pick(rng, [(5, 0), (5, 1), (3, True), (3, False)])
    if rng.random() < 0.35:
        values["strict_parsing"] = pick(rng, [(5, 0), (5, 1), (3, True), (3, False)])
    if rng.random() < 0.3:
        values["max_num_fields"] = pick(rng, [(40, None), (6, 0), (8, 1), (8, 2), (6, 3),
                                              (4, 5), (3, 100), (4, -1)])
    if rng.random() < 0.55:
        values["separator"] = separator2(rng)
    args, kwargs = make_call(rng, PARAMS2, DEFAULTS2, values)
    return {"f": rng.choice(["parse_qsl", "parse_qsl", "parse_qs"]), "a": args, "k": kwargs}


def fixed_cases3():
    """Hand-picked calls: the measured per-version edge cases, signature errors, the attack."""
    cases = []

    def add(f, *args, **kwargs):
        cases.append({"f": f, "a": list(args), "k": sorted(kwargs.items())})

    attack = "q=common_term&utm_content=s;q=malicious_term"
    for f in ("parse_qsl", "parse_qs"):
        add(f, attack)
        add(f, attack.encode("ascii"))
        add(f, "a=1;b=2&c=3")
        add(f, "a=1&a=2;a=3", separator=";")
        add(f, b"a=1;b=2&c=3", separator=";")
        add(f, "a=1;b=2", 1, 0, "utf-8", "replace", None, ";")
        add(f, bytearray(b"a=1&b=2"))
        add(f, "a=%C3%A9")
        add(f, b"a=%C3%A9")
        add(f, b"a=\xe9")
        add(f, "a=%E9", encoding="latin-1")
        add(f, "a=%E9", errors="strict")
        add(f, "a=%E9", errors="ignore")
        add(f, "a=%zz%4")
        add(f, "a=1&&b=2", separator="&&")
        add(f, "a=1=b=2", separator="=")
        add(f, "a=b", separator=b"\xa6")
        add(f, b"a=1\xe9b=2", separator="\xe9")
        add(f, "a&b=&=c&=", keep_blank_values=True)
        add(f, "a;b=;=c;=", keep_blank_values=True)
        add(f, "a=1;b", strict_parsing=True)
        add(f, b"a", strict_parsing=True)
        add(f, "", strict_parsing=True)
        add(f, "", max_num_fields=0)
        add(f, "&&&", max_num_fields=3)
        add(f, "a=1&b=2", max_num_fields="3")
        for bad in (1, 0, None, "", b"", [], bytearray(b"&")):
            for q in ("", b"", None, 0, 0.0, [], {}, memoryview(b""), "a=1"):
                add(f, q, separator=bad)
        add(f)
        add(f, "a=1", 1, 0, "utf-8", "replace", None, "&", "extra")
        add(f, "a=1", foo=1)
        add(f, "a=1", "x", separator=";", strict_parsing=True)
        add(f, "a=1", 0, 0, "utf-8", "replace", None, ";", separator="&")
        add(f, qs="a=1")
    return cases


def fixed_cases2():
    cases = []

    def add(f, *args, **kwargs):
        cases.append({"f": f, "a": list(args), "k": sorted(kwargs.items())})

    attack = b"q=common_term&utm_content=s;q=malicious_term"
    for f in ("parse_qsl", "parse_qs"):
        add(f, attack)
        add(f, attack.decode("ascii"))
        add(f, b"a=1;b=2&c=3")
        add(f, b"a=1&a=2;a=3", separator=b";")
        add(f, b"a=1;b=2", 1, 0, None, b";")
        add(f, b"a=1;b=2;c=3", 1, 0, 2, b";")
        add(f, "a=\xe9")
        add(f, "a=%C3%A9")
        add(f, b"a=%C3%A9")
        add(f, "a", 1)
        add(f, "a=1;b", strict_parsing=1)
        add(f, b"", strict_parsing=1)
        add(f, b"", max_num_fields=0)
        add(f, b"&&&", max_num_fields=3)
        add(f, b"a=1&b=2", separator="\xe9")
        add(f, "a=1&b=2", separator=b"\xe9")
        add(f, b"a;b=;=c;=", keep_blank_values=1)
        for bad in (1, 0, None, b"", "", [], bytearray(b"&")):
            for q in (b"", "", None, 0, [], b"a=1"):
                add(f, q, separator=bad)
        for q in (None, 0, []):
            add(f, q)
            add(f, q, max_num_fields=5)
        add(f)
        add(f, b"a=1", 1, 0, None, b"&", b"extra")
        add(f, b"a=1", encoding="utf-8")
        add(f, qs=b"a=1")
    return cases


def _encode_case(case):
    out = {"f": case["f"], "a": [encode(a) for a in case["a"]],
           "k": [[name, encode(value)] for name, value in case["k"]]}
    if "m" in case:
        out["m"] = case["m"]
    return out


def build_cases(fixed, random_case, count, rng):
    seen = set()
    cases = []
    for case in fixed + [random_case(rng) for _ in range(count)]:
        encoded = _encode_case(case)
        key = json.dumps(encoded, sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append(encoded)
    return cases


def run_worker(python, kind, cases):
    proc = subprocess.run([python, os.path.abspath(__file__), "--worker", kind],
                          input=json.dumps(cases).encode("ascii"),
                          stdout=subprocess.PIPE, check=True, cwd="/")
    report = json.loads(proc.stdout.decode("ascii"))
    for case, outcome in zip(cases, report["outcomes"]):
        case["o"] = outcome
        if "exc" not in outcome:
            case.pop("m", None)  # no message to relax
    return report


def render(header, cases):
    lines = ['{"header": ' + json.dumps(header, indent=1, sort_keys=True) + ',', ' "cases": [']
    body = [json.dumps(case, sort_keys=True, separators=(",", ":")) for case in cases]
    lines.append(",\n".join(body))
    lines.append("]}")
    return "\n".join(lines) + "\n"


COMMON_HEADER = {
    "generator": "tools/gen_golden.py",
    "seed": SEED,
    "format": "see the module docstring of tools/gen_golden.py: tagged values "
              "[text|bytes|bytearray|memoryview|int|bool|float|none|list|tuple|dict, payload]; "
              "bytes payloads are latin-1 text; outcome {ok: value} or {exc: [type, message]}; "
              "m=type: compare the exception type only (host-builtin message)",
}


def generate():
    rng = random.Random(SEED)
    cases3 = build_cases(fixed_cases3(), random_case3, N_PY3, rng)
    report3 = run_worker(PY313, "py3", cases3)
    header3 = dict(COMMON_HEADER)
    header3.update({
        "reference": "CPython %s urllib.parse.parse_qsl/parse_qs, unmodified" % report3["version"],
        "applies_to": "urllib_parse_backport on every Python 3 (3.6-3.13)",
        "cases": len(cases3),
    })
    rng2 = random.Random(SEED + 2)
    cases2 = build_cases(fixed_cases2(), random_case2, N_PY2, rng2)
    report2 = run_worker(PY2718, "py2", cases2)
    header2 = dict(COMMON_HEADER)
    header2.update({
        "seed": SEED + 2,
        "reference": ("CPython %s urlparse.parse_qsl/parse_qs source with only the split step "
                      "edited (split and count on `separator` instead of '&' and ';'), plus "
                      "the backport's separator validation/ASCII conversion prologue"
                      % report2["version"]),
        "applies_to": "urllib_parse_backport on Python 2.7",
        "tags_on_python2": "bytes = native str, text = unicode",
        "cases": len(cases2),
    })
    return {
        "golden_py3.json": render(header3, cases3),
        "golden_py2.json": render(header2, cases2),
    }


def main(argv):
    if len(argv) == 3 and argv[1] == "--worker":
        return worker(argv[2])
    if PY2:
        raise SystemExit("run the generator with Python 3; it drives 2.7.18 itself")
    outputs = generate()
    if argv[1:] == ["--check"]:
        stale = []
        for name, text in sorted(outputs.items()):
            path = os.path.join(DATA, name)
            with open(path, encoding="ascii") as handle:
                if handle.read() != text:
                    stale.append(name)
        if stale:
            raise SystemExit("out of date: %s" % ", ".join(stale))
        print("golden data up to date")
        return None
    if not os.path.isdir(DATA):
        os.makedirs(DATA)
    for name, text in sorted(outputs.items()):
        with open(os.path.join(DATA, name), "w", encoding="ascii", newline="\n") as handle:
            handle.write(text)
        print("wrote %s (%d bytes)" % (os.path.relpath(os.path.join(DATA, name), ROOT), len(text)))
    return None


if __name__ == "__main__":
    main(sys.argv)
