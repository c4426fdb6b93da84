"""Awaitables written without ``async``/``await``: a generator runs as a coroutine.

Why: the wheel is universal, and installing it on Python 2.7 byte-compiles
every module; ``async def``, ``await`` and ``yield from`` there are
SyntaxErrors that pip prints. So a coroutine here is a generator that
*yields* each awaitable it awaits (and raises :class:`Return` to give a
value, as ``return value`` in a generator is a 2.7 SyntaxError), and
:class:`Coroutine` runs it, delegating to each awaitable's ``__await__``
iterator the way PEP 380's ``yield from`` does (values, ``throw()`` and
``close()`` go through). asyncio, uvloop and trio-free servers await any
object with ``__await__``.
"""

__all__ = ["Return", "Coroutine", "Ready", "Then"]


class Return(Exception):
    """Raised by a generator run by :class:`Coroutine`: the result of the await."""

    def __init__(self, value):
        Exception.__init__(self, value)
        self.value = value


class Coroutine(object):
    """``await Coroutine(gen)``: runs *gen*, awaiting each awaitable it yields
    and sending the result back; its result is that of :class:`Return`."""

    __slots__ = ("_gen", "_inner")

    def __init__(self, gen):
        self._gen = gen
        self._inner = None  # the __await__ iterator delegated to, if any

    def __await__(self):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        return self._step(None, None)

    next = __next__

    def send(self, value):
        return self._step(value, None)

    def throw(self, kind, value=None, traceback=None):
        if value is None:
            value = kind() if isinstance(kind, type) else kind
        if traceback is not None:
            value = value.with_traceback(traceback)
        return self._step(None, value)

    def close(self):
        inner, self._inner = self._inner, None
        try:
            if inner is not None and hasattr(inner, "close"):
                inner.close()
        finally:
            self._gen.close()

    def _step(self, value, error):
        """Advance to the next value to yield to the event loop (PEP 380's expansion)."""
        while True:
            inner = self._inner
            if inner is not None:
                try:
                    if error is None:
                        return next(inner) if value is None else inner.send(value)
                    throw = getattr(inner, "throw", None)
                    if throw is not None and not isinstance(error, GeneratorExit):
                        error, raised = None, error
                        return throw(raised)
                    self._inner = None  # PEP 380: close the inner one, throw into ours
                    if hasattr(inner, "close"):
                        inner.close()
                except StopIteration as stop:
                    self._inner = None
                    value, error = getattr(stop, "value", None), None
                except BaseException as exc:  # the awaited one failed: raise it in gen
                    self._inner = None
                    value, error = None, exc
            try:
                if error is not None:
                    awaitable = self._gen.throw(error)
                else:
                    awaitable = self._gen.send(value)
            except Return as result:
                raise StopIteration(result.value)
            value, error = None, None
            try:
                self._inner = awaitable.__await__()
            except AttributeError:
                error = TypeError("object %s can't be used in 'await' expression"
                                  % (type(awaitable).__name__,))


class Ready(object):
    """An awaitable whose result is *value*, at once (a message already received)."""

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value

    def __await__(self):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration(self._value)

    next = __next__

    def send(self, value):
        raise StopIteration(self._value)

    def throw(self, kind, value=None, traceback=None):
        if value is None:
            value = kind() if isinstance(kind, type) else kind
        raise value

    def close(self):
        pass


class Then(object):
    """``await Then(awaitable, function)``: *function* of what *awaitable* gives.

    The same as a :class:`Coroutine` that awaits *awaitable* and returns
    *function* of its result, without a generator and its runner: one object
    delegating to *awaitable*'s ``__await__`` iterator. Why: ``receive``
    is awaited once per message, and a server makes a message of each chunk
    of a chunked body (hypercorn does), which an attacker sends one byte
    long."""

    __slots__ = ("_awaitable", "_function", "_inner")

    def __init__(self, awaitable, function):
        self._awaitable = awaitable
        self._function = function
        self._inner = None

    def __await__(self):
        self._inner = self._awaitable.__await__()
        return self

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._inner)
        except StopIteration as stop:
            raise StopIteration(self._function(stop.value))

    next = __next__

    def send(self, value):
        if value is None:
            return self.__next__()
        try:
            return self._inner.send(value)
        except StopIteration as stop:
            raise StopIteration(self._function(stop.value))

    def throw(self, kind, value=None, traceback=None):
        if value is None:
            value = kind() if isinstance(kind, type) else kind
        if traceback is not None:
            value = value.with_traceback(traceback)
        throw = getattr(self._inner, "throw", None)
        if throw is None:
            raise value
        try:
            return throw(value)
        except StopIteration as stop:
            raise StopIteration(self._function(stop.value))

    def close(self):
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()
