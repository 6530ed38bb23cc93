"""Property tests: every Doppelkopf deal, whatever the options, contract and play, keeps the
invariants of the rules file (section 8, "Further points"): 240 card points, zero-sum scores
with the payout shape, the whole deck played once, follow-suit in every trick, no extras in
solo-scored games, a breakdown that explains the scores, a legal action whenever a seat is
to act, illegal actions refused without change, and replay(record()) giving the same result."""
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from engine_core import batch, games, records
from engine_core.errors import IllegalActionError

from test_doppelkopf import ORDER_TABLE as TRUMPS

EXTRAS = {"doppelkopf", "fox_caught", "karlchen", "karlchen_caught"}


# the picture solos' trumps (option picture_solos, rules 3.7.1) beside test_doppelkopf's table
PICTURE_TRUMPS = {"queens_jacks": "QC QS QH QD JC JS JH JD", "kings": "KC KS KH KD"}


def cls(card, kind):
    return "T" if card in (PICTURE_TRUMPS.get(kind) or TRUMPS[kind]).split() else card[1]


def choose(rng, legal, phase):
    """A policy that reaches every contract: mostly healthy, takes Armut and Hochzeit when it
    can, sometimes a solo; announces now and then; plays uniformly."""
    calls = {a.get("call"): a for a in legal if a["type"] != "play"}
    if phase == "reservation":
        if "throw_in" in calls and rng.random() < 0.5:
            return calls["throw_in"]
        if "armut" in calls and rng.random() < 0.7:
            return calls["armut"]
        if "hochzeit" in calls and rng.random() < 0.6:
            return calls["hochzeit"]
        return calls["healthy"] if rng.random() < 0.8 else rng.choice(legal)
    if phase == "armut_offer":
        return calls["accept"] if rng.random() < 0.5 else calls["decline"]
    if phase == "play":
        announcements = [a for a in legal if a["type"] == "announce"]
        if announcements and rng.random() < 0.2:
            return announcements[0]
        return rng.choice([a for a in legal if a["type"] == "play"])
    return rng.choice(legal)


def canon(action):
    a = dict(action)
    if "cards" in a:
        a["cards"] = tuple(sorted(a["cards"]))
    return tuple(sorted(a.items()))


options = st.fixed_dictionaries({
    "second_heart_ten_beats_first": st.booleans(),
    "solo_player_leads": st.booleans(),
    "charlie_only_when_winning": st.booleans(),
    "hochzeit_partner": st.sampled_from(("first_trick", "first_trump_trick", "first_colour_trick")),
    "throw_in": st.booleans(),
    "schweinchen": st.sampled_from(("off", "schweinchen", "superschweinchen")),
    "nines": st.booleans(),
    "pflichtsolo": st.sampled_from((0, 4)),
    "picture_solos": st.booleans(),
    "announcements": st.sampled_from(("own_turn", "any_time")),
    "bockrunden": st.sampled_from(("off", "tie", "tie_or_lost_kontra")),
    "bock": st.integers(0, 2),
}).filter(lambda o: o["nines"] or o["schweinchen"] != "superschweinchen"   # the refused pairs
          ).filter(lambda o: o["bockrunden"] != "off" or o["bock"] == 0)


@settings(max_examples=240, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), policy=st.integers(0, 2**32),
       opts=options)
