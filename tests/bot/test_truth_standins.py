"""Issue #21, stand-ins play at the table's AI level: the AI that plays for a late or away human plays as the
table chose (`/game create ai_level`, `/game settings ai_level`), normal by default."""

from __future__ import annotations

import pytest

import ai
from tests.bot.harness import CHANNEL_ID


@pytest.fixture
def levels(monkeypatch):
    """The level of every decision the bot asks the AI for, by seat (then decided as asked)."""
    asked: list[tuple[str, str]] = []
    real = ai.choose

    def choose(game, state, seat, level, seed, budget=None, **kwargs):
        asked.append((seat, level))
        return real(game, state, seat, level, seed, 200 if level == "hard" else budget, **kwargs)

    monkeypatch.setattr(ai, "choose", choose)
    return asked


@pytest.mark.parametrize(
    ("created", "changed", "want"), [(None, None, "normal"), ("hard", None, "hard"), ("hard", "easy", "easy")]
)
async def test_a_stand_in_plays_at_the_tables_ai_level(bots, users, levels, created, changed, want):
    h, (ana, bo) = bots, users[:2]
    values = {"ai_level": created} if created else {}
    await h.run_command(ana, "game create", game="gardens", deadline="12h", **values)
    lobby = h.last_public()
    await h.click(bo, lobby, "Join")
    await h.click(ana, lobby, "Start")
    if changed:
        r = await h.run_command(ana, "game settings", ai_level=changed)
        assert f"playing at level {changed}" in r.message.content, r.message.content
    cog = h.bot.get_cog("TurnsCog")
    for _ in range(3):  # the warning, the table is asked, nobody answers: the AI plays this turn for Ana
        row = await h.bot.storage.game_in_channel(CHANNEL_ID)
        assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1
        await h.settle()
    assert h.last_public().content.startswith("**AI for Ana**"), h.last_public().content
    assert levels == [(ana.sid, want)]
    r = await h.run_command(bo, "away", until="3d", ai=True)  # away with the AI on: the same level
    await h.run_command(ana, "game settings", standins=True)
    await h.settle()
    assert levels[1:] == [(bo.sid, want)]
    assert h.last_public().content.startswith("**AI for Bo**"), h.last_public().content
