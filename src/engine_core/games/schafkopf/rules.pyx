# cython: language_level=3
"""Schafkopf's rule hooks (typed, nogil) over card masks; the engine around them is the shared
`_engine.pxi`, included at the end. The rules as implemented: docs/rules/schafkopf.md.

Auction: one round from forehand, each seat passes or names a strictly higher complete
contract (rufspiel < bettel < farbgeier < farbwenz < geier < wenz < farbsolo < bettel_ouvert
< wenz_tout < solo_tout < sie; the club contracts Bettel, Geier, Farbwenz, Farbgeier and Bettel
ouvert only where their options are on); a Sie ends the deal at once. All pass: thrown in, a
Ramsch with option `ramsch`, or a Leaster (the Ramsch for fewest points) with option `leaster`. Option `kontra` adds a Kontra round
(defenders) and, after a kontra, a Re round (playing side), each doubling.
Play: follow the led effective suit, no duty to trump; a Rufspiel partner is bound by the
called ace until its suit is first led (must play it then; may lead the suit without it only
with 4+ cards; may not discard it before the 8th trick). A Tout ends at the first trick the
declarer loses, a Bettel at the first trick he wins (Bettel ouvert: his hand is shown once the
first trick is complete). Option `caller_keeps_called_suit`: the caller may not discard his
last card of the called suit before it is led.
Scoring: 61 wins (60:60 loses); Laufende from 3 (2 in Wenz) mit or ohne; schneider (<= 30,
or the official 91/90) and schwarz; Tout doubles base and Laufende; Sie = 4 x solo tariff;
Ramsch: most points pays, Jungfrau doubles, Durchmarsch takes the solo tariff.
Option `klopfen`: before the auction a knocking round from forehand on the first four cards
(the rest of each hand unseen: DealPlan.sight_phase); each knock doubles the deal's value,
whatever is played (not the Stock's stake or pot).
"""
from libc.string cimport memset
from engine_core._bits cimport append_bits, u64, i64, int8_t, int16_t, uint8_t, popcount, lowest, bit, nth_bit
from engine_core._rng cimport Rng, rng_below, pick_bit
from engine_core._order cimport (Order, TRUMP, mask_points, order_init,
                                 order_add_trumps, order_add_plain)
from engine_core._game cimport (CALL_BASE, A_BID, A_ANNOUNCE, A_PLAY, BIDS_CHEAPEST, Score, Result,
                                DealPlan, add_item, contract_field, extra_field, IF_COUNT, IF_VALUE,
                                IF_FACTOR, IF_LOSERS, V_SUIT, V_OPT_INT, V_SEATS)
from engine_core._result cimport Names, render_contract
from engine_core._names import names, calls
from engine_core.cards import PIQUET, SUITS, SUIT_NAMES


# ---- names, declared once (Python names are derived from these enums) ----
cpdef enum Contract:
    K_NONE
    K_RUFSPIEL
    K_WENZ
    K_FARBSOLO
    K_WENZ_TOUT
    K_SOLO_TOUT
    K_SIE
    K_RAMSCH
    K_THROWN_IN
    K_GEIER             # the club contracts (options), numbered after the seed's ones
    K_FARBWENZ
    K_FARBGEIER
    K_BETTEL
    K_BETTEL_OUVERT
    K_LEASTER           # option leaster: the Ramsch played for fewest points

cpdef enum Phase:
    P_AUCTION
    P_KONTRA
    P_RE
    P_PLAY
    P_OVER
    P_KLOPFEN           # option klopfen: the knocking round after the first four cards

# a call's code is CALL_BASE + value; the seed's bids are numbered by auction rank, the club
# contracts' bids follow the announcements (RANKED_CALLS is the auction order of them all)
cpdef enum Call:
    BID_PASS
    BID_RUFSPIEL_C
    BID_RUFSPIEL_S
    BID_RUFSPIEL_H
    BID_RUFSPIEL_D
    BID_WENZ
    BID_FARBSOLO_C
    BID_FARBSOLO_S
    BID_FARBSOLO_H
    BID_FARBSOLO_D
    BID_WENZ_TOUT
    BID_SOLO_TOUT_C
    BID_SOLO_TOUT_S
    BID_SOLO_TOUT_H
    BID_SOLO_TOUT_D
    BID_SIE
    ANNOUNCE_PASS
    ANNOUNCE_KONTRA
    ANNOUNCE_RE
    BID_GEIER
    BID_FARBWENZ_C
    BID_FARBWENZ_S
    BID_FARBWENZ_H
    BID_FARBWENZ_D
    BID_FARBGEIER_C
    BID_FARBGEIER_S
    BID_FARBGEIER_H
    BID_FARBGEIER_D
    BID_BETTEL
    BID_BETTEL_OUVERT
    ANNOUNCE_KLOPFEN    # option klopfen: a knock in the knocking round, x2 each

cpdef enum Item:
    I_GAME
    I_LAUFENDE
    I_TOUT
    I_SCHNEIDER
    I_SCHWARZ
    I_SIE
    I_KONTRA
    I_RE
    I_RAMSCH
    I_JUNGFRAU
    I_DURCHMARSCH
    I_TOTAL
    I_BETTEL
    I_OUVERT
    I_LEASTER
    I_STOCK_IN          # option stock: each player's stake paid into the pot (a thrown-in deal)
    I_STOCK_OUT         # the pot taken by the playing side that won the next played game
    I_KLOPFEN           # option klopfen: the knocks (count) and their factor 2^count

# the keys of the game's own contract and result fields
cpdef enum Word:
    W_SUIT
    W_PARTNER
    W_KONTRA
    W_RE
    W_WINNERS

DECK = PIQUET
CONTRACTS = names(Contract, "K_")
PHASE_NAMES = names(Phase, "P_")
CALL_TABLE = calls(Call)
EXCHANGES = ()                  # Schafkopf has no exchanges
cdef Names _NAMES = Names(CONTRACTS, names(Item, "I_"), names(Word, "W_"), PIQUET.faces, 4)
NAMES = _NAMES

# ---- the C state ----
cdef enum:
    G_SEATS = 4
    G_HAND = 8
    G_BLIND = 0
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 52          # 4 knocks, 4 bids, 8 announcements, 32 cards
    G_BIDS = 3                  # uniform and cheapest

cdef struct SkOpts:
    DealPlan deal
    i64 tariff_rufspiel, tariff_solo, tariff_increment
    bint ramsch, kontra, schneider_official, caller_keeps, leaster, klopfen
    i64 stock, stock_pot        # the Stock's stake (0: off) and the pot carried into the deal
    u64 offered                 # bit per Contract that may be bid (the club ones by option)
    u64 offered_bids            # the positions in RANKED_CALLS of those contracts' calls

cdef struct SkState:
    u64 hand[4]
    u64 dealt[4]
    u64 won[4]
    int8_t n_won[4]
    int8_t dealer, to_act, phase, n_spoken
    int8_t best_call, best_seat
    int8_t contract, suit, declarer, partner, order
    int8_t kontra, re, called_led
    int8_t knocked              # seat mask of the seats that knocked (option klopfen)
    int8_t trick_no, n_in_trick, leader
    int8_t led                  # effective suit of the trick in play's lead, -1 before it
    u64 follow                  # the led suit's cards (all cards before the lead): set once a trick
    int8_t trick[8][4]
    int8_t trick_leader[8]
    int8_t trick_winner[8]

