"""What the ``.pth`` line runs: the start-up switches, put off until they can matter.

Why: a start-up variable set in a Docker ``ENV`` line reaches every Python
process of the image, most of which never import a module any fix is for.
Here start-up reads only the generated table (``_table``, written by
``tools/make_pth.py`` from the registry's rows) and puts one post-import hook
on the modules it names; the switches (``_startup``) load at the first import
of one of them, which runs the switches of the packages that watch it as they
would have run at start-up, reading those packages' rows alone. The other
packages wait, on the same hook, for a module of theirs. So what a process
with the variable set pays before it imports a watched module, and what that
import costs, do not grow with the number of fixes (docs/performance.rst).

``_startup`` runs at once instead, as before, whenever what start-up must
say or do cannot wait: a value the table does not know (its line is printed
now), a skip list naming something else than a fix or package, a variable
whose presence alone runs a switch (``also_variables``), or a watched module
already imported.
"""

import os
import sys

from ._table import ALSO_VARIABLES, MODULE_PACKAGES, SKIP_NAMES, SWITCH_VARIABLES, UNDERSTOOD
from ._table import WATCHED

__all__ = ["from_pth_env"]

#: Whether the ``.pth`` line has run in this process (``site`` may read it twice), the
#: hook waiting for watched imports, and the packages whose switches it has started.
_STATE = {"ran": False, "hook": None, "started": set()}


def from_pth_env():
    """What the distribution's one ``.pth`` line calls when a start-up variable is set.
    Once per process; never raises (a failure prints one line)."""
    if _STATE["ran"]:
        return
    _STATE["ran"] = True
    try:
        environ = os.environ
        if not _understood(environ) or any(name in sys.modules for name in WATCHED):
            _start()
            return
        from ._import_hook import PostImportHook
        _STATE["hook"] = PostImportHook(WATCHED, _first_import)
        _STATE["hook"].install()
    except Exception as exc:
        sys.stderr.write("cpython_security: start-up activation failed: %s: %s\n"
                         % (type(exc).__name__, exc))


def _understood(environ):
    """Whether every start-up variable set in *environ* holds a value the table knows,
    written as the table writes it (anything else: ``_startup`` words it now)."""
    for variable, values in UNDERSTOOD.items():
        value = environ.get(variable)
        if value is not None and value.lower() not in values:
            return False
    if any(name in environ for name in ALSO_VARIABLES):
        return False
    skip = environ.get("CPYTHON_SECURITY_SKIP")
    if skip is not None:
        names = [name.strip() for name in skip.split(",")]
        if any(name not in SKIP_NAMES and name.upper() not in SKIP_NAMES
               for name in names if name):
            return False
    return True


def _first_import(name):
    """A watched module has been imported: start the switches of the packages that
    watch it, not started yet; the hook goes once every package has started."""
    started = _STATE["started"]
    packages = [package for package in MODULE_PACKAGES.get(name, ())
                if package not in started]
    started.update(packages)
    if len(started) == len(SWITCH_VARIABLES):  # every package
        hook, _STATE["hook"] = _STATE["hook"], None
        if hook is not None:
            hook.uninstall()
    if packages:
        _start(packages)


def _start(packages=None):
    """Every switch now (*packages* None), or the switches of *packages*."""
    try:
        from . import _startup  # the switches: loaded only now
        if packages is None:
            _startup.from_pth_env()
        else:
            _startup.from_pth_packages(packages)
    except Exception as exc:
        sys.stderr.write("cpython_security: start-up activation failed: %s: %s\n"
                         % (type(exc).__name__, exc))
