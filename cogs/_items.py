"""Persistent components: the custom_id grammar, parsed and bounded in one place, and how clicks are answered.

Every button and select the bot posts is a `discord.ui.DynamicItem` of one family; the family's template says
what its custom_id holds, so posts from before a restart keep working and nothing is kept in memory per message:

    g:<game>:<op>                   TableButton (here): play|hand|free|board|rules|rematch|back|seat|review, the table
    g:<game>:<op>                   LobbyButton (here): join|leave|ai|start|cancel, the lobby post
    g:<game>:p:<pos>:<op>:<arg>     PanelButton (cogs._panel): the move panel's steps (h, k), Confirm (c), Hint (i)
    s:<game>:<pos>:<op>:<arg>       PanelSelect (cogs._panel): the move panel's menus (g, a)
    s:<game>:ai:<op>                AISelect (cogs._lobby): the creator's AI panel (add, rm)
    f:<game>:<pos>:s:               FreeSelect (cogs._free): the free-actions panel's menu
    f:<game>:<pos>:c:<arg>          FreeButton (cogs._free): its Confirm
    d:<game>:<turns>:<op>           DecisionButton (cogs._moving): a passed deadline (turn, back, wait)
    u:<game>:<keep>:<op>            UndoButton (cogs._moving): the table's consent to an undo (yes, no)
    ts:<game>:<n>:<op>              SeatButton (cogs._moving): the table's consent to a substitute (yes, no)
    lfg:<match>:<op>                MatchButton (cogs.lfg): Accept or Decline a looking-for-game match
    lv:<game>:<op>                  LeaveButton (cogs._leaving): leaving a running game (go, stay)
    r:<game>:open                   ReplayOpen (cogs.replays): the replay viewer under the final post
    r:<game>:<n>:<op>               ReplayStep (cogs.replays): its steps (first, prev, next, last, gif)
    lb:<type>:<page>:<op>           LeaderboardButton (cogs.records): the leaderboard's pages (p, n)
    t:<tournament>:<op>             TournamentButton (cogs.tournaments): a tournament's sign-up (join, leave, start)

<pos> is `Session.position` (turn actions so far + a fingerprint of the listed actions). A custom_id is user
input: numbers are bounded here, indices are checked against the current lists by the handlers, panel items act
only on the clicking user's own ephemeral panel, and a click that names no live thing (a forged or very old id,
another channel's game, an op unknown to this version) is answered with a short note and the current board,
never a traceback (`OutOfDate`, and the `unrouted` check for ids no family matches). Refusals are answered in the
clicking user's language (`said`).

The registry: every family registers itself in `FAMILIES` when its class is made (the bot adds them all); the two
families of plain buttons, `TableButton` and `LobbyButton`, name their ops here (the grammar) and the feature that
answers an op registers its handler (`@TableButton.on("play")` in cogs._panel), so this module imports no feature
and no feature imports another to route a click. How a kind of refusal is answered is registered the same way
(`answers`: cogs._table shows the current board under an out-of-date note).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import discord

from cogs._images import Images
from cogs._locale import user_words
from cogs._seating import GameError
from cogs._session import Closing, Session
from cogs._text import clip, fit
from engine import IllegalAction, Text
from i18n import N_, Words
from storage import GameRow

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # game ids are SQL integers
GID = r"(?P<gid>[0-9]{1,20})"
POS = r"(?P<pos>[0-9a-z.]{1,30})"
ARG = r"(?P<arg>[0-9.]{0,40})"
APOLOGY = N_("Sorry, something went wrong on my side. Please try again in a moment.")  # shown with `_.text`
OUT_OF_DATE = N_("This button is out of date: nothing was changed.")
GONE = Text("That choice is not available any more: nothing was changed.")

FAMILIES: list[type[discord.ui.DynamicItem[Any]]] = []  # every family, registered with the bot once (cogs.games)
NEVER = r"(?!)"  # the template of a base class of families, which matches no custom_id


def register(family: type[discord.ui.DynamicItem[Any]]) -> None:
    """Add a custom_id family to `FAMILIES`, once: an extension module loaded again (discord.py runs it afresh)
    replaces its own."""
    FAMILIES[:] = [f for f in FAMILIES if _name(f) != _name(family)] + [family]


def _name(thing: Any) -> tuple[str, str]:
    """Where a class or function was defined (a module run again defines it again, as another object)."""
    return thing.__module__, thing.__qualname__


class OutOfDate(GameError):
    """The click names nothing live (a forged or outdated custom_id): answered politely with the board."""

    def __init__(self, message: Text | str = OUT_OF_DATE):
        super().__init__(message)


class TableBot(Protocol):
    """What the items use of the bot (`bot.GameBot`, which imports the cogs: typed here without importing it)."""

    session: Session
    images: Images

    def get_cog(self, name: str, /) -> Any: ...


def table_bot(client: discord.Client) -> TableBot:
    """The bot that loaded the cogs (a `bot.GameBot`, or the tests' copy of it) as what the items use of it: a
    typed view of the same object, not a check."""
    return cast(TableBot, client)


def bot_of(interaction: discord.Interaction) -> TableBot:
    return table_bot(interaction.client)


def session_of(interaction: discord.Interaction) -> Session:
    return bot_of(interaction).session


class GameItem:
    """What every family shares: the game id bounded, private items kept to their owner's ephemeral panel,
    no clicks while the bot shuts down, errors answered in one place. A family subclasses this together with
    `discord.ui.DynamicItem[...]` (with its `template=`) and implements `handle`."""

    gid: int
    private: ClassVar[bool] = False  # lives on the clicking user's own ephemeral panel only
    numbers: ClassVar[frozenset[str]] = frozenset({"gid"})  # the template's groups that are numbers

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # the family's DynamicItem: GameItem comes first in its bases

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The item a click names, made again from its custom_id: the template's groups, in their order, are the
        first arguments of the family's constructor (those in `numbers` as ints)."""
        return cls(*(int(v) if k in cls.numbers else v for k, v in match.groupdict().items()))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kwargs.get("template", NEVER) != NEVER and issubclass(cls, discord.ui.DynamicItem):
            register(cls)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        try:
            if not 0 < self.gid <= MAX_ID:
                raise OutOfDate()
            if self.private and not (interaction.message is not None and interaction.message.flags.ephemeral):
                raise OutOfDate(Text("That button belongs to a player's own panel: nothing was changed."))
            if session_of(interaction).closing:
                raise Closing(Text("The bot is restarting: nothing was changed. Try again in a minute."))
        except GameError as exc:
            await answer_error(interaction, exc)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.handle(interaction))

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