ctypedef SkState GState
ctypedef SkOpts GOpts

# ---- cards: index rank + 8 * suit, ranks A T K Q J 9 8 7, suits C S H D ----
cdef enum:
    ACE = 0
    TEN = 1
    KING = 2
    OBER = 3
    UNTER = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7
    HEARTS = 2
    O_WENZ = 4       # ORDERS[0..3]: that suit trumps (hearts: Rufspiel, Ramsch); [4]: Wenz
    O_GEIER = 5
    O_FARBWENZ = 6   # [6..9]: the Unters and that suit trumps
    O_FARBGEIER = 10 # [10..13]: the Obers and that suit trumps
    O_BETTEL = 14    # no trumps, A K O U 10 9 8 7
    N_ORDERS = 15

cdef int8_t POINTS[32]
cdef int16_t BYTE_POINTS[256]      # card points of a suit's byte of a mask (rank bits A T K Q J 9 8 7)
cdef u64 OBERS_UNTERS = 0
cdef Order ORDERS[N_ORDERS]
# KEY[order][led][card]: how the card bids for a trick led in that effective suit (64 + power
# for a trump, the power for the led suit, 0 for a card that cannot win), ORDERS as one table
# lookup so that the trick winner is a branch-free maximum
cdef uint8_t KEY[N_ORDERS][5][32]
cdef int8_t NO_POINTS[32]          # a Bettel's point table: card points do not count


cdef inline int card(int rank, int suit) noexcept nogil:
    return rank + 8 * suit


cdef void _one_rank_order(Order* o, int top, int suit):
    """Wenz (top = Unter) and Geier (Ober): the four of that rank are the trumps, then with a
    `suit` (Farbwenz, Farbgeier) that suit's other cards; every other card ranks in its suit
    A 10 K O U 9 8 7 without the trump rank."""
    cdef int8_t trumps[11]
    cdef int8_t plain[7]
    cdef int s, n = 0, m
    ranks = [r for r in (ACE, TEN, KING, OBER, UNTER, NINE, EIGHT, SEVEN) if r != top]
    order_init(o)
    for s in range(4):
        trumps[n] = card(top, s); n += 1
    if suit >= 0:
        for r in ranks:
            trumps[n] = card(r, suit); n += 1
    order_add_trumps(o, trumps, n)
    for s in range(4):
        if s != suit:
            m = 0
            for r in ranks:
                plain[m] = card(r, s); m += 1
            order_add_plain(o, s, plain, m)


cdef void _build_tables():
    global OBERS_UNTERS
    cdef int8_t trumps[14]
    cdef int8_t plain[8]
    cdef int8_t ranks_plain[6]
    cdef int s, t, i, n
    for i, r in enumerate((ACE, TEN, KING, NINE, EIGHT, SEVEN)):
        ranks_plain[i] = r
    for i in range(32):
        POINTS[i] = (11, 10, 4, 3, 2, 0, 0, 0)[i % 8]
    for i in range(256):
        BYTE_POINTS[i] = sum((11, 10, 4, 3, 2, 0, 0, 0)[r] for r in range(8) if i >> r & 1)
    for s in range(4):
        OBERS_UNTERS |= bit(card(OBER, s)) | bit(card(UNTER, s))
    for t in range(4):
        order_init(&ORDERS[t])
        n = 0
        for s in range(4):
            trumps[n] = card(OBER, s); n += 1
        for s in range(4):
            trumps[n] = card(UNTER, s); n += 1
        for i in range(6):
            trumps[n] = card(ranks_plain[i], t); n += 1
        order_add_trumps(&ORDERS[t], trumps, n)
        for s in range(4):
            if s != t:
                for i in range(6):
                    plain[i] = card(ranks_plain[i], s)
                order_add_plain(&ORDERS[t], s, plain, 6)
    _one_rank_order(&ORDERS[O_WENZ], UNTER, -1)
    _one_rank_order(&ORDERS[O_GEIER], OBER, -1)
    for t in range(4):
        _one_rank_order(&ORDERS[O_FARBWENZ + t], UNTER, t)
        _one_rank_order(&ORDERS[O_FARBGEIER + t], OBER, t)
    order_init(&ORDERS[O_BETTEL])
    for s in range(4):
        for i, r in enumerate((ACE, KING, OBER, UNTER, TEN, NINE, EIGHT, SEVEN)):
            plain[i] = card(r, s)
        order_add_plain(&ORDERS[O_BETTEL], s, plain, 8)
    for i in range(32):
        NO_POINTS[i] = 0
    for t in range(N_ORDERS):
        for s in range(5):
            for i in range(32):
                if ORDERS[t].eff_suit[i] == TRUMP:
                    KEY[t][s][i] = 64 + ORDERS[t].power[i]
                elif ORDERS[t].eff_suit[i] == s:
                    KEY[t][s][i] = ORDERS[t].power[i]
                else:
                    KEY[t][s][i] = 0

_build_tables()



cdef int g_opts(options, SkOpts* out) except -1:
    """The C options of resolved Options (ranges are checked by the option table)."""
    cdef int i
    out.tariff_rufspiel = options.tariff_rufspiel
    out.tariff_solo = options.tariff_solo
    out.tariff_increment = options.tariff_increment
    out.ramsch = options.ramsch
    out.kontra = options.kontra
    out.schneider_official = options.schneider_rule == "official"
    out.caller_keeps = options.caller_keeps_called_suit
    out.leaster = options.leaster
    out.klopfen = options.klopfen
    if out.klopfen:             # the knocking round is played on the first four cards only
        out.deal.sight_phase = P_KLOPFEN
    out.stock = options.stock
    out.stock_pot = options.stock_pot
    out.offered = SEED_CONTRACTS
    for k, name in CLUB_CONTRACTS.items():
        if getattr(options, name):
            out.offered |= bit(k)
    out.offered_bids = 0
    for i in range(N_RANKED):
        if out.offered >> _call_contract(RANKED_CALLS[i]) & 1:
            out.offered_bids |= bit(i)
    return 0


# the contracts every table plays, and the club contracts with the option that offers each
cdef u64 SEED_CONTRACTS = (bit(K_RUFSPIEL) | bit(K_WENZ) | bit(K_FARBSOLO) | bit(K_WENZ_TOUT)
                           | bit(K_SOLO_TOUT) | bit(K_SIE))
CLUB_CONTRACTS = {K_GEIER: "geier", K_FARBWENZ: "farbwenz", K_FARBGEIER: "farbgeier",
                  K_BETTEL: "bettel", K_BETTEL_OUVERT: "bettel_ouvert"}


# ---- the auction ----
cdef inline int call_contract(int call) noexcept nogil:
    """The contract a bid names, K_NONE for pass and announcements (CALL_CONTRACT: this,
    tabled)."""
    return CALL_CONTRACT[call]


