"""gh-121650 (CVE-2024-6923) and gh-144125: the generators refuse a header whose
folded form holds a newline that is no fold.

Mirrors upstream's Lib/test/test_email/test_generator.py
(``test_verify_generated_headers``, with gh-144125's ``as_bytes()`` line;
``test_keep_encoded_newlines``, ``test_keep_long_encoded_newlines``) and
test_policy.py's ``test_verify_generated_headers``, on 3.x; 2.7's
Generator in its own shape (no policy, no BytesGenerator).
"""

import random
import sys
import textwrap

import pytest

import email
import email.generator
import email_backport
from email_backport import HeaderWriteError
from email_helpers import PY2, flattened, literal_message

py3 = pytest.mark.skipif(PY2, reason="2.7's email has no policy (see test_py27_*)")
GENERATORS = ["Generator"] if PY2 else ["Generator", "BytesGenerator"]


def _stock_vulnerable(name):
    """Whether the stock generator *name* lacks the check (patch() skips it otherwise)."""
    return email_backport.status()["fixes"][
        "CVE-2024-6923" if name == "Generator" else "CVE-2026-1299"]["lacks"]


@py3
@pytest.mark.parametrize("text", ["Value\r\nBad Injection\r\n", "NoNewLine"])
def test_verify_generated_headers(text):
    """Upstream's TestGenerator.test_verify_generated_headers and gh-144125's as_bytes()."""
    from email import policy
    message = literal_message(text, policy.default)
    if _stock_vulnerable("Generator"):  # the stock generator writes it: the test can fail
        assert message.as_string() == text + "\nBody"
    email_backport.patch()
    with pytest.raises(HeaderWriteError) as refused:
        message.as_string()
    if text == "NoNewLine":
        assert str(refused.value) == "folded header does not end with '\\n': 'NoNewLine'"
    else:
        assert str(refused.value) == "folded header contains newline: %r" % text
    with pytest.raises(HeaderWriteError):
        message.as_bytes()


@py3
@pytest.mark.parametrize("text", ["Header: Value\r\nBad: Injection\r\n", "Header: NoNewLine"])
def test_verify_generated_headers_off(text):
    """Upstream's test_policy test_verify_generated_headers: turned off, the header is
    written as folded. Where the stock Policy has no such attribute, a subclass does."""
    from email import policy
    base = policy.default
    if not hasattr(base, "verify_generated_headers"):
        base = type("Unverified", (type(base),), {"verify_generated_headers": True})()
    email_backport.patch()
    unverified = base.clone(verify_generated_headers=False)
    message = literal_message(text, unverified)
    assert message.as_string() == text + "\nBody"
    assert message.as_bytes() == (text + "\nBody").encode("ascii")


SOURCE = textwrap.dedent("""\
    To: nobody
    Subject: Bad subject=?UTF-8?Q?=0A?=Bcc: injection@example.com

    None
    """)


@py3
@pytest.mark.parametrize("name", GENERATORS)
def test_keep_encoded_newlines(name):
    """Upstream's test_keep_encoded_newlines: not refolded, the source line is kept."""
    from email import policy
    email_backport.patch()
    generator = getattr(email.generator, name)
    message = email.message_from_string(SOURCE, policy=policy.default)
    written = flattened(message, generator, policy=policy.default.clone(max_line_length=80))
    assert written == (SOURCE.encode("ascii") if name == "BytesGenerator" else SOURCE)


@py3
@pytest.mark.parametrize("name", GENERATORS)
def test_keep_long_encoded_newlines(name):
    """Upstream's test_keep_long_encoded_newlines, adapted: where the stock fold writes
    the decoded newline (3.7-3.12), the patched generator refuses it (gh-121650's other
    half, encoding it, is not carried); where it encodes it (3.13.0) or keeps the encoded
    word (3.6), the result is the stock one."""
    from email import policy
    generator = getattr(email.generator, name)
    narrow = policy.default.clone(max_line_length=30)
    stock = flattened(email.message_from_string(SOURCE, policy=policy.default), generator,
                      policy=narrow)
    email_backport.patch()
    written = flattened(email.message_from_string(SOURCE, policy=policy.default), generator,
                        policy=narrow)
    injected = "Subject: Bad subject\nBcc:\n injection@example.com\n"
    if name == "BytesGenerator":
        injected = injected.encode("ascii")
    if injected in stock:  # a Bcc header, written by the stock generator
        assert written == ("HeaderWriteError", "folded header contains newline: %r" % injected)
    else:
        assert written == stock and (b"\nBcc" if name == "BytesGenerator" else "\nBcc") \
            not in stock
    if hasattr(policy.default, "verify_generated_headers"):  # upstream's expected output
        if name == "Generator":
            assert "Subject: Bad subject\n =?utf-8?q?=0A?=Bcc:\n injection" in written