Action = Callable[[discord.Interaction, GameRow], Awaitable[None]]
A = TypeVar("A", bound=Action)


class OpButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEVER):
    """A family of plain buttons `<prefix>:<game>:<op>`: the template names the ops (so old posts keep parsing);
    the feature that answers an op registers its handler with `on`, and a click runs it with the game."""

    prefix: ClassVar[str]
    actions: ClassVar[dict[str, Action]]

    def __init__(
        self,
        gid: int,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ):
        super().__init__(make_button(f"{self.prefix}:{gid}:{op}", label or op, style, row=row))
        self.gid, self.op = gid, op

    @classmethod
    def on(cls, *ops: str) -> Callable[[A], A]:
        """Register the handler of `ops` (one each; an op the template does not name is a mistake)."""

        def register(action: A) -> A:
            for op in ops:
                known = cls.actions.get(op)
                if not cls.__discord_ui_compiled_template__.fullmatch(f"{cls.prefix}:1:{op}") or (
                    known is not None and _name(known) != _name(action)  # the same handler made again: a reload
                ):
                    raise ValueError(f"{cls.__name__}: op {op!r} is not in the template, or has another handler")
                cls.actions[op] = action
            return action

        return register

    async def handle(self, interaction: discord.Interaction) -> None:
        action = self.actions.get(self.op)
        if action is None:  # a feature that is not loaded
            raise OutOfDate()
        await action(interaction, await game_here(interaction, self.gid))


class TableButton(OpButton, template=rf"g:{GID}:(?P<op>play|hand|free|board|rules|rematch|back|seat|review)"):
    """The buttons under every move post (and the final post): Play my turn (cogs._panel), My hand, Board and
    Rules (cogs._table), Free actions (cogs._free), I'm back and Take this seat (cogs._moving), Rematch
    (cogs._lobby), Review (cogs._coach)."""

    prefix = "g"
    actions: ClassVar[dict[str, Action]] = {}


class LobbyButton(OpButton, template=rf"g:{GID}:(?P<op>join|leave|ai|start|cancel)"):
    """The lobby post's own buttons (cogs._lobby; its Rules button is the table's)."""

    prefix = "g"
    actions: ClassVar[dict[str, Action]] = {}


