"""The calls that change nothing at a table: a viewer's view, a finished deal's score and the
hard bot's hints for the seat to act. What a seat sees is the engine's answer for that seat."""
from __future__ import annotations

from . import errors
from .tables import IN_DEAL, Table, bot_seed, level_available


class Reading:
    """GetView, Score and Hint over the tables of a TableManager."""

    def __init__(self, manager):
        self.manager = manager

    async def view(self, table_id: str, token: str) -> dict:
        m = self.manager
        table = await m.table(table_id)
        try:
            return table.view(table.viewer(token))
        finally:
            m.evict(table)

    async def score(self, table_id: str, token: str, deal_number: int) -> dict:
        """A finished deal's result as the viewer may see it, and the match so far."""
        m = self.manager
        table = await m.table(table_id)
        seat = table.viewer(token)
        match = table.match
        if deal_number < 0:
            raise errors.invalid("deal_number", f"must be 0 (the last finished) or a deal 1.., got {deal_number}")
        dealt = match.dealt
        in_deal = match.status == IN_DEAL
        finished = dealt - 1 if in_deal else dealt
        number = deal_number or finished
        if number == 0:
            raise errors.not_found("deal", "no deal has finished yet")
        if number > dealt:
            raise errors.not_found("deal", f"no deal {deal_number}: {dealt} dealt so far")
        if number == dealt and in_deal:
            raise errors.precondition("DEAL_NOT_FINISHED", f"deal {number} is still in progress")
        if number == dealt:
            state = match.current
        else:
            state = (await m.restorer.past_deal(table, number))[0].current
        m.evict(table)
        return {"deal_number": number, "result": state.result_for(seat), "match_scores": list(match.totals),
                "deals_finished": finished, "deals_per_match": match.deals_per_match,
                "match_over": match.is_over(), "match_target": match.end.target or 0}

    async def hint(self, table_id: str, token: str, peer: str = "") -> dict:
        """The hard bot's evaluation of each legal action of the token's seat, computed from
        that seat's view alone (the worker gets the view dict, never the deal), in the
        analysis pool (bounded per `peer`; bot turns never wait behind it)."""
        m = self.manager
        table = await m.table(table_id)
        seat = table.seat_of(token)
        if table.spec.settings.get("hints_disabled"):
            raise errors.precondition("HINTS_DISABLED", f"table {errors.short(table.id)} gives no hints")
        state = table.match.current
        if table.deal is None or state is None or state.is_over():
            raise errors.precondition("NO_DEAL_IN_PROGRESS", "no deal is in progress: nothing to hint")
        if state.to_act() != seat and state.game.sits_out(state.dealer) == seat:
            raise errors.precondition("SITS_OUT", f"seat {seat} sits this deal out: it holds no cards "
                                      "and has no turn to hint")
        if state.to_act() != seat:
            raise errors.precondition("NOT_YOUR_TURN", f"seat {state.to_act()} is to act, not seat {seat}: "
                                      "a hint is for the seat to act")
        if not level_available("hard"):
            raise errors.precondition("HINTS_UNAVAILABLE", "this server has no hard bot yet to give hints")
        version = table.version
        view = state.view(seat)
        options = state.game.options.as_dict()
        hints = await m.analysis.run(peer, hint_of, table.spec.game, options, view,
                                     bot_seed_of(table, seat, version))
        return {"version": version, "seat": seat, "hints": hints}


def bot_seed_of(table: Table, seat: int, version: int) -> int:
    return bot_seed(table.spec.seed, seat, version)


def hint_of(game: str, options: dict, view: dict, seed: int, stop=None) -> list[dict]:
    """The hard bot's evaluation of a seat's legal actions from the seat's view (a dict: the
    bot never gets the deal), best expected score first. Not begun once `stop()` is true (the
    caller left while it waited)."""
    from engine_core import bots
    if stop is not None and stop():
        raise errors.deadline_passed("the hint was not begun: its caller left")
    hints = bots.get(game, "hard", seed=seed, options=options).evaluate(view)
    return sorted(hints, key=lambda h: -(h["expected"] if h["expected"] is not None else float("-inf")))
