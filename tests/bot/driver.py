"""Play whole games through the harness the way people would: only slash commands, button clicks and menu
choices, reading who is to move from the mentions in the public posts."""

from __future__ import annotations

import asyncio
import random
import re

from i18n import ENGLISH, Words
from tests.bot.harness import CHANNEL_ID, Harness, Interaction, Msg, User

MENTION = re.compile(r"<@(\d+)>")
NAV = ("Back", "◀ Previous", "Next ▶")


def words_of(h: Harness) -> Words:
    """The language the harness's players read (a harness may set `words`; default English)."""
    return getattr(h, "words", ENGLISH)


BOLD = re.compile(r"\*\*([^*]+)\*\*")


def movers(post: Msg, players: list[User]) -> list[int]:
    """The players the post's last line names as to move (mentioned, or named when they carry on)."""
    last = post.content.splitlines()[-1]
    by_name = {p.name: p.id for p in players}
    return [int(m) for m in MENTION.findall(last)] + [by_name[n] for n in BOLD.findall(last) if n in by_name]


async def create_and_start(
    h: Harness, game: str, players: list[User], *, options: str | None = None, channel_id: int = CHANNEL_ID
) -> Msg:
    """`/game create`, everyone clicks Join, the creator clicks Start. Returns the first table post."""
    values = {"game": game} | ({"options": options} if options else {})
    _ = words_of(h)
    english = _ is ENGLISH
    r = await h.run_command(players[0], "game create", channel_id=channel_id, **values)
    assert r.message.ephemeral and (not english or "is set up" in r.message.content), r.message.content
    lobby = h.last_public(channel_id)
    assert not english or "a new game" in lobby.content, lobby.content
    for p in players[1:]:
        await h.click(p, lobby, _("Join"))
    await h.click(players[0], lobby, _("Start"))
    post = h.last_public(channel_id)
    assert not english or "begins" in post.content, post.content
    return post


def _pick(rnd: random.Random, items: list, text, prefer, chance: float):
    """A random item; with `prefer` (a test on an item's text), a preferred one with probability `chance`."""
    if prefer is not None:
        liked = [x for x in items if prefer(text(x))]
        if liked and rnd.random() < chance:
            return rnd.choice(liked)
    return rnd.choice(items)


async def play_one_action(
    h: Harness,
    user: User,
    post: Msg,
    rnd: random.Random,
    *,
    page_chance: float = 0.1,
    trace: list[str] | None = None,
    prefer=None,
    prefer_chance: float = 0.8,
    confirm: bool = True,
) -> Interaction:
    """Open the panel from `post`, pick a random legal move through the menus, confirm. Returns the Confirm
    interaction (its `source` is the panel). `prefer(text)` steers the choice toward kind buttons and menu
    options whose text it accepts (with probability `prefer_chance` at each step). Without `confirm`, stops at
    the Confirm step and returns the last interaction (its `message` is the panel, Confirm on it)."""
    _ = words_of(h)
    nav_labels = {_(x) for x in NAV}
    r = await h.click(user, post, _("Play my turn"))
    panel = r.message
    assert panel is not None and panel.ephemeral and panel.visible_to == user.id, panel
    for _step in range(40):
        if trace is not None:
            trace.append(panel.content)
        labels = panel.labels()
        if panel.content.startswith("✅"):  # "✅ Done": played as soon as chosen (the player skips Confirm)
            return r
        if _("Confirm") in labels:
            return await h.click(user, panel, _("Confirm")) if confirm else r
        nav = [b for b in labels if b in (_("◀ Previous"), _("Next ▶"))]
        if nav and rnd.random() < page_chance:
            r = await h.click(user, panel, rnd.choice(nav))
            continue
        if panel.selects():
            options = panel.selects()[0]["options"]
            choice = _pick(rnd, options, lambda o: f"{o['label']} {o.get('description') or ''}", prefer, prefer_chance)
            r = await h.choose(user, panel, 0, choice["value"])
            continue
        kinds = [b for b in labels if b not in nav_labels]
        assert kinds, f"panel offers nothing: {panel.content!r} {labels}"
        r = await h.click(user, panel, _pick(rnd, kinds, str, prefer, prefer_chance))
    raise AssertionError(f"panel never reached Confirm: {panel.content}")


