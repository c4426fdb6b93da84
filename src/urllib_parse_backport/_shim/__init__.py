"""The shim: make the process's own parsers split on ``&`` only, reversibly.

``_api`` (``patch``/``unpatch``/``is_patched``) drives ``_apply``, which
binds what ``_targets`` (the stdlib and python-future), ``_frameworks``
(the framework adapters) and ``_checks`` (the frameworks' own fixes of
checks a fix breaks: Django's ``URLValidator``) choose, through
``_surgery`` (copies, forwarding functions, code swaps) and the shared
post-import hook (modules imported later), each binding recorded as it is
made in ``_state``'s ledger
(``_cpython_security._ledger``) so ``unpatch()`` restores the exact
objects. ``_startup`` is what the ``.pth`` switch runs once a parser it is
for is imported (see ``_cpython_security._startup``).
"""
