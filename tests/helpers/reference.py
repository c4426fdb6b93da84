"""The reference interpreter, Debian 12's ``python3.11``, and which fixes it carries.

Why probed: Debian's security updates backport upstream fixes into its
3.11.2 (3.11.2-6+deb12u7 added gh-143919's cookie checks and gh-143916's
header checks, among others), so what the reference carries is measured,
never assumed from its version: each fix's own behaviour probe (its
registry row's, the one the start-up switch asks) runs inside it. A test that
needs the reference to lack a fix, or to carry it, asks :func:`lacks` first.
"""

import json
import os
import subprocess

import pytest

__all__ = ["REFERENCE", "lacks", "unusable", "needs", "skip_unless"]

#: Debian 12's python3.11 (3.11.2 with Debian's backports of upstream fixes).
REFERENCE = "/usr/bin/python3.11"

#: Run by the reference: the installed registry and packages (their directory
#: appended to sys.path, after the reference's stdlib), then each fix's probes on
#: the reference's own stdlib modules.
_PROBE = """
import json, os, sys
sys.path.append(sys.argv[1])
from _cpython_security._registry import FIXES
found = {}
for fix in FIXES:
    lacks = []
    for name, probe in sorted(fix.probes.items()):
        if name in fix.copies:
            continue  # python-future's copy: not the reference's own (3.11: re.error)
        try:
            module = __import__(name, None, None, ("_",))
        except ImportError:
            continue
        if os.path.abspath(module.__file__).startswith(sys.argv[1]):
            continue  # python-future's copy, a framework: not the reference's own
        lacks.append(bool(probe(module)))
    found[fix.cve] = any(lacks) if lacks else None
print(json.dumps(found))
"""

_FOUND = {}


def lacks(cve):
    """Whether the reference lacks the fix *cve* (a registry row's ``cve``), as that
    fix's behaviour probe finds inside it; None where it has no module the fix is for."""
    if not _FOUND:
        import _cpython_security
        site = os.path.dirname(os.path.dirname(os.path.abspath(_cpython_security.__file__)))
        out = subprocess.check_output([REFERENCE, "-I", "-c", _PROBE, site])
        _FOUND.update(json.loads(out.decode("ascii")))
    return _FOUND[cve]


def unusable(carrying=(), lacking=()):
    """Why the reference cannot serve a test that needs it to carry the fixes
    *carrying* and lack those *lacking* (CVEs, as the registry names them), or None."""
    if not os.path.exists(REFERENCE):
        return "no reference interpreter (%s)" % REFERENCE
    carried = [cve for cve in lacking if not lacks(cve)]
    missing = [cve for cve in carrying if lacks(cve)]
    if carried or missing:
        return "the reference %s" % "; ".join(
            ["carries " + ", ".join(carried)] * bool(carried) +
            ["lacks " + ", ".join(missing)] * bool(missing))
    return None


def needs(carrying=(), lacking=()):
    """A mark that skips a test the reference cannot serve (:func:`unusable`)."""
    reason = unusable(carrying, lacking)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def skip_unless(carrying=(), lacking=()):
    """Skip the calling test or fixture where the reference cannot serve it."""
    reason = unusable(carrying, lacking)
    if reason is not None:
        pytest.skip(reason)
