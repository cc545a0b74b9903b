"""The fake checks every request body against Discord's published API description (tests/bot/schema.py): it
catches what Discord would refuse, and knows every operation the bot calls."""

from __future__ import annotations

from tests.bot import schema
from tests.bot.driver import create_and_start

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


async def test_a_game_through_the_fake_sends_only_what_discord_describes(harness, users):
    """A game's lobby, start and moves: every body the bot sent validated (the fixture asserts no violations)."""
    h = harness
    post = await create_and_start(h, "fake", users[:2], options="no-claps")
    await h.click(users[0], post, "Play my turn")
    assert len(h.fake.requests) > 5 and h.fake.violations == []
