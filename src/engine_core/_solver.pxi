# The perfect-information solver, written once and compiled into every game's module (included
# by _engine.pxi), so the game's own rule hooks inline into the search: alpha-beta over the
# card play with move ordering, a transposition table at trick boundaries, point-sound
# equivalent-card reduction and null-window drivers; node budgets give proven bounds.
#
# Value: the objective side's total at the end of the deal, counted as the game's result counts
# it (g_points): what the side has taken plus what it takes from here with best play on both
# sides. The side maximizes (or, with maximize=False, minimizes) it; every other seat does the
# opposite. Solver hooks of a game (besides the rule hooks):
#   g_side(s, o)          the default objective side (seat mask) of the position
#   g_points(s, o, side)  the side's total so far (final at the end of the deal)
#   g_future_max(s, o)    an upper bound of what any side can still add (the current trick included)
#   g_point_table(s)      card points by card index in the contract in force (ordering, merging)
#   g_rule_key(s)         up to 5 bits of rule state the future depends on beyond the cards
#                         and the leader (e.g. the called suit already led)
#   g_unmergeable(s, o)   cards that must not be merged with an equal one at this position (the
#                         unknown card; with Klaverjas roem, the cards that can still make one);
#                         a card's answer may only go from unmergeable to mergeable as play goes on
#   g_odd_cards(s, o)     cards whose part in a trick the card order does not describe (Sheepshead's
#                         unknown card follows as the called suit and never wins): the sure-point
#                         bounds never count on them
#   g_counted(s, side)    the seats whose tricks count for the side's total (Klaverjas: the teams)
#   g_plays_out(s)        every trick is played (a Schafkopf Tout or Bettel can end early)
#   g_settle(s, o)        at the root and after each card the search plays: make the calls a perfect player always
#                         makes at once (Klaverjas's roem claims and stuk: they only add to the
#                         caller's side), so that the search sees card play only
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint16_t, uint32_t, int16_t
from engine_core._order cimport card_strength, mask_points

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define stich_prefetch(p) __builtin_prefetch((p))
    #else
    #define stich_prefetch(p) ((void)(p))
    #endif
    """
    void stich_prefetch(const void* p) nogil

cdef enum:
    TT_BUCKET = 4
    MAX_MOVES = 16
    INF_VALUE = 1 << 20
    NO_CUTOFF = 1 << 21

# what the value counts (Search.kind)
cdef enum:
    COUNT_POINTS = 0        # the side's total as the result counts it (g_points)
    COUNT_TRICKS = 1        # the side's tricks (schwarz: all of them)
    COUNT_MARGIN = 2        # the side's total minus the other seats' (Klaverjas: makers vs defenders)

cdef struct TTEntry:        # 16 bytes: a bucket of TT_BUCKET entries is one 64-byte cache line
    u64 key
    int16_t lo, hi          # bounds of the future value (relative to the points at the node)
    uint16_t gen
    int8_t best, depth


# The transposition table: buckets aligned to cache lines; it starts small (cache-resident:
# most solves need a few thousand entries) and doubles while this solve's entries fill more
# than half of it, up to 2^max_bits entries.
cdef struct Table:
    void* raw               # the allocation (entries start at the next 64-byte boundary)
    TTEntry* e
    u64 mask                # entry index mask, bucket-aligned
    int bits, min_bits, max_bits
    uint16_t gen
    long long fresh         # entries of this generation


cdef struct Search:
    const GOpts* o
    int side                # seat mask of the objective side
    int kind                # COUNT_*
    bint maximize           # the side maximizes its value
    long long nodes, limit  # limit 0: none
    bint aborted
    Table* tt
    u64 above[64]           # per card: cards of its effective suit with a higher power
    u64 geq[64]             # per card: cards of its effective suit with a power at least its own
    const int8_t* points
    u64 unmergeable         # g_unmergeable at the root
    u64 unm[G_HAND + 1]     # g_unmergeable at the start of each trick on the current line
    # partition keys (canonical): each effective suit's cards from the weakest up, the seat
    # holding each card at the root, and per card the cards of equal power (copies)
    int8_t owner[64]
    int8_t pos[64]          # place in its effective suit, weakest first
    u64 same[64]            # cards of equal power (Doppelkopf's copies)
    u64 run[64]             # the cards just below, down to the first with other points or unmergeable
    u64 upto[64]            # cards of its effective suit at most as strong
    u64 held[G_SEATS]       # cards by the seat that held them at the root (or played them)
    u64 mobile              # cards with a run
    bint partition          # keys by canonical(); off: by the exact cards (tests compare both)
    bint etc                # enhanced transposition cutoffs at a trick's last card (tests compare)
    bint sure               # sure-point bounds at trick boundaries (tests compare)
    u64 odd                 # g_odd_cards
    int counted             # g_counted(side)


cdef void search_init(Search* c, const GState* s, const GOpts* o, int side, int kind,
                      bint maximize, long long limit) noexcept nogil:
    """The per-solve tables: the card order in force (fixed for the card play) as masks."""
    cdef const Order* order = g_order(s)
    cdef int a, b, su, n, k
    cdef u64 m
    cdef int8_t seq[64]
    c.o = o
    c.side = side
    c.kind = kind
    c.maximize = maximize
    c.nodes = 0
    c.limit = limit
    c.aborted = False
    c.points = g_point_table(s)
    c.unmergeable = g_unmergeable(s, o)
    c.unm[s.trick_no] = c.unmergeable
    c.odd = g_odd_cards(s, o)
    c.counted = g_counted(s, side)
    c.sure = kind == COUNT_POINTS and g_plays_out(s)
    for a in range(64):
        c.above[a] = 0
        c.geq[a] = 0
    for a in range(G_DECK):
        if order.eff_suit[a] < 0:
            continue
        for b in range(G_DECK):
            if order.eff_suit[b] == order.eff_suit[a]:
                if order.power[b] > order.power[a]:
                    c.above[a] |= bit(b)
                if order.power[b] >= order.power[a]:
                    c.geq[a] |= bit(b)
    for a in range(64):
        c.owner[a] = -1
        c.same[a] = c.geq[a] & ~c.above[a]
    for a in range(G_SEATS):
        m = s.hand[a]
        while m:
            c.owner[lowest(m)] = <int8_t>a
            m &= m - 1
    for a in range(s.trick_no + 1):     # a card played before the root: the seat that played it
        for b in range(s.n_in_trick if a == s.trick_no else trick_size(&c.o.deal, G_SEATS)):
            c.owner[s.trick[a][b]] = <int8_t>seat_in_trick(&c.o.deal, s.dealer, G_SEATS,
                                                           s.trick_leader[a] if a < s.trick_no else s.leader, b)
    for a in range(G_SEATS):
        c.held[a] = 0
    for a in range(64):
        if c.owner[a] >= 0:
            c.held[c.owner[a]] |= bit(a)
    c.mobile = 0
    for su in range(5):
        n = 0
        for a in range(G_DECK):         # insertion by power, weakest first
            if order.eff_suit[a] != su:
                continue
            b = n
            while b > 0 and order.power[seq[b - 1]] > order.power[a]:
                seq[b] = seq[b - 1]
                b -= 1
            seq[b] = <int8_t>a
            n += 1
        for b in range(n):
            a = seq[b]
            c.pos[a] = <int8_t>b
            c.upto[a] = c.geq[seq[0]] & ~c.above[a]
            c.run[a] = 0
            if c.unmergeable >> a & 1:
                continue
            k = b - 1
            while k >= 0 and c.points[seq[k]] == c.points[a] and not (c.unmergeable >> seq[k] & 1):
                c.run[a] |= bit(seq[k])
                k -= 1
            if c.run[a]:
                c.mobile |= bit(a)


cdef inline u64 canonical(const Search* c, u64 rem) noexcept nogil:
    """The cards in play as a partition key: each card moved down its suit onto the lowest of
    the played cards just below it (none in play between) that have its card points and that
    the same seat held, so every card of the key keeps the root's owner. Positions that differ
    only in which of such cards were played share the key: a card is interchangeable with a
    played card of its suit and points when no card in play ranks between them. A card never
    moves past a card in play, cards that must not merge neither move nor are passed, and a
    copy moves only while its twin is out of play (no tie made or broken)."""
    cdef u64 out = rem, m = rem & c.mobile, free, blk
    cdef int card, t, u
    while m:
        card = lowest(m)
        m &= m - 1
        free = c.run[card] & ~rem
        if not free or (c.same[card] & rem) != bit(card):
            continue
        blk = c.run[card] & rem
        while blk:
            free &= ~c.upto[lowest(blk)]
            blk &= blk - 1
        free &= c.held[c.owner[card]]
        if not free:
            continue
        t = lowest(free)
        free &= free - 1
        while free:                     # the weakest of them
            u = lowest(free)
            free &= free - 1
            if c.pos[u] < c.pos[t]:
                t = u
        out ^= bit(card) | bit(t)
    return out


cdef inline u64 tt_key(const Search* c, const GState* s) noexcept nogil:
    """A trick boundary's key: the cards in play as a partition key, the leader and the rule
    state that matters later."""
    cdef u64 rem = 0
    cdef int i
    for i in range(G_SEATS):
        rem |= s.hand[i]
    if c.partition:
        rem = canonical(c, rem)
    return rem | (<u64>s.to_act << 56) | (<u64>(g_rule_key(s) & 31) << 59)


cdef inline TTEntry* tt_bucket(const Table* t, u64 key) noexcept nogil:
    return t.e + (((key * <u64>0x9E3779B97F4A7C15ULL) >> (64 - t.bits)) & t.mask)


cdef inline TTEntry* tt_probe(Search* c, u64 key) noexcept nogil:
    cdef TTEntry* b
    cdef int i
    cdef uint16_t gen
    if c.tt == NULL:
        return NULL
    b = tt_bucket(c.tt, key)
    gen = c.tt.gen
    for i in range(TT_BUCKET):
        if b[i].key == key and b[i].gen == gen:
            return &b[i]
    return NULL


cdef inline bint table_alloc(Table* t, int bits) noexcept nogil:
    """A zeroed table of 2^bits entries, 64-byte aligned (False when out of memory)."""
    cdef size_t size = sizeof(TTEntry) << bits
    cdef void* raw = malloc(size + 64)
    if raw == NULL:
        return False
    t.raw = raw
    t.e = <TTEntry*>((<size_t>raw + 63) & ~(<size_t>63))
    memset(t.e, 0, size)
    t.bits = bits
    t.mask = ((<u64>1 << bits) - 1) & ~(<u64>(TT_BUCKET - 1))
    return True


cdef inline TTEntry* tt_slot(Table* t, u64 key) noexcept nogil:
    """The entry to (over)write for key: its own, else a free one (of an earlier solve), else
    the shallowest of the bucket."""
    cdef TTEntry* b = tt_bucket(t, key)
    cdef TTEntry* v = NULL
    cdef int i
    for i in range(TT_BUCKET):
        if b[i].key == key and b[i].gen == t.gen:
            return &b[i]
    for i in range(TT_BUCKET):
        if b[i].gen != t.gen:
            t.fresh += 1
            return &b[i]
    v = &b[0]
    for i in range(1, TT_BUCKET):
        if b[i].depth < v.depth:
            v = &b[i]
    return v


cdef void table_grow(Table* t) noexcept nogil:
    """Double the table, keeping this solve's entries (unchanged when memory runs out)."""
    cdef Table old = t[0]
    cdef size_t i, n = <size_t>1 << old.bits
    cdef TTEntry* v
    if not table_alloc(t, old.bits + 1):
        t[0] = old
        t.max_bits = old.bits
        return
    t.fresh = 0
    for i in range(n):
        if old.e[i].gen == t.gen:
            v = tt_slot(t, old.e[i].key)
            v[0] = old.e[i]
    free(old.raw)


