"""The umbrella in code: what ``CPYTHON_SECURITY_PATCH=1`` does, and what the check says.

Why: where no variable reaches the interpreter at start-up (gunicorn's
``post_fork``, uWSGI with ``no-site``, a test, a frozen application), one
call must do what the switch does for every fix of the registry, and a
health check must ask every fix, not the few a sample happened to name.
Both are the shared engine's own code (``_cpython_security``): :func:`patch`
runs the start-up switches (``_startup.from_pth_all``) as the ``.pth`` line
runs them with ``CPYTHON_SECURITY_PATCH=1``; :func:`exposed` reads the
verdict ``cpython-security-check`` prints (``_check.collect``), in this
process.
"""

import collections
import os

from _cpython_security._version import __version__

__all__ = ["patch", "exposed", "Exposed", "__version__"]


class Exposed(collections.namedtuple("Exposed", "fix package module issue")):
    """One fix this process is exposed to: *fix*, its id (the CVE, or the upstream
    issue where there is none); *package*, the fix package that applies it;
    *module*, the stdlib module it is for; *issue*, the upstream issue.
    ``as_dict()`` gives the four as a plain dict, for JSON."""

    __slots__ = ()

    def as_dict(self):
        """The record as ``{"fix", "package", "module", "issue"}``."""
        return dict(zip(self._fields, self))


def patch():
    """Do now, in code, what ``CPYTHON_SECURITY_PATCH=1`` does at start-up.

    Every package's switch runs as the umbrella runs it: each fix is applied
    to the modules already imported where a probe of their behaviour says
    this interpreter lacks it, and to the rest when they are imported; the
    query-string fix includes the framework adapters. ``CPYTHON_SECURITY_SKIP``
    leaves fixes out and a package's own variable, when set, decides for its
    package, read from ``os.environ`` now, as start-up reads them. A switch
    runs once per process: a second call, or a call in a process whose
    start-up already ran that switch (the variable was set), changes
    nothing more. Never raises: as at start-up, a problem prints one line on
    stderr. Returns None; :func:`exposed` says what is still open.
    """
    from _cpython_security import _startup  # the registry and switches: only when called
    environ = dict(os.environ)
    environ[_startup.UMBRELLA.variable] = "1"
    _startup.from_pth_all(environ)


def exposed():
    """Every fix this process is exposed to, as :class:`Exposed` records in the
    registry's order: what ``cpython-security-check`` reports EXPOSED, computed
    here (its imports, its patches, its environment). A fix package that cannot
    be imported or checked counts as exposed, as in the check. Empty: safe.
    """
    from _cpython_security import _check
    return [Exposed(fix.cve, fix.package, fix.module or min(fix.probes, key=len), fix.issue)
            for fix in _check.exposed_fixes(_check.collect())]
