"""CPU time of ``html.parser`` (CVE-2025-6069, CVE-2026-15308): stock and patched.

For every interpreter named on the command line (default: the one running
this script), a child process times, in CPU seconds (``getrusage``, user +
system), a subclass of ``HTMLParser`` that records every event, on honest
HTML (a 200 KB page fed whole, in 4 KB and 64-byte pieces, and a 20 KB
page a character at a time; ``convert_charrefs`` off and, on 3.x, on),
alternately with the stdlib as it is and after
``html_parser_backport.patch(force=True)``; each figure is the best of 5
runs, and the ratio patched/stock of the two. Then the attacks, patched:
``'<a ' * 6000 + '<!--' * 24000`` fed whole, and an 18 KB tag fed a
character at a time; with ``--slow``, stock too (seconds where unfixed).
The package must be importable by each interpreter (installed, or
``PYTHONPATH=src``). Usage:
``python benchmarks/bench_html_parser_backport.py [--slow] [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys
try:
    import html.parser as stdlib
except ImportError:
    import HTMLParser as stdlib
import html_parser_backport

PY2 = sys.version_info[0] == 2

class Recorder(stdlib.HTMLParser):
    def __init__(self, convert):
        self.events = []
        if PY2:
            stdlib.HTMLParser.__init__(self)
        else:
            stdlib.HTMLParser.__init__(self, convert_charrefs=convert)
    def handle_starttag(self, tag, attrs): self.events.append((tag, attrs))
    def handle_endtag(self, tag): self.events.append(tag)
    def handle_data(self, data): self.events.append(data)
    def handle_comment(self, data): self.events.append(data)
    def handle_entityref(self, name): self.events.append(name)
    def handle_charref(self, name): self.events.append(name)

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def run(chunks, convert):
    start = seconds()
    parser = Recorder(convert)
    for chunk in chunks:
        parser.feed(chunk)
    parser.close()
    return seconds() - start

ROW = ('<tr class="row"><td><a href="/item?id=%d&amp;x=1" title=\'t &lt; u\'>Item %d</a>'
       '</td><td>caf&eacute; &#8364; 5 &gt; 4</td><!-- c --><td><img src=x.png alt=""/>'
       '</td></tr>\n')
HEAD = ('<!DOCTYPE html><html><head><title>T</title><script>if (a<b && c>d) x = "</p>";'
        '</script><style>a::before { content: "<i>"; }</style></head><body><table>\n')

def page(size):
    rows, n = [], 0
    while sum(len(row) for row in rows) < size:
        rows.append(ROW % (n, n))
        n += 1
    return HEAD + "".join(rows) + "</table></body></html>"

def pieces(text, size):
    return [text[i:i + size] for i in range(0, len(text), size)]

big, small = page(200 * 1024), page(20 * 1024)
honest = [("200 KB whole", [big]), ("200 KB in 4 KB pieces", pieces(big, 4096)),
          ("200 KB in 64 B pieces", pieces(big, 64)), ("20 KB one char a call", list(small))]
found = {"vulnerable": html_parser_backport.is_vulnerable(), "honest": [], "attacks": []}
for convert in ([False] if PY2 else [False, True]):
    for name, chunks in honest:
        best = {"stock": None, "patched": None}
        for _ in range(5):
            for label in ("stock", "patched"):
                if label == "patched":
                    html_parser_backport.patch(force=True)
                cost = run(chunks, convert)
                html_parser_backport.unpatch()
                if best[label] is None or cost < best[label]:
                    best[label] = cost
        found["honest"].append(("%s%s" % (name, ", convert_charrefs" if convert else ""),
                                best["stock"], best["patched"]))
attacks = [("'<a '*6000 + '<!--'*24000 whole", ["<a " * 6000 + "<!--" * 24000]),
           ("18 KB tag one char a call", list("<a " + "b" * 18000 + ">")),
           ("18 KB quoted value one char a call", list('<a href="' + "x" * 18000 + '">'))]
for name, chunks in attacks:
    stock = run(chunks, False) if sys.argv[1] == "slow" else None
    html_parser_backport.patch(force=True)
    found["attacks"].append((name, stock, run(chunks, False)))
    html_parser_backport.unpatch()
print(json.dumps(found))
"""


def measure(python, slow):
    out = subprocess.check_output([python, "-c", CHILD, "slow" if slow else "quick"])
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", action="store_true",
                        help="also time the stock parser on the attacks (seconds where unfixed)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        result = measure(python, args.slow)
        kind = "lacks a fix" if result["vulnerable"] else "has both fixes"
        print("%s (stock html.parser %s)" % (python, kind))
        for name, stock, patched in result["honest"]:
            print("  %-44s stock %.4f s  patched %.4f s  ratio %.2f" % (
                name, stock, patched, patched / stock if stock else float("nan")))
        for name, stock, patched in result["attacks"]:
            print("  %-44s stock %8s  patched %.4f s" % (
                name, "%.3f s" % stock if stock is not None else "(--slow)", patched))
    return 0


if __name__ == "__main__":
    sys.exit(main())