cdef inline void tt_store(Search* c, u64 key, int lo, int hi, int best, int depth) noexcept nogil:
    cdef TTEntry* v
    cdef Table* t = c.tt
    if t == NULL:
        return
    v = tt_slot(t, key)
    v.key = key
    v.gen = t.gen
    v.lo = <int16_t>lo
    v.hi = <int16_t>hi
    v.best = <int8_t>best
    v.depth = <int8_t>depth
    if t.fresh * 2 > (<long long>1 << t.bits) and t.bits < t.max_bits:
        table_grow(t)


cdef inline bint equivalent(const Search* c, const Order* order, u64 others, u64 unmergeable, int a,
                            int b) noexcept nogil:
    """Cards a and b of one hand are equivalent: the same effective suit and card points, neither
    unmergeable at this position (g_unmergeable), and no card of another hand or of the trick in
    play ranked between them (or equal to either), so every trick and every later choice goes
    the same with either. Rank alone is not enough: A, T and K are neighbours but worth 11, 10
    and 4."""
    return (alike(c, order, others, a, b) and not (unmergeable >> a & 1) and not (unmergeable >> b & 1))


cdef inline bint alike(const Search* c, const Order* order, u64 others, int a, int b) noexcept nogil:
    """equivalent() but for the unmergeable cards."""
    cdef int lo, hi
    if order.eff_suit[a] != order.eff_suit[b] or c.points[a] != c.points[b]:
        return False
    if order.power[a] <= order.power[b]:
        lo, hi = a, b
    else:
        lo, hi = b, a
    return not (c.geq[lo] & ~c.above[hi] & ~bit(a) & ~bit(b) & others)


