"""What each start-up switch costs a whole process: CPU time, against the same start-up without it.

For every interpreter named on the command line (default: the one running
this script), each case runs ``python -c CODE`` as a fresh process with and
without the variables, interleaved (one run of each variant per round, so a
busy machine slows all alike), and keeps the median of the child's user+sys
CPU time (``os.wait4``). Printed: the base time and each variant's ratio to
it, in the same run. The packages must be installed in each interpreter's
site-packages (the ``.pth`` lines act only there): a tox environment's
python will do. Usage: ``python benchmarks/bench_startup.py [-n 30] [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import os
import subprocess
import sys

#: (label, code: "imports" = the stdlib parser module and ctypes, "all" = those and the
#: cookie module, or "pass", variables)
CASES = (
    ("URLLIB_PARSE_BACKPORT_PATCH=1", "imports", {"URLLIB_PARSE_BACKPORT_PATCH": "1"}),
    ("CTYPES_SAFE_PATCH=1", "imports", {"CTYPES_SAFE_PATCH": "1"}),
    ("both", "imports", {"URLLIB_PARSE_BACKPORT_PATCH": "1", "CTYPES_SAFE_PATCH": "1"}),
    ("PYTHON_URLLIB_QS_SEPARATOR=& only", "imports", {"PYTHON_URLLIB_QS_SEPARATOR": "&"}),
    ("both, python -c pass", "pass", {"URLLIB_PARSE_BACKPORT_PATCH": "1",
                                      "CTYPES_SAFE_PATCH": "1"}),
    ("=frameworks, python -c pass", "pass", {"URLLIB_PARSE_BACKPORT_PATCH": "frameworks"}),
    ("CPYTHON_SECURITY_PATCH=1", "all", {"CPYTHON_SECURITY_PATCH": "1"}),
    ("every package variable, as the umbrella", "all", None),  # from the registry
    ("CPYTHON_SECURITY_PATCH=1, python -c pass", "pass", {"CPYTHON_SECURITY_PATCH": "1"}),
    # Not a switch: what the fix's own code costs, for comparison. An app that
    # calls the backport itself imports the package (parser, report, API).
    ("no variable, the app imports the backport", "package", {}),
)

#: The code each kind of case is compared with: the same start-up without variables.
BASE_OF = {"imports": "imports", "pass": "pass", "package": "imports", "all": "all"}

#: Every variable either package reads at start-up: removed from the base environment.
VARIABLES = ("URLLIB_PARSE_BACKPORT_PATCH", "CTYPES_SAFE_PATCH", "PYTHON_URLLIB_QS_SEPARATOR",
             "HTTP_COOKIES_BACKPORT_PATCH", "CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP",
             "URLLIB_PARSE_BACKPORT_WARN", "PYTHONWARNINGS", "PYTHONDONTWRITEBYTECODE")


def codes(python):
    """``{"imports": ..., "pass": ..., "package": ...}`` for *python* (2.7 names its
    parser module urlparse)."""
    major = subprocess.check_output([python, "-c", "import sys; print(sys.version_info[0])"])
    parser = "urlparse" if major.strip() == b"2" else "urllib.parse"
    cookies = "Cookie" if major.strip() == b"2" else "http.cookies"
    return {"imports": "import %s, ctypes" % parser, "pass": "pass",
            "all": "import %s, ctypes, %s" % (parser, cookies),
            "package": "import %s, ctypes, urllib_parse_backport" % parser}


def package_variables(python):
    """``{variable: value}``: every package's own switch at the value the umbrella stands
    for, as the registry installed in *python* lists them."""
    code = ("import json; from _cpython_security._registry import BY_PACKAGE as b; "
            "print(json.dumps(dict((f.variable, f.umbrella) for f in b.values())))")
    return json.loads(subprocess.check_output([python, "-c", code]).decode("ascii"))


def cpu_time(python, code, env):
    """User+sys CPU seconds of one ``python -c code`` process run with *env*."""
    with open(os.devnull, "w") as null:
        process = subprocess.Popen([python, "-c", code], env=env, stdout=null, stderr=null)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = status  # reaped here: keep Popen from waiting again
    if status != 0:
        raise RuntimeError("%s -c %r failed with %s" % (python, code, env))
    return usage.ru_utime + usage.ru_stime


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def measure(python, runs):
    """``[(label, code, base seconds, ratio)]`` for *python*."""
    every = package_variables(python)
    base_env = dict(os.environ)
    for name in VARIABLES + tuple(every):
        base_env.pop(name, None)
    source = codes(python)
    variants = [("base", kind, base_env) for kind in sorted(set(BASE_OF.values()))]
    for label, kind, variables in CASES:
        env = dict(base_env)
        env.update(every if variables is None else variables)
        variants.append((label, kind, env))
    times = dict(((label, kind), []) for label, kind, _ in variants)
    for label, kind, env in variants:  # warm up: bytecode written, caches filled
        cpu_time(python, source[kind], env)
    for _ in range(runs):
        for label, kind, env in variants:
            times[label, kind].append(cpu_time(python, source[kind], env))
    results = []
    for label, kind, _ in CASES:
        base = median(times["base", BASE_OF[kind]])
        results.append((label, source[kind], base, median(times[label, kind]) / base))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=30, help="interleaved rounds (median kept)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        version = subprocess.check_output(
            [python, "-c", "import platform; print(platform.python_version())"])
        print("%s (%s), median of %d interleaved runs, CPU time (user+sys)"
              % (python, version.decode("ascii").strip(), args.n))
        for label, code, base, ratio in measure(python, args.n):
            print("  %-36s %-30s base %6.1f ms  %5.2fx" % (label, code, base * 1e3, ratio))


if __name__ == "__main__":
    main()
