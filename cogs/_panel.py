"""The ephemeral move panel: a player's private conversation with the bot about their move.

Built from `legal_actions` only, so an illegal move is never offered. Steps: kind buttons -> (group or range
select ->) action select -> Confirm/Back; every click edits the same panel. It opens on a kind's menu, the other
kinds as buttons beside it, when that kind is the only one with a choice (`_menus.lead`). A click is served only
at the position the panel was drawn at (`Session.position`); a Confirm that was already played (a retry after a
crash, a double click) is recognised by its origin and answered "✅ Done" again, never "someone else played".
Every text is in the clicking user's language (`user_words`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import discord

import present
from cogs import _coach, _menus
from cogs._items import (
    ARG,
    GID,
    GONE,
    POS,
    GameItem,
    OutOfDate,
    TableButton,
    bot_of,
    game_here,
    index_of,
    make_button,
    make_select,
    new_view,
    said,
    session_of,
)
from cogs._locale import user_words
from cogs._seating import GameError
from cogs._session import MoveResult, Session, StaleMove
from cogs._table import png_file
from cogs._text import clip, esc, name_of, option_texts
from engine import Text
from i18n import ENGLISH, N_, Words
from storage import GameRow

STALE_NOTE = N_("The game has moved on since this panel was opened; nothing was played.")  # shown with `_.text`
GAME_OVER = N_("This game is over: no more moves.")


class PanelButton(
    GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"g:{GID}:p:{POS}:(?P<op>h|k|c|i):{ARG}"
):
    """A step of the move panel: home (h), a kind or page (k: "k.page.path"), Confirm (c: the action index), Hint
    (i: the coach's advice, cogs/_coach.py, where the table allows it)."""

    private = True

    def __init__(
        self,
        gid: int,
        pos: str,
        op: str,
        arg: str = "",
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ):
        super().__init__(make_button(f"g:{gid}:p:{pos}:{op}:{arg}", label or op, style, row=row))
        self.gid, self.pos, self.op, self.arg = gid, pos, op, arg

    async def handle(self, interaction: discord.Interaction) -> None:
        if self.op == "c":
            await confirm_move(interaction, self.gid, self.pos, self.arg)
        elif self.op == "i":
            row = await game_here(interaction, self.gid)
            await show_hint(interaction, row, self.pos)
        else:
            await step(interaction, self.gid, self.pos, self.op, self.arg, [])


class PanelSelect(
    GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"s:{GID}:{POS}:(?P<op>g|a):{ARG}"
):
    """A menu of the move panel: a group to narrow down to (g), or the action itself (a)."""

    private = True

    def __init__(
        self,
        gid: int,
        pos: str,
        op: str,
        arg: str = "",
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "",
        row: int = 0,
    ):
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(make_select(f"s:{gid}:{pos}:{op}:{arg}", options, placeholder or op, row=row))
        self.gid, self.pos, self.op, self.arg = gid, pos, op, arg

    async def handle(self, interaction: discord.Interaction) -> None:
        await step(interaction, self.gid, self.pos, self.op, self.arg, list(self.item.values))


class Panel:
    """The move panel of one player at one position."""

    def __init__(self, session: Session, row: GameRow, player: str, _: Words = ENGLISH):
        self.session, self.row, self.player, self._ = session, row, player, _
        self.rules = session.rules(row.game)
        self.words = present.for_game(row.game)
        self.state = session.check_player(row, player)
        # the key is in every custom_id: a click is served only at this key
        self.actions, self.key = session.listing(row, player)
        self.kinds = _menus.kinds(self.actions)
        self.lead = _menus.lead(self.actions, self.kinds)  # the kind the panel opens on, if any
        self.preview_of: int | None = None  # set when the panel shows a placement to confirm

    def button(
        self,
        op: str,
        arg: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> PanelButton:
        return PanelButton(self.row.id, self.key, op, arg, label, style, row)

    def describe(self, action: Any) -> str:
        """An action in the reader's words ("takes the blue 7")."""
        return self._.text(self.rules.describe(action))

    def header(self) -> str:
        _ = self._
        hand = self.words.private_text(self.rules, self.state, self.player, _)
        title = present.title(self.row.game)
        text = _("**Your move** in {title} (move {number}).", title=title, number=self.row.version + 1)
        return f"{text}\n{hand}" if hand else text

    def of_kind(self, k: int) -> list[tuple[int, Any]]:
        if not 0 <= k < len(self.kinds):
            raise OutOfDate(GONE)
        kind = self.kinds[k]
        return [(i, a) for i, a in enumerate(self.actions) if a.kind == kind]

    def home(self, note: str | None = None) -> tuple[str, discord.ui.View | None]:
        _ = self._
        if not self.actions:
            return self._text(note, _("You have no move to make right now.")), None
        if self.lead is not None:
            content, view = self.choose(self.lead, "", 0, note)
            return content, self.with_hint(view)
        buttons = self.kind_buttons(list(range(len(self.kinds[:24]))), 0)
        return self._text(note, _("What would you like to do?")), self.with_hint(new_view(*buttons))

    def with_hint(self, view: discord.ui.View) -> discord.ui.View:
        """The first screen gets a *Hint* button where the table allows hints (and the view has room)."""
        _ = self._
        if self.row.table.get("hints") and len(view.children) < 25:
            with contextlib.suppress(ValueError):  # every row is full: /game hint still answers
                # i18n: a button of the move panel: the AI coach's advice (only where the table allows hints)
                view.add_item(self.button("i", "", "🧭 " + _("Hint")))
        return view

    def kind_buttons(self, ks: list[int], first_row: int) -> list[PanelButton]:
        """The kinds `ks` as buttons, five a row: each opens its menu (a single move: its Confirm)."""
        label, style = self.words.kind_label, discord.ButtonStyle.primary
        return [
            self.button("k", f"{k}", label(self.kinds[k], self._), style, min(first_row + n // 5, 4))
            for n, k in enumerate(ks)
        ]

    def _text(self, note: str | None, body: str) -> str:
        parts = [f"*{note}*"] if note else []
        parts += [self.header(), body]
        return clip("\n".join(parts))

    def _groups(self, k: int, path: str) -> tuple[list[tuple[int, Any]], list[list[str]]]:
        """The actions left after following `path` (group choices "3.0"), and the label trail."""
        members = self.of_kind(k)
        trail: list[list[str]] = []
        for step_ in [s for s in path.split(".") if s]:
            groups = _menus.groups(members, self.describe, self.words, self._)
            if groups is None or not step_.isdigit() or int(step_) >= len(groups):
                break
            label, chosen = groups[int(step_)]
            keep = set(chosen)
            members = [(i, a) for i, a in members if i in keep]
            trail.append([label])
        return members, trail

    def choose(self, k: int, path: str, page: int, note: str | None = None) -> tuple[str, discord.ui.View]:
        """Kind `k`, narrowed by `path`: a group select while more than 25 remain, else the action select."""
        _ = self._
        members, trail = self._groups(k, path)
        groups = _menus.split(members, self.describe, self.words, _)
        if groups is None and len(members) == 1:  # nothing to choose: straight to Confirm
            return self.confirm(members[0][0], self._back_of(k, path), note)
        items: list[discord.ui.Item[Any]] = []
        crumbs = " › ".join([self.words.kind_label(self.kinds[k], _)] + [t[0] for t in trail])
        n = len(members)
        if groups is not None:
            options = [
                discord.SelectOption(label=option_texts(label)[0], value=str(g), description=option_texts(label)[1])
                for g, (label, _m) in enumerate(groups)
            ]
            hint = _("Narrow down ({n} choice)", "Narrow down ({n} choices)", n=n)
            items.append(PanelSelect(self.row.id, self.key, "g", f"{k}.0.{path}".rstrip("."), options, hint, row=0))
            body = _(
                "**{path}**: {n} possible move. Narrow it down:",
                "**{path}**: {n} possible moves. Narrow it down:",
                path=crumbs,
                n=n,
            )
        else:
            pages = max(1, -(-len(members) // _menus.PAGE))
            page = min(max(page, 0), pages - 1)
            chunk = members[page * _menus.PAGE : (page + 1) * _menus.PAGE]
            options = []
            for i, a in chunk:
                label, desc = option_texts(self.describe(a))
                options.append(discord.SelectOption(label=label, value=str(i), description=desc))
            if pages > 1:
                at: dict[str, Any] = {"page": page + 1, "pages": pages}
                hint = _("Choose your move (page {page} of {pages})", **at)
                body = _(
                    "**{path}**: {n} possible move (page {page} of {pages}).",
                    "**{path}**: {n} possible moves (page {page} of {pages}).",
                    path=crumbs,
                    n=n,
                    **at,
                )
            else:
                hint = _("Choose your move")
                body = _("**{path}**: {n} possible move.", "**{path}**: {n} possible moves.", path=crumbs, n=n)
            arg = f"{k}.{page}.{path}".rstrip(".")
            items.append(PanelSelect(self.row.id, self.key, "a", arg, options, hint, row=0))
            if page > 0:
                items.append(self.button("k", f"{k}.{page - 1}.{path}".rstrip("."), _("◀ Previous"), row=1))
            if page < pages - 1:
                items.append(self.button("k", f"{k}.{page + 1}.{path}".rstrip("."), _("Next ▶"), row=1))
        back = self._back_of(k, path)
        if back is not None:
            items.append(self.button(*back, _("Back"), row=1))
        elif k == self.lead:  # the first screen: the other kinds (single moves) beside the menu, no Back
            items += self.kind_buttons([o for o in range(len(self.kinds)) if o != k], 2)
        return self._text(note, body), new_view(*items)

    def _back_of(self, k: int, path: str) -> tuple[str, str] | None:
        steps = [s for s in path.split(".") if s]
        if steps:
            return "k", f"{k}.0.{'.'.join(steps[:-1])}".rstrip(".")
        if len(self.kinds) > 1 and k != self.lead:
            return "h", ""
        return None

    def confirm(self, i: int, back: tuple[str, str] | None, note: str | None = None) -> tuple[str, discord.ui.View]:
        """The last step: the chosen move in words, Confirm (plays it) and Back (never undoes a move)."""
        _ = self._
        self.preview_of = i
        items = [self.button("c", str(i), _("Confirm"), discord.ButtonStyle.success, row=0)]
        if back is not None:
            items.append(self.button(*back, _("Back"), row=0))
        who, what = name_of(self.row, self.player), esc(self.describe(self.actions[i]))
        # i18n: {who} is the player's name, {action} what the move does ("takes the blue 7")
        body = _("Play this move? {who} {action}.", who=who, action=what)
        return self._text(note, body), new_view(*items)


@TableButton.on("play")
async def open_panel(interaction: discord.Interaction, row: GameRow, note: str | None = None) -> None:
    """Answer "Play my turn": an ephemeral panel, the player's private information (as text) on top.

    No image here: the panel must open instantly; **My hand** shows the private picture."""
    _ = user_words(interaction)
    panel = Panel(session_of(interaction), row, str(interaction.user.id), _)  # GameError if not their turn
    content, view = panel.home(note)
    if panel.preview_of is None:
        await interaction.response.send_message(content, view=view, ephemeral=True)  # type: ignore[arg-type]  # None: no components (discord.py takes it; its stubs say View)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)  # a lone placement: draw its preview
    await interaction.edit_original_response(
        content=content, view=view, attachments=await preview_files(interaction, panel)
    )


async def show_hint(interaction: discord.Interaction, row: GameRow, key: str | None = None) -> None:
    """The coach's hint for the asking player (`/game hint`, the panel's Hint): refused where the table forbids
    it; else "thinking…", then the hard AI's move with its chance and the next two, drawn on the private board
    preview like a tentative move, with a button to play it. `key`: the position the clicked panel was drawn at."""
    _ = user_words(interaction)
    session = session_of(interaction)
    if row.status != "active":
        raise GameError(GAME_OVER)
    if not row.table.get("hints"):
        raise GameError(
            Text(
                "Hints are off at this table. The creator decides: `hints` at `/game create`, or "
                "`/game settings hints:True`."
            )
        )
    player = str(interaction.user.id)
    panel = Panel(session, row, player, _)  # GameError if it is not their move
    if key is not None and panel.key != key:
        raise GameError(STALE_NOTE)
    if not panel.actions:
        raise GameError(Text("You have no move to make right now."))
    await interaction.response.defer(ephemeral=True, thinking=True)  # "thinking…" while a worker searches
    c = _coach.coach_of(interaction)
    optional = player in session.out_of_turn(row)
    options = await c.hint(row, player, panel.state, optional=optional)
    content = _coach.hint_text(row, panel.rules, options, c.hint_iterations, _)
    best = options[0].action
    index = next((i for i, a in enumerate(panel.actions) if a == best), None) if best is not None else None
    files: list[discord.File] = []
    view = None
    if index is not None:
        panel.preview_of = index
        files = await preview_files(interaction, panel)
        # i18n: a button under a hint: play the move the AI suggests
        view = new_view(panel.button("c", str(index), _("Play it"), discord.ButtonStyle.success))
    await interaction.edit_original_response(content=content, attachments=files, view=view)


async def step(interaction: discord.Interaction, gid: int, key: str, op: str, arg: str, values: list[str]) -> None:
    """A click in a move panel drawn at position `key`: served only if the player's position is still the same;
    otherwise they are told and shown their choices now."""
    session, _ = session_of(interaction), user_words(interaction)
    row = await game_here(interaction, gid)
    if row.status != "active":
        await interaction.response.edit_message(content=_.text(GAME_OVER), view=None, attachments=[])
        return
    try:
        panel = Panel(session, row, str(interaction.user.id), _)
    except GameError as exc:  # no longer their turn: the game moved on
        content = f"*{_.text(STALE_NOTE)}*\n{said(exc, _)}"
        await interaction.response.edit_message(content=content, view=None, attachments=[])
        return
    if panel.key != key:
        content, view = panel.home(
            _("The game has moved on since this panel was opened; nothing was played. Here are your choices now:")
        )
        await show_panel(interaction, panel, content, view)
        return
    k, page, path = _menus.parse_kpath(arg)
    if op == "h":
        content, view = panel.home()
    elif op == "k":
        content, view = panel.choose(k, path, page)
    elif op == "g":  # group select: go one level deeper
        members, _trail = panel._groups(k, path)
        groups = _menus.groups(members, panel.describe, panel.words, _) or []
        choice = index_of(values, len(groups))
        content, view = panel.choose(k, f"{path}.{choice}".strip("."), 0)
    else:  # action select: the confirm step (or the move itself, for a player who skips Confirm)
        i = index_of(values, len(panel.actions))
        if await skips_confirm(session, panel, i):
            await interaction.response.defer()
            result = await session.act(
                gid, panel.player, panel.actions[i], expected_turns=row.turns, origin=f"{key}:{i}"
            )
            await finish_move(interaction, result)
            return
        content, view = panel.confirm(i, ("k", f"{k}.{page}.{path}".rstrip(".")))
    await show_panel(interaction, panel, content, view)


async def skips_confirm(session: Session, panel: Panel, i: int) -> bool:
    """True if the player chose to play moves at once and this one reveals nothing (so /game undo can take a
    misclick back)."""
    if not (await session.storage.player(panel.player)).skip_confirm:
        return False
    action = panel.actions[i]
    after = panel.rules.apply(panel.state, panel.player, action)
    return not panel.rules.reveals(panel.state, panel.player, action, after)


async def show_panel(
    interaction: discord.Interaction, panel: Panel, content: str, view: discord.ui.View | None
) -> None:
    """Edit the panel in place; a placement about to be confirmed comes with a preview of the player's board."""
    if panel.preview_of is None:
        await interaction.response.edit_message(content=content, view=view, attachments=[])
        return
    await interaction.response.defer()  # rendering takes a moment
    await interaction.edit_original_response(
        content=content, view=view, attachments=await preview_files(interaction, panel)
    )


async def preview_files(interaction: discord.Interaction, panel: Panel) -> list[discord.File]:
    """The preview picture of the placement the panel is about to confirm, if it places something."""
    if panel.preview_of is None:
        return []
    action = panel.actions[panel.preview_of]
    spec = panel.words.preview(panel.rules, panel.state, panel.player, action)
    if spec is None:
        return []
    image = await bot_of(interaction).images.preview(panel.row, panel.player, *spec, lang=panel._.lang)  # theirs
    file = png_file(image, "preview.png")
    return [file] if file else []


async def confirm_move(interaction: discord.Interaction, gid: int, key: str, arg: str) -> None:
    """Play the confirmed action (chosen at position `key`) and show what comes next in the panel.

    The same click played before (a double click, a retry after a restart) answers "✅ Done" again; someone
    else's free action since changes nothing; a turn action since makes the click stale, and the player is told
    who played what. The session re-checks all of it under the game's lock."""
    session, _ = session_of(interaction), user_words(interaction)
    player = str(interaction.user.id)
    row = await game_here(interaction, gid)
    await interaction.response.defer()  # applying may take a moment; the panel is edited below
    origin = f"{key}:{arg}"
    done = await session.played(gid, player, origin)
    if done is not None:
        await finish_move(interaction, done)
        return
    if row.status != "active":
        await interaction.edit_original_response(content=_.text(GAME_OVER), view=None, attachments=[])
        return
    try:
        panel: Panel | None = Panel(session, row, player, _)
    except GameError:
        panel = None  # not their turn any more: someone moved
    if panel is None or panel.key != key:
        why = esc(_.text(await session.moved_on(row, player)))
        await interaction.edit_original_response(content=why, view=None, attachments=[])
        return
    i = index_of([arg], len(panel.actions))
    try:
        result = await session.act(gid, player, panel.actions[i], expected_turns=row.turns, origin=origin)
    except StaleMove as exc:
        await interaction.edit_original_response(content=said(exc, _), view=None, attachments=[])
        return
    await finish_move(interaction, result)


async def finish_move(interaction: discord.Interaction, result: MoveResult) -> None:
    """After a move (its public post is the herald's): the player's own reply, with their private events and
    their next choices if they act again."""
    _ = user_words(interaction)
    me = name_of(result.row, result.player)
    lines = [done_line(result, _)]
    # i18n: {who} is the player's name, {event} what happened that only they see ("draws the blue 7")
    lines += [_("🔒 Only you see this: {who} {event}", who=me, event=_.text(t)) for t in result.private_events]
    done = "\n".join(lines)
    view, files = None, []
    if result.row.status == "active" and result.player in result.to_move:  # they act again: carry on here
        panel = Panel(session_of(interaction), result.row, result.player, _)
        content, view = panel.home(None)
        done = f"{done}\n{content}"
        files = await preview_files(interaction, panel)
    await interaction.edit_original_response(content=clip(done), view=view, attachments=files)


def done_line(result: MoveResult, _: Words) -> str:
    """ "✅ Done: **Ana** takes the blue 7." (the player's own reply after a move)."""
    # i18n: {who} is the player's name, {action} what the move did ("takes the blue 7")
    return _("✅ Done: {who} {action}.", who=name_of(result.row, result.player), action=_.text(result.action_text))
