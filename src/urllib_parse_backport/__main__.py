"""``python -m urllib_parse_backport``: the self-check, or with ``--audit`` the source audit.

The two commands share nothing but the program name: ``--audit`` anywhere in
the arguments hands the others to the audit (``_audit``), otherwise they go
to the self-check (``_selfcheck``).
"""

import sys


def main(argv=None):
    """Run the audit (``--audit``) or the self-check; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--audit" in argv:
        argv.remove("--audit")
        from ._audit import main as audit
        return audit(argv)
    from ._selfcheck._cli import main as selfcheck
    return selfcheck(argv)


if __name__ == "__main__":
    sys.exit(main())
