# cython: language_level=3
"""The hot part of the bots' inference (engine_core.bots.inference): sampling hidden worlds
over integer card masks and checking each against the public history with the game's own
compiled replay (its GameHooks), without the GIL.

A world is drawn in three steps:
1. the unseen cards (`pool`) are dealt uniformly at random to the holders (the other seats'
   hidden hands, then face-down piles such as a blind or a bury), each holder taking its count
   and no card its `forbid` mask excludes (voids shown by not following suit). Cards that only
   one holder may take are placed first; the rest are shuffled and dealt, and a deal that breaks
   a void is rejected, so the accepted deals are uniform over the void-consistent ones;
2. the seats' hands at the deal are rebuilt: the cards they hold now, plus the known cards of
   each seat (`fixed`: cards played, cards known from an exchange), then the steps of `ops`
   (a face-down pile merged into a hand, k cards split off a hand as a blind or an exchange);
3. the deal is replayed through the game's rules: every public action must be legal for its
   seat in this world (a Rufspiel call without the called ace, following suit, overtrumping,
   Re/Kontra by the queens of clubs, ...). Worlds that fail are rejected, which keeps the
   sample uniform over the worlds consistent with everything the seat has seen.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from ._bits cimport u64, i64, int8_t, popcount, lowest, bit, nth_bit
from ._rng cimport Rng, rng_below, rng_next
from ._game cimport GameHooks, MAX_SEATS, CALL_BASE, EXCHANGE_BASE, exchange_code, exchange_call

cdef enum:
    MAX_HOLDERS = 8
    MAX_SLOTS = 8
    MAX_OPS = 8
    MAX_ACTS = 512
    OP_MERGE = 0        # hand[a] |= pile holder b
    OP_SPLIT = 1        # slot[c] = n random cards of hand[a] & mask; hand[a] -= slot[c]
    OP_ADD = 2          # hand[a] |= slot[c]
    OP_CHOOSE = 3       # slot[c] = n random cards of holder a's dealt cards (they stay)
    # placeholder kinds of an action's hidden part (code_kind)
    K_PLAIN = 0
    K_EXCHANGE_HOLDER = 1   # the exchange's cards are holder `ref`'s cards
    K_EXCHANGE_SLOT = 2     # ... slot `ref`'s cards
    K_PLAY_SLOT = 3         # a face-down card played: slot `ref`'s single card


cdef inline u64 pick_k(Rng* r, u64 m, int k) noexcept nogil:
    """k distinct random cards of m (all of m when it holds no more than k)."""
    cdef u64 out = 0
    cdef int c
    while k > 0 and m:
        c = nth_bit(m, rng_below(r, popcount(m)))
        out |= bit(c)
        m &= ~bit(c)
        k -= 1
    return out


cdef class Sampler:
    cdef const GameHooks* hooks
    cdef unsigned char opts[512]
    cdef int dealer, seats, n_holders, n_ops, n_acts, faces, copies, hand_size, idle
    cdef int count[MAX_HOLDERS]
    cdef u64 forbid[MAX_HOLDERS]
    cdef u64 fixed[MAX_SEATS]
    cdef u64 pool, known_blind
    cdef int blind_holder, blind_slot
    cdef int op[MAX_OPS][5]
    cdef u64 op_mask[MAX_OPS]
    cdef int8_t act_seat[MAX_ACTS]
    cdef i64 act_code[MAX_ACTS]
    cdef int act_kind[MAX_ACTS]
    cdef int act_ref[MAX_ACTS]
    cdef u64 act_twice[MAX_ACTS]
    cdef void* state
    cdef i64 last_codes[MAX_ACTS]
    cdef u64 last_twice[MAX_ACTS]
    cdef public long long tries, rejected_voids, rejected_rules

    def __cinit__(self):
        self.state = NULL

    def __init__(self, rules, bytes opts, int dealer, list counts, list forbid, u64 pool,
                 list fixed, u64 known_blind, int blind_holder, int blind_slot, list ops, list acts,
                 int faces, int copies, int hand_size=0, int idle=-1):
        """counts/forbid: per holder (seats 0..n-1, then piles); fixed: per seat; ops: tuples
        (op, a, b, c, n, mask); acts: (seat, code, kind, ref, twice), `twice` the faces a
        visible exchange names with both copies (Doppelkopf's "AC AC")."""
        cdef int i
        self.hooks = <const GameHooks*>PyCapsule_GetPointer(rules.HOOKS, "engine_core.GameHooks")
        if len(opts) != self.hooks.opts_size or len(opts) > 512:
            raise ValueError("options struct size mismatch")
        memcpy(self.opts, <const char*>opts, len(opts))
        self.dealer = dealer
        self.seats = self.hooks.seats
        self.faces = faces
        self.copies = copies
        self.hand_size = hand_size if hand_size > 0 else self.hooks.hand_size
        self.idle = idle                # a seat that sits out this deal (dealt nothing), -1 none
        if len(counts) > MAX_HOLDERS or len(counts) != len(forbid) or len(counts) < self.seats:
            raise ValueError("bad holders")
        if len(ops) > MAX_OPS or len(acts) > MAX_ACTS or len(fixed) != self.seats:
            raise ValueError("too many ops or actions")
        self.n_holders = len(counts)
        total = 0
        for i in range(self.n_holders):
            self.count[i] = counts[i]
            self.forbid[i] = forbid[i]
            total += counts[i]
        if total != popcount(pool):
            raise ValueError(f"the holders take {total} cards, the pool has {popcount(pool)}")
        for i in range(self.seats):
            self.fixed[i] = fixed[i]
        self.pool = pool
        self.known_blind = known_blind
        self.blind_holder = blind_holder
        self.blind_slot = blind_slot
        self.n_ops = len(ops)
        for i, (o, a, b, c, n, m) in enumerate(ops):
            self.op[i][0] = o
            self.op[i][1] = a
            self.op[i][2] = b
            self.op[i][3] = c
            self.op[i][4] = n
            self.op_mask[i] = m
        self.n_acts = len(acts)
        for i, (seat, code, kind, ref, tw) in enumerate(acts):
            self.act_seat[i] = seat
            self.act_code[i] = code
            self.act_kind[i] = kind
            self.act_ref[i] = ref
            self.act_twice[i] = tw
        self.state = malloc(self.hooks.state_size)
        if self.state == NULL:
            raise MemoryError()
        self.tries = self.rejected_voids = self.rejected_rules = 0

    def __dealloc__(self):
        if self.state != NULL:
            free(self.state)

    cdef bint deal_holders(self, Rng* r, u64* got) noexcept nogil:
        """Step 1: the pool to the holders, uniformly among the void-consistent deals."""
        cdef int need[MAX_HOLDERS]
        cdef int i, j, c, h, n_allowed
        cdef u64 rest = self.pool, m, only
        cdef int8_t cards[64]
        cdef int n = 0, k
        for i in range(self.n_holders):
            got[i] = 0
            need[i] = self.count[i]
        # cards only one holder may take go there (every consistent deal has them there)
        m = rest
        while m:
            c = lowest(m)
            m &= m - 1
            n_allowed = 0
            h = -1
            for i in range(self.n_holders):
                if self.count[i] > 0 and not (self.forbid[i] >> c & 1):
                    n_allowed += 1
                    h = i
            if n_allowed == 0:
                return False
            if n_allowed == 1:
                if need[h] == 0:
                    return False
                got[h] |= bit(c)
                need[h] -= 1
                rest &= ~bit(c)
        m = rest
        while m:
            cards[n] = <int8_t>lowest(m)
            n += 1
            m &= m - 1
        for i in range(n - 1, 0, -1):          # Fisher-Yates
            j = rng_below(r, i + 1)
            c = cards[i]
            cards[i] = cards[j]
            cards[j] = c
        k = 0
        for i in range(self.n_holders):
            for j in range(need[i]):
                c = cards[k]
                k += 1
                if self.forbid[i] >> c & 1:
                    return False
                got[i] |= bit(c)
        return True

    cdef int one(self, Rng* r, u64* hands, u64* blind) noexcept nogil:
        """One world: 0 accepted, 1 rejected by a void, 2 rejected by the rules."""
        cdef u64 got[MAX_HOLDERS]
        cdef u64 slot[MAX_SLOTS]
        cdef u64 twice[MAX_ACTS]
        cdef i64 codes[MAX_ACTS]
        cdef u64 m, faces_m, tw
        cdef int i, a, b, c, f
        if not self.deal_holders(r, got):
            return 1
        for i in range(MAX_SLOTS):
            slot[i] = 0
        for i in range(self.seats):
            hands[i] = got[i] | self.fixed[i]
        for i in range(self.n_ops):
            a = self.op[i][1]
            b = self.op[i][2]
            c = self.op[i][3]
            if self.op[i][0] == OP_MERGE:
                hands[a] |= got[b]
            elif self.op[i][0] == OP_SPLIT:
                slot[c] = pick_k(r, hands[a] & self.op_mask[i], self.op[i][4])
                if popcount(slot[c]) != self.op[i][4]:
                    return 2
                hands[a] &= ~slot[c]
            elif self.op[i][0] == OP_ADD:
                hands[a] |= slot[c]
            else:
                slot[c] = pick_k(r, got[a] & self.op_mask[i], self.op[i][4])
                if popcount(slot[c]) != self.op[i][4]:
                    return 2
        if self.blind_holder >= 0:
            blind[0] = got[self.blind_holder]
        elif self.blind_slot >= 0:
            blind[0] = slot[self.blind_slot]
        else:
            blind[0] = self.known_blind
        for i in range(self.seats):
            if popcount(hands[i]) != (0 if i == self.idle else self.hand_size):
                return 2
        for i in range(self.n_acts):
            twice[i] = self.act_twice[i]
            codes[i] = self.act_code[i]
            if self.act_kind[i] == K_PLAIN:
                continue
            if self.act_kind[i] == K_EXCHANGE_HOLDER:
                m = got[self.act_ref[i]]
            else:
                m = slot[self.act_ref[i]]
            if self.act_kind[i] == K_PLAY_SLOT:
                if popcount(m) != 1:
                    return 2
                codes[i] = lowest(m) % self.faces
                continue
            # a physical mask as faces plus `twice` (a face named with both copies)
            faces_m = 0
            tw = 0
            while m:
                f = lowest(m) % self.faces
                m &= m - 1
                if faces_m >> f & 1:
                    tw |= bit(f)
                faces_m |= bit(f)
            twice[i] = tw
            codes[i] = exchange_code(exchange_call(self.act_code[i]), faces_m)
        self.hooks.init(self.state, <const void*>self.opts, hands, blind[0], self.dealer)
        if self.hooks.replay(self.state, <const void*>self.opts, self.act_seat, codes, twice,
                             self.n_acts) < self.n_acts:
            return 2
        for i in range(self.n_acts):
            if self.act_kind[i] != K_PLAIN:
                self.last_codes[i] = codes[i]
                self.last_twice[i] = twice[i]
        return 0

    def sample(self, int n, u64 seed, long long max_tries=0):
        """Up to n worlds [(hands, blind, {action index: (code, twice)} of the hidden
        actions)], hands and blind as physical card masks, deterministic per seed;
        fewer when `max_tries` draws (default 2000 * n) did not find n consistent ones."""
        cdef Rng r
        cdef u64 hands[MAX_SEATS]
        cdef u64 blind
        cdef int outcome, i
        cdef long long tries = 0, limit = max_tries if max_tries > 0 else 2000 * <long long>n
        out = []
        r.s = seed
        while len(out) < n and tries < limit:
            with nogil:
                outcome = 1
                while tries < limit:
                    tries += 1
                    outcome = self.one(&r, hands, &blind)
                    if outcome == 0:
                        break
                    if outcome == 1:
                        self.rejected_voids += 1
                    else:
                        self.rejected_rules += 1
            if outcome == 0:
                out.append(([hands[i] for i in range(self.seats)], blind,
                            {i: (self.last_codes[i], self.last_twice[i]) for i in range(self.n_acts)
                             if self.act_kind[i] != K_PLAIN}))
        self.tries += tries
        return out
