"""A player's own commands, in any server: `/move` (the typed way to play: the list offered as they type holds
the same legal actions, named as in the panel; each suggestion carries the position it was listed at, so a stale
one is refused and a retried one is recognised as played), `/away` (no pings, and the AI may play for you) and
`/prefs` (skip Confirm for moves that reveal nothing: Undo takes a misclick back; quiet hours in a time zone, see
cogs/_quiet.py). Answers and suggestions are in the user's language (a typed move is recognised in it or in
English)."""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import _moving, _panel, _quiet
from cogs._herald import DM_BUDGET
from cogs._items import reply, said
from cogs._locale import user_words
from cogs._seating import GameError
from cogs._text import fit
from cogs.games import CommandErrors
from engine import Text

# a /move suggestion: game id, the position it was listed at (Session.position), index into the legal actions
MOVE_VALUE = re.compile(r"(?P<gid>[0-9]{1,20}):(?P<pos>[0-9a-z.]{1,30}):(?P<i>[0-9]{1,4})")


class MoveCog(CommandErrors, commands.Cog):
    """`/move`: the typed way to play, for people who prefer it to the buttons."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="move", description="Type your move (the list shows every legal move)")
    @app_commands.describe(action="Start typing: the legal moves are listed")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        row = await self.session.in_channel(interaction.channel_id or 0)  # 0: none (a guild-only command)
        player = str(interaction.user.id)
        self.session.check_player(row, player)  # not seated / not your turn / over: said plainly
        actions, pos = self.session.listing(row, player)
        rules = self.session.rules(row.game)
        chosen: Any = None
        origin = None
        m = MOVE_VALUE.fullmatch(action.strip())
        if m:
            origin = f"{m['pos']}:{m['i']}"
            if int(m["gid"]) != row.id or m["pos"] != pos:
                done = await self.session.played(row.id, player, origin, latest=True)
                if done is None:
                    raise GameError(
                        Text(
                            "That suggestion is from an earlier move: the game has moved on. "
                            "Type the command again to see your moves now."
                        )
                    )
                await interaction.response.defer(ephemeral=True, thinking=True)
                await _panel.finish_move(interaction, done)
                return
            if int(m["i"]) < len(actions):
                chosen = actions[int(m["i"])]
        else:  # typed out: the move's words in the user's language, or in English
            _, typed = user_words(interaction), action.strip().lower()
            matches = [
                a for a in actions if typed in (_.text(rules.describe(a)).lower(), str(rules.describe(a)).lower())
            ]
            chosen = matches[0] if len(matches) == 1 else None
        if chosen is None:
            raise GameError(
                Text(
                    "I don't recognise the move `{move}`. Pick one of the suggestions as you type, or press "
                    "**Play my turn** for the menu.",
                    move=fit(action, 80),
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.session.act(row.id, player, chosen, expected_turns=row.turns, origin=origin)
        await _panel.finish_move(interaction, result)

    @move.autocomplete("action")
    async def _move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        _ = user_words(interaction)
        row = await self.session.storage.game_in_channel(interaction.channel_id or 0)
        if row is None:
            return [app_commands.Choice(name=fit(_("There is no game in this channel.")), value="none")]
        try:
            self.session.check_player(row, str(interaction.user.id))
        except GameError as exc:  # say why there is nothing to choose, instead of an empty list
            return [app_commands.Choice(name=fit(said(exc, _)), value="none")]
        actions, pos = self.session.listing(row, str(interaction.user.id))
        rules = self.session.rules(row.game)
        wanted = _words(current)
        out = []
        for i, a in enumerate(actions):
            text = _.text(rules.describe(a))
            have = _words(text)
            # every typed word starts a word of the move ("2" finds "adds 20", not "adds 12")
            if all(any(h.startswith(w) for h in have) for w in wanted):
                out.append(app_commands.Choice(name=fit(text), value=f"{row.id}:{pos}:{i}"))
                if len(out) == 25:
                    break
        return out


class PlayerCog(CommandErrors, commands.Cog):
    """`/away` and `/prefs`: a player's own settings, for every game in every server."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="away", description="Away for a while: no pings; the AI may play your turns")
    @app_commands.describe(
        until='How long (3d, 12h, 1w 2d) or until a date (2026-12-24); "off" when you are back',
        ai="Let the AI play your turns meanwhile, where the table allows it",
    )
    async def away(self, interaction: discord.Interaction, until: str, ai: bool = False) -> None:
        me, _ = str(interaction.user.id), user_words(interaction)
        # i18n: the word a user types in /away to say they are back (as the option's description says it)
        if until.strip().lower() in ("off", "back", "no", _("off").lower()):
            await self.session.set_away(me, None, False)
            await reply(interaction, _("👋 Welcome back: you are pinged and reminded again."))
            return
        waiting = await self.session.set_away(me, _moving.parse_until(until, time.time(), _), ai)
        for game_id in waiting:
            self.session.changed(game_id)  # the AI looks at once where it is your turn
        await reply(interaction, await _moving.away_text(self.session, me, _))

    @app_commands.command(name="prefs", description="Your own preferences in every game")
    @app_commands.describe(
        confirm="Ask Confirm before each move (off: moves that reveal nothing play at once)",
        quiet='Your quiet hours, from-to in your time (22-08): no pings, and your clock waits; "off" for none',
        timezone="Your time zone, for quiet hours (start typing: Europe/Budapest)",
        dm="A DM when your turn begins, or when your deadline is near; off: none (the default)",
    )
    async def prefs(
        self,
        interaction: discord.Interaction,
        confirm: bool | None = None,
        quiet: str | None = None,
        timezone: str | None = None,
        dm: Literal["turn", "deadline", "off"] | None = None,
    ) -> None:
        me = await self.session.storage.player(str(interaction.user.id))
        _ = user_words(interaction)
        if confirm is not None:
            me = dataclasses.replace(me, skip_confirm=not confirm)
            await self.session.storage.set_player(me)
        if quiet is not None or timezone is not None:
            zone = _quiet.parse_zone(timezone) if timezone is not None else me.timezone
            hours = me.quiet
            if quiet is not None:
                hours = (
                    None
                    if quiet.strip().lower() in ("off", "no", "none", _("off").lower())
                    else _quiet.parse_quiet(quiet)
                )
            if hours and not zone:
                raise GameError(Text("Tell me your time zone too: `/prefs quiet:22-08 timezone:Europe/Budapest`."))
            me = await self.session.set_quiet(me.id, hours, zone)
        if dm is not None:
            me = dataclasses.replace(await self.session.storage.player(me.id), dm=dm)
            await self.session.storage.set_player(me)
        if me.skip_confirm:
            text = _(
                "⚙️ Confirm before each move: off (a move that reveals nothing plays as soon as you choose it; "
                "/game undo takes it back)."
            )
        else:
            text = _("⚙️ Confirm before each move: on.")
        if me.quiet:
            start, end = me.quiet.split("-")
            # i18n: /prefs: {start} and {end} are times of day ("22:00"), {zone} an IANA zone name
            night = _(
                "🌙 Quiet hours {start}–{end} ({zone}): nobody pings, reminds or DMs you then, and the clock of your turns waits.",
                start=start,
                end=end,
                zone=me.timezone or "UTC",
            )
        else:
            night = _("🌙 Quiet hours: none.")
        if me.dm == "turn":
            # i18n: /prefs: {n} is the most DM notices a player gets in an hour
            mail = _(
                "✉️ DM notices: when your turn begins, with a link and what happened since (one per turn, at most {n} an hour).",
                "✉️ DM notices: when your turn begins, with a link and what happened since (one per turn, at most {n} an hour).",
                n=DM_BUDGET,
            )
        elif me.dm == "deadline":
            mail = _("✉️ DM notices: when your deadline is near.")
        else:
            mail = _("✉️ DM notices: off.")
        await reply(interaction, f"{text}\n{night}\n{mail}")

    @prefs.autocomplete("timezone")
    async def _zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in _quiet.zone_matches(current)]


def _words(text: str | None) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", (text or "").lower())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MoveCog(bot))
    await bot.add_cog(PlayerCog(bot))
