"""Time urllib_parse_backport.parse_qsl against each interpreter's stdlib parse_qsl.

Usage (from the repository root)::

    python3 benchmarks/bench_parse.py                       # every pyenv interpreter
    python3 benchmarks/bench_parse.py /usr/bin/python3.9    # only these interpreters
    python3 benchmarks/bench_parse.py --installed ...       # import the installed copy
    python3 benchmarks/bench_parse.py --rst ...             # also print a reST table
    python3 benchmarks/bench_parse.py --src=/tmp/old/src    # measure another source tree
    python3 benchmarks/bench_parse.py --rounds=15 ...       # more rounds on a noisy machine

Each interpreter runs in its own subprocess (this same file, ``--child``).
By default the child puts ``<repo>/src`` (or ``--src=DIR``) first on
``sys.path``, so the source tree is measured; with ``--installed`` it imports whatever copy of
``urllib_parse_backport`` that interpreter has installed.

In the child, the backport and the stdlib ``parse_qsl`` (``urlparse`` on 2.7,
``urllib.parse`` on 3.x) are timed interleaved in one process: ``timeit``
with a fixed number of calls per measurement, several rounds, the two
functions alternating (and swapping order every round), keeping the minimum
per function. The table shows backport time / stdlib time (below 1.0 = the
backport is faster). Note: on 2.7 the stdlib also splits on ';' (that is the
vulnerability), so the two do slightly different work on inputs holding ';'
(none of the inputs below do).

Targets: ratio <= 1.0 on every input, <= 0.8 on the realistic ones.
The script also doubles every input and reports how the backport's time grows
(about 2.0 = linear, about 4.0 = quadratic); growth above 3.0 is flagged as
super-linear (allocation and garbage collection make large inputs a little
worse than 2.0 even for linear code, and the machine may be noisy: re-run).
"""

from __future__ import print_function

import glob
import json
import os
import random
import subprocess
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")

PY2 = sys.version_info[0] == 2
if PY2:
    from urllib import quote_plus
else:
    from urllib.parse import quote_plus

REALISTIC = ["short", "landing", "form50", "body5000"]
PATHOLOGICAL = ["amp100k", "pct_every_other", "valid_pct100k"]
INPUTS = REALISTIC + PATHOLOGICAL

_WORDS = [u"caf\xe9", u"Z\xfcrich", u"Stra\xdfe", u"na\xefve", u"\u0141\xf3d\u017a", u"price",
          u"100%", u"a&b", u"x=y", u"sale", u"\u65e5\u672c", u"ok", u"new york", u"r\xe9sum\xe9"]


def _encoded(text):
    return quote_plus(text.encode("utf-8"))


def make_input(name, scale=1):
    """The query *name* (native str), *scale* times its normal size."""
    rng = random.Random(42)
    if name == "short":
        parts = ["q=python", "page=2", "sort=desc"] * scale
    elif name == "landing":
        one = [
            "utm_source=newsletter", "utm_medium=email", "utm_campaign=spring_sale_2024",
            "utm_content=hero_banner_v2", "utm_term=running+shoes",
            "gclid=EAIaIQobChMIq5Lr0Iv2hAMVxJeDBx0a8wGrEAAYASAAEgL1x_D_BwE",
            "fbclid=IwAR2F4-dbP0l7Mn4rPpoJeTXc0HVBzBz8a3-bn8kQzYkWlNqfA5vIvOxn2U",
            "msclkid=6f0f3bd1a2c914e8b1f4e6f7c7d1a0b2", "ref=homepage", "lang=en-US",
            "redirect=" + _encoded(u"https://shop.example.com/cart?item=42&size=10"),
            "_ga=2.123456789.987654321.1700000000-1234567890.1700000000",
        ]
        parts = one * scale
    elif name == "form50":
        parts = []
        for index in range(50 * scale):
            value = u" ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 4)))
            parts.append("field_%d=%s" % (index, _encoded(value)))
    elif name == "body5000":
        parts = []
        for index in range(5000 * scale):
            words = u" ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3)))
            value = words if rng.random() < 0.5 else "v%d" % rng.randint(0, 10 ** 12)
            parts.append("item%%5B%d%%5D=%s" % (index, _encoded(value)))
        query = "&".join(parts)
        pad = 200000 * scale - len(query)
        return query + ("&pad=" + "x" * (pad - 5) if pad > 5 else "")
    elif name == "amp100k":
        return "&" * (100000 * scale)
    elif name == "pct_every_other":
        return "v=" + "%a" * (50000 * scale)
    elif name == "valid_pct100k":
        return "v=" + "%C3%A9" * (16667 * scale)
    else:
        raise KeyError(name)
    return "&".join(parts)


def _calls_for(function, query, budget=0.02):
    """Calls per measurement so one measurement takes about *budget* seconds."""
    number = 1
    while True:
        took = timeit.Timer(lambda: function(query)).timeit(number)
        if took >= budget / 4 or number >= 1 << 20:
            return max(1, int(number * budget / max(took, 1e-9)))
        number *= 4


