"""The golden files' case format: tagged, lossless JSON for arguments and outcomes.

One copy for both sides: ``tools/gen_golden.py`` records each call's outcome
with it inside the reference interpreters (2.7.18, 3.13.0), and
``tests/test_golden.py`` replays the calls against the backport with it. A
value keeps its exact type (``str``/``bytes``/``unicode``, ``bytearray``,
``memoryview``, list or tuple, dict order on Python 3; on 2.7, where dict
order is arbitrary, dict items are sorted by their encoded key).
"""

import json
import sys

PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    text_type = unicode  # noqa: F821
    int_types = (int, long)  # noqa: F821
else:
    text_type = str
    int_types = (int,)


def encode(obj):
    kind = type(obj)
    if obj is None:
        return ["none"]
    if kind is bool:
        return ["bool", obj]
    if kind in int_types:
        return ["int", int(obj)]
    if kind is float:
        return ["float", repr(obj)]
    if kind is text_type:
        return ["text", obj]
    if kind is bytes:
        return ["bytes", obj.decode("latin-1")]
    if kind is bytearray:
        return ["bytearray", bytes(obj).decode("latin-1")]
    if kind is memoryview:
        return ["memoryview", obj.tobytes().decode("latin-1")]
    if kind is list:
        return ["list", [encode(x) for x in obj]]
    if kind is tuple:
        return ["tuple", [encode(x) for x in obj]]
    if kind is dict:
        items = [[encode(k), encode(v)] for k, v in obj.items()]
        if PY2:
            items.sort(key=lambda kv: json.dumps(kv[0], sort_keys=True))
        return ["dict", items]
    raise TypeError("cannot encode %r" % (kind,))


def decode(value):
    tag = value[0]
    if tag == "none":
        return None
    if tag in ("bool", "int", "text"):
        return value[1]
    if tag == "float":
        return float(value[1])
    if tag == "bytes":
        return value[1].encode("latin-1")
    if tag == "bytearray":
        return bytearray(value[1].encode("latin-1"))
    if tag == "memoryview":
        return memoryview(value[1].encode("latin-1"))
    if tag == "list":
        return [decode(x) for x in value[1]]
    if tag == "tuple":
        return tuple(decode(x) for x in value[1])
    if tag == "dict":
        return dict((decode(k), decode(v)) for k, v in value[1])
    raise ValueError("unknown tag %r" % (tag,))


def run_case(functions, case):
    """The outcome of *case* called on ``functions[case["f"]]``: ``{"ok": result}``
    or ``{"exc": [type name, message]}``, encoded."""
    args = [decode(a) for a in case["a"]]
    kwargs = dict((str(name), decode(value)) for name, value in case["k"])
    try:
        result = functions[case["f"]](*args, **kwargs)
    except Exception as exc:
        message = str(exc)
        if isinstance(message, bytes):  # Python 2
            message = message.decode("latin-1")
        return {"exc": [type(exc).__name__, message]}
    return {"ok": encode(result)}
