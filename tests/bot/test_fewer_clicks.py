"""Fewer clicks per move: the turn panel opens on a kind's menu when that kind is the only one with a
choice (the lone kind, or the only kind with several moves while every other kind is a single move), the other
kinds as buttons beside the menu; with two kinds or more to choose in, it opens on the list of kinds as before.
Panels drawn the old way (a list of kinds) keep working."""

import random
from types import SimpleNamespace

import engine
import present
from cogs import _menus
from tests.bot import fakegame
from tests.bot.driver import create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness


def moves(*kinds: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(kind=k) for k in kinds]


def test_lead_is_the_only_kind_with_a_choice():
    def lead(actions):
        return _menus.lead(actions, _menus.kinds(actions))

    assert lead(moves("place")) == 0  # one kind, one move: straight to Confirm as before
    assert lead(moves("place", "place")) == 0
    assert lead(moves("reserve", "place", "place", "place")) == 1  # the menu, "reserve" a button beside it
    assert lead(moves("place", "reserve", "place", "pass")) == 0
    assert lead(moves("take", "take", "buy", "buy", "pass")) is None  # two kinds to choose in: the list
    assert lead(moves("place", "reserve")) is None  # only single moves: the list, each a button to Confirm
    assert lead(moves(*(["place", "place"] + [f"k{n}" for n in range(_menus.BESIDE)]))) == 0
    assert lead(moves(*(["place", "place"] + [f"k{n}" for n in range(_menus.BESIDE + 1)]))) is None


def one_play_only(monkeypatch):
    """The fake game with a single "play" move (the lowest card, no boost) beside the 30 "add" moves."""
    original = fakegame.FakeRules.candidates

    def candidates(self, s, player):
        out = list(original(self, s, player))
        plays = [a for a in out if a.kind == "play"]
        return [a for a in out if a.kind != "play"] + plays[:1]

    monkeypatch.setattr(fakegame.FakeRules, "candidates", candidates)


async def test_panel_opens_on_the_only_menu_with_the_single_moves_beside_it(harness, users, monkeypatch):
    one_play_only(monkeypatch)
    h, (ana, bo) = harness, users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    panel = (await h.click(ana, post, "Play my turn")).message
    assert "**Add**: 30 possible moves (page 1 of 2)." in panel.content
    assert "What would you like to do?" not in panel.content
    assert len(panel.selects()[0]["options"]) == 25 and panel.labels() == ["Next ▶", "Play"]  # no Back: home
    await h.click(ana, panel, "Next ▶")  # every page of the menu keeps the other kind beside it
    assert "page 2 of 2" in panel.content and panel.labels() == ["◀ Previous", "Play"]
    await h.click(ana, panel, "Play")  # the single move: its Confirm, as from the list
    assert "Play this move? **Ana** plays" in panel.content and panel.labels() == ["Confirm", "Back"]
    await h.click(ana, panel, "Back")  # back to the first screen, not to a list the player never saw
    assert "**Add**: 30 possible moves (page 1 of 2)." in panel.content and panel.labels() == ["Next ▶", "Play"]
    await h.choose(ana, panel, 0, "adds 7")
    assert "Play this move? **Ana** adds 7." in panel.content
    await h.click(ana, panel, "Back")
    assert "page 1 of 2" in panel.content and panel.labels() == ["Next ▶", "Play"]
    await h.choose(ana, panel, 0, "adds 9")
    await h.click(ana, panel, "Confirm")
    assert panel.content.startswith("✅ Done: **Ana** adds 9.")
    assert h.last_public(CHANNEL_ID).content == f"**Ana** adds 9.\nYour turn, <@{bo.id}>."


async def test_panel_still_offers_every_kind_when_several_have_a_choice(harness, users):
    h, (ana, bo) = harness, users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")  # 30 "add" and 30 "play" moves
    panel = (await h.click(ana, post, "Play my turn")).message
    assert "What would you like to do?" in panel.content and panel.labels() == ["Add", "Play"]
    assert panel.selects() == []
    await h.click(ana, panel, "Add")
    assert panel.labels() == ["Next ▶", "Back"]  # inside a kind picked from the list: Back to the list
    await h.click(ana, panel, "Back")
    assert "What would you like to do?" in panel.content and panel.labels() == ["Add", "Play"]


