# Observation tensors, legal-action masks and the vectorised environment, written once over a
# game's hooks (g_apply, g_legal, g_legal_cards, g_kinds, g_random, g_score) and the common
# GState fields (hand[], to_act, phase, dealer, trick_no, trick_winner[]). Included at the end
# of the engine (_engine.pxi) in every game's rules module, so that the hooks inline here as
# they do in the engine's playout: the step loop runs in C without the GIL. docs/rl.md describes the
# tensors; everything in them is what the observing seat may see.
from libc.stdlib cimport calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t
from engine_core._rng cimport deal_seed_u64
from engine_core._game cimport MAX_LEGAL, EXCHANGE_BASE, BIDS_UNIFORM
import threading as _threading
import time as _time

cdef enum:
    RL_MAX_CALLS = 64        # room for a game's Call enum (checked at import)
    RL_ACTIONS_MAX = 64 + RL_MAX_CALLS + MAX_LEGAL

# ---- sizes and the layout, from the game's declaration (G_* and its enums) ----
cdef int RL_SEATS = G_SEATS
cdef int RL_DECK = G_FACES     # the card dimension: one entry per face (Doppelkopf's two copies
                               # of a card are one face: which copy a seat holds tells nothing)
cdef int RL_CALLS = len(CALL_TABLE)
cdef int RL_PHASES = len(PHASE_NAMES)
cdef int RL_EXCH = MAX_LEGAL if len(EXCHANGES) else 0   # exchange slots: the i-th legal exchange
if RL_CALLS > RL_MAX_CALLS:
    raise ImportError(f"{RL_CALLS} calls: the observation has room for {RL_MAX_CALLS}")

# action index space: [cards: deck][calls: Call enum][exchanges: slot i = i-th legal exchange]
cdef int RL_A_CARDS = 0
cdef int RL_A_CALLS = RL_DECK
cdef int RL_A_EXCHANGES = RL_DECK + RL_CALLS
cdef int RL_ACTIONS = RL_DECK + RL_CALLS + RL_EXCH

# observation tensor (uint8), seats relative to the observer (0 = the observer, 1 = its left, ...)
_OBS_PARTS = (
    ("hand", (RL_DECK,)),                    # the observer's cards now
    ("my_exchanged", (RL_DECK,)),            # the cards the observer exchanged (gave, buried, set aside)
    ("trick", (RL_SEATS, RL_DECK)),          # the trick in play: the card each seat put in it
    ("played", (RL_SEATS, RL_DECK)),         # every card each seat played face up (trick in play too)
    ("trick_face_down", (RL_SEATS,)),        # a card put face down in the trick in play (not shown)
    ("played_face_down", (RL_SEATS,)),       # how many cards each seat played face down
    ("calls", (RL_SEATS, RL_CALLS)),         # the calls (bids, announcements) each seat made
    ("exchanges", (RL_SEATS,)),              # how many exchanges each seat made (cards not shown)
    ("phase", (RL_PHASES,)),                 # one-hot
    ("dealer", (RL_SEATS,)),                 # one-hot
    ("to_act", (RL_SEATS,)),                 # one-hot (none when the deal is over)
    ("leader", (RL_SEATS,)),                 # who led the trick in play (none between tricks)
    ("tricks_won", (RL_SEATS,)),             # tricks each seat won
    ("sides", (2, RL_SEATS)),                # the seats known to be its partners (itself among
                                             # them), then its opponents (g_sides)
)


def rl_offsets(parts):
    out, at = {}, 0
    for name, shape in parts:
        size = 1
        for d in shape:
            size *= d
        out[name] = (at, shape)
        at += size
    return out, at


OBS_LAYOUT, _obs_size = rl_offsets(_OBS_PARTS)
cdef int RL_OBS_SIZE_C = _obs_size
cdef int RLO_HAND = OBS_LAYOUT["hand"][0]
cdef int RLO_TRICK = OBS_LAYOUT["trick"][0]
cdef int RLO_TRICK_DOWN = OBS_LAYOUT["trick_face_down"][0]
cdef int RLO_PLAYED = OBS_LAYOUT["played"][0]
cdef int RLO_PLAYED_DOWN = OBS_LAYOUT["played_face_down"][0]
cdef int RLO_CALLS = OBS_LAYOUT["calls"][0]
cdef int RLO_EXCH = OBS_LAYOUT["exchanges"][0]
cdef int RLO_MY_EXCH = OBS_LAYOUT["my_exchanged"][0]
cdef int RLO_PHASE = OBS_LAYOUT["phase"][0]
cdef int RLO_DEALER = OBS_LAYOUT["dealer"][0]
cdef int RLO_TO_ACT = OBS_LAYOUT["to_act"][0]
cdef int RLO_LEADER = OBS_LAYOUT["leader"][0]
cdef int RLO_WON = OBS_LAYOUT["tricks_won"][0]
cdef int RLO_SIDES = OBS_LAYOUT["sides"][0]
cdef int RLO_SMALL = OBS_LAYOUT["trick_face_down"][0]     # the parts after the card planes
if RLO_SMALL != RLO_PLAYED + G_SEATS * G_FACES or RLO_PLAYED != RLO_TRICK + G_SEATS * G_FACES:
    raise ImportError("rl_observe writes the card planes, then zeroes the parts after them")

