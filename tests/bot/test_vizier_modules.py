"""A whole 4-player Alhambra game with all four modules of The Vizier's Favour on (V1–V66), created and played
only with interactions: /game create with the options, Join/Start, the move panel, the vizier window's out-of-turn
purchases and the Bonus cards panel. The random driver is steered (seeded) toward the module actions; afterwards
the stored move log is replayed through the engine to check that each module was really used, and the final post
must announce the engine's scores."""

from __future__ import annotations

import random
import time

import engine
from cogs import _images
from tests.bot.driver import announced_scores, create_and_start, movers, out_of_turn, play_one_action
from tests.bot.harness import CHANNEL_ID

OPTIONS = "vizier, huts, exchange, bonus"


def liked(text: str) -> bool:
    """Steer toward the expansion: vizier purchases, huts, exchange-card payments, taking exchange cards."""
    t = text.lower()
    return any(w in t for w in ("vizier", "hut", "exchange"))


async def play_bonus(h, user, post) -> bool:
    """Open the Bonus cards panel and play a bonus card if it offers one (Confirm included)."""
    r = await h.click(user, post, "Bonus cards")
    panel = r.message
    assert panel is not None and panel.ephemeral and "Your bonus cards" in panel.content, panel
    if not panel.selects():
        return False
    options = [o for o in panel.selects()[0]["options"] if "plays the bonus card" in o["label"]]
    if not options:
        return False
    await h.choose(user, panel, 0, options[0]["value"])
    assert "Confirm" in panel.labels(), panel.content
    done = await h.click(user, panel, "Confirm")
    assert "Done" in done.message.content, done.message.content
    return True


async def test_vizier_favour_full_game_uses_every_module(harness, users, monkeypatch):
    """V3–V7 (vizier purchase out of turn), V22/V24 (a hut taken and placed before scoring), V43/V45 (an
    exchange-card payment), V62 (a bonus card played from the Bonus cards panel): all happen in one seeded
    4-player game played through the bot, and the final post announces the engine's scores."""
    rules = engine.get_rules("alhambra")
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(2027))  # the game's seed: reproducible
    # the ~450 board pictures are not what this test is about (test_leak and render's tests draw them): text
    # posts keep it well under 20 s
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)
    h, players = harness, users[:4]
    by_id = {p.id: p for p in players}
    rnd = random.Random(11)
    t0 = time.perf_counter()
    post = await create_and_start(h, "alhambra", players, options=OPTIONS)
    assert "Bonus cards" in post.labels()
    storage = h.bot.session.storage
    saw_vizier_line = False
    for _ in range(3000):
        if "Game over" in post.content:
            break
        row = await storage.last_game_in_channel(CHANNEL_ID)
        state = h.bot.session.state_of(row)  # cached per move
        # a holder of a playable bonus card plays it now and then, whoever is to move (V62)
        holders = [
            p for p in players if any(type(a).__name__ == "PlayBonus" for a in rules.free_actions(state, str(p.id)))
        ]
        if holders and rnd.random() < 0.3 and await play_bonus(h, rnd.choice(holders), post):
            post = h.last_public(CHANNEL_ID)
            assert "plays the bonus card" in post.content, post.content
            continue
        side = out_of_turn(post, players)
        saw_vizier_line |= bool(side)
        main = movers(post, players)
        assert main or side, f"nobody named to move in {post.content!r}"
        # the vizier line names exactly the engine's out-of-turn claimants, without pinging them
        claimants = [int(p) for p in rules.vizier_claimants(state) if p != state.players[state.current]]
        assert sorted(side) == sorted(claimants), post.content
        assert not any(f"<@{p}>" in post.content for p in side if p not in main)
        user = by_id[rnd.choice(side)] if side and rnd.random() < 0.2 else by_id[rnd.choice(main)]
        await play_one_action(h, user, post, rnd, prefer=liked, prefer_chance=0.5)
        post = h.last_public(CHANNEL_ID)
    assert "Game over" in post.content, post.content
    assert saw_vizier_line

    # replay the stored moves through the engine: which module actions happened, and how
    row = await storage.last_game_in_channel(CHANNEL_ID)
    final = rules.from_json(row.state)
    assert row.status == "finished" and rules.is_over(final)
    state = rules.new_game(list(row.player_ids), row.options, row.seed)
    seen = {"vizier_out_of_turn": 0, "hut": 0, "exchange": 0, "bonus": 0}
    for m in await storage.moves(row.id):
        action = rules.action_from_json(m.action)
        kind = type(action).__name__
        if kind == "VizierBuy" and m.player != state.players[state.current]:
            seen["vizier_out_of_turn"] += 1
        if kind == "TakeHut":
            seen["hut"] += 1
        if kind in ("BuyTile", "VizierBuy") and any(c > 2000 for c in action.cards):
            seen["exchange"] += 1
        if kind == "PlayBonus":
            seen["bonus"] += 1
        state = rules.apply(state, m.player, action)
    assert rules.to_json(state) == row.state  # the log is the game
    assert all(seen.values()), seen
    huts_built = [t for seat in final.seats for t in seat.alhambra.values() if t.startswith("hut")]
    assert huts_built, "a hut taken during the game lies in an Alhambra at the final scoring (V24, V26)"
    want = {row.seat_name(p): s for p, s in rules.scores(final).items()}
    assert announced_scores(post) == want
    print(f"\nalhambra+vizier: {row.version} moves in {time.perf_counter() - t0:.1f}s {seen}\n{post.content}")


async def test_bonus_autoplay_order_is_set_out_of_turn_and_privately(harness, users):
    """V66 [BOT]: any seated holder changes their standing order from the Bonus cards panel while another player
    is to move; it goes through the session (stored as a move) but is not announced in public."""
    rules = engine.get_rules("alhambra")
    h, players = harness, users[:3]
    post = await create_and_start(h, "alhambra", players, options="bonus")
    row = await h.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    current = rules.to_move(h.bot.session.state_of(row))[0]
    other = next(p for p in players if str(p.id) != current)
    r = await h.click(other, post, "Bonus cards")
    panel = r.message
    assert panel.ephemeral and "Your bonus cards" in panel.content and "V66" in panel.content
    option = next(o for o in panel.selects()[0]["options"] if "only before the final scoring" in o["label"])
    await h.choose(other, panel, 0, option["value"])
    done = await h.click(other, panel, "Confirm")
    assert "Done" in done.message.content
    assert h.last_public(CHANNEL_ID) is post  # private: no public post
    row = await h.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    assert h.bot.session.state_of(row).seat(str(other.id)).bonus_auto == "final"
    assert row.version == 1 and row.turns == 0  # a move, not a turn
    # /game log: the others only learn that a private setting changed; the owner sees what
    mover = next(p for p in players if str(p.id) == current)
    seen = (await h.run_command(mover, "game log")).message.content
    assert f"1. {other.name} changes a private setting" in seen and "final scoring" not in seen
    own = (await h.run_command(other, "game log")).message.content
    assert "only before the final scoring" in own


async def test_bonus_button_only_with_the_bonus_module(harness, users):
    """V60: without the bonus-card module the table has no Bonus cards button."""
    post = await create_and_start(harness, "alhambra", users[:2])
    assert "Bonus cards" not in post.labels() and "Play my turn" in post.labels()
