"""The fake checks every request body against Discord's published API description (tests/bot/schema.py): it
catches what Discord would refuse, and knows every operation the bot calls."""

from __future__ import annotations

import pytest

from tests.bot import schema
from tests.bot.driver import dm_turn_at_confirm
from tests.bot.harness import FakeDiscord, Harness

MESSAGES = "/channels/{channel_id}/messages"


def button(custom_id: str) -> dict:
    return {"type": 2, "style": 1, "label": "Play", "custom_id": custom_id}


def test_a_message_discord_would_refuse_is_a_problem_and_a_good_one_is_not():
    good = {"content": "Your turn", "components": [{"type": 1, "components": [button("t:1:play")]}]}
    assert schema.problems("POST", MESSAGES, good) == []
    assert schema.problems("POST", MESSAGES, {"content": "x" * 4001})  # over Discord's length
    assert schema.problems("POST", MESSAGES, {"components": [{"type": 1, "components": [button("x" * 101)]}]})
    six = [button(f"b{i}") for i in range(6)]  # a row holds five buttons
    assert schema.problems("POST", MESSAGES, {"components": [{"type": 1, "components": six}]})
    options = [{"label": str(i), "value": str(i)} for i in range(26)]  # a menu offers 25 options
    menu = {"type": 3, "custom_id": "m", "options": options}
    assert schema.problems("POST", MESSAGES, {"components": [{"type": 1, "components": [menu]}]})


def test_an_operation_the_description_does_not_hold_is_a_problem():
    assert schema.problems("POST", "/channels/{channel_id}/pins", {}) != []
    # discord.py's names for a route's parameters may differ from the description's: they match any
    assert schema.validator("POST", "/interactions/{webhook_id}/{webhook_token}/callback") is not None


@pytest.fixture
def checked(monkeypatch):
    """Every fake Discord of the test checks each request body against the description (from the command sync
    at the start on)."""
    monkeypatch.setattr(FakeDiscord, "check_schema", True)


async def test_a_game_through_the_fake_sends_only_what_discord_describes(checked, tmp_path, fake_game, users):
    """The command sync, a lobby, the start, a move through the panel (pages, menus, Confirm), a DM notice and the
    settings and status replies: every body the bot sent is one Discord describes."""
    h = await Harness.start(tmp_path / "games.sqlite3")
    try:
        ana, bo = users[:2]
        panel = await dm_turn_at_confirm(h, ana, bo)
        await h.click(ana, panel, "Confirm")
        await h.settle()
        await h.run_command(ana, "game status")
        await h.run_command(ana, "game settings", deadline="24h")
        assert h.dms(bo), "Bo was told of his turn by DM"
    finally:
        await h.close()
    assert len(h.fake.requests) > 10 and h.fake.violations == [] and h.unexpected_errors == []
    looked_up = schema.validator.cache_info()
    assert looked_up.hits + looked_up.misses >= 5  # the bodies were checked, not passed over


@pytest.mark.parametrize("game", ["alhambra", "queens_garden"])
async def test_a_compact_ai_game_sends_only_what_discord_describes(checked, tmp_path, users, game):
    """A whole compact game of AI seats beside an away human: the living board's post and edits (attachments
    replaced), turn lines, and the results with their chart."""
    h = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0)
    try:
        ana = users[0]
        await h.run_command(ana, "away", until="30d", ai=True)
        await h.run_command(ana, "game create", game=game, ai_players=1, ai_level="easy", posts="compact")
        await h.click(ana, h.last_public(), "Start")
        for _ in range(3000):
            await h.settle()
            if "**Game over**" in h.last_public().content:
                break
        assert "**Game over**" in h.last_public().content
        assert any(m.edits for m in h.public())
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []
