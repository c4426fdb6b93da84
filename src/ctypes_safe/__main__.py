"""``python -m ctypes_safe``: is this interpreter exposed to CVE-2021-3177 (bpo-42938)?

Why: operators need a yes/no with an exit status. Exit 0 when safe (fixed
interpreter, or the shim active), 1 when exposed; ``--json`` for machines;
``--probe`` reprs an overflowing value, but only in a child process.
"""

import argparse
import json
import os
import platform
import signal
import subprocess
import sys

import ctypes_safe

# Run by the child of --probe: the stock repr of an overflowing double.
_PROBE = "import ctypes; print(repr(ctypes.c_double.from_param(1e300)))"


def probe():
    """Repr ``c_double.from_param(1e300)`` in a child interpreter; report how it ended."""
    child = subprocess.Popen([sys.executable, "-c", _PROBE],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, _ = child.communicate()
    code = child.returncode
    result = {"returncode": code, "output": out.decode("ascii", "replace").strip(),
              "crashed": code < 0, "signal": None}
    if code < 0:
        names = dict((getattr(signal, n), n) for n in dir(signal)
                     if n.startswith("SIG") and not n.startswith("SIG_"))
        result["signal"] = names.get(-code, str(-code))
    return result


def check(run_probe=False):
    """Return the self-check as a dict (the ``--json`` document)."""
    vulnerable = ctypes_safe.is_vulnerable()
    patched = ctypes_safe.is_patched()
    report = {
        "ctypes_safe": ctypes_safe.__version__,
        "interpreter": {
            "implementation": platform.python_implementation(),
            "version": platform.python_version(),
            "executable": sys.executable,
        },
        "vulnerable": vulnerable,
        "patched": patched,
        "safe": (not vulnerable) or patched,
        "probe": probe() if run_probe else None,
    }
    if report["probe"] is not None and report["probe"]["crashed"] and not patched:
        report["safe"] = False  # the evidence wins over the format check
    return report


def _text(report):
    interp = report["interpreter"]
    lines = [
        "ctypes_safe %s" % report["ctypes_safe"],
        "interpreter: %s %s (%s)" % (interp["implementation"], interp["version"],
                                     interp["executable"]),
        "ctypes parameter repr: %s" % (
            "VULNERABLE (sprintf %f into a 256-byte buffer, CVE-2021-3177, bpo-42938)"
            if report["vulnerable"] else "fixed (bpo-42938)"),
        "shim: %s" % ("active in this process" if report["patched"] else "not active"),
    ]
    if report["probe"] is not None:
        result = report["probe"]
        lines.append("probe (child process, repr of c_double.from_param(1e300)): %s" % (
            "killed by %s" % result["signal"] if result["crashed"]
            else "exit %d, %s" % (result["returncode"], result["output"] or "no output")))
    lines.append("status: %s" % ("safe" if report["safe"] else
                                 "EXPOSED: call ctypes_safe.patch() at startup, "
                                 "or use ctypes_safe.from_param()"))
    return os.linesep.join(lines)


def main(argv=None):
    """Print the self-check; return 0 if safe, 1 if exposed."""
    parser = argparse.ArgumentParser(prog="python -m ctypes_safe",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--probe", action="store_true",
                        help="also repr an overflowing value in a child interpreter")
    args = parser.parse_args(argv)
    report = check(run_probe=args.probe)
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        print(_text(report))
    return 0 if report["safe"] else 1


if __name__ == "__main__":
    sys.exit(main())
