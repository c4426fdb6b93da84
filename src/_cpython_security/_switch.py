"""A start-up switch: what a variable's value asks for, and the one line for a bad one.

Why a module of its own: one idea, the rules every variable is read by (each
package's and the umbrella's), apart from when and for which packages
``_startup`` reads them.
"""

import os
import sys

__all__ = ["StartupSwitch", "ON", "OFF"]

ON = ("1", "true", "yes", "on")
OFF = ("", "0", "false", "no", "off")


class StartupSwitch(object):
    """The switch of *package*: *variable*, and *options*, ``[(value, patch keywords)]``.

    ``1``/``true``/``yes``/``on`` -> ``patch()``; an option's value (such as
    ``force`` -> ``patch(force=True)``); ``0``/``false``/``no``/``off``/empty
    -> nothing; case-insensitive, stripped. Never silent: a typo or a failure
    that left the process unpatched would look like protection, so any other
    value and any exception print one line on stderr; neither stops the process.
    Blanks only (``" "``, a tab) are such another value, not empty: a shell or
    YAML quoting slip, which must not read as "off" without a word.
    """

    def __init__(self, package, variable, options):
        self.package = package
        self.variable = variable
        self._options = dict(options)
        #: The accepted values, as the error line and the self-check name them.
        self.accepted = "%s (patch) or %s (nothing)" % (
            ", ".join(["/".join(ON)] + [value for value, _ in options]),
            "/".join(OFF[1:]) + "/empty")

    def choice(self, value):
        """What *value* asks for: ``patch``, one of the options, ``off`` or ``invalid``
        (blanks only included)."""
        if value and not value.strip():
            return "invalid"
        value = (value or "").strip().lower()
        if value in OFF:
            return "off"
        if value in ON:
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
                stream.write(self.ignoring(value, "nothing was patched"))
                return None
            if wanted == "off":
                return None
            return patch(**self._options.get(wanted, {}))
        except Exception as exc:  # never stop the process from starting, never silently
            stream.write("%s: start-up activation failed: %s: %s\n"
                         % (self.package, type(exc).__name__, exc))
            return None

    def ignoring(self, value, outcome):
        """The one line that names *value*, not accepted, and the *outcome*."""
        return "%s: ignoring %s=%r: accepted values are %s; %s\n" % (
            self.package, self.variable, value, self.accepted, outcome)