# information-state tensor: the observation, the observer's dealt hand, then the public action
# sequence (perfect recall), one row per action: [seat (relative, one-hot)][card played face up]
# [call][an exchange][a card played face down]; the observer's own exchanges and face-down
# cards are in its rows too (it saw them)
cdef int RL_H_ROW = RL_SEATS + RL_DECK + RL_CALLS + 2
cdef int RL_I_DEALT = RL_OBS_SIZE_C
cdef int RL_I_HIST = RL_OBS_SIZE_C + RL_DECK
cdef int RL_INFO_SIZE_C = RL_I_HIST + G_MAX_ACTIONS * RL_H_ROW

OBS_SIZE = RL_OBS_SIZE_C
INFO_SIZE = RL_INFO_SIZE_C
NUM_ACTIONS = RL_ACTIONS
INFO_LAYOUT = {"observation": (0, (RL_OBS_SIZE_C,)), "dealt": (RL_I_DEALT, (RL_DECK,)),
               "history": (RL_I_HIST, (G_MAX_ACTIONS, RL_H_ROW))}
HISTORY_ROW = {"seat": (0, RL_SEATS), "card": (RL_SEATS, RL_DECK), "call": (RL_SEATS + RL_DECK, RL_CALLS),
               "exchange": (RL_SEATS + RL_DECK + RL_CALLS, 1),
               "face_down": (RL_SEATS + RL_DECK + RL_CALLS + 1, 1)}
ACTION_SECTIONS = {"card": (RL_A_CARDS, RL_DECK), "call": (RL_A_CALLS, RL_CALLS), "exchange": (RL_A_EXCHANGES, RL_EXCH)}


# ---- one deal with what the tensors need besides the rules' state ----
cdef struct RlTrack:
    GState s
    u64 dealt[MAX_SEATS]
    u64 first[MAX_SEATS]            # the first packet of each seat (Core.unseen: the sight phase)
    u64 up[MAX_SEATS]               # cards each seat played face up
    u64 exch_set[MAX_SEATS]         # cards each seat exchanged (gave, buried, set aside)
    u64 down_set[MAX_SEATS]         # ... that stayed in its hand (set aside): played face down
    u64 down_played[MAX_SEATS]      # cards each seat played face down
    uint8_t n_down[MAX_SEATS]
    uint8_t n_exch[MAX_SEATS]
    uint8_t won[MAX_SEATS]
    int8_t trick_card[MAX_SEATS]    # the card each seat put in the trick in play, -1 none
    int8_t trick_down[MAX_SEATS]
    int8_t trick_lead               # -1 between tricks
    int16_t n_hist
    int16_t n_calls
    int8_t hist_seat[G_MAX_ACTIONS]     # (from here on read up to n_hist, n_calls: not zeroed)
    i64 hist_code[G_MAX_ACTIONS]
    uint8_t hist_down[G_MAX_ACTIONS]
    int8_t call_seat[G_MAX_ACTIONS]     # the calls made (bids, announcements): seat, call number
    int16_t call_no[G_MAX_ACTIONS]


cdef void rl_track_init(RlTrack* t, const GOpts* o, const u64* hands, u64 blind, int dealer,
                        const u64* first) noexcept nogil:
    """`first`: each seat's first packet (NULL: whole hands), all it sees in the sight phase."""
    cdef int i
    memset(t, 0, <size_t>(<char*>&t.hist_seat[0] - <char*>t))     # the history is read up to n_hist
    g_init(&t.s, o, hands, blind, dealer)
    for i in range(G_SEATS):
        t.dealt[i] = hands[i]
        t.first[i] = first[i] if first != NULL else hands[i]
        t.trick_card[i] = -1
    t.trick_lead = -1


