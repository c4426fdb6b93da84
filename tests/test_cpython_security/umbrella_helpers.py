"""What the umbrella API's tests share: a fresh process's state, and the check's verdict.

The verdict is ``cpython-security-check --json`` run in a fresh interpreter
with the same environment: its dict of every package's ``status()``, read
per fix (a package with several fixes reports each under ``"fixes"``).
"""

import json
import os
import sys

from fresh_interpreter import run, run_code, run_once, without_future  # noqa: F401
from internals import shared_registry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")

#: Every stdlib module a fix is for, by the registry's probes (the child imports
#: those this interpreter ships).
MODULES = sorted(set(name for fix in shared_registry.FIXES for name in fix.probes
                     if not name.startswith("future.")))

#: What a child prints: every package's verdict per fix, whether it is patched, and
#: ``cpython_security.exposed()``.
STATE = """
import json, sys
import cpython_security
%(middle)s
def state():
    found = {}
    for fix in FIXES:
        __import__(fix.package)
        info = sys.modules[fix.package].status()
        found[fix.cve] = [fix.package, bool(info["patched"]),
                          info.get("fixes", {}).get(fix.cve, info)["exposed"]]
    return found
print(json.dumps({"state": state(),
                  "exposed": [record.as_dict() for record in cpython_security.exposed()]}))
"""

IMPORT = """
for name in %r:
    try:
        __import__(name)
    except ImportError:
        pass
"""


def child_state(middle="", **environ):
    """``{"state": {fix: [package, patched, exposed]}, "exposed": [records]}`` of a
    fresh process that imports ``cpython_security``, runs *middle*, then reports."""
    code = ("from _cpython_security._registry import FIXES\n"  # the child's registry
            + STATE % {"middle": middle})
    environ.setdefault("PYTHONPATH", without_future())
    rc, out, err = run_once(["-c", code], **environ)
    assert rc == 0, err
    return json.loads(out.strip().splitlines()[-1])


def imports(names):
    """Code that imports each of *names* this interpreter ships."""
    return IMPORT % (list(names),)


def check_exposed(**environ):
    """The fix ids ``cpython-security-check`` reports exposed, with *environ*, in
    registry order."""
    environ.setdefault("PYTHONPATH", without_future())
    rc, out, err = run_once([SCRIPT, "--json"], **environ)
    found = json.loads(out)
    assert rc == (1 if found["exposed"] else 0), err
    return [fix.cve for fix in shared_registry.FIXES
            if found[fix.package].get("fixes", {}).get(fix.cve, found[fix.package])["exposed"]]
