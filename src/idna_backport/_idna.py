"""The fix: IDNA decoding in linear time (CVE-2022-45061, gh-98433).

Before gh-98433 the ``idna`` codec's ``nameprep`` re-ran the bidi check
(RFC 3454 section 6: no LCat character beside a RandALCat one) over the
whole label once for every RandALCat character in it, so ``ToASCII`` and
``ToUnicode`` cost O(n**2) in a label of right-to-left characters: a
``b'xn--016c' + b'a' * 3000`` host name, which punycode decodes to
right-to-left letters, takes seconds to refuse. gh-98433 (pull request
gh-99092, in 3.12) made two changes:

* ``nameprep`` runs the bidi checks once, ``if any(RandAL)`` (the one
  change the backports, gh-99222 to gh-99232, carried to 3.7-3.11): the same
  results and the same errors, as the unfixed loop repeated checks that
  had already passed;
* ``ToUnicode`` refuses a label longer than 1024 characters before any
  nameprep or punycode work, ``UnicodeError("label way too long")``
  (3.12 only; 3.13 raises ``UnicodeDecodeError`` with the same reason).
  No label that long can pass step 6's 63-octet limit unless most of it
  is characters nameprep maps to nothing; the punycode decoder itself is
  still quadratic in a label of thousands of characters.

The codec reaches both through the module's globals at call time
(``Codec.decode`` and ``IncrementalDecoder`` call ``ToUnicode``,
``Codec.encode`` and ``IncrementalEncoder`` call ``ToASCII``, which calls
``nameprep``): binding the two module-level names is all the codec
registry's cached ``CodecInfo`` needs. The replacement ``ToUnicode`` checks
the length and calls the original; ``nameprep`` is the fixed loop itself,
as the unfixed loop cannot be called without its quadratic part.
"""

import stringprep
import types
from unicodedata import ucd_3_2_0 as unicodedata

__all__ = ["needs_fix", "replacements", "summary", "LABEL_LIMIT"]

#: gh-98433's bound on a label given to ``ToUnicode``, in characters (or octets).
LABEL_LIMIT = 1024

#: Right-to-left letters (Hebrew alef, bet, gimel): what the probe counts
#: the bidi checks of.
_RTL_PROBE = u"\u05d0\u05d1\u05d2"


def nameprep(label):
    """RFC 3491 Nameprep of *label* (AllowUnassigned), as fixed CPython's ``encodings.idna``.

    Maps (table B.1 to nothing, B.2 case folding), normalises (NFKC), then
    refuses prohibited characters (tables C.1.2-C.9) and checks the bidi
    rules once when the label holds a RandALCat character (gh-98433): none
    of table D.2 (LCat), and RandALCat first and last. The same calls in
    the same order as the stock function, so the same result and the same
    errors, on 2.7 (unicode in, unicode out) as on 3.x.
    """
    newlabel = []
    for c in label:
        if stringprep.in_table_b1(c):
            continue
        newlabel.append(stringprep.map_table_b2(c))
    label = u"".join(newlabel)

    label = unicodedata.normalize("NFKC", label)

    for c in label:
        if stringprep.in_table_c12(c) or \
           stringprep.in_table_c22(c) or \
           stringprep.in_table_c3(c) or \
           stringprep.in_table_c4(c) or \
           stringprep.in_table_c5(c) or \
           stringprep.in_table_c6(c) or \
           stringprep.in_table_c7(c) or \
           stringprep.in_table_c8(c) or \
           stringprep.in_table_c9(c):
            raise UnicodeError("Invalid character %r" % c)

    RandAL = [stringprep.in_table_d1(x) for x in label]
    if any(RandAL):
        # gh-98433: once per label, not once per RandALCat character.
        if any(stringprep.in_table_d2(x) for x in label):
            raise UnicodeError("Violation of BIDI requirement 2")
        if not RandAL[0] or not RandAL[-1]:
            raise UnicodeError("Violation of BIDI requirement 3")

    return label


class _CountingStringprep(object):
    """``stringprep``, counting the calls of ``in_table_d2`` (the bidi check)."""

    def __init__(self):
        self.d2_calls = 0

    def __getattr__(self, name):
        return getattr(stringprep, name)

    def in_table_d2(self, code):
        self.d2_calls += 1
        return stringprep.in_table_d2(code)


