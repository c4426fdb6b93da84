"""What tarfile_backport's fixes cost an honest archive: listing and extracting it.

For the interpreter running it: an archive of N members (default 10,000) in the
pax format (each member with a pax header: a name over 100 characters, a
fractional mtime), written in memory; then, interleaved in one process, the
stock reader and the patched one (``tarfile_backport.patch(force=True)``,
so that an interpreter with the fixes measures the wrappers) list it
(``getmembers()``) and extract it into a fresh directory. Printed: the best
time of each over the rounds and their ratio, patched / stock, from one run.
Usage: ``python benchmarks/bench_tarfile.py [--members N] [--rounds R]``
(with ``src`` first on ``sys.path`` to measure the source tree).
"""

from __future__ import print_function

import argparse
import gc
import io
import shutil
import sys
import tarfile
import tempfile
import time

import tarfile_backport

#: CPU time: the disk and the load of the machine add wait, not work.
_clock = getattr(time, "process_time", None) or time.clock


def archive(members):
    out = io.BytesIO()
    tar = tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT)
    for index in range(members):
        info = tarfile.TarInfo("d%d/" % (index % 50) + "member-%06d-" % index + "n" * 90)
        info.mtime = 1700000000.25 + index
        data = b"x" * (index % 700)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    tar.close()
    return out.getvalue()


def list_members(buffer, where=None):
    with tarfile.open(fileobj=io.BytesIO(buffer)) as tar:
        return len(tar.getmembers())


def extract(buffer, where):
    with tarfile.open(fileobj=io.BytesIO(buffer)) as tar:
        tar.extractall(where)


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
    for name, call in (("list", list_members), ("extract", extract)):
        stock, patched = [], []
        for index in range(args.rounds):
            for state in ((False, True) if index % 2 == 0 else (True, False)):
                if state:
                    tarfile_backport.patch(force=True)
                    best(call, buffer, patched)
                    tarfile_backport.unpatch()
                else:
                    best(call, buffer, stock)
        results[name] = (min(stock), min(patched))
    print("%s %s, %d pax members (%d KB):" % (
        sys.implementation.name if hasattr(sys, "implementation") else "cpython",
        sys.version.split()[0], args.members, len(buffer) // 1024))
    for name in ("list", "extract"):
        stock, patched = results[name]
        print("  %-8s stock %7.1f ms  patched %7.1f ms  ratio %.3f"
              % (name, stock * 1000, patched * 1000, patched / stock))


if __name__ == "__main__":
    main()
