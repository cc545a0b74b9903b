"""Replays: the viewer steps from the first to the last position of a finished game of each type, each
frame byte for byte the public board of that position; its buttons work after a restart; another server's game
is refused; the animated GIF of a 6-player Alhambra with every module fits Discord's 10 MiB and shows one frame
per turn, posted once per channel."""

from __future__ import annotations

import functools
import io
import random
import time

import pytest
from PIL import Image, ImageChops

import engine
from cogs import _replaying
from cogs._seating import encode
from cogs.replays import move_line
from i18n import words
from render import render_png
from render.replay import LIMIT, Animation, TooBig, durations, frame_positions
from scripts.gallery import BIAS
from storage import GameRow, MoveRow, Seat
from tests.bot.driver import create_and_start, play_to_end
from tests.bot.harness import CHANNEL_ID, GUILD_ID, Harness
from tests.bot.test_custom_ids import HUGE, forged
from tests.bot.test_language import German, check_clean, fake_languages, mark, press  # noqa: F401 (a fixture)

ALL_MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
NAMES = ["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay"]


def played(game: str, n: int, seed: int, options: dict | None = None) -> tuple[list[str], list[tuple[str, object]]]:
    """A seeded random game through the engine contract (with a bias toward building, as the gallery's): the
    players and every (player, action), free actions (Alhambra's bonus cards, standing orders) now and then."""
    rules = engine.get_rules(game)
    players = [str(200000000000000001 + i) for i in range(n)]
    state = rules.new_game(players, options or {}, seed)
    rnd, weights, moves = random.Random(seed), BIAS.get(game, {}), []
    while not rules.is_over(state):
        who = rnd.choice(players)
        plays = rules.free_actions(state, who) if options else []  # bonus cards, a standing order (private)
        if plays and rnd.random() < 0.1:
            action = rnd.choice(plays)
        else:
            who = rnd.choice(rules.to_move(state))
            legal = rules.legal_actions(state, who)
            action = rnd.choices(legal, weights=[weights.get(a.kind, 1.0) for a in legal])[0]
        state = rules.apply(state, who, action)
        moves.append((who, action))
    return players, moves


async def stored_game(h: Harness, gid: int, game: str, n: int, seed: int, options: dict | None = None) -> GameRow:
    """A finished game of this server's channel, stored as the bot stores one (its moves, its final state)."""
    rules = engine.get_rules(game)
    players, moves = played(game, n, seed, options)
    state = rules.new_game(players, options or {}, seed)
    for who, action in moves:
        state = rules.apply(state, who, action)
    now = time.time()
    row = GameRow(
        id=gid,
        guild_id=h.guild_id,
        channel_id=CHANNEL_ID,
        game=game,
        options=options or {},
        seed=seed,
        status="finished",
        seats=tuple(Seat(p, name) for p, name in zip(players, NAMES, strict=False)),
        state_json=encode(rules, state),
        version=len(moves),
        creator_id=players[0],
        lobby_message_id=None,
        reminder_hours=24,
        created_at=now - 3600,
        updated_at=now,
        turn_started_at=None,
        reminded_at=None,
        nudged_at=None,
        turns=sum(not rules.is_free_action(a) for _p, a in moves),
    )
    log = [MoveRow(gid, k, p, rules.action_to_json(a), now - 3600 + k) for k, (p, a) in enumerate(moves, 1)]
    await h.bot.storage.import_game(row, log, [])
    return row


async def public_renders(h: Harness, row: GameRow) -> list[bytes]:
    """The public board of every position of `row`, drawn here from the replayed states."""
    states = await h.bot.session.replay(row, await h.bot.storage.moves(row.id))
    rules = engine.get_rules(row.game)
    names = {s.id: s.name for s in row.seats}
    return [render_png(row.game, rules.view(s, None), None, names, lang="en") for s in states]


def frame_of(msg) -> bytes:
    assert len(msg.files) == 1 and msg.files[0][0].endswith(".png"), msg.files
    return msg.files[0][1]