def child(rounds):
    """Measure in this interpreter; print one JSON object."""
    from urllib_parse_backport import parse_qsl as backport
    if PY2:
        from urlparse import parse_qsl as stdlib
    else:
        from urllib.parse import parse_qsl as stdlib

    import urllib_parse_backport

    results = {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "backport_file": urllib_parse_backport.__file__,
        "inputs": {},
    }
    for name in INPUTS:
        query = make_input(name)
        same = backport(query, keep_blank_values=True) == stdlib(query, keep_blank_values=True)
        number = _calls_for(stdlib, query)
        best = {"backport": float("inf"), "stdlib": float("inf")}
        pair = [("backport", backport), ("stdlib", stdlib)]
        for round_index in range(rounds):
            for label, function in (pair if round_index % 2 == 0 else pair[::-1]):
                took = timeit.Timer(lambda: function(query)).timeit(number)
                best[label] = min(best[label], took / number)
        # Growth: the backport on the same input at twice the size, the two
        # sizes interleaved like the two functions above.
        double = make_input(name, scale=2)
        number2 = _calls_for(backport, double)
        sizes = {"single": float("inf"), "double": float("inf")}
        pair = [("single", query), ("double", double)]
        for round_index in range(rounds):
            for label, data in (pair if round_index % 2 == 0 else pair[::-1]):
                took = timeit.Timer(lambda: backport(data)).timeit(number2)
                sizes[label] = min(sizes[label], took)
        single_time, double_time = sizes["single"], sizes["double"]
        results["inputs"][name] = {
            "bytes": len(query),
            "backport_s": best["backport"],
            "stdlib_s": best["stdlib"],
            "ratio": best["backport"] / best["stdlib"],
            "growth": double_time / single_time,
            "same_result": same,
        }
    print(json.dumps(results))


def _interpreters(argv):
    if argv:
        return argv
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python")))

    def version_key(path):
        version = path.split(os.sep)[-3]
        return [int(part) if part.isdigit() else 0 for part in version.split(".")]
    return sorted(found, key=version_key)


def _table(rows, rst):
    header = ["Python"] + INPUTS
    lines = [header] + [[row["python"]] + ["%.2f" % row["inputs"][n]["ratio"] for n in INPUTS]
                        for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    if rst:
        rule = "  ".join("=" * w for w in widths)
        out = [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), rule]
        out += ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip()
                for line in lines[1:]]
        out.append(rule)
        return "\n".join(out)
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines)


def main(argv):
    installed = "--installed" in argv
    rst = "--rst" in argv
    options = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    rounds = int(options.get("rounds", 7))
    args = [a for a in argv if not a.startswith("--")]
    rows = []
    for interpreter in _interpreters(args):
        command = [interpreter, os.path.abspath(__file__), "--child", "--rounds=%d" % rounds]
        if installed:
            command.append("--installed")
        elif "src" in options:
            command.append("--src=%s" % os.path.abspath(options["src"]))
        output = subprocess.check_output(command)
        rows.append(json.loads(output.decode("utf-8").strip().splitlines()[-1]))
        sys.stderr.write("measured %s (%s)\n" % (rows[-1]["python"], rows[-1]["backport_file"]))

    print("Input sizes (bytes): " + ", ".join(
        "%s=%d" % (n, rows[0]["inputs"][n]["bytes"]) for n in INPUTS))
    print()
    print("Ratio backport / stdlib parse_qsl (min of %d interleaved rounds; < 1.0 = faster):"
          % rounds)
    print(_table(rows, rst=False))
    print()
    print("Growth of the backport's time when the input doubles (2.0 = linear):")
    for row in rows:
        print("  %-8s " % row["python"] + "  ".join(
            "%s=%.2f" % (n, row["inputs"][n]["growth"]) for n in INPUTS))
    problems = []
    for row in rows:
        for name in INPUTS:
            entry = row["inputs"][name]
            limit = 0.8 if name in REALISTIC else 1.0
            if entry["ratio"] > limit:
                problems.append("%s %s: ratio %.2f > %.1f" % (row["python"], name,
                                                              entry["ratio"], limit))
            if entry["growth"] > 3.0:
                problems.append("%s %s: growth %.2f (super-linear?)"
                                % (row["python"], name, entry["growth"]))
            if not entry["same_result"]:
                problems.append("%s %s: results differ from the stdlib" % (row["python"], name))
    if rst:
        print()
        print(_table(rows, rst=True))
    print()
    print("Targets missed:" if problems else "All targets met.")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    if "--child" in sys.argv:
        src_arg = [a for a in sys.argv if a.startswith("--src=")]
        if "--installed" not in sys.argv:
            sys.path.insert(0, src_arg[0].split("=", 1)[1] if src_arg else SRC)
        rounds_arg = [a for a in sys.argv if a.startswith("--rounds=")]
        child(int(rounds_arg[0].split("=")[1]) if rounds_arg else 7)
    else:
        sys.exit(main(sys.argv[1:]))