cdef void rl_track_apply(RlTrack* t, const GOpts* o, i64 code) noexcept nogil:
    """Apply a legal code and note what it shows."""
    cdef int p = g_to_act(&t.s), tn = t.s.trick_no, i
    cdef bint down = False
    g_apply(&t.s, o, code)
    if code < CALL_BASE:
        down = (t.down_set[p] >> code) & 1
        if down:
            t.down_played[p] |= bit(<int>code)
            t.n_down[p] += 1
        else:
            t.up[p] |= bit(<int>code)
        if t.trick_lead < 0:
            t.trick_lead = p
        t.trick_card[p] = <int8_t>code
        t.trick_down[p] = down
        if t.s.trick_no != tn:
            t.won[t.s.trick_winner[tn]] += 1
            for i in range(G_SEATS):
                t.trick_card[i] = -1
                t.trick_down[i] = 0
            t.trick_lead = -1
    elif code < EXCHANGE_BASE:
        if t.n_calls < G_MAX_ACTIONS:
            t.call_seat[t.n_calls] = p
            t.call_no[t.n_calls] = <int16_t>(code - CALL_BASE)
            t.n_calls += 1
    else:
        t.n_exch[p] += 1
        t.exch_set[p] |= exchange_mask(code)
        t.down_set[p] |= exchange_mask(code) & t.s.hand[p]
    if t.n_hist < G_MAX_ACTIONS:
        t.hist_seat[t.n_hist] = p
        t.hist_code[t.n_hist] = code
        t.hist_down[t.n_hist] = down
        t.n_hist += 1


cdef u64 RL_EXPAND[256]         # byte b -> 8 bytes, byte i = bit i of b
for _b in range(256):
    RL_EXPAND[_b] = sum(1 << (8 * _i) for _i in range(8) if _b >> _i & 1)


cdef enum:
    RL_DECK_BYTES = G_FACES >> 3                # whole bytes of a face mask (eight faces each)
    RL_TRICK_SIZE = G_SEATS * G_FACES


cdef inline void rl_bytes(u64 m, uint8_t* out) noexcept nogil:
    """A card mask as RL_DECK bytes 0/1 (every byte written), eight at a time."""
    cdef int j
    for j in range(RL_DECK_BYTES):
        memcpy(out + 8 * j, &RL_EXPAND[(m >> (8 * j)) & 255], 8)
    for j in range(8 * RL_DECK_BYTES, G_FACES):
        out[j] = (m >> j) & 1


cdef inline void rl_cards(u64 m, uint8_t* out) noexcept nogil:
    """A card mask as one count per face (0/1; 0..2 with two copies), every byte written: the
    two copies' bytes are added eight faces at a time (a byte never exceeds 2)."""
    cdef int j
    cdef u64 lo, hi, w
    if G_COPIES == 1:
        rl_bytes(m & _FACE_MASK, out)
        return
    lo = m & _FACE_MASK
    hi = (m >> G_FACES) & _FACE_MASK
    for j in range(RL_DECK_BYTES):
        w = RL_EXPAND[(lo >> (8 * j)) & 255] + RL_EXPAND[(hi >> (8 * j)) & 255]
        memcpy(out + 8 * j, &w, 8)
    for j in range(8 * RL_DECK_BYTES, G_FACES):
        out[j] = ((lo >> j) & 1) + ((hi >> j) & 1)


cdef inline u64 rl_fold(u64 m) noexcept nogil:
    """The faces of a card mask."""
    if G_COPIES > 1:
        return (m | (m >> G_FACES)) & _FACE_MASK
    return m


cdef inline int rl_face(int c) noexcept nogil:
    """The face of a card index."""
    if G_COPIES > 1 and c >= G_FACES:
        return c - G_FACES
    return c


