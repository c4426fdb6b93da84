"""A stock method's checked copy: the stock body with a fix's check written in.

Why: a replacement that checks, then calls the original, costs one more
Python call than the stock method, as much as the whole work of a small
setter. Where the class holds a stock body the fix package knows, the
replacement is instead a copy of that body with the check in it, compiled
with the fix package (patching compiles nothing; tarfile_backport's 3.x twins
of ``_proc_pax``, whose syntax Python 2 cannot read, are its one exception).

What holds: a copy is used only where the class's own code is that of one
of the package's *twins*, the stock bodies written out in the package (same
bytecode, names, constants and argument shape on this interpreter; a twin's
docstring is :data:`DOC`, which matches any). A body a distributor edited,
or one someone already replaced, matches none and keeps the package's
wrapper. A copy runs in the stock module's own namespace, as the original
does: each name of the stock body (``CookieError``, ``_is_legal_key``,
``_formatparam``) is read at each call, so a name rebound after ``patch()``
is honoured, and one overridden only while ``patch()`` ran (a test's
``mock.patch``) is not kept once the override is undone. The helpers the
package gives (``_PLAIN``, ``_REFUSE``, ...) are no names of that module
(nothing is added to it): each load of one in the copy's code is a load of
the helper itself as a constant, the same size in the bytecode, so jumps
and line tables hold (:func:`constant_loads`; on 3.11+ the global's inline
caches become ``NOP``). The copy's per-call cost stays that of a copy in
globals of its own: a constant's load is no dearer than a global's (on
3.11+ the ``NOP`` add a few nanoseconds, within the noise of a 250 ns
setter). It keeps the original's name and defaults, and has no closure
(either would miss CPython's fast call path before 3.11).
"""

import dis
import sys
import types

__all__ = ["DOC", "same_code", "checked_copy", "constant_loads"]

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
    names, each loaded as a constant (:func:`constant_loads`)."""
    code = getattr(original, "__code__", None)
    if code is None:
        return None
    for twins, copies in families:
        twin = vars(twins).get(name)
        if twin is not None and same_code(code, twin.__code__):
            body = constant_loads(vars(copies)[name].__code__, helpers)
            if body is None:  # no interpreter the package supports
                return None
            return types.FunctionType(body, original.__globals__, original.__name__,
                                      original.__defaults__)
    return None


# How a global's load is written in the bytecode, and what loads a constant in its
# place, in the same number of bytes. Python 2/3 and 3.11+: the one block.
_LOAD_GLOBAL, _LOAD_CONST = dis.opmap["LOAD_GLOBAL"], dis.opmap["LOAD_CONST"]
_NOP, _EXTENDED_ARG = dis.opmap["NOP"], dis.opmap["EXTENDED_ARG"]
_PUSH_NULL, _CACHE = dis.opmap.get("PUSH_NULL"), dis.opmap.get("CACHE")  # 3.11+
if sys.version_info < (3, 6):  # 2.7: an opcode, then a 2-byte argument
    _UNIT, _WIDE = 1, 3

    def _code(code, co_code, consts):
        return types.CodeType(
            code.co_argcount, code.co_nlocals, code.co_stacksize, code.co_flags, co_code,
            consts, code.co_names, code.co_varnames, code.co_filename, code.co_name,
            code.co_firstlineno, code.co_lnotab, code.co_freevars, code.co_cellvars)
else:  # 3.6+: 2-byte units (wordcode); 3.11+ a global's load is followed by its caches
    _UNIT, _WIDE = 2, 2
    if hasattr(types.CodeType, "replace"):  # 3.8+
        def _code(code, co_code, consts):
            return code.replace(co_code=co_code, co_consts=consts)
    else:  # 3.6, 3.7
        def _code(code, co_code, consts):
            return types.CodeType(
                code.co_argcount, code.co_kwonlyargcount, code.co_nlocals,
                code.co_stacksize, code.co_flags, co_code, consts, code.co_names,
                code.co_varnames, code.co_filename, code.co_name, code.co_firstlineno,
                code.co_lnotab, code.co_freevars, code.co_cellvars)
#: 3.11+: LOAD_GLOBAL's argument is the name's index times 2, plus 1 where it also
#: pushes the NULL a call needs: before the global on 3.11 and 3.12, after it on 3.13
#: (whose CALL takes the callable, then self or NULL).
_NULL_AFTER = sys.version_info >= (3, 13)


def constant_loads(code, helpers):
    """*code* with each load of a global named in *helpers* a load of that helper as a
    constant (added to ``co_consts``), nested code aside (a copy's comprehensions use
    no helper); None where one cannot be written in the same bytes."""
    raw = bytearray(code.co_code)
    consts = list(code.co_consts)
    i, n, extended = 0, len(raw), False
    while i < n:
        op = raw[i]
        if _UNIT == 1 and op < dis.HAVE_ARGUMENT:
            i, extended = i + 1, False
            continue
        start, i, wide = i, i + _WIDE, extended
        extended = op == _EXTENDED_ARG
        if op != _LOAD_GLOBAL:
            continue
        arg = raw[start + 1] | (raw[start + 2] << 8 if _UNIT == 1 else 0)
        name, null = code.co_names[arg >> 1 if _PUSH_NULL else arg], _PUSH_NULL and arg & 1
        if name not in helpers:
            continue
        try:  # a code object hashes its constants: it must stay hashable (sets of code)
            hash(helpers[name])
        except TypeError:
            return None
        while _CACHE is not None and i < n and raw[i] == _CACHE:
            i += _UNIT  # 3.11+: the load's inline caches, zeros in co_code
        ops = [(_LOAD_CONST, len(consts))]
        consts.append(helpers[name])
        if null:
            ops.insert(1 if _NULL_AFTER else 0, (_PUSH_NULL, 0))
        ops += [(_NOP, 0)] * ((i - start) // _WIDE - len(ops))
        if wide or len(consts) > 256 or len(ops) * _WIDE != i - start:
            return None
        for at, (new_op, new_arg) in zip(range(start, i, _WIDE), ops):
            raw[at:at + _WIDE] = bytearray([new_op, new_arg, 0][:_WIDE])
    return _code(code, bytes(raw), tuple(consts))
