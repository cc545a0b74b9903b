"""The coach: a hint for the player to move, and the review of a finished game, both the hard AI's opinion
(ai/coach.py), thought in the AI's worker processes (cogs/ai_seats.py `AISeatsCog.run`), never on the event loop.

- **A hint** (`/game hint`, the panel's *Hint* button; cogs/_panel.py draws it): only where the table allows it
  (`hints`, the creator's choice at `/game create` or `/game settings`; off by default), only to the asker
  (ephemeral), only from the asker's own view. The search runs `hint_iterations` iterations with the seed an AI
  seat would use at that position (the game's seed plus the moves so far), so it is exactly the move a hard AI
  seat plays at that budget. Kept per (game, position, seat): asking twice costs one search.
- **A review** (*Review* under the results post, `/game review [game]`): every move of a finished game judged from
  its mover's view at that moment, in chunks of at most ~0.2 s of a worker's CPU (the AI seats' decisions go in
  between), stored as it goes (storage `reviews`), so a restart resumes it; computed once per game, when someone
  first asks. Shown to the players of that server only, in the reader's language: per player the accuracy, the
  three costliest moves (a button each opens the replay viewer just before it) and the win-chance chart. Another
  player's preferred move is shown by its kind only while they held something hidden (a hand of cards), so a
  review never tells what was in a hand.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import io
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import discord

import engine
import present
from ai import coach
from cogs import _records
from cogs._items import TableBot, TableButton, bot_of, new_view, reply, session_of
from cogs._locale import user_words
from cogs._seating import GameError, Position, position
from cogs._text import chunks, clip, esc, fit, title_of
from cogs.replays import ReplayStep, replayable
from engine import IllegalAction, Text
from i18n import Words
from render.charts import chance_chart
from storage import GameRow, MoveRow, Review

log = logging.getLogger(__name__)
T = TypeVar("T")

HINTS_KEPT = 256  # hints kept by (game, position, seat)
HINTS_AT_ONCE = 4  # hints being thought at once (more: "the coach is busy")
SAVE_EVERY = 2.0  # seconds between two stores of a review's progress
WAIT = 2.5  # seconds a Review click waits for a review under way before it answers with the progress
COSTLY = 3  # the costliest moves a review lists per player
MOVE_WORDS = 160  # characters of a move's words in a review or hint (a placement's words can run long)


class Thinker(Protocol):
    """What the coach needs of the AI seats' cog: a job run in the AI's worker processes."""

    async def run(self, fn: Callable[..., T], *args: Any, what: str = ..., **kwargs: Any) -> T: ...


class Coach:
    """The bot's coach: hints kept by position, reviews under way (one task per game)."""

    def __init__(self, bot: TableBot, *, hint_iterations: int, review_iterations: int):
        self.bot = bot
        self.hint_iterations, self.review_iterations = hint_iterations, review_iterations
        self.step_seconds = coach.STEP_SECONDS
        self.wait = WAIT
        self.save_every = SAVE_EVERY
        # by the position itself (its game, undos and move number: an undo never lets a hint of another position
        # be served) and the seat
        self._hints: collections.OrderedDict[tuple[Position, str], list[coach.Option]] = collections.OrderedDict()
        self._asking: set[str] = set()
        self._reviews: dict[int, asyncio.Task[None]] = {}
        self.judged = 0  # moves judged by this process (tests, logs)
        self.closed = False

    def thinker(self) -> Thinker:
        cog: Thinker | None = self.bot.get_cog("AISeatsCog")  # the extension's cog (cogs/ai_seats.py)
        if cog is None:
            raise GameError(Text("The coach is not available right now. Try again in a minute."))
        return cog

    # -- hints -------------------------------------------------------------------------------------------

    def hint_seed(self, row: GameRow) -> int:
        """The seed an AI seat decides with at this position (cogs/ai_seats.py `play`)."""
        return row.seed + row.version

    async def hint(self, row: GameRow, seat: str, state: Any, *, optional: bool) -> list[coach.Option]:
        """The hard AI's options for `seat` at the game's position now, best first (kept; thought in a worker)."""
        key = (position(row), seat)
        kept = self._hints.get(key)
        if kept is not None:
            self._hints.move_to_end(key)
            return kept
        if seat in self._asking:
            raise GameError(Text("I'm still thinking about your last hint. One moment."))
        if len(self._asking) >= HINTS_AT_ONCE:
            raise GameError(Text("The coach is busy with other players' hints. Try again in a few seconds."))
        self._asking.add(seat)
        try:
            options = await self.thinker().run(
                coach.analyse,
                row.game,
                state,
                seat,
                self.hint_seed(row),
                self.hint_iterations,
                optional=optional,
                what=f"thinking of a hint in game {row.id}",
            )
        finally:
            self._asking.discard(seat)
        self._hints[key] = options
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        return options

    # -- reviews -----------------------------------------------------------------------------------------

    async def review(self, row: GameRow) -> Review:
        """The stored review of finished game `row` (begun now if nobody asked before); one under way is being
        computed by this process from here on."""
        storage = self.bot.session.storage
        found = await storage.review(row.id)
        if found is None:
            await storage.begin_review(row.id)
            found = await storage.review(row.id) or Review(row.id)
        if not found.done:
            self.start(row)
        return found

    def start(self, row: GameRow) -> asyncio.Task[None] | None:
        """Compute the review of `row` in the background (once: a review under way is not started twice)."""
        task = self._reviews.get(row.id)
        if task is None and not self.closed:
            task = self._reviews[row.id] = asyncio.create_task(self._review(row), name=f"review-{row.id}")
            task.add_done_callback(
                lambda t: self._reviews.pop(row.id, None) if self._reviews.get(row.id) is t else None
            )
        return task

    def running(self, game_id: int) -> asyncio.Task[None] | None:
        return self._reviews.get(game_id)

    async def _review(self, row: GameRow) -> None:
        storage = self.bot.session.storage
        try:
            found = await storage.review(row.id) or Review(row.id)
            moves = [(m.player, m.action) for m in await storage.moves(row.id)]
            entries = list(found.entries)
            state: dict[str, Any] | None = None  # the position after the last judged move, once a chunk gave it
            saved = time.monotonic()
            while len(entries) < len(moves):
                chunk, state = await self.thinker().run(
                    coach.review_chunk,
                    row.game,
                    dict(row.options),
                    row.seed,
                    list(row.player_ids),
                    moves,
                    len(entries),
                    self.review_iterations,
                    state,
                    self.step_seconds,
                    what=f"reviewing game {row.id}",
                )
                entries += chunk
                self.judged += len(chunk)
                if time.monotonic() - saved >= self.save_every and len(entries) < len(moves):
                    await storage.save_review(Review(row.id, "running", tuple(entries)))
                    saved = time.monotonic()
            await storage.save_review(Review(row.id, "done", tuple(entries)))
            log.info("reviewed game %s (%d moves)", row.id, len(entries))
        except asyncio.CancelledError:
            raise
        except Exception:  # left "running": the next start tries again
            log.exception("the review of game %s failed", row.id)

    async def resume(self, owns: Callable[[int | None], bool], *, batch: int = 100) -> int:
        """Start every review left under way (a restart), of the games whose server this process serves."""
        storage = self.bot.session.storage
        n, after = 0, 0
        while True:
            ids = await storage.reviews_running(after=after, limit=batch)
            for game_id in ids:
                row = await storage.load_game(game_id)
                if row is not None and row.status == "finished" and owns(row.guild_id):
                    self.start(row)
                    n += 1
            if len(ids) < batch:
                return n
            after = ids[-1]

    async def close(self) -> None:
        self.closed = True
        tasks = list(self._reviews.values())
        for t in tasks:
            t.cancel()  # its progress is stored; the next start goes on from there
        await asyncio.gather(*tasks, return_exceptions=True)


