"""The scores a deal's breakdown implies, read the way a player reads the itemised payout
(docs/records.md: the breakdown is "the itemised computation a player is shown ... so that the
scores can be checked from it"). This is a test oracle written from the rules pages, not from
the engine's scoring code: tests/test_breakdown.py compares it with the engine's scores over
random deals and options, and the browser test with the scores the web page shows beside its
breakdown. A breakdown it cannot read (an item it does not know) is an error, so a new item
cannot slip into the payout without saying how it counts.
"""
from __future__ import annotations

import math

__all__ = ["settle", "BreakdownError"]


class BreakdownError(AssertionError):
    """The breakdown does not determine the scores: what is missing or inconsistent."""


def _items(result: dict) -> dict[str, list[dict]]:
    by: dict[str, list[dict]] = {}
    for b in result["breakdown"]:
        by.setdefault(b["item"], []).append(b)
    return by


def _unknown(result: dict, known: set[str]) -> None:
    extra = {b["item"] for b in result["breakdown"]} - known
    if extra:
        raise BreakdownError(f"items the oracle cannot read: {sorted(extra)}")


def _larger_side_pays_each(result: dict, unit: int, seats: int) -> list[int]:
    """Each seat of the larger of winners and losers wins or pays `unit`; the other side
    balances it evenly (Schafkopf and Doppelkopf: a Rufspiel pair against a pair, a soloist
    against three, one Ramsch loser paying each of three)."""
    winners = set(result.get("winners", []))
    losers = set(range(seats)) - winners
    if not winners or not losers:
        return [0] * seats
    scores = [0] * seats
    if len(winners) >= len(losers):
        for s in winners:
            scores[s] = unit
        share, rest = divmod(unit * len(winners), len(losers))
        for s in losers:
            scores[s] = -share
    else:
        for s in losers:
            scores[s] = -unit
        share, rest = divmod(unit * len(losers), len(winners))
        for s in winners:
            scores[s] = share
    if rest:
        raise BreakdownError(f"{unit} a seat does not split evenly between {sorted(winners)} and {sorted(losers)}")
    return scores


def _schafkopf(result: dict, seats: int) -> list[int]:
    """Base items (game, laufende, schneider, schwarz; bettel, ramsch, leaster, durchmarsch,
    sie) add up; factor items (tout, ouvert, kontra, re, jungfrau, klopfen: 2^knocks)
    multiply; `total` is what each seat of the larger side wins or pays. The Stock (rules 7.9)
    comes on top, never knocked: `stock_in` is what every seat pays into the pot, `stock_out`
    the pot the winners share evenly."""
    _unknown(result, {"game", "laufende", "schneider", "schwarz", "sie", "bettel", "ramsch", "leaster",
                      "durchmarsch", "tout", "ouvert", "kontra", "re", "jungfrau", "total",
                      "stock_in", "stock_out", "klopfen"})
    by = _items(result)
    stock = _stock(result, by, seats)
    game = [b for b in result["breakdown"] if b["item"] not in ("stock_in", "stock_out")]
    if not game:
        return stock
    base = sum(b["value"] for b in game if "factor" not in b and b["item"] != "total")
    factor = math.prod(b["factor"] for b in game if "factor" in b)
    (total,) = by["total"]
    if base * factor != total["value"]:
        raise BreakdownError(f"base {base} x factors {factor} is not the total {total['value']}")
    if all(len(t) == 1 for t in result["teams"]):        # Ramsch, Leaster: every seat for itself
        scores = _each_loser_pays_each_winner(result, total["value"], seats)
    else:
        scores = _larger_side_pays_each(result, total["value"], seats)
    return [a + b for a, b in zip(scores, stock)]


def _stock(result: dict, by: dict[str, list[dict]], seats: int) -> list[int]:
    """What the Stock's items move: each seat pays `stock_in`; the winners share `stock_out`."""
    scores = [0] * seats
    for b in by.get("stock_in", []):
        scores = [s - b["value"] for s in scores]
    for b in by.get("stock_out", []):
        winners = result.get("winners", [])
        if not winners:
            raise BreakdownError("the Stock is taken, but nobody won")
        share, rest = divmod(b["value"], len(winners))
        if rest:
            raise BreakdownError(f"a pot of {b['value']} does not split evenly between {winners}")
        for w in winners:
            scores[w] += share
    return scores


