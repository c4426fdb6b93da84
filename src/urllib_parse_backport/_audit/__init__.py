"""The source audit: the query parsers in code and installed packages that split on
``;``, and the copies of ``urlsplit`` without its four later fixes.

``python -m urllib_parse_backport --audit [--json] [PATH...]``. Reads Python
source with ``ast`` and never imports it: ``_main`` (report, exit status)
-> ``_walk`` (which files) and ``_worker`` (the checks in a child process)
-> ``_source`` (read and decode one file, or search it by text) -> ``_rules``
(the checks; ``_buffer``, the scanning parsers) -> ``_facts`` (what a module
binds) and ``_regex`` (what a pattern splits on); ``_splitcopy`` (the copies
of ``urlsplit``) -> ``_splitfacts`` (what a function does to a URL);
``_dists`` names the distribution a file belongs to, ``_known`` what already
fixes a parser at run time.
"""

__all__ = ["main"]


def main(argv=None):
    """Run the audit with *argv* (default ``sys.argv[1:]``); returns the exit status."""
    from ._main import main as run
    return run(argv)