@pytest.fixture
async def bot(tmp_path):
    h = await Harness.start(tmp_path / "games.sqlite3")
    yield h
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def step_through(h: Harness, user, viewer, row: GameRow, renders: list[bytes]) -> None:
    """▶ from the deal to the end: every frame is the public render of its position; then ⏮ and ⏭ and ◀."""
    total = row.version
    assert "The deal, before move 1 of" in viewer.content and frame_of(viewer) == renders[0]
    assert [b.get("disabled", False) for b in viewer.buttons()[:4]] == [True, True, False, False]
    for k in range(1, total + 1):
        r = await h.click(user, viewer, "▶")
        assert r.message is viewer and viewer.ephemeral  # the same message, edited
        assert f"Move {k} of {total}: " in viewer.content, viewer.content
        assert frame_of(viewer) == renders[k], f"position {k} differs from the public render"
    assert "🏁 The end" in viewer.content
    assert [b.get("disabled", False) for b in viewer.buttons()[:4]] == [False, False, True, True]
    await h.click(user, viewer, "⏮")
    assert frame_of(viewer) == renders[0]
    await h.click(user, viewer, "⏭")
    assert frame_of(viewer) == renders[total] and f"Move {total} of {total}" in viewer.content
    await h.click(user, viewer, "◀")
    assert frame_of(viewer) == renders[total - 1]


async def test_replay_of_a_game_played_here_from_its_final_post(bot, users):
    """The Gardens, played to the end with clicks: **Replay** under the final post opens the viewer for the user
    who clicked only; it steps through every position, the last one the final post's own board."""
    h, players = bot, users[:2]
    post = await create_and_start(h, "gardens", players)
    final, actions = await play_to_end(h, players, post, random.Random(5))
    row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
    renders = await public_renders(h, row)
    assert final.files[0][1] == renders[-1]  # what the table saw at the end
    r = await h.click(users[2], final, "Replay")  # anyone may replay, not only the players
    viewer = r.message
    assert viewer.ephemeral and viewer.visible_to == users[2].id
    assert f"(game #{row.id})" in viewer.content
    await step_through(h, users[2], viewer, row, renders)
    other = (await h.click(users[0], final, "Replay")).message  # each user steps on their own
    assert other is not viewer and frame_of(other) == renders[0] and frame_of(viewer) == renders[-2]


@pytest.mark.parametrize(("game", "n", "options"), [("alhambra", 2, None), ("queens_garden", 2, None)])
async def test_replay_of_an_older_game_steps_through_every_position(bot, users, game, n, options):
    h = bot
    row = await stored_game(h, 41, game, n, 3, options)
    r = await h.run_command(users[0], "game replay", game=41)
    await step_through(h, users[0], r.message, row, await public_renders(h, row))


