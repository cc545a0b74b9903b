"""Words for Discord: escaping, names and mentions, lengths within Discord's limits, durations.

Functions that put words together take the reader's language as `_` (an `i18n.Words`; English by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

import engine
import present
from cogs._seating import is_ai, seat_name
from cogs._tempo import clock_start
from engine import Text
from i18n import ENGLISH, Words
from render.charts import duration as duration  # the one way a time is shown (the cogs import it from here)
from storage import GameRow, Notice, Seat

CONTENT_LIMIT = 2000  # characters in a message
PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def esc(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def seated(row: GameRow, player: str, _: Words = ENGLISH) -> str:
    """A seat's name as the reader reads it (an AI seat the bot named: in their language), not escaped."""
    return seat_name(player, row.seat_name(player), _)


def name_of(row: GameRow, player: str, _: Words = ENGLISH) -> str:
    return f"**{esc(seated(row, player, _))}**"


def ping(row: GameRow, player: str, _: Words = ENGLISH) -> str:
    """A mention for a Discord user; AI seats are named, not pinged."""
    return f"<@{player}>" if player.isdigit() else name_of(row, player, _)


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 2].rstrip() + " …"


def fit(text: str, limit: int = 100) -> str:
    """`text` within a Discord label limit, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def option_texts(text: str) -> tuple[str, str | None]:
    """A select option's label (<= 100) and, when the text is longer, the rest as its description (<= 100)."""
    if len(text) <= 100:
        return text, None
    cut = text.rfind(" ", 0, 99)
    cut = cut if cut > 60 else 99
    return text[:cut].rstrip() + "…", fit("…" + text[cut:].strip(), 100)


