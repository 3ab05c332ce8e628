from collections import Counter

from trvendetta.core.rng import Rng


def test_same_seed_and_stream_give_the_same_draws():
    a, b = Rng(42, 3), Rng(42, 3)
    assert [a.below(6) for _ in range(50)] == [b.below(6) for _ in range(50)]


def test_streams_differ_by_event_count():
    a, b = Rng.for_action(42, 3), Rng.for_action(42, 4)
    assert [a.below(1000) for _ in range(10)] != [b.below(1000) for _ in range(10)]


def test_stream_is_pinned():
    # the stream is fixed by rng.py alone (SHA-256 counter mode): any change
    # to it would change every recorded game, so pin the first draws
    r = Rng(1, 0)
    assert [r.below(6) for _ in range(8)] == PINNED


PINNED = [5, 1, 5, 4, 0, 4, 3, 0]


def test_below_is_uniform_enough():
    r = Rng(5)
    counts = Counter(r.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    for v in counts.values():
        assert abs(v - 10_000) < 400  # ~4.4 sigma


def test_weighted_draw_respects_counts():
    r = Rng(9)
    counts = Counter(r.weighted({"a": 1, "b": 3, "c": 0}) for _ in range(8000))
    assert "c" not in counts
    assert 0.70 < counts["b"] / 8000 < 0.80


def test_shuffle_is_a_permutation():
    r = Rng(3)
    items = list(range(20))
    out = r.shuffled(items)
    assert sorted(out) == items and out != items


def test_an_rng_hashes_its_key_on_the_first_draw_only(monkeypatch):
    # every action gets an Rng and most roll nothing: making one must not hash (the stream stays pinned)
    from trvendetta.core import rng

    calls = []
    real = rng._sha256
    monkeypatch.setattr(rng, "_sha256", lambda data: calls.append(data) or real(data))
    r = Rng.for_action(1, 0)
    assert calls == []
    assert [r.below(6) for _ in range(8)] == PINNED and len(calls) == 2  # the key, then one block
