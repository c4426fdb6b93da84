"""``python -m urllib_parse_backport``: is this process exposed to CVE-2021-23336?

Prints the interpreter, what its stdlib ``parse_qsl`` does with ``';'``
(bpo-42967), whether the shim is active, and the attack query parsed by the
stdlib (as this process calls it) and by the backport. ``--frameworks`` also
probes the parsers of the frameworks the adapters know (importing those that
are installed). Exit status 0 when every parser checked, as called, keeps
``';'`` as data; 1 when one splits on it; 2 on a usage error.
"""

from __future__ import print_function

import json
import platform
import sys
import warnings

from . import _policy, _shim
from ._version import __version__

ATTACK = "q=common_term&utm_content=s;q=malicious_term"

EXIT_SAFE = 0
EXIT_EXPOSED = 1
EXIT_USAGE = 2

_USAGE = "usage: python -m urllib_parse_backport [--json] [--frameworks]"


def _stdlib_parse_qs():
    module = __import__(_shim.STDLIB_MODULE, None, None, ("parse_qs",))
    return module.parse_qs


def _plain(result):
    """parse_qs results as JSON-friendly text."""
    def text(value):
        if isinstance(value, bytes) and not isinstance(value, str):  # 3.x bytes
            return value.decode("latin-1")
        return value
    return dict((text(k), [text(v) for v in values]) for k, values in result.items())


def _framework_parsers():
    """Each framework parser an adapter knows, as this process calls it (patched or not)."""
    from ._frameworks import ADAPTERS

    found = []
    for adapter in ADAPTERS:
        entry = {"parser": "%s.%s" % (adapter.module, adapter.attribute), "exposed": None}
        report = _shim.PatchReport()
        with warnings.catch_warnings():  # frameworks' import-time deprecations are noise here
            warnings.simplefilter("ignore")
            module = _shim._load(adapter, report)  # imports it when installed
        if module is None:
            entry["status"] = report.skipped[-1][1]
            if entry["status"] == "not installed":
                entry["exposed"] = False
        else:
            try:
                entry["exposed"], entry["status"] = adapter.assess(module, {})
            except Exception as exc:  # an unknown version: say so, never crash
                entry["status"] = "assessment failed: %s: %s" % (type(exc).__name__, exc)
        found.append(entry)
    return found


def collect(frameworks=False):
    """Everything the self-check reports, as a dict; *frameworks*: probe their parsers too."""
    from . import parse_qs

    facts = _shim.stdlib_facts()
    stdlib_result = _plain(_stdlib_parse_qs()(ATTACK))
    exposed = stdlib_result.get("q") != ["common_term"]
    framework_parsers = _framework_parsers() if frameworks else None
    if framework_parsers and any(entry["exposed"] for entry in framework_parsers):
        exposed = True
    report = _shim._state.report
    default = facts["separator_default"]
    return {
        "interpreter": {
            "implementation": platform.python_implementation(),
            "version": platform.python_version(),
            "executable": sys.executable,
        },
        "package_version": __version__,
        "stdlib": {
            "module": _shim.STDLIB_MODULE,
            "splits_semicolon": facts["splits_semicolon"],
            "has_separator": facts["has_separator"],
            "separator_default": None if default is None else str(default),
            "vendor_patched": facts["vendor_patched"],
        },
        "shim": {
            "active": _shim.is_patched(),
            "activation_variable": _shim._ACTIVATION_VARIABLE,
            "report": report.as_dict() if report is not None else None,
        },
        "policy": {
            "variable": _policy.SEPARATOR_VARIABLE,
            "setting": _policy.setting,
        },
        "attack": {
            "query": ATTACK,
            "stdlib": stdlib_result,
            "backport": _plain(parse_qs(ATTACK)),
        },
        "frameworks": framework_parsers,
        "exposed": exposed,
    }


def _yes_no(value):
    return {True: "yes", False: "no", None: "unknown"}[value]


def render(info):
    """The human-readable report."""
    stdlib = info["stdlib"]
    shim = info["shim"]
    if stdlib["vendor_patched"]:
        kind = "vendor-patched (separator defaults to None, Red Hat style)"
    elif stdlib["splits_semicolon"]:
        kind = "VULNERABLE: splits on ';' (CVE-2021-23336)"
    elif not stdlib["has_separator"]:
        kind = "no separator parameter (pre-bpo-42967 API)"
    else:
        kind = "fixed (bpo-42967)"
    lines = [
        "urllib_parse_backport %s self-check (CVE-2021-23336, bpo-42967)" % info["package_version"],
        "interpreter:     %s %s (%s)" % (info["interpreter"]["implementation"],
                                         info["interpreter"]["version"],
                                         info["interpreter"]["executable"]),
        "stdlib %-9s %s" % (stdlib["module"] + ":", kind),
        "  splits ';':    %s" % _yes_no(stdlib["splits_semicolon"]),
        "  separator=:    %s" % (("yes, default %r" % stdlib["separator_default"])
                                 if stdlib["has_separator"] else "no"),
        "shim active:     %s (set %s=1 to patch at start-up)" % (
            _yes_no(shim["active"]), shim["activation_variable"]),
        "attack query:    %s" % info["attack"]["query"],
        "  stdlib:        %r" % (sorted(info["attack"]["stdlib"].items()),),
        "  backport:      %r" % (sorted(info["attack"]["backport"].items()),),
    ]
    frameworks = info.get("frameworks")
    if frameworks is not None:
        lines.append("frameworks (patch(frameworks=True) fixes those that split on ';'):")
        for entry in frameworks:
            flag = {True: "EXPOSED: ", False: "", None: "UNKNOWN: "}[entry["exposed"]]
            lines.append("  %s: %s%s" % (entry["parser"], flag, entry["status"]))
    lines.append("verdict:         %s" % (
        "safe" if not info["exposed"] else
        "EXPOSED: a parser this process calls hands the app the smuggled q"))
    return "\n".join(lines)


def main(argv=None):
    """Run the self-check; returns the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["--audit"]:  # the source audit: its own module and options
        from . import _audit
        return _audit.main(args[1:])
    options = set(args)
    if len(options) != len(args) or not options <= {"--json", "--frameworks"}:
        print(_USAGE, file=sys.stderr)
        return EXIT_USAGE
    info = collect(frameworks="--frameworks" in options)
    if "--json" in options:
        print(json.dumps(info, indent=2, sort_keys=True, separators=(",", ": ")))
    else:
        print(render(info))
    return EXIT_EXPOSED if info["exposed"] else EXIT_SAFE
