"""What the check found for one fix in this process: a kind, and the words that go with it.

Why a module of its own: ``cpython-security-check``'s text (``_check``) and
its VEX documents (``_vex``) are rendered from the same verdicts, so a fix's
status cannot differ between the two for the same environment.
"""

import sys

from ._probes import SPLIT_PROBES
from ._selfcheck import BROKEN

__all__ = ["CARRIED", "ABSENT", "APPLIED", "EXPOSED", "SKIPPED", "BROKEN", "Verdict"]

#: This interpreter's own code has the fix (its behaviour probe finds it).
CARRIED = "carried"
#: This interpreter has no module the fix is for (2.7's ``ipaddress``).
ABSENT = "absent"
#: This interpreter lacks the fix, and it is in effect in this process.
APPLIED = "applied"
#: Lacking and not in effect: no switch is set, or one that leaves it out.
EXPOSED = "exposed"
#: Lacking and not in effect: ``CPYTHON_SECURITY_SKIP`` leaves it out.
SKIPPED = "skipped"
#: BROKEN (``_selfcheck``'s): its package cannot be imported or checked, so it
#: counts as exposed.


class Verdict(object):
    """What the check found for one *fix* in this process: its *kind*, the *action*
    that fixes it where exposed (the check's hint), and where applied the *switch*
    (``"VARIABLE=value"``) that applied it; *info* is its package's ``status()``."""

    def __init__(self, fix, kind, info, action=None, switch=None):
        self.fix, self.kind, self.info, self.action, self.switch = fix, kind, info, action, switch

    @property
    def exposed(self):
        return self.kind in (EXPOSED, SKIPPED, BROKEN)

    @property
    def lacks(self):
        """Whether this interpreter's own code lacks the fix (as its probe found)."""
        each = self.info.get("fixes", {}).get(self.fix.cve, self.info)
        return bool(each["lacks"] if "lacks" in each else each.get("vulnerable", True))

    @property
    def version(self):
        """The version of the package that carries the fix."""
        from ._version import __version__
        return self.info.get("version", __version__)

    @property
    def target(self):
        """The stdlib names the fix replaces in this interpreter."""
        each = self.info.get("fixes", {}).get(self.fix.cve, {})
        return each.get("target") or ", ".join(self.fix.replaces) or self.fix.module

    @property
    def summary(self):
        """The fix's summary in this interpreter's words (the row's ``summary_of``)."""
        if self.fix.summary_of is not None:
            bound = (self.info.get("report") or {}).get("changed") or ()
            try:
                words = self.fix.summary_of(sys.modules.get(self.module), bound)
            except Exception:  # words are no verdict: the row's own then
                words = None
            if words:
                return words
        return self.fix.summary

    @property
    def module(self):
        """The stdlib module the fix is for (python-future's copy is another product)."""
        return self.fix.module or min(name for name in self.fix.probes
                                      if not name.startswith("future."))

    @property
    def probe(self):
        """The behaviour probes that tell whether this interpreter lacks the fix, by name."""
        if self.fix.fix:
            return self.fix.fix + ".needs_fix"
        # python-future's copy of a module is another product than the interpreter.
        probes = [SPLIT_PROBES.get(self.fix.cve, probe) for name, probe in
                  sorted(self.fix.probes.items()) if not name.startswith("future.")]
        return ", ".join("%s.%s" % (probe.__module__, probe.__name__) for probe in probes)