def _each_loser_pays_each_winner(result: dict, unit: int, seats: int) -> list[int]:
    """Every seat for itself (a Ramsch, a Leaster): each loser pays `unit` to each winner."""
    winners = set(result.get("winners", []))
    losers = set(range(seats)) - winners
    return [unit * len(losers) if s in winners else -unit * len(winners) for s in range(seats)]


def _doppelkopf(result: dict, seats: int) -> list[int]:
    """Every item counts for its team; the game value is the winners' items less the other
    team's (or, without winners, the difference as it falls); each seat of the larger side
    wins or pays it, a soloist three times. A `bock` item (Bockrunden, rules 9.1) multiplies
    every seat's score by its factor, 2 for each bock round (its count) on the deal."""
    _unknown(result, {"won", "against_the_old", "re_announced", "kontra_announced", "below_90", "no_90_announced",
                      "no_90_failed_by_losers", "below_60", "no_60_announced", "no_60_failed_by_losers", "below_30",
                      "no_30_announced", "no_30_failed_by_losers", "schwarz", "schwarz_announced",
                      "schwarz_failed_by_losers", "doppelkopf", "fox_caught", "karlchen", "karlchen_caught", "bock"})
    bock = [b for b in result["breakdown"] if b["item"] == "bock"]
    if bock:
        if len(bock) > 1 or bock[0].get("factor") != 2 ** bock[0].get("count", -1) or bock[0]["count"] < 1:
            raise BreakdownError(f"a Doppelkopf deal has one bock item of factor 2^count, count >= 1: {bock}")
        rest = dict(result, breakdown=[b for b in result["breakdown"] if b["item"] != "bock"])
        return [score * bock[0]["factor"] for score in _doppelkopf(rest, seats)]
    teams = [set(t) for t in result["teams"]]
    per_team = [0] * len(teams)
    for b in result["breakdown"]:
        if "team" not in b or "value" not in b:
            raise BreakdownError(f"a Doppelkopf item without team or value: {b}")
        per_team[b["team"]] += b["value"]
    if not teams:
        return [0] * seats
    winners = set(result.get("winners", []))
    if winners:
        (w,) = [i for i, t in enumerate(teams) if t == winners]
        value = per_team[w] - sum(v for i, v in enumerate(per_team) if i != w)
        if value < 0:       # the losers' special points outweigh the win: they are paid
            return _larger_side_pays_each(dict(result, winners=sorted(teams[1 - w])), -value, seats)
        return _larger_side_pays_each(result, value, seats)
    # nobody won (both sides missed what they announced): only the special points are paid
    value = per_team[0] - per_team[1]
    if value == 0:
        return [0] * seats
    ahead = 0 if value > 0 else 1
    return _larger_side_pays_each(dict(result, winners=sorted(teams[ahead])), abs(value), seats)


