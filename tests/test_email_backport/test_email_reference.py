"""The patched Generator against Debian 12's python3.11, where it carries gh-121650.

Each case is written by both (``email_helpers.written``): a Subject set or
parsed, with policy ``compat32``/``default``/``SMTP`` and a narrow or wide
line. Folding differs between versions (3.6's and 3.13's refold are not
3.11's), so what is compared is the verdict: the same error type, or both
written with the same header lines (nothing injected); but where the
reference encodes a decoded newline (``=0A``, ``=0D``: gh-121650's other
half, where not carried), the patched generator refuses with HeaderWriteError.
That the reference carries gh-121650 is probed (``reference.needs``): Debian's
updates add fixes to it, never assumed from its version.
"""

import random

import pytest

import email_backport
from email_helpers import PY2, Reference, written
from reference import needs

pytestmark = [pytest.mark.skipif(PY2, reason="a 3.x test process"),
              needs(carrying=["CVE-2024-6923"])]  # gh-121650

HOSTILE = [
    ("parsed", "Bad subject=?UTF-8?Q?=0A?=Bcc: injection@example.com"),
    ("parsed", "=?UTF-8?Q?a=0D=0ABcc:_x?= and more words to fold the line here"),
    ("parsed", "=?UTF-8?B?YQpCY2M6IHg=?= words words words words words words words"),
    ("parsed", "x =?utf-8?q?=0A=0A?=body"),
    ("set", "a\nBcc: evil@example.com"),
    ("set", "a\r\nBcc: evil@example.com"),
    ("set", "x\n\nbody"),
    ("set", "a\rb"),
]


def _honest(rng, count):
    words = ["alpha", "b", "x" * 40, "caf\u00e9", "=?utf-8?q?a_b?=", "(c)", "\"q; t\"",
             "a@example.com", "Re:", "\u4e2d\u6587"]
    return [(rng.choice(["set", "parsed"]), " ".join(
        rng.choice(words) for _ in range(rng.randint(1, 20)))) for _ in range(count)]


@pytest.fixture(scope="module")
def reference():
    process = Reference()
    yield process
    process.close()


@pytest.mark.parametrize("policy_name", ["compat32", "default", "SMTP"])
@pytest.mark.parametrize("length", [30, 78])
def test_same_as_the_reference_interpreter(reference, policy_name, length):
    cases = HOSTILE + _honest(random.Random(length), 60)
    expected = reference.written([list(case) for case in cases], policy_name, length)
    email_backport.patch()
    got = [written(how, text, policy_name, length) for how, text in cases]
    for case, mine, theirs in zip(cases, got, expected):
        if isinstance(theirs, list):
            assert isinstance(mine, list) and mine[0] == theirs[0], (case, mine, theirs)
        elif isinstance(mine, list):  # only gh-121650's encoding half
            assert mine[0] == "HeaderWriteError", (case, mine, theirs)
            assert "=0A" in theirs.upper() or "=0D" in theirs.upper(), (case, mine, theirs)
        else:
            assert _header_names(mine) == _header_names(theirs), (case, mine, theirs)
    refused = [case for case, mine in zip(cases, got) if isinstance(mine, list)
               and mine[0] == "HeaderWriteError"]
    assert all(case in HOSTILE for case in refused)  # nothing honest is refused
    if policy_name == "compat32":  # it stores a value as given: each set one is refused,
        for case, mine in zip(cases, got):  # by Header's own check or by the fix
            if case in HOSTILE and case[0] == "set":
                assert mine[0] in ("HeaderParseError", "HeaderWriteError"), (case, mine)
        assert refused


def _header_names(text):
    """The names of the header lines before the first empty line (folds are not lines)."""
    head = text.replace("\r\n", "\n").split("\n\n", 1)[0]
    return [line.split(":", 1)[0] for line in head.split("\n") if line[:1] not in " \t"]
