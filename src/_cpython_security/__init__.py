"""What the fix packages share, in one place.

Every package follows one design: ``patch()``/``unpatch()``/``is_patched()``
and ``status()``, a report of what a call changed, a start-up switch that the
``.pth`` line reads, a self-check command with the same exit statuses. What
is the same code lives here, in a private package that every one imports;
no fix package imports another.

Why a package rather than generated copies (the way ``tools/make_pth.py``
writes the ``.pth`` line): a ``.pth`` line must stand alone, but these are
classes and functions, and one module that every package imports cannot
drift where copies need a check to stay equal (attrs ships ``attr`` and
``attrs`` in one wheel the same way).

* ``_engine``: the whole public face (``patch``, ``unpatch``, ``is_patched``,
  ``is_vulnerable``, ``status``) of a package whose fix modules say
  ``needs_fix(module)`` and ``replacements(module)``;
* ``_report``: ``PatchReport``, what one ``patch()``/``unpatch()`` call did;
* ``_ledger``: what the engine and the urlsplit shim patch through: one
  record of what is bound where, written in the step that binds, so
  ``patch()``/``unpatch()`` read their state from the bindings and a second
  call finishes an interrupted one; the state lock no interrupt leaves held;
* ``_rebind``: a function's aliases in every loaded module, rebound by identity;
* ``_copies``: a stock method's checked copy, where the class holds a known stock body;
* ``_plain``: the header guards' fast test for a string with no control character;
* ``_selfcheck``: exit statuses, the keys every ``status()`` has, the hints
  on the start-up switch and a misspelt variable, the report's frame and the
  command-line skeleton;
* ``_fork``: objects a forked child makes anew (the state locks), and imports
  another thread left half-done, settled before a fork and forgotten in the child;
* ``_startup``, ``_import_hook``: what the ``.pth`` line runs: each switch
  (accepted values, a run that never fails silently and never stops the
  process) is read at start-up, and a package is imported and patches only when a module
  its fix is for is imported (read from ``_registry``); ``run``, a fix
  package's start-up ``patch()`` where its row names no module of its own;
* ``_cli``: ``python -m PACKAGE`` for a fix package with no command line of
  its own, in its registry row's words;
* ``_logging``: every package's log lines (``log_report``), and the start-up
  report held until the application's logging is set up;
* ``_registry``, ``_row``: the table of fixes, one keyword row per fix (CVE,
  upstream issue, summary and exposure, stdlib names, behaviour probes, the
  module that applies it, its knob): the only module that names a package,
  and the one list every other list of fixes is derived from;
* ``_check``: ``cpython-security-check``: the verdict, what to do, the exposed
  fixes by module (``--verbose``: one line per registry row);
* ``_verdict``: what the check found for one fix (carried, applied, exposed,
  ...), the one source of its text and of its VEX documents;
* ``_vex``: those verdicts as OpenVEX and CycloneDX VEX documents, with the
  standard ``json`` module alone.
"""
