"""Regression cases of the inference's gaps (issue 25): views that once had no consistent
world, or whose true deal was not among the worlds drawn."""
from engine_core import bots, games
from engine_core.bots.inference import Inference

from test_doppelkopf import armut_deal, bid


def _armut_exchanged(returned):
    hands, dealer = armut_deal()
    state = games.get("doppelkopf").new_deal(hands, dealer)
    bid(state, "armut", "healthy", "healthy", "healthy")
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["TH", "AC", "AD"]})
    bid(state, "decline", "accept")
    state.apply({"seat": 3, "type": "exchange", "call": "armut_return", "cards": returned})
    return state


def test_a_visible_exchange_naming_a_card_twice_has_worlds():
    """The acceptor returns both club queens ("QC QC"): the poor player sees it, and his
    worlds must replay it (a face named twice is both copies; it used to reject them all)."""
    state = _armut_exchanged(["QC", "QC", "AD"])
    for seat in (1,):
        view = state.view(seat)
        worlds = Inference(view).sample(5, 1)
        assert len(worlds) == 5
        for w in worlds:
            assert Inference(view).state_of(w).view(seat) == view
        assert bots.get("doppelkopf", "hard", seed=1, worlds=2, rollout_worlds=1, nodes=300).choose(view) in view["legal"]


def test_an_armut_gift_with_a_non_trump_is_among_the_worlds():
    """The poor player had two trumps and gave AC with them (rules 2.5): a seat not involved
    must find worlds whose gift holds a non-trump (the gift was drawn among trumps only)."""
    state = _armut_exchanged(["QC", "AD", "TH"])
    view = state.view(0)
    inf = Inference(view)
    worlds = inf.sample(30, 3)
    # few: the returned cards must hold every trump the poor player holds now (a known gap
    # of this seat's sampling, docs/bots.md), so most draws are rejected
    assert len(worlds) >= 5
    gifts = {tuple(sorted(w["hidden"][4])) for w in worlds}
    trumps = set(view["order"]["trump"])
    assert any(not set(g) <= trumps for g in gifts)
