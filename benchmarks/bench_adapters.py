"""Cost of the framework adapters: each fixed parser against the framework's own.

Why: ``patch(frameworks=True)`` puts a rewrite of the query in front of every
request's parse. Run it with an interpreter that has the frameworks installed,
e.g. a test environment::

    .tox/py27/bin/python benchmarks/bench_adapters.py
    .tox/py313/bin/python benchmarks/bench_adapters.py --rounds 15

It imports ``urllib_parse_backport`` from this checkout's ``src``. For every
adapter whose framework is importable and still splits on ``';'``, the
adapter's replacement and the framework's own function are timed interleaved
in this one process (best of N rounds) on the same inputs, and the ratio
replacement / original is printed (1.00 = no cost). Inputs hold no ``';'``,
so both do the same parsing work.
"""

from __future__ import print_function

import argparse
import importlib
import os
import sys
import timeit
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from urllib_parse_backport._shim import _frameworks  # noqa: E402

INPUTS = {
    "short": u"q=common_term&utm_content=spring_sale",
    "landing": u"&".join(u"utm_%d=value%d%%20x+y" % (i, i) for i in range(10)),
    "form50": u"&".join(u"field%d=%s" % (i, u"caf%C3%A9+au+lait" * 3) for i in range(50)),
}


#: Parsers that take bytes (the others take text).
BYTES_PARSERS = {"twisted.web.http"}


def _callable(adapter, function, query):
    """A no-argument call of *function* (a parser, or CherryPy's body processor) on *query*."""
    if adapter.attribute == "process_urlencoded":
        body = query.encode("utf-8")
        return lambda: function(_frameworks._ProbeEntity(body))
    if adapter.module in BYTES_PARSERS or sys.version_info[0] == 2:  # 2.7: native str
        query = query.encode("utf-8")
    return lambda: list(function(query))


def measure(rounds, number):
    rows = []
    for adapter in _frameworks.ADAPTERS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module(adapter.module)
        except ImportError:
            continue
        if not adapter.assess(module, {})[0]:
            continue
        original = getattr(module, adapter.attribute)
        replacement = adapter.wrap(original, None)
        for name, query in sorted(INPUTS.items()):
            calls = [_callable(adapter, original, query), _callable(adapter, replacement, query)]
            best = [float("inf"), float("inf")]
            for round_ in range(rounds):
                for index in ((0, 1) if round_ % 2 else (1, 0)):
                    elapsed = timeit.timeit(calls[index], number=number) / number
                    best[index] = min(best[index], elapsed)
            rows.append((adapter.module + "." + adapter.attribute, name,
                         best[0] * 1e6, best[1] * 1e6))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    print("python %s" % sys.version.split()[0])
    print("%-42s %-8s %10s %10s %7s" % ("parser", "input", "own us", "fixed us", "ratio"))
    for label, name, own, fixed in measure(args.rounds, args.number):
        print("%-42s %-8s %10.2f %10.2f %6.2fx" % (label, name, own, fixed, fixed / own))


if __name__ == "__main__":
    main()
