"""The start-up switch: what a package's ``.pth`` line runs when its variable is set.

``1``/``true``/``yes``/``on`` -> ``patch()``; a package's own options (such
as ``force`` -> ``patch(force=True)``); ``0``/``false``/``no``/``off``/empty
-> nothing; case-insensitive, stripped. Why never silent: a typo or a failure
that left the process unpatched would look like protection, so any other
value and any exception print one line on stderr; neither stops the process.
"""

import os
import sys

__all__ = ["StartupSwitch"]

_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


class StartupSwitch(object):
    """The switch of *package*: *variable*, and *options*, ``[(value, patch keywords)]``."""

    def __init__(self, package, variable, options):
        self.package = package
        self.variable = variable
        self._options = dict(options)
        #: The accepted values, as the error line and the self-check name them.
        self.accepted = "%s (patch) or %s (nothing)" % (
            ", ".join(["/".join(_ON)] + [value for value, _ in options]),
            "/".join(_OFF[1:]) + "/empty")

    def choice(self, value):
        """What *value* asks for: ``patch``, one of the options, ``off`` or ``invalid``."""
        value = (value or "").strip().lower()
        if value in _OFF:
            return "off"
        if value in _ON:
            return "patch"
        if value in self._options:
            return value
        return "invalid"

    def run(self, patch, environ=None, stream=None, notes=None):
        """Call *patch* as *environ* (default ``os.environ``) asks; return its report or None.

        *notes*: None, or a function returning lines to print first (a
        setting that will make the fix raise). Never raises.
        """
        environ = os.environ if environ is None else environ
        stream = sys.stderr if stream is None else stream
        try:
            for line in notes() if notes is not None else ():
                stream.write("%s: %s\n" % (self.package, line))
            value = environ.get(self.variable)
            wanted = self.choice(value)
            if wanted == "invalid":
                stream.write("%s: ignoring %s=%r: accepted values are %s; nothing was patched\n"
                             % (self.package, self.variable, value, self.accepted))
                return None
            if wanted == "off":
                return None
            return patch(**self._options.get(wanted, {}))
        except Exception as exc:  # never stop the process from starting, never silently
            stream.write("%s: start-up activation failed: %s: %s\n"
                         % (self.package, type(exc).__name__, exc))
            return None