def _bidi_check_quadratic(module):
    """Whether the module's ``nameprep`` checks the bidi rules once per RandALCat character.

    Runs a throw-away copy of the function, its globals a copy of the
    module's with a counting ``stringprep``, on three right-to-left
    letters: the fixed check looks at each character once (3 calls), the
    unfixed loop three times (9). The module is not touched."""
    original = module.__dict__["nameprep"]
    counter = _CountingStringprep()
    namespace = dict(original.__globals__)
    namespace["stringprep"] = counter
    probe = types.FunctionType(original.__code__, namespace, original.__name__,
                               original.__defaults__, original.__closure__)
    probe(_RTL_PROBE)
    return counter.d2_calls > len(_RTL_PROBE)


def _label_unbounded(module):
    """Whether the module's ``ToUnicode`` accepts a label over gh-98433's 1024 characters.

    A label of 1025 ``a`` has no ACE prefix: the unfixed function returns
    it as text at once, the fixed one raises."""
    try:
        module.__dict__["ToUnicode"]("a" * (LABEL_LIMIT + 1))
    except UnicodeError:
        return False
    return True


def needs_fix(module):
    """Whether ``encodings.idna`` (*module*) lacks either half of gh-98433.

    False where the module has no ``nameprep``/``ToUnicode`` to fix."""
    names = vars(module)
    if not (isinstance(names.get("nameprep"), types.FunctionType)
            and isinstance(names.get("ToUnicode"), types.FunctionType)):
        return False
    return _bidi_check_quadratic(module) or _label_unbounded(module)


def summary(module, bound=()):
    """The check's words for the half of gh-98433 the stock *module* lacks, or None.

    Why: 3.7-3.11 carry the linear ``nameprep`` (gh-99222 to gh-99232) and
    lack only the label bound, so "quadratic in right-to-left characters"
    would describe a flaw they do not have. *bound*: the names a patch bound
    in the module (``nameprep`` only where the stock one is quadratic),
    whose stock code the probes can no longer see."""
    if bound:
        quadratic = "encodings.idna.nameprep" in bound
        unbounded = True
    else:
        names = vars(module) if module is not None else {}
        if not isinstance(names.get("nameprep"), types.FunctionType):
            return None
        quadratic, unbounded = _bidi_check_quadratic(module), _label_unbounded(module)
    if quadratic:
        return ("IDNA decoding quadratic in a label of right-to-left characters "
                "(CPU exhaustion)")
    if unbounded:
        return ("IDNA labels of any length decoded, punycode quadratic in the label's "
                "length (CPU exhaustion)")
    return None


def _like(function, original):
    """*function*'s code under *original*'s name, docstring and qualified name."""
    copy = types.FunctionType(function.__code__, function.__globals__, original.__name__,
                              function.__defaults__, function.__closure__)
    copy.__doc__ = original.__doc__
    if hasattr(original, "__qualname__"):
        copy.__qualname__ = original.__qualname__
    copy.__module__ = original.__module__
    return copy


def _bounded(original, checks_itself):
    """``ToUnicode`` with gh-98433's length check in front of *original*.

    Where *original* has the check itself (``patch(force=True)`` on 3.12+),
    a long label goes to it, so its own exception (3.13's
    ``UnicodeDecodeError``) is the one raised: the same at the same cost."""
    def ToUnicode(label):
        if len(label) > LABEL_LIMIT and not checks_itself:
            # gh-98433: no nameprep or punycode work on a label this long.
            raise UnicodeError("label way too long")
        return original(label)
    return _like(ToUnicode, original)


def replacements(module):
    """``{name: new function}`` for ``encodings.idna``.

    ``ToUnicode`` always (the length check, then the original read now);
    ``nameprep`` where the stock one is the quadratic loop: the fixed loop,
    under the original's name and docstring. A linear ``nameprep`` is left
    as it is, so its own messages (3.13's positions) stay."""
    names = vars(module)
    new = {"ToUnicode": _bounded(names["ToUnicode"], not _label_unbounded(module))}
    if _bidi_check_quadratic(module):
        new["nameprep"] = _like(nameprep, names["nameprep"])
    return new
