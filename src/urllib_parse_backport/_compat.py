"""The place where Python 2 and Python 3 differ for this package.

Everything version-specific that the rest of the package needs is chosen here,
once, at import time. The other version gates, each naming the change it
follows: ``_parse`` (picks the 2.7 or the 3.x parser and ``urlsplit``), ``_policy`` (bytes-like
queries, gh-74668) and ``_import_hook`` (PEP 451 finders).
"""

import sys

PY2 = sys.version_info[0] == 2

#: Whether a module may define ``__getattr__`` (PEP 562, 3.7+): the package's
#: ``urlsplit``/``urlparse`` are then built on first access, as what they are
#: (3.11+: an ``lru_cache``), instead of by a forwarding function.
LAZY_ATTRIBUTES = sys.version_info >= (3, 7)

if PY2:  # pragma: no cover - exercised by the py27 environment
    text_type = unicode  # noqa: F821 (Python 2 only)
    string_types = (str, unicode)  # noqa: F821
    #: The stdlib module whose parse_qs/parse_qsl the shim replaces.
    STDLIB_MODULE = "urlparse"

    from thread import allocate_lock, get_ident

    class RLock(object):
        """A re-entrant lock, as 2.7's ``threading.RLock`` (Python code there too),
        without importing ``threading``, which start-up does not pay for
        (docs/performance.rst, "Start-up switches")."""

        def __init__(self):
            self._lock = allocate_lock()
            self._owner = None
            self._depth = 0

        def acquire(self):
            me = get_ident()
            if self._owner == me:
                self._depth += 1
                return True
            self._lock.acquire()
            self._owner, self._depth = me, 1
            return True

        def release(self):
            if self._owner != get_ident():
                raise RuntimeError("cannot release un-acquired lock")
            self._depth -= 1
            if not self._depth:
                self._owner = None
                self._lock.release()

        __enter__ = acquire

        def __exit__(self, *exc_info):
            self.release()

    def fsdecode(data):
        """The file name *data* as text, as 3.x's ``os.fsdecode``: each byte the
        file system's encoding cannot decode becomes U+DC80..U+DCFF (PEP 383's
        ``surrogateescape``, which 2.7 lacks), so the bytes can be recovered."""
        encoding = sys.getfilesystemencoding() or "utf-8"
        pieces = []
        while data:
            try:
                pieces.append(data.decode(encoding))
                break
            except UnicodeDecodeError as error:
                pieces.append(data[:error.start].decode(encoding))
                pieces.extend(unichr(0xDC00 + ord(byte))  # noqa: F821 (Python 2 only)
                              for byte in data[error.start:error.end])
                data = data[error.end:]
        return u"".join(pieces)

    def byte_window(data, start, size):
        """*size* bytes of *data* from *start*, not copied (zlib reads a ``buffer``)."""
        return buffer(data, start, size)  # noqa: F821 (Python 2 only)

    def is_installed(top):
        """Whether the top-level module *top* can be imported, without importing it.

        ``imp.find_module`` for the directories of ``sys.path`` (0.02 ms a
        name; ``pkgutil.find_loader`` takes 0.14 ms on 2.7.18, and the start-up
        switch asks for every framework an adapter knows), then what it does
        not look into: the zip archives on ``sys.path`` (zipped eggs, pex)
        and the finders on ``sys.meta_path`` (PyInstaller's), but this
        distribution's own post-import hooks, which answer for every name they
        wait for."""
        import imp
        try:
            found = imp.find_module(top)
        except ImportError:
            return _found_elsewhere(top)
        if found[0] is not None:
            found[0].close()
        return True

    def _found_elsewhere(top):
        import os
        for finder in sys.meta_path:
            if type(finder).__module__.startswith("_cpython_security."):
                continue  # a post-import hook: it finds what it waits for
            find = getattr(finder, "find_module", None)
            if find is not None and find(top) is not None:
                return True
        for entry in sys.path:
            if entry and os.path.isfile(entry):
                import zipimport
                try:
                    if zipimport.zipimporter(entry).find_module(top) is not None:
                        return True
                except zipimport.ZipImportError:
                    continue
        return False

else:
    from _thread import RLock  # noqa: F401 (the C lock that threading.RLock is)

    text_type = str
    string_types = (str, bytes)
    STDLIB_MODULE = "urllib.parse"
    #: A file name's bytes as text, undecodable bytes as lone surrogates (PEP 383).
    from os import fsdecode  # noqa: F401

    def byte_window(data, start, size):
        """*size* bytes of *data* from *start*, not copied."""
        return memoryview(data)[start:start + size]

    def is_installed(top):
        """Whether the top-level module *top* can be imported, without importing it."""
        import importlib.util
        return importlib.util.find_spec(top) is not None


#: The arguments of ``types.CodeType`` up to 3.7, in order (3.8+ has ``replace()``).
_CODE_FIELDS = ("co_argcount",) + (() if PY2 else ("co_kwonlyargcount",)) + (
    "co_nlocals", "co_stacksize", "co_flags", "co_code", "co_consts", "co_names",
    "co_varnames", "co_filename", "co_name", "co_firstlineno", "co_lnotab", "co_freevars",
    "co_cellvars")


def replace_code(code, **changes):
    """*code* with the ``co_*`` fields in *changes* replaced: ``code.replace()`` on
    3.8+, the ``types.CodeType`` constructor (whose arguments differ) before."""
    replace = getattr(code, "replace", None)
    if replace is not None:
        return replace(**changes)
    import types
    return types.CodeType(*[changes.get(field, getattr(code, field)) for field in _CODE_FIELDS])


def import_configparser():
    """The stdlib's INI-file parser module: ``ConfigParser`` on 2.7, ``configparser`` on 3.

    Imported on first use: only a host with Red Hat's configuration file needs it.
    """
    if PY2:  # pragma: no cover - exercised by the py27 environment
        import ConfigParser as module
    else:
        import configparser as module
    return module