cdef void rl_observe(const RlTrack* t, const GOpts* o, int me, uint8_t* out) noexcept nogil:
    """The observation tensor of seat `me` (OBS_LAYOUT) into out[OBS_SIZE]: the card planes
    expanded from their masks, the trick and the small parts zeroed and their few entries set.
    The hand is what `me` has seen of it (unseen_cards: none of its later packets in the
    game's sight phase)."""
    cdef int r, p, c, k, partners, opponents
    cdef int to_act = g_to_act(&t.s)
    cdef uint8_t* small = out + RLO_SMALL
    rl_cards(t.s.hand[me] & ~unseen_cards(&t.s, o, t.first, me), out + RLO_HAND)
    rl_cards(t.exch_set[me], out + RLO_MY_EXCH)
    memset(out + RLO_TRICK, 0, RL_TRICK_SIZE)
    memset(small, 0, RL_OBS_SIZE_C - RLO_SMALL)
    p = me
    for r in range(G_SEATS):                    # p: the seat r places left of me
        c = t.trick_card[p]
        if c >= 0:
            if t.trick_down[p] and p != me:
                out[RLO_TRICK_DOWN + r] = 1
            else:
                out[RLO_TRICK + r * G_FACES + rl_face(c)] = 1
        rl_cards(t.up[p] | (t.down_played[p] if p == me else 0), out + RLO_PLAYED + r * G_FACES)
        out[RLO_PLAYED_DOWN + r] = t.n_down[p]
        out[RLO_EXCH + r] = t.n_exch[p]
        out[RLO_WON + r] = t.won[p]
        p = p + 1 if p + 1 < G_SEATS else 0
    for k in range(t.n_calls):
        r = t.call_seat[k] - me
        out[RLO_CALLS + (r + G_SEATS if r < 0 else r) * RL_CALLS + t.call_no[k]] = 1
    out[RLO_PHASE + g_phase(&t.s)] = 1
    out[RLO_DEALER + (t.s.dealer - me + G_SEATS) % G_SEATS] = 1
    if to_act >= 0:
        out[RLO_TO_ACT + (to_act - me + G_SEATS) % G_SEATS] = 1
    if t.trick_lead >= 0:
        out[RLO_LEADER + (t.trick_lead - me + G_SEATS) % G_SEATS] = 1
    g_sides(&t.s, me, &partners, &opponents)
    p = me
    for r in range(G_SEATS):
        out[RLO_SIDES + r] = (partners >> p) & 1
        out[RLO_SIDES + G_SEATS + r] = (opponents >> p) & 1
        p = p + 1 if p + 1 < G_SEATS else 0


cdef void rl_information_state(const RlTrack* t, const GOpts* o, int me, uint8_t* out) noexcept nogil:
    """The information-state tensor of seat `me` (INFO_LAYOUT) into out[INFO_SIZE]; the dealt
    hand as far as `me` has seen it."""
    cdef int k, p
    cdef i64 code
    cdef uint8_t* row
    memset(out, 0, RL_INFO_SIZE_C)
    rl_observe(t, o, me, out)
    rl_cards(t.dealt[me] & ~unseen_cards(&t.s, o, t.first, me), out + RL_I_DEALT)
    for k in range(t.n_hist):
        row = out + RL_I_HIST + k * RL_H_ROW
        p = t.hist_seat[k]
        code = t.hist_code[k]
        row[(p - me + G_SEATS) % G_SEATS] = 1
        if code < CALL_BASE:
            if t.hist_down[k] and p != me:
                row[RL_SEATS + RL_DECK + RL_CALLS + 1] = 1
            else:
                row[RL_SEATS + code % G_FACES] = 1
        elif code < EXCHANGE_BASE:
            row[RL_SEATS + RL_DECK + code - CALL_BASE] = 1
        else:
            row[RL_SEATS + RL_DECK + RL_CALLS] = 1


cdef int rl_legal_mask(const RlTrack* t, const GOpts* o, uint8_t* mask, int* xprev) noexcept nogil:
    """The legal-action mask (action index space) of the seat to act into mask[NUM_ACTIONS];
    the number legal. Only the first *xprev exchange slots can be set on entry (the rest are
    zero); *xprev becomes the number set now."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, i, x = 0
    cdef i64 code
    cdef u64 m = 0
    memset(mask + RL_A_CALLS, 0, RL_CALLS)
    if xprev[0] > 0:
        memset(mask + RL_A_EXCHANGES, 0, xprev[0])
        xprev[0] = 0
    if g_to_act(&t.s) < 0:
        rl_bytes(0, mask)
        return 0
    if g_kinds(&t.s) == A_PLAY:
        m = g_legal_cards(&t.s, o)
        rl_bytes(rl_fold(m), mask)
        return popcount(m)
    n = g_legal(&t.s, o, buf)
    for i in range(n):
        code = buf[i]
        if code < CALL_BASE:
            m |= bit(<int>code)
        elif code < EXCHANGE_BASE:
            mask[RL_A_CALLS + code - CALL_BASE] = 1
        else:
            mask[RL_A_EXCHANGES + x] = 1
            x += 1
    rl_bytes(rl_fold(m), mask)
    xprev[0] = x
    return n


cdef i64 rl_index_code(const RlTrack* t, const GOpts* o, i64 index) noexcept nogil:
    """The action code of an action index for the seat to act, -1 if it is not legal."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, i, x = 0
    cdef i64 code
    if index < 0 or index >= RL_ACTIONS or g_to_act(&t.s) < 0:
        return -1
    if index < RL_A_CALLS:
        code = held_code(t.s.hand[g_to_act(&t.s)], index, 0)    # a face: the copy held
    elif index < RL_A_EXCHANGES:
        code = CALL_BASE + index - RL_A_CALLS
    else:
        n = g_legal(&t.s, o, buf)
        for i in range(n):
            if buf[i] >= EXCHANGE_BASE:
                if x == index - RL_A_EXCHANGES:
                    return buf[i]
                x += 1
        return -1
    return code if legal_code(&t.s, o, code) else -1


