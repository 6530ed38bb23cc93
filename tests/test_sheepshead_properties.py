"""Hypothesis properties of Sheepshead on random seeded deals under every option preset:
a legal action exists whenever a seat is to act; the engine's legal cards and trick winners
equal a plain-Python transcription of rules 4.3/4.4; 120 card points (bury included); zero-sum
scores that the breakdown explains; replay(record()) reproduces the result; views (every seat
and the spectator) never show the blind, the bury, the face-down unknown card (also not after
the deal) or the hidden partner; every refusal has a documented reason id; random playouts in
C are zero-sum and agree with the result."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import batch, games, records, solver
from engine_core.games.sheepshead import rules
from conftest import without_rule_tables

OPTION_SETS = [
    {}, {"partner": "jack_of_diamonds"}, {"partner": "none"}, {"no_pick": "doubler"},
    {"no_pick": "schwanzer"}, {"no_pick": "schwanzer", "multiplier": 2, "cracking": True},
    {"no_pick": "forced_pick"}, {"leaster_blind": "last_trick"}, {"cracking": True},
    {"unknown_broad": True}, {"first_leader": "dealer"}, games.preset("sheepshead", "seed004"),
    games.preset("sheepshead", "seed004_literal"), {"multiplier": 2, "cracking": True, "deals_per_match": 20},
    {"unknown_broad": True, "cracking": True, "no_pick": "forced_pick"},
    {"blitz": True, "cracking": True}, {"blitz": True, "partner": "none", "multiplier": 4},
    {"call_own_ace": True, "blitz": True}, {"call_own_ace": True, "unknown_broad": True, "cracking": True},
    {"partner": "jack_of_diamonds", "call_up": True, "cracking": True},
    {"blitz": True, "red_blitz": True, "cracking": True}, {"blitz": True, "red_blitz": True, "spitz": True},
    games.preset("sheepshead", "tavern"), games.preset("sheepshead", "jd_house"),
]

TRUMPS = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()
FAIL_ORDER = "ATK987"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def suit_of(card, unknown, called_suit):
    if card == unknown:
        return called_suit
    return "T" if card in TRUMPS else card[1]


SPITZ_TRUMPS = ["QC", "7D"] + [c for c in TRUMPS if c not in ("QC", "7D")]


def power(card, spitz=False):
    """Rules 1 (with spitz, 7D second below QC), transcribed."""
    order = SPITZ_TRUMPS if spitz else TRUMPS
    return 100 - order.index(card) if card in order else 10 - FAIL_ORDER.index(card[0])


def ref_winner(cards, unknown, called_suit, spitz=False):
    """Rules 4.4: the unknown card never wins; highest trump, else highest of the led suit."""
    led = suit_of(cards[0], unknown, called_suit)
    best, best_v = None, -1
    for i, c in enumerate(cards):
        if c == unknown:
            continue
        if c in TRUMPS:
            v = 1000 + power(c, spitz)
        elif c[1] == led:
            v = power(c, spitz)
        else:
            continue
        if v > best_v:
            best, best_v = i, v
    return best


def ref_legal(x, hand, trick, called_led_before, first_called_trick, c):
    """Rules 4.3 transcribed literally. `c`: contract facts (called card/suit, picker,
    partner, unknown)."""
    hand = set(hand)
    if len(hand) == 1:
        return hand
    unknown, called_suit = c["unknown"], c["called_suit"]
    restricted = c["called_suit"] is not None and not called_led_before
    eff = lambda card: suit_of(card, unknown, called_suit)
    if not trick:
        legal = set(hand)
        if restricted and x == c["partner"]:
            legal -= {k for k in hand if eff(k) == called_suit and k != c["called"]}
        return legal
    led = eff(trick[0])
    follow = {k for k in hand if eff(k) == led}
    if follow:
        if first_called_trick:
            if x == c["partner"]:
                return {c["called"]}
            if x == c["picker"] and unknown in hand:
                return {unknown}
        return follow
    legal = set(hand)
    if restricted:
        if x == c["partner"]:
            legal.discard(c["called"])
        if x == c["picker"]:
            if unknown in hand:
                legal.discard(unknown)
            else:
                hold = {k for k in hand if k[1] == called_suit and k not in TRUMPS}
                if len(hold) == 1:
                    legal -= hold
    return legal


@st.composite
def deals(draw):
    return (draw(st.sampled_from(OPTION_SETS)), draw(st.integers(0, 2**64 - 1)),
            draw(st.integers(0, 4)), draw(st.integers(0, 2**32)),
            draw(st.sampled_from([0.0, 0.6, 0.9, 1.0])))


def check_views(state, facts):
    """No view shows what its seat may not see: the blind cards not yet played, the bury and
    the face-down unknown card (to anyone but the picker, also after the deal), the partner
    before the called card (until the deal is over)."""
    picker = facts.get("picker")
    played = set()
    if picker is not None:                 # the picker sees every card played, face down or not
        full = state.view(picker)
        for view_trick in full["tricks"]:
            played.update(view_trick[1])
        if full["trick"]:
            played.update(full["trick"]["cards"])
    hidden = (set(state.blind) - played) | set(facts.get("buried") or [])
    if facts.get("unknown"):
        hidden.add(facts["unknown"])
    # named or shown by the rules, wherever they came from (the blind included): the called
    # card (an own ace, call_own_ace) and the blitzed queens (black, and red: red_blitz); never a
    # buried card
    shown = {c for hand in state.view(None)["shown_hands"] or () for c in hand["cards"]}
    hidden -= ({facts.get("called")} | shown) - set(facts.get("buried") or [])
    for seat in (*range(state.game.seats), None):     # every seat (the seat variants too) and a spectator
        view = state.view(seat)
        text = json.dumps(without_rule_tables(view))
        if seat is None or seat != picker:
            assert "blind" not in view and "buried" not in view and "unknown_card" not in view
            for card in hidden:
                assert f'"{card}"' not in text, (seat, card)
            if state.is_over():
                assert view["result"] == state.result_for(seat)
        elif state.is_over():
            assert view["result"] == state.result()
        partner = facts.get("partner")
        if partner is not None and seat != partner and not state.is_over():
            shown = any(facts["called"] in t[1] for t in view["tricks"]) or \
                bool(view["trick"] and facts["called"] in view["trick"]["cards"])
            assert (view["contract"]["partner"] is not None) == shown
        assert view["legal"] == (state.legal_actions() if seat is not None and state.to_act() == seat else [])


def read_facts(state, facts):
    """The contract as its seats know it: the picker's view (blind, bury, unknown card, called
    card) and the partner's own view (he alone knows himself), for the reference model."""
    picker = state.view(None)["picker"]
    facts["picker"] = picker
    contract = state.view(picker)["contract"]          # picker None (leaster): the spectator's
    if contract is None:
        return
    kind, called = contract["type"], contract["called_card"]
    partners = [s for s in range(state.game.seats) if state.view(s)["contract"]["partner"] == s]
    facts.update(partner=partners[0] if partners else None, called=called,
                 unknown=contract["unknown_card"],
                 called_suit=called[1] if kind in ("ace", "ten", "unknown_ace") else None,
                 buried=contract["buried"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_random_deals(params):
    options, seed, dealer, policy_seed, pass_bias = params
    game = games.get("sheepshead", options)
    state = game.deal(seed, dealer)
    rng = random.Random(policy_seed)
    hands0 = [list(h) for h in state.hands]
    facts = {}
    tricks_done = []        # completed tricks (cards), for the reference model
    current = []
    called_led_before = False
    first_called_trick = False
    steps = 0
    while not state.is_over():
        steps += 1
        assert steps < 60
        seat = state.to_act()
        assert seat is not None
        legal = state.legal_actions()
        assert legal, "a seat to act must have a legal action"
        assert all(a["seat"] == seat for a in legal)
        read_facts(state, facts)
        if state.phase() == "play":
            if facts["called"] is not None:
                holder = next((s for s in range(5) if facts["called"] in hands0[s]), facts["picker"])
                # an ace of the picker's own (call_own_ace, from his hand or the blind): no partner
                assert facts["partner"] == (None if holder == facts["picker"] else holder)
            hand = [state.game.deck.code(i) for i in state.core.sort_cards(state.core.hand(seat))]
            ours = {a["card"] for a in legal}
            if current:
                first_called_trick = (facts["called_suit"] is not None and not called_led_before
                                      and suit_of(current[0], facts["unknown"], facts["called_suit"])
                                      == facts["called_suit"])
            ref = ref_legal(seat, hand, current, called_led_before, first_called_trick, facts)
            assert ours == ref, (seat, hand, current, facts)
            for card in set(hand) - ours:       # every refusal says why and changes nothing
                before = state.core.legal_codes()
                reason = state.why_illegal({"seat": seat, "type": "play", "card": card})
                assert reason and "legal:" in reason
                reason_id, text = state.core.explain(state.game.deck.face_index(card))
                assert reason_id in rules.REASONS and text in reason
                assert state.core.legal_codes() == before
        check_views(state, facts)
        if state.phase() == "pick" and rng.random() < pass_bias:
            action = next((a for a in legal if a["call"] == "pass"), legal[0])
        else:
            action = rng.choice(legal)
        probe = state.core.copy()
        probe.apply(state.encode(action))
        probe.undo()
        assert probe.legal_codes() == state.core.legal_codes() and probe.to_act() == seat
        state.apply(action)
        if action["type"] == "play":
            current.append(action["card"])
            if len(current) == 5:
                if facts["called_suit"] is not None and suit_of(
                        current[0], facts["unknown"], facts["called_suit"]) == facts["called_suit"]:
                    called_led_before = True
                tricks_done.append(current)
                current = []
    check_views(state, facts)
    result = state.result()
    # scores: zero-sum, explained by the breakdown
    assert sum(result["scores"]) == 0
    items = {b["item"]: b["value"] for b in result["breakdown"]}
    kind = result["contract"]["type"]
    blind_points = sum(POINTS.get(c[0], 0) for c in state.blind)
    if kind == "doubler":
        assert result["card_points"] == [0] * 5 and result["tricks"] == []
        assert result["contract"]["next_multiplier"] == 2 * game.options.multiplier
    elif kind == "schwanzer":           # rules 3.12: no play, the most Schwanzer points pays
        assert result["card_points"] == [0] * 5 and result["tricks"] == []
        assert result["contract"]["next_multiplier"] == 1
        (loser,) = [s for s in range(5) if result["scores"][s] < 0]
        assert items["schwanzer"] == loser
        pts = [b["value"] for b in result["breakdown"] if b["item"] == "schwanzer_points"]
        assert pts[loser] == max(pts)
    elif kind == "leaster":
        total = 120 if game.options.leaster_blind == "last_trick" else 120 - blind_points
        assert sum(result["card_points"]) == total
        winners = [s for s in range(5) if result["scores"][s] > 0]
        if winners:
            (w,) = winners
            takers = [s for s in range(5) if any(t[2] == s for t in result["tricks"])]
            assert result["card_points"][w] == min(result["card_points"][s] for s in takers)
    else:
        assert sum(result["card_points"]) == 120
        picker = result["contract"]["picker"]
        bury = sum(POINTS.get(c[0], 0) for c in result["contract"]["buried"])
        won = sum(POINTS.get(c[0], 0) for t in result["tricks"] if t[2] == picker for c in t[1])
        assert result["card_points"][picker] == won + bury
        sign = 1 if "picker_team_wins" in items else -1
        assert (sign > 0) == (items["picker_team_points"] >= 61)
        assert result["scores"][picker] == sign * items["picker_share"] * items["per_defender"]
        for s in result["teams"][1]:
            assert result["scores"][s] == -sign * items["per_defender"]
    # trick winners by the reference rule (the unknown card never wins)
    for leader, cards, winner in result["tricks"]:
        pos = ref_winner(cards, facts.get("unknown"), facts.get("called_suit"), game.options.spitz)
        assert winner == (leader + pos) % 5
    # replay(record()) reproduces the result
    again = records.replay(json.loads(json.dumps(state.record())))
    assert again.result() == result


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(OPTION_SETS))
def test_random_playouts_are_zero_sum(seed, options):
    """Core.random_playout (the engine's loop over the hooks, in C) on 50 seeded deals: zero-sum
    scores, the same as the finished deal's result, which replays from its record."""
    game = games.get("sheepshead", options)
    for k in range(50):
        state = game.deal_k(seed, k, dealer=k % 5)
        core = state.core.copy()
        scores = core.random_playout(seed ^ k)
        assert core.is_over() and sum(scores) == 0
        result = core.result()
        assert result["scores"] == scores == core.scores()
        if result["contract"]["type"] not in ("doubler", "leaster", "schwanzer"):
            assert sum(result["card_points"]) == 120
        if result["contract"]["type"] == "doubler":
            assert result["contract"]["next_multiplier"] == min(2 * game.options.multiplier,
                                                                rules.MAX_MULTIPLIER)
        for seat in (0, 1, 2, 3, 4, None):
            shown = rules.redact_result(core, result, seat)
            if seat != result["contract"]["picker"]:
                text = json.dumps(without_rule_tables(shown))
                for card in result["contract"]["buried"]:
                    assert f'"{card}"' not in text
                if result["contract"]["unknown_card"]:
                    assert f'"{result["contract"]["unknown_card"]}"' not in text


class SplitMix:
    """The engine's random stream in plain Python (SplitMix64, Lemire's bounded integers)."""

    M64 = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed

    def next64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.M64
        return z ^ (z >> 31)

    def below(self, bound):
        m = (self.next64() >> 32) * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            t = ((1 << 32) - bound) % bound
            while low < t:
                m = (self.next64() >> 32) * bound
                low = m & 0xFFFFFFFF
        return m >> 32


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.sampled_from(OPTION_SETS))
def test_random_playout_is_a_uniform_draw_over_the_legal_codes(deal_seed, seed, options):
    """g_random draws exactly as the engine's uniform_action: one draw below the number of
    legal codes (none when only one is legal), the code at that position of legal_codes()."""
    core = games.get("sheepshead", options).deal(deal_seed, deal_seed % 5).core
    fast = core.copy()
    scores = fast.random_playout(seed)
    rng = SplitMix(seed)
    while not core.is_over():
        legal = core.legal_codes()
        core.apply(legal[rng.below(len(legal))] if len(legal) > 1 else legal[0])
    assert core.result() == fast.result() and core.scores() == scores