cdef int _call_contract(int call) noexcept nogil:
    """The contract a bid names, K_NONE for pass and announcements."""
    if call >= BID_RUFSPIEL_C and call < BID_WENZ:
        return K_RUFSPIEL
    if call == BID_WENZ:
        return K_WENZ
    if call >= BID_FARBSOLO_C and call < BID_WENZ_TOUT:
        return K_FARBSOLO
    if call == BID_WENZ_TOUT:
        return K_WENZ_TOUT
    if call >= BID_SOLO_TOUT_C and call < BID_SIE:
        return K_SOLO_TOUT
    if call == BID_SIE:
        return K_SIE
    if call == BID_GEIER:
        return K_GEIER
    if call >= BID_FARBWENZ_C and call < BID_FARBGEIER_C:
        return K_FARBWENZ
    if call >= BID_FARBGEIER_C and call < BID_BETTEL:
        return K_FARBGEIER
    if call == BID_BETTEL:
        return K_BETTEL
    if call == BID_BETTEL_OUVERT:
        return K_BETTEL_OUVERT
    return K_NONE


cdef inline int call_suit(int call) noexcept nogil:
    """The suit a bid names (0..3 = C S H D), -1 for none."""
    cdef int k = call_contract(call)
    if k == K_RUFSPIEL:
        return call - BID_RUFSPIEL_C
    if k == K_FARBSOLO:
        return call - BID_FARBSOLO_C
    if k == K_SOLO_TOUT:
        return call - BID_SOLO_TOUT_C
    if k == K_FARBWENZ:
        return call - BID_FARBWENZ_C
    if k == K_FARBGEIER:
        return call - BID_FARBGEIER_C
    return -1


# the auction rank of each contract (docs/rules/schafkopf.md 3): higher outbids lower, equal
# ranks keep the earlier seat; 0 for what is never bid
cdef int RANK[16]
RANK[:] = [0] * 16
for _k, _r in ((K_RUFSPIEL, 1), (K_BETTEL, 2), (K_FARBGEIER, 3), (K_FARBWENZ, 4), (K_GEIER, 5),
               (K_WENZ, 6), (K_FARBSOLO, 7), (K_BETTEL_OUVERT, 8), (K_WENZ_TOUT, 9),
               (K_SOLO_TOUT, 10), (K_SIE, 11)):
    RANK[_k] = _r

# every bid in auction order (ascending rank; a rank's suits C S H D)
cdef enum:
    N_RANKED = 26
cdef int RANKED_CALLS[N_RANKED]
RANKED_CALLS[:] = [BID_RUFSPIEL_C, BID_RUFSPIEL_S, BID_RUFSPIEL_H, BID_RUFSPIEL_D, BID_BETTEL,
                   BID_FARBGEIER_C, BID_FARBGEIER_S, BID_FARBGEIER_H, BID_FARBGEIER_D,
                   BID_FARBWENZ_C, BID_FARBWENZ_S, BID_FARBWENZ_H, BID_FARBWENZ_D, BID_GEIER,
                   BID_WENZ, BID_FARBSOLO_C, BID_FARBSOLO_S, BID_FARBSOLO_H, BID_FARBSOLO_D,
                   BID_BETTEL_OUVERT, BID_WENZ_TOUT, BID_SOLO_TOUT_C, BID_SOLO_TOUT_S,
                   BID_SOLO_TOUT_H, BID_SOLO_TOUT_D, BID_SIE]


cdef int CALL_CONTRACT[64]
for _c in range(64):
    CALL_CONTRACT[_c] = _call_contract(_c)
# masks of positions in RANKED_CALLS: ranks above r, of rank r, the Rufspiel calls, the Sie
cdef u64 RANKED_ABOVE[12]
cdef u64 RANKED_OF_RANK[12]
cdef u64 RANKED_RUFSPIEL = 0
cdef u64 RANKED_SIE = 0
for _r in range(12):
    RANKED_ABOVE[_r] = sum(1 << _i for _i in range(N_RANKED) if RANK[_call_contract(RANKED_CALLS[_i])] > _r)
    RANKED_OF_RANK[_r] = sum(1 << _i for _i in range(N_RANKED) if RANK[_call_contract(RANKED_CALLS[_i])] == _r)
for _i in range(N_RANKED):
    if _call_contract(RANKED_CALLS[_i]) == K_RUFSPIEL:
        RANKED_RUFSPIEL |= bit(_i)
        assert RANKED_CALLS[_i] - BID_RUFSPIEL_C == _i      # position = suit (auction_bids)
    elif _call_contract(RANKED_CALLS[_i]) == K_SIE:
        RANKED_SIE |= bit(_i)


cdef inline int call_rank(int call) noexcept nogil:
    """The auction rank of the contract a bid names (0 for pass and announcements)."""
    return RANK[call_contract(call)]


cdef inline bint is_tout(int contract) noexcept nogil:
    return contract == K_WENZ_TOUT or contract == K_SOLO_TOUT


cdef inline bint is_bettel(int contract) noexcept nogil:
    return contract == K_BETTEL or contract == K_BETTEL_OUVERT


cdef inline bint everyone_alone(int contract) noexcept nogil:
    """A Ramsch or a Leaster: nobody declared, each plays for himself."""
    return contract == K_RAMSCH or contract == K_LEASTER


cdef inline bint on_playing_side(const SkState* s, int seat) noexcept nogil:
    return seat == s.declarer or seat == s.partner


cdef inline bint can_call_ace(u64 hand, int suit) noexcept nogil:
    """Rufspiel on `suit` (not hearts): a non-trump card of the suit, but not its ace (2.3)."""
    return (suit != HEARTS and (hand & ORDERS[HEARTS].suit_mask[suit]) != 0
            and not (hand & bit(card(ACE, suit))))


cdef inline bint bound(const SkState* s, int seat) noexcept nogil:
    """The Rufspiel partner's duties last until the called suit has first been led."""
    return s.contract == K_RUFSPIEL and seat == s.partner and not s.called_led


# ---- hooks ----
cdef void g_init(SkState* s, const SkOpts* o, const u64* hands, u64 blind, int dealer) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(SkState))
    for i in range(4):
        s.hand[i] = hands[i]
        s.dealt[i] = hands[i]
    s.dealer = dealer
    s.to_act = (dealer + 1) % 4
    s.phase = P_KLOPFEN if o.klopfen else P_AUCTION
    s.best_call = -1
    s.best_seat = -1
    s.contract = K_NONE
    s.suit = -1
    s.declarer = -1
    s.partner = -1
    s.order = HEARTS
    s.kontra = -1
    s.re = -1
    s.leader = s.to_act
    s.led = -1
    s.follow = <u64>-1


cdef inline int g_kinds(const SkState* s) noexcept nogil:
    if s.phase == P_KLOPFEN:
        return A_ANNOUNCE
    if s.phase == P_AUCTION:
        return A_BID
    if s.phase == P_PLAY:
        return A_PLAY
    if s.phase == P_OVER:
        return 0
    return A_ANNOUNCE