def test_random_deal_invariants(seed, dealer, policy, opts):
    game = games.get("doppelkopf", opts)
    deck = game.deck
    state = game.deal(seed, dealer)
    rng = random.Random(policy)
    while not state.is_over():
        seat = state.to_act()
        assert seat is not None
        legal = state.legal_actions()
        assert legal, "a seat to act always has a legal action"
        assert len({canon(a) for a in legal}) == len(legal), "no duplicate legal actions"
        assert all(a["seat"] == seat for a in legal)
        phase = state.phase()
        if phase == "play":
            # an illegal card (held but not allowed) is refused and changes nothing
            allowed = {a["card"] for a in legal if a["type"] == "play"}
            illegal = sorted(set(deck.codes(state.core.hand(seat))) - allowed)
            if illegal:
                before = (state.core.legal_codes(), len(state.actions))
                try:
                    state.apply({"seat": seat, "type": "play", "card": illegal[0]})
                    raise AssertionError("illegal card accepted")
                except IllegalActionError as err:
                    assert "must follow" in err.reason and err.legal
                assert (state.core.legal_codes(), len(state.actions)) == before
        # out of turn (option announcements "any_time"): another seat's interjection, now and then
        others = [a for p in range(4) if p != seat for a in state.legal_actions(p)]
        assert opts["announcements"] == "any_time" or not others
        assert all(a["type"] == "announce" and a["seat"] != seat for a in others)
        if others and rng.random() < 0.1:
            state.apply(rng.choice(others))
            assert state.to_act() == seat, "an interjection leaves the seat to act"
            continue
        state.apply(choose(rng, legal, phase))
    assert state.to_act() is None and state.legal_actions() == []
    result = state.result()
    assert records.replay(state.record()).result() == result
    assert sum(result["scores"]) == 0
    if result.get("redeal"):
        assert result["scores"] == [0] * 4 and result["tricks"] == []
        assert result["next_dealer"] == dealer and not result["counts_toward_match"]
        assert result["contract"]["type"] in ("armut", "thrown_in")
        assert opts["throw_in"] or result["contract"]["type"] == "armut"
        return
    # Schweinchen: exactly when the option is on, diamonds are trumps and one seat held both AD
    # as the play began (the hands at the first trick: the tricks' cards by seat)
    at_play = [sorted(c for leader, cards, _ in result["tricks"] for i, c in enumerate(cards)
                      if (leader + i) % 4 == p) for p in range(4)]
    pigs = [p for p in range(4) if at_play[p].count("AD") == 2]
    diamonds = result["contract"]["trumps"] in ("normal", "diamonds")
    expect = pigs[0] if opts["schweinchen"] != "off" and diamonds and pigs else None
    assert result["contract"].get("schweinchen") == expect
    supers = [p for p in range(4) if at_play[p].count("9D") == 2]
    if expect is not None and opts["schweinchen"] == "superschweinchen" and supers:
        assert result["contract"].get("superschweinchen") == supers[0]
    else:
        assert "superschweinchen" not in result["contract"]
    assert result["next_dealer"] == (dealer + 1) % 4 and result["counts_toward_match"]
    assert sum(result["card_points"]) == 240
    assert result["team_card_points"]["re"] + result["team_card_points"]["kontra"] == 240
    played = Counter(c for _, cards, _ in result["tricks"] for c in cards)
    assert played == Counter(c for h in state.hands for c in h) and len(result["tricks"]) == game.hand_size
    assert game.hand_size == (12 if opts["nines"] else 10) and (opts["nines"] or "9" not in "".join(played))
    # follow-suit: what a seat held at each trick is what it plays from then on
    kind = result["contract"]["trumps"]
    held = [Counter() for _ in range(4)]
    for leader, cards, _ in result["tricks"]:
        for i, c in enumerate(cards):
            held[(leader + i) % 4][c] += 1
    for leader, cards, _ in result["tricks"]:
        led = cls(cards[0], kind)
        for i, c in enumerate(cards):
            p = (leader + i) % 4
            if cls(c, kind) != led:
                assert not any(n and cls(x, kind) == led for x, n in held[p].items()), \
                    f"seat {p} revoked with {c} on {cards[0]}"
        for i, c in enumerate(cards):
            held[(leader + i) % 4][c] -= 1
    # payout shape and the breakdown explaining every point
    re, kontra = result["teams"]
    assert sorted(re + kontra) == [0, 1, 2, 3] and 1 <= len(re) <= 2
    items = [b for b in result["breakdown"] if "value" in b]
    net = sum(b["value"] * (1 if b["team"] == 0 else -1) for b in items)
    # bock rounds (section 9.1): one factor line, 2^bock, after the items it multiplies
    factors = [b for b in result["breakdown"] if "factor" in b]
    assert factors == ([{"item": "bock", "count": opts["bock"], "factor": 2 ** opts["bock"]}]
                       if opts["bock"] else [])
    net *= 2 ** opts["bock"]
    assert all(result["scores"][s] == net * len(kontra) // len(re) for s in re)
    assert all(result["scores"][s] == -net for s in kontra)
    names = {b["item"] for b in items}
    if result["contract"]["scored_as_solo"]:
        assert len(re) == 1 and not EXTRAS & names and "against_the_old" not in names
    else:
        assert len(re) == 2
    if result["winner"] is None:
        assert names <= EXTRAS


def handled(state, viewer):
    """Whether `viewer` handled the Armut cards: the poor player, or the acceptor once he took
    them."""
    c = state.result()["contract"] if state.is_over() else state.core.public(None)["contract"]
    return viewer is not None and c is not None and c["type"] == "armut" and viewer in (
        c["declarer"], c["acceptor"])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), policy=st.integers(0, 2**32))
