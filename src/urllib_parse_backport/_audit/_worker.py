"""The ``ast`` checks in a child process, so that a crash of the parser loses one file.

Why: CPython's own ``compile()`` can crash the interpreter on hostile source
(a 400 KB chain of ``1+1+...`` overflows the C stack of 2.7 and 3.8 with a
segmentation fault); such a file must be listed as not fully read, not end
the scan. One child serves every file (a process per file would cost more than
the scan); when it dies, the file is searched by text and a new child starts.
"""

import json
import os
import subprocess
import sys

from . import _source

#: The child: no site module (no .pth start-up code runs), no PYTHON* variables;
#: the parent's own sys.path (a 2.7 virtualenv finds its stdlib only through site),
#: this package's directory first; ``encodings``, which 2.7 imports only with site.
_BOOT = ("import sys; sys.path[:] = sys.argv[1:]; import encodings; "
         "from urllib_parse_backport._audit._worker import serve; serve()")
_HOME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Checks(object):
    """:func:`_source.analyse` run in a child process: call with ``(data, path)``."""

    def __init__(self):
        self.process = None
        self.devnull = None

    def __call__(self, data, path):
        if not sys.executable:  # an embedded interpreter: nothing to start
            return _source.analyse(data, path)
        if self.process is None:
            self.devnull = self.devnull or open(os.devnull, "wb")  # its tracebacks: we say why
            self.process = subprocess.Popen(
                [sys.executable, "-E", "-S", "-c", _BOOT, _HOME] + [
                    entry for entry in sys.path if entry],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.devnull)
        try:
            self.process.stdin.write(("%d\n" % len(data)).encode("ascii"))
            self.process.stdin.write(data)
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
        except (IOError, OSError):  # the child is gone (a broken pipe)
            answer = b""
        if not answer:
            return None, self._died()
        reply = json.loads(answer.decode("ascii"))
        found = reply["found"]
        return (None if found is None else [tuple(item) for item in found]), reply["why_not"]

    def _died(self):
        process, self.process = self.process, None
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except (IOError, OSError):
                pass
        status = process.wait()
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


def serve():
    """The child's loop: a length line and that many bytes in, one JSON line out."""
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
        stdout.write(json.dumps({"found": found, "why_not": why_not}).encode("ascii") + b"\n")
        stdout.flush()