cdef inline const Order* g_order(const SkState* s) noexcept nogil:
    return &ORDERS[s.order]


cdef inline u64 g_legal_cards(const SkState* s, const SkOpts* o) noexcept nogil:
    """Legal cards of the seat to act (rules 4.3); 0 outside the play phase. Follow the led
    suit if you can (s.follow is every card before the lead); the bound partner's duties on top."""
    cdef u64 hand, m
    if s.phase != P_PLAY:
        return 0
    hand = s.hand[s.to_act]
    m = hand & s.follow
    m |= hand & (<u64>0 - <u64>(m == 0))          # follow if you can, else anything
    if bound(s, s.to_act):
        return bound_cards(s, hand, m)
    if o.caller_keeps and keeps_called(s, s.to_act, hand):
        return m & ~ORDERS[HEARTS].suit_mask[s.suit]
    return m


cdef inline bint keeps_called(const SkState* s, int seat, u64 hand) noexcept nogil:
    """Option `caller_keeps_called_suit`: the caller, void in the suit led before the called
    suit has been led, may not discard his last card of the called suit (unless it is his only
    card)."""
    cdef u64 called
    if s.contract != K_RUFSPIEL or seat != s.declarer or s.called_led or s.n_in_trick == 0:
        return False
    if hand & s.follow:
        return False
    called = hand & ORDERS[HEARTS].suit_mask[s.suit]
    return popcount(called) == 1 and hand != called


cdef u64 bound_cards(const SkState* s, u64 hand, u64 m) noexcept nogil:
    """The Rufspiel partner's legal cards while bound (rules 4.3), `m` = the follow rule's:
    lead the called suit only with the ace (fewer than 4 of it), play the ace when the suit is
    first led, keep it to the last trick otherwise."""
    cdef u64 ace = bit(card(ACE, s.suit))
    cdef u64 called = ORDERS[s.order].suit_mask[s.suit]
    if s.n_in_trick == 0:
        if popcount(hand & called) < 4:
            return hand & ~(called & ~ace)
        return hand
    if hand & s.follow:
        return ace if s.led == s.suit else m
    if s.trick_no < 7:
        return hand & ~ace
    return hand


cdef inline u64 auction_bids(const SkState* s, const SkOpts* o, bint cheapest) noexcept nogil:
    """The bids open to the speaker in the auction, as a mask of positions in RANKED_CALLS:
    every offered call that outbids the best so far (a Rufspiel only on an ace he may call, a
    Sie only with all Obers and Unters); `cheapest`: only those of the lowest such contract."""
    cdef int best = call_rank(s.best_call) if s.best_call >= 0 else 0
    cdef u64 hand = s.hand[s.to_act]
    cdef u64 m = o.offered_bids & RANKED_ABOVE[best]
    cdef u64 aces = 0
    cdef int suit
    if m & RANKED_RUFSPIEL:
        for suit in range(4):
            if can_call_ace(hand, suit):
                aces |= bit(suit)           # positions 0..3: the Rufspiel calls C S H D
        m &= ~RANKED_RUFSPIEL | aces
    if (hand & OBERS_UNTERS) != OBERS_UNTERS:
        m &= ~RANKED_SIE
    if cheapest and m:
        m &= RANKED_OF_RANK[RANK[call_contract(RANKED_CALLS[lowest(m)])]]
    return m


cdef inline int auction_calls(const SkState* s, const SkOpts* o, i64* out, bint cheapest) noexcept nogil:
    """The legal codes of the speaker in the auction: pass, then every call that outbids the
    best so far, in auction order (auction_bids); `cheapest`: only those of the lowest contract
    open to him."""
    cdef int n = 1
    cdef u64 m = auction_bids(s, o, cheapest)
    out[0] = CALL_BASE + BID_PASS
    while m:
        out[n] = CALL_BASE + RANKED_CALLS[lowest(m)]
        n += 1
        m &= m - 1
    return n


cdef int g_legal(const SkState* s, const SkOpts* o, i64* out) noexcept nogil:
    cdef int n = 0, seat = s.to_act
    if s.phase == P_PLAY:
        n = append_bits(g_legal_cards(s, o), out, n)
    elif s.phase == P_KLOPFEN:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        out[1] = CALL_BASE + ANNOUNCE_KLOPFEN
        n = 2
    elif s.phase == P_AUCTION:
        n = auction_calls(s, o, out, False)
    elif s.phase == P_KONTRA:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        n = 1
        if s.kontra < 0 and not on_playing_side(s, seat):
            out[1] = CALL_BASE + ANNOUNCE_KONTRA
            n = 2
    elif s.phase == P_RE:
        out[0] = CALL_BASE + ANNOUNCE_PASS
        n = 1
        if s.re < 0 and on_playing_side(s, seat):
            out[1] = CALL_BASE + ANNOUNCE_RE
            n = 2
    return n


cdef inline void start_play(SkState* s) noexcept nogil:
    s.phase = P_PLAY
    s.to_act = (s.dealer + 1) % 4
    s.leader = s.to_act
    s.n_spoken = 0
    s.led = -1
    s.follow = <u64>-1


cdef void settle_auction(SkState* s, const SkOpts* o) noexcept nogil:
    cdef int call = s.best_call, i
    if call < 0:
        if o.ramsch or o.leaster:
            s.contract = K_LEASTER if o.leaster else K_RAMSCH
            s.order = HEARTS
            start_play(s)
        else:
            s.contract = K_THROWN_IN
            s.phase = P_OVER
            s.to_act = -1
        return
    s.contract = call_contract(call)
    s.declarer = s.best_seat
    s.suit = call_suit(call)
    if s.contract == K_RUFSPIEL:
        s.order = HEARTS
        for i in range(4):
            if s.dealt[i] & bit(card(ACE, s.suit)):
                s.partner = i
    elif s.contract == K_FARBSOLO or s.contract == K_SOLO_TOUT:
        s.order = s.suit
    elif s.contract == K_FARBWENZ:
        s.order = O_FARBWENZ + s.suit
    elif s.contract == K_FARBGEIER:
        s.order = O_FARBGEIER + s.suit
    elif s.contract == K_GEIER:
        s.order = O_GEIER
    elif is_bettel(s.contract):
        s.order = O_BETTEL
    else:
        s.order = O_WENZ
    if o.kontra:
        s.phase = P_KONTRA
        s.to_act = (s.dealer + 1) % 4
        s.n_spoken = 0
    else:
        start_play(s)


cdef inline int trick_winner_pos(const SkState* s) noexcept nogil:
    """Position (0..3) of the winning card of the full trick in play: the highest KEY."""
    cdef const int8_t* cards = s.trick[s.trick_no]
    cdef const uint8_t* key = KEY[s.order][s.led]
    cdef int best = 0, best_v = key[cards[0]]
    cdef int i, v
    for i in range(1, 4):          # branch-free: strictly higher wins
        v = key[cards[i]]
        best = i if v > best_v else best
        best_v = v if v > best_v else best_v
    return best