async def test_replay_buttons_work_after_a_restart_and_only_in_their_server(tmp_path, users):
    h = await Harness.start(tmp_path / "games.sqlite3")
    row = await stored_game(h, 7, "queens_garden", 2, 8)
    ana = users[0]
    viewer = (await h.run_command(ana, "game replay")).message  # this channel's last game by default
    await h.click(ana, viewer, "▶")
    h = await h.restart()
    await h.click(ana, viewer, "▶")
    assert "Move 2 of " in viewer.content and frame_of(viewer) == (await public_renders(h, row))[2]
    assert h.bot.get_cog("ReplayCog").replays.kept_frame(row, 2, "en") is not None
    # unfinished games have no replay yet
    await h.run_command(ana, "game create", game="gardens")
    lobby = await h.bot.storage.game_in_channel(CHANNEL_ID)
    r = await h.run_command(ana, "game replay", game=lobby.id)
    assert "is not over yet" in r.message.content
    r = await h.run_command(ana, "game replay", game=99)
    assert r.message.content == "There is no game #99 in this server."
    await h.close()
    # the same database serving another server: game 7 is not one of its games, by command or by button
    h = await Harness.start(tmp_path / "games.sqlite3", guild_id=GUILD_ID + 1)
    try:
        r = await h.run_command(ana, "game replay", game=7)
        assert r.message.content == "There is no game #7 in this server." and not r.message.files
        viewer.guild_id = GUILD_ID + 1
        r = await h.click(ana, viewer, "▶")
        assert r.message.content == "There is no game #7 in this server."
        assert "Move 2 of " in viewer.content  # unchanged
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_the_animation_of_a_six_player_alhambra_with_every_module_fits_discord(bot, users):
    """One frame per turn, in full size: under 10 MiB, posted in the channel once; the next click links to it."""
    h, ana = bot, users[0]
    await stored_game(h, 12, "alhambra", 6, 11, ALL_MODULES)
    viewer = (await h.run_command(ana, "game replay", game=12)).message
    t0 = time.perf_counter()
    r = await h.click(ana, viewer, "Share as animated GIF")
    seconds = time.perf_counter() - t0
    assert r.response_type == 4 and r.original.ephemeral  # answered at once ("Drawing…"), drawn after
    assert r.responded_at - r.arrived < 3.0 and r.original.edits == 1
    post = h.last_public()
    assert post.via == "followup" and "shared by **Ana**" in post.content and "(game #12)" in post.content
    ((name, gif),) = post.files
    assert name == "replay-12.gif" and len(gif) < LIMIT, len(gif)
    assert r.original.content == f"✅ Posted: https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{post.id}"
    moves = await h.bot.storage.moves(12)
    positions = frame_positions([m.player for m in moves])
    img = Image.open(io.BytesIO(gif))
    assert img.n_frames == len(positions) and img.info["loop"] == 0
    print(
        f"\n6-player Alhambra, every module: {len(moves)} moves, {len(positions)} frames, "
        f"{len(gif) / 2**20:.2f} MiB in {seconds:.1f}s"
    )
    r = await h.click(ana, viewer, "Share as animated GIF")
    assert "already in this channel" in r.message.content and h.last_public() is post
    assert h.bot.get_cog("ReplayCog").replays.drawn == 1
    # a standing order for bonus cards (V66) is its player's own business, in the replay too
    rules = engine.get_rules("alhambra")
    row = await h.bot.storage.load_game(12)
    private = [m for m in moves if rules.is_private(rules.action_from_json(m.action))]
    assert private
    line = move_line(row, moves, private[0].move_number, words("en"))
    assert line.endswith("changes a private setting."), line


def test_an_animation_shows_each_frame_exactly_and_steps_down_when_too_big():
    """Decoded, every frame of the GIF is its board in the shared palette, on a canvas as large as the largest;
    a budget it cannot keep raises TooBig (the bot then draws it smaller)."""
    game = "gardens"
    rules = engine.get_rules(game)
    players, moves = played(game, 2, 4)
    state = rules.new_game(players, {}, 4)
    states = [state]
    for who, action in moves:
        state = rules.apply(state, who, action)
        states.append(state)
    positions = frame_positions([p for p, _a in moves])
    views = [rules.view(states[k], None) for k in positions]
    anim = Animation(game)
    anim.use_palette(anim.draw(views[0]), anim.draw(views[-1]))
    for view, ms in zip(views, durations(len(views)), strict=True):
        anim.add(view, ms)
    gif = Image.open(io.BytesIO(anim.finish()))
    assert gif.n_frames == len(views)
    for i, view in enumerate(views):
        want = anim.draw(view).quantize(palette=anim._palette, dither=Image.Dither.NONE).convert("RGB")
        canvas = Image.new("RGB", gif.size, want.getpixel((0, 0)))
        canvas.paste(want, (0, 0))
        gif.seek(i)
        assert ImageChops.difference(gif.convert("RGB"), canvas).getbbox() is None, f"frame {i}"
    small = Animation(game, budget=200_000)
    with pytest.raises(TooBig):
        for view in views:
            small.add(view, 500)


