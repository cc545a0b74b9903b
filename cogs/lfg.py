"""Looking for a game: `/lfg game: [players:] [speed:] [rating:]` puts a player in their server's queue; when
enough compatible players wait, the bot opens a table for them once they accept.

- **Opt-in per server**: `/lfg_setup` (members with **Manage Server**), run in the channel whose threads open the
  matched tables; `shared: True` also joins the server to the shared queue of every server that did the same.
  `enabled: False` turns it off (those waiting stay until they match or leave; nobody new joins).
- **Filters**: `players` (the table's size; otherwise any size the game allows, the largest that can be filled
  at once), `speed` (fast | normal | slow: every opponent's average turn time on record in their server must be of
  that speed: under an hour, up to 12 hours, longer; a player with no turns on record suits any speed) and
  `rating` (±N: every opponent's shown rating in their own server within N of the player's own). Every filter
  holds both ways: a group is formed only of players who all suit each other. A player waits in one queue per
  game and server; `/lfg` again replaces their entry, `/lfg_leave` takes them out.
- **Matching** runs when a player joins (and when a match ends without a table): it reads the longest-waiting
  `QUEUE_READ` entries of the game in the server's own queue and, for a shared server, in the shared queue,
  each through its index (never every queue nor any game: the scale rule), and groups the newcomer with the
  longest-waiting compatible players (`find_group`). The group leaves the queue in one transaction with the new
  match (two servers matching the same player at once: one wins, the other finds them gone).
- **Where the table opens**: in a new thread of the queue channel of the server where the match was made (the
  server of the player whose `/lfg` completed it). Each server with a matched player gets the match's post in its
  own queue channel, pinging its players, with **Accept** and **Decline** (`lfg:<match>:yes|no`, parsed from
  the custom_id: they survive restarts). When everyone accepted, the thread is opened, the game created and
  started (seats in the order they waited), and each server is told where: players from other servers get an
  invite to the host server's queue channel (if the bot may create one; else they are told to ask for it).
- **Time limit**: `ACCEPT_SECONDS` (10 minutes) to accept. The timeout pass (every minute, indexed by the open
  matches' deadlines, for the matches of this process's shards) puts those who accepted back in the queue at
  their old place and counts an ignored match against each who did not: after `IGNORE_LIMIT` (2) ignored matches
  in a row a player leaves the queue, and is told so; the others wait again. Decline ends the match at once the
  same way (the player who declined leaves the queue). Then matching runs again: the queue goes on.
- **Shards**: a server's queue entries, settings and matches are rows of the one database all processes share;
  the shared queue is the same table read by game (`lfg_shared` index) by whichever process handles a `/lfg`. A
  match belongs to its host server's shard: that process runs its timeout; posts to other servers' channels and
  the clicks on them work from any process (REST, and the compare-and-set on the match's data).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

import engine
import present
from cogs import _items
from cogs._items import GID, GameItem, make_button, new_view, reply
from cogs._locale import user_words
from cogs._options import game_choices, game_named
from cogs._seating import GameError
from cogs._services import services
from cogs._session import Session
from cogs._text import PUBLIC_MENTIONS, clip, esc, seat_of, title_of
from cogs.games import CommandErrors
from engine import Text
from storage import Guild, Match, QueueEntry, Seat
from storage._rows import entry_dict, entry_from

log = logging.getLogger(__name__)

ACCEPT_SECONDS = 600.0  # how long a match waits for everyone's Accept
IGNORE_LIMIT = 2  # matches a player may let time out in a row before they leave the queue
QUEUE_READ = 50  # entries read per queue (the server's own, the shared one) when matching
FAST_TURN = 3600.0  # an average turn under an hour: fast
SLOW_TURN = 12 * 3600.0  # over 12 hours: slow
SPEEDS = ("fast", "normal", "slow")


def pace_of(turns: int, seconds: float) -> str | None:
    """A player's speed from their turns on record (None: none yet)."""
    if turns <= 0:
        return None
    average = seconds / turns
    return "fast" if average < FAST_TURN else "slow" if average > SLOW_TURN else "normal"


def suits(a: QueueEntry, b: QueueEntry) -> bool:
    """Whether `b` is an opponent `a` asked for (speed and rating)."""
    if a.speed is not None and b.pace not in (None, a.speed):
        return False
    return a.band is None or abs(a.rating - b.rating) <= a.band


