"""``store.named.Named`` behaves as the ``typing.NamedTuple`` it replaces (event_store/named.py)."""

import copy
import pickle
from typing import Any, NamedTuple

import pytest

from trvendetta.store.named import Named


class Point(Named):
    x: int
    y: Any
    label: str = ""
    tags: tuple = ()

    @property
    def both(self) -> tuple:
        return self.x, self.y


class Twin(NamedTuple):
    x: int
    y: Any
    label: str = ""
    tags: tuple = ()


CALLS = [((1, 2), {}), ((1, 2, "a"), {}), ((1, 2, "a", ("t",)), {}), ((1,), {"y": 2}), ((), {"x": 1, "y": 2, "tags": (3,)}),
         ((1, 2), {"label": "b"})]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_it_is_built_read_and_changed_as_a_named_tuple_is(args, kwargs):
    p, t = Point(*args, **kwargs), Twin(*args, **kwargs)
    assert tuple(p) == tuple(t) and p == t and hash(p) == hash(t) and isinstance(p, tuple)
    assert (p.x, p.y, p.label, p.tags) == (t.x, t.y, t.label, t.tags) == (p[0], p[1], p[2], p[3])
    assert repr(p) == repr(t).replace("Twin", "Point")
    assert p._asdict() == t._asdict()
    assert p._replace(label="z") == t._replace(label="z") and type(p._replace(label="z")) is Point
    assert Point._make(iter(t)) == p and type(Point._make(t)) is Point
    x, y, label, tags = p
    assert (x, y, label, tags) == tuple(t)
    assert pickle.loads(pickle.dumps(p)) == p and type(pickle.loads(pickle.dumps(p))) is Point
    assert copy.deepcopy(p) == p and copy.copy(p) == p
    assert p.both == (p.x, p.y)
    match p:
        case Point(x, y, label):
            assert (x, y, label) == tuple(t)[:3]
    assert Point._fields == Twin._fields and Point._field_defaults == Twin._field_defaults


@pytest.mark.parametrize(("args", "kwargs"), [((), {}), ((1,), {}), ((1, 2, 3, 4, 5), {}), ((1, 2), {"x": 1}),
                                              ((1, 2), {"colour": 1})])
def test_wrong_arguments_are_a_type_error_as_for_a_named_tuple(args, kwargs):
    with pytest.raises(TypeError):
        Twin(*args, **kwargs)
    with pytest.raises(TypeError):
        Point(*args, **kwargs)


def test_replace_and_make_refuse_what_a_named_tuple_refuses():
    p = Point(1, 2)
    with pytest.raises(ValueError):
        p._replace(colour=1)
    with pytest.raises(TypeError):
        Point._make((1, 2))
    with pytest.raises(AttributeError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        p.colour = 3  # type: ignore[attr-defined]  (no instance dict, as a named tuple has none)


def test_a_field_without_a_default_after_one_with_a_default_is_refused():
    with pytest.raises(TypeError):
        class Bad(Named):  # noqa: F841
            x: int = 0
            y: int
