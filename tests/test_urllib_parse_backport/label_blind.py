"""Whether a label-blind parser is loaded, set for a test: ``sys.modules`` is the seam.

``protect()`` treats a body under a label neither urlencoded nor multipart as
a form only while a parser that reads any such body as one and splits it on
``;`` is loaded (Bottle <= 0.12.18's ``_parse_qsl``). The tests that pin
"byte for byte" run without one; those that pin the label-blind case load
one: the real Bottle where it is installed, else a module that parses as it.
"""

import contextlib
import sys
import types

__all__ = ["without_label_blind_parser", "with_label_blind_parser"]


@contextlib.contextmanager
def without_label_blind_parser():
    saved = sys.modules.pop("bottle", None)
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["bottle"] = saved


def _parse_qsl(qs):
    """Bottle 0.12.18's split (CVE-2020-28473): on '&' and ';'."""
    return [tuple(pair.split("=", 1)) for pair in qs.replace(";", "&").split("&") if pair]


@contextlib.contextmanager
def with_label_blind_parser():
    saved = sys.modules.get("bottle")
    module = types.ModuleType("bottle")
    module._parse_qsl = _parse_qsl
    sys.modules["bottle"] = module
    try:
        yield module
    finally:
        if saved is None:
            del sys.modules["bottle"]
        else:
            sys.modules["bottle"] = saved