def test_views_never_show_hidden_information(seed, dealer, policy):
    """A seat's view holds its own hand only; exchanged cards are "??" to every seat that did
    not handle them and to spectators, during and after the deal (actions, contract, result);
    the teams it reports are true; a silent solo looks like a normal game to the others until
    the deal is over."""
    state = games.get("doppelkopf").deal(seed, dealer)
    deck = state.game.deck
    rng = random.Random(policy)
    claims = []
    while True:
        for viewer in (0, 1, 2, 3, None):
            v = state.view(viewer)
            if viewer is None:
                assert v["hand"] == [] and v["legal"] == []
            else:
                assert Counter(v["hand"]) == Counter(deck.codes(state.core.hand(viewer)))
                assert v["legal"] == (state.legal_actions() if state.to_act() == viewer else [])
            c = v["contract"] or {}
            sees = handled(state, viewer)
            for a, real in zip(v["actions"], state.actions):
                if a["type"] == "exchange":
                    assert a["cards"] == (real["cards"] if sees else ["??"] * 3)
                else:
                    assert a == real
            for key in ("given", "returned"):
                if c.get(key) is not None:
                    assert (set(c[key]) == {"??"}) != sees
            if state.is_over():
                r = v["result"]
                assert r == state.game.spec.rules.redact_result(state.core, state.result(), viewer)
                for key in ("given", "returned"):
                    if r["contract"].get(key) is not None:
                        assert (set(r["contract"][key]) == {"??"}) != sees
            claims.append((viewer, v["teams"], c.get("type"), state.is_over()))
            if c.get("type") == "normal" and not state.is_over():
                # a club queen in play tells who holds it: Re; with the viewer's own, both located
                shown = [a["seat"] for a in state.actions if a["type"] == "play" and a["card"] == "QC"]
                assert set(shown) <= set(v["teams"]["re"])
                own = 0 if viewer is None else deck.codes(state.core.hand(viewer)).count("QC") + shown.count(viewer)
                located = own + sum(1 for p in shown if p != viewer)
                assert v["teams"]["complete"] == (located == 2 or len(v["teams"]["re"]) == 2
                                                  or len(v["teams"]["kontra"]) == 3), (viewer, shown, v["teams"])
        if state.is_over():
            break
        state.apply(choose(rng, state.legal_actions(), state.phase()))
    result = state.result()
    if result.get("redeal"):
        return
    re, kontra = result["teams"]
    for viewer, teams, kind, over in claims:
        assert set(teams["re"]) <= set(re) and set(teams["kontra"]) <= set(kontra)
        if teams["complete"]:
            assert (teams["re"], teams["kontra"]) == (re, kontra)
        if result["contract"]["type"] == "silent_solo" and viewer != result["contract"]["declarer"]:
            assert kind in (None, "normal") or over


# ---- the engine's random actions (g_random) draw uniformly over the legal actions ------------
def chi_square_ok(counts, categories, total):
    """Pearson's statistic against the uniform distribution, within 6 standard deviations of
    its mean (the draws are seeded, so this is deterministic)."""
    expected = total / len(categories)
    assert set(counts) <= set(categories)
    stat = sum((counts.get(c, 0) - expected) ** 2 / expected for c in categories)
    df = len(categories) - 1
    return stat < df + 6 * (2 * df) ** 0.5