cdef inline u64 others_of(const GState* s, int seat) noexcept nogil:
    """The cards still in play that `seat` does not hold: other hands and the trick in play."""
    cdef u64 others = 0
    cdef int i
    for i in range(G_SEATS):
        if i != seat:
            others |= s.hand[i]
    for i in range(s.n_in_trick):
        others |= bit(s.trick[s.trick_no][i])
    return others


cdef inline u64 node_unmergeable(const Search* c, const GState* s) noexcept nogil:
    """The cards not to merge at this position: g_unmergeable's answer at the start of its
    trick (search() asks at each trick boundary it expands; the root's for the root's trick),
    and none where the root had none. Sound because a card once mergeable stays so (Klaverjas'
    roem chances only shrink as cards leave play): the answer at the trick's start holds every
    card unmergeable later in the trick."""
    return c.unm[s.trick_no] if c.unmergeable else 0


cdef inline u64 reduce_equivalent(const Search* c, const GState* s, int seat, u64 legal) noexcept nogil:
    """One card (the lowest index) of each class of equivalent legal cards (the unmergeable
    cards are asked for only when two cards are alike otherwise)."""
    cdef const Order* order = g_order(s)
    cdef u64 others, out = 0, m = legal, kept, unmergeable = 0
    cdef int card, k
    cdef bint asked = False
    if not (legal & (legal - 1)):
        return legal
    others = others_of(s, seat)
    while m:
        card = lowest(m)
        m &= m - 1
        kept = out
        while kept:
            k = lowest(kept)
            if alike(c, order, others, card, k):
                if not asked:
                    unmergeable = node_unmergeable(c, s)
                    asked = True
                if not (unmergeable >> card & 1) and not (unmergeable >> k & 1):
                    break
            kept &= kept - 1
        else:
            out |= bit(card)
    return out


