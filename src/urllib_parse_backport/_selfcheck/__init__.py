"""The self-check: what this process's query parsers do with ``;``, and the verdict.

``status()`` (computed by ``_status``) and ``python -m urllib_parse_backport``
(``_cli``). This layer reads the shim's state and the parsers; nothing below
it imports it.
"""

__all__ = ["status"]


def status():
    """This process's self-check as a dict: what ``python -m urllib_parse_backport --json`` prints.

    Computed here, in the calling process: the stdlib parser as this process
    calls it, the shim's report, the separator policy, the parsers of
    installed frameworks and their checks a fix breaks (``framework_checks``:
    Django's ``URLValidator``, CVE-2021-32052), each imported to be probed.
    ``status()["exposed"]`` is the verdict; expose it in a health check (see
    the Operations page).
    """
    from ._status import status as collect
    return collect()
