"""Named tuples made without compiling source: the store's result types (``Loaded``, ``GameHeader``, ...).

``typing.NamedTuple`` (through ``collections.namedtuple``) writes each class's ``__new__`` as
source text and compiles it: about 0.2 ms a class in a fresh process, and `trv show` made ten
of them before printing anything (docs/performance.md, "show start-up, continued").
``class Loaded(Named)`` with annotated fields, defaults last, is the same kind of tuple: fields
by name and by position, ``_fields``, ``_field_defaults``, ``_make``, ``_replace``, ``_asdict``,
the same repr, equality, hashing and pickling (tests/store/test_named.py compares it with a
``typing.NamedTuple`` of the same fields); only its ``__new__`` is one shared function.
"""

from collections import _tuplegetter  # the C field accessor collections.namedtuple uses
from typing import Any

_new = tuple.__new__


class _Fields(type):
    """Makes a ``Named`` subclass's annotated fields its tuple's positions."""

    def __new__(mcs, name: str, bases: tuple, ns: dict[str, Any]) -> type:
        if bases == (tuple,):  # Named itself
            return super().__new__(mcs, name, bases, ns)
        if bases != (Named,):
            raise TypeError(f"{name}: a Named tuple derives from Named alone")
        fields = tuple(ns.get("__annotations__", {}))
        defaults = {f: ns.pop(f) for f in fields if f in ns}
        if tuple(defaults) != fields[len(fields) - len(defaults):]:
            raise TypeError(f"{name}: a field without a default follows one with a default")
        ns.update(__slots__=(), _fields=fields, _field_defaults=defaults, __match_args__=fields, _n=len(fields),
                  _tail=tuple(defaults.values()))
        cls = super().__new__(mcs, name, bases, ns)
        for i, field in enumerate(fields):
            setattr(cls, field, _tuplegetter(i, f"Alias for field number {i}"))
        return cls


class Named(tuple, metaclass=_Fields):
    """Base of a named tuple type: ``class Point(Named): x: int; y: int = 0``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _field_defaults: dict[str, Any] = {}
    _n = 0  # how many fields
    _tail: tuple = ()  # the defaults of the last fields, in order

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) != cls._n:  # every field given by position: as fast as a NamedTuple
            args = _complete(cls, args, kwargs)
        return _new(cls, args)

    @classmethod
    def _make(cls, iterable: Any) -> Any:
        result = tuple.__new__(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, **changes: Any) -> Any:
        result = self._make(map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return result

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, self))})"

    def __getnewargs__(self) -> tuple:
        return tuple(self)


def _complete(cls: type, args: tuple, kwargs: dict[str, Any]) -> tuple:
    """The values of all of ``cls``'s fields from the arguments given (defaults filled in),
    else the TypeError a function with those parameters raises."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    defaults: dict[str, Any] = cls._field_defaults  # type: ignore[attr-defined]
    tail: tuple = cls._tail  # type: ignore[attr-defined]
    if not kwargs and len(fields) - len(tail) <= len(args) < len(fields):  # the last ones left to their defaults
        return args + tail[len(args) - len(fields):]
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}() takes {len(fields)} positional arguments but {len(args)} were given")
    twice = [f for f in fields[:len(args)] if f in kwargs]
    if twice:
        raise TypeError(f"{cls.__name__}() got multiple values for argument {twice[0]!r}")
    values = list(args)
    for field in fields[len(args):]:
        if field in kwargs:
            values.append(kwargs.pop(field))
        elif field in defaults:
            values.append(defaults[field])
        else:
            raise TypeError(f"{cls.__name__}() missing required argument: {field!r}")
    if kwargs:
        raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {next(iter(kwargs))!r}")
    return tuple(values)
