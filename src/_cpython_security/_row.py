"""One row of the registry: a fix, the stdlib names it replaces, its probe and its switch.

Why a module of its own: the registry (``_registry``) is the table itself;
what a row holds, and the probe a fix module gives it, are written once here.
"""

__all__ = ["Fix"]


class Fix(object):
    """One fix: *package* applies it through ``package._startup.run`` (*startup*).

    Rows are written with keywords: each says what it is."""

    def __init__(self, package, cve, issue, summary, exposed, replaces, variable, options,
                 probes=None, startup=None, option_modules=None, notes=None, umbrella="1",
                 also_variables=(), unfixed=None, upstream_name=None,
                 copy_lacks=None, fix=None, module=None, copies=(), behaviour=None,
                 summary_of=None, holds=()):
        self.package = package
        self.cve = cve
        self.issue = issue
        #: What the self-check prints after the CVE.
        self.summary = summary
        #: None, or ``function(module, bound) -> words or None``: the summary for this
        #: interpreter where it depends on what the stock *module* lacks (*bound*: the
        #: names a patch bound in it, whose stock code a probe can no longer see).
        self.summary_of = summary_of
        #: The verdict's words for a process exposed to it: what an attacker gets.
        self.exposed = exposed
        #: The stdlib names the fix replaces, on this interpreter.
        self.replaces = tuple(replaces)
        #: The fix module (``_engine``'s: ``needs_fix`` and ``replacements``) and the
        #: stdlib module it fixes; a row without one is applied by its package's own code.
        self.fix = fix
        self.module = module
        #: Other modules holding the stdlib module's code, vendored into a distribution
        #: (python-future's ``future.backports``): the fix module's targets too, each
        #: patched once something imports it, never imported by the engine.
        self.copies = tuple(copies)
        #: ``{module name: probe(module) -> whether this interpreter needs the fix}``:
        #: a fix module's ``needs_fix``, imported only when the probe runs.
        self.probes = dict(probes if probes is not None else
                           ((name, _lazy_probe(fix)) for name in (module,) + self.copies))
        #: The module whose ``run(environ, stream, just_imported)`` applies the fix
        #: (None: ``_cpython_security._package``'s, which calls the package's ``patch()``).
        self.startup = startup
        #: The knob: the package's own variable, and its values beyond on/off.
        self.variable = variable
        self.options = list(options)
        #: ``{option: module names}`` an option also waits for (any of them imported: run).
        self.option_modules = dict(option_modules or {})
        #: The package's value that ``CPYTHON_SECURITY_PATCH=1`` stands for: the one
        #: that applies every fix the package has (``frameworks`` adds the adapters).
        self.umbrella = umbrella
        #: None, or a function returning lines to print at start-up before the switch is read.
        self.notes = notes
        #: The other variables whose presence alone runs the package's switch (a policy
        #: the package reads at start-up); the start-up file checks them with *variable*.
        self.also_variables = tuple(also_variables)
        #: What the unfixed stdlib code does, as the self-check's first line says it.
        self.unfixed = unfixed
        #: The name upstream's fixed code gives the fix, and what a copy of the code
        #: without it does: the audit's line search and its finding.
        self.upstream_name = upstream_name
        self.copy_lacks = copy_lacks
        #: None where only an attack's input is treated differently; else what honest
        #: callers see change while the fix is applied (README and the coverage page list
        #: these, with ``CPYTHON_SECURITY_SKIP=<cve>`` to keep the fix off).
        self.behaviour = behaviour
        #: The ids of the package's other fixes whose check this fix's replacement holds
        #: too (a copy of the stock body with both): skipping this one alone leaves
        #: those to their own rows (``_registry.keep_off``).
        self.holds = tuple(holds)

    def __repr__(self):
        return "<Fix %s %s (%s)>" % (self.cve, self.package, self.issue)


def _lazy_probe(name):
    """The probe of the fix module *name*: its ``needs_fix``, imported on the first call."""
    def probe(module):
        return __import__(name, None, None, ("needs_fix",)).needs_fix(module)
    return probe