def coach_of(interaction: discord.Interaction) -> Coach:
    # the CoachCog loaded with the bot (cogs/coach.py), looked up by name like the replays' cog
    cog = bot_of(interaction).get_cog("CoachCog")
    if cog is None:
        raise GameError(Text("The coach is not available right now. Try again in a minute."))
    found: Coach = cog.coach
    return found


# --------------------------------------------------------------------------------------------- words


def percent(chance: float) -> int:
    return int(round(100 * chance))


def hint_text(row: GameRow, rules: Any, options: Sequence[coach.Option], iterations: int, _: Words) -> str:
    """The hint: the hard AI's move with its estimated chance, then the next two."""
    lines = [
        # i18n: the first line of a hint; {n} is the number of search iterations the AI used
        _(
            "🧭 **Hint** from the hard AI ({n} search iteration, from what you can see):",
            "🧭 **Hint** from the hard AI ({n} search iterations, from what you can see):",
            n=iterations,
        )
    ]
    for i, o in enumerate(options[:3]):
        what = move_words(rules, o.action, _)
        if i == 0:
            # i18n: a hint's best move: {action} what it does, {chance} its estimated chance to win in percent
            lines.append(_("**Best: {action}**, about {chance}% to win", action=what, chance=percent(o.chance)))
        else:
            # i18n: a hint's alternative move, with its estimated chance to win in percent
            lines.append(_("or: {action}, about {chance}%", action=what, chance=percent(o.chance)))
    return clip("\n".join(lines))