cdef i64 rl_code_index(const RlTrack* t, const GOpts* o, i64 code) noexcept nogil:
    """The action index of a legal code for the seat to act, -1 if it is not legal."""
    cdef i64 buf[MAX_LEGAL]
    cdef int n, i, x = 0
    if not legal_code(&t.s, o, code):
        return -1
    if code < CALL_BASE:
        return code % G_FACES
    if code < EXCHANGE_BASE:
        return RL_A_CALLS + code - CALL_BASE
    n = g_legal(&t.s, o, buf)
    for i in range(n):
        if buf[i] >= EXCHANGE_BASE:
            if buf[i] == code:
                return RL_A_EXCHANGES + x
            x += 1
    return -1


def rl_game_opts(game):
    """The C options of a Game (resolved options with its deal plan), as bytes."""
    return c_options(game.options, game.spec.packets(game.options))


cdef class Tracker:
    """One deal with its tensors, for the Python environments (PettingZoo, OpenSpiel): the
    same rules and the same tensors as the vectorised environment, one call at a time."""

    cdef RlTrack t
    cdef GOpts o

    def __init__(self, game, hands, blind, int dealer, first=None):
        """`first`: each seat's first packet (None: whole hands), as Core takes it."""
        cdef u64 h[MAX_SEATS]
        cdef u64 f[MAX_SEATS]
        cdef int i
        opts = rl_game_opts(game)
        if len(opts) != sizeof(GOpts):
            raise ValueError("the options do not belong to this game's rules")
        memcpy(&self.o, <const char*>opts, sizeof(GOpts))
        if not 0 <= dealer < G_SEATS:
            raise ValueError(f"dealer must be a seat 0..{G_SEATS - 1}, got {dealer}")
        if len(hands) != G_SEATS:
            raise ValueError(f"need {G_SEATS} hands, got {len(hands)}")
        if first is not None and len(first) != G_SEATS:
            raise ValueError(f"need {G_SEATS} first packets, got {len(first)}")
        for i in range(G_SEATS):
            h[i] = hands[i]
            f[i] = hands[i] if first is None else first[i]
            if f[i] & ~h[i]:
                raise ValueError(f"first packet {i} must be cards of hand {i}")
        rl_track_init(&self.t, &self.o, h, blind, dealer, f)

    def copy(self):
        cdef Tracker c = Tracker.__new__(Tracker)
        c.t = self.t
        c.o = self.o
        return c

    def to_act(self):
        return g_to_act(&self.t.s)

    def apply_code(self, i64 code):
        """Apply a legal action code (ValueError, state unchanged, if it is not legal)."""
        if g_to_act(&self.t.s) < 0 or not legal_code(&self.t.s, &self.o, code):
            raise ValueError(f"action code {code} is not legal now")
        rl_track_apply(&self.t, &self.o, code)

    def code_of(self, i64 index):
        """The action code of a legal action index (ValueError if it is not legal now)."""
        cdef i64 code = rl_index_code(&self.t, &self.o, index)
        if code < 0:
            raise ValueError(f"action {index} is not legal now (legal: {self.legal_indices()})")
        return code

    def index_of(self, i64 code):
        cdef i64 index = rl_code_index(&self.t, &self.o, code)
        if index < 0:
            raise ValueError(f"action code {code} is not legal now")
        return index

    def legal_indices(self):
        cdef uint8_t mask[RL_ACTIONS_MAX]
        cdef int x = RL_EXCH
        rl_legal_mask(&self.t, &self.o, mask, &x)
        return [i for i in range(RL_ACTIONS) if mask[i]]

    def mask_into(self, uint8_t[::1] out):
        """Write the legal-action mask (zero when the deal is over) into out[NUM_ACTIONS]."""
        if out.shape[0] != RL_ACTIONS:
            raise ValueError(f"the mask has {RL_ACTIONS} entries, got {out.shape[0]}")
        cdef int x = RL_EXCH
        rl_legal_mask(&self.t, &self.o, &out[0], &x)

    def observation_into(self, int seat, uint8_t[::1] out):
        """Write `seat`'s observation tensor into out[OBS_SIZE]."""
        rl_check_seat(seat)
        if out.shape[0] != RL_OBS_SIZE_C:
            raise ValueError(f"the observation has {RL_OBS_SIZE_C} entries, got {out.shape[0]}")
        rl_observe(&self.t, &self.o, seat, &out[0])

    def information_state_into(self, int seat, uint8_t[::1] out):
        """Write `seat`'s information-state tensor into out[INFO_SIZE]."""
        rl_check_seat(seat)
        if out.shape[0] != RL_INFO_SIZE_C:
            raise ValueError(f"the information state has {RL_INFO_SIZE_C} entries, got {out.shape[0]}")
        rl_information_state(&self.t, &self.o, seat, &out[0])

    def scores(self):
        cdef Score sc
        if g_to_act(&self.t.s) >= 0:
            return None
        g_score(&self.t.s, &self.o, &sc)
        return [sc.scores[i] for i in range(G_SEATS)]