async def game_here(interaction: discord.Interaction, gid: int) -> GameRow:
    """The game a custom_id names, if it is this channel's: OutOfDate for another channel's or a missing game."""
    row = await session_of(interaction).storage.load_game(gid)
    if row is None or row.channel_id != interaction.channel_id:
        raise OutOfDate()
    return row


def index_of(values: Sequence[str], size: int) -> int:
    """The chosen option of a select as an index into a list of `size`: OutOfDate if it is not one."""
    value = values[0] if values else ""
    if not value.isdigit() or int(value) >= size:
        raise OutOfDate(GONE)
    return int(value)


def unrouted(interaction: discord.Interaction) -> bool:
    """True for a component click that no family will answer: its custom_id matches no template, or names a
    component the message does not have (discord.py then drops it silently)."""
    if interaction.type is not discord.InteractionType.component or not isinstance(interaction.data, dict):
        return False
    custom_id = str(interaction.data.get("custom_id", ""))
    if not any(f.__discord_ui_compiled_template__.fullmatch(custom_id) for f in FAMILIES):
        return True
    message = interaction.message
    if message is None:
        return True
    return not any(getattr(c, "custom_id", None) == custom_id for c in _walk(message.components))


def _walk(components: Sequence[Any]) -> list[Any]:
    out = []
    for c in components:
        out.append(c)
        out += _walk(getattr(c, "children", []) or [])
    return out


# --------------------------------------------------------------------------------------------- building


def new_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def check_id(custom_id: str) -> str:
    if len(custom_id) > 100:
        raise ValueError(f"custom_id over Discord's 100 characters: {custom_id!r}")
    return custom_id


def make_button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    row: int | None = None,
    disabled: bool = False,
    emoji: str | None = None,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=fit(label, 80), style=style, custom_id=check_id(custom_id), row=row, disabled=disabled, emoji=emoji
    )


def make_select(
    custom_id: str, options: Sequence[discord.SelectOption], placeholder: str, *, row: int
) -> discord.ui.Select[Any]:
    if not 1 <= len(options) <= 25:
        raise ValueError(f"a select holds 1 to 25 options, not {len(options)}")
    return discord.ui.Select(
        custom_id=check_id(custom_id), options=list(options), placeholder=fit(placeholder, 150), row=row
    )


# --------------------------------------------------------------------------------------------- answering


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """An ephemeral reply whether or not the interaction was already answered. After a "thinking…" deferral the
    reply replaces that placeholder (a follow-up would leave it spinning forever)."""
    content = clip(content)
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=True, **kwargs)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=content, **kwargs)
    else:
        await interaction.followup.send(content, ephemeral=True, **kwargs)


async def guarded(interaction: discord.Interaction, handler: Callable[[], Awaitable[None]]) -> None:
    """Run a component or command handler: refusals become the user's ephemeral message, surprises are logged
    with their traceback and answered with a short apology; the game state is never left half-changed (every
    change is one transaction in the session)."""
    try:
        await handler()
    except (GameError, IllegalAction) as exc:
        await answer_error(interaction, exc)
    except Exception:
        custom_id = interaction.data.get("custom_id") if isinstance(interaction.data, dict) else None
        log.exception(
            "interaction failed (user=%s, channel=%s, custom_id=%s)",
            interaction.user.id,
            interaction.channel_id,
            custom_id,
        )
        await _safe(reply(interaction, user_words(interaction).text(APOLOGY)))


def said(exc: BaseException, _: Words) -> str:
    """A refusal in `_`'s language: a GameError's or an engine's (IllegalAction) words, else its English."""
    text = getattr(exc, "text", None)
    return _.text(text) if text else str(exc)


Answer = Callable[[discord.Interaction, str], Awaitable[None]]
answers: dict[type[Exception], Answer] = {}  # how a kind of refusal is answered, registered by the feature


async def answer_error(interaction: discord.Interaction, exc: Exception) -> None:
    """A refusal, in the clicking user's language (an engine's keeps its rule id: "A31: …"): by the answer
    registered for its kind (`answers`), else as an ephemeral reply."""
    words = said(exc, user_words(interaction))
    answer = next((answers[kind] for kind in type(exc).__mro__ if kind in answers), reply)
    await _safe(answer(interaction, words))


async def _safe(coro: Awaitable[None]) -> None:
    try:
        await coro
    except discord.HTTPException:
        log.warning("could not send an error reply", exc_info=True)
