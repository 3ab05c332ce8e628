"""Host mode's pure derivations (trvendetta/core/draws.py; docs/fair-play.md, host mode)."""

import hashlib

import pytest

from trvendetta.core.draws import draw_rng, host_commitment, host_game_seed, host_rng

SEED, SALT = bytes(range(32)), bytes(range(32, 64))
ANN, BOB = b"a" * 32, b"b" * 32


def roll(rng, n=12):
    return [rng.below(6) + 1 for _ in range(n)]


def test_the_commitment_is_plain_sha256_of_seed_then_salt_so_any_tool_can_check_it():
    assert host_commitment(SEED, SALT) == hashlib.sha256(SEED + SALT).digest()
    assert host_commitment(SEED, SALT) != host_commitment(SALT, SEED)
    assert host_commitment(SEED, SALT) != host_commitment(SEED, bytes(32))


@pytest.mark.parametrize("seed,salt", [(b"short", SALT), (SEED, SALT + b"x"), (b"", b"")])
def test_a_seed_or_salt_of_the_wrong_length_is_refused_with_its_name(seed, salt):
    with pytest.raises(ValueError, match="must be 32 bytes"):
        host_commitment(seed, salt)


def test_the_game_seed_changes_with_the_hosts_seed_and_with_every_contribution():
    base = host_game_seed(SEED, {"ann": ANN, "bob": BOB})
    assert host_game_seed(SEED, {"bob": BOB, "ann": ANN}) == base  # seats sorted, not insertion order
    assert host_game_seed(SALT, {"ann": ANN, "bob": BOB}) != base
    assert host_game_seed(SEED, {"ann": ANN, "bob": b"c" * 32}) != base
    assert host_game_seed(SEED, {"ann": BOB, "bob": ANN}) != base  # swapping two seats' values is another seed
    assert host_game_seed(SEED, {"ann": ANN}) != base


def test_a_missing_or_malformed_contribution_is_refused():
    with pytest.raises(ValueError, match="contribution"):
        host_game_seed(SEED, {})
    with pytest.raises(ValueError, match="bob's contribution must be 32 bytes"):
        host_game_seed(SEED, {"ann": ANN, "bob": b"b"})


def test_each_draw_follows_from_the_game_seed_alone_and_differs_from_draw_to_draw():
    game = host_game_seed(SEED, {"ann": ANN, "bob": BOB})
    assert roll(host_rng(game, 2)) == roll(host_rng(game, 2))
    assert roll(host_rng(game, 2)) != roll(host_rng(game, 3))
    other = host_game_seed(SEED, {"ann": ANN, "bob": b"c" * 32})
    assert roll(host_rng(game, 2)) != roll(host_rng(other, 2))
    # domain-separated from an exchange game's draw over the same bytes
    assert roll(host_rng(game, 2)) != roll(draw_rng(2, [game]))