cdef int rl_check_seat(int seat) except -1:
    if not 0 <= seat < G_SEATS:
        raise ValueError(f"seat must be 0..{G_SEATS - 1}, got {seat}")
    return 0


# ---- the vectorised environment ----
cdef struct RlSlot:
    RlTrack t
    Rng rng                 # the deal's stream, then the random opponents'
    i64 episode
    int xprev               # exchange slots set in its mask row


cdef struct RlEnv:
    RlSlot* slots
    int n
    u64 seed
    GOpts o
    int learners            # seat mask the caller plays; the other seats play here
    bint cards_only         # the caller plays only the card play (calls drawn here)
    int bids                # how the random players call (BIDS_*: batch.BIDS)
    uint8_t* obs
    uint8_t* mask
    double* reward
    uint8_t* done
    int8_t* seat
    i64 steps, deals, cards


cdef void rl_slot_reset(RlEnv* e, int i) noexcept nogil:
    cdef RlSlot* sl = &e.slots[i]
    cdef u64 hands[MAX_SEATS]
    cdef u64 first[MAX_SEATS]
    cdef u64 blind = 0
    cdef i64 k = sl.episode * e.n + i
    cdef int dealer = <int>(k % G_SEATS)
    sl.rng.s = deal_seed_u64(e.seed, k)
    deal_cards(&sl.rng, dealer, &e.o.deal, hands, &blind, first)
    rl_track_init(&sl.t, &e.o, hands, blind, dealer, first)


cdef void rl_slot_settle(RlEnv* e, int i) noexcept nogil:
    """Play the seats that are not the caller's (uniformly random legal actions) until a
    caller's seat is to act; at the end of a deal book its scores as rewards, mark it done and
    deal the next; then write the observation and mask of the seat to act."""
    cdef RlSlot* sl = &e.slots[i]
    cdef Score sc
    cdef int p, j
    cdef i64 code
    while True:
        p = g_to_act(&sl.t.s)
        if p < 0:
            g_score(&sl.t.s, &e.o, &sc)
            for j in range(G_SEATS):
                e.reward[i * G_SEATS + j] += <double>sc.scores[j]
            e.done[i] = 1
            e.deals += 1
            sl.episode += 1
            rl_slot_reset(e, i)
            continue
        if (e.learners >> p) & 1 and (not e.cards_only or g_kinds(&sl.t.s) & A_PLAY):
            break
        code = g_random(&sl.t.s, &e.o, &sl.rng, e.bids)
        e.cards += code < CALL_BASE
        rl_track_apply(&sl.t, &e.o, code)
    e.seat[i] = <int8_t>p
    rl_observe(&sl.t, &e.o, p, e.obs + <i64>i * RL_OBS_SIZE_C)
    rl_legal_mask(&sl.t, &e.o, e.mask + <i64>i * RL_ACTIONS, &sl.xprev)


cdef void rl_env_random_range(RlEnv* e, int start, int stop, int steps) noexcept nogil:
    """`steps` uniformly random legal actions in each game of [start, stop), observations and
    masks written after every one (the bench)."""
    cdef int k, i
    cdef RlSlot* sl
    cdef i64 code
    for k in range(steps):
        for i in range(start, stop):
            sl = &e.slots[i]
            e.done[i] = 0
            memset(e.reward + i * G_SEATS, 0, G_SEATS * sizeof(double))
            code = g_random(&sl.t.s, &e.o, &sl.rng, e.bids)
            e.cards += code < CALL_BASE
            rl_track_apply(&sl.t, &e.o, code)
            rl_slot_settle(e, i)
            e.steps += 1


