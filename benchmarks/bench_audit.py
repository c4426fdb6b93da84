"""What the audit costs per file, and what parsing in a child process adds.

Runs ``audit(DIRECTORY)`` (default: the running interpreter's site-packages)
N times two ways in one process: as shipped (the ``ast`` checks in one child
process, so a crash of the parser loses one file) and with the checks run in
this process; prints files, findings, the best time of each, files per second
and their ratio. Usage: ``python benchmarks/bench_audit.py [-n 5] [DIRECTORY]``.
"""

from __future__ import print_function

import argparse
import sysconfig
import time

from urllib_parse_backport._audit import _main, _source, _worker


def best(runs, function):
    times = []
    for _ in range(runs):
        start = time.time()
        result = function()
        times.append(time.time() - start)
    return min(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=5)
    parser.add_argument("directory", nargs="?", default=sysconfig.get_paths()["purelib"])
    options = parser.parse_args()
    child, (findings, skipped, files) = best(options.n, lambda: _main.audit([options.directory]))
    shipped = _worker.Checks
    _worker.Checks = lambda: _InProcess()
    try:
        inline, _ = best(options.n, lambda: _main.audit([options.directory]))
    finally:
        _worker.Checks = shipped
    print("%s: %d files, %d findings, %d not fully read" % (options.directory, files,
                                                            len(findings), len(skipped)))
    print("checks in a child process: %.2f s (%d files/s)" % (child, files / child))
    print("checks in this process:    %.2f s (%d files/s)" % (inline, files / inline))
    print("ratio child/in-process:    %.2f" % (child / inline,))


class _InProcess(object):
    def __call__(self, data, path):
        return _source.analyse(data, path)

    def close(self):
        pass


if __name__ == "__main__":
    main()
