"""The order sheet's actions (gm.ordering.sheet): hold the rest, take one order back, clear, ready.

Each answers with the caller's orders after the change and the menu to draw the sheet again (None
when the change let the phase close now: the close follows in the background, as after any order).
A single order chosen on the sheet goes through gm.facade.tapping.TappingCases.submit_chosen_order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from gm.facade.core import GamemasterCore
from gm.meant_for import MeantFor
from gm.ordering import sheet as actions
from gm.ordering.legal import OrderMenu
from gm.ordering.sheet import SheetChange
from gm.ordering.submission import OrdersView, SubmissionReport


@dataclass(frozen=True, slots=True)
class SheetAnswer:
    """The caller's orders after an action on the sheet, the submission's report when it submitted
    orders, and the menu after it (None: everybody is done and the phase closes now)."""

    view: OrdersView
    menu: OrderMenu | None
    report: SubmissionReport | None = None


class SheetCases(GamemasterCore):
    async def sheet_hold_the_rest(
        self, game_id: int, user_id: int, *, meant_for: MeantFor[str]
    ) -> SheetAnswer:
        """Every unit of the caller's without an order holds (submitted as typed holds)."""
        return await self._sheet_action(
            game_id,
            user_id,
            meant_for,
            lambda s: actions.hold_the_rest(s, game_id, user_id, meant_for=meant_for),
        )

    async def sheet_withdraw(
        self, game_id: int, user_id: int, key: str, *, meant_for: MeantFor[str]
    ) -> SheetAnswer:
        """Take back the order for one unit or build site."""
        return await self._sheet_action(
            game_id,
            user_id,
            meant_for,
            lambda s: actions.withdraw_order(s, game_id, user_id, key, meant_for=meant_for),
        )

    async def sheet_clear(self, game_id: int, user_id: int, *, meant_for: MeantFor[str]) -> SheetAnswer:
        """Withdraw all the caller's orders in the phase."""
        return await self._sheet_action(
            game_id,
            user_id,
            meant_for,
            lambda s: actions.clear(s, game_id, user_id, meant_for=meant_for),
        )

    async def sheet_ready(
        self,
        game_id: int,
        user_id: int,
        *,
        ready: bool,
        meant_for: MeantFor[str],
    ) -> SheetAnswer:
        """The caller is done (or not after all) for the phase."""
        return await self._sheet_action(
            game_id,
            user_id,
            meant_for,
            lambda s: actions.set_ready(s, game_id, user_id, ready=ready, meant_for=meant_for),
            same_orders=True,
            lean=True,
        )

    async def _sheet_action(
        self,
        game_id: int,
        user_id: int,
        meant_for: MeantFor[str],
        action: Callable[[AsyncSession], Awaitable[SheetChange]],
        *,
        same_orders: bool = False,
        lean: bool = False,
    ) -> SheetAnswer:
        """``same_orders``: the action changes no order (Ready), so the menu held before it is the
        menu after it, with the change's view; ``lean``: the action may be written in a lean unit
        (db.lean: Ready; the others read the game as objects)."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)
        change = await self._write_own_orders(game_id, user_id, action, lean=lean)
        # the view is dropped (a read gives the refused lines of the last submission), the menu kept
        menu = await self._after_order_change(
            ticket,
            change.view,
            kept=None,
            held=held,
            state=change.report.state if change.report is not None else None,
            same_orders=same_orders,
            menu_wanted=True,
            meant_for=meant_for,
        )
        return SheetAnswer(view=change.view, menu=menu, report=change.report)