cdef inline bint can_beat(const Order* order, const Search* c, u64 hand, int led, int w) noexcept nogil:
    """Whether a hand still to play to this trick could beat card w (led suit `led`)."""
    cdef u64 follow = hand & order.suit_mask[led]
    if follow:
        return order.eff_suit[w] == led and (follow & c.above[w]) != 0
    if order.eff_suit[w] == TRUMP:
        return (hand & c.above[w]) != 0
    return (hand & order.suit_mask[TRUMP]) != 0


cdef inline int order_moves(const Search* c, const GState* s, int seat, u64 legal, int hint,
                            int* moves) noexcept nogil:
    """The legal cards, the likeliest best first: the TT's move; when leading, sure winners
    (highest remaining of their suit), then trumps, then low plain cards; when following, add
    points to a trick the own side wins for sure, take it as high as needed, else lose cheaply."""
    cdef const Order* order = g_order(s)
    cdef int scores[MAX_MOVES]
    cdef int n = 0, j, card, sc, led, best_v, v, win_pos, win_seat, k, pts, q, w, holder, su
    cdef int ruff_opp = 0, ruff_own = 0
    cdef u64 in_hands = 0, others, m = legal
    cdef bint mine, beats, sure, my_side = (c.side >> seat) & 1
    for k in range(G_SEATS):
        in_hands |= s.hand[k]
    others = in_hands & ~s.hand[seat]
    if s.n_in_trick:
        led = order.eff_suit[s.trick[s.trick_no][0]]
        win_pos = 0
        best_v = card_strength(order, s.trick[s.trick_no][0], led)
        for k in range(1, s.n_in_trick):
            v = card_strength(order, s.trick[s.trick_no][k], led)
            if v > best_v:
                best_v = v
                win_pos = k
        win_seat = seat_in_trick(&c.o.deal, s.dealer, G_SEATS, s.leader, win_pos)
    if s.n_in_trick == 0:
        # plain suits a seat still to play is void in while holding trumps: ruffed by the
        # other side (a poor lead) or by the own side only (a good one)
        for k in range(1, G_SEATS):
            q = (seat + k) % G_SEATS
            if not (s.hand[q] & order.suit_mask[TRUMP]):
                continue
            for su in range(4):
                if order.suit_mask[su] and not (s.hand[q] & order.suit_mask[su]):
                    if ((c.side >> q) & 1) == my_side:
                        ruff_own |= 1 << su
                    else:
                        ruff_opp |= 1 << su
    while m and n < MAX_MOVES:
        card = lowest(m)
        m &= m - 1
        pts = c.points[card]
        if s.n_in_trick == 0:
            su = order.eff_suit[card]
            if su == TRUMP:
                if not (c.above[card] & others):
                    sc = 2050 + pts
                else:
                    sc = 1000 + order.power[card]
            elif (ruff_opp >> su & 1):
                sc = 300 - 10 * pts - order.power[card]     # an opponent trumps it
            elif not (c.above[card] & others):
                sc = 2000 + pts
            elif (ruff_own >> su & 1):
                sc = 1500 - 10 * pts - order.power[card]    # the partner trumps it
            else:
                sc = 500 - 10 * pts - order.power[card]
        else:
            beats = card_strength(order, card, led) > best_v
            holder = seat if beats else win_seat
            w = card if beats else s.trick[s.trick_no][win_pos]
            mine = ((c.side >> holder) & 1) == my_side
            if s.n_in_trick == trick_size(&c.o.deal, G_SEATS) - 1:
                sc = (3000 + 10 * pts if mine else 1000 - 10 * pts) - order.power[card]
            else:
                sure = True          # nobody of the other side still to play can beat it
                for k in range(s.n_in_trick + 1, trick_size(&c.o.deal, G_SEATS)):
                    q = seat_in_trick(&c.o.deal, s.dealer, G_SEATS, s.leader, k)
                    if ((c.side >> q) & 1) != ((c.side >> holder) & 1) and can_beat(order, c, s.hand[q], led, w):
                        sure = False
                        break
                if mine and sure:
                    sc = 3000 + 10 * pts - order.power[card]
                elif sure:
                    sc = 1000 - 10 * pts - order.power[card]
                elif mine and beats:
                    sc = 2000 + order.power[card]
                elif mine:
                    sc = 1800 - 10 * pts - order.power[card]
                else:
                    sc = 1500 - 10 * pts - order.power[card]
        if card == hint:
            sc = 1 << 30
        j = n
        n += 1
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        scores[j] = sc
        moves[j] = card
    return n