def _sheepshead(result: dict, seats: int) -> list[int]:
    """The picker's side: `per_defender` is what each defender wins or pays (the base of game,
    schneider or no trick times every doubling); the picker pays or wins `picker_share` of
    those, the partner `partner_share`. A leaster's winner collects the multiplier from each
    other seat; a tie and a doubler deal pay nothing. A seat in no team sat the deal out
    (six-handed `dealer_sits_out`): it scores 0 and is nobody's "other seat"."""
    _unknown(result, {"picker_team_points", "defender_points", "picker_team_wins", "picker_team_loses",
                      "game", "schneider", "no_trick", "double_on_the_bump", "blitz", "red_blitz", "crack", "recrack", "multiplier",
                      "per_defender", "partner_exempt", "picker_share", "partner_share", "blind_set_aside",
                      "blind_to_last_trick", "leaster_winner", "leaster_tie", "doubler", "doubler_cap",
                      "schwanzer_points", "schwanzer_tie", "schwanzer"})
    by = _items(result)
    playing = set().union(*map(set, result["teams"])) or set(range(seats))
    factor = math.prod(b["value"] for k in ("double_on_the_bump", "blitz", "red_blitz", "crack", "recrack", "multiplier")
                       for b in by.get(k, []))
    if "per_defender" in by:
        (unit,) = [b["value"] for b in by["per_defender"]]
        (base,) = [b["value"] for k in ("game", "schneider", "no_trick") for b in by.get(k, [])]
        if base * factor != unit:
            raise BreakdownError(f"base {base} x doublings {factor} is not per_defender {unit}")
        sign = 1 if "picker_team_wins" in by else -1
        if ("picker_team_wins" in by) == ("picker_team_loses" in by):
            raise BreakdownError("exactly one of picker_team_wins and picker_team_loses")
        picker_side = result["teams"][0]
        picker = result["contract"]["declarer"]
        scores = [-sign * unit if s in playing else 0 for s in range(seats)]
        for s in picker_side:
            scores[s] = 0
        scores[picker] = sign * unit * by["picker_share"][0]["value"]
        for s in picker_side:
            if s != picker:
                scores[s] = sign * unit * by["partner_share"][0]["value"] if "partner_share" in by else 0
        return scores
    if "leaster_winner" in by:          # its value is the winning seat (the rules' breakdown)
        (winner,) = [b["value"] for b in by["leaster_winner"]]
        return [factor * (len(playing) - 1) if s == winner else -factor if s in playing else 0
                for s in range(seats)]
    if "schwanzer" in by:               # its value is the losing seat (docs/rules/sheepshead.md 3.12)
        (loser,) = [b["value"] for b in by["schwanzer"]]
        return [-factor * (len(playing) - 1) if s == loser else factor if s in playing else 0
                for s in range(seats)]
    return [0] * seats                  # a leaster tie, a doubler deal: nothing changes hands


def _klaverjas(result: dict, seats: int) -> list[int]:
    """Each team's cards, last trick and roem make its total; the makers' team needs more
    than the other (else nat: the other team scores all, pit adds its bonus); `score` is what
    each seat of the team scores."""
    _unknown(result, {"cards", "last_trick", "roem_run3", "roem_run4", "roem_four_of_a_kind", "roem_four_jacks",
                      "roem_stuk", "pit", "total", "nat", "half_nat", "score"})
    teams = result["teams"]
    if not teams:
        return [0] * seats
    by = _items(result)
    totals = [0] * len(teams)
    for b in result["breakdown"]:
        if b["item"] not in ("total", "nat", "half_nat", "score"):
            totals[b["team"]] += b["value"]
    for b in by.get("total", []):
        if b["value"] != totals[b["team"]]:
            raise BreakdownError(f"team {b['team']}: items add up to {totals[b['team']]}, total says {b['value']}")
    score = {b["team"]: b["value"] for b in by["score"]}
    for k in ("nat", "half_nat"):
        for b in by.get(k, []):
            if score[b["team"]] != b["value"]:
                raise BreakdownError(f"{k} {b['value']} is not team {b['team']}'s score {score[b['team']]}")
    if not by.get("nat") and not by.get("half_nat") and score != dict(enumerate(totals)):
        raise BreakdownError(f"without nat the scores {score} are the totals {totals}")
    scores = [0] * seats
    for t, members in enumerate(teams):
        for s in members:
            scores[s] = score[t]
    return scores


_BY_GAME = {"schafkopf": _schafkopf, "doppelkopf": _doppelkopf, "sheepshead": _sheepshead, "klaverjas": _klaverjas,
            # Sheepshead's seat variants: the same breakdown at 3, 4 and 6 seats
            "sheepshead3": _sheepshead, "sheepshead4": _sheepshead, "sheepshead4c": _sheepshead,
            "sheepshead6": _sheepshead}


def settle(game: str, result: dict, seats: int) -> list[int]:
    """The scores a player works out from `result`'s breakdown (and its teams and winners)."""
    if game not in _BY_GAME:
        raise BreakdownError(f"no reading of {game}'s breakdown: add one to tests/breakdown.py")
    return _BY_GAME[game](result, seats)
