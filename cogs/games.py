"""The `/game` command group (create, join, leave, add_ai, remove_ai, start, cancel, status, board, hand, log, list,
rules, nudge) and
`/move`, the typed way to play: every command is a thin translation to the session service (`cogs._session`),
with replies built by `cogs._ui`. Also registers the persistent buttons and selects (`DynamicItem`s) once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import _menus, _ui
from cogs._session import GameError, Session, ai_available, is_ai
from engine import IllegalAction
from storage import GameRow

log = logging.getLogger(__name__)

# a /move suggestion: game id, the position it was listed at (Session.position), index into the legal actions
MOVE_VALUE = re.compile(r"(?P<gid>[0-9]+):(?P<pos>[0-9a-z.]+):(?P<i>[0-9]+)")


def _game_choices(current: str) -> list[app_commands.Choice[str]]:
    current = (current or "").lower()
    out = []
    for name in engine.GAMES:
        try:
            title = engine.get_rules(name).title
        except Exception:  # an engine still being written: not offered
            continue
        if current in name or current in title.lower():
            out.append(app_commands.Choice(name=title, value=name))
    return out[:25]


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game", group_description="Play board games in this channel"):
    """One game per channel (or thread): its lobby, its table, and the server-wide list."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.nudge_gap = 3600.0  # seconds between two nudges of the same game
        super().__init__()

    @property
    def session(self) -> Session:
        return self.bot.session  # type: ignore[attr-defined]

    async def _with_game(self, interaction: discord.Interaction, handler: Callable[[GameRow], Awaitable[None]], *,
                         finished_too: bool = False) -> None:
        """Run a command's `handler` on this channel's game; refusals and surprises are answered as everywhere
        (`_ui.guarded`). `finished_too`: the last game of the channel also counts once it is over."""
        async def run() -> None:
            await handler(await self._channel_game(interaction, finished_too=finished_too))

        await _ui.guarded(interaction, run)

    async def _channel_game(self, interaction: discord.Interaction, *, finished_too: bool = False) -> GameRow:
        return await self.session.in_channel(interaction.channel_id, finished_too=finished_too)

    # -- create ------------------------------------------------------------------------------------------

    @app_commands.command(name="create", description="Create a game in this channel (or in a new thread)")
    @app_commands.describe(
        game="Which game",
        options='Game options, e.g. "hand=3" or "dirk=no" (see /game rules)',
        thread="Open the game in a new thread of this channel",
        reminder_hours="Remind the player to move after this many idle hours (0 = never; default 24)",
        ai_players="Seat this many AI players now (you can add or remove them in the lobby too)",
        ai_level="How well the AI players play (default normal)",
    )
    async def create(self, interaction: discord.Interaction, game: str, options: str | None = None,
                     thread: bool = False, reminder_hours: app_commands.Range[int, 0, 720] = 24,
                     ai_players: app_commands.Range[int, 0, 5] = 0,
                     ai_level: Literal["easy", "normal", "hard"] = "normal") -> None:
        await _ui.guarded(interaction, lambda: self._create(interaction, game, options, thread, reminder_hours,
                                                            ai_players, ai_level))

    @create.autocomplete("game")
    async def _game_autocomplete(self, interaction: discord.Interaction, current: str):
        return _game_choices(current)

    @create.autocomplete("options")
    async def _options_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            game = interaction.namespace.game
            rules = engine.get_rules(game)
        except Exception:
            return []
        done = current.rsplit(",", 1)[0] + ", " if "," in current else ""
        out = []
        for name, opt in rules.options.items():
            values = [str(c) for c in opt.choices] if opt.choices else ["yes", "no"]
            for v in values:
                text = f"{done}{name}={v}"
                if current.strip().lower() in text.lower() or not current.strip():
                    out.append(app_commands.Choice(name=_menus.fit(f"{text} ({opt.description})"), value=text[:100]))
        return out[:25]

    async def _create(self, interaction: discord.Interaction, game: str, options_text: str | None, thread: bool,
                      reminder_hours: int, ai_players: int = 0, ai_level: str = "normal") -> None:
        game = (game or "").strip().lower()
        if game not in engine.GAMES:
            by_title = {engine.get_rules(g).title.lower(): g for g in engine.GAMES if game_ready(g)}
            game = by_title.get(game, game)
        if game not in engine.GAMES or not game_ready(game):
            names = ", ".join(f"`{g}`" for g in engine.GAMES if game_ready(g))
            raise GameError(f"I don't know the game `{game}`. Choose one of: {names}.")
        options = self.session.parse_options(game, options_text)
        if ai_players:  # refused before anything is created, so a bad count leaves no half-made game
            hi = engine.get_rules(game).player_counts[-1]
            if not ai_available(game, options):
                raise GameError(f"There is no AI player for {_ui.title_of(game)} yet.")
            if ai_players + 1 > hi:
                raise GameError(f"{_ui.title_of(game)} seats at most {hi} players: you and up to {hi - 1} AI "
                                f"players, not {ai_players}.")
        creator = _ui.seat_of(interaction.user)
        channel = interaction.channel
        channel_id = interaction.channel_id
        await interaction.response.defer(ephemeral=True, thinking=True)
        if thread:
            if not isinstance(channel, discord.TextChannel):
                raise GameError("I can only open a thread from a normal text channel. Create the game here instead.")
            title = engine.get_rules(game).title
            try:
                new_thread = await channel.create_thread(
                    name=f"{title} – {interaction.user.display_name}"[:100], type=discord.ChannelType.public_thread
                )
            except discord.Forbidden:
                raise GameError("I'm not allowed to create threads here (I need **Create Public Threads**). "
                                "Create the game without a thread, or ask an admin.") from None
            channel_id = new_thread.id
        row = await self.session.create(guild_id=interaction.guild_id, channel_id=channel_id, game=game,
                                        options=options, creator=creator, reminder_hours=reminder_hours)
        if ai_players:
            row, _ = await self.session.add_ai(row.id, creator.id, ai_level, ai_players)
        await _ui.post_lobby(interaction.client, self.session, row)
        where = f"in <#{channel_id}>" if thread else "below"
        await interaction.edit_original_response(
            content=f"Your game of {_ui.title_of(game)} is set up: the lobby post is {where}. Press **Start** "
                    "there once everyone has joined.")

    # -- lobby -------------------------------------------------------------------------------------------

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        async def run(row: GameRow) -> None:
            row = await self.session.join(row.id, _ui.seat_of(interaction.user))
            await _ui.reply(interaction, f"You're in! Seat {len(row.seats)} of {_ui.title_of(row.game)}.")
            await _ui.refresh_lobby(interaction, row)

        await self._with_game(interaction, run)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run(row: GameRow) -> None:
            row = await self.session.leave(row.id, str(interaction.user.id))
            await _ui.reply(interaction, "You left the game.")
            await _ui.refresh_lobby(interaction, row)

        await self._with_game(interaction, run)

    @app_commands.command(name="add_ai", description="Seat AI players in this channel's lobby (creator only)")
    @app_commands.describe(level="How well they play (default normal)", count="How many (default 1)")
    async def add_ai(self, interaction: discord.Interaction, level: Literal["easy", "normal", "hard"] = "normal",
                     count: app_commands.Range[int, 1, 5] = 1) -> None:
        async def run(row: GameRow) -> None:
            row, added = await self.session.add_ai(row.id, str(interaction.user.id), level, count)
            hi = self.session.rules(row.game).player_counts[-1]
            await _ui.reply(interaction, f"Added {', '.join(s.name for s in added)} ({len(row.seats)} of {hi} "
                                         "seats taken).")
            await _ui.refresh_lobby(interaction, row)

        await self._with_game(interaction, run)

    @app_commands.command(name="remove_ai", description="Take an AI player out of this channel's lobby (creator only)")
    @app_commands.describe(player="Which AI player (default: the last one added)")
    async def remove_ai(self, interaction: discord.Interaction, player: str | None = None) -> None:
        async def run(row: GameRow) -> None:
            row, gone = await self.session.remove_ai(row.id, str(interaction.user.id), player)
            await _ui.reply(interaction, f"Removed {gone.name}.")
            await _ui.refresh_lobby(interaction, row)

        await self._with_game(interaction, run)

    @remove_ai.autocomplete("player")
    async def _remove_ai_autocomplete(self, interaction: discord.Interaction, current: str):
        row = await self.session.storage.game_in_channel(interaction.channel_id)
        if row is None:
            return []
        return [app_commands.Choice(name=s.name, value=s.id) for s in row.seats
                if is_ai(s.id) and (current or "").lower() in s.name.lower()][:25]

    @app_commands.command(name="start", description="Start this channel's game (creator only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction, lambda row: _ui.start_game(interaction, row.id, edit_lobby=False))

    @app_commands.command(name="cancel", description="Call off this channel's game (creator or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        async def run(row: GameRow) -> None:
            row = await self.session.cancel(row.id, str(interaction.user.id), can_manage=_ui.can_manage(interaction))
            await interaction.response.send_message(
                f"{_ui.name_of(row, str(interaction.user.id))} cancelled the game of {_ui.title_of(row.game)} "
                f"(#{row.id}).", allowed_mentions=discord.AllowedMentions.none())
            await _ui.refresh_lobby(interaction, row)

        await self._with_game(interaction, run)

    # -- looking -----------------------------------------------------------------------------------------

    @app_commands.command(name="status", description="Whose turn it is and the scores so far")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction, lambda row: _ui.reply(interaction, _ui.status_text(self.session, row)),
                              finished_too=True)

    @app_commands.command(name="board", description="Show the board (only to you)")
    async def board(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction, lambda row: _ui.show_board(interaction, row), finished_too=True)

    @app_commands.command(name="hand", description="Your hand and anything else only you may see")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction, lambda row: _ui.show_hand(interaction, row), finished_too=True)

    @app_commands.command(name="play", description="Open your move panel")
    async def play(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction, lambda row: _ui.open_panel(interaction, row))

    @app_commands.command(name="log", description="The moves played so far")
    async def log(self, interaction: discord.Interaction) -> None:
        async def run(row: GameRow) -> None:
            await _ui.reply(interaction, await move_log_text(self.session, row, str(interaction.user.id)))

        await self._with_game(interaction, run, finished_too=True)

    @app_commands.command(name="list", description="Games in this server, or the games you are in")
    @app_commands.describe(mine="Only the games you are seated in (in every server)")
    async def list_(self, interaction: discord.Interaction, mine: bool = False) -> None:
        async def run():
            user = str(interaction.user.id)
            if mine:
                rows = await self.session.storage.list_games(player=user)
            else:
                rows = await self.session.storage.list_games(guild_id=interaction.guild_id)
            if not rows:
                await _ui.reply(interaction, "You are not in any game right now." if mine else
                                "No games here yet. Start one with `/game create`.")
                return
            lines = []
            for row in rows[:30]:
                lines.append(list_line(self.session, row, user))
            head = "**Your games:**" if mine else "**Games in this server:**"
            await _ui.reply(interaction, head + "\n" + "\n".join(lines))

        await _ui.guarded(interaction, run)

    @app_commands.command(name="rules", description="A summary of a game's rules")
    @app_commands.describe(game="Which game (default: this channel's game)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async def run():
            options = None
            name = (game or "").strip().lower()
            if not name:
                row = await self._channel_game(interaction, finished_too=True)
                name, options = row.game, row.options
            if name not in engine.GAMES or not game_ready(name):
                known = ", ".join(f"`{g}`" for g in engine.GAMES if game_ready(g))
                raise GameError(f"I don't know the game `{name}`. Games: {known}.")
            await _ui.show_rules(interaction, name, options)

        await _ui.guarded(interaction, run)

    @rules.autocomplete("game")
    async def _rules_autocomplete(self, interaction: discord.Interaction, current: str):
        return _game_choices(current)

    @app_commands.command(name="nudge", description="Remind the player to move (at most once an hour)")
    async def nudge(self, interaction: discord.Interaction) -> None:
        async def run(row: GameRow) -> None:
            row = await self.session.nudge(row.id, str(interaction.user.id), min_gap=self.nudge_gap)
            movers = [p for p in self.session.to_move(row) if not is_ai(p)]  # AI seats are never pinged
            pings = ", ".join(_ui.ping(row, p) for p in movers)
            await interaction.response.send_message(
                f"⏰ {pings}: {_ui.esc(interaction.user.display_name)} is waiting for your move in "
                f"{_ui.title_of(row.game)}.", allowed_mentions=_ui.PUBLIC_MENTIONS)

        await self._with_game(interaction, run)


class MoveCog(commands.Cog):
    """`/move`: the typed way to play, for people who prefer it to the buttons."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @property
    def session(self) -> Session:
        return self.bot.session  # type: ignore[attr-defined]

    async def _channel_game(self, interaction: discord.Interaction) -> GameRow:
        return await self.session.in_channel(interaction.channel_id)

    @app_commands.guild_only()
    @app_commands.command(name="move", description="Type your move (the list shows every legal move)")
    @app_commands.describe(action="Start typing: the legal moves are listed")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await _ui.guarded(interaction, lambda: self._move(interaction, action))

    @move.autocomplete("action")
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            row = await self.session.storage.game_in_channel(interaction.channel_id)
            if row is None:
                return [app_commands.Choice(name="There is no game in this channel.", value="none")]
            try:
                self.session.check_player(row, str(interaction.user.id))
            except GameError as exc:  # say why there is nothing to choose, instead of an empty list
                return [app_commands.Choice(name=_menus.fit(str(exc)), value="none")]
            actions = self.session.legal_actions(row, str(interaction.user.id))
            rules = self.session.rules(row.game)
            pos = self.session.position(row, actions)
            wanted = _words(current)
            out = []
            for i, a in enumerate(actions):
                text = rules.describe(a)
                have = _words(text)
                # every typed word starts a word of the move ("2" finds "adds 20", not "adds 12")
                if all(any(h.startswith(w) for h in have) for w in wanted):
                    out.append(app_commands.Choice(name=_menus.fit(text), value=f"{row.id}:{pos}:{i}"))
                    if len(out) == 25:
                        break
            return out
        except Exception:
            log.exception("move autocomplete failed")
            return []

    async def _move(self, interaction: discord.Interaction, value: str) -> None:
        row = await self._channel_game(interaction)
        player = str(interaction.user.id)
        self.session.check_player(row, player)  # not seated / not your turn / over: said plainly
        actions = self.session.legal_actions(row, player)
        rules = self.session.rules(row.game)
        chosen: Any = None
        m = MOVE_VALUE.fullmatch(value.strip())
        if m:
            if int(m["gid"]) != row.id or m["pos"] != self.session.position(row, actions):
                raise GameError("That suggestion is from an earlier move: the game has moved on. "
                                "Type the command again to see your moves now.")
            if int(m["i"]) < len(actions):
                chosen = actions[int(m["i"])]
        else:
            wanted = value.strip().lower()
            matches = [a for a in actions if rules.describe(a).lower() == wanted]
            chosen = matches[0] if len(matches) == 1 else None
        if chosen is None:
            raise GameError(f"I don't recognise the move `{_menus.fit(value, 80)}`. Pick one of the suggestions "
                            "as you type, or press **Play my turn** for the menu.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.session.act(row.id, player, chosen, expected_turns=row.turns,
                                        announce=lambda r: _ui.announce_move(interaction.client, r))
        await _ui.finish_move(interaction, result)


def _words(text: str | None) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", (text or "").lower())


def game_ready(game: str) -> bool:
    """True if the engine of `game` loads (one still being written is not offered)."""
    try:
        engine.get_rules(game)
    except Exception:
        return False
    return True


def list_line(session: Session, row: GameRow, user: str) -> str:
    title = _ui.title_of(row.game)
    where = f"<#{row.channel_id}>"
    if row.status == "lobby":
        return f"• {where}: {title} (#{row.id}), lobby with {len(row.seats)} seated"
    side = session.out_of_turn(row)  # the vizier window (V4/V12): they may buy out of turn, nobody waits for them
    movers = [p for p in session.to_move(row) if p not in side]
    whose = ", ".join(_ui.esc(row.seat_name(p)) for p in movers)
    mark = " ← **your turn**" if user in movers else " ← you may use your vizier" if user in side else ""
    return f"• {where}: {title} (#{row.id}), move {row.version + 1}, waiting for {whose}{mark}"


async def move_log_text(session: Session, row: GameRow, viewer: str | None = None) -> str:
    """The stored moves in words, the most recent that fit one message. Private choices of others (V66) are
    shown only as such."""
    rules = session.rules(row.game)
    moves = await session.storage.moves(row.id)
    if not moves:
        return "No moves yet."
    lines = []
    for m in moves:
        try:
            action = rules.action_from_json(m.action)
            private = session.is_private(row.game, action) and m.player != viewer
            text = "changes a private setting" if private else rules.describe(action)
        except IllegalAction:
            text = "(an unreadable move)"
        lines.append(f"{m.move_number}. {_ui.esc(row.seat_name(m.player))} {text}")
    # keep the most recent moves within Discord's message limit
    out: list[str] = []
    size = 60
    for line in reversed(lines):
        if size + len(line) + 1 > _ui.CONTENT_LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    head = f"**Moves of game #{row.id}**" + (f" (last {len(out)} of {len(lines)})" if len(out) < len(lines) else "")
    return head + "\n" + "\n".join(reversed(out))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*_ui.DYNAMIC_ITEMS)
    await bot.add_cog(GameCog(bot))
    await bot.add_cog(MoveCog(bot))
