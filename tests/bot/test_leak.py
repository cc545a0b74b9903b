"""Private information stays private: over a complete Alhambra game (3 players) played through the harness, no
public message, image or rendering request carries a card of anyone's hand; hands appear only in ephemeral
replies to their owner. The same game checks the announced final scores against the engine's."""

import random
import time

import engine
import render
from tests.bot.driver import announced_scores, create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID


def hand_words(hand) -> list[str]:
    """The owner's hand as the panel words it: "dirham (green) 7+3 = **10**" per currency."""
    from engine.alhambra.components import CURRENCIES, CURRENCY_COLORS, card_key

    by: dict[int, list[int]] = {}
    for card in hand:
        c, v = card_key(card)
        by.setdefault(c, []).append(v)
    return [
        f"{CURRENCIES[c]} ({CURRENCY_COLORS[CURRENCIES[c]]}) {'+'.join(map(str, sorted(vs, reverse=True)))} "
        f"= **{sum(vs)}**"
        for c, vs in sorted(by.items())
    ]


async def test_alhambra_full_game_never_shows_a_hand_in_public(harness, users, monkeypatch):
    from engine.alhambra.components import HIDDEN_CARD

    renders: list[tuple[object, str | None, bytes]] = []
    real = render.render_png

    def spy(game, view, viewer=None, names=None, **kw):  # records what the bot asks the renderer for
        png = real(game, view, viewer, names, **kw)
        renders.append((view, viewer, png))
        return png

    monkeypatch.setattr(render, "render_png", spy)
    rules = engine.get_rules("alhambra")
    players, eve = users[:3], users[4]
    by_id = {p.id: p for p in players}
    rnd = random.Random(11)
    t0 = time.perf_counter()
    post = await create_and_start(harness, "alhambra", players)
    storage = harness.bot.session.storage
    actions = 0
    while "Game over" not in post.content:
        ids = movers(post, players)
        await play_one_action(harness, by_id[rnd.choice(ids)], post, rnd)
        actions += 1
        post = harness.last_public()
        # now and then (while the game runs) everyone looks at their hand, and a spectator tries to
        if actions % 25 == 1 and "Game over" not in post.content:
            row = await storage.game_in_channel(CHANNEL_ID) or await storage.last_game_in_channel(CHANNEL_ID)
            state = rules.from_json(row.state)
            for p in players:
                reply = (await harness.click(p, post, "My hand")).message
                assert reply.ephemeral and reply.visible_to == p.id
                hand = state.seat(p.sid).hand
                for words in hand_words(hand):
                    assert words in reply.content
                assert reply.files, "the private picture comes with the hand"
            spectator = (await harness.click(eve, post, "My hand")).message
            assert spectator.ephemeral and "not seated" in spectator.content and not spectator.files

    # what the renderer was asked: public images only from views without any hand card
    public_pngs = set()
    for view, viewer, png in renders:
        for seat_id, seat in zip(view.players, view.seats, strict=True):
            if viewer is None or seat_id != viewer:
                assert all(c == HIDDEN_CARD for c in seat.hand), "a hand reached a renderer for someone else"
        if viewer is None:
            public_pngs.add(png)
    owner_of = {png: viewer for _, viewer, png in renders if viewer is not None}

    # the results' score chart (records): drawn from the scores alone, which every post shows, replayed from the log
    from render.charts import progression_png

    done = await storage.last_game_in_channel(CHANNEL_ID)
    log = [(m.player, m.action) for m in await storage.moves(done.id)]
    names = {s.id: s.name for s in done.seats}
    title = "Alhambra: scores over the game"
    public_pngs.add(progression_png(done.game, done.options, done.seed, done.player_ids, log, names, title, "en"))

    # what was sent: public messages carry only public images and never a hand
    public = harness.public()
    assert public
    for m in harness.fake.sent:
        text = m.text()
        if m.public:
            assert "Your hand" not in text and "Only you" not in text
            for _, png in m.files:
                assert png in public_pngs, "a public message carries an image not drawn from the public view"
        if "Your hand" in text:
            assert m.ephemeral
    for m, _, png in harness.fake.uploads:  # every image ever attached, including replaced panel previews
        if m.public:
            assert png in public_pngs, "a public message carries an image not drawn from the public view"
        elif png in owner_of:
            assert m.visible_to == int(owner_of[png]), "a private image reached someone else"

    # and the announced final scores are the engine's
    row = await storage.last_game_in_channel(CHANNEL_ID)
    state = rules.from_json(row.state)
    assert row.status == "finished" and rules.is_over(state)
    assert announced_scores(post) == {row.seat_name(p): s for p, s in rules.scores(state).items()}
    print(f"\nalhambra: {actions} actions in {time.perf_counter() - t0:.1f}s; {len(renders)} renders")
