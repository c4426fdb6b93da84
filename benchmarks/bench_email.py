"""CPU time of email_backport's fixes: honest-input ratios (patched/stock) and the
100 KB parameter of gh-136063.

For every interpreter named on the command line (default: the one running
this script), a child process times, in CPU seconds (``getrusage``, user +
system, best of 5 rounds), honest work first with the stdlib as it is, then
after ``email_backport.patch(force=True)``, and prints the ratio:

- ``Message.get_params``/``get_param``/``get_filename``/``get_boundary``/
  ``get_content_charset`` of ordinary ``Content-Type`` and
  ``Content-Disposition`` headers (``_parseparam``, gh-136063);
- ``Generator.flatten`` of a 12-header message (gh-121650), with
  ``compat32`` and ``default`` on 3.x (2.7: its Generator);
- ``BytesGenerator.flatten`` of the same (gh-144125; not on 2.7).

Then ``get_params`` of a 100 KB value of ``"`` and semicolons, patched; the
stock one (seconds to tens of seconds where unfixed) only with ``--slow``.
The package must be importable by each interpreter (installed, or
``PYTHONPATH=src``). Usage: ``python benchmarks/bench_email.py [--slow] [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import io, json, resource, sys
import email, email.generator, email.message
import email_backport

PY2 = sys.version_info[0] == 2

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def cpu(function, rounds=5):
    best = None
    for _ in range(rounds):
        start = seconds()
        function()
        spent = seconds() - start
        best = spent if best is None else min(best, spent)
    return best

HEADERS = ['text/plain; charset="utf-8"; format=flowed',
           'multipart/mixed; boundary="===============1234567890=="',
           "attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf; size=1024",
           'attachment; filename="report; final.txt"; creation-date="Mon, 1 Jan 2024"']

def params():
    for _ in range(2000):
        for value in HEADERS:
            message = email.message.Message()
            message["Content-Type"] = value
            message.get_params(); message.get_param("charset"); message.get_filename()
            message.get_boundary(); message.get_content_charset()

SOURCE = "".join("X-Header-%d: value %d with some words to write\n" % (i, i)
                 for i in range(10)) + "Subject: a fairly long subject line " * 3 + (
                 "\nTo: someone@example.com\n\nBody\n")

def flatten(name, policy_name):
    if PY2:
        message = email.message_from_string(SOURCE)
        make = lambda: (io.BytesIO(), {})
    else:
        from email import policy as policies
        policy = getattr(policies, policy_name)
        message = email.message_from_string(SOURCE, policy=policy)
        bytes_out = name == "BytesGenerator"
        make = lambda: (io.BytesIO() if bytes_out else io.StringIO(), {"policy": policy})
    generator = getattr(email.generator, name)
    def run():
        for _ in range(300):
            out, keywords = make()
            generator(out, **keywords).flatten(message)
    return run

def cases():
    found = {"parameters (get_params ...)": params}
    found["Generator compat32" if not PY2 else "Generator"] = flatten("Generator", "compat32")
    if not PY2:
        found["Generator default"] = flatten("Generator", "default")
        found["BytesGenerator default"] = flatten("BytesGenerator", "default")
    return found

def hostile():
    message = email.message.Message()
    message["Content-Type"] = 'text/plain; a="' + ";" * (100 * 1024)
    return lambda: message.get_params()

slow = sys.argv[1] == "slow"
result = {"vulnerable": email_backport.is_vulnerable(), "stock": {}, "patched": {}}
for label, run in sorted(cases().items()):
    result["stock"][label] = cpu(run)
if slow:
    result["stock"]["100 KB parameter"] = cpu(hostile(), rounds=1)
email_backport.patch(force=True)
for label, run in sorted(cases().items()):
    result["patched"][label] = cpu(run)
result["patched"]["100 KB parameter"] = cpu(hostile(), rounds=1)
print(json.dumps(result))
"""


def measure(python, slow):
    out = subprocess.check_output([python, "-c", CHILD, "slow" if slow else "quick"])
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", action="store_true",
                        help="also time the stock get_params of 100 KB (seconds where unfixed)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        result = measure(python, args.slow)
        print("%s (lacks a fix: %s)" % (python, result["vulnerable"]))
        for case in sorted(result["patched"]):
            stock, patched = result["stock"].get(case), result["patched"][case]
            if stock is None:
                print("  %-28s stock (--slow)   patched %.3f s" % (case, patched))
            else:
                print("  %-28s stock %.3f s   patched %.3f s   ratio %.2f" % (
                    case, stock, patched, patched / max(stock, 1e-9)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
