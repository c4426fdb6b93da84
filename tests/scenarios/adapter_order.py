"""What the framework-adapter scenarios share: when ``patch()`` runs, and
patch, serve, unpatch, serve again.

A scenario's ORDER argument: 'patch-first' patches before the framework is
imported (the post-import hook fixes it as it loads), 'framework-first'
after, 'no-adapter' never (the stock parser serves). Imported by the
scenario scripts beside it, as ``attack`` is.
"""

__all__ = ["Patching", "is_own"]


class Patching(object):
    """When one scenario calls ``urllib_parse_backport.patch(frameworks=...)``, and its report.

    ``report``: the PatchReport of that call, None until it ran (and for
    'no-adapter', for good).
    """

    def __init__(self, order, frameworks=True):
        self.order = order
        self.frameworks = frameworks
        self.report = None

    @property
    def framework_first(self):
        """Whether the framework was imported before ``patch()``: only then are the
        functions read before ``patch()`` the framework's own."""
        return self.order == 'framework-first'

    def at(self, when):
        """Patch now if this scenario's order is *when*."""
        if self.order == when:
            import urllib_parse_backport
            self.report = urllib_parse_backport.patch(frameworks=self.frameworks)

    def serve_unpatch_serve(self, serve, result, while_patched=None):
        """Put what ``serve()`` returns in *result* (``'seen'``); where this scenario
        patched, call ``while_patched(result, report)``, ``unpatch()``, and put
        what ``serve()`` returns then in ``result['after_unpatch']``.

        Returns *result*."""
        result['seen'] = serve()
        if self.report is not None:
            if while_patched is not None:
                while_patched(result, self.report)
            import urllib_parse_backport
            urllib_parse_backport.unpatch()
            result['after_unpatch'] = serve()
        return result


def is_own(func, module, filename, held=None):
    """Whether *func* is *module*'s own function, compiled from *filename* (or its
    ``.pyc``); and, where *held* ``(function, code)`` is given, that very function
    running that very code (what ``unpatch()`` must put back)."""
    own = func.__module__ == module and func.__code__.co_filename.endswith(
        (filename, filename + 'c'))
    if held is not None:
        own = own and func is held[0] and func.__code__ is held[1]
    return own
