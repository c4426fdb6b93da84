"""A stock method's checked copy: the stock body with a fix's check written in.

Why: a replacement that checks, then calls the original, costs one more
Python call than the stock method, as much as the whole work of a small
setter. Where the class holds a stock body the fix package knows, the
replacement is instead a copy of that body with the check in it, compiled
with the fix package (patching compiles nothing).

What holds: a copy is used only where the class's own code is that of one
of the package's *twins*, the stock bodies written out in the package (same
bytecode, names, constants and argument shape on this interpreter; a twin's
docstring is :data:`DOC`, which matches any). A body a distributor edited,
or one someone already replaced, matches none and keeps the package's
wrapper. A copy runs in globals of its own: the stock module's names its
code reads (as they are at patch time), the stock builtins, and the helpers
the package gives; it keeps the original's name and defaults, and has no
closure (either would miss CPython's fast call path before 3.11).
"""

import types

__all__ = ["DOC", "same_code", "checked_copy"]

#: The docstring of a twin whose original has one (the original's is not compared).
DOC = "stock docstring"

_FIELDS = ("co_code", "co_names", "co_varnames", "co_argcount", "co_kwonlyargcount",
           "co_flags", "co_freevars", "co_cellvars")


def same_code(code, twin):
    """Whether *code* does what the twin's *twin* code does (line numbers, qualified
    names and a :data:`DOC` docstring aside), nested code objects included."""
    if not all(getattr(code, f, None) == getattr(twin, f, None) for f in _FIELDS):
        return False
    if len(code.co_consts) != len(twin.co_consts):
        return False
    for i, (a, b) in enumerate(zip(code.co_consts, twin.co_consts)):
        if i == 0 and b == DOC and isinstance(a, str):  # the original's docstring
            continue
        if isinstance(a, types.CodeType):
            if not (isinstance(b, types.CodeType) and same_code(a, b)):
                return False
        elif type(a) is not type(b) or (a != b and not _nested_names(a, b)):
            return False
    return True


def _nested_names(a, b):
    """Whether *a* and *b* are a comprehension's qualified names (before 3.11 a constant):
    ``Headers.get_all.<locals>.<listcomp>`` in the stock class, ``_Stock3.get_all...``
    in the twin's."""
    tail = ".<locals>.<listcomp>"
    return (isinstance(a, str) and isinstance(b, str) and a.endswith(tail)
            and a.split(".", 1)[-1] == b.split(".", 1)[-1])


def checked_copy(original, name, families, helpers):
    """The checked copy of *original* (the class's method *name*), or None where it is
    none of the stock bodies. *families*: ``(twins, copies)`` class pairs, each
    holding the stock body and its copy under *name*; *helpers*: the copy's extra
    globals by name."""
    code = getattr(original, "__code__", None)
    if code is None:
        return None
    for twins, copies in families:
        twin = vars(twins).get(name)
        if twin is not None and same_code(code, twin.__code__):
            stock = original.__globals__
            names = dict((n, stock[n]) for n in code.co_names if n in stock)
            names.update(helpers, __name__=stock["__name__"],
                         __builtins__=stock["__builtins__"])
            return types.FunctionType(vars(copies)[name].__code__, names, original.__name__,
                                      original.__defaults__)
    return None
