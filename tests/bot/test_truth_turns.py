"""Issue #20, "AI this turn" plays one turn: the turn of a seat ends when the engine says so (the rules'
`turn_over`), not when the player to move changes. In Queen's Garden a player whose rival passed has many turns in
a row; the table's "this turn" lets the AI play exactly one of them."""

from __future__ import annotations

import random

import pytest

from tests.bot.driver import clock, create_and_start, play_one_action
from tests.bot.harness import CHANNEL_ID


@pytest.mark.parametrize("how", ["default", "button"])
async def test_ai_this_turn_plays_one_turn_when_the_late_player_has_several_in_a_row(bots, users, how):
    """Queen's Garden (Q18, Q29): Ana passes at once, so Bo has turn after turn until he passes. Bo is late; the AI
    plays this turn for him (by the table's default, or by Ana's button): one action, then it is Bo's again."""
    h, (ana, bo) = bots, users[:2]
    post = await create_and_start(h, "queens_garden", [ana, bo])
    await h.run_command(ana, "game settings", deadline="12h")
    if post.content.splitlines()[-1] != f"Your turn, <@{ana.id}>.":  # the first player is drawn (Q15)
        await play_one_action(h, bo, post, random.Random(2), prefer=lambda t: "Pass" not in t, prefer_chance=1.0)
        await h.settle()
        post = h.last_public()
    assert post.content.splitlines()[-1] == f"Your turn, <@{ana.id}>."
    await play_one_action(h, ana, post, random.Random(1), prefer=lambda t: "Pass" in t, prefer_chance=1.0)
    await h.settle()
    assert "passes" in h.last_public().content and h.last_public().content.endswith(f"Your turn, <@{bo.id}>.")
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    before = row.turns
    if how == "default":
        await clock(h, 3)  # the warning, the table is asked, nobody answers: the AI plays this turn
    else:
        await clock(h, 2)
        await h.click(ana, h.last_public(), "Let the AI play for Bo this turn")
        await h.settle()
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    moves = await h.bot.storage.moves(row.id)
    played = [m for m in moves if m.standin]
    assert len(played) == 1, [m.action for m in played]  # one turn, not all of them up to his pass
    assert row.turns == before + 1 and "sub" not in row.table
    assert h.last_public().content.startswith("**AI for Bo**")
    assert h.last_public().content.endswith(f"Your turn, <@{bo.id}>."), h.last_public().content
    print("\n" + "\n---\n".join(m.content for m in h.public()[-5:]))
