# cython: language_level=3
"""One renderer for every game: a finished deal's Result (C data, `_game.pxd`) becomes the
records.md Result object. The games fill the Result; names come from their enums."""
from ._bits cimport u64, i64, lowest
from ._game cimport (Result, Score, Item, Field, MAX_SEATS, IF_TEAM, IF_TRICK, IF_COUNT, IF_VALUE,
                     IF_FACTOR, IF_LOSERS, V_INT, V_OPT_INT, V_BOOL, V_OPT_BOOL, V_WORD, V_SUIT,
                     V_CARD, V_CARDS, V_SEATS, V_NULL, V_OBJECT, V_LIST)

cdef tuple SUITS = ("C", "S", "H", "D")
cdef tuple SMALL = tuple(range(256))
cdef tuple SEAT_LISTS = tuple([i for i in range(MAX_SEATS) if m >> i & 1] for m in range(1 << MAX_SEATS))


cdef class Names:
    def __init__(self, contracts, items, words, cards, int seats):
        self.contracts = tuple(contracts)
        self.items = tuple(items)
        self.words = tuple(words)
        self.cards = tuple(cards)
        self.seats = seats


cdef list seat_list(int mask):
    """The seats of a seat mask, ascending (a fresh list)."""
    return list(SEAT_LISTS[mask & ((1 << MAX_SEATS) - 1)])


cdef list score_list(const Score* sc, int seats):
    return [sc.scores[i] for i in range(seats)]


cdef inline object small(i64 v):
    return SMALL[v] if 0 <= v < 256 else v


cdef object value(const Field* f, Names names, int* pos, const Field* fields, int n):
    """The JSON value of field f (pos: index of f in fields; advanced past nested members)."""
    cdef int k = f.kind, count, i
    cdef i64 v = f.value
    cdef u64 m
    if k == V_INT:
        return small(v)
    if k == V_OPT_INT:
        return small(v) if v >= 0 else None
    if k == V_BOOL:
        return v != 0
    if k == V_OPT_BOOL:
        return None if v < 0 else v != 0
    if k == V_WORD:
        return names.words[v] if v >= 0 else None
    if k == V_SUIT:
        return SUITS[v] if 0 <= v < 4 else None
    if k == V_CARD:
        return names.cards[v] if v >= 0 else None
    if k == V_CARDS:
        m = <u64>v
        out = []
        while m:
            out.append(names.cards[lowest(m)])
            m &= m - 1
        return out
    if k == V_SEATS:
        return seat_list(<int>v)
    if k == V_NULL:
        return None
    count = <int>v
    if k == V_OBJECT:
        obj = {}
        for i in range(count):
            pos[0] += 1
            if pos[0] >= n:
                break
            key = names.words[fields[pos[0]].key]      # before value() moves pos past members
            obj[key] = value(&fields[pos[0]], names, pos, fields, n)
        return obj
    if k == V_LIST:
        lst = []
        for i in range(count):
            pos[0] += 1
            if pos[0] >= n:
                break
            lst.append(value(&fields[pos[0]], names, pos, fields, n))
        return lst
    return None


cdef inline void put_fields(dict out, const Field* fields, int n, Names names):
    cdef int pos = 0
    while pos < n:
        key = names.words[fields[pos].key]      # before value() moves pos past nested members
        out[key] = value(&fields[pos], names, &pos, fields, n)
        pos += 1


cdef dict item_dict(const Item* it, Names names):
    cdef dict out = {"item": names.items[it.name]}
    cdef int f = it.fields
    if f & IF_TEAM:
        out["team"] = small(it.team)
    if f & IF_TRICK:
        out["trick"] = small(it.trick)
    if f & IF_COUNT:
        out["count"] = small(it.count)
    if f & IF_VALUE:
        out["value"] = small(it.value)
    if f & IF_FACTOR:
        out["factor"] = small(it.factor)
    if f & IF_LOSERS:
        out["losers"] = seat_list(it.losers)
    return out


cdef dict render_contract(const Result* r, Names names):
    """The contract object: type, declarer, then the game's contract fields."""
    cdef dict contract = {"type": names.contracts[r.score.contract],
                          "declarer": r.score.declarer if r.score.declarer >= 0 else None}
    put_fields(contract, r.contract, r.n_contract, names)
    return contract


cdef dict render(const Result* r, Names names):
    """The records.md Result: contract, teams, tricks, card_points, scores, breakdown, then the
    game's own fields."""
    cdef const Score* sc = &r.score
    cdef int i, k, seats = names.seats
    cdef tuple cards = names.cards
    cdef dict contract = render_contract(r, names)
    cdef list tricks = []
    for i in range(r.n_tricks):
        tricks.append([SMALL[r.trick_leader[i]],
                       [cards[r.trick_cards[i][k]] for k in range(r.trick_size)],
                       SMALL[r.trick_winner[i]]])
    cdef dict out = {
        "contract": contract,
        "teams": [seat_list(r.teams[i]) for i in range(r.n_teams)],
        "tricks": tricks,
        "card_points": [small(sc.card_points[i]) for i in range(seats)],
        "scores": [small(sc.scores[i]) for i in range(seats)],
        "breakdown": [item_dict(&r.items[i], names) for i in range(r.n_items)],
    }
    put_fields(out, r.extra, r.n_extra, names)
    return out
