"""One plugin per game: a game the shared code has never heard of plays through the bot once registered.

The test game of tests/bot/fakegame.py is registered by the `fake_game` fixture alone (`engine.register` with its
rules and words), without any shared file naming it. Its free action (a wave) and its out-of-turn action (a clap
while a clap window is open) are declared through the engine's optional contract (`free_actions`,
`has_free_actions`, `out_of_turn`), and the bot offers them with its generic Free actions panel and out-of-turn
line."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import engine
from tests.bot.driver import announced_scores, create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID

ROOT = Path(__file__).resolve().parents[2]
BOLD = re.compile(r"\*\*([^*]+)\*\*")


def out_of_turn(post, players) -> list:
    """The players the post's generic out-of-turn line names (bold, never pinged)."""
    line = next((x for x in post.content.splitlines() if "may act out of turn" in x), "")
    by_name = {p.name: p for p in players}
    return [by_name[n] for n in BOLD.findall(line.split("may act")[0]) if n in by_name]


async def test_a_registered_fourth_game_plays_a_full_game_with_free_and_out_of_turn_actions(harness, users):
    h, players = harness, users[:3]
    by_id = {p.id: p for p in players}
    rnd = random.Random(8)
    post = await create_and_start(h, "fake", players, options="target=100")
    assert "Free actions" in post.labels()
    waves = claps = 0
    for _ in range(400):
        if "Game over" in post.content:
            break
        side = out_of_turn(post, players)
        main = [by_id[i] for i in movers(post, players)]
        if not waves and rnd.random() < 0.2:  # someone whose turn it is not opens Free actions and waves
            waver = next(p for p in players if p not in main)
            panel = (await h.click(waver, post, "Free actions")).message
            assert panel.ephemeral and "at any time" in panel.content
            await h.choose(waver, panel, 0, "waves")
            await h.click(waver, panel, "Confirm")
            assert panel.content.startswith(f"✅ Done: **{waver.name}** waves.")
            post = h.last_public(CHANNEL_ID)
            assert post.content.startswith(f"**{waver.name}** waves") and "<@" not in post.content
            waves += 1
            continue
        if side:  # an out-of-turn player claps (named in the post, never pinged)
            assert not any(f"<@{p.id}>" in post.content for p in side)
            clapper = rnd.choice(side)
            await play_one_action(h, clapper, post, rnd)
            assert h.last_public(CHANNEL_ID).content.startswith(f"**{clapper.name}** claps")
            claps += 1
        else:
            await play_one_action(h, rnd.choice(main), post, rnd, prefer=lambda t: "adds" in t)
        post = h.last_public(CHANNEL_ID)
    assert "Game over" in post.content and waves == 1 and claps >= 1
    row = await h.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    rules = engine.get_rules("fake")
    final = rules.from_json(row.state)
    assert announced_scores(post) == {row.seat_name(p): s for p, s in rules.scores(final).items()}


def test_no_shared_file_names_a_game():
    """The Discord layer and the storage know games only through the registry and the optional contract."""
    names = re.compile(r"alhambra|vizier|bonus|gardens|queens_garden|queen's|fake", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("cogs", "storage")
        for path in (ROOT / folder).rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if names.search(line)
    ]
    assert found == []


def test_every_module_says_what_it_is_for():
    """A file is one concern, split by concern rather than by a count of lines: every module of our packages
    opens with a docstring saying what it is for (and none has grown past all reason, 1,500 lines)."""
    found = []
    for folder in ("cogs", "engine", "render", "present", "storage", "records", "ai", "i18n"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            if path.name != "__init__.py" and not ast.get_docstring(tree):
                found.append(f"{path.relative_to(ROOT)}: no docstring")
            if (n := len(path.read_text().splitlines())) > 1500:
                found.append(f"{path.relative_to(ROOT)}: {n} lines")
    assert found == []
