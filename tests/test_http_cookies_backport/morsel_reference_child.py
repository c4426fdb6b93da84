"""The reference's side of ``test_morsel_reference``: one outcome per JSON case line.

Run by Debian 12's ``python3.11``. Where its ``http.cookies`` lacks gh-143919
and gh-145599 (the probe below: ``Morsel()["path"] = "/\\n"`` is stored;
Debian's updates backport them), each case runs through the stock classes
with upstream's checks put in front, in upstream's order and words: the
plain reading of the fixed code (``str()`` of each value searched for
``[\\x00-\\x1f\\x7f]``), against which the package's fast paths are compared.
``|=`` runs so in every reference: a fixed one's own ``|=`` (Debian's
backport has one) calls ``update``, which also refuses the honest names the
package stores as the stock ``|=`` does.
A case is ``[op, args]``; the answer ``["ok", text]``, ``["CookieError", message]``
or ``[exception type name, ""]``. The first line written says which was used.
"""

import json
import pickle
import re
import sys
from http import cookies

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MESSAGE = "Control characters are not allowed in cookies"


def _has(*values):
    return any(_CONTROL.search(str(value)) for value in values)


def _carries_fix():
    try:
        cookies.Morsel()["path"] = "/\n"
    except cookies.CookieError:
        return True
    return False


CARRIES = _carries_fix()


def _check(*values):
    if not CARRIES and _has(*values):
        raise cookies.CookieError(_MESSAGE)


def setitem(attr, value):
    morsel = cookies.Morsel()
    key = attr.lower()
    if key in morsel._reserved and not CARRIES and _has(key, value):
        raise cookies.CookieError("%s %r %r" % (_MESSAGE, key, value))
    morsel[attr] = value
    return morsel.output()


def setdefault(attr, value):
    morsel = cookies.Morsel()
    key = attr.lower()
    if key in morsel._reserved and not CARRIES and _has(key, value):
        raise cookies.CookieError("%s %r %r" % (_MESSAGE, key, value))
    return repr(morsel.setdefault(attr, value))


def set(key, value, coded):
    morsel = cookies.Morsel()
    if not CARRIES and _has(key, value, coded):
        morsel.set(key, "", "")  # the key's own errors first, as upstream's order
        raise cookies.CookieError("%s %r %r %r" % (_MESSAGE, key, value, coded))
    morsel.set(key, value, coded)
    return morsel.output()


def update(pairs, ior=False):
    morsel = cookies.Morsel()
    for key, value in dict(pairs).items():
        key = key.lower()
        if key not in morsel._reserved:
            if ior and not _has(key, value):
                continue  # stock |= (dict's): stored as given, as the package leaves it
            raise cookies.CookieError("Invalid attribute %r" % (key,))
        if (ior or not CARRIES) and _has(key, value):
            raise cookies.CookieError("%s %r %r" % (_MESSAGE, key, value))
    if ior:  # the checks above in every reference: a fixed one's own |= calls update,
        dict.__ior__(morsel, dict(pairs))  # which refuses what the package stores as stock
    else:
        morsel.update(dict(pairs))
    return morsel.output()


def setstate(key, value, coded):
    if not CARRIES and _has(key, value, coded):
        raise cookies.CookieError("%s %r %r %r" % (_MESSAGE, key, value, coded))
    morsel = cookies.Morsel()
    morsel.__setstate__({"key": key, "value": value, "coded_value": coded})
    return pickle.loads(pickle.dumps(morsel)).output()


def _stuffed(key, value, coded, attr, attr_value):
    morsel = cookies.Morsel()
    morsel.set("k", "v", "v")
    morsel.__dict__.update(_key=key, _value=value, _coded_value=coded)
    dict.__setitem__(morsel, attr, attr_value)
    return morsel


def output(key, value, coded, attr, attr_value, sep):
    cookie = cookies.SimpleCookie()
    cookie["x"] = "y"
    dict.__setitem__(cookie, "k", _stuffed(key, value, coded, attr, attr_value))
    for each in cookie.values():
        _check(each.output(None, "Set-Cookie:"))
    return cookie.output(sep=sep)


def js_output(key, value, coded, attr, attr_value):
    morsel = _stuffed(key, value, coded, attr, attr_value)
    _check(morsel.OutputString())
    return morsel.js_output()


OPS = {"setitem": setitem, "setdefault": setdefault, "set": set, "update": update,
       "ior": lambda pairs: update(pairs, True), "setstate": setstate, "output": output,
       "js_output": js_output}

print(json.dumps({"carries_fix": CARRIES}), flush=True)
for line in sys.stdin:
    op, args = json.loads(line)
    try:
        answer = ["ok", OPS[op](*args)]
    except cookies.CookieError as error:
        answer = ["CookieError", str(error)]
    except Exception as error:  # the same type is expected on the other side
        answer = [type(error).__name__, ""]
    print(json.dumps(answer), flush=True)
