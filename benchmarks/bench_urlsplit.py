"""Time the fixed ``urlsplit`` against each interpreter's own, on realistic URLs.

Usage (from the repository root)::

    python3 benchmarks/bench_urlsplit.py                     # the pyenv interpreters
    python3 benchmarks/bench_urlsplit.py /usr/bin/python3.11  # only these

Each interpreter runs in its own subprocess (this file, ``--child``) with
``<repo>/src`` first on ``sys.path``. In the child three functions are timed
interleaved, several rounds, minimum kept: the stdlib's own ``urlsplit``, the
backport's ``urllib_parse_backport.urlsplit``, and the fixed function with a
cache of its own, as ``patch()`` binds it in the stdlib. Workloads:
``distinct`` (2,000 different URLs in turn: every call misses the cache) and
``repeated`` (the same 16 URLs: every call after the first hits it). The
stdlib module is imported before the package, as in an application: on 2.7
and 3.6 a package imported before it forwards each call once (see
``_parse/__init__.py``). Printed:
time per call of the stdlib, and the two ratios (below 1.00 = faster).
"""

from __future__ import print_function

import glob
import json
import os
import random
import subprocess
import sys
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ("2.7.18", "3.6.15", "3.7.16", "3.8.18", "3.9.18", "3.10.13", "3.11.7", "3.12.1",
            "3.13.0")


def realistic(count, seed=1):
    """URLs as clients and frameworks split them: scheme, host, port, path, query."""
    rng = random.Random(seed)
    hosts = ["example.com", "api.example.org", "cdn.example.net:8443", "user:pw@db.local",
             "localhost:8000", "[2001:db8::1]:443", "static.example.com"]
    urls = []
    for index in range(count):
        path = "/".join(rng.choice(["v1", "users", "items", "search", "a%20b", "index.html"])
                        for _ in range(rng.randint(1, 4)))
        query = "&".join("%s=%d" % (rng.choice("qpxy"), rng.randint(0, 999))
                         for _ in range(rng.randint(0, 3)))
        url = "%s://%s/%s%d" % (rng.choice(["http", "https"]), rng.choice(hosts), path, index)
        if query:
            url += "?" + query
        if rng.random() < 0.1:
            url += "#section"
        urls.append(url)
    return urls


def child():
    sys.path.insert(0, os.path.join(ROOT, "src"))
    if sys.version_info[0] == 2:  # first, as in an application (see _parse/__init__)
        import urlparse as module
    else:
        import urllib.parse as module
    import urllib_parse_backport
    from urllib_parse_backport._parse import split_family
    own = module.urlsplit
    backport = urllib_parse_backport.urlsplit
    patched = split_family.make_urlsplit(original=own)  # its own cache, as patch() builds it
    funcs = {"stdlib": own, "backport": backport, "patched": patched}
    workloads = {"distinct": realistic(2000), "repeated": realistic(16)}
    results = {}
    for name, urls in sorted(workloads.items()):
        calls = 2000 // len(urls)
        best = dict((label, float("inf")) for label in funcs)
        order = sorted(funcs)
        for round_ in range(9):
            for label in (order if round_ % 2 else order[::-1]):
                func = funcs[label]

                def run(func=func, urls=urls, calls=calls):
                    for _ in range(calls):
                        for url in urls:
                            func(url)
                per_call = timeit.timeit(run, number=3) / (3 * calls * len(urls))
                best[label] = min(best[label], per_call)
        results[name] = best
    print(json.dumps({"version": sys.version.split()[0], "results": results}))


def interpreters(argv):
    if argv:
        return argv
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = []
    for version in VERSIONS:
        found.extend(sorted(glob.glob(os.path.join(root, "versions", version, "bin", "python"))))
    return found


def main(argv):
    if argv[:1] == ["--child"]:
        child()
        return 0
    header = ("python", "workload", "stdlib/call", "backport", "patched")
    print("%-10s %-9s %12s %10s %10s" % header)
    for python in interpreters(argv):
        data = json.loads(subprocess.check_output([python, __file__, "--child"]).decode())
        for name, best in sorted(data["results"].items()):
            print("%-10s %-9s %10.0f ns %10.2f %10.2f" % (
                data["version"], name, best["stdlib"] * 1e9,
                best["backport"] / best["stdlib"], best["patched"] / best["stdlib"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