def plural(n: int, word: str) -> str:
    """ "1 more player", "2 more players" (English only: in a translated text, a plural template instead)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chunks(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut between lines where possible (long rules summaries
    go out as several messages instead of being cut off)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single line longer than a message: cut it where it must be cut
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return out


def title_of(game: str, _: Words = ENGLISH) -> str:
    """A game's title in the reader's language (the edition's own title where it has one)."""
    return _.text(present.title(game))


def options_text(row: GameRow, _: Words = ENGLISH) -> str:
    rules = engine.get_rules(row.game)
    parts = []
    for name, opt in rules.options.items():
        value = row.options.get(name, opt.default)
        # i18n: an on/off option's value in the lobby's options line
        shown = (_("yes") if value else _("no")) if not opt.choices else str(value)
        parts.append(f"{present.for_game(row.game).option_label(name, _)} = {shown}")  # in the reader's words
    # i18n: the lobby's options line when the game has no options
    return " · ".join(parts) if parts else _("none")


def created_text(game: str, thread: int | None, _: Words = ENGLISH) -> str:
    """The reply to /game create: where the lobby is (`thread`: the new thread's id)."""
    if thread:
        return _(
            "Your game of {title} is set up: the lobby post is in {channel}. Press **Start** there once everyone "
            "has joined.",
            title=title_of(game, _),
            channel=f"<#{thread}>",
        )
    return _(
        "Your game of {title} is set up: the lobby post is below. Press **Start** there once everyone has joined.",
        title=title_of(game, _),
    )


# --------------------------------------------------------------------------------------------- the table in words


def turn_line(
    row: GameRow,
    movers: Sequence[str],
    before: Sequence[str] = (),
    actor: str | None = None,
    quiet: Sequence[str] = (),
    *,
    _: Words = ENGLISH,
) -> str:
    """Who moves now. Players only get a mention when the move passes to them: someone who simply carries on
    (an exact purchase, tiles to place: the `actor`) is named without a ping, and so is anyone who could already
    move before this action (they were pinged then), and anyone `quiet` (away, or the AI plays for them)."""
    if not movers:
        return ""
    if all(p in before for p in movers):
        if len(movers) == 1 and actor in (None, movers[0]):
            # i18n: the last line of a move post: the same player carries on (named, not pinged)
            return _("{who} continues.", who=name_of(row, movers[0], _))
        return still_to_move(row, movers, _)
    shown = [name_of(row, p, _) if p in before or p in quiet else ping(row, p, _) for p in movers]
    if len(movers) == 1:
        if is_ai(movers[0]) or movers[0] in row.table.get("sub", {}):  # the AI plays at once, unpinged
            # i18n: the last line of a move post: an AI player (or the AI for someone) moves next
            return _("{who} moves next.", who=shown[0])
        # i18n: the last line of a move post, pinging the player whose turn begins
        return _("Your turn, {who}.", who=shown[0])
    # i18n: the last line of a move post: several players are to move (some pinged)
    return _("To move: {who}.", who=", ".join(shown))


def still_to_move(row: GameRow, movers: Sequence[str], _: Words = ENGLISH) -> str:
    """Who we still wait for, named without pings."""
    # i18n: the last line of a move post: whom we still wait for (named, not pinged again)
    return _("Still to move: {who}.", who=", ".join(name_of(row, p, _) for p in movers))


def deadline_line(row: GameRow, movers: Sequence[str], _: Words = ENGLISH, ends: float | None = None) -> str:
    """The deadline of the player to move, as a Discord timestamp (each reader sees it in their own time); `ends`:
    when it ends where quiet hours move it (Tempo.deadline_end)."""
    hours = row.table.get("deadline")
    start = clock_start(row)
    if not hours or not movers or start is None or row.table.get("phase") in ("decide", "away"):
        return ""
    # i18n: {when} is a Discord timestamp shown relative to now ("in 3 hours")
    return _("⏳ Deadline {when}.", when=f"<t:{int(ends or start + hours * 3600)}:R>")


def out_of_turn_line(row: GameRow, side: Sequence[str], movers: Sequence[str], _: Words = ENGLISH) -> str:
    """Who may act out of turn now, in one line, named without pings (the window opens after every turn)."""
    if not side:
        return ""
    who = ", ".join(name_of(row, p, _) for p in side)
    main = [p for p in movers if p not in side]
    first = name_of(row, main[0], _) if main else None
    return present.for_game(row.game).out_of_turn_line(who, n=len(side), _=_, main=first)


def results_text(row: GameRow, scores: dict[str, int], winners: Sequence[str], _: Words = ENGLISH) -> str:
    ranked = sorted(row.player_ids, key=lambda p: -scores.get(p, 0))
    best = scores.get(winners[0], 0) if winners else 0
    if len(winners) == 1:
        # i18n: the results: the winner and their score
        head = _(
            "🏆 {who} wins with {n} point!", "🏆 {who} wins with {n} points!", who=name_of(row, winners[0], _), n=best
        )
    else:
        # i18n: the results: several players share the victory with the same score
        head = _(
            "🏆 Shared victory: {who} with {score}!", who=", ".join(name_of(row, w, _) for w in winners), score=best
        )
    time = duration(row.updated_at - row.created_at, _)
    # i18n: the first line of the results: how many moves the game took, and how long
    over = _(
        "🏁 **Game over** ({n} move in {time}).", "🏁 **Game over** ({n} moves in {time}).", n=row.version, time=time
    )
    return f"{over}\n{head}\n{scores_line(row, scores, ranked, _)}"


def scores_line(row: GameRow, scores: dict[str, int], order: Sequence[str], _: Words = ENGLISH) -> str:
    table = " · ".join(f"{name_of(row, p, _)} {scores.get(p, 0)}" for p in order)
    # i18n: the scores line: each player's name and score
    return _("**Scores:** {scores}", scores=table)


def start_content(row: GameRow, movers: Sequence[str], _: Words = ENGLISH, ends: float | None = None) -> str:
    order = " → ".join(name_of(row, p, _) for p in row.player_ids)
    # i18n: the first post of a game: its title and the seat order
    begins = _("🎲 **{title}** begins! Seat order: {order}", title=title_of(row.game, _), order=order)
    lines = [begins, deadline_line(row, movers, _, ends), turn_line(row, movers, _=_)]
    return clip("\n".join(x for x in lines if x))


def actor(row: GameRow, player: str, standin: bool, _: Words = ENGLISH) -> str:
    """Who made a move: the player, or "AI for Ana" when the AI played it for them."""
    # i18n: the AI made a move for a late or away player, named so
    return _("**AI for {name}**", name=esc(seated(row, player, _))) if standin else name_of(row, player, _)


def move_content(
    row: GameRow,
    moves: Sequence[dict[str, Any]],
    digest: Sequence[str] = (),
    _: Words = ENGLISH,
    ends: float | None = None,
) -> str:
    """The post for one or more moves of one player (an AI seat's whole turn), from their notices' payloads:
    what happened, the public events it caused, and who moves now (or the results), after `digest` (what the
    others did since the pinged player's last turn). The moves and the last line always fit; events that would
    pass Discord's 2000 characters are summed up as "…and N more"."""
    rules = engine_rules(row.game)
    last = moves[-1]
    groups: list[tuple[str, list[str]]] = []  # (the move, the public events it caused)
    for m in moves:
        described = rules.describe(rules.action_from_json(m["action"]))
        english = str(described)
        action = _.text(described)
        events = []
        told = False  # the move told once: by its own words, or by an event that says it and more
        for player, data in m["events"]:
            event = Text.from_json(data)  # a Text (older notices: its English words)
            said = str(event).rstrip(". ")
            if player == m["player"] and said and english.startswith(said):
                continue  # the engine's log echoing the move itself
            head = english.rstrip(". ")
            if (
                player == m["player"]
                and not told
                and said.startswith(head)
                and said[len(head) : len(head) + 1] in " (:;,"
            ):
                action, told = _.text(event).rstrip("."), True  # "takes the hut (V22); the next turns up"
                continue
            # i18n: a public event of a move: who and what happened ("**Ana** scores 7 points.")
            line = _("{who} {event}", who=name_of(row, player, _), event=_.text(event)) if player else _.text(event)
            events.append(clip(line, 400))
        who = actor(row, m["player"], m.get("standin", False), _)
        # i18n: a move in a public post: who and what they did ("**Ana** takes 3 cards.")
        groups.append((clip(_("{who} {action}.", who=who, action=action), 300), events))
    if last["finished"]:
        tail = results_text(row, last["scores"], last["winners"], _)
    else:
        before = list(moves[0]["before"])
        if last["player"] not in before:  # an out-of-turn buyer placing their tile is named, not pinged
            before.append(last["player"])
        before = [p for p in before if p not in last.get("fresh", ())]  # their own turn begins after the AI's
        main = [p for p in last["to_move"] if p not in last["side"]]
        tail = turn_line(row, main, before, last["player"], last.get("quiet", ()), _=_)
        if last["free"]:  # a free action changes nobody's turn: name who we wait for, ping nobody
            tail = still_to_move(row, main, _) if main else ""
        lines = [*digest, out_of_turn_line(row, last["side"], last["to_move"], _), deadline_line(row, main, _, ends)]
        tail = "\n".join([*(x for x in lines if x), tail])  # the turn line stays the post's last line
    return _fit_groups(groups, tail, _)


def _fit_groups(groups: list[tuple[str, list[str]]], tail: str, _: Words = ENGLISH) -> str:
    room = CONTENT_LIMIT - len(tail) - 120
    skipped = 0
    while len(groups) > 1 and sum(len(head) + 1 for head, __ in groups) > room:
        groups.pop(0)  # only with many long moves in one post: the earliest are left to the log
        skipped += 1
    budget = room - sum(len(head) + 1 for head, __ in groups)
    # i18n: a post with too many moves to show: the earliest are left out
    earlier = _("*…{n} earlier move: see `/game log`.*", "*…{n} earlier moves: see `/game log`.*", n=skipped)
    kept = [earlier] if skipped else []
    dropped = 0
    for head, events in groups:
        kept.append(head)
        for line in events:
            if not dropped and len(line) + 1 <= budget:
                kept.append(line)
                budget -= len(line) + 1
            else:
                dropped += 1
    if dropped:
        more = _(
            "*…and {n} more (see `/game log` and the board).*",
            "*…and {n} more (see `/game log` and the board).*",
            n=dropped,
        )
        kept.append(more)
    return clip("\n".join([*kept, tail]))


def notice_content(
    row: GameRow, notices: Sequence[Notice], digest: Sequence[str] = (), _: Words = ENGLISH, ends: float | None = None
) -> str:
    if notices[0].kind == "start":
        return start_content(row, notices[0].payload["movers"], _, ends)
    return move_content(row, [n.payload for n in notices], digest, _, ends)


def engine_rules(game: str) -> Any:
    return engine.get_rules(game)
