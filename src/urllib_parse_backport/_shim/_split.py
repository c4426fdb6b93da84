"""The ``urlsplit`` target: which of the four later fixes the stdlib's lacks, and its replacement.

Each fix is read off the interpreter's own ``urlsplit`` by behaviour
(``_cpython_security._probes.SPLIT_PROBES``), never by version, so a
distribution's backport is seen as what it is. The replacement is the
backport's ``urlsplit`` built from the interpreter's own pieces
(``_parse.split_family``), with each fix on where the interpreter already
has it or where it is needed and not left out, and off only where it is
needed and left out. It keeps results in a cache of its own, bounded as
the stdlib's (``MAX_CACHE_SIZE`` before 3.11, an ``lru_cache`` from 3.11),
which the stdlib's ``clear_cache()`` does not empty before 3.11.
``urlparse``, ``urljoin`` and ``urldefrag`` call ``urlsplit`` by its module
name, so they are fixed through it, aliases bound before the patch included.
"""

from _cpython_security._probes import SPLIT_PROBES
from _cpython_security._rows import fixes_of

from .._compat import STDLIB_MODULE
from .._parse import split_family
from .._report import failure
from ._state import state

__all__ = ["CVES", "NAME", "diagnose", "assess", "build", "plan"]

#: The target's name in reports and verdicts.
NAME = STDLIB_MODULE + ".urlsplit"

#: The fixes of ``urlsplit``, in registry order.
CVES = tuple(fix.cve for fix in fixes_of("urllib_parse_backport") if fix.cve in SPLIT_PROBES)

#: What each fix turns on in ``make_urlsplit``.
_SWITCHES = {"CVE-2023-24329": "strip", "CVE-2022-0391": "remove",
             "CVE-2024-11168": "hosts", "CVE-2025-0938": "netloc_rule"}


def diagnose(urlsplit):
    """``{CVE: True (lacks the fix), False (has it) or None (the probe failed)}``."""
    found = {}
    for cve in CVES:
        try:
            found[cve] = bool(SPLIT_PROBES[cve](urlsplit))
        except Exception:  # not a urlsplit the probes understand
            found[cve] = None
    return found


def plan(lacks, leave_out, force=False):
    """``{CVE: "apply", "native" or "left out"}`` from :func:`diagnose`'s *lacks*:
    *force* applies the fixes the interpreter has too (the result is the same)."""
    decided = {}
    for cve in CVES:
        if cve in leave_out and lacks[cve]:
            decided[cve] = "left out"
        elif lacks[cve] or (force and cve not in leave_out):
            decided[cve] = "apply"
        else:
            decided[cve] = "native"
    return decided


def assess(module, verdicts):
    """The Target's verdict: whether the stdlib's ``urlsplit`` needs a replacement."""
    original = module.urlsplit
    lacks = state.split_lacks = diagnose(original)
    if None in lacks.values():
        return False, failure("unrecognised urlsplit: a probe failed")
    decided = plan(lacks, state.leave_out)
    state.split_plan = decided
    if "apply" in decided.values():
        return True, "lacks %s" % ", ".join(cve for cve in CVES if decided[cve] == "apply")
    if "left out" in decided.values():
        return False, "left out: %s" % ", ".join(
            cve for cve in CVES if decided[cve] == "left out")
    return False, "already fixed: %s" % ", ".join(CVES)


def build(original, backport=None):
    """The replacement of *original* (the stdlib's ``urlsplit``) for ``state.split_plan``.

    It keeps results in a cache of its own (before 3.11 a dict, from 3.11 an
    ``lru_cache``), never the stdlib's: a thread inside the original when
    ``patch()`` runs stores its unfixed result in the stdlib's cache after
    ``patch()`` emptied it, and nothing may serve that result. Built from the
    module *original* runs in (``split_family.own``), so a module imported
    anew gets its own ``SplitResult``."""
    decided = state.split_plan
    if decided is None or "apply" not in decided.values():  # patch(force=True) on a fixed one
        decided = state.split_plan = plan(state.split_lacks or diagnose(original),
                                          state.leave_out, force=True)
    switches = dict((_SWITCHES[cve], decided[cve] != "left out") for cve in CVES)
    replacement = split_family.make_urlsplit(original=original, **switches)
    replacement.__module__ = original.__module__  # pickled by name, as the original
    replacement.__qualname__ = "urlsplit"
    return replacement