async def play_to_end(
    h: Harness,
    players: list[User],
    post: Msg,
    rnd: random.Random,
    *,
    max_actions: int = 5000,
    channel_id: int = CHANNEL_ID,
) -> tuple[Msg, int]:
    """Keep playing random moves until a post announces the end. Returns (final post, actions played)."""
    by_id = {p.id: p for p in players}
    for n in range(max_actions):
        if "Game over" in post.content:
            return post, n
        ids = movers(post, players)
        assert ids, f"nobody named to move in {post.content!r}"
        await play_one_action(h, by_id[rnd.choice(ids)], post, rnd)
        post = h.last_public(channel_id)
    raise AssertionError(f"game not over after {max_actions} actions")


def out_of_turn(post: Msg, players: list[User]) -> list[int]:
    """The players a move post names in its vizier line (Alhambra, The Vizier's Favour) as free to buy out of
    turn: the bold names before "may buy"."""
    line = next((x for x in post.content.splitlines() if "Vizier:" in x), "")
    by_name = {p.name: p.id for p in players}
    return [by_name[n] for n in BOLD.findall(line.split("may buy")[0]) if n in by_name]


SCORE = re.compile(r"\*\*(?P<name>[^*]+)\*\* (?P<points>-?\d+)")


def announced_scores(final: Msg) -> dict[str, int]:
    """The scores line of the final post, as {display name: points}."""
    line = next(line for line in final.content.splitlines() if line.startswith("**Scores:**"))
    return {m["name"]: int(m["points"]) for m in SCORE.finditer(line.removeprefix("**Scores:**"))}


async def panel_at_confirm(h: Harness, user: User, post: Msg, choice: str) -> Msg:
    """The fake game's move panel opened from `post`, with Add and `choice` picked, waiting at Confirm."""
    panel = (await h.click(user, post, "Play my turn")).message
    await h.click(user, panel, "Add")
    await h.choose(user, panel, 0, choice)
    assert "Confirm" in panel.labels(), panel.content
    return panel


async def dm_turn_at_confirm(h: Harness, ana: User, bo: User) -> Msg:
    """Bo asks for DM notices (`/prefs dm:turn`); a fake game of the two starts, and Ana's move panel waits at
    Confirm (her "adds 4" would begin Bo's turn)."""
    await h.run_command(bo, "prefs", dm="turn")
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    return await panel_at_confirm(h, ana, post, "adds 4")


async def confirm_and_kill(h: Harness, user: User, panel: Msg, where: str, step: str) -> Harness:
    """`user` clicks Confirm on `panel`; the bot is killed (kill -9) when `where`'s fault hook reaches `step`.
    Returns the harness of the new process, settled: its start-up pass has posted what the outbox held."""
    reached = asyncio.Event()

    async def die_here(name: str) -> None:
        if name == step:
            reached.set()
            await asyncio.Event().wait()  # the process is killed while it stands here

    getattr(h.bot, where).fault = die_here
    payload, ia = h.component_payload(user, panel, h.button(panel, "Confirm")["custom_id"], 2)
    h.send(payload, ia)
    await asyncio.wait_for(reached.wait(), 10)
    h = await h.kill()
    await h.settle()
    return h


async def clock(h: Harness, steps: int = 1, channel_id: int = CHANNEL_ID) -> None:
    """The deadline pass, `steps` times, each at the moment the game's next deadline falls due."""
    cog = h.bot.get_cog("TurnsCog")
    for _ in range(steps):
        row = await h.bot.storage.game_in_channel(channel_id)
        assert row.deadline_at is not None
        assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1
        await h.settle()