def _values(rng, count):
    """Honest header values: words, spaces, long lines that fold, some non-ASCII."""
    words = ["alpha", "b", "x" * 30, "caf\u00e9" if not PY2 else "cafe", "=?utf-8?q?a?=",
             "(comment)", "\"quoted; text\"", "a@example.com", "\t", "Re:"]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))
            for _ in range(count)]


def _write_all(values, name, policy_name):
    from email import policy as policies
    policy = getattr(policies, policy_name)
    results = []
    for value in values:
        message = email.message_from_string("To: a@example.com\n\nBody\n", policy=policy)
        message["Subject"] = value
        results.append(flattened(message, getattr(email.generator, name), policy=policy))
    return results


@py3
@pytest.mark.parametrize("name", GENERATORS)
@pytest.mark.parametrize("policy_name", ["compat32", "default", "SMTP"])
def test_honest_headers_are_written_as_the_stock_generator_writes_them(name, policy_name):
    values = _values(random.Random(6923), 150)
    stock = _write_all(values, name, policy_name)
    email_backport.patch(force=True)
    assert _write_all(values, name, policy_name) == stock
    assert not any(isinstance(result, tuple) for result in stock)


# -- 2.7: Generator prints each header itself ---------------------------------------

py27 = pytest.mark.skipif(not PY2, reason="2.7's Generator")


def _py27_written(value, **keywords):
    message = email.message.Message()
    message["Subject"] = value
    message.set_payload("hi")
    return flattened(message, **keywords)


@py27
@pytest.mark.parametrize("value, keywords, shown", [
    ("a\nBcc: evil@example.com", {"maxheaderlen": 0}, "Subject: a\nBcc: evil@example.com\n"),
    ("a\nnot a header", {}, "Subject: a\nnot a header\n"),
    ("caf\xe9\nBcc: x", {}, "Subject: caf\xe9\nBcc: x\n"),
    ("x\n\nbody", {}, "Subject: x\n\nbody\n"),
    ("a\rBcc: x", {"maxheaderlen": 0}, "Subject: a\rBcc: x\n"),
])
def test_py27_generator_refuses_a_newline_that_is_no_fold(value, keywords, shown):
    assert _py27_written(value, **keywords).startswith(shown)  # the stock one writes it
    email_backport.patch()
    assert _py27_written(value, **keywords) == (
        "HeaderWriteError", "folded header contains newline: %r" % shown)


@py27
def test_py27_header_encode_refusal_comes_first():
    """2.7's own check (``Header.encode``: an embedded header) raises before the fix."""
    stock = _py27_written("a\nBcc: evil@example.com")
    assert stock[0] == "HeaderParseError"
    email_backport.patch()
    assert _py27_written("a\nBcc: evil@example.com") == stock


@py27
@pytest.mark.parametrize("keywords", [{}, {"maxheaderlen": 0}, {"maxheaderlen": 20}])
def test_py27_honest_headers_are_written_as_the_stock_generator_writes_them(keywords):
    rng = random.Random(27)
    values = _values(rng, 150) + [u"caf\xe9 " * 20, "caf\xe9 long " * 10]
    stock = [_py27_written(value, **keywords) for value in values]
    email_backport.patch()
    assert [_py27_written(value, **keywords) for value in values] == stock


def test_generator_refusal_is_a_message_error():
    assert issubclass(HeaderWriteError, email.errors.MessageError)
    if hasattr(email.errors, "HeaderWriteError"):
        assert HeaderWriteError is email.errors.HeaderWriteError
    assert sys.modules["email_backport"].HeaderWriteError is HeaderWriteError
