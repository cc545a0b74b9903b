"""The herald: posts what the outbox says the channels are owed, oldest first, exactly once.

Every move (and every start) is stored together with its `Notice` (storage.base); the herald turns notices into
public posts with the board of that position and removes them only once Discord took the post. A crash at any
point leaves the notice in place, and the herald posts it at the next start. Each post carries a nonce derived
from its notice, so a notice posted just before a crash but not yet removed is not posted twice (Discord returns
the earlier message for a repeated nonce).

An AI seat's whole turn goes out in one post: while the notices of a game end with moves of an AI that carries
on alone, they wait (at most TURN_POST_MOVES moves, or until `flush`), and then go out together.

Players in their quiet hours (cogs/_quiet.py) are named in every post, never pinged. DM notices (`/prefs dm:`)
go out right after the post of the notice that owes them (its `dm` list, written in the move's transaction),
before that notice is cleared: within a per-user budget, at most one per turn, with a nonce.

A compact table (`posts:compact`, cogs/_compact.py) gets its starts, moves and undos as edits of its one living
board, and a short turn line only when the post would ping somebody; everything else is posted as in every mode.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

import discord

from cogs import _compact, _moving, _records, _table
from cogs._images import Images
from cogs._quiet import quiet_until
from cogs._seating import is_ai, undos_of
from cogs._session import Session
from cogs._text import clip, duration, esc, name_of, notice_content, ping, seated, title_of
from i18n import ENGLISH, LANGUAGES, Words, words
from storage import ALL_SHARDS, GameRow, Notice, Shards

log = logging.getLogger(__name__)

TURN_POST_MOVES = 6  # at most this many moves of one AI turn in one post (each post has its board)
LEASE_SECONDS = 60.0  # how long a process may post a game's notices before another may take over
BACKGROUND = 2  # deliveries of a background pass (reminders) under way at once
STALE_AFTER = 30.0  # seconds after which the periodic pass posts even a held AI turn
DM_BUDGET = 4  # DM notices a player gets at most per DM_WINDOW, whatever the number of turns (a burst never floods)
DM_WINDOW = 3600.0
DM_TURNS = 20  # the latest turns a player's record of DMs remembers (at most one DM per turn)


def _reminder_text(row: GameRow, movers: list[str], since: float, at: float, _: Words = ENGLISH) -> str:
    # i18n: the reminder after a turn was idle a while: {who} are the pings, {time} how long it waited
    return _(
        "⏰ Reminder: {who}, it's your move in {title} (waiting for {time}).",
        who=", ".join(ping(row, p, _) for p in movers),
        title=title_of(row.game, _),
        time=duration(at - since, _),
    )


def unpinged(row: GameRow, content: str, players: Sequence[str], _: Words = ENGLISH) -> str:
    """`content` with the mentions of `players` (in their quiet hours) turned into their names: told, not pinged."""
    for p in players:
        content = content.replace(f"<@{p}>", name_of(row, p, _))
    return content


def nonce_of(notice: Notice) -> str:
    """A stable nonce (Discord allows 25 characters) for the post of `notice`."""
    return f"n{notice.game_id:x}.{notice.id:x}"[:25]


def groups_of(notices: list[Notice], *, force: bool) -> list[list[Notice]]:
    """Notices in posting groups: an AI seat's moves that carry on alone join the move after them. Without
    `force`, a trailing group still open (its AI turn goes on) is held back."""
    groups: list[list[Notice]] = []
    open_group = False
    for n in notices:
        if open_group and groups and n.kind == "move" and n.payload["player"] == groups[-1][-1].payload["player"]:
            groups[-1].append(n)
        else:
            groups.append([n])
        open_group = n.kind == "move" and bool(n.payload.get("continues")) and len(groups[-1]) < TURN_POST_MOVES
    if open_group and not force:
        groups.pop()
    return groups


class Herald:
    """Delivers the outbox. `notify(game_id)` after a commit; `deliver_all()` at start-up and periodically."""

    def __init__(
        self,
        client: discord.Client,
        session: Session,
        images: Images,
        *,
        shards: Shards = ALL_SHARDS,
        owner: str = "bot",
    ):
        self.client, self.session, self.images = client, session, images
        self.shards = shards  # the background passes post only for games of these shards' guilds
        self.owner = owner  # this process, in leases
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # per game: its lock, the deliveries using it
        self._tasks: set[asyncio.Task[None]] = set()
        self._background = asyncio.Semaphore(BACKGROUND)
        self.fault: Callable[[str], Awaitable[None]] | None = None  # test hook: at "rendered", "posted", "dm"
        self.delivered = 0  # posts made (for tests and logs)
        self.dms = 0  # DM notices sent, and those the budget held back (for tests and logs)
        self.dms_held = 0
        self.closed = False  # after `close`: notices stay in the outbox for the next start

    def notify(
        self, game_id: int, row: GameRow | None = None, *, force: bool = False, background: bool = False
    ) -> None:
        """Post what game `game_id` is owed, soon (a listener of the session: never raises, never waits);
        `force`: a held AI turn too. `background` (a pass's many reminders): at most BACKGROUND of those at a
        time, so that their database writes never queue up in front of the moves players are making."""
        if self.closed:
            return
        work = self.deliver(game_id, force=force, row=row) if not background else self._deliver_later(game_id, force)
        task = asyncio.create_task(work, name=f"herald-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver_later(self, game_id: int, force: bool) -> None:
        async with self._background:
            await self.deliver(game_id, force=force)

    async def flush(self, game_id: int) -> None:
        """Post everything game `game_id` is owed now, a held AI turn included (it ended or was cut short)."""
        await self.deliver(game_id, force=True)

    async def deliver_all(self, *, older_than: float | None = None, batch: int = 50) -> int:
        """Post every pending notice of this process's shards (start-up: all of them; the periodic pass: those
        older than a moment), in batches: the event loop serves clicks between two games."""
        seen: set[int] = set()
        while not self.closed:
            games = await self.session.storage.games_with_notices(
                older_than=older_than, shards=self.shards, limit=batch
            )
            fresh = [g for g in games if g not in seen]  # a game whose posts fail stays pending: not again now
            for game_id in fresh:
                await self.deliver(game_id, force=True)
            seen.update(fresh)
            if len(games) < batch or not fresh:
                break
        return len(seen)

    async def close(self, timeout: float) -> None:
        """Take no more deliveries, and let those under way finish (at most `timeout` s): whatever is left stays
        in the outbox and goes out at the next start."""
        self.closed = True
        if self._tasks:
            _, late = await asyncio.wait(list(self._tasks), timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                log.warning("%d post(s) still under way at shutdown: they go out at the next start", len(late))
                await asyncio.wait(late)

    async def _digest(self, row: GameRow, group: list[Notice], _: Words = ENGLISH) -> list[str]:
        """What the others did since the last turn of the player this post pings (at most six lines; private
        choices never): the moves between that player's last move and this post's."""
        last = group[-1].payload
        if last["finished"] or last["free"]:
            return []
        quiet = set(last.get("quiet", ())) | set(group[0].payload["before"]) | {last["player"]}
        pinged = [p for p in last["to_move"] if p not in last["side"] and p not in quiet and not is_ai(p)]
        if not pinged:
            return []
        return await self._since(row, pinged[0], group[0].version, _)  # this post's own moves are told above

    async def _since(self, row: GameRow, player: str, first: int, _: Words = ENGLISH) -> list[str]:
        """The digest: what the others did after `player`'s last move, before move number `first`."""
        since = await self.session.storage.last_move_of(row.id, player)
        rules = self.session.rules(row.game)
        lines = []
        for m in await self.session.storage.moves(row.id, since=since):
            if m.move_number >= first:
                break
            action = rules.action_from_json(m.action)
            if not rules.is_private(action):
                # i18n: a line of the "since your last turn" digest: who did what
                lines.append(
                    _("• {who} {action}", who=name_of(row, m.player, _), action=_.text(rules.describe(action)))
                )
        if not lines:
            return []
        if len(lines) > 5:
            # i18n: the digest's last line when more moves happened than it shows
            more = _(
                "• …and {n} more (`/game log since:me`)", "• …and {n} more (`/game log since:me`)", n=len(lines) - 4
            )
            lines = [*lines[:4], more]
        # i18n: the heading of what the others did since a player's last turn (in the post that pings them)
        return [_("📜 Since your last turn, {name}:", name=esc(seated(row, player, _))), *lines]

    # -- DM notices (`/prefs dm:turn|deadline`) ------------------------------------------------------------

    async def _dms(
        self, row: GameRow, group: list[Notice], posted: discord.Message | discord.PartialMessage, _: Words
    ) -> None:
        """The DMs a posted notice owes: the players its move or deadline notice names (`dm`, written with it in
        its transaction), or, for a reminder, the humans to move (a turn that began in their night). Before the
        notice is cleared: after a crash they go out again, with the same nonce (Discord shows them once) and
        only if the player's record of DMs (`dm_turns`) does not have that turn yet. Never raises."""
        last = group[-1]
        if last.kind == "reminder":
            side = set(self.session.out_of_turn(row))
            wanted = [p for p in self.session.to_move(row) if p not in side and not is_ai(p)]
        else:
            wanted = list(dict.fromkeys(p for n in group for p in n.payload.get("dm", ())))
        why = "deadline" if last.kind == "deadline" else "turn"
        for player in wanted:
            try:
                await self._dm(row, player, why, last, posted, _)
            except Exception:
                log.exception("the DM notice of game %s for a player failed; dropped", row.id)

    async def _dm(
        self,
        row: GameRow,
        player: str,
        why: str,
        notice: Notice,
        posted: discord.Message | discord.PartialMessage,
        _: Words,
    ) -> None:
        """One DM notice, within the player's budget (DM_BUDGET per DM_WINDOW) and at most one per turn; a
        player whose DMs are closed (Discord's 50007) has DM notices switched off and is told once, in the
        game's channel."""
        storage, now = self.session.storage, time.time()
        me = await storage.player(player)
        turn = f"{row.id}:{row.turns}"
        if me.dm != why or not player.isdigit() or quiet_until(me, now) is not None or turn in me.dm_turns:
            return
        sent = tuple(t for t in me.dm_sent if t > now - DM_WINDOW)
        if len(sent) >= DM_BUDGET:
            self.dms_held += 1
            return
        mine = words(me.locale) if me.locale in LANGUAGES else _  # the player's own language, where known
        link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{posted.id}"
        content = await self._dm_text(row, player, why, notice, link, len(sent) + 1 == DM_BUDGET, mine)
        try:
            channel = await self.client.create_dm(discord.Object(int(player)))
            await channel.send(
                clip(content), nonce=f"d{row.id:x}.{row.turns:x}"[:25], allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await storage.set_player(dataclasses.replace(me, dm="off"))  # once: the note below is not repeated
            # i18n: in the game's channel, once: a player's DMs are closed; {who} pings them
            note = _(
                "📪 {who}, I can't send you DMs (they are closed for this server's members), so your DM notices are off. Open them, then `/prefs dm:turn` turns them on again.",
                who=ping(row, player, _),
            )
            try:
                await _table.post_public(self.client, row, note, None, None, nonce=f"c{row.id:x}.{int(player):x}"[:25])
            except discord.HTTPException:
                log.warning("the note of closed DMs in game %s could not be posted", row.id, exc_info=True)
            return
        if self.fault is not None:
            await self.fault("dm")  # sent, not yet counted: after a crash, the same nonce shows it once
        await storage.set_player(
            dataclasses.replace(me, dm_sent=(*sent, now), dm_turns=(*me.dm_turns, turn)[-DM_TURNS:])
        )
        self.dms += 1

    async def _dm_text(
        self, row: GameRow, player: str, why: str, notice: Notice, link: str, last: bool, _: Words
    ) -> str:
        title = title_of(row.game, _)
        if why == "deadline":
            when = f"<t:{int(notice.payload.get('ends') or row.deadline_at or time.time())}:R>"
            # i18n: a DM: the player's deadline is near; {when} is a Discord timestamp ("in 2 hours"), {link} the post
            lines = [
                _(
                    "⏳ Your deadline in {title} (game #{id}) is {when}: {link}",
                    title=title,
                    id=row.id,
                    when=when,
                    link=link,
                )
            ]
        else:
            # i18n: a DM when the player's turn begins; {link} is a link to the game's post
            lines = [_("🎲 Your turn in {title} (game #{id}): {link}", title=title, id=row.id, link=link)]
            lines += await self._since(row, player, row.version + 1, _)
        if last:
            # i18n: the last line of the last DM the budget allows in an hour; {n} is that budget
            lines.append(
                _(
                    "🔕 That is {n} DM this hour: the next ones wait. `/game mine` lists every game waiting for you.",
                    "🔕 That is {n} DMs this hour: the next ones wait. `/game mine` lists every game waiting for you.",
                    n=DM_BUDGET,
                )
            )
        return "\n".join(lines)

    def _reminder(self, row: GameRow, notice: Notice, _: Words = ENGLISH) -> str | None:
        """The reminder's text, for the humans still to move (None if there is nobody to remind any more)."""
        if row.status != "active":
            return None
        side = set(self.session.out_of_turn(row))
        movers = [p for p in self.session.to_move(row) if p not in side and not is_ai(p)]
        if not movers:
            return None
        return _reminder_text(row, movers, row.turn_started_at or row.updated_at, notice.payload["at"], _)

    async def _board(self, row: GameRow, notice: Notice, lang: str) -> bytes | None:
        """The public board of the position `notice` announces; none for a notice of a history an undo has taken
        back since (its position is gone: a post without a board rather than with another position's)."""
        if notice.payload.get("undos", undos_of(row)) != undos_of(row):
            return None
        return await self.images.public(row, notice.version, lang=lang)

    async def _compact(
        self,
        row: GameRow,
        group: list[Notice],
        content: str,
        image: bytes | None,
        view: discord.ui.View | None,
        extra: list[tuple[bytes, str]],
        _: Words,
    ) -> discord.Message | discord.PartialMessage | None:
        """A compact table's post of a start, a move or an undo (cogs/_compact.py): the living board edited to
        it, then only what must notify somebody: the results, the undo's words, or the turn line if it pings."""
        last = group[-1]
        board_view = _table.table_view(self.session, row, _) if last.kind == "undo" else view
        text = await _compact.board_text(self.session, row, group, content, _)
        board = await _compact.show(self.client, self.session, row, last, text, image, board_view)
        if self.fault is not None:
            await self.fault("edited")  # the board shows it, the notice is still there: all of it may come again
        if last.kind == "undo" or last.payload.get("finished"):
            return await _table.post_public(self.client, row, content, None, view, nonce=nonce_of(last), extra=extra)
        line = _compact.turn_line(row, content, board, _) if board is not None else None
        if line is not None:
            return await _compact.post_turn(self.client, row, line, nonce_of(last), _)
        if board is None:
            return None
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id).get_partial_message(board)

    async def deliver(self, game_id: int, *, force: bool = False, row: GameRow | None = None) -> None:
        """Post game `game_id`'s pending notices, in order. `row`: the game as the change that owes them committed
        it (a listener's), used instead of loading it again while it is still the game's latest (below)."""
        if self.closed:
            return
        # one delivery of a game at a time: the lock stays while any delivery holds it or waits for it (a waiter
        # does not make a lock `locked()`: dropping it then would let a second delivery run beside the first)
        lock, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                await self._deliver(game_id, force, row)
        except Exception:
            log.exception("posting the notices of game %s failed; they stay in the outbox for the next pass", game_id)
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    async def _deliver(self, game_id: int, force: bool, row: GameRow | None = None) -> None:
        storage = self.session.storage
        if storage.shared and not await storage.lease(game_id, self.owner, LEASE_SECONDS):
            return  # another process (a redeploy's overlap) is posting this game's notices right now
        try:
            await self._post_all(game_id, force, row)
        finally:
            if storage.shared:
                await storage.release(game_id, self.owner)

    async def _post_all(self, game_id: int, force: bool, row: GameRow | None = None) -> None:
        notices = await self.session.storage.pending_notices(game_id)
        if not notices:
            return
        # The committed row of the move that owes these notices is the game now if every pending notice is of
        # that very version (a move's notice is written in its own transaction): a later move, an undo or a
        # reminder would have left one of another version, and then the game is loaded again.
        if row is None or any(n.version != row.version for n in notices):
            row = await self.session.load(game_id)
        _ = await self.session.languages.public(row.guild_id)  # the server's language
        # players in their quiet hours are named, never pinged; the deadline shown waits over their nights
        players = await self.session.storage.players([s.id for s in row.seats if not is_ai(s.id)])
        now = time.time()
        asleep = [p for p, me in players.items() if quiet_until(me, now) is not None]
        ends = self.session.deadline_end(row, self.session.state_of(row), players) if row.status == "active" else None
        for group in groups_of(notices, force=force):
            last = group[-1]
            view: discord.ui.View | None = _table.table_view(self.session, row, _)
            extra: list[tuple[bytes, str]] = []
            if last.kind == "reminder":
                content, image = self._reminder(row, last, _), None
                if content is None:  # the player moved meanwhile, or only AI seats are to move
                    await self.session.storage.clear_notices([last.id])
                    continue
            elif last.kind in _moving.KINDS:  # deadlines, stand-ins, undo: the table's own lines
                content, view = _moving.notice_content(row, last, _)
                image = await self._board(row, last, _.lang) if last.kind in ("undo", "seat_taken") else None
                if last.kind == "seat_taken":  # the newcomer's own view is one click away: My hand
                    view = _table.table_view(self.session, row, _)
            else:
                quiet_posts = _compact.compact(row)  # its board shows the moves before: no digest
                digest = await self._digest(row, group, _) if group[0].kind == "move" and not quiet_posts else []
                content = notice_content(row, group, digest, _, ends)
                if last.kind == "move" and last.payload["finished"]:  # the results: with everyone's turn times
                    times = _moving.turn_time_line(row, await self.session.storage.moves(row.id), _)
                    content = clip(f"{content}\n{times}" if times else content)
                    # the rating changes and the score chart (cogs/_records.py), stored with the final move
                    ratings = await _records.results_line(self.session.storage, row, _)
                    content = clip(f"{content}\n{ratings}" if ratings else content)
                    chart = await _records.results_chart(self.client, row, _)
                    extra = [(chart, "scores.png")] if chart else []
                image = await self._board(row, last, _.lang)
            if content is not None:
                content = unpinged(row, content, asleep, _)
            if self.fault is not None:
                await self.fault("rendered")
            posted: discord.Message | discord.PartialMessage | None = None
            try:
                if _compact.compact(row) and last.kind in ("start", "move", "undo") and content is not None:
                    posted = await self._compact(row, group, content, image, view, extra, _)
                else:
                    posted = await _table.post_public(
                        self.client, row, content, image, view, nonce=nonce_of(last), extra=extra
                    )
            except (discord.NotFound, discord.Forbidden):
                # the channel is gone or closed to the bot: nobody can be told, and retrying would never end
                log.warning(
                    "could not post in channel %s for game %s; dropping %d notice(s)",
                    row.channel_id,
                    row.id,
                    len(group),
                    exc_info=True,
                )
            except discord.HTTPException:  # Discord is having trouble: keep the order, try again on the next pass
                log.warning(
                    "posting in channel %s for game %s failed; will retry", row.channel_id, row.id, exc_info=True
                )
                return
            if self.fault is not None:
                await self.fault("posted")
            if posted is not None:  # the DM notices this post owes, after it (their link is to it)
                await self._dms(row, group, posted, _)
            await self.session.storage.clear_notices(
                [n.id for n in group], post=(row.id, posted.id) if posted is not None else None
            )
            self.delivered += 1
