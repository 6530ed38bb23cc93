"""Klaverjas property tests (hypothesis): random deals under every option set, played with
random legal moves, against an independent pure-Python reading of rules 4.2 and 5, and the
invariants listed at the end of ../shared/rules/klaverjas.md."""
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine_core import games, records
from conftest import without_rule_tables

OPTION_SETS = [
    {},
    {"ruleset": "rotterdam"},
    {"ruleset": "utrecht"},
    {"ruleset": "rotterdam", "trump_choice": "compulsory"},
    {"tie_rule": "half_nat", "nat_roem": "own"},
    {"tie_rule": "half_nat"},
    {"nat_roem": "own"},
    {"ruleset": "rotterdam", "roem": False},
    {"pit_bonus": 0},
    {"deal_packets": [4, 4], "deals_per_match": 8},
    {"bidding": "drents"},
    {"bidding": "drents", "stuk": "declared", "roem_claim": True, "tie_rule": "half_nat"},
    {"stuk": "declared", "nat_roem": "own", "ruleset": "rotterdam"},
    {"roem_claim": True},
]

TRUMP_ORDER, PLAIN_ORDER, SEQUENCE = "J9ATKQ87", "ATKQJ987", "AKQJT987"
TRUMP_POINTS = dict(zip(TRUMP_ORDER, (20, 14, 11, 10, 4, 3, 0, 0)))
PLAIN_POINTS = dict(zip(PLAIN_ORDER, (11, 10, 4, 3, 2, 0, 0, 0)))


# ---- an independent reading of the rules, on card strings ----------------------------------
def strength(card, trump, led):
    """Comparable strength of a card in a trick: trumps above the led suit, others nothing."""
    if card[1] == trump:
        return 100 - TRUMP_ORDER.index(card[0])
    if card[1] == led:
        return 50 - PLAIN_ORDER.index(card[0])
    return 0


def ref_winner(trick, leader, trump):
    led = trick[0][1]
    best = max(range(len(trick)), key=lambda i: strength(trick[i], trump, led))
    return (leader + best) % 4


def ref_legal(hand, trick, leader, trump, rotterdam):
    """Rules 4.2 as written."""
    if not trick:
        return set(hand)
    me = (leader + len(trick)) % 4
    led = trick[0][1]
    trumps = {c for c in hand if c[1] == trump}
    in_trick = [c for c in trick if c[1] == trump]
    top = max(in_trick, key=lambda c: strength(c, trump, led)) if in_trick else None

    def beats_top(c):
        return top is None or strength(c, trump, led) > strength(top, trump, led)
    higher = {c for c in trumps if beats_top(c)}
    if led == trump:
        return set(hand) if not trumps else (higher or trumps)
    follow = {c for c in hand if c[1] == led}
    if follow:
        return follow
    if not trumps:
        return set(hand)
    if rotterdam:
        return higher or trumps
    if ref_winner(trick, leader, trump) == (me + 2) % 4:
        if top is None:
            return set(hand)
        return {c for c in hand if c[1] != trump or beats_top(c)} or set(hand)
    if top is None:
        return trumps
    if higher:
        return higher
    return {c for c in hand if c[1] != trump} or set(hand)


def ref_roem(trick, trump):
    ranks = {c[0] for c in trick}
    if len(ranks) == 1:
        return {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}.get(trick[0][0], 0)
    value = 0
    for suit in "CSHD":
        pos = sorted(SEQUENCE.index(c[0]) for c in trick if c[1] == suit)
        run = best = 1 if pos else 0
        for a, b in zip(pos, pos[1:]):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        value += {3: 20, 4: 50}.get(best, 0)
    if "K" + trump in trick and "Q" + trump in trick:
        value += 20
    return value