def move_words(rules: Any, action: Any, _: Words) -> str:
    if action is None:
        # i18n: a hint or review: the AI would let an out-of-turn chance pass
        return _("let the chance pass (do nothing now)")
    return esc(fit(_.text(rules.describe(action)), MOVE_WORDS))


def played_words(rules: Any, action_json: Any, _: Words) -> str:
    """A logged move, as the replay viewer shows it (a private choice stays private)."""
    try:
        action = rules.action_from_json(action_json)
    except IllegalAction:
        return _("(an unreadable move)")
    if rules.is_private(action):
        return _("changes a private setting")
    return esc(fit(_.text(rules.describe(action)), MOVE_WORDS))


def preferred_words(row: GameRow, rules: Any, entry: dict[str, Any], reader: str, _: Words) -> str:
    """What the AI preferred: in full to the mover, and to others unless the mover held something hidden then
    (a hand: a move not played could tell what is in it); then by its kind only."""
    if entry["best"] is None:
        return move_words(rules, None, _)
    try:
        action = rules.action_from_json(entry["best"])
    except IllegalAction:
        return _("(an unreadable move)")
    if entry["p"] == reader or not entry["secret"]:
        return move_words(rules, action, _)
    kind = present.for_game(row.game).kind_label(str(getattr(action, "kind", "")), _)
    # i18n: a review shows another player's preferred move by its kind only ({kind}: "Buy a building")
    return _("a move of the kind “{kind}” (its details were theirs alone to see)", kind=kind)


def review_text(row: GameRow, review: Review, moves: Sequence[MoveRow], reader: str, _: Words) -> str:
    """The review of a finished game for `reader`: per player the accuracy and the costliest moves (`moves`: the
    game's log, for what was played)."""
    rules = engine.get_rules(row.game)
    entries = {e["n"]: e for e in review.entries}
    summary = coach.summary(list(review.entries), row.player_ids, COSTLY)
    # i18n: the first line of a finished game's review
    lines = [
        _(
            "🧭 **Review** of {title} (game #{id}): every move judged by the hard AI from what its player could see.",
            title=title_of(row.game, _),
            id=row.id,
        )
    ]
    for p in row.player_ids:
        s = summary[p]
        name = f"**{esc(row.seat_name(p))}**"
        if s["accuracy"] is None:
            # i18n: a review: a player who had no move with a choice
            lines.append(_("{name}: no move with a choice to judge.", name=name))
            continue
        close = round(s["accuracy"] * s["moves"])
        # i18n: a review: {accuracy} percent of a player's {n} moves were within {close} points of the best
        lines.append(
            _(
                "{name}: accuracy {accuracy}% ({good} of {n} move within {close} points of the best)",
                "{name}: accuracy {accuracy}% ({good} of {n} moves within {close} points of the best)",
                n=s["moves"],
                name=name,
                accuracy=percent(s["accuracy"]),
                good=close,
                close=percent(coach.CLOSE),
            )
        )
        for n in s["costly"]:
            e = entries[n]
            # i18n: a review's costly move: {k} the move number, {played} what was played, {best} what the AI
            # preferred, {loss} the estimated loss in points of the chance to win
            lines.append(
                _(
                    "• move {k}: {played}; the AI preferred {best} (−{loss} points)",
                    k=n,
                    played=played_words(rules, moves[n - 1].action, _),
                    best=preferred_words(row, rules, e, reader, _),
                    loss=max(1, percent(e["loss"])),
                )
            )
    return "\n".join(lines)