async def test_replays_are_drawn_in_the_worker_processes(tmp_path, users):
    """With worker processes (as deployed): frames and the animation's jobs go to the game's worker, which keeps
    the replayed positions and the animation between jobs; the frames are still the public renders."""
    h = await Harness.start(tmp_path / "games.sqlite3", render_processes=1)
    try:
        ana = users[0]
        row = await stored_game(h, 3, "queens_garden", 2, 5)
        renders = await public_renders(h, row)
        viewer = (await h.run_command(ana, "game replay", game=3)).message
        assert frame_of(viewer) == renders[0]
        for k in (1, 2, 3):
            await h.click(ana, viewer, "▶")
            assert frame_of(viewer) == renders[k]
        await h.click(ana, viewer, "Share as animated GIF")
        ((name, gif),) = h.last_public().files
        moves = await h.bot.storage.moves(3)
        assert Image.open(io.BytesIO(gif)).n_frames == len(frame_positions([m.player for m in moves]))
        assert h.bot.get_cog("ReplayCog").replays.drawn == 1
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_an_animation_over_its_budget_is_drawn_again_smaller(bot, users, monkeypatch):
    h, ana = bot, users[0]
    monkeypatch.setattr(_replaying, "Animation", functools.partial(Animation, budget=400_000))
    row = await stored_game(h, 5, "gardens", 2, 4)
    full = Image.open(io.BytesIO((await public_renders(h, row))[-1])).width
    viewer = (await h.run_command(ana, "game replay", game=5)).message
    await h.click(ana, viewer, "Share as animated GIF")
    ((name, gif),) = h.last_public().files
    assert len(gif) <= 400_000 and Image.open(io.BytesIO(gif)).width < full


@pytest.mark.usefixtures("fake_languages")
async def test_the_viewer_speaks_the_users_language_and_the_shared_gif_the_servers(tmp_path, users):
    """A Hungarian reader in a German server: the viewer (its words and the board's) in Hungarian, the frame the
    public render in Hungarian; the shared animation's post in German."""
    ana = users[0]
    German.LOCALES = {ana.id: "hu"}
    h = await German.start(tmp_path / "games.sqlite3")
    try:
        row = await stored_game(h, 9, "gardens", 2, 6)
        viewer = (await h.run_command(ana, "game replay", game=9)).message
        assert viewer.content.startswith(mark("hu") + "🎞️") and mark("de") not in viewer.text()
        await press(h, ana, viewer, "next")
        states = await h.bot.session.replay(row, await h.bot.storage.moves(9))
        names = {s.id: s.name for s in row.seats}
        hungarian = render_png("gardens", engine.get_rules("gardens").view(states[1], None), None, names, lang="hu")
        assert frame_of(viewer) == hungarian != (await public_renders(h, row))[1]
        await press(h, ana, viewer, "gif")
        post = h.last_public()
        assert post.content.startswith(mark("de") + "🎞️") and post.files[0][0] == "replay-9.gif"
    finally:
        await h.close()
    check_clean(h)


async def test_forged_replay_ids_get_a_short_answer_and_change_nothing(bot, users):
    h, ana, bo = bot, users[0], users[1]
    await stored_game(h, 4, "gardens", 2, 4)
    post = await create_and_start(h, "gardens", [ana, bo])  # game 5, running
    viewer = (await h.run_command(ana, "game replay", game=4)).message
    cases = [  # (custom_id, on which message, what the answer says)
        (f"r:{HUGE}:open", post, "out of date"),
        ("r:-1:open", post, "out of date"),  # no family matches
        ("r:5:open", post, "Game #5 is not over yet"),
        ("r:4:0:next", post, "belongs to a player's own panel"),  # a viewer button on a public post
        ("r:4:9999999:prev", viewer, "This replay button is out of date"),  # past the end
        (f"r:{HUGE}:0:next", viewer, "out of date"),
        ("r:4:0:zap", viewer, "out of date"),  # an unknown op
        ("r:5:0:next", viewer, "Game #5 is not over yet"),
        ("r:777:0:last", viewer, "There is no game #777 in this server."),
    ]
    for custom_id, source, said in cases:
        msg = forged(h, source, custom_id, 2, user=ana)
        payload, ia = h.component_payload(ana, msg, custom_id, 2)
        ia = await h.feed(payload, ia)
        text = "\n".join(m.content for m in ia.replies if m.ephemeral)
        assert said in text, (custom_id, text)
        assert "went wrong" not in text and not h.public()[-1].files[0][0].endswith(".gif"), custom_id
    assert (await h.bot.storage.load_game(5)).version == 0