def ref_calls(actions):
    """From a record's actions: the seat that said stuk (None) and the tricks whose roem was let
    go (an announced pass comes only in a claim, right after its trick)."""
    stuk, let_go, cards = None, set(), 0
    for a in actions:
        if a["type"] == "play":
            cards += 1
        elif a["type"] == "announce" and a["call"] == "stuk":
            stuk = a["seat"]
        elif a["type"] == "announce" and a["call"] == "pass":
            let_go.add(cards // 4 - 1)
    return stuk, let_go


def ref_score(res, options, actions=()):
    """Rules 5 (and 12 to 14) recomputed from the tricks and the calls alone."""
    trump = res["contract"]["trump"]
    maker = res["contract"]["maker"]
    team = lambda seat: 0 if seat % 2 == maker % 2 else 1  # noqa: E731
    declared = options.get("stuk") == "declared"
    stuk, let_go = ref_calls(actions)
    cards, roem, tricks = [0, 0], [0, 0], [0, 0]
    for t, (leader, trick, winner) in enumerate(res["tricks"]):
        cards[team(winner)] += sum(TRUMP_POINTS[c[0]] if c[1] == trump else PLAIN_POINTS[c[0]]
                                   for c in trick)
        if options.get("roem", True) and t not in let_go:
            value = ref_roem(trick, trump)
            if declared and {"K" + trump, "Q" + trump} <= set(trick):
                value -= 20                     # no same-trick stuk when it is declared
            roem[team(winner)] += value
        tricks[team(winner)] += 1
    if stuk is not None:
        roem[team(stuk)] += 20
    cards[team(res["tricks"][-1][2])] += 10
    pit = [options.get("pit_bonus", 100) if n == 8 else 0 for n in tricks]
    total = [cards[i] + roem[i] + pit[i] for i in range(2)]
    bid = res["contract"].get("bid")
    if bid is not None and not (tricks[0] == 8 if bid == "pit" else total[0] >= int(bid.split("_")[1])):
        score = [0, 162 + roem[1] + pit[1] + (0 if options.get("nat_roem") == "own" else roem[0])]
    elif total[0] > total[1]:
        score = total
    elif total[0] == total[1] and options.get("tie_rule") == "half_nat":
        score = [0, total[1]]
    else:
        score = [0, 162 + roem[1] + pit[1] + (0 if options.get("nat_roem") == "own" else roem[0])]
    return total, [score[team(s)] for s in range(4)]


# ---- random play -----------------------------------------------------------------------------
def play_out(options, seed, dealer, rng):
    """A whole seeded deal with random legal actions; checks every step against ref_legal."""
    game = games.get("klaverjas", options)
    rotterdam = game.options.ruleset == "rotterdam"
    state = game.deal(seed=seed, dealer=dealer)
    hands = [list(h) for h in state.hands]
    trump, trick, leader = None, [], (dealer + 1) % 4
    while not state.is_over():
        seat = state.to_act()
        legal = state.legal_actions()
        assert seat is not None and legal, "a seat to act always has a legal action"
        assert all(a["seat"] == seat for a in legal)
        said = state.actions and state.actions[-1]["type"] == "announce" and state.actions[-1]["call"] == "stuk"
        if legal[0]["type"] == "play":
            mine = {a["card"] for a in legal if a["type"] == "play"}
            if said:                            # the card said with the stuk, one of the legal ones
                assert len(mine) == 1 and mine <= ref_legal(hands[seat], trick, leader, trump, rotterdam)
            else:
                assert mine == ref_legal(hands[seat], trick, leader, trump, rotterdam), (hands[seat], trick)
            for c in hands[seat]:
                a = {"seat": seat, "type": "play", "card": c}
                assert (state.why_illegal(a) is None) == (c in mine)
        action = rng.choice(legal)
        state.apply(action)
        if action["type"] == "bid" and action["call"] == "trump":
            trump = action["suit"]
        elif action["type"] == "play":
            hands[seat].remove(action["card"])
            trick.append(action["card"])
            if len(trick) == 4:
                leader = ref_winner(trick, leader, trump)
                trick = []
    return game, state


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3),
       play_seed=st.integers(0, 2**32))
def test_random_deals_follow_the_rules(opts, seed, dealer, play_seed):
    game, state = play_out(opts, seed, dealer, random.Random(play_seed))
    res = state.result()
    options = game.options.as_dict()
    # every card once, tricks chain from eldest, winners per rules 4.1
    played = [c for _, t, _ in res["tricks"] for c in t]
    assert len(res["tricks"]) == 8 and sorted(played) == sorted(sum(state.hands, []))
    leader = (dealer + 1) % 4
    for lead, trick, winner in res["tricks"]:
        assert lead == leader and winner == ref_winner(trick, lead, res["contract"]["trump"])
        leader = winner
    # 162 card points; partners equal; the scoring recomputed independently
    assert sum(res["card_points"]) == 162
    assert res["scores"][0] == res["scores"][2] and res["scores"][1] == res["scores"][3]
    total, scores = ref_score(res, options, state.actions)
    assert res["team_totals"] == total and res["scores"] == scores
    roem = sum(b["value"] for b in res["breakdown"] if b["item"].startswith("roem"))
    pit = sum(b["value"] for b in res["breakdown"] if b["item"] == "pit")
    assert sum(res["team_totals"]) == 162 + roem + pit
    maker_team = [res["contract"]["maker"] % 2, res["contract"]["maker"] % 2 + 2]
    assert res["teams"][0] == maker_team
    if res["contract"]["outcome"] == "made":
        assert res["team_totals"][0] > res["team_totals"][1]
        bid = res["contract"].get("bid")
        assert bid is None or res["team_totals"][0] >= (162 if bid == "pit" else int(bid.split("_")[1]))
        assert res["scores"][maker_team[0]] == res["team_totals"][0]
    else:
        assert res["scores"][maker_team[0]] == 0
    # replay(record()) reproduces result and record
    again = records.replay(state.record())
    assert again.result() == res and again.record() == state.record()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), play_seed=st.integers(0, 2**32))