async def test_a_panel_drawn_as_a_list_keeps_working_after_a_restart(tmp_path, fake_game, users, monkeypatch):
    """A panel drawn as a list before this change and a restart: its kind buttons still work, and a kind that
    is now the first screen shows the other kinds beside its menu."""
    one_play_only(monkeypatch)
    h, (ana, bo) = await Harness.start(tmp_path / "games.sqlite3"), users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    monkeypatch.setattr(_menus, "lead", lambda actions, kinds: 0 if len(kinds) == 1 else None)  # the old way
    old = (await h.click(ana, post, "Play my turn")).message
    assert "What would you like to do?" in old.content and old.labels() == ["Add", "Play"]
    monkeypatch.undo()
    one_play_only(monkeypatch)
    h = await h.restart()
    await h.click(ana, old, "Add")
    assert "**Add**: 30 possible moves" in old.content and old.labels() == ["Next ▶", "Play"]
    await h.click(ana, old, "Play")
    await h.click(ana, old, "Confirm")
    assert old.content.startswith("✅ Done: **Ana** plays")
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_real_game_panels_open_as_the_rule_says(harness, users):
    """Alhambra, random moves: every panel opens on the only kind with a choice (with the single-move kinds
    beside it: the end-of-turn placement, its reserve beside) or on the list of kinds."""
    h, players = harness, users[:3]
    by_id = {p.id: p for p in players}
    words = present.for_game("alhambra")
    rules = engine.get_rules("alhambra")
    post = await create_and_start(h, "alhambra", players)
    rnd = random.Random(3)
    seen = {"beside": 0, "list": 0}
    for _i in range(150):
        user = by_id[movers(post, players)[0]]
        row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
        actions = rules.legal_actions(rules.from_json(row.state), str(user.id))
        kinds = _menus.kinds(actions)
        labels = [words.kind_label(k) for k in kinds]
        panel = (await h.click(user, post, "Play my turn")).message
        nav = {"Back", "◀ Previous", "Next ▶"}
        lead = _menus.lead(actions, kinds)
        if lead is None:
            assert "What would you like to do?" in panel.content and panel.labels() == labels[:25]
            seen["list"] += 1
        elif len(kinds) > 1:
            assert f"**{labels[lead]}" in panel.content and panel.selects(), panel.content
            assert [b for b in panel.labels() if b not in nav] == labels[:lead] + labels[lead + 1 :]
            assert "Back" not in panel.labels()
            seen["beside"] += 1
        await play_one_action(h, user, post, rnd)
        post = h.last_public(CHANNEL_ID)
        if "Game over" in post.content or min(seen.values()) >= 5:
            break
    assert min(seen.values()) >= 5, seen


async def test_a_panel_lists_its_position_once_for_all_its_clicks(harness, users, monkeypatch):
    """Every click of a move panel (pages, a move, Back) is served from the one listing of that position and
    player (`Session.listing`): the rules list the legal actions once, not at every click; after the move, the
    next position is listed anew."""
    h, (ana, bo) = harness, users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    calls = []
    original = fakegame.FakeRules.legal_actions

    def counted(self, s, player):
        calls.append(player)
        return original(self, s, player)

    monkeypatch.setattr(fakegame.FakeRules, "legal_actions", counted)
    panel = (await h.click(ana, post, "Play my turn")).message
    assert panel.labels() == ["Add", "Play"]
    await h.click(ana, panel, "Add")
    await h.click(ana, panel, "Next ▶")
    await h.click(ana, panel, "◀ Previous")
    await h.click(ana, panel, "Back")
    assert panel.labels() == ["Add", "Play"]
    assert calls.count(str(ana.id)) == 1, calls  # five clicks, one listing
    await play_one_action(h, ana, post, random.Random(1), page_chance=0.5)  # and the move itself
    assert calls.count(str(ana.id)) == 1
    before = calls.count(str(bo.id))
    await h.click(bo, post, "Play my turn")  # Bo's turn: a new position, listed anew
    assert calls.count(str(bo.id)) == before + 1
