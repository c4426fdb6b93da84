"""Shared data for the ctypes_safe tests: the value set, the golden reprs, fresh interpreters.

The golden file ``ctypes_helpers_golden.json`` holds, for every case whose repr
has no address in it, the repr printed by a fixed CPython's own ``PyCArg_repr``
(bpo-42938). Regenerate it with a fixed interpreter (3.6.13+)::

    cd tests/test_ctypes_safe
    PYTHONPATH=../../src python3.13 ctypes_helpers.py > ctypes_helpers_golden.json
"""

from __future__ import print_function

import ctypes
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.join(os.path.dirname(HERE), "helpers") not in sys.path:
    # A scenario script of this directory has only this directory on sys.path.
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "helpers"))

import child_scripts  # noqa: E402
from child_scripts import run_scenario  # noqa: E402,F401  (the scripts' main)

PY2 = sys.version_info[0] == 2

FIXED = sys.version_info >= (3, 6)  # every 3.x this project tests is a post-fix build

MAX_DOUBLE = 1.7976931348623157e308
DENORMALS = [5e-324, -5e-324, 2.2250738585072009e-308]  # smallest, its negative, largest subnormal

FLOATS = [0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 1e-7, 1e16, 1e300, -1e300, 1e233, -1e232,
          1.0000000000000002e+233, -9.999999999999999e+231, MAX_DOUBLE, -MAX_DOUBLE,
          3.4028234663852886e38, 3.5e38, 1e-45, float("inf"), float("-inf"), float("nan")]
FLOATS += DENORMALS

INTEGER_TYPES = ["c_byte", "c_ubyte", "c_short", "c_ushort", "c_int", "c_uint", "c_long",
                 "c_ulong", "c_longlong", "c_ulonglong", "c_size_t", "c_ssize_t"]


def _integers(name):
    bits = 8 * ctypes.sizeof(getattr(ctypes, name))
    values = {0, 1, -1, 200, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63 - 1}
    values |= {2 ** (bits - 1) - 1, 2 ** (bits - 1), -2 ** (bits - 1), -2 ** (bits - 1) - 1,
               2 ** bits - 1, 2 ** bits}
    return sorted(values)


def cases():
    """Return ``[(type name, kind, raw)]``: every (type, value) the fidelity tests cover."""
    found = []
    for name in INTEGER_TYPES:
        found += [(name, "int", n) for n in _integers(name)]
    for name in ("c_float", "c_double", "c_longdouble"):
        found += [(name, "float", x.hex()) for x in FLOATS]
        found += [(name, "int", n) for n in (0, 1, -1, 2 ** 63, 10 ** 300)]
    found += [("c_char", "byte", i) for i in range(256)]
    found += [("c_char", "int", i) for i in (0, 39, 92, 97, 127, 128, 255)]
    found += [("c_bool", "int", n) for n in (0, 1, 2)] + [("c_bool", "bool", b) for b in (0, 1)]
    found += [("c_wchar", "text", t) for t in ("a", "\x00", "\u20ac")]
    found += [("c_void_p", "int", n) for n in (0, 1, 0x12, 0xABCDEF, 2 ** 63, 2 ** 64 - 1, -1)]
    found += [("c_void_p", "bytes", "xy"), ("c_void_p", "none", None)]
    found += [("c_char_p", "bytes", b) for b in ("hihi", "")] + [("c_char_p", "none", None)]
    found += [("c_wchar_p", "text", t) for t in ("hihi", "")] + [("c_wchar_p", "none", None)]
    return found


def value(kind, raw):
    """Build the Python value of a case, the same on Python 2 and 3."""
    if kind == "int":
        return raw
    if kind == "float":
        return float.fromhex(raw)
    if kind == "bool":
        return bool(raw)
    if kind == "byte":
        return chr(raw) if PY2 else bytes([raw])
    if kind == "bytes":
        return raw.encode("ascii")
    if kind == "text":
        return raw.encode("ascii").decode("unicode_escape") if PY2 else raw
    return None


def key(name, kind, raw):
    return "%s %s %s" % (name, kind, raw)


def golden():
    """The stored reprs, keyed by ``key()``."""
    path = os.path.join(HERE, "ctypes_helpers_golden.json")
    with open(path) as handle:
        return json.load(handle)["reprs"]


def disable_slot_mode(reason="slot mode disabled by the test"):
    """Make slot mode's check fail, so ``patch()`` falls back to converter mode; return the undo.

    The one private name the tests touch (``ctypes_safe._slot.locate``, the
    single entry point of the check): it stands for an interpreter whose
    ``CArgObject`` type object cannot be verified.
    """
    from ctypes_safe import _slot
    original = _slot.locate

    def locate():
        raise _slot.SlotCheckFailed(reason)

    _slot.locate = locate

    def undo():
        _slot.locate = original

    return undo


def child(args, environ=None, module=None, script="ctypes_helpers_child.py", timeout=None):
    """:func:`child_scripts.child` of *script*, a scenario file of this directory."""
    return child_scripts.child(os.path.join(HERE, script), args, environ, module, timeout)


def child_json(args, environ=None, script="ctypes_helpers_child.py", timeout=None):
    """:func:`child_scripts.child_json` of *script*, a scenario file of this directory."""
    return child_scripts.child_json(os.path.join(HERE, script), args, environ, timeout)


def _generate():
    assert FIXED, "generate the golden reprs with a fixed interpreter"
    reprs = {}
    for name, kind, raw in cases():
        try:
            text = repr(getattr(ctypes, name).from_param(value(kind, raw)))
        except Exception:
            continue
        if " at 0x" in text or text[8:11] in ("'z'", "'Z'") or text == "None":
            continue  # addresses differ per run; compared live instead
        reprs[key(name, kind, raw)] = text
    document = {
        "generated_by": "tests/test_ctypes_safe/ctypes_helpers.py with CPython %s (%s)" % (
            sys.version.split()[0], sys.platform),
        "reprs": reprs,
    }
    print(json.dumps(document, indent=1, sort_keys=True))


if __name__ == "__main__":
    _generate()