def test_views_never_show_hidden_cards(seed, play_seed):
    rng = random.Random(play_seed)
    state = games.get("klaverjas").deal(seed=seed, dealer=rng.randrange(4))
    steps = rng.randrange(38)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    seen = {c for _, t, _ in state.view(0).get("tricks", []) for c in t}
    if state.view(0).get("trick"):
        seen |= set(state.view(0)["trick"]["cards"])
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        hidden = {c for s in range(4) if s != seat for c in state.hands[s]} - seen
        text = repr(without_rule_tables({k: v for k, v in view.items() if k != "hand"}))
        assert not any(f"'{c}'" in text for c in hidden - set(view["hand"]))
        mine = [] if seat is None else state.game.deck.codes(state.core.hand(seat))
        assert sorted(view["hand"]) == sorted(mine)
        if state.is_over():
            assert state.result_for(seat) == state.result()


@settings(max_examples=200, deadline=None)
@given(opts=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3),
       play_seed=st.integers(0, 2**64 - 1))
def test_core_random_playouts_score_as_the_reading_of_rules_5(opts, seed, dealer, play_seed):
    """The engine's own random playout (Core.random_playout, the rule hooks' g_random) ends in
    a deal that the independent reading scores the same."""
    game = games.get("klaverjas", opts)
    core = game.deal(seed=seed, dealer=dealer).core
    hands = [game.deck.codes(core.hand(s)) for s in range(4)]
    again = game.deal(seed=seed, dealer=dealer)
    for code in core.random_actions(play_seed):        # the same playout, as record actions
        again.apply_code(code)
    scores = core.random_playout(play_seed)
    res = core.result()
    trump, rotterdam = res["contract"]["trump"], game.options.ruleset == "rotterdam"
    leader = (dealer + 1) % 4
    for lead, trick, winner in res["tricks"]:
        assert lead == leader and winner == ref_winner(trick, lead, trump)
        for i, c in enumerate(trick):
            seat = (lead + i) % 4
            assert c in ref_legal(hands[seat], trick[:i], lead, trump, rotterdam)
            hands[seat].remove(c)
        leader = winner
    total, ref_scores = ref_score(res, game.options.as_dict(), again.actions)
    assert res["team_totals"] == total and res["scores"] == ref_scores == scores


@settings(max_examples=200, deadline=None)
@given(cards=st.permutations([r + s for s in "CSHD" for r in "ATKQJ987"]), trump=st.sampled_from("CSHD"))
def test_trick_roem_matches_the_reading_of_the_table(cards, trump):
    from engine_core.games.klaverjas.rules import trick_roem
    trick = cards[:4]
    assert sum(v for _, v in trick_roem(trick, trump)) == ref_roem(trick, trump)


@settings(max_examples=300, deadline=None)
@given(cards=st.permutations([r + s for s in "CSHD" for r in "ATKQJ987"]), trump=st.sampled_from("CSHD"),
       n_trick=st.integers(0, 3), n_hand=st.integers(1, 8), leader=st.integers(0, 3),
       ruleset=st.sampled_from(["amsterdam", "rotterdam", "utrecht"]))
def test_legal_cards_on_arbitrary_positions(cards, trump, n_trick, n_hand, leader, ruleset):
    from engine_core.games.klaverjas.rules import legal_cards
    trick, hand = cards[:n_trick], cards[n_trick:n_trick + n_hand]
    got = set(legal_cards(hand, trick, trump, ruleset, leader))
    assert got and got == ref_legal(hand, trick, leader, trump, ruleset == "rotterdam")