cdef inline void play_card(SkState* s, int c) noexcept nogil:
    cdef int seat = s.to_act, n = s.n_in_trick, winner
    cdef const int8_t* cards
    s.hand[seat] &= ~bit(c)
    s.trick[s.trick_no][n] = <int8_t>c
    if n == 0:                     # the lead sets the suit to follow
        s.led = ORDERS[s.order].eff_suit[c]
        s.follow = ORDERS[s.order].suit_mask[s.led]
    s.n_in_trick = n + 1
    if n < 3:
        s.to_act = (seat + 1) & 3
        return
    cards = s.trick[s.trick_no]
    winner = (s.leader + trick_winner_pos(s)) & 3
    s.trick_leader[s.trick_no] = s.leader
    s.trick_winner[s.trick_no] = winner
    s.won[winner] |= bit(cards[0]) | bit(cards[1]) | bit(cards[2]) | bit(cards[3])
    s.n_won[winner] += 1
    if s.contract == K_RUFSPIEL and s.led == s.suit:
        s.called_led = 1
    s.trick_no += 1
    s.n_in_trick = 0
    s.led = -1
    s.follow = <u64>-1
    s.leader = winner
    s.to_act = winner
    if (s.trick_no == 8 or (is_tout(s.contract) and winner != s.declarer)
            or (is_bettel(s.contract) and winner == s.declarer)):
        s.phase = P_OVER
        s.to_act = -1


cdef inline i64 g_interjection(const SkState* s, const SkOpts* o, int seat) noexcept nogil:
    """No action out of turn in this game: every action is the seat to act's (-1)."""
    return -1


cdef inline void g_interject(SkState* s, const SkOpts* o, int seat, i64 code) noexcept nogil:
    pass


cdef inline void g_apply(SkState* s, const SkOpts* o, i64 code) noexcept nogil:
    """Apply a legal action code (legality is the caller's check)."""
    cdef int seat = s.to_act, call
    if code < CALL_BASE:
        play_card(s, <int>code)
        return
    call = <int>(code - CALL_BASE)
    if s.phase == P_KLOPFEN:    # each seat once, from forehand; then the auction from forehand
        if call == ANNOUNCE_KLOPFEN:
            s.knocked |= 1 << seat
        s.n_spoken += 1
        s.to_act = (seat + 1) % 4
        if s.n_spoken == 4:
            s.phase = P_AUCTION
            s.n_spoken = 0
        return
    if s.phase == P_AUCTION:
        if call != BID_PASS:
            s.best_call = call
            s.best_seat = seat
            if call == BID_SIE:
                s.contract = K_SIE
                s.declarer = seat
                s.phase = P_OVER
                s.to_act = -1
                return
        s.n_spoken += 1
        s.to_act = (seat + 1) % 4
        if s.n_spoken == 4:
            settle_auction(s, o)
        return
    if call == ANNOUNCE_KONTRA:
        s.kontra = seat
    elif call == ANNOUNCE_RE:
        s.re = seat
    s.n_spoken += 1
    s.to_act = (seat + 1) % 4
    if s.n_spoken == 4:
        if s.phase == P_KONTRA and s.kontra >= 0:
            s.phase = P_RE
            s.n_spoken = 0
        else:
            start_play(s)


cdef inline i64 g_random(const SkState* s, const SkOpts* o, Rng* r, int bids) noexcept nogil:
    """A random legal action: cards uniformly; in the auction (auction_bids, the legal calls
    after pass) uniformly, or with BIDS_CHEAPEST pass or (50:50) one of the cheapest contract's
    calls open to the speaker."""
    cdef i64 buf[64]
    cdef int n
    cdef u64 m
    if s.phase == P_PLAY:
        return pick_bit(r, g_legal_cards(s, o))
    if s.phase == P_AUCTION:
        m = auction_bids(s, o, bids == BIDS_CHEAPEST)
        n = popcount(m)
        if n == 0:
            return CALL_BASE + BID_PASS
        if bids == BIDS_CHEAPEST:
            if rng_below(r, 2) == 0:
                return CALL_BASE + BID_PASS
            return CALL_BASE + RANKED_CALLS[nth_bit(m, rng_below(r, n)) if n > 1 else lowest(m)]
        n = rng_below(r, n + 1)             # pass is the first of the n + 1 legal calls
        return CALL_BASE + (RANKED_CALLS[nth_bit(m, n - 1)] if n else BID_PASS)
    n = g_legal(s, o, buf)
    return buf[rng_below(r, n)] if n > 1 else buf[0]


# ---- scoring ----
cdef int laufende(const SkState* s, u64 side) noexcept nogil:
    """Consecutive top trumps (dealt hands) held by the side holding the top trump (5.3)."""
    cdef const Order* order = &ORDERS[s.order]
    cdef bint mit = (side & bit(order.trump_seq[0])) != 0
    cdef int n = 0
    while n < order.n_trumps and ((side & bit(order.trump_seq[n])) != 0) == mit:
        n += 1
    if n < (2 if s.order == O_WENZ or s.order == O_GEIER else 3):
        return 0
    return n


cdef struct SkTally:          # the intermediate figures of scoring that the breakdown shows
    i64 base, value
    i64 stock_in, stock_out   # each player's stake paid into the Stock, the pot taken from it
    int laufende, schneider, schwarz, tout, ouvert
    int knocks                # option klopfen: the knocks, each doubling the value
    int losers, jungfrauen, durchmarsch