cdef inline int value_of(const Search* c, const GState* s) noexcept nogil:
    """The value so far (final at the end of the deal)."""
    cdef int t, n = 0
    if c.kind == COUNT_TRICKS:
        for t in range(s.trick_no):
            n += (c.side >> s.trick_winner[t]) & 1
        return n
    if c.kind == COUNT_MARGIN:
        return g_points(s, c.o, c.side) - g_points(s, c.o, ((1 << G_SEATS) - 1) & ~c.side)
    return g_points(s, c.o, c.side)


cdef inline void value_range(const Search* c, const GState* s, int v, int* lo, int* hi) noexcept nogil:
    """Bounds of the final value given the value so far: values only grow, but a margin can
    fall by what the other side still takes."""
    cdef int f
    if c.kind == COUNT_TRICKS:
        lo[0] = v
        hi[0] = v + c.o.deal.hand - s.trick_no
        return
    f = g_future_max(s, c.o)
    lo[0] = v - f if c.kind == COUNT_MARGIN else v
    hi[0] = v + f


cdef inline int extreme_points(const int8_t* points, u64 m, int k, bint largest) noexcept nogil:
    """The card points of the k cards of m with the fewest (or the most) of them."""
    cdef int vals[64]
    cdef int n = 0, j, v, total = 0
    while m:
        v = points[lowest(m)]
        m &= m - 1
        j = n
        n += 1
        while j > 0 and (vals[j - 1] < v if largest else vals[j - 1] > v):
            vals[j] = vals[j - 1]
            j -= 1
        vals[j] = v
    for j in range(k if k < n else n):
        total += vals[j]
    return total


cdef inline int strongest(const Order* order, u64 m) noexcept nogil:
    """The card of m with the highest power (-1 when m is empty)."""
    cdef int best = -1, card
    while m:
        card = lowest(m)
        m &= m - 1
        if best < 0 or order.power[card] > order.power[best]:
            best = card
    return best


cdef void sure_points(const Search* c, const GState* s, int* mine, int* theirs) noexcept nogil:
    """At a trick boundary of a deal that is played out: card points the counted seats
    (c.counted) surely still take (mine), and those the other seats surely take (theirs).
    - Top trumps: walking the trumps in play from the strongest down while all are held by
      one of the two groups, every trick one of them is played to goes to that group (only a
      card of the same group can beat it), so the group takes at least their points.
    - The leader's quick tricks, when he plays for his group's points (a maximizer among the
      counted seats, a minimizer among the others): his trumps above every trump of the other hands, led one after
      another, then in each plain suit his cards above every other hand's card of the suit, as
      long as each other seat either still holds a card of the suit (it must follow) or has no
      trump left after the trump leads (it followed trumps while it had them). Those tricks are
      his group's with every card in them, and any seat's cards in them hold at least the
      points of its lowest cards.
    Cards the order does not describe (g_odd_cards) stop the walk and, in play, the quick tricks."""
    cdef const Order* order = g_order(s)
    cdef u64 in_play = 0, other, tr = order.suit_mask[TRUMP], mask, masters, rest, held = 0, m, grp_cards
    cdef int y, group = -1, walk = 0, q, leader = s.to_act, x, su, k, lq, n_t, qt
    cdef int t_count[G_SEATS]
    mine[0] = 0
    theirs[0] = 0
    for q in range(G_SEATS):
        in_play |= s.hand[q]
    for q in range(G_SEATS):
        if (c.counted >> q) & 1:
            held |= s.hand[q]
    m = in_play & tr
    while m:
        x = strongest(order, m)
        grp_cards = m & c.same[x]       # the cards of its power (Doppelkopf's copies)
        m &= ~grp_cards
        if grp_cards & c.odd:
            break
        if (grp_cards & held) == grp_cards:
            y = 1
        elif not (grp_cards & held):
            y = 0
        else:
            break
        if group < 0:
            group = y
        elif y != group:
            break
        walk += mask_points(c.points, grp_cards)
    if group == 1:
        mine[0] = walk
    elif group == 0:
        theirs[0] = walk
    if c.odd & in_play:
        return
    if ((c.counted >> leader) & 1) != (((c.side >> leader) & 1) == c.maximize):
        return      # the leader does not play for his group's points: no strategy of his bounds the value
    # the leader's quick tricks
    other = in_play & ~s.hand[leader]
    x = strongest(order, other & tr)
    masters = s.hand[leader] & tr & (c.above[x] if x >= 0 else tr)
    n_t = popcount(masters)
    k = n_t
    qt = mask_points(c.points, masters)
    for q in range(G_SEATS):
        t_count[q] = popcount(s.hand[q] & tr)
    for su in range(4):
        mask = order.suit_mask[su]
        if not (s.hand[leader] & mask):
            continue
        x = strongest(order, other & mask)
        rest = s.hand[leader] & mask & (c.above[x] if x >= 0 else mask)
        lq = popcount(rest)
        for q in range(G_SEATS):
            if q != leader and t_count[q] > n_t and popcount(s.hand[q] & mask) < lq:
                lq = popcount(s.hand[q] & mask)
        if lq > 0:
            k += lq
            qt += extreme_points(c.points, rest, lq, True)
    if k == 0:
        return
    for q in range(G_SEATS):
        if q != leader:
            qt += extreme_points(c.points, s.hand[q], k, False)
    if (c.counted >> leader) & 1:
        if qt > mine[0]:
            mine[0] = qt
    elif qt > theirs[0]:
        theirs[0] = qt


