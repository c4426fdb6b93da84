"""The behaviour probes some registry rows share: whether a stdlib module lacks a fix.

Why a module of its own: the registry is rows; these are the functions rows
name, kept apart so that the rows stay one table. Each probe reads the
module (or function) it is given and never changes it; one that raises
counts as "needs it"; none reads a version number.
"""

__all__ = ["parser_unfixed", "repr_unfixed", "always", "SPLIT_PROBES", "split_probe"]


def parser_unfixed(module):
    """Whether the stdlib ``parse_qsl`` splits ``'a=1;b=2'`` in two or has no
    ``separator`` (bpo-42967); Red Hat's fix (``separator=None``) counts as fixed."""
    func = module.parse_qsl
    code = func.__code__
    names = code.co_varnames[:code.co_argcount + getattr(code, "co_kwonlyargcount", 0)]
    if "separator" not in names:
        return True
    return len(func("a=1;b=2")) == 2


def repr_unfixed(module):
    """Whether ctypes' parameter repr is the ``sprintf("%f")`` one (bpo-42938):
    ``(1.500000)`` for 1.5 where the fixed one prints ``(1.5)``; 1.5 cannot overflow.
    Where ``from_param`` returns a ctypes instance (PyPy: no C repr at all) the
    package runs too, to log why it has nothing to do: never silent."""
    raw = type(module.c_double).__dict__["from_param"]
    value = raw(module.c_double, 1.5)
    return isinstance(value, module._SimpleCData) or "1.500000" in repr(value)


def always(module):
    return True


def _keeps_leading_blank(urlsplit):
    """CVE-2023-24329 (gh-102153): a fixed ``urlsplit`` strips the space and finds the host."""
    return urlsplit(" http://h/")[1] != "h"


def _keeps_tab(urlsplit):
    """CVE-2022-0391 (bpo-43882): a fixed ``urlsplit`` removes the tab from the host."""
    return urlsplit("http://a\tb/")[1] != "ab"


def _accepts(urlsplit, url):
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def _accepts_bracketed_ipv4(urlsplit):
    """CVE-2024-11168 (gh-103848): a fixed ``urlsplit`` refuses an IPv4 address in brackets."""
    return _accepts(urlsplit, "http://[1.2.3.4]/")


def _accepts_text_after_bracket(urlsplit):
    """CVE-2025-0938 (gh-105704): a fixed ``urlsplit`` refuses text between ``]`` and the port."""
    return _accepts(urlsplit, "http://[::1]evil/")


#: ``{CVE: probe(urlsplit function) -> whether it lacks the fix}``: by behaviour,
#: on inputs no other change of ``urlsplit`` treats differently.
SPLIT_PROBES = {
    "CVE-2023-24329": _keeps_leading_blank,
    "CVE-2022-0391": _keeps_tab,
    "CVE-2024-11168": _accepts_bracketed_ipv4,
    "CVE-2025-0938": _accepts_text_after_bracket,
}


def split_probe(cve):
    probe = SPLIT_PROBES[cve]
    return lambda module: probe(module.urlsplit)