cdef void tally(const SkState* s, const SkOpts* o, Score* sc, SkTally* t) noexcept nogil:
    """Card points, per-seat scores and the figures behind them (rules 5)."""
    cdef int i, j, side_tricks = 0, loser_points, most = -1, n_losers = 0
    cdef u64 side = 0
    cdef i64 v = 0
    memset(t, 0, sizeof(SkTally))
    t.durchmarsch = -1
    t.knocks = popcount(<u64>s.knocked)
    start_score(sc, s, s.contract, s.declarer)
    for i in range(4):
        sc.card_points[i] = points_of(s.won[i])
    if s.contract == K_THROWN_IN:
        if s.phase == P_OVER and o.stock:         # all passed: each player pays into the Stock
            t.stock_in = o.stock
            for i in range(4):
                sc.scores[i] = -o.stock
        return
    if s.contract == K_LEASTER:
        leaster(s, o, sc, t)
        return
    if s.contract == K_RAMSCH:
        for i in range(4):
            if s.n_won[i] == 8:
                t.durchmarsch = i
                t.base = o.tariff_solo
                t.value = o.tariff_solo << t.knocks
                for j in range(4):
                    sc.scores[j] = 3 * t.value if j == i else -t.value
                return
        for i in range(4):
            if sc.card_points[i] > most:
                most = sc.card_points[i]
            if s.n_won[i] == 0:
                t.jungfrauen += 1
        for i in range(4):
            if sc.card_points[i] == most:
                t.losers |= 1 << i
                n_losers += 1
        t.base = o.tariff_rufspiel
        t.value = o.tariff_rufspiel << (t.jungfrauen + t.knocks)
        for i in range(4):
            sc.scores[i] = -t.value * (4 - n_losers) if t.losers >> i & 1 else t.value * n_losers
        return
    for i in range(4):
        if on_playing_side(s, i):
            sc.side |= 1 << i
    sc.side_points = 0
    if s.contract == K_SIE:
        t.base = o.tariff_solo
        sc.side_won = 1
        v = 4 * o.tariff_solo
    elif is_bettel(s.contract):
        t.base = o.tariff_solo
        t.ouvert = s.contract == K_BETTEL_OUVERT
        sc.side_points = sc.card_points[s.declarer]
        sc.side_won = s.n_won[s.declarer] == 0
        v = 2 * t.base if t.ouvert else t.base
    else:
        for i in range(4):
            if on_playing_side(s, i):
                side |= s.dealt[i]
                sc.side_points += sc.card_points[i]
                side_tricks += s.n_won[i]
        t.laufende = laufende(s, side)
        t.base = o.tariff_rufspiel if s.contract == K_RUFSPIEL else o.tariff_solo
        if is_tout(s.contract):
            t.tout = 1
            sc.side_won = side_tricks == 8
            v = 2 * (t.base + o.tariff_increment * t.laufende)
        else:
            sc.side_won = sc.side_points >= 61
            loser_points = (120 - sc.side_points) if sc.side_won else sc.side_points
            if o.schneider_official:
                t.schneider = (sc.side_points >= 91) if sc.side_won else (sc.side_points <= 30)
            else:
                t.schneider = loser_points <= 30
            t.schwarz = (side_tricks == 0) if not sc.side_won else (side_tricks == 8)
            if t.schwarz:
                t.schneider = 1
            v = t.base + o.tariff_increment * (t.laufende + t.schneider + t.schwarz)
    if s.kontra >= 0:
        v *= 2
    if s.re >= 0:
        v *= 2
    v <<= t.knocks
    t.value = v
    if not sc.side_won:
        v = -v
    for i in range(4):
        if s.contract == K_RUFSPIEL:
            sc.scores[i] = v if on_playing_side(s, i) else -v
        else:
            sc.scores[i] = 3 * v if i == s.declarer else -v
    if sc.side_won and o.stock_pot and s.phase == P_OVER:
        # the playing side that wins takes the Stock, shared evenly (a multiple of 4 stakes:
        # validate); a lost game leaves it for the next one (rules 7.9)
        t.stock_out = o.stock_pot
        for i in range(4):
            if on_playing_side(s, i):
                sc.scores[i] += o.stock_pot // popcount(sc.side)


cdef void leaster(const SkState* s, const SkOpts* o, Score* sc, SkTally* t) noexcept nogil:
    """A Leaster (rules 7.8): the winners are the players with the fewest card points among
    those who took a trick; every other player pays each winner `tariff_rufspiel`."""
    cdef int i, fewest = 1000, n_winners = 0
    for i in range(4):
        if s.n_won[i] and sc.card_points[i] < fewest:
            fewest = sc.card_points[i]
    for i in range(4):
        if s.n_won[i] and sc.card_points[i] == fewest:
            n_winners += 1
        else:
            t.losers |= 1 << i
    t.base = o.tariff_rufspiel
    t.value = o.tariff_rufspiel << t.knocks
    for i in range(4):
        sc.scores[i] = -t.value * n_winners if t.losers >> i & 1 else t.value * (4 - n_winners)


cdef inline void g_score(const SkState* s, const SkOpts* o, Score* sc) noexcept nogil:
    cdef SkTally t
    tally(s, o, sc, &t)


cdef inline int g_stat_contract(const SkState* s, const Score* sc) noexcept nogil:
    return s.contract


cdef void fill_contract(const SkState* s, Result* r, bint reveal_partner) noexcept nogil:
    """The contract object's fields (records.md): suit, partner (only once revealed), kontra, re."""
    cdef int k = s.contract
    r.score.contract = k
    r.score.declarer = s.declarer
    if s.suit >= 0:
        contract_field(r, W_SUIT, V_SUIT, s.suit)
    if k == K_RUFSPIEL:
        contract_field(r, W_PARTNER, V_OPT_INT, s.partner if reveal_partner else -1)
    if k != K_SIE and not everyone_alone(k) and k != K_THROWN_IN:
        contract_field(r, W_KONTRA, V_OPT_INT, s.kontra)
        contract_field(r, W_RE, V_OPT_INT, s.re)


cdef inline void add_knocks(Result* r, const SkTally* t) noexcept nogil:
    """Option klopfen: the knocks and their factor 2^knocks, when there were any (rules 3.2)."""
    if t.knocks:
        add_item(r, I_KLOPFEN, IF_COUNT | IF_FACTOR, 0, 0, t.knocks, 0, 1 << t.knocks, 0)


cdef void g_result(const SkState* s, const SkOpts* o, Result* r) noexcept nogil:
    """The Result: teams, winners and breakdown items in records.md order (rules 5, 6)."""
    cdef SkTally t
    cdef int i, winners = 0, k = s.contract
    cdef i64 inc = o.tariff_increment
    start_result(r)
    tally(s, o, &r.score, &t)
    fill_tricks(s, r)
    fill_contract(s, r, True)
    if k == K_LEASTER:
        r.n_teams = 4
        for i in range(4):
            r.teams[i] = 1 << i
        add_item(r, I_LEASTER, IF_VALUE | IF_LOSERS, 0, 0, 0, t.base, 0, t.losers)
        add_knocks(r, &t)
        add_item(r, I_TOTAL, IF_VALUE, 0, 0, 0, t.value, 0, 0)
        winners = 15 & ~t.losers
    elif k == K_RAMSCH:
        r.n_teams = 4
        for i in range(4):
            r.teams[i] = 1 << i
        if t.durchmarsch >= 0:
            add_item(r, I_DURCHMARSCH, IF_VALUE, 0, 0, 0, t.base, 0, 0)
            winners = 1 << t.durchmarsch
        else:
            add_item(r, I_RAMSCH, IF_VALUE | IF_LOSERS, 0, 0, 0, t.base, 0, t.losers)
            if t.jungfrauen:
                add_item(r, I_JUNGFRAU, IF_COUNT | IF_FACTOR, 0, 0, t.jungfrauen, 0, 1 << t.jungfrauen, 0)
            winners = 15 & ~t.losers
        add_knocks(r, &t)
        add_item(r, I_TOTAL, IF_VALUE, 0, 0, 0, t.value, 0, 0)
    elif k != K_THROWN_IN:
        r.n_teams = 2
        r.teams[0] = r.score.side
        r.teams[1] = 15 & ~r.score.side
        winners = r.score.side if r.score.side_won else 15 & ~r.score.side
        add_item(r, I_BETTEL if is_bettel(k) else I_GAME, IF_VALUE, 0, 0, 0, t.base, 0, 0)
        if t.ouvert:
            add_item(r, I_OUVERT, IF_FACTOR, 0, 0, 0, 0, 2, 0)
        if t.laufende:
            add_item(r, I_LAUFENDE, IF_COUNT | IF_VALUE, 0, 0, t.laufende, inc * t.laufende, 0, 0)
        if t.tout or k == K_SIE:
            add_item(r, I_TOUT, IF_FACTOR, 0, 0, 0, 0, 2, 0)
        if t.schneider:
            add_item(r, I_SCHNEIDER, IF_VALUE, 0, 0, 0, inc, 0, 0)
        if t.schwarz:
            add_item(r, I_SCHWARZ, IF_VALUE, 0, 0, 0, inc, 0, 0)
        if k == K_SIE:
            add_item(r, I_SIE, IF_FACTOR, 0, 0, 0, 0, 2, 0)
        if s.kontra >= 0:
            add_item(r, I_KONTRA, IF_FACTOR, 0, 0, 0, 0, 2, 0)
        if s.re >= 0:
            add_item(r, I_RE, IF_FACTOR, 0, 0, 0, 0, 2, 0)
        add_knocks(r, &t)
        add_item(r, I_TOTAL, IF_VALUE, 0, 0, 0, t.value, 0, 0)
    if t.stock_in:
        add_item(r, I_STOCK_IN, IF_VALUE, 0, 0, 0, t.stock_in, 0, 0)
    if t.stock_out:
        add_item(r, I_STOCK_OUT, IF_VALUE, 0, 0, 0, t.stock_out, 0, 0)
    extra_field(r, W_WINNERS, V_SEATS, winners)


