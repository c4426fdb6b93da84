"""What the http_client_backport tests share: the stdlib module, a fake socket, and a
simulated unfixed ``HTTPConnection`` each fix is bound on by hand.

Why a simulated one: every interpreter the tests run on has bpo-38576 and
all but 2.7 have bpo-39603, so those guards would otherwise never be
exercised there. :func:`unfixed` gives a module whose ``HTTPConnection``
is the stdlib's with ``_validate_method``/``_validate_host`` made no-ops
(what the code before each fix did) and the stock methods copied into its
own ``__dict__``; :func:`fixed` binds a fix module's replacements on it.
The fix modules are reached here only (``FIXES``).
"""

import io
import sys
import types

from http_client_backport import _host, _method, _tunnel
from reference import REFERENCE  # Debian 12's python3.11, probed

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    import httplib as client
else:
    from http import client

__all__ = ["client", "FIXES", "FakeSocket", "unfixed", "fixed", "sent", "REFERENCE"]

#: ``{issue: fix module}``.
FIXES = {"bpo-39603": _method, "bpo-38576": _host, "gh-146211": _tunnel}


class FakeSocket(object):
    """A socket that records what is sent and answers *text* (CPython test_httplib's)."""

    def __init__(self, text=b"HTTP/1.1 200 OK\r\n\r\n"):
        self.text = text
        self.data = b""
        self.sendall_calls = 0

    def sendall(self, data):
        self.sendall_calls += 1
        if not isinstance(data, bytes):  # 2.7 sends unicode lines as ASCII
            data = data.encode("ascii")
        self.data += data

    def makefile(self, mode, bufsize=None):
        return io.BytesIO(self.text)

    def close(self):
        pass

    def setsockopt(self, *args):
        pass


def unfixed(module=client):
    """A copy of *module* whose ``HTTPConnection`` lacks bpo-39603 and bpo-38576."""
    stock = module.HTTPConnection.__dict__

    class HTTPConnection(module.HTTPConnection):
        __init__ = stock["__init__"]
        putrequest = stock["putrequest"]
        _tunnel = stock["_tunnel"]

        def _validate_method(self, method):
            pass

        def _validate_host(self, host):
            pass

    copy = types.ModuleType(module.__name__)
    copy.__dict__.update(module.__dict__)
    copy.HTTPConnection = HTTPConnection
    return copy


def fixed(fix, module=None):
    """A copy of *module* (default: :func:`unfixed`) with *fix*'s replacements bound."""
    module = module or unfixed()
    for path, new in fix.replacements(module).items():
        setattr(module.HTTPConnection, path.split(".", 1)[1], new)
    return module


def sent(module, host, calls, tunnel=None):
    """The bytes a *module* connection to *host* sends for *calls*, or the exception.

    *calls*: ``[(method name, args)]`` on the connection; *tunnel*: ``(host, port,
    headers)`` to go through ``_tunnel`` first."""
    try:
        conn = module.HTTPConnection(host)
        if tunnel is not None:
            conn.set_tunnel(*tunnel)
        conn.sock = FakeSocket()
        if tunnel is not None:
            conn._tunnel()
        for name, args in calls:
            getattr(conn, name)(*args)
        return conn.sock.data
    except Exception as error:
        return (type(error).__name__, str(error))
