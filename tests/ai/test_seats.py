"""AI seats: the player ids that mark a seat as an AI, its level and its display name."""

import pytest

from ai import LEVELS, ai_player_id, display_name, is_ai, level_of, next_ai_player_id
from ai.core import Budget


def test_ai_ids_round_trip_level_and_name():
    for level in LEVELS:
        pid = ai_player_id(level, 2)
        assert pid == f"ai:{level}:2"
        assert is_ai(pid)
        assert level_of(pid) == level
        assert display_name(pid) == f"AI ({level}) 2"


def test_discord_ids_and_junk_are_not_ai():
    for pid in ("123456789012345678", "ai", "ai:normal", "ai:genius:1", "AI:normal:1", "ai:normal:x", ""):
        assert not is_ai(pid)
        with pytest.raises(ValueError):
            level_of(pid)
        with pytest.raises(ValueError):
            display_name(pid)


def test_bad_level_or_number_is_refused():
    with pytest.raises(ValueError, match="level"):
        ai_player_id("genius", 1)
    with pytest.raises(ValueError):
        ai_player_id("easy", 0)


def test_next_ai_id_skips_numbers_in_use_whatever_the_level():
    players = ["111", "ai:easy:1", "ai:hard:3"]
    assert next_ai_player_id("normal", players) == "ai:normal:2"
    assert next_ai_player_id("hard", ["111"]) == "ai:hard:1"


def test_budget_forms():
    default = Budget(seconds=1.0)
    assert Budget.of(None, default) is default
    assert Budget.of(50, default) == Budget(iterations=50)
    assert Budget.of(0.25, default) == Budget(seconds=0.25)
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget.of("fast", default)


def test_ai_supports_every_game_and_every_alhambra_module():
    """The bot offers AI seats wherever `supports` says so: every game, Alhambra with any V-module combination."""
    from ai import supports

    assert supports("gardens", {}) and supports("alhambra", {}) and supports("alhambra", {"vizier": True})
    assert supports("alhambra", {"huts": True})
    assert supports("alhambra", {"vizier": True, "huts": True, "exchange": True, "bonus": True})
