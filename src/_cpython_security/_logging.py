"""Both packages' log lines: the start-up report waits for the application's logging set-up.

Why: start-up activation runs before the application configures logging, so
its report would reach no handler (and a logger made then is disabled by
``dictConfig``'s default ``disable_existing_loggers``). The lines of a
start-up report are kept, without importing :mod:`logging`, until the root
logger has a handler; they are logged, once, just before the first record
that handler handles, at which point the application's levels are set.
Where nothing is configured, both packages log as Python 3 does on every
interpreter: WARNING and above as a bare line on stderr, INFO nowhere; on
2.7 that replaces "No handlers could be found for logger ...".
"""

import sys

from ._import_hook import PostImportHook
from ._report import FAILURE, kind_of

__all__ = ["log", "log_report", "get_logger", "PENDING", "INFO", "WARNING"]

INFO = 20  # logging.INFO and logging.WARNING, without importing logging
WARNING = 30

#: Start-up lines not logged yet: ``[(logger name, level, message)]``.
PENDING = []
_watching = []  # the hook on "logging", or True once the root logger is watched
_loggers = {}  # name -> logger: looked up once, and never again on the patch path


#: At most this many lines wait (a process that never configures logging and
#: patches in a loop must not grow); beyond it, lines are logged at once.
_MOST_PENDING = 500


def log(name, lines, at_startup=False):
    """Log *lines* ``[(level, message)]`` through logger *name*; *at_startup*:
    keep them until the application has configured logging, if it has not yet.

    Lines of a later call (a fix applied when a module is imported after
    start-up) also wait while the start-up report does: they would reach no
    handler now, and the app's log must name every fix applied, in order."""
    if (at_startup or PENDING) and not _configured() and len(PENDING) < _MOST_PENDING:
        PENDING.extend((name, level, message) for level, message in lines)
        _watch()
        return
    logger = get_logger(name)
    for level, message in lines:
        logger.log(level, "%s", message)


def log_report(name, action, report, at_startup=False, heading=None):
    """Log *report* (a PatchReport) of *action* (``"patch"`` or ``"unpatch"``) through
    logger *name*: INFO for what changed (``heading``, default *action*: how that
    line names the call), WARNING for each skip of the kind failure, and, when
    nothing changed, INFO for each other skip or that there was nothing to change.
    *at_startup*: as :func:`log`."""
    lines = []
    if report.changed:
        lines.append((INFO, "%s: %s %s" % (
            heading or action, "restored" if action == "unpatch" else "replaced",
            ", ".join(report.changed))))
    for target, reason in report.skipped:
        if kind_of(reason) == FAILURE:
            lines.append((WARNING, "%s: %s: %s" % (action, target, reason)))
        elif not report.changed:
            lines.append((INFO, "%s: nothing to patch: %s: %s" % (action, target, reason)))
    if not report.changed and not report.skipped:
        lines.append((INFO, "%s: nothing to change" % action))
    log(name, lines, at_startup)


def get_logger(name):
    """The logger *name* (imports :mod:`logging`); where the interpreter has no
    ``logging.lastResort`` (2.7), one handler that stands for it.

    Looked up once per name: ``logging.getLogger`` takes logging's module
    lock, which a ``fork()`` while another thread holds it leaves held in the
    child (2.7 and 3.6 do not renew it there; ``_fork.settle_in_child`` does,
    on the child's first call); later calls take no lock.
    """
    try:
        return _loggers[name]
    except KeyError:
        pass
    import logging
    logger = logging.getLogger(name)
    if getattr(logging, "lastResort", None) is None and not any(
            getattr(handler, "stands_for_last_resort", False) for handler in logger.handlers):
        logger.addHandler(_LastResort(logging))
    return _loggers.setdefault(name, logger)


def _configured():
    logging = sys.modules.get("logging")
    return logging is not None and bool(logging.root.handlers)


def _watch():
    if _watching:
        return
    if "logging" in sys.modules:
        _watch_root(sys.modules["logging"])
    else:
        hook = PostImportHook(["logging"], lambda name: _watch_root(sys.modules[name]))
        _watching.append(hook)
        hook.install()


def _watch_root(logging):
    """From now on, a handler added to the root logger flushes :data:`PENDING` first."""
    del _watching[:]
    _watching.append(True)
    root = logging.root
    root.handlers = _RootHandlers(root.handlers)


class _RootHandlers(list):
    """The root logger's handler list: marks each handler added (``addHandler``,
    as ``basicConfig``, ``dictConfig`` and ``fileConfig`` do) to flush first."""

    def append(self, handler):
        if PENDING:
            handler.addFilter(_FlushFirst(handler))
        list.append(self, handler)


class _FlushFirst(object):
    """A handler's filter that logs :data:`PENDING` before its first record, then goes."""

    def __init__(self, handler):
        self.handler = handler

    def filter(self, record):
        self.handler.removeFilter(self)
        while PENDING:
            try:
                name, level, message = PENDING.pop(0)
            except IndexError:  # another thread took the last one
                break
            get_logger(name).log(level, "%s", message)
        return True


def _LastResort(logging):
    """A handler doing what Python 3's ``logging.lastResort`` does: WARNING and above,
    as a bare line on stderr, only when no other handler would get the record."""

    class LastResort(logging.Handler):
        stands_for_last_resort = True

        def emit(self, record):
            logger = logging.getLogger(record.name)
            while logger is not None:
                if [handler for handler in logger.handlers if handler is not self]:
                    return
                logger = logger.parent if logger.propagate else None
            sys.stderr.write("%s\n" % record.getMessage())

    return LastResort(logging.WARNING)
