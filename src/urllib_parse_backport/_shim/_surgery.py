"""Function surgery: copy a function, forward it, swap its code, rebind its aliases.

Why: ``patch()`` must reach names bound *before* it ran (``from urlparse
import parse_qsl``, defaults, closures), keep each original's identity and
signature, and put back the exact objects on ``unpatch()``. Nothing here knows
about query strings.
"""

import types

from _cpython_security._rebind import module_namespace, rebind as _shared_rebind

from .._compat import replace_code

__all__ = ["parameters", "copy_function", "forwarding_copy", "swap_code",
           "routing_code", "module_namespace", "rebind", "ROUTES"]

_OWN_PACKAGE = __name__.split(".")[0]
_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_CO_GENERATOR = 0x20
_CO_COROUTINE = 0x80
_CO_ASYNC_GENERATOR = 0x200

#: Marks a parameter without default in :func:`parameters`' result.
NO_DEFAULT = object()

#: Where swapped code forwards to (label -> replacement). Entries are never
#: removed, so a call racing with ``unpatch()`` still finds its way; the
#: swapped code looks it up here by module name.
ROUTES = {}


def parameters(func):
    """``[(name, default or NO_DEFAULT), ...]`` of a plain Python function, else None."""
    code = getattr(func, "__code__", None)
    if code is None or code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS):
        return None
    if getattr(code, "co_kwonlyargcount", 0) or getattr(code, "co_posonlyargcount", 0):
        return None
    names = code.co_varnames[:code.co_argcount]
    defaults = func.__defaults__ or ()
    padded = (NO_DEFAULT,) * (len(names) - len(defaults)) + tuple(defaults)
    return list(zip(names, padded))


def copy_function(func):
    """A distinct function object running *func*'s code.

    Why: tells the shim's bindings apart from the public backport functions
    (which ``unpatch()`` must never touch), and keeps a callable original once
    the original's code is swapped."""
    copy = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                              func.__defaults__, func.__closure__)
    copy.__doc__ = func.__doc__
    copy.__dict__.update(func.__dict__)
    copy.__module__ = func.__module__
    if hasattr(func, "__qualname__"):
        copy.__qualname__ = func.__qualname__
    return copy


def forwarding_copy(original, rewrite_query, filename):
    """A function with *original*'s signature that calls a copy of *original* on
    ``rewrite_query(qs)``; None for a signature it does not know."""
    params = parameters(original)
    if params is None:
        return None
    names = [name for name, _ in params]
    source = (
        "def {name}({params}):\n"
        "    return _original(_rewrite({first}){rest})\n"
    ).format(name=original.__name__, params=", ".join(names), first=names[0],
             rest="".join(", " + name for name in names[1:]))
    namespace = {"_original": copy_function(original), "_rewrite": rewrite_query}
    exec(compile(source, filename, "exec"), namespace)
    replacement = namespace[original.__name__]
    replacement.__defaults__ = original.__defaults__
    replacement.__doc__ = original.__doc__
    replacement.__module__ = _OWN_PACKAGE
    return replacement


def swap_code(original, replacement, label):
    """Give *original* code that forwards to *replacement*; return the saved code,
    or None when it cannot be done (closures, ``*args``, coroutines)."""
    code = routing_code(original, replacement, label)
    if code is None:
        return None
    saved = original.__code__
    original.__code__ = code
    return saved


def routing_code(original, replacement, label):
    """Code for *original* that forwards to *replacement*, or None when it cannot be
    done (closures, ``*args``, coroutines); the caller binds it (``_ledger``).

    A generator function (WebOb's parser) gets generator code, so the swap keeps
    its kind: 3.13 warns on assigning code of another kind."""
    params = parameters(original)
    if params is None or not isinstance(original, types.FunctionType):
        return None
    if original.__closure__:
        return None
    kind = original.__code__.co_flags & (_CO_GENERATOR | _CO_COROUTINE | _CO_ASYNC_GENERATOR)
    if kind not in (0, _CO_GENERATOR):
        return None
    names = [name for name, _ in params]
    code = None if kind else _routing_code(original, names, label)
    if code is None:
        source = (
            "def {name}({params}):\n"
            "    {forward} __import__({module!r}, None, None, ('ROUTES',)).ROUTES[{key!r}]"
            "({params}){tail}\n"
        ).format(name=original.__name__, params=", ".join(names), module=__name__, key=label,
                 forward="for _item in" if kind else "return",
                 tail=": yield _item" if kind else "")
        namespace = {}
        exec(compile(source, _FILENAME, "exec"), namespace)
        code = namespace[original.__name__].__code__
    ROUTES[label] = replacement
    return code


_FILENAME = "<urllib_parse_backport shim>"
_KEY = "<label>"  # the placeholder constant of the templates below


# The code swap_code() gives a plain function of 1-8 parameters: a template of
# that many, renamed. compile() would build the same, but the first compile()
# of a process is expensive (docs/performance.rst, "Start-up switches"), and
# a start-up switch patches in every process of an interpreter that lacks a fix.
def _route1(a):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a)


def _route2(a, b):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b)


def _route3(a, b, c):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c)


def _route4(a, b, c, d):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c, d)


def _route5(a, b, c, d, e):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c, d, e)


def _route6(a, b, c, d, e, f):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c, d, e, f)


def _route7(a, b, c, d, e, f, g):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c, d, e, f, g)


def _route8(a, b, c, d, e, f, g, h):
    return __import__("urllib_parse_backport._shim._surgery", None, None,
                      ("ROUTES",)).ROUTES["<label>"](a, b, c, d, e, f, g, h)


_ROUTE_TEMPLATES = (None, _route1, _route2, _route3, _route4, _route5, _route6, _route7,
                    _route8)


def _routing_code(original, names, label):
    """A template's code named as *original*, with its parameters *names*, routing to
    *label*; None where no template fits (then swap_code compiles)."""
    if __name__ != "urllib_parse_backport._shim._surgery" or not 0 < len(names) < 9:
        return None  # a vendored copy under another name: the templates import this one
    template = _ROUTE_TEMPLATES[len(names)].__code__
    changes = {
        "co_varnames": tuple(names), "co_name": original.__name__, "co_filename": _FILENAME,
        "co_consts": tuple(label if value == _KEY else value for value in template.co_consts),
    }
    if hasattr(template, "co_qualname"):  # 3.11+: tracebacks print it
        changes["co_qualname"] = getattr(original, "__qualname__", original.__name__)
    return replace_code(template, **changes)


def rebind(replace, only=None, bind=None):
    """Rebind, in every loaded module but this package's (or in the modules
    named in *only*), each value ``v`` with ``replace[id(v)] == (v, new)`` to ``new``
    (``_cpython_security._rebind``; *bind* makes each change). Returns
    ``[(namespace, key, old, new, "module.key")]``.
    """
    return _shared_rebind(replace, only, _OWN_PACKAGE, bind)