cdef inline void prefetch_children(const Search* c, const GState* s, const int* moves, int n) noexcept nogil:
    """The last card of a trick: start loading the table bucket of every child (the next
    trick's first probe), so the probes that follow find them in cache. The key assumes the
    rule state unchanged (a wrong guess only costs the prefetch)."""
    cdef const Order* order = g_order(s)
    cdef int led = order.eff_suit[s.trick[s.trick_no][0]], best_v = -1, win_pos = 0, k, v, i, leader
    cdef u64 rem = 0, key, rule = <u64>(g_rule_key(s) & 31) << 59
    for k in range(G_SEATS):
        rem |= s.hand[k]
    for k in range(s.n_in_trick):
        v = card_strength(order, s.trick[s.trick_no][k], led)
        if v > best_v:
            best_v = v
            win_pos = k
    for i in range(n):
        leader = (s.to_act if card_strength(order, moves[i], led) > best_v
                  else seat_in_trick(&c.o.deal, s.dealer, G_SEATS, s.leader, win_pos))
        key = rem & ~bit(moves[i])
        if c.partition:
            key = canonical(c, key)
        stich_prefetch(tt_bucket(c.tt, key | (<u64>leader << 56) | rule))


cdef int transposition_cutoff(Search* c, const GState* s, const int* moves, int n, bint maxi,
                              int alpha, int beta) noexcept nogil:
    """Enhanced transposition cutoff at a trick's last card: before searching any child, look
    every child (the next trick's boundary) up in the table; one whose stored bound already
    refutes the window (a lower bound >= beta for the maximizer, an upper bound <= alpha for the
    minimizer) is a cutoff without a search. Returns that bound, else NO_CUTOFF. Cheap after
    prefetch_children (the buckets are on their way) and often a whole subtree saved when a
    transposition is found through another move order."""
    cdef GState child
    cdef TTEntry* e
    cdef int i, cp
    for i in range(n):
        child = s[0]
        g_apply(&child, c.o, moves[i])
        g_settle(&child, c.o)
        if g_to_act(&child) < 0:
            continue
        e = tt_probe(c, tt_key(c, &child))
        if e == NULL:
            continue
        cp = value_of(c, &child)
        if maxi and cp + e.lo >= beta:
            return cp + e.lo
        if not maxi and cp + e.hi <= alpha:
            return cp + e.hi
    return NO_CUTOFF


cdef int search(Search* c, const GState* s, int pts, int alpha, int beta) noexcept nogil:
    """Alpha-beta (fail-soft) over the card play: the objective side's final total. `pts` is the
    side's total at the start of the current trick."""
    cdef GState child
    cdef int seat, n, i, v, best, best_move, fmax, lo, hi, alpha0, beta0, hint = -1, cp, sm, st, f
    cdef bint boundary, maxi, have = False
    cdef int moves[MAX_MOVES]
    cdef u64 key = 0, legal
    cdef TTEntry* e
    c.nodes += 1
    if c.limit and c.nodes > c.limit:
        c.aborted = True
        return alpha
    seat = g_to_act(s)
    if seat < 0:
        return value_of(c, s)
    boundary = s.n_in_trick == 0
    lo = -INF_VALUE
    hi = INF_VALUE
    if boundary and popcount(s.hand[seat]) == 1:
        # the last trick: every card is forced
        child = s[0]
        while g_to_act(&child) >= 0:
            g_apply(&child, c.o, lowest(g_legal_cards(&child, c.o)))
            g_settle(&child, c.o)
        return value_of(c, &child)
    if boundary:
        value_range(c, s, pts, &lo, &hi)
        key = tt_key(c, s)
        e = tt_probe(c, key)
        if e != NULL:
            have = True
            lo = pts + e.lo
            hi = pts + e.hi
            hint = e.best
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if c.sure and not have:
            sure_points(c, s, &sm, &st)
            f = hi - pts
            if pts + sm > lo:
                lo = pts + sm
            if pts + f - st < hi:
                hi = pts + f - st
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    alpha0 = alpha
    beta0 = beta
    if boundary and c.unmergeable:
        c.unm[s.trick_no] = g_unmergeable(s, c.o)
    legal = reduce_equivalent(c, s, seat, g_legal_cards(s, c.o))
    n = order_moves(c, s, seat, legal, hint, moves)
    maxi = ((c.side >> seat) & 1) == c.maximize
    if s.n_in_trick == trick_size(&c.o.deal, G_SEATS) - 1 and c.tt != NULL and popcount(s.hand[seat]) > 2:
        prefetch_children(c, s, moves, n)
        if c.etc:
            v = transposition_cutoff(c, s, moves, n, maxi, alpha, beta)
            if v != NO_CUTOFF:
                return v
    best = -INF_VALUE if maxi else INF_VALUE
    best_move = moves[0] if n else -1
    for i in range(n):
        child = s[0]
        g_apply(&child, c.o, moves[i])
        g_settle(&child, c.o)
        cp = pts
        if child.n_in_trick == 0 or g_to_act(&child) < 0:
            cp = value_of(c, &child)
        v = search(c, &child, cp, alpha, beta)
        if c.aborted:
            return alpha
        if maxi:
            if v > best:
                best = v
                best_move = moves[i]
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                best_move = moves[i]
                if best < beta:
                    beta = best
        if alpha >= beta:
            break
    if boundary:
        # bounds of the future value, relative to pts, merged with what the entry knew
        if best <= alpha0:
            hi = best if best < hi else hi
        elif best >= beta0:
            lo = best if best > lo else lo
        else:
            lo = best
            hi = best
        tt_store(c, key, lo - pts, hi - pts, best_move, popcount(key & ((<u64>1 << 56) - 1)))
    return best