def review_view(row: GameRow, review: Review, _: Words) -> discord.ui.View:
    """A button per costly move: the replay viewer at the position just before it."""
    summary = coach.summary(list(review.entries), row.player_ids, COSTLY)
    moves = sorted({n for s in summary.values() for n in s["costly"]})[:20]
    # i18n: a button under a review: the replay viewer just before this move
    return new_view(*(ReplayStep(row.id, n, "prev", label=_("Move {k}", k=n), row=i // 5) for i, n in enumerate(moves)))


async def chart(bot: TableBot, row: GameRow, review: Review, _: Words) -> bytes | None:
    """The win-chance chart of a review, drawn in the image workers, in the reader's language."""
    summary = coach.summary(list(review.entries), row.player_ids, COSTLY)
    chances = {p: s["chances"] for p, s in summary.items()}
    names = {s.id: s.name for s in row.seats}
    # i18n: the title of a review's win-chance chart
    title = _("{title} (game #{id}): chance to win over the game", title=_.text(present.title(row.game)), id=row.id)
    return await _records.draw(bot.images, row.id, functools.partial(chance_chart, title, chances, names, _.lang))


# --------------------------------------------------------------------------------------------- showing


@TableButton.on("review")
async def review_button(interaction: discord.Interaction, row: GameRow) -> None:
    """*Review* under the results post."""
    await show_review(interaction, await replayable(interaction, row.id))


async def open_review(interaction: discord.Interaction, gid: int | None) -> None:
    """`/game review [game]`: the review of game `gid` of this server (default: this channel's last game)."""
    _ = user_words(interaction)
    if gid is None:
        last = await session_of(interaction).storage.last_game_in_channel(interaction.channel_id or 0)
        if last is None or last.status != "finished":
            # i18n: /game review without a game, where this channel has no finished game
            raise GameError(_("This channel has no finished game. Name one: `/game review game:12` (its number)."))
        gid = last.id
    if not 0 < gid <= 2**63 - 1:
        raise GameError(_("There is no game #{id} in this server.", id=gid))
    await show_review(interaction, await replayable(interaction, gid))


async def show_review(interaction: discord.Interaction, row: GameRow) -> None:
    """The review for the user who asked (ephemeral): at once if it is stored, after a short wait if it is
    under way, else its progress."""
    _ = user_words(interaction)
    c = coach_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await c.review(row)
    task = c.running(row.id)
    if not found.done and task is not None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), c.wait)
        found = await session_of(interaction).storage.review(row.id) or found
    if not found.done:
        # i18n: a review still being computed: {done} of {total} moves judged so far
        text = _(
            "🧭 The review of game #{id} is being computed: {done} of {total} moves judged so far. It is done once "
            "for everyone; ask again in a minute (Review, or `/game review game:{id}`).",
            id=row.id,
            done=len(found.entries),
            total=row.version,
        )
        await reply(interaction, text)
        return
    png = await chart(bot_of(interaction), row, found, _)
    files = [discord.File(io.BytesIO(png), filename=f"review-{row.id}.png")] if png else []
    moves = await session_of(interaction).storage.moves(row.id)
    first, *more = chunks(review_text(row, found, moves, str(interaction.user.id), _))
    await interaction.edit_original_response(content=first, attachments=files, view=review_view(row, found, _))
    for part in more:  # a long review (six players, long moves) goes on in more private messages
        await interaction.followup.send(part, ephemeral=True)
