"""Sandboxes (gm.sandbox): a member's private boards, made from a game's public position or a
variant's start, ordered for every power and adjudicated at will. Every call is the owner's: gm
refuses anybody else (a forged id), and a sheet of a step adjudicated or stepped back from since.
Nothing here touches a game: no message, no log, no order or phase of a game is written.
"""

from __future__ import annotations

from gm.delivery.pool import run_off_loop
from gm.facade.core import GamemasterCore
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering.drawing import preview_request, render_preview
from gm.phases.worker import close_work, position_map_work
from gm.sandbox import adjudicating, making, playing
from gm.sandbox.model import SandboxInfo, SandboxMenu, SandboxOrders, SandboxResults
from gm.sandbox.rows import current_step, load_sandbox, steps_of


class SandboxCases(GamemasterCore):
    async def new_sandbox(
        self,
        owner_id: int,
        *,
        guild_id: int | None,
        game_id: int | None = None,
        phase: str | None = None,
        variant: str | None = None,
        my_orders: bool = False,
        replace: int | None = None,
    ) -> tuple[SandboxMenu, list[str]]:
        """A new sandbox and its sheet (gm.sandbox.making.new_sandbox), with notes on what was copied.
        Raises gm.sandbox.model.SandboxLimit when the owner has three and ``replace`` is not the one
        to give up."""
        async with self._sessions.begin() as session:
            info, notes = await making.new_sandbox(
                session,
                owner_id,
                guild_id=guild_id,
                game_id=game_id,
                phase=phase,
                variant=variant,
                my_orders=my_orders,
                replace=replace,
                now=self._clock(),
            )
        return await self.sandbox_menu(info.id, owner_id), notes

    async def sandboxes_of(self, owner_id: int) -> list[SandboxInfo]:
        """The caller's sandboxes, the most recently used first."""
        async with self._sessions.read() as session:
            return await making.sandboxes_of(session, owner_id)

    async def delete_sandbox(
        self, sandbox_id: int, owner_id: int, *, meant_for: MeantFor[int] = ANY_PHASE
    ) -> SandboxInfo:
        async with self._sessions.begin() as session:
            return await making.delete_sandbox(session, sandbox_id, owner_id, meant_for=meant_for)

    async def sandbox_menu(
        self,
        sandbox_id: int,
        owner_id: int,
        *,
        power: str | None = None,
        meant_for: MeantFor[int] = ANY_PHASE,
        touch: bool = True,
    ) -> SandboxMenu:
        """The sandbox's sheet, showing ``power``; ``touch`` False for a tap that only redraws it (read
        without the write lock; the sandbox's 30 days are counted from its last change or opening)."""
        sessions = self._sessions.begin() if touch else self._sessions.read()
        async with sessions as session:
            return await playing.sandbox_menu(
                session,
                sandbox_id,
                owner_id,
                power=power,
                meant_for=meant_for,
                touch=touch,
                now=self._clock(),
            )

    async def sandbox_orders(
        self,
        sandbox_id: int,
        owner_id: int,
        text: str,
        *,
        power: str | None = None,
        meant_for: MeantFor[int] = ANY_PHASE,
    ) -> SandboxOrders:
        """Orders for the sandbox's open step, typed or picked, each judged like a game's."""
        async with self._sessions.begin() as session:
            return await playing.give_orders(
                session,
                sandbox_id,
                owner_id,
                text,
                power=power,
                meant_for=meant_for,
                now=self._clock(),
            )

    async def sandbox_withdraw(
        self,
        sandbox_id: int,
        owner_id: int,
        power: str,
        key: str | None = None,
        *,
        meant_for: MeantFor[int] = ANY_PHASE,
    ) -> SandboxMenu:
        """Take back one order of ``power`` (its unit or build site ``key``), or all of them."""
        async with self._sessions.begin() as session:
            return await playing.withdraw(
                session,
                sandbox_id,
                owner_id,
                power,
                key,
                meant_for=meant_for,
                now=self._clock(),
            )

    async def sandbox_step_back(
        self,
        sandbox_id: int,
        owner_id: int,
        *,
        power: str | None = None,
        meant_for: MeantFor[int] = ANY_PHASE,
    ) -> SandboxMenu:
        async with self._sessions.begin() as session:
            return await playing.step_back(
                session,
                sandbox_id,
                owner_id,
                power=power,
                meant_for=meant_for,
                now=self._clock(),
            )

    async def sandbox_adjudicate(
        self,
        sandbox_id: int,
        owner_id: int,
        *,
        power: str | None = None,
        meant_for: MeantFor[int] = ANY_PHASE,
    ) -> SandboxResults:
        """Adjudicate the open step now: the engine and the results map in the worker processes (as
        a game's close), the result and the next step written after; the adapter defers first."""
        async with self._sessions.begin() as session:
            request = await adjudicating.request_for(
                session,
                sandbox_id,
                owner_id,
                meant_for=meant_for,
                render=self._render_maps,
            )
        answer = await run_off_loop(self._runtime.executor, close_work, request.work)
        async with self._sessions.begin() as session:
            return await adjudicating.record(
                session, sandbox_id, owner_id, request, answer, power=power, now=self._clock()
            )

    async def sandbox_map(
        self,
        sandbox_id: int,
        owner_id: int,
        *,
        meant_for: MeantFor[int] = ANY_PHASE,
    ) -> tuple[SandboxMenu, bytes | None]:
        """The sandbox's board with every order given so far drawn on it (or, when its game is over,
        the final position), drawn in the worker processes."""
        async with self._sessions.begin() as session:
            menu = await playing.sandbox_menu(
                session,
                sandbox_id,
                owner_id,
                meant_for=meant_for,
                now=self._clock(),
            )
        async with self._sessions.read() as session:
            sandbox = await load_sandbox(session, sandbox_id, owner_id)
            step = current_step(await steps_of(session, sandbox.row_id))
        if step.results is not None:
            title = f"Sandbox #{sandbox_id} · game over: {menu.over} · position after {menu.long_name}"
            request = {"board": step.results["board_after"], "variant": sandbox.variant, "title": title}
            return menu, await run_off_loop(self._runtime.executor, position_map_work, request)
        orders = {p: list(o.values()) for p, o in (step.orders or {}).items() if o}
        title = f"Sandbox #{sandbox_id} · {menu.long_name} · orders so far"
        drawn = preview_request(step.board, sandbox.variant, orders, title)
        return menu, await run_off_loop(self._runtime.executor, render_preview, drawn)

    async def sandboxes_member_left(self, guild_id: int, user_id: int) -> int:
        """A member left the server: their sandboxes of its games are deleted."""
        async with self._sessions.begin() as session:
            return await making.member_left(session, guild_id, user_id)
