"""``python -m ctypes_safe``: is this process exposed to CVE-2021-3177 (bpo-42938)?

Prints whether ctypes' own parameter repr is the unfixed one, whether the fix
is active in this process and in which mode, and the verdict. Exit status 0
when safe, 1 when exposed, 2 on a usage error. ``--json`` prints
:func:`status` as JSON; ``--probe`` also reprs an overflowing value, in a
child interpreter only.
"""

import sys

from _cpython_security._selfcheck import (EXIT_EXPOSED, EXIT_SAFE, PTH_FILE,
                                          main as run_selfcheck, misspelt, misspelt_hints,
                                          render as render_selfcheck, switch_hints)

from _cpython_security._startup import SWITCHES

from ._api import status

_SWITCH = SWITCHES[__name__.split(".")[0]]
ACCEPTED, choice = _SWITCH.accepted, _SWITCH.choice

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
    hints = switch_hints(info, choice, ACCEPTED)
    variable, value = info["activation"]["variable"], info["activation"]["value"]
    wanted = choice(value)
    result = info["probe"]
    if result is not None and result["crashed"] and info["patched"]:
        if wanted in ("patch", "force"):
            hints.append("the probe's child crashed although %s=%s is set: is "
                         "%s in this interpreter's site-packages?" % (variable, value, PTH_FILE))
        else:
            hints.append("the probe's child, a fresh process, crashed: set %s=1 so that "
                         "every process patches at start-up" % variable)
    if info["mode"] == "converter":
        reasons = [reason for _, reason in _skipped(info)]
        hints.append("converter mode (%s): a _SimpleCData subclass with _type_ 'd' of your "
                     "own is not covered; use ctypes_safe.from_param() for it"
                     % "; ".join(reasons))
    return hints + misspelt_hints((variable,))


def _skipped(info):
    report = info["report"] or {"skipped": []}
    return [(entry["target"], entry["reason"]) for entry in report["skipped"]]


def render(info):
    """The human-readable report of :func:`status`'s dict."""
    if info["patched"]:
        fix = "yes, %s mode (%s)" % (info["mode"], ", ".join(info["report"]["changed"]))
    else:
        fix = "no"
    rows = [
        "ctypes repr:  %s" % (
            "not applicable: " + info["not_applicable"] if info["not_applicable"]
            else "VULNERABLE: sprintf(\"%f\") into a 256-byte stack buffer" if info["vulnerable"]
            else "fixed (bpo-42938)"),
        "fix active:   %s" % fix,
    ]
    result = info["probe"]
    if result is not None:
        rows.append("probe:        child %s (repr of c_double.from_param(1e300))" % (
            "killed by %s" % result["signal"] if result["crashed"]
            else "exit %d: %s" % (result["returncode"], result["output"] or "no output")))
    return render_selfcheck(
        info, "bpo-42938", rows, _hints(info),
        "repr() of a ctypes double parameter can overflow the stack in this process")


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