def poor_deal():
    """Dealer 0; seat 1 holds no trump at all: 12 plain cards, every face twice, so that its
    Armut gives any of 50 distinct multisets of 3."""
    poor = [c for c in ("AC", "TC", "KC", "9C", "AS", "TS") for _ in range(2)]
    rest = [c for c in games.get("doppelkopf").deck.faces for _ in range(2)]
    for c in poor:
        rest.remove(c)
    return [rest[:12], poor, rest[12:24], rest[24:]]


def multiset(cards):
    return tuple(sorted(cards))


def test_random_armut_exchanges_are_uniform_over_the_legal_ones():
    game = games.get("doppelkopf")
    state = game.new_deal(poor_deal(), 0)
    for call in ("armut", "healthy", "healthy", "healthy"):
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    legal = {multiset(a["cards"]) for a in state.legal_actions()}
    assert len(legal) == 50
    n = 5000
    counts = Counter()
    for seed in range(n):
        core = state.core.copy()
        core.random_playout(seed)
        counts[multiset(core.result()["contract"]["given"])] += 1
    assert chi_square_ok(counts, legal, n)
    # the acceptor's return: any 3 of his 15 cards
    state.apply({"seat": 1, "type": "exchange", "call": "armut_give", "cards": ["AC", "TC", "KC"]})
    state.apply({"seat": 2, "type": "bid", "call": "accept"})
    legal = {multiset(a["cards"]) for a in state.legal_actions()}
    n = 20 * len(legal)
    counts = Counter()
    for seed in range(n):
        core = state.core.copy()
        core.random_playout(seed)
        counts[multiset(core.result()["contract"]["returned"])] += 1
    assert chi_square_ok(counts, legal, n)


def test_random_bids_are_uniform_over_the_legal_ones():
    """Seat 1 (first to speak) holds both club queens and only 2 trumps: 10 bids are open."""
    hand = ["QC", "QC"] + [c for c in ("AC", "TC", "KC", "9C", "AS") for _ in range(2)]
    rest = [c for c in games.get("doppelkopf").deck.faces for _ in range(2)]
    for c in hand:
        rest.remove(c)
    state = games.get("doppelkopf").new_deal([rest[:12], hand, rest[12:24], rest[24:]], 0)
    legal = [a["call"] for a in state.legal_actions()]
    assert len(legal) == 10 and {"hochzeit", "armut"} <= set(legal)
    n = 1000 * len(legal)
    counts = Counter()
    for seed in range(n):
        core = state.core.copy()
        core.random_playout(seed)
        counts[core.public(None)["bids"][1]] += 1
    assert chi_square_ok(counts, legal, n)


def test_random_play_is_uniform_over_the_legal_faces_and_the_announcement():
    from test_doppelkopf import L1, new
    state = new(L1)
    for _ in range(4):
        state.apply({"seat": state.to_act(), "type": "bid", "call": "healthy"})
    legal = [a.get("card") or a["call"] for a in state.legal_actions()]
    assert "re" in legal and len(legal) == len(set(legal))
    n = 1000 * len(legal)
    counts = Counter()
    for seed in range(n):
        core = state.core.copy()
        core.random_playout(seed)
        result = core.result()
        announced = any(a["seat"] == 0 and a["trick"] == 1 for a in result["announcements"])
        counts["re" if announced else result["tricks"][0][1][0]] += 1
    assert chi_square_ok(counts, legal, n)


def test_cheapest_bids_take_healthy_or_the_cheapest_reservation_50_50():
    st = batch.playouts("doppelkopf", n=20000, seed=3, bids="cheapest")
    contracts = st["contracts"]
    assert set(contracts) == {"normal", "silent_solo", "hochzeit", "armut"}
    # a seat with both club queens says hochzeit or healthy (a silent solo) half the time each
    h, s = contracts["hochzeit"], contracts["silent_solo"]
    assert abs(h - s) < 5 * (h + s) ** 0.5
    uniform = batch.playouts("doppelkopf", n=2000, seed=3, bids="uniform")["contracts"]
    assert max(uniform, key=uniform.get) == "solo"
