"""Orders by tap: the order sheet's menus of legal orders, the submission of the order chosen in
them (the same path as typed orders), and a player's private preview map of their own orders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from db.models import PhaseStatus
from gm.delivery.lanes import heavy
from gm.delivery.pool import run_off_loop
from gm.facade.core import GamemasterCore
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering import legal
from gm.ordering import submission as orders
from gm.ordering.drawing import render_preview
from gm.ordering.examples import examples_for_board
from gm.ordering.legal import OrderMenu
from gm.ordering.preview import OrdersPreview, preview_from, preview_of
from gm.ordering.submission import OrdersView, SubmissionReport
from gm.reading.lookup import latest_phase, load_game, load_player, powers_of


@dataclass(frozen=True, slots=True)
class ChosenOrder:
    """The answer to an order chosen on a sheet: the submission's report (as for typed orders)
    and the menu after it, or None when this order made everybody done (the phase closes now)."""

    report: SubmissionReport
    menu: OrderMenu | None


class TappingCases(GamemasterCore):
    async def order_menu(
        self,
        game_id: int,
        user_id: int,
        *,
        meant_for: MeantFor[str] = ANY_PHASE,
    ) -> OrderMenu:
        """Every order the caller's powers may give in the open phase, unit by unit, with the order
        each unit has now. ``meant_for``: refuse when the game has moved on (its phase: a stale sheet)
        or is not the game the sheet was opened for (its tag: the menu's ``game_tag``)."""
        held = self.menu_held(game_id, user_id, meant_for=meant_for)
        if held is not None:
            return held
        ticket = self._current.ticket(game_id, user_id)
        # a position's first listing of its legal orders is heavy: one at a time (gm.delivery.lanes)
        async with heavy(), self._sessions.read() as session:
            menu = await legal.order_menu(
                session, game_id, user_id, meant_for=meant_for, held=self._current.held_game(game_id)
            )
        self._current.fill_menu(ticket, menu)
        return menu

    def menu_held(
        self,
        game_id: int,
        user_id: int,
        *,
        meant_for: MeantFor[str] = ANY_PHASE,
    ) -> OrderMenu | None:
        """:meth:`order_menu` when the process holds it (no wait at all: a tap answers at once), else
        None (then :meth:`order_menu` reads it). Held while nothing changed the game but the player's
        own orders (gm.ordering.current): its phase is still open, a close would have dropped it."""
        held: OrderMenu | None = self._current.menu(game_id, user_id)
        if (
            held is not None
            and held.view.phase.status == PhaseStatus.OPEN
            and (meant_for.phase is None or held.phase_name == meant_for.phase)
            and (not meant_for.tag or held.game_tag == meant_for.tag)
        ):
            return held
        return None

    async def order_examples(self, game_id: int, user_id: int) -> list[str]:
        """A few legal orders of the caller's own units in the game's current phase, to show how
        orders are written (gm.ordering.examples); none when they play no power there."""
        async with self._sessions.read() as session:
            game = await load_game(session, game_id)
            player = await load_player(session, game, user_id)
            powers = await powers_of(session, game.row_id, player.row_id)
            phase = await latest_phase(session, game.row_id)
        if phase is None or not powers:
            return []
        return examples_for_board(phase.board, game.variant, powers)

    async def submit_chosen_order(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        power: str,
        meant_for: MeantFor[str],
    ) -> ChosenOrder:
        """Submit one order chosen on a sheet (its canonical text) for ``power`` in
        ``meant_for``'s phase: judged, stored, logged and acknowledged exactly like a typed line
        (gm.ordering.submission.submit_orders); a later order for the unit replaces the earlier one.
        The early close this may allow follows in the background, as for typed orders."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)
        report = await self._write_own_orders(
            game_id,
            user_id,
            lambda session: orders.submit_orders(
                session, game_id, user_id, text, power=power, meant_for=meant_for
            ),
        )
        menu = await self._after_order_change(
            ticket,
            report.view,
            kept=self._current.after_submission(report),
            held=held,
            state=report.state,
            menu_wanted=True,
            meant_for=meant_for,
        )
        return ChosenOrder(report=report, menu=menu)

    def _preview_held(
        self, game_id: int, user_id: int, meant_for: MeantFor[str]
    ) -> tuple[OrdersView, dict[str, Any]] | None:
        """:meth:`orders_preview`'s view and drawing request from what the process holds (the caller's
        orders and the game with its phase: gm.ordering.current), or None to read them."""
        view = self._current.get(game_id, user_id)
        opened = self._current.held_game(game_id)
        if view is None or opened is None or opened.phase.id != view.phase.id or not view.powers:
            return None
        if meant_for.tag and meant_for.tag != view.game_tag:
            return None  # refused by the read
        if meant_for.phase is not None and view.phase.name != meant_for.phase.strip().upper():
            return None
        return preview_from(opened.game, opened.phase, view)

    async def orders_preview(
        self,
        game_id: int,
        user_id: int,
        *,
        meant_for: MeantFor[str] = ANY_PHASE,
    ) -> OrdersPreview:
        """The caller's orders in the current phase and the map with those orders drawn, and nothing
        of anybody else's (for the caller's eyes only: the adapter answers privately). Drawn off the
        event loop, in the worker processes (or a thread)."""
        found = self._preview_held(game_id, user_id, meant_for)
        if found is None:
            async with self._sessions.read() as session:  # ended before the drawing: nothing held meanwhile
                found = await preview_of(session, game_id, user_id, meant_for=meant_for)
        view, request = found
        png = await run_off_loop(self._runtime.executor, render_preview, request)
        drawn = {power: tuple(lines) for power, lines in request["orders"].items()}
        return OrdersPreview(view=view, filename=f"{view.phase.name}-my-orders.png", drawn=drawn, png=png)
