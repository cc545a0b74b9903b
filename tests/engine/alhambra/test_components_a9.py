"""A9: the tile bag, scoring track and counters have no game effect beyond holding what they hold."""

from engine.alhambra import RULES
from tests.engine.alhambra.helpers import players


def test_A9_the_bag_is_only_a_hidden_shuffled_supply():
    """A9: the bag holds the undrawn tiles in a seeded random order; a spectator sees how many, never which order."""
    state = RULES.new_game(players(3), {}, 5)
    other = RULES.new_game(players(3), {}, 6)
    assert len(state.bag) == len(other.bag)
    assert state.bag != other.bag  # the order comes from the seed
    seen = RULES.view(state, None)
    assert len(seen.bag) == len(state.bag)
    assert list(seen.bag) == sorted(seen.bag)  # the view's bag is sorted: its order tells nothing