cdef class VecEnv:
    """N deals stepped in one call (docs/rl.md): actions in, observations, legal-action masks,
    rewards (the deal's scores, when it ends) and done flags out, as numpy arrays the C loop
    writes without the GIL. A finished deal is replaced by the next at once (its first
    observation is in the same arrays). Deal k = episode * n + slot is dealt from
    deal_seed(seed, k) with dealer k % seats; seats outside `learners` play uniformly random
    legal actions drawn from that deal's stream, and with `cards_only` so do the learners'
    calls (bids, announcements, exchanges): the caller then decides only in the card play.
    `bids` is how the random players call (engine_core.batch: "uniform", or "cheapest": pass or
    name the cheapest contract open, 50:50, where the game defines it).
    Deterministic in (game, n, seed, learners, cards_only, bids)."""

    cdef RlEnv e
    cdef readonly object game, obs, mask, reward, done, seat
    cdef readonly tuple learners

    def __cinit__(self):
        self.e.slots = NULL

    def __init__(self, game, int n, seed=0, learners=None, bint cards_only=False, bids="uniform"):
        import numpy as np
        if n < 1:
            raise ValueError(f"n must be a positive number of games, got {n}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"seed must be an integer 0..2^64-1, got {seed!r}")
        learners = tuple(range(G_SEATS)) if learners is None else tuple(learners)
        if not learners or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < G_SEATS
                               for s in learners):
            raise ValueError(f"learners must be seats 0..{G_SEATS - 1} (at least one), got {learners!r}")
        opts = rl_game_opts(game)
        if len(opts) != sizeof(GOpts):
            raise ValueError("the options do not belong to this game's rules")
        self.game = game
        self.learners = tuple(sorted(set(learners)))
        memcpy(&self.e.o, <const char*>opts, sizeof(GOpts))
        self.e.n = n
        self.e.seed = seed
        self.e.cards_only = cards_only
        if bids not in BIDS:
            raise ValueError(f"bids must be one of {', '.join(BIDS)} for this game, got {bids!r}")
        self.e.bids = ("uniform", "cheapest").index(bids)
        self.e.learners = sum(1 << s for s in self.learners)
        self.e.slots = <RlSlot*>calloc(n, sizeof(RlSlot))
        if self.e.slots == NULL:
            raise MemoryError()
        self.obs = np.zeros((n, RL_OBS_SIZE_C), np.uint8)
        self.mask = np.zeros((n, RL_ACTIONS), np.uint8)
        self.reward = np.zeros((n, G_SEATS), np.float64)
        self.done = np.zeros(n, np.bool_)
        self.seat = np.zeros(n, np.int8)
        cdef uint8_t[:, ::1] ov = self.obs
        cdef uint8_t[:, ::1] mv = self.mask
        cdef double[:, ::1] rv = self.reward
        cdef int8_t[::1] sv = self.seat
        self.e.obs = &ov[0, 0]
        self.e.mask = &mv[0, 0]
        self.e.reward = &rv[0, 0]
        self.e.seat = &sv[0]
        self.e.done = rl_bool_data(self.done)
        self.reset()

    def __dealloc__(self):
        free(self.e.slots)

    @property
    def n(self):
        return self.e.n

    def reset(self):
        """Deal every game afresh from the start of the seeded sequence (episode 0)."""
        cdef int i
        with nogil:
            for i in range(self.e.n):
                self.e.slots[i].episode = 0
                rl_slot_reset(&self.e, i)
                self.e.done[i] = 0
                memset(self.e.reward + i * G_SEATS, 0, G_SEATS * sizeof(double))
                rl_slot_settle(&self.e, i)
                self.e.done[i] = 0
                memset(self.e.reward + i * G_SEATS, 0, G_SEATS * sizeof(double))
        self.e.steps = self.e.deals = self.e.cards = 0
        return self.obs, self.mask

    def step(self, actions):
        """Apply one action index per game (for the seat in `seat`); every index is checked
        first (ValueError naming the first illegal one, nothing applied). Returns (obs, mask,
        reward, done, seat): reward[i] holds the scores of game i's deal if it ended in this
        step (then done[i], and obs/mask/seat are the next deal's), else zeros."""
        cdef i64[::1] av
        cdef i64 code
        cdef int i, bad = -1
        cdef i64* codes = <i64*>calloc(self.e.n, sizeof(i64))
        if codes == NULL:
            raise MemoryError()
        try:
            import numpy as np
            arr = np.ascontiguousarray(actions, dtype=np.int64)
            if arr.shape != (self.e.n,):
                raise ValueError(f"actions must be {self.e.n} action indices, got shape {arr.shape}")
            av = arr
            with nogil:
                for i in range(self.e.n):
                    code = rl_index_code(&self.e.slots[i].t, &self.e.o, av[i])
                    if code < 0:
                        bad = i
                        break
                    codes[i] = code
            if bad >= 0:
                legal = [int(k) for k in np.flatnonzero(self.mask[bad])]
                raise ValueError(f"game {bad}: action {int(av[bad])} is not legal for seat "
                                 f"{int(self.seat[bad])} (legal: {legal}); nothing was applied")
            with nogil:
                for i in range(self.e.n):
                    self.e.done[i] = 0
                    memset(self.e.reward + i * G_SEATS, 0, G_SEATS * sizeof(double))
                    self.e.cards += codes[i] < CALL_BASE
                    rl_track_apply(&self.e.slots[i].t, &self.e.o, codes[i])
                    rl_slot_settle(&self.e, i)
                    self.e.steps += 1
        finally:
            free(codes)
        return self.obs, self.mask, self.reward, self.done, self.seat

    def random_steps(self, int steps, int threads=1):
        """`steps` uniformly random legal actions in every game (the engine's g_random, drawn
        from each deal's stream), observations and masks written after each: the bench of the
        step loop. Games are split over `threads` threads that release the GIL (each writes
        its own rows). Returns {"steps", "cards", "deals", "seconds" (wall), "cpu_seconds" (the
        threads' CPU time: what a loaded machine does not inflate), "steps_per_s",
        "steps_per_cpu_s"}."""
        if steps < 0 or not 1 <= threads <= 256:
            raise ValueError(f"steps must be >= 0 and threads 1..256, got {steps}, {threads}")
        threads = min(threads, self.e.n)
        parts = [_Part(self, self.e.n * t // threads, self.e.n * (t + 1) // threads, steps)
                 for t in range(threads)]
        t0 = _time.perf_counter()
        if threads == 1:
            parts[0].run()
        else:
            workers = [_threading.Thread(target=p.run) for p in parts]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
        wall = _time.perf_counter() - t0
        total = {"steps": 0, "cards": 0, "deals": 0, "cpu_seconds": 0.0}
        for p in parts:
            for key in total:
                total[key] += p.counts[key]
        self.e.steps += total["steps"]
        self.e.deals += total["deals"]
        self.e.cards += total["cards"]
        cpu = total["cpu_seconds"]
        return {**total, "seconds": wall, "steps_per_s": total["steps"] / wall if wall > 0 else float("inf"),
                "steps_per_cpu_s": total["steps"] / cpu if cpu > 0 else float("inf")}

    def apply_code(self, int i, i64 code):
        """Apply a legal action code in game i for its seat to act, then settle it as step does
        (rewards and done add to this step's): the slow path of Python opponents (bots)."""
        if not 0 <= i < self.e.n:
            raise ValueError(f"game must be 0..{self.e.n - 1}, got {i}")
        if not legal_code(&self.e.slots[i].t.s, &self.e.o, code):
            raise ValueError(f"game {i}: action code {code} is not legal now")
        self.e.cards += code < CALL_BASE
        rl_track_apply(&self.e.slots[i].t, &self.e.o, code)
        rl_slot_settle(&self.e, i)
        self.e.steps += 1

    def history(self, int i):
        """Game i's deal in progress: (deal index k, dealer, action codes so far)."""
        if not 0 <= i < self.e.n:
            raise ValueError(f"game must be 0..{self.e.n - 1}, got {i}")
        cdef RlSlot* sl = &self.e.slots[i]
        return (sl.episode * self.e.n + i, sl.t.s.dealer, [sl.t.hist_code[k] for k in range(sl.t.n_hist)])

    def counts(self):
        """Steps, finished deals and cards played (by anyone) since the last reset."""
        return {"steps": self.e.steps, "deals": self.e.deals, "cards": self.e.cards}


cdef class _Part:
    """One thread's games of VecEnv.random_steps: its own counters, its own rows."""
    cdef VecEnv env
    cdef int start, stop, steps
    cdef public dict counts

    def __init__(self, VecEnv env, int start, int stop, int steps):
        self.env = env
        self.start, self.stop, self.steps = start, stop, steps

    def run(self):
        cdef RlEnv e = self.env.e       # a copy: its own counters, the same slots and arrays
        e.steps = e.deals = e.cards = 0
        c0 = _time.thread_time()
        with nogil:
            rl_env_random_range(&e, self.start, self.stop, self.steps)
        self.counts = {"steps": e.steps, "deals": e.deals, "cards": e.cards,
                       "cpu_seconds": _time.thread_time() - c0}


cdef uint8_t* rl_bool_data(arr) except NULL:
    cdef uint8_t[::1] v = arr.view("uint8")
    return &v[0]
