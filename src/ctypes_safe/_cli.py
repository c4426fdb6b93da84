"""``python -m ctypes_safe``: is this process exposed to CVE-2021-3177 (bpo-42938)?

Prints whether ctypes' own parameter repr is the unfixed one, whether the fix
is active in this process and in which mode, and the verdict. Exit status 0
when safe, 1 when exposed, 2 on a usage error. ``--json`` prints
:func:`status` as JSON; ``--probe`` also reprs an overflowing value, in a
child interpreter only.
"""

import sys

from _cpython_security._selfcheck import EXIT_EXPOSED, EXIT_SAFE, misspelt, main as run_selfcheck

from ._api import status
from ._startup import ACCEPTED, choice

__all__ = ["main", "render", "probe", "misspelt", "EXIT_SAFE", "EXIT_EXPOSED"]

#: Run by the child of --probe: ctypes' repr of an overflowing double.
_PROBE = "import ctypes; print(repr(ctypes.c_double.from_param(1e300)))"


def probe():
    """Repr ``c_double.from_param(1e300)`` in a child of this interpreter; say how it ended.

    The child inherits the environment, so with ``CTYPES_SAFE_PATCH`` set it
    shows the start-up activation at work.
    """
    import signal
    import subprocess
    child = subprocess.Popen([sys.executable, "-c", _PROBE],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, _ = child.communicate()
    code = child.returncode
    result = {"code": _PROBE, "returncode": code, "crashed": code < 0, "signal": None,
              "output": out.decode("ascii", "replace").strip()}
    if code < 0:
        names = dict((getattr(signal, n), n) for n in dir(signal)
                     if n.startswith("SIG") and not n.startswith("SIG_"))
        result["signal"] = names.get(-code, str(-code))
    return result


def _hints(info):
    """What to do, only where it applies."""
    hints = []
    variable, value = info["activation"]["variable"], info["activation"]["value"]
    wanted = choice(value)
    if info["exposed"] and not info["patched"]:
        if wanted == "invalid":
            hints.append("%s=%r is not an accepted value: use %s" % (variable, value, ACCEPTED))
        elif wanted == "off":
            hints.append("set %s=1 to patch at start-up, or call ctypes_safe.patch()" % variable)
        else:
            hints.append("%s=%s is set but nothing was patched at start-up: is "
                         "ctypes_safe_patch.pth in this interpreter's site-packages, and "
                         "python run without -S?" % (variable, value))
    result = info["probe"]
    if result is not None and result["crashed"] and info["patched"]:
        if wanted in ("patch", "force"):
            hints.append("the probe's child crashed although %s=%s is set: is "
                         "ctypes_safe_patch.pth in this interpreter's site-packages?"
                         % (variable, value))
        else:
            hints.append("the probe's child, a fresh process, crashed: set %s=1 so that "
                         "every process patches at start-up" % variable)
    if info["mode"] == "converter":
        reasons = [reason for _, reason in _skipped(info)]
        hints.append("converter mode (%s): a _SimpleCData subclass with _type_ 'd' of your "
                     "own is not covered; use ctypes_safe.from_param() for it"
                     % "; ".join(reasons))
    for name, meant in misspelt((variable,)):
        hints.append("%s is set, but this package does not read it: did you mean %s?"
                     % (name, meant))
    return hints


def _skipped(info):
    report = info["report"] or {"skipped": []}
    return [(entry["target"], entry["reason"]) for entry in report["skipped"]]


def render(info):
    """The human-readable report of :func:`status`'s dict."""
    interpreter = info["interpreter"]
    if info["patched"]:
        fix = "yes, %s mode (%s)" % (info["mode"], ", ".join(info["report"]["changed"]))
    else:
        fix = "no"
    lines = [
        "%s %s self-check (%s, bpo-42938)" % (info["package"], info["version"], info["cve"]),
        "interpreter:  %s %s (%s)" % (interpreter["implementation"], interpreter["version"],
                                      interpreter["executable"]),
        "ctypes repr:  %s" % (
            "not applicable: " + info["not_applicable"] if info["not_applicable"]
            else "VULNERABLE: sprintf(\"%f\") into a 256-byte stack buffer" if info["vulnerable"]
            else "fixed (bpo-42938)"),
        "fix active:   %s" % fix,
    ]
    result = info["probe"]
    if result is not None:
        lines.append("probe:        child %s (repr of c_double.from_param(1e300))" % (
            "killed by %s" % result["signal"] if result["crashed"]
            else "exit %d: %s" % (result["returncode"], result["output"] or "no output")))
    lines.extend("hint:         " + hint for hint in _hints(info))
    lines.append("verdict:      %s" % (
        "EXPOSED: repr() of a ctypes double parameter can overflow the stack in this process"
        if info["exposed"] else "safe"))
    return "\n".join(lines)


def _probe(args, info):
    if args.probe:
        info["probe"] = probe()
        if info["probe"]["crashed"] and not info["patched"]:
            info["exposed"] = True  # the evidence wins over the format check


def main(argv=None):
    """Run the self-check; returns the exit status."""
    return run_selfcheck(
        argv, prog="python -m ctypes_safe",
        description="Self-check for CVE-2021-3177 (bpo-42938): exit status 0 when safe, "
                    "1 when exposed, 2 on a usage error.",
        status=status, render=render,
        options=[(("--probe",), {
            "action": "store_true",
            "help": "also repr an overflowing double in a child interpreter and report "
                    "how the child ended"})],
        amend=_probe)
