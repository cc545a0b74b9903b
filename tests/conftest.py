"""Shared test settings.

PROPERTY_GAMES sets how many random complete games each property test plays per configuration (player count,
variant, module set). CI uses the small default; the full sizes named in the issues are run by hand, e.g.
`PROPERTY_GAMES=300 pytest tests/engine`.
"""

import os

import pytest


def property_games(default: int) -> int:
    """The number of random games per configuration: $PROPERTY_GAMES if set, else `default`."""
    value = os.environ.get("PROPERTY_GAMES")
    return int(value) if value else default


@pytest.fixture
def n_games():
    return property_games
