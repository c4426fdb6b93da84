"""urllib_parse_backport's own design checks (tests/test_design.py has those of every package).

Read from the installed sources with ``ast`` (never by importing them): the
walk sees the subpackages (the rooms), and each room imports only the rooms
below it. Then its log: a reason's kind decides its severity, not its wording.
"""

from source_walk import imports as _imports, modules as _modules


def test_the_module_walk_sees_the_subpackages():
    names = set(name for name, _ in _modules("urllib_parse_backport"))
    assert set(["urllib_parse_backport._parse._py3", "urllib_parse_backport.wsgi._body",
                "urllib_parse_backport._shim._apply", "urllib_parse_backport._selfcheck._cli",
                "urllib_parse_backport._audit._rules"]) <= names


#: The rooms of urllib_parse_backport, bottom up: each may import only the
#: rooms before it (and the shared modules at the top of the package, which
#: import no room). The self-check stands above the shim, the audit above
#: both (it reads the shim's adapter table); nothing imports the middlewares,
#: which share their rule through the top-level ``_protect``, not each other.
ROOMS = ["_parse", "_shim", "_selfcheck", "_audit", "wsgi", "asgi"]
ALLOWED = {"_parse": [], "_shim": ["_parse"], "_selfcheck": ["_parse", "_shim"],
           "_audit": ["_shim"], "wsgi": [], "asgi": []}


def _room(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def test_the_rooms_import_only_the_rooms_below_them():
    package = "urllib_parse_backport"
    wrong = []
    for name, path in _modules(package):
        mine = _room(name)
        for target in _imports(name, path):
            if not target.startswith(package + "."):
                continue
            theirs = _room(target)
            if theirs is None or theirs == mine:
                continue
            if mine is None or theirs not in ALLOWED[mine]:
                wrong.append("%s -> %s" % (name, target))
    # __init__ and __main__ are the package's faces: they may reach any room.
    wrong = [w for w in wrong if not w.startswith((package + " ", package + ".__main__ "))]
    assert wrong == []


def test_the_fix_policy_and_rewrite_import_nothing_of_the_rooms_above():
    package = "urllib_parse_backport"
    base = set(["_parse", "_policy", "_rewrite", "_compat", "_protect", "_forms"])
    for name, path in _modules(package):
        if name.split(".")[1:2] and name.split(".")[1] in base:
            above = [m for m in _imports(name, path)
                     if _room(m) in ("_shim", "_selfcheck", "_audit", "wsgi", "asgi")]
            assert above == [], "%s imports %s" % (name, above)


def test_log_severity_follows_the_kind_of_a_reason_not_its_wording(caplog):
    # A failure worded like a harmless skip still logs at WARNING, and the
    # other way round: the kind decides, never a prefix of the text.
    import logging
    from internals import skip_failure, urllib_log_report as log_report
    from urllib_parse_backport import PatchReport
    report = PatchReport()
    report.skipped.append(("a.b", skip_failure("already fixed (worded as harmless)")))
    report.skipped.append(("c.d", "adapter failed (worded as a failure)"))
    with caplog.at_level(logging.INFO, logger="urllib_parse_backport"):
        log_report("patch", report)
    levels = dict((r.getMessage().split(" ")[1], r.levelname) for r in caplog.records)
    assert levels == {"a.b": "WARNING", "c.d": "INFO"}