def _minimax(core, side):
    """The side's final card points with best play on both sides, by plain search."""
    if core.is_over():
        return sum(core.result()["card_points"][i] for i in side)
    seat = core.to_act()
    values = []
    for code in core.legal_list():
        core.apply(code)
        values.append(_minimax(core, side))
        core.undo()
    return max(values) if seat in side else min(values)


@pytest.mark.parametrize("options", [{"unknown_broad": True}, {"leaster_blind": "last_trick"}])
def test_solver_hooks_with_the_unknown_card_and_the_leaster_blind(options):
    """The solver (g_side, g_points, g_future_max, g_rule_key, g_unmergeable) equals plain
    minimax on unknown-ace deals (the unknown card is never merged with a twin) and on leasters
    whose blind goes to the last trick, three tricks from the end."""
    found = 0
    for k in range(3000):
        record = batch.playout_record("sheepshead", options, seed=17, k=k)
        kinds = {a.get("call") for a in record["actions"]}
        if not ("unknown_ace" in kinds if "unknown_broad" in options else "pick" not in kinds):
            continue
        state = records.new_state(record)
        plays = [i for i, a in enumerate(record["actions"]) if a["type"] == "play"]
        for action in record["actions"][:plays[3 * 5 + k % 5]]:
            state.apply(action)
        solution = solver.solve(state)
        side = solution.objective.side
        assert solution.exact and solution.value == _minimax(state.core.copy(), side)
        for entry in solver.values(state):
            for card in entry["equivalent"]:
                twin = state.copy()
                twin.apply({**entry["action"], "card": card})
                assert _minimax(twin.core.copy(), side) == entry["value"]
        found += 1
        if found == 12:
            break
    assert found == 12
