"""`/game` (create, join, leave, add_ai, remove_ai, start, cancel, status, board, hand, play, log, replay, list,
rules, nudge...). Every command is a thin translation to the session service; replies are built by the table,
lobby, panel and replays modules. Refusals and surprises of every command are answered in one place
(`cog_app_command_error`). `setup` also registers the persistent component families once, and answers clicks
that no family can serve (forged or outdated custom_ids) politely."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine
import present
from cogs import _bank, _coach, _free, _items, _leaving, _lobby, _moving, _panel, _table, replays  # noqa: F401 (families register)
from cogs._items import FAMILIES, reply
from cogs._locale import LanguageCog, user_words
from cogs._options import _options_example, game_choices, game_named, parse_options
from cogs._seating import GameError, ai_available, is_ai, seat_name
from cogs._services import services
from cogs._session import Session
from cogs._text import PUBLIC_MENTIONS, created_text, esc, fit, name_of, ping, seat_of, title_of
from engine import IllegalAction, Text
from storage import GameRow

log = logging.getLogger(__name__)


class CommandErrors:
    """What both cogs share: no commands while the bot shuts down, and one error handler for every command."""

    bot: commands.Bot

    @property
    def session(self) -> Session:
        return services(self.bot).session

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.session.closing:  # answered by cog_app_command_error
            raise app_commands.CheckFailure(Text("The bot is restarting: nothing was changed. Try again in a minute."))
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        exc = getattr(error, "original", error)
        if isinstance(error, app_commands.MissingPermissions):
            exc = GameError(Text("Only server admins (with **Manage Server**) can use this command."))
        elif isinstance(error, app_commands.CheckFailure) and not isinstance(exc, GameError):
            said = error.args[0] if error.args else None
            exc = GameError(said if isinstance(said, Text) else Text("You can't use this command here."))
        if isinstance(exc, (GameError, IllegalAction)):
            await _items.answer_error(interaction, exc)
            return
        log.error(
            "command /%s failed (user=%s, channel=%s)",
            interaction.command and interaction.command.qualified_name,
            interaction.user.id,
            interaction.channel_id,
            exc_info=exc,
        )
        try:
            await reply(interaction, _items.APOLOGY)
        except discord.HTTPException:
            log.warning("could not send an error reply", exc_info=True)


@app_commands.guild_only()
class GameCog(
    CommandErrors, commands.GroupCog, group_name="game", group_description="Play board games in this channel"
):
    """One game per channel (or thread): its lobby, its table, and the server-wide list."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.nudge_gap = 3600.0  # seconds between two nudges of the same game
        super().__init__()

    async def here(self, interaction: discord.Interaction, *, finished_too: bool = False) -> GameRow:
        return await self.session.in_channel(interaction.channel_id or 0, finished_too=finished_too)  # 0: none

    @app_commands.command(name="create", description="Create a game in this channel (or in a new thread)")
    @app_commands.describe(
        game="Which game",
        options=f'Variants or modules, e.g. "{_options_example()}": start typing, the list shows them',
        thread="Open the game in a new thread of this channel",
        reminder_hours="Remind the player to move after this many idle hours (0 = never; default 24)",
        ai_players="Seat this many AI players now (you can add or remove them in the lobby too)",
        ai_level="How well the AI plays, in AI seats and for absent players (default normal)",
        deadline="Time for each move; when it passes the table decides (the AI may play that turn)",
        posts="every: a post with the board per move; compact: one board message, edited after each move",
        bank="A chess clock instead: each player's time bank, plus time after each turn (3d+1d: 3 days, +1 day)",
        vacation="Days each player may be late once, used by themselves before the table is asked",
        hints="May players ask the AI coach for a hint on their move (/game hint)? Default: no",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        thread: bool = False,
        reminder_hours: app_commands.Range[int, 0, 720] = 24,
        ai_players: app_commands.Range[int, 0, 5] = 0,
        ai_level: Literal["easy", "normal", "hard"] = "normal",
        deadline: Literal["none", "12h", "24h", "48h", "72h", "7d"] = "none",
        posts: Literal["every", "compact"] = "every",
        bank: Literal["none", "1d+2h", "3d+1d", "7d+1d"] = "none",
        vacation: Literal[0, 1, 2, 3, 5, 7, 14] = 0,
        hints: bool = False,
    ) -> None:
        _ = user_words(interaction)
        game = game_named(game)
        chosen = parse_options(game, options)
        if ai_players:  # refused before anything is created, so a bad count leaves no half-made game
            hi = engine.get_rules(game).player_counts[-1]
            if not ai_available(game, chosen):
                raise GameError(Text("There is no AI player for {title} yet.", title=present.title(game)))
            if ai_players + 1 > hi:
                raise GameError(
                    Text(
                        "{title} seats at most {n} players: you and up to {ai} AI players, not {asked}.",
                        "{title} seats at most {n} players: you and up to {ai} AI players, not {asked}.",
                        title=present.title(game),
                        n=hi,
                        ai=hi - 1,
                        asked=ai_players,
                    )
                )
        creator = seat_of(interaction.user)
        channel_id = interaction.channel_id or 0  # a guild-only command always has one
        await interaction.response.defer(ephemeral=True, thinking=True)
        if thread:
            channel = interaction.channel
            if not isinstance(channel, discord.TextChannel):
                raise GameError(
                    Text("I can only open a thread from a normal text channel. Create the game here instead.")
                )
            public = await self.session.languages.public(interaction.guild_id, interaction.guild_locale)
            try:
                new_thread = await channel.create_thread(
                    name=f"{title_of(game, public)} – {interaction.user.display_name}"[:100],
                    type=discord.ChannelType.public_thread,
                )
            except discord.Forbidden:
                raise GameError(
                    Text(
                        "I'm not allowed to create threads here (I need **Create Public Threads**). "
                        "Create the game without a thread, or ask an admin."
                    )
                ) from None
            channel_id = new_thread.id
        row = await self.session.create(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game,
            options=chosen,
            creator=creator,
            reminder_hours=reminder_hours,
        )
        if ai_players:
            row, __ = await self.session.add_ai(row.id, creator.id, ai_level, ai_players)
        if deadline != "none" or ai_level != "normal" or posts != "every" or bank != "none" or vacation or hints:
            hours = _moving.DEADLINE_CHOICES[deadline] if deadline != "none" else False
            row = await self.session.settings(
                row.id,
                creator.id,
                deadline=hours,
                level=ai_level,  # its stand-ins play at its AI level too
                posts=posts if posts != "every" else None,
                bank=_bank.BANKS[bank] if bank != "none" else False,
                vacation=vacation or None,
                hints=hints or None,
            )
        await _lobby.post_lobby(interaction.client, self.session, row)
        await interaction.edit_original_response(content=created_text(game, channel_id if thread else None, _))

    @create.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @create.autocomplete("options")
    async def _options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = str(getattr(interaction.namespace, "game", "") or "")
        if game not in engine.GAMES:
            return []
        done = current.rsplit(",", 1)[0] + ", " if "," in current else ""
        _ = user_words(interaction)
        out = []
        for name, opt in engine.get_rules(game).options.items():
            for v in [str(c) for c in opt.choices] if opt.choices else ["yes", "no"]:
                text = f"{done}{name}={v}"
                if current.strip().lower() in text.lower() or not current.strip():
                    out.append(app_commands.Choice(name=fit(f"{text} ({_.text(opt.description)})"), value=text[:100]))
        return out[:25]

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        _ = user_words(interaction)
        row = await self.session.join((await self.here(interaction)).id, seat_of(interaction.user))
        await reply(
            interaction, _("You're in! Seat {seat} of {title}.", seat=len(row.seats), title=title_of(row.game, _))
        )
        await _lobby.refresh_lobby(interaction.client, row)

    @app_commands.command(name="leave", description="Give up your seat (in a running game: for good, the AI plays it)")
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await self.here(interaction)
        if row.status == "active":  # for good, once confirmed (cogs/_leaving.py)
            await _leaving.ask(interaction, row)
            return
        row = await self.session.leave(row.id, str(interaction.user.id))
        _ = user_words(interaction)
        await reply(interaction, _("You left the game."))
        await _lobby.refresh_lobby(interaction.client, row)

    @app_commands.command(name="add_ai", description="Seat AI players in this channel's lobby (creator only)")
    @app_commands.describe(level="How well they play (default normal)", count="How many (default 1)")
    async def add_ai(
        self,
        interaction: discord.Interaction,
        level: Literal["easy", "normal", "hard"] = "normal",
        count: app_commands.Range[int, 1, 5] = 1,
    ) -> None:
        row = await self.here(interaction)
        row, added = await self.session.add_ai(row.id, str(interaction.user.id), level, count)
        hi = self.session.rules(row.game).player_counts[-1]
        _ = user_words(interaction)
        names = ", ".join(seat_name(s.id, s.name, _) for s in added)
        # i18n: /game add_ai: the AI players seated, and how many of the table's seats are taken
        text = _(
            "Added {names} ({seated} of {n} seats taken).",
            "Added {names} ({seated} of {n} seats taken).",
            names=names,
            seated=len(row.seats),
            n=hi,
        )
        await reply(interaction, text)
        await _lobby.refresh_lobby(interaction.client, row)

    @app_commands.command(name="remove_ai", description="Take an AI player out of this channel's lobby (creator only)")
    @app_commands.describe(player="Which AI player (default: the last one added)")
    async def remove_ai(self, interaction: discord.Interaction, player: str | None = None) -> None:
        row, gone = await self.session.remove_ai((await self.here(interaction)).id, str(interaction.user.id), player)
        _ = user_words(interaction)
        await reply(interaction, _("Removed {name}.", name=seat_name(gone.id, gone.name, _)))
        await _lobby.refresh_lobby(interaction.client, row)

    @remove_ai.autocomplete("player")
    async def _remove_ai_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        row = await self.session.storage.game_in_channel(interaction.channel_id or 0)
        if row is None:
            return []
        return [
            app_commands.Choice(name=s.name, value=s.id)
            for s in row.seats
            if is_ai(s.id) and (current or "").lower() in s.name.lower()
        ][:25]

    @app_commands.command(name="start", description="Start this channel's game (creator only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await _lobby.start_game(interaction, (await self.here(interaction)).id, edit_lobby=False)

    @app_commands.command(name="cancel", description="Call off this channel's game (creator or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        row = await self.session.cancel(
            (await self.here(interaction)).id, str(interaction.user.id), can_manage=_lobby.can_manage(interaction)
        )
        _ = await self.session.languages.public(interaction.guild_id, interaction.guild_locale)  # a public post
        await interaction.response.send_message(
            _(
                "{who} cancelled the game of {title} (#{id}).",
                who=name_of(row, str(interaction.user.id), _),
                title=title_of(row.game, _),
                id=row.id,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await _lobby.refresh_lobby(interaction.client, row)

    @app_commands.command(name="status", description="Whose turn it is and the scores so far")
    async def status(self, interaction: discord.Interaction) -> None:
        row = await self.here(interaction, finished_too=True)
        _ = user_words(interaction)
        extra = await _moving.status_lines(self.session, row, _)
        await reply(interaction, "\n".join([_table.status_text(self.session, row, _), *extra]))

    @app_commands.command(name="board", description="Show the board (only to you)")
    async def board(self, interaction: discord.Interaction) -> None:
        await _table.show_board(interaction, await self.here(interaction, finished_too=True))

    @app_commands.command(name="hand", description="Your hand and anything else only you may see")
    async def hand(self, interaction: discord.Interaction) -> None:
        await _table.show_hand(interaction, await self.here(interaction, finished_too=True))

    @app_commands.command(name="play", description="Open your move panel")
    async def play(self, interaction: discord.Interaction) -> None:
        await _panel.open_panel(interaction, await self.here(interaction))

    @app_commands.command(name="log", description="The moves played so far")
    @app_commands.describe(since="me: only what happened since your last turn")
    async def log(self, interaction: discord.Interaction, since: Literal["me"] | None = None) -> None:
        row = await self.here(interaction, finished_too=True)
        me = str(interaction.user.id)
        after = await self.session.storage.last_move_of(row.id, me) if since else 0
        await reply(interaction, await _table.move_log_text(self.session, row, me, after, user_words(interaction)))

    replay = replays.REPLAY  # /game replay [game] (cogs/replays.py)

    @app_commands.command(name="hint", description="The AI coach's advice on your move, only for you")
    async def hint(self, interaction: discord.Interaction) -> None:
        await _panel.show_hint(interaction, await self.here(interaction))

    @app_commands.command(name="review", description="The AI coach's review of a finished game of this server")
    @app_commands.describe(game="The game's number (#12); default: the last game of this channel")
    async def review(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await _coach.open_review(interaction, game)

    @app_commands.command(name="list", description="Games in this server, or the games you are in")
    @app_commands.describe(mine="Only the games you are seated in (in every server)")
    async def list_(self, interaction: discord.Interaction, mine: bool = False) -> None:
        user = str(interaction.user.id)
        storage = self.session.storage
        rows = await (storage.games_of(user) if mine else storage.games_in_guild(interaction.guild_id or 0))
        await reply(interaction, _table.list_text(self.session, rows, user, mine, user_words(interaction)))

    @app_commands.command(name="rules", description="A summary of a game's rules")
    @app_commands.describe(game="Which game (default: this channel's game)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        options = None
        if game:
            name = game_named(game)
        else:
            row = await self.here(interaction, finished_too=True)
            name, options = row.game, row.options
        await _table.show_rules(interaction, name, options)

    @rules.autocomplete("game")
    async def _rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name="settings", description="Change this game's deadline and stand-ins (creator only)")
    @app_commands.describe(
        deadline="Time for each move (none: reminders only)",
        on_timeout="If the table does not decide when a deadline passed: the AI plays that turn, or wait more",
        standins="May the AI play for a player who is late or away?",
        ai_level="How well the AI plays for a player who is late, away or gone",
        posts="every: a post with the board per move; compact: one board message, edited after each move",
        bank="A chess clock instead of the deadline: each player's time bank, plus time after each turn",
        vacation="Days each player may be late once, used by themselves before the table is asked",
        hints="May players ask the AI coach for a hint on their move (/game hint)?",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        deadline: Literal["none", "12h", "24h", "48h", "72h", "7d"] | None = None,
        on_timeout: Literal["ai", "wait"] | None = None,
        standins: bool | None = None,
        ai_level: Literal["easy", "normal", "hard"] | None = None,
        posts: Literal["every", "compact"] | None = None,
        bank: Literal["none", "1d+2h", "3d+1d", "7d+1d"] | None = None,
        vacation: Literal[0, 1, 2, 3, 5, 7, 14] | None = None,
        hints: bool | None = None,
    ) -> None:
        row = await self.here(interaction)
        hours = False if deadline is None else _moving.DEADLINE_CHOICES[deadline]
        row = await self.session.settings(
            row.id,
            str(interaction.user.id),
            deadline=hours,
            on_timeout=on_timeout,
            standins=standins,
            level=ai_level,
            posts=posts,
            bank=False if bank is None else _bank.BANKS.get(bank),
            vacation=vacation,
            hints=hints,
        )
        await reply(interaction, _moving.settings_text(row, user_words(interaction)))

    @app_commands.command(name="undo", description="Take back your last turn (the others agree if they moved since)")
    async def undo(self, interaction: discord.Interaction) -> None:
        row, outcome = await self.session.undo((await self.here(interaction)).id, str(interaction.user.id))
        _ = user_words(interaction)
        await reply(
            interaction,
            _("↩️ Done: your turn is taken back (the board is posted again).")
            if outcome == "done"
            else _("↩️ The other players are asked to agree (see the post)."),
        )

    @app_commands.command(name="mine", description="Every game in every server waiting for your move")
    async def mine(self, interaction: discord.Interaction) -> None:
        await reply(
            interaction, await _moving.mine_text(self.session, str(interaction.user.id), user_words(interaction))
        )

    @app_commands.command(name="nudge", description="Remind the player to move (at most once an hour)")
    async def nudge(self, interaction: discord.Interaction) -> None:
        row, addressed = await self.session.nudge(
            (await self.here(interaction)).id, str(interaction.user.id), min_gap=self.nudge_gap
        )
        _ = await self.session.languages.public(interaction.guild_id, interaction.guild_locale)  # a public post
        pinged = [ping(row, p, _) for p in addressed]  # exactly those it addresses
        # i18n: /game nudge, in public: {who} are the pings of the {n} players to move, {name} the one who waits
        text = _(
            "⏰ {who}: {name} is waiting for your move in {title}.",
            "⏰ {who}: {name} is waiting for you to move in {title}.",
            n=len(pinged),
            who=", ".join(pinged),
            name=esc(interaction.user.display_name),
            title=title_of(row.game, _),
        )
        await interaction.response.send_message(text, allowed_mentions=PUBLIC_MENTIONS)


class LanguageCommand(CommandErrors, LanguageCog):
    """`/language` (cogs._locale), answered like every other command when refused."""


class Fallback(commands.Cog):
    """Answers component clicks that no family serves (see `cogs._items.unrouted`)."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if _items.unrouted(interaction):
            await _items.answer_error(interaction, _items.OutOfDate())


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*FAMILIES)
    await bot.add_cog(GameCog(bot))
    await bot.add_cog(LanguageCommand(bot, services(bot).session.languages))
    await bot.add_cog(Fallback(bot))
