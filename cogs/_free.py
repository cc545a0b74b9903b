"""The free-actions panel: actions a seated player may take at any time, whoever is to move (the rules'
`free_actions`). Ephemeral; a choice is shown with Confirm, then played through
`Session.act` like any move (announced unless the rules call it private). In the clicking user's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

import present
from cogs._items import (
    ARG,
    GID,
    POS,
    GameItem,
    OutOfDate,
    TableButton,
    game_here,
    index_of,
    make_button,
    make_select,
    new_view,
    session_of,
)
from cogs._locale import user_words
from cogs._panel import done_line
from cogs._session import MoveResult, Session
from cogs._text import clip, esc, name_of, option_texts
from i18n import ENGLISH, Words
from storage import GameRow


class FreeSelect(GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"f:{GID}:{POS}:s:"):
    """The menu of free actions, drawn for the player's list at `pos`."""

    private = True

    def __init__(self, gid: int, pos: str, options: Sequence[discord.SelectOption] = (), placeholder: str = ""):
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(make_select(f"f:{gid}:{pos}:s:", options, placeholder or "-", row=0))
        self.gid, self.pos = gid, pos

    async def handle(self, interaction: discord.Interaction) -> None:
        await choose(interaction, self.gid, self.pos, list(self.item.values), confirm=False)


class FreeButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"f:{GID}:{POS}:c:{ARG}"):
    """Confirm a chosen free action (its index in the list at `pos`)."""

    private = True

    def __init__(self, gid: int, pos: str, arg: str, label: str = "Confirm"):  # the label: only when drawn
        super().__init__(make_button(f"f:{gid}:{pos}:c:{arg}", label, discord.ButtonStyle.success, row=0))
        self.gid, self.pos, self.arg = gid, pos, arg

    async def handle(self, interaction: discord.Interaction) -> None:
        await choose(interaction, self.gid, self.pos, [self.arg], confirm=True)


def free_panel(
    session: Session, row: GameRow, player: str, note: str | None = None, _: Words = ENGLISH
) -> dict[str, Any]:
    """The panel's content and menu for `player` now (any seated player, at any time), in `_`'s language."""
    state = session.check_seated(row, player)
    rules = session.rules(row.game)
    words = present.for_game(row.game)
    lines = [f"*{note}*"] if note else []
    lines += words.free_panel_lines(rules, state, player, _)
    actions = session.free_actions(row, player)
    if not actions:
        lines.append(_("Nothing to do here right now."))
        return {"content": clip("\n".join(lines)), "view": None}
    options = []
    for i, a in enumerate(actions[:25]):
        label, desc = option_texts(_.text(rules.describe(a)))
        options.append(discord.SelectOption(label=label, value=str(i), description=desc))
    lines.append(_("Choose:"))
    # valid while these are still the player's free actions (the fingerprint); the turn count makes each panel's
    # clicks its own, so an action listed again later (a card back in hand) is not taken for a retry
    pos = f"{row.turns}.{session.fingerprint(row.game, actions)}"
    view = new_view(FreeSelect(row.id, pos, options, _.text(words.free_actions_label)))
    return {"content": clip("\n".join(lines)), "view": view}


@TableButton.on("free")
async def open_free(interaction: discord.Interaction, row: GameRow) -> None:
    session = session_of(interaction)
    if not session.rules(row.game).has_free_actions(row.options):
        raise OutOfDate()  # only a forged id asks this of a game without free actions
    panel = free_panel(session, row, str(interaction.user.id), _=user_words(interaction))
    await interaction.response.send_message(
        panel["content"], ephemeral=True, **({"view": panel["view"]} if panel["view"] else {})
    )


async def choose(interaction: discord.Interaction, gid: int, pos: str, values: list[str], *, confirm: bool) -> None:
    """A choice (shown with Confirm) or its confirmation (played through `Session.act`).

    Free actions don't depend on whose turn it is, so the panel stays valid as long as the player's own list of
    free actions is the one it showed (`pos`), whatever the others played meanwhile."""
    session, _ = session_of(interaction), user_words(interaction)
    player = str(interaction.user.id)
    row = await game_here(interaction, gid)
    origin = f"f{pos}:{values[0] if values else ''}"
    if confirm:
        done = await session.played(gid, player, origin)
        if done is not None:
            await interaction.response.edit_message(content=_done(done, _), view=None, attachments=[])
            return
    actions = session.free_actions(row, player)
    if session.fingerprint(row.game, actions) != pos.rpartition(".")[2]:
        note = _("Your choices changed since this panel was opened; nothing was played. Here they are now:")
        panel = free_panel(session, row, player, note, _)
        await interaction.response.edit_message(**panel, attachments=[])
        return
    i = index_of(values, len(actions))
    if not confirm:
        what = esc(_.text(session.rules(row.game).describe(actions[i])))
        view = new_view(FreeButton(gid, pos, str(i), _("Confirm")))
        # i18n: {who} is the player's name, {action} what the action does ("plays a card")
        content = _("Play this? {who} {action}.", who=name_of(row, player), action=what)
        await interaction.response.edit_message(content=content, view=view, attachments=[])
        return
    await interaction.response.defer()
    # no position check in act: the action is exactly the one confirmed, and the rules re-check it now
    result = await session.act(gid, player, actions[i], origin=origin)
    await interaction.edit_original_response(content=_done(result, _), view=None, attachments=[])


def _done(result: MoveResult, _: Words) -> str:
    return clip(done_line(result, _))