cdef struct Bounds:
    int lo, hi
    long long nodes


cdef void solve_bounds(Search* c, const GState* s, Bounds* out) noexcept nogil:
    """Bisection over null-window searches sharing the table: exact when lo == hi; when the
    node budget runs out, the bounds proven so far."""
    cdef int pts, b, g
    pts = value_of(c, s)
    if g_to_act(s) < 0:
        out.lo = out.hi = pts
        out.nodes = 0
        return
    value_range(c, s, pts, &out.lo, &out.hi)
    while out.lo < out.hi:
        b = (out.lo + out.hi + 1) // 2
        g = search(c, s, pts, b - 1, b)
        if c.aborted:
            break
        if g < b:
            out.hi = g if g < out.hi else out.hi
            if out.hi < out.lo:
                out.hi = out.lo
        else:
            out.lo = g if g > out.lo else out.lo
    out.nodes = c.nodes


cdef class Solver:
    """A transposition table and the search over it: reuse one per thread (generations keep
    entries of earlier solves apart without clearing the table). Each solve starts on a
    cache-resident table of 2^min_bits entries that grows with the solve, up to 2^tt_bits."""
    cdef Table t
    cdef readonly int tt_bits
    cdef readonly bint partition
    cdef readonly bint etc
    cdef readonly bint sure

    def __cinit__(self, int tt_bits=22, int min_bits=14, bint partition=False, bint etc=True,
                  bint sure=True):
        if not 10 <= tt_bits <= 26:
            raise ValueError("tt_bits must be 10..26")
        if not 10 <= min_bits <= tt_bits:
            raise ValueError("min_bits must be 10..tt_bits")
        self.tt_bits = tt_bits
        self.partition = partition
        self.etc = etc
        self.sure = sure
        self.t.raw = NULL
        if not table_alloc(&self.t, min_bits):
            raise MemoryError()
        self.t.min_bits = min_bits
        self.t.max_bits = tt_bits
        self.t.gen = 0
        self.t.fresh = 0

    def __dealloc__(self):
        free(self.t.raw)

    cdef void start(self, Search* c) noexcept nogil:
        """A new generation on a table of the starting size."""
        cdef Table* t = &self.t
        t.gen += 1
        if t.bits != t.min_bits or t.gen == 0:
            free(t.raw)
            t.raw = NULL
            if not table_alloc(t, t.min_bits):
                t.bits = 0
                c.tt = NULL         # out of memory: search without a table (slower, still exact)
                c.partition = self.partition
                c.etc = self.etc
                c.sure = c.sure and self.sure
                return
            t.gen = 1
        t.max_bits = self.tt_bits
        t.fresh = 0
        c.tt = t
        c.partition = self.partition
        c.etc = self.etc
        c.sure = c.sure and self.sure


cdef int check_solvable(Core core) except -1:
    if g_to_act(&core.s) >= 0 and not (g_kinds(&core.s) & A_PLAY and g_legal_cards(&core.s, &core.o)):
        raise ValueError(f"the solver works on the card play; this deal is in the {PHASE_NAMES[g_phase(&core.s)]} phase")
    return 0


def default_side(Core core):
    """The seats of the default objective side of the position (g_side)."""
    cdef int m = g_side(&core.s, &core.o)
    return [i for i in range(G_SEATS) if m >> i & 1]


def sure_bounds(Core core, int side, bint maximize=True):
    """(lower, upper, taken, most) at a trick boundary: the bounds of the side's final card
    points (the side maximizing or minimizing them) from the sure-point bounds alone (the search's own), beside what the side has
    taken and that plus all still open; None where they do not apply (mid-trick, a finished
    deal, a deal that can end before its last trick). The tests hold them against minimax."""
    cdef Search c
    cdef int pts, sm, st
    check_solvable(core)
    search_init(&c, &core.s, &core.o, side, COUNT_POINTS, maximize, 0)
    if not c.sure or g_to_act(&core.s) < 0 or core.s.n_in_trick != 0:
        return None
    pts = value_of(&c, &core.s)
    sure_points(&c, &core.s, &sm, &st)
    return pts + sm, pts + g_future_max(&core.s, &core.o) - st, pts, pts + g_future_max(&core.s, &core.o)


