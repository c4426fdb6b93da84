"""The fixes themselves: ``parse_qs``/``parse_qsl``, ``urlsplit``/``urlparse``.

Why a package of its own: the package, the shim's targets and the self-check
all need "the backport's parse_qs/parse_qsl" and "the fixed urlsplit", and
the choice is made once, here. It holds no state but the fixed functions
once built, and imports nothing but the policy and compat modules:
``_py2``/``_py3`` (one per family) split queries with ``_fields`` and decode
with ``_unquote``; ``_split2``/``_split3`` (one per family) build the fixed
``urlsplit``/``urlparse`` from the interpreter's own ``urlparse`` or
``urllib.parse`` (imported on the first split) and check bracketed hosts
with ``_hosts``.
"""

from .._compat import LAZY_ATTRIBUTES, PY2

if PY2:  # pragma: no cover - exercised by the py27 environment
    from ._py2 import parse_qs, parse_qsl
    from . import _split2 as split_family
else:
    from ._py3 import parse_qs, parse_qsl
    from . import _split3 as split_family

__all__ = ["parse_qs", "parse_qsl", "fixed", "split_family", "SPLIT_NAMES"]

#: The public names built on first use.
SPLIT_NAMES = ("urlsplit", "urlparse")

_BUILT = {}


def fixed(name):
    """The backport's ``urlsplit`` or ``urlparse`` (*name*), built on first use:
    building imports the interpreter's ``urllib.parse`` (``urlparse`` on 2.7)."""
    if not _BUILT:
        split = split_family.make_urlsplit()
        _BUILT["urlparse"] = split_family.make_urlparse(split)
        _BUILT["urlsplit"] = split
        if not LAZY_ATTRIBUTES:  # 2.7, 3.6: the package's names call the built ones from now
            _bind_built()
    return _BUILT[name]


def _bind_built():
    """Bind the built functions where the forwarding ones below stand (this module
    and the package), as 3.7+'s module ``__getattr__`` caches them: a call
    through ``urllib_parse_backport.urlsplit`` then costs what the
    interpreter's own does. Names bound elsewhere keep forwarding."""
    import sys
    for module_name in (__name__, __name__.rpartition(".")[0]):
        namespace = vars(sys.modules.get(module_name) or sys.modules[__name__])
        for name in SPLIT_NAMES:
            if getattr(namespace.get(name), "__module__", None) == __name__:
                namespace[name] = _BUILT[name]


if not LAZY_ATTRIBUTES:  # pragma: no cover - 2.7 and 3.6 have no module __getattr__
    def urlsplit(url, scheme="", allow_fragments=True):
        """``urlsplit`` with CVE-2023-24329, CVE-2022-0391, CVE-2024-11168 and
        CVE-2025-0938 fixed (see the package's docs)."""
        return (_BUILT.get("urlsplit") or fixed("urlsplit"))(url, scheme, allow_fragments)

    def urlparse(url, scheme="", allow_fragments=True):
        """``urlparse`` splitting with the fixed :func:`urlsplit`."""
        return (_BUILT.get("urlparse") or fixed("urlparse"))(url, scheme, allow_fragments)

    __all__ += ["urlsplit", "urlparse"]

    # Where the stdlib module is loaded already (most applications: urllib,
    # httplib and the frameworks import it), building costs no import: the
    # names are the built functions from the start, without a forwarding call.
    if ("urlparse" if PY2 else "urllib.parse") in __import__("sys").modules:
        fixed("urlsplit")
