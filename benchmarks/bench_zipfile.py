"""What zipfile_backport's fixes cost an honest archive: reading and extracting it.

For the interpreter running it: an archive of N members (default 10,000; every
third deflated, the rest stored, 0 to 700 bytes each, in 50 directories),
written in memory; then, interleaved in one process, the stock reader and the
patched one (``zipfile_backport.patch(force=True)``, so that an interpreter
with the fixes measures the wrappers) open it and read every member
(``read()``: each ``open()`` checks the member's end, CVE-2024-0450) and
extract it into a fresh directory (``extractall()``). Printed: the best time
of each over the rounds and their ratio, patched / stock, from one run.
Usage: ``python benchmarks/bench_zipfile.py [--members N] [--rounds R]``
(with ``src`` first on ``sys.path`` to measure the source tree).
"""

from __future__ import print_function

import argparse
import gc
import io
import shutil
import sys
import tempfile
import time
import zipfile

import zipfile_backport

#: CPU time: the disk and the load of the machine add wait, not work.
_clock = getattr(time, "process_time", None) or time.clock


def archive(members):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for index in range(members):
            name = "d%d/member-%06d.txt" % (index % 50, index)
            data = b"x" * (index % 700)
            zf.writestr(name, data, zipfile.ZIP_DEFLATED if index % 3 == 0 else
                        zipfile.ZIP_STORED)
    return out.getvalue()


def read_members(buffer, where=None):
    with zipfile.ZipFile(io.BytesIO(buffer)) as zf:
        return sum(len(zf.read(info)) for info in zf.infolist())


def extract(buffer, where):
    with zipfile.ZipFile(io.BytesIO(buffer)) as zf:
        zf.extractall(where)


def best(call, buffer, times):
    """One timed call, after a full collection, into a fresh directory removed after."""
    where = tempfile.mkdtemp()
    try:
        gc.collect()
        start = _clock()
        call(buffer, where)
        times.append(_clock() - start)
    finally:
        shutil.rmtree(where)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    buffer = archive(args.members)
    results = {}
    for name, call in (("read", read_members), ("extract", extract)):
        stock, patched = [], []
        for index in range(args.rounds):
            for state in ((False, True) if index % 2 == 0 else (True, False)):
                if state:
                    zipfile_backport.patch(force=True)
                    best(call, buffer, patched)
                    zipfile_backport.unpatch()
                else:
                    best(call, buffer, stock)
        results[name] = (min(stock), min(patched))
    print("%s %s, %d members (%d KB):" % (
        sys.implementation.name if hasattr(sys, "implementation") else "cpython",
        sys.version.split()[0], args.members, len(buffer) // 1024))
    for name in ("read", "extract"):
        stock, patched = results[name]
        print("  %-8s stock %7.1f ms  patched %7.1f ms  ratio %.3f"
              % (name, stock * 1000, patched * 1000, patched / stock))


if __name__ == "__main__":
    main()