# ---- solver hooks (_solver.pxi) ----
cdef inline int points_of(u64 m) noexcept nogil:
    return (BYTE_POINTS[m & 0xFF] + BYTE_POINTS[(m >> 8) & 0xFF] + BYTE_POINTS[(m >> 16) & 0xFF]
            + BYTE_POINTS[(m >> 24) & 0xFF])


cdef inline int g_side(const SkState* s, const SkOpts* o) noexcept nogil:
    """The declaring side (declarer and partner); in a Ramsch or Leaster the seat to act alone."""
    cdef int i, side = 0
    if everyone_alone(s.contract):
        return 1 << (s.to_act if s.to_act >= 0 else 0)
    for i in range(4):
        if on_playing_side(s, i):
            side |= 1 << i
    return side


cdef inline int g_points(const SkState* s, const SkOpts* o, int side) noexcept nogil:
    """The side's card points; in a Bettel 120 for the side that has made its aim (the
    declarer: the deal is over and he took no trick; the defenders: he took one), else 0."""
    cdef int i, total = 0
    if is_bettel(s.contract):
        if side >> s.declarer & 1:
            return 120 if s.phase == P_OVER and s.n_won[s.declarer] == 0 else 0
        return 120 if s.n_won[s.declarer] else 0
    for i in range(4):
        if side >> i & 1:
            total += points_of(s.won[i])
    return total


cdef inline int g_future_max(const SkState* s, const SkOpts* o) noexcept nogil:
    if is_bettel(s.contract):
        return 0 if s.phase == P_OVER else 120
    return 120 - points_of(s.won[0] | s.won[1] | s.won[2] | s.won[3])


cdef inline const int8_t* g_point_table(const SkState* s) noexcept nogil:
    """Card points in the contract in force; none in a Bettel (only tricks count)."""
    if is_bettel(s.contract):
        return NO_POINTS
    return POINTS


cdef inline int g_rule_key(const SkState* s) noexcept nogil:
    """The Rufspiel partner's duties end once the called suit has been led."""
    return s.called_led


cdef inline u64 g_unmergeable(const SkState* s, const SkOpts* o) noexcept nogil:
    return 0

cdef inline u64 g_odd_cards(const SkState* s, const SkOpts* o) noexcept nogil:
    return 0


cdef inline int g_counted(const SkState* s, int side) noexcept nogil:
    return side


cdef inline bint g_plays_out(const SkState* s) noexcept nogil:
    """A Tout ends at the declarer's first lost trick, a Bettel at his first won one."""
    return not (is_tout(s.contract) or is_bettel(s.contract))


# ---- explanations: why a well-formed action is not legal (reason id, text) ----
REASONS = {
    "MUST_OUTBID": "a bid must name a strictly higher contract than the best so far",
    "HEARTS_NOT_CALLABLE": "hearts are trumps in a Rufspiel: the ace of hearts cannot be called",
    "CALLED_ACE_HELD": "a Rufspiel calls an ace the caller does not hold",
    "NO_CARD_OF_CALLED_SUIT": "a Rufspiel needs a card of the called suit besides Obers and Unters",
    "SIE_NEEDS_ALL": "a Sie needs all four Obers and all four Unters in one hand",
    "RE_ONLY_AFTER_KONTRA": "re is said only in the re round, after a kontra",
    "KONTRA_ROUND_OVER": "kontra is said only in the kontra round",
    "ALREADY_ANNOUNCED": "the announcement has already been made",
    "KONTRA_DEFENDERS_ONLY": "only a defender may say kontra",
    "RE_PLAYING_SIDE_ONLY": "only the playing side may say re",
    "CALLED_ACE_LEAD": "the partner may lead the called suit only with the called ace (fewer than four cards of it)",
    "CALLED_ACE_MUST_PLAY": "the partner must play the called ace when its suit is first led",
    "CALLED_ACE_NO_DISCARD": "the called ace may not be discarded before the last trick while its suit has not been led",
    "MUST_FOLLOW_SUIT": "a player must follow the led suit (trump counts as one suit)",
    "CONTRACT_NOT_OFFERED": "a club contract (Geier, Farbwenz, Farbgeier, Bettel, Bettel ouvert) is bid only where its option is on",
    "CALLER_KEEPS_CALLED_SUIT": "with option caller_keeps_called_suit the caller may not discard his last card of the called suit before it is led",
    "NOT_ALLOWED_NOW": "the call is not open to this seat now",
    "KLOPFEN_OFF": "knocking is played only with option klopfen",
    "KNOCK_ROUND_OVER": "a seat knocks only in the knocking round, after its first four cards",
    "KNOCK_OR_PASS": "in the knocking round a seat knocks (klopfen) or passes",
}


