"""The ``ast`` checks in a child process, so that a crash of the parser loses one file.

Why: CPython's own ``compile()`` can crash the interpreter on hostile source
(a 400 KB chain of ``1+1+...`` overflows the C stack of 2.7 and 3.8 with a
segmentation fault); such a file must be listed as not fully read, not end
the scan. One child serves every file (a process per file would cost more than
the scan); when it dies, the file is searched by text and a new child starts.

The child is also held to a time and a memory limit per file: an 8 MiB file
of ``x = 1`` lines (the largest the audit reads) takes 7-19 s and 2.8-3.2 GB
to parse (3.13, 2.7), so a tree of them would hold the scan for hours or
bring the host's out-of-memory killer, which may pick another process.
"""

import errno
import json
import os
import subprocess
import sys

from . import _source

#: Per file: the most seconds the child may take, and the most memory it may
#: map (``RLIMIT_AS``). Both are far above what real source needs: the largest
#: module of the tested site-packages is parsed and checked in under a second.
SECONDS = 10
MEMORY = 1 << 30

#: The child: no site module (no .pth start-up code runs), no PYTHON* variables;
#: its memory limit; the parent's own sys.path (a 2.7 virtualenv finds its stdlib
#: only through site), this package's directory first; ``encodings``, which 2.7
#: imports only with site.
_BOOT = ("import sys; limit = int(sys.argv[1]); sys.path[:] = sys.argv[2:]; "
         "import encodings; from urllib_parse_backport._audit._worker import serve; "
         "serve(limit)")
_HOME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Checks(object):
    """:func:`_source.analyse` run in a child process: call with ``(data, path)``.

    *seconds*, *memory*: the child's limits per file (see :data:`SECONDS`)."""

    def __init__(self, seconds=SECONDS, memory=MEMORY):
        self.seconds = seconds
        self.memory = memory
        self.process = None
        self.devnull = None

    def __call__(self, data, path):
        if not sys.executable:  # an embedded interpreter: nothing to start
            return _source.analyse(data, path)
        if self.process is None:
            self.devnull = self.devnull or open(os.devnull, "wb")  # its tracebacks: we say why
            self.process = subprocess.Popen(
                [sys.executable, "-E", "-S", "-c", _BOOT, str(self.memory), _HOME] + [
                    entry for entry in sys.path if entry],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.devnull)
        try:
            self.process.stdin.write(("%d\n" % len(data)).encode("ascii"))
            self.process.stdin.write(data)
            self.process.stdin.flush()
            if not _ready(self.process.stdout, self.seconds):
                self.process.kill()
                return None, self._died("the parser took longer than %s s" % (self.seconds,))
            answer = self.process.stdout.readline()
        except (IOError, OSError):  # the child is gone (a broken pipe)
            answer = b""
        if not answer:
            return None, self._died()
        reply = json.loads(answer.decode("ascii"))
        found = reply["found"]
        return (None if found is None else [tuple(item) for item in found]), reply["why_not"]

    def _died(self, why=None):
        process, self.process = self.process, None
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except (IOError, OSError):
                pass
        status = process.wait()
        if why is not None:
            return why
        how = "signal %d" % (-status,) if status < 0 else "exit status %d" % (status,)
        return "the parser crashed (%s)" % (how,)

    def close(self):
        """End the child (its input closed, it returns) and wait for it."""
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process.stdout.close()
            self.process = None
        if self.devnull is not None:
            self.devnull.close()
            self.devnull = None


def _ready(stream, seconds):
    """Whether *stream* has something to read within *seconds* (always True where
    pipes cannot be waited on: Windows has no ``select`` for them)."""
    if os.name != "posix":
        return True
    import select
    import time
    deadline = time.time() + seconds
    while True:
        try:
            return bool(select.select([stream], [], [], max(0, deadline - time.time()))[0])
        except (select.error, OSError) as exc:  # 2.7 does not retry after a signal
            if exc.args[0] != errno.EINTR:
                raise


def _limit_memory(limit):
    """Lower this process's address-space limit to *limit* bytes, where the OS has one."""
    try:
        import resource
    except ImportError:  # Windows
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # refused: the time limit still holds
        pass


#: How ``_source`` words a MemoryError of the parser or of the checks.
_OUT_OF_MEMORY = ("MemoryError:", "the checks failed: MemoryError:")


def serve(memory=MEMORY):
    """The child's loop: a length line and that many bytes in, one JSON line out.

    *memory*: the address-space limit it sets itself first (see :data:`MEMORY`)."""
    _limit_memory(memory)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)
    while True:
        header = stdin.readline()
        if not header:
            return
        size, data = int(header), b""
        while len(data) < size:  # a pipe may hand it over in pieces
            piece = stdin.read(size - len(data))
            if not piece:
                return
            data += piece
        try:
            found, why_not = _source.analyse(data)
        except _source.Skipped as exc:  # undecodable: the parent says so itself
            found, why_not = None, str(exc)
        except Exception as exc:
            found, why_not = None, "the checks failed: %s: %s" % (type(exc).__name__, exc)
        if why_not is not None and why_not.startswith(_OUT_OF_MEMORY):
            why_not = "the parser needed more than the %d MiB it may use" % (memory >> 20,)
        stdout.write(json.dumps({"found": found, "why_not": why_not}).encode("ascii") + b"\n")
        stdout.flush()