def compatible(a: QueueEntry, b: QueueEntry) -> bool:
    return a.game == b.game and a.player != b.player and suits(a, b) and suits(b, a)


def find_group(waiting: Sequence[QueueEntry], seed: QueueEntry, counts: Sequence[int]) -> list[QueueEntry] | None:
    """The players to seat with `seed`: the largest table size the game allows (or the size everyone asked for)
    that compatible players fill, the longest waiting first; None if none can be filled yet. In waiting order."""
    pool = [e for e in waiting if (e.guild_id, e.player) != (seed.guild_id, seed.player)]
    for n in sorted((c for c in counts if seed.players in (None, c)), reverse=True):
        group = [seed]
        for e in pool:
            if e.players in (None, n) and all(compatible(e, g) for g in group):
                group.append(e)
                if len(group) == n:
                    return sorted(group, key=lambda g: (g.since, g.guild_id, g.player))
    return None


class MatchButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"lfg:{GID}:(?P<op>yes|no)"):
    """Accept or Decline under a match's post (the match id in `gid`)."""

    def __init__(self, gid: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(make_button(f"lfg:{gid}:{op}", label or op, style))
        self.gid, self.op = gid, op

    async def handle(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LfgCog")  # type: ignore[attr-defined]
        if cog is None:
            raise _items.OutOfDate()
        await cog.answer(interaction, self.gid, str(interaction.user.id), self.op == "yes")


class LfgCog(CommandErrors, commands.Cog):
    """/lfg, /lfg_leave, /lfg_setup, the match buttons and the timeout pass."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        self.timeouts.start()

    async def cog_unload(self) -> None:
        self.timeouts.cancel()

    # -- commands ----------------------------------------------------------------------------------------

    @app_commands.command(name="lfg", description="Look for a game: join this server's queue")
    @app_commands.describe(
        game="Which game",
        players="How many players at the table (default: any)",
        speed="Opponents of this speed only (their average turn time)",
        rating="Opponents whose rating is within this much of yours",
    )
    @app_commands.guild_only()
    async def lfg(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 2, 6] | None = None,
        speed: Literal["fast", "normal", "slow"] | None = None,
        rating: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        _ = user_words(interaction)
        game = game_named(game)
        guild_id = interaction.guild_id or 0
        storage = self.session.storage
        guild = await storage.guild(guild_id)
        if guild.lfg_channel is None:
            raise GameError(Text("Looking for a game is off on this server: an admin turns it on with `/lfg_setup`."))
        counts = engine.get_rules(game).player_counts
        if players is not None and players not in counts:
            raise GameError(
                Text("{title} is played by {counts} players.", title=present.title(game), counts=_counts(counts))
            )
        me = seat_of(interaction.user)
        standing = await storage.standing(guild_id, game, me.id)
        summary = await storage.player_summary(guild_id, me.id, game)
        entry = QueueEntry(
            guild_id,
            me.id,
            game,
            me.name,
            time.time(),
            guild.lfg_shared,
            players,
            speed,
            float(rating) if rating is not None else None,
            standing[1].rating.shown if standing else 0.0,
            pace_of(sum(s.turns for s in summary), sum(s.turn_seconds for s in summary)),
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        await storage.queue_put(entry)
        match = await self.match_for(entry)
        title = title_of(game, _)
        if match is not None:
            # i18n: the answer to /lfg when the player was matched at once
            text = _("🎲 Matched for {title}! Accept on the match's post within 10 minutes.", title=title)
        elif guild.lfg_shared:
            # i18n: the answer to /lfg: the player waits in the queue (the server is in the shared queue)
            text = _("⏳ You are in the queue for {title}, with the players of every server in the shared queue. I'll ping you in <#{channel}> when a table is found.", title=title, channel=guild.lfg_channel)  # fmt: skip
        else:
            # i18n: the answer to /lfg: the player waits in the server's queue
            text = _("⏳ You are in this server's queue for {title}. I'll ping you in <#{channel}> when a table is found.", title=title, channel=guild.lfg_channel)  # fmt: skip
        await reply(interaction, text)

    @lfg.autocomplete("game")
    async def _lfg_game(self, interaction: discord.Interaction, current: str) -> list[Any]:
        return game_choices(current, user_words(interaction))

    @app_commands.command(name="lfg_leave", description="Leave this server's looking-for-game queue")
    @app_commands.describe(game="Only this game's queue (default: every game)")
    @app_commands.guild_only()
    async def lfg_leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        _ = user_words(interaction)
        kind = game_named(game) if game else None
        n = await self.session.storage.queue_drop(interaction.guild_id or 0, str(interaction.user.id), kind)
        if not n:
            raise GameError(Text("You are not waiting in this server's queue."))
        # i18n: the answer to /lfg_leave
        await reply(interaction, _("You left the queue.", "You left the queue of {n} games.", n=n))

    @lfg_leave.autocomplete("game")
    async def _leave_game(self, interaction: discord.Interaction, current: str) -> list[Any]:
        return game_choices(current, user_words(interaction))

    @app_commands.command(name="lfg_setup", description="Open matched tables in this channel (server admins)")
    @app_commands.describe(enabled="Turn the queue on here (or off)", shared="Match players of other servers too")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def lfg_setup(self, interaction: discord.Interaction, enabled: bool = True, shared: bool = False) -> None:
        _ = user_words(interaction)
        guild_id = interaction.guild_id or 0
        if enabled and not isinstance(interaction.channel, discord.TextChannel):
            raise GameError(Text("Run this in a normal text channel: matched tables open in its threads."))
        storage = self.session.storage
        guild = await storage.guild(guild_id)
        channel = interaction.channel_id if enabled else None
        await storage.set_guild(Guild(guild_id, guild.language, channel, shared and enabled))
        if not enabled:
            # i18n: /lfg_setup enabled:False
            text = _("Looking for a game is off on this server.")
        elif shared:
            # i18n: /lfg_setup in the shared queue
            text = _("Matched tables open in threads of <#{channel}>; this server's players also match players of every server in the shared queue.", channel=channel)  # fmt: skip
        else:
            # i18n: /lfg_setup, this server's own queue only
            text = _("Matched tables open in threads of <#{channel}>; players match this server's players only.", channel=channel)  # fmt: skip
        await reply(interaction, text)

    # -- matching ----------------------------------------------------------------------------------------

    async def match_for(self, entry: QueueEntry) -> Match | None:
        """Look for a group for `entry` (waiting in the queue); if one is found, open its match and post it."""
        storage = self.session.storage
        guild = await storage.guild(entry.guild_id)
        if guild.lfg_channel is None:
            return None
        waiting = await storage.queue_waiting(entry.game, entry.guild_id, shared=guild.lfg_shared, limit=QUEUE_READ)
        if not guild.lfg_shared:
            waiting = [e for e in waiting if e.guild_id == entry.guild_id]
        me = next((e for e in waiting if (e.guild_id, e.player) == (entry.guild_id, entry.player)), None)
        if me is None:  # matched meanwhile, or gone
            return None
        group = find_group(waiting, me, engine.get_rules(entry.game).player_counts)
        if group is None:
            return None
        now = time.time()
        data = {"members": [entry_dict(e) for e in group], "accepted": [], "channel": guild.lfg_channel}
        match = await storage.open_match(
            group, guild_id=entry.guild_id, expires_at=now + ACCEPT_SECONDS, data=data, now=now
        )
        if match is not None:
            await self._post_match(match)
        return match

    async def _post_match(self, match: Match) -> None:
        """The match's post in each matched player's server, pinging its own players, with Accept / Decline."""
        for guild_id, members in _by_guild(match):
            _ = await self.session.languages.public(guild_id)
            pings = ", ".join(f"<@{m['player']}>" for m in members)
            others = len(match.data["members"]) - len(members)
            title = title_of(match.game, _)
            # i18n: public: the queue found a table; {pings}: this server's matched players; {when}: a Discord timestamp
            text = _("🎲 A table of {title} for {pings}: accept {when}.", title=title, pings=pings, when=f"<t:{int(match.expires_at)}:R>")  # fmt: skip
            if others:
                # i18n: public, under a match found by the queue: how many players of other servers are in it
                text += " " + _("With {n} player of another server.", "With {n} players of other servers.", n=others)
            view = new_view(
                # i18n: a button under a match found by the queue
                MatchButton(match.id, "yes", _("Accept"), discord.ButtonStyle.success),
                # i18n: a button under a match found by the queue
                MatchButton(match.id, "no", _("Decline"), discord.ButtonStyle.danger),
            )
            await self._post(guild_id, clip(text), view)

    async def _post(self, guild_id: int, text: str, view: discord.ui.View | None = None) -> None:
        channel_id = (await self.session.storage.guild(guild_id)).lfg_channel
        if channel_id is None:
            return
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if view is not None:
                await channel.send(text, view=view, allowed_mentions=PUBLIC_MENTIONS)
            else:
                await channel.send(text, allowed_mentions=PUBLIC_MENTIONS)
        except discord.HTTPException:
            log.warning("could not post in the queue channel %s of server %s", channel_id, guild_id, exc_info=True)

    # -- answers -----------------------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction, match_id: int, player: str, yes: bool) -> None:
        storage = self.session.storage
        _ = user_words(interaction)
        for _attempt in range(5):  # compare-and-set: another answer may land in between
            match = await storage.load_match(match_id)
            if match is None or match.status != "open":
                raise GameError(Text("This match is over: nothing was changed."))
            players = [m["player"] for m in match.data["members"]]
            if player not in players:
                raise GameError(Text("This match is for the players it pings, not you."))
            if not yes:
                if await self._close(match, declined=player):
                    # i18n: the answer to Decline under a match
                    await reply(interaction, _("You declined and left the queue."))
                    return
                continue
            accepted = sorted({*match.data["accepted"], player})
            if accepted == match.data["accepted"]:
                await reply(interaction, _("You accepted already: waiting for the others."))
                return
            data = {**match.data, "accepted": accepted}
            everyone = set(accepted) == set(players)
            done = await storage.update_match(
                match.id, expect=match.data, data=data, status="started" if everyone else "open"
            )
            if done is None:
                continue
            if everyone:
                await interaction.response.defer(ephemeral=True, thinking=True)
                thread = await self._open_table(done)
                if thread is None:  # the queue channel's post says why
                    raise GameError(Text("I could not open a thread for the matched table (I need **Create Public Threads**)."))  # fmt: skip
                # i18n: the answer to the last Accept: where the table is
                await reply(interaction, _("✅ Everyone accepted: the table is in <#{thread}>.", thread=thread))
            else:
                waiting = [m["name"] for m in match.data["members"] if m["player"] not in accepted]
                # i18n: the answer to Accept: whom the match still waits for
                await reply(interaction, _("✅ Accepted. Waiting for {who}.", who=", ".join(esc(w) for w in waiting)))
            return
        raise GameError(Text("The table changed meanwhile; try again."))

    async def _open_table(self, match: Match) -> int | None:
        """Everyone accepted: the thread in the host server's queue channel, the game created and started there,
        and each server told where (players of other servers with an invite)."""
        session: Session = self.session
        members = [entry_from(m) for m in match.data["members"]]
        host, channel = match.guild_id, int(match.data["channel"])
        _ = await session.languages.public(host)
        names = ", ".join(m.name for m in members)
        try:
            thread = await self.bot.http.start_thread_without_message(
                channel, name=clip(f"{title_of(match.game, _)} – {names}", 100), auto_archive_duration=1440, type=11
            )
        except discord.HTTPException:
            log.warning("could not open a thread in %s for match %s", channel, match.id, exc_info=True)
            await self._post(host, _("I could not open a thread for the matched table (I need **Create Public Threads**)."))  # fmt: skip
            return None
        thread_id = int(thread["id"])
        seats = [Seat(m.player, m.name) for m in members]
        row = await session.create(guild_id=host, channel_id=thread_id, game=match.game, options={}, creator=seats[0])
        for seat in seats[1:]:
            row = await session.join(row.id, seat)
        pings = ", ".join(f"<@{m.player}>" for m in members)
        # i18n: public, the first line in a matched table's thread
        await self._send(thread_id, host, _("🎲 Matched by the queue: {pings}. Good game!", pings=pings))
        await session.start(row.id, seats[0].id)
        invite = None
        if any(m.guild_id != host for m in members):
            try:
                made = await self.bot.http.create_invite(channel, max_age=86400, max_uses=len(members))
                invite = f"https://discord.gg/{made['code']}"
            except discord.HTTPException:
                log.warning("could not create an invite to %s for match %s", channel, match.id, exc_info=True)
        for guild_id, here in _by_guild(match):
            _ = await session.languages.public(guild_id)
            pings = ", ".join(f"<@{m['player']}>" for m in here)
            if guild_id == host:
                # i18n: public: everyone accepted a match; the table is open in a thread
                text = _("✅ {pings}: everyone accepted, your table is open in <#{thread}>.", pings=pings, thread=thread_id)  # fmt: skip
            elif invite:
                # i18n: public: everyone accepted a match; the table is on another server ({invite}: its invite link)
                text = _("✅ {pings}: everyone accepted. Your table is on another server: join it with {invite}, then play in <#{thread}>.", pings=pings, invite=invite, thread=thread_id)  # fmt: skip
            else:
                # i18n: public: everyone accepted a match; the table is on another server, but no invite could be made
                text = _("✅ {pings}: everyone accepted. Your table is on another server (<#{thread}>): ask its players for an invite.", pings=pings, thread=thread_id)  # fmt: skip
            await self._post(guild_id, clip(text))
        return thread_id

    async def _send(self, channel_id: int, guild_id: int, text: str) -> None:
        try:
            channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
            await channel.send(text, allowed_mentions=PUBLIC_MENTIONS)
        except discord.HTTPException:
            log.warning("could not post in %s", channel_id, exc_info=True)

    async def _close(self, match: Match, *, declined: str | None = None) -> bool:
        """End an open match without a table (timed out, or `declined`): those who accepted wait again at their
        place; each who did not (and did not decline) counts an ignored match, and leaves the queue at the
        IGNORE_LIMIT. False if the match changed meanwhile."""
        accepted = set(match.data["accepted"])
        back, gone = [], []
        for m in match.data["members"]:
            e = entry_from(m)
            if e.player == declined:
                continue
            if e.player in accepted:
                back.append(dataclasses.replace(e, ignored=0))
            elif declined is None and e.ignored + 1 >= IGNORE_LIMIT:
                gone.append(e)
            else:
                back.append(dataclasses.replace(e, ignored=e.ignored + (declined is None)))
        data = {**match.data, "declined": declined, "dropped": [e.player for e in gone]}
        done = await self.session.storage.update_match(
            match.id, expect=match.data, data=data, status="expired", requeue=back
        )
        if done is None:
            return False
        for guild_id, _members in _by_guild(match):
            _ = await self.session.languages.public(guild_id)
            lines = []
            if declined is not None:
                who = next(m["name"] for m in match.data["members"] if m["player"] == declined)
                # i18n: public: a player declined a match found by the queue
                lines.append(_("🎲 {who} declined the table of {title}.", who=f"**{esc(who)}**", title=title_of(match.game, _)))  # fmt: skip
            else:
                late = [m["name"] for m in match.data["members"] if m["player"] not in accepted]
                # i18n: public: a match found by the queue timed out; {who}: those who did not accept
                lines.append(_("⌛ The table of {title} timed out: {who} did not accept.", title=title_of(match.game, _), who=", ".join(f"**{esc(n)}**" for n in late)))  # fmt: skip
            for e in gone:
                if e.guild_id == guild_id:
                    # i18n: public: a player left the queue after ignoring matches ({n}: how many)
                    lines.append(_("<@{player}> left the queue after {n} ignored matches.", player=e.player, n=IGNORE_LIMIT))  # fmt: skip
            mine = [e for e in back if e.guild_id == guild_id]
            if mine:
                # i18n: public: after a match ended without a table, these players wait in the queue again
                lines.append(_("Back in the queue: {who}.", who=", ".join(f"**{esc(e.name)}**" for e in mine)))
            await self._post(guild_id, clip("\n".join(lines)))
        for e in back:  # the queue goes on
            await self.match_for(e)
        return True

    # -- the timeout pass --------------------------------------------------------------------------------

    @tasks.loop(minutes=1)
    async def timeouts(self) -> None:
        try:
            await self.pass_matches()
        except Exception:  # never let one bad pass stop the loop
            log.exception("looking-for-game pass failed")

    @timeouts.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def pass_matches(self, now: float | None = None, *, batch: int = 100) -> int:
        """End every open match whose time to accept ran out (of this process's shards); returns how many."""
        now = time.time() if now is None else now
        done = 0
        shards = services(self.bot).herald.shards
        for match in await self.session.storage.matches_due(now, shards=shards, limit=batch):
            done += await self._close(match)
        return done


def _by_guild(match: Match) -> list[tuple[int, list[dict[str, Any]]]]:
    """The match's members grouped by their server, servers in the order their first member waited."""
    out: dict[int, list[dict[str, Any]]] = {}
    for m in match.data["members"]:
        out.setdefault(int(m["guild_id"]), []).append(m)
    return list(out.items())


def _counts(counts: Sequence[int]) -> str:
    return f"{counts[0]}–{counts[-1]}" if len(counts) > 1 else str(counts[0])


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(MatchButton)
    await bot.add_cog(LfgCog(bot))