def explain(Core core, i64 code):
    cdef SkState* s = &core.s
    cdef int seat = s.to_act, call
    if code < CALL_BASE:
        return _explain_play(core, <int>code)
    call = <int>(code - CALL_BASE)
    name = CALL_TABLE[call][1]
    if call == ANNOUNCE_KLOPFEN:
        if not core.o.klopfen:
            return "KLOPFEN_OFF", "knocking is not played at this table: option klopfen is off"
        return "KNOCK_ROUND_OVER", ("the knocking round is over: a seat knocks only in it, after its "
                                    "first four cards and before the auction")
    if s.phase == P_KLOPFEN:
        return "KNOCK_OR_PASS", f"{name} is not said in the knocking round: knock (klopfen) or pass"
    if call >= ANNOUNCE_PASS and call <= ANNOUNCE_RE:
        if s.phase == P_KONTRA and call == ANNOUNCE_RE:
            return "RE_ONLY_AFTER_KONTRA", "re may be said only in the re round, after a kontra"
        if s.phase == P_RE and call == ANNOUNCE_KONTRA:
            return "KONTRA_ROUND_OVER", "the kontra round is over"
        if call == ANNOUNCE_KONTRA:
            if s.kontra >= 0:
                return "ALREADY_ANNOUNCED", f"seat {s.kontra} has already said kontra"
            return "KONTRA_DEFENDERS_ONLY", "only a defender may say kontra; the playing side may only pass"
        if s.re >= 0:
            return "ALREADY_ANNOUNCED", f"seat {s.re} has already said re"
        return "RE_PLAYING_SIDE_ONLY", "only the playing side may say re; a defender may only pass"
    if call_contract(call) != K_NONE and not (core.o.offered >> call_contract(call) & 1):
        option = CLUB_CONTRACTS[call_contract(call)]
        return "CONTRACT_NOT_OFFERED", f"{name} is not played at this table: option {option} is off"
    if s.best_call >= 0 and call_rank(call) <= call_rank(s.best_call):
        best = CALL_TABLE[s.best_call]
        return "MUST_OUTBID", (f"{name} does not outbid seat {s.best_seat}'s {best[1]}"
                               f"{' ' + best[2] if best[2] else ''}: only a strictly higher contract may be named")
    if call_rank(call) == K_RUFSPIEL:
        suit = call - BID_RUFSPIEL_C
        if suit == HEARTS:
            return "HEARTS_NOT_CALLABLE", "hearts are trumps in a Rufspiel: call the ace of C, S or D"
        if s.hand[seat] & bit(card(ACE, suit)):
            return "CALLED_ACE_HELD", f"you hold the {SUIT_NAMES[SUITS[suit]]} ace yourself: call an ace you lack"
        return "NO_CARD_OF_CALLED_SUIT", (f"you hold no {SUIT_NAMES[SUITS[suit]]} card other than Obers and "
                                          f"Unters, so you cannot call that ace")
    if call == BID_SIE:
        return "SIE_NEEDS_ALL", "a Sie needs all four Obers and all four Unters in one hand"
    return "NOT_ALLOWED_NOW", f"{name} is not allowed now"


cdef object _explain_play(Core core, int c):
    cdef SkState* s = &core.s
    cdef const Order* order = &ORDERS[s.order]
    cdef int seat = s.to_act, led
    cdef u64 hand = s.hand[seat]
    ace = PIQUET.code(card(ACE, s.suit)) if s.suit >= 0 else ""
    if s.n_in_trick == 0:
        return "CALLED_ACE_LEAD", (f"the called ace {ace} binds you: with fewer than four cards of its suit "
                                   f"you may lead that suit only with {ace}")
    led = order.eff_suit[s.trick[s.trick_no][0]]
    suit_name = "trump" if led == TRUMP else SUIT_NAMES[SUITS[led]]
    if not bound(s, seat) and not (hand & order.suit_mask[led]):
        return "CALLER_KEEPS_CALLED_SUIT", (f"you called the {SUIT_NAMES[SUITS[s.suit]]} ace: you may not discard "
                                            f"your last {SUIT_NAMES[SUITS[s.suit]]} card before that suit is led")
    if hand & order.suit_mask[led]:
        if bound(s, seat) and led == s.suit:
            return "CALLED_ACE_MUST_PLAY", f"the called suit is led for the first time: you must play the called ace {ace}"
        held = ", ".join(PIQUET.code(i) for i in core.sort_cards(hand & order.suit_mask[led]))
        return "MUST_FOLLOW_SUIT", f"you must follow {suit_name}: you hold {held}"
    return "CALLED_ACE_NO_DISCARD", (f"the called ace {ace} may not be discarded before the last trick while "
                                     f"its suit has not been led")


# ---- what a seat may see ----
cdef inline bint partner_revealed(const SkState* s) noexcept nogil:
    """The partner is known once the called ace has been played (or the deal is over)."""
    if s.contract != K_RUFSPIEL or s.phase == P_OVER:
        return True
    return s.partner >= 0 and not (s.hand[s.partner] & bit(card(ACE, s.suit)))


def public(Core core, seat):
    """The contract (the Rufspiel partner only once known, or to himself), the trick in play,
    the tricks and tricks won: everything in Schafkopf is public but the hands."""
    cdef SkState* s = &core.s
    cdef Result res
    cdef int k
    contract = None
    if s.contract != K_NONE:
        start_result(&res)
        fill_contract(s, &res, partner_revealed(s) or (seat is not None and seat == s.partner))
        contract = render_contract(&res, _NAMES)
    return {
        "contract": contract,
        "trick": {"leader": s.leader, "cards": [PIQUET.code(s.trick[s.trick_no][k]) for k in range(s.n_in_trick)]}
                 if s.phase == P_PLAY else None,
        "tricks": [[s.trick_leader[t], [PIQUET.code(s.trick[t][k]) for k in range(4)], s.trick_winner[t]]
                   for t in range(s.trick_no)],
        "tricks_won": [s.n_won[k] for k in range(4)],
        "shown": shown_hand(core),
    }


cdef object shown_hand(Core core):
    """Bettel ouvert: the declarer's hand lies face up once the first trick is complete (rules
    3, "Bettel ouvert"): {"seat", "cards"} as it is now, for every seat; None otherwise."""
    cdef SkState* s = &core.s
    if s.contract != K_BETTEL_OUVERT or s.trick_no == 0:
        return None
    return {"seat": s.declarer, "cards": [PIQUET.code(c) for c in core.sort_cards(s.hand[s.declarer])]}


def hidden(Core core, seat):
    """The face-down piles `seat` cannot see: none (every card is dealt to a hand and played
    face up)."""
    return []


def redact(Core core, int index, action, seat):
    """Every Schafkopf action is public."""
    return action


def redact_result(Core core, result, seat):
    """A Schafkopf result has no face-down cards."""
    return result


cdef inline void g_sides(const SkState* s, int seat, int* partners, int* opponents) noexcept nogil:
    """(partners, opponents) seat masks as `seat` knows them: nothing before a contract,
    everyone for himself in a Ramsch; a solo's sides are public; a Rufspiel's partner is known
    to himself, and to all once the called ace has been played."""
    cdef int me = 1 << seat, others = 15 & ~(1 << seat), dside
    cdef bint known, settled
    if everyone_alone(s.contract):
        partners[0], opponents[0] = me, others
        return
    if s.contract == K_NONE or s.contract == K_THROWN_IN or s.declarer < 0:
        partners[0], opponents[0] = me, 0
        return
    known = s.partner >= 0 and (partner_revealed(s) or seat == s.partner)
    dside = (1 << s.declarer) | ((1 << s.partner) if s.contract == K_RUFSPIEL and known else 0)
    settled = s.contract != K_RUFSPIEL or known
    if dside & me:
        partners[0], opponents[0] = dside, (others & ~dside) if settled else 0
    else:
        partners[0], opponents[0] = (15 & ~dside) if settled else me, dside

cdef inline void g_settle(GState* s, const GOpts* o) noexcept nogil:
    """Nothing to settle: the card play has no calls a perfect player always makes."""
    pass

include "../../_engine.pxi"
