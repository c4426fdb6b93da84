"""The source audit: the query parsers in code and installed packages that split on ``;``.

``python -m urllib_parse_backport --audit [--json] [PATH...]``. Reads Python
source with ``ast`` and never imports it: ``_main`` (walk, report, exit
status) -> ``_source`` (read and decode one file) -> ``_rules`` (the checks)
-> ``_facts`` (what a module binds) and ``_regex`` (what a pattern splits
on); ``_dists`` names the distribution a file belongs to, ``_known`` what
already fixes a parser at run time.
"""

__all__ = ["main"]


def main(argv=None):
    """Run the audit with *argv* (default ``sys.argv[1:]``); returns the exit status."""
    from ._main import main as run
    return run(argv)