def solve_core(Core core, Solver solver, int side, int kind, bint maximize, long long budget):
    """(lower, upper, nodes) of the side's final value; lower == upper when exact."""
    cdef Search c
    cdef Bounds b
    cdef GState root = core.s
    check_solvable(core)
    with nogil:
        g_settle(&root, &core.o)
        search_init(&c, &root, &core.o, side, kind, maximize, budget)
        solver.start(&c)
        solve_bounds(&c, &root, &b)
    return b.lo, b.hi, b.nodes


def reaches_core(Core core, Solver solver, int side, int kind, bint maximize, int target, long long budget):
    """(answer, nodes): whether the side's final value reaches `target` with best play (one
    null-window search); answer None when the budget ran out."""
    cdef Search c
    cdef int g, pts
    cdef GState root = core.s
    check_solvable(core)
    with nogil:
        g_settle(&root, &core.o)
        search_init(&c, &root, &core.o, side, kind, maximize, budget)
        solver.start(&c)
        pts = value_of(&c, &root)
        if g_to_act(&root) < 0:
            g = pts
        else:
            g = search(&c, &root, pts, target - 1, target)
    if c.aborted:
        return None, c.nodes
    return g >= target, c.nodes


def action_values(Core core, Solver solver, int side, int kind, bint maximize, long long budget):
    """[(code, equivalent codes, lower, upper)] for one card of each class of equivalent legal
    cards, and the nodes searched. The children share the table (the same dealt cards)."""
    cdef Search c
    cdef Bounds b
    cdef GState child
    cdef u64 rep, all_legal, others
    cdef int seat, card, other
    cdef long long nodes = 0, left
    cdef const Order* order
    check_solvable(core)
    out = []
    if g_to_act(&core.s) < 0:
        return out, 0
    seat = g_to_act(&core.s)
    search_init(&c, &core.s, &core.o, side, kind, maximize, 0)
    order = g_order(&core.s)
    others = others_of(&core.s, seat)
    all_legal = g_legal_cards(&core.s, &core.o)
    rep = reduce_equivalent(&c, &core.s, seat, all_legal)
    solver.start(&c)
    while rep:
        card = lowest(rep)
        rep &= rep - 1
        child = core.s
        g_settle(&child, &core.o)
        g_apply(&child, &core.o, card)
        g_settle(&child, &core.o)
        left = 0
        if budget:
            left = budget - nodes if budget > nodes else 1
        with nogil:
            c.nodes = 0
            c.limit = left
            c.aborted = False
            solve_bounds(&c, &child, &b)
        nodes += c.nodes
        same = [card] + [other for other in range(G_DECK) if other != card and all_legal >> other & 1
                         and equivalent(&c, order, others, c.unmergeable, card, other)]
        out.append((card, same, b.lo, b.hi))
    return out, nodes


def playout_values(Core core, list codes, int n, u64 seed, int side, int kind, bint maximize,
                   int win_at):
    """Per action code, (the sum over `n` uniformly random playouts after it of the side's final
    value as the solver counts it (`kind`, `side`), the number of those playouts whose value
    reached `win_at`): the hard level's flat Monte Carlo where the searches are cut off, in C
    without the GIL. Playout k after every code is seeded with seed + k, so the codes' sums are
    paired (the same random streams). The state is unchanged."""
    cdef Search c
    cdef GState child, s
    cdef Rng r
    cdef int i, k, v, m = len(codes)
    cdef i64 cs[G_MAX_ACTIONS]
    cdef i64 sums[G_MAX_ACTIONS]
    cdef i64 wins[G_MAX_ACTIONS]
    check_solvable(core)
    if n < 1:
        raise ValueError(f"n must be a positive number of playouts, got {n}")
    if g_to_act(&core.s) < 0:
        raise ValueError("the deal is over: no action follows")
    if m > G_MAX_ACTIONS:
        raise ValueError(f"at most {G_MAX_ACTIONS} codes, got {m}")
    for i in range(m):
        cs[i] = codes[i]
        if not legal_code(&core.s, &core.o, cs[i]):
            raise ValueError(f"action code {cs[i]} is not legal here (legal: {core.legal_codes()})")
    with nogil:
        search_init(&c, &core.s, &core.o, side, kind, maximize, 0)
        for i in range(m):
            child = core.s
            g_apply(&child, &core.o, cs[i])
            sums[i] = 0
            wins[i] = 0
            for k in range(n):
                s = child
                r.s = seed + <u64>k
                finish_random(&s, &core.o, &r, NULL, 0)
                v = value_of(&c, &s)
                sums[i] += v
                wins[i] += v >= win_at
    return [(sums[i], wins[i]) for i in range(m)]
