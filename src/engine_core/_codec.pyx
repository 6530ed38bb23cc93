# cython: language_level=3
"""The one record codec, table-driven for every game: a JSON line (or a dict) holding a record
becomes card masks and action codes, the game's compiled replay (its `HOOKS`) plays them, the
one Result renderer writes the answer and orjson encodes it.

The scanner accepts only the plain JSON a record needs (ASCII strings without escapes, small
integers, true/false/null, the record's own keys once each) and every check it makes is a
shortcut to the answer the generic path (`records.evaluate`) gives; anything else (an escape,
a float, a duplicate key, a bad card, an illegal action, ...) takes the generic path, so every
answer, errors included, is the generic one. Parsing with a library first (orjson, msgspec)
costs 4-8 us per record before any rule runs (bench/report.py measures it), more than this
whole path: hence one hand-written scanner, driven by each game's declared tables.

Output lines are UTF-8 JSON (orjson): non-ASCII text in ids and reasons is written as is.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.string cimport memset, memchr
from ._bits cimport u64, i64, int8_t, bit, popcount
from ._game cimport GameHooks, Result, CALL_BASE, EXCHANGE_BASE, MAX_CALLS, MAX_EXCHANGES, MAX_SEATS, exchange_code
from ._result cimport Names, render

import orjson

from . import games, records
from .errors import StichError

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object s, Py_ssize_t* size) except NULL

cdef enum:
    MAX_ACTS = 128
    MAX_CARDS = 1024        # cards named by a record's hands, blind and exchanges
    STATE_BYTES = 4096

# ---- the scanner: plain JSON over UTF-8 text ----
cdef struct Scan:
    const unsigned char* p
    Py_ssize_t i, n


cdef inline void skip_ws(Scan* s) noexcept nogil:
    cdef unsigned char c
    while s.i < s.n:
        c = s.p[s.i]
        if c == 32 or c == 10 or c == 13 or c == 9:
            s.i += 1
        else:
            return


cdef inline bint take(Scan* s, unsigned char ch) noexcept nogil:
    skip_ws(s)
    if s.i < s.n and s.p[s.i] == ch:
        s.i += 1
        return True
    return False


cdef inline bint peek(Scan* s, unsigned char ch) noexcept nogil:
    skip_ws(s)
    return s.i < s.n and s.p[s.i] == ch


cdef inline bint scan_string(Scan* s, Py_ssize_t* a, Py_ssize_t* length) noexcept nogil:
    """A string of printable ASCII without escapes; its span."""
    cdef unsigned char c
    skip_ws(s)
    if s.i >= s.n or s.p[s.i] != 34:
        return False
    s.i += 1
    a[0] = s.i
    while s.i < s.n:
        c = s.p[s.i]
        if c == 34:
            length[0] = s.i - a[0]
            s.i += 1
            return True
        if c < 0x20 or c == 92 or c >= 0x7f:
            return False
        s.i += 1
    return False


cdef inline bint scan_int(Scan* s, long long* out) noexcept nogil:
    """A JSON integer of at most 15 digits (not a float)."""
    cdef bint neg = False
    cdef int digits = 0
    cdef long long v = 0
    skip_ws(s)
    if s.i < s.n and s.p[s.i] == 45:
        neg = True
        s.i += 1
    if s.i >= s.n or not (48 <= s.p[s.i] <= 57):
        return False
    if s.p[s.i] == 48 and s.i + 1 < s.n and 48 <= s.p[s.i + 1] <= 57:
        return False                    # leading zero: not JSON
    while s.i < s.n and 48 <= s.p[s.i] <= 57:
        v = 10 * v + (s.p[s.i] - 48)
        s.i += 1
        digits += 1
        if digits > 15:
            return False
    if s.i < s.n and (s.p[s.i] == 46 or s.p[s.i] == 101 or s.p[s.i] == 69):
        return False
    out[0] = -v if neg else v
    return True


cdef inline bint span_is(const Scan* s, Py_ssize_t a, Py_ssize_t n, const char* lit, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    if n != m:
        return False
    for k in range(n):
        if s.p[a + k] != <unsigned char>lit[k]:
            return False
    return True


cdef inline bint scan_literal(Scan* s, const char* lit, Py_ssize_t m) noexcept nogil:
    skip_ws(s)
    if s.i + m <= s.n and span_is(s, s.i, m, lit, m):
        s.i += m
        return True
    return False


cdef bint scan_value(Scan* s, int depth) noexcept nogil:
    """Any plain value (strings, integers, literals, arrays and objects of them), skipped."""
    cdef Py_ssize_t a, n
    cdef long long v
    skip_ws(s)
    if s.i >= s.n or depth > 8:
        return False
    if s.p[s.i] == 34:
        return scan_string(s, &a, &n)
    if s.p[s.i] == 116:
        return scan_literal(s, "true", 4)
    if s.p[s.i] == 102:
        return scan_literal(s, "false", 5)
    if s.p[s.i] == 110:
        return scan_literal(s, "null", 4)
    if s.p[s.i] == 91:
        s.i += 1
        if take(s, 93):
            return True
        while True:
            if not scan_value(s, depth + 1):
                return False
            if take(s, 93):
                return True
            if not take(s, 44):
                return False
    if s.p[s.i] == 123:
        s.i += 1
        if take(s, 125):
            return True
        while True:
            if not scan_string(s, &a, &n) or not take(s, 58) or not scan_value(s, depth + 1):
                return False
            if take(s, 125):
                return True
            if not take(s, 44):
                return False
    return scan_int(s, &v)


# ---- a record as scanned: cards as piquet indices (rank + 8 * suit), calls as spans ----
cdef enum:
    T_PLAY = 0
    T_BID = 1
    T_ANNOUNCE = 2
    T_EXCHANGE = 3

cdef struct Act:
    long long seat
    int kind
    int card                        # play: piquet index
    Py_ssize_t call_a, call_n       # bid / announce / exchange
    Py_ssize_t suit_a, suit_n       # suit_n < 0: absent
    int cards_at, n_cards           # exchange: into Rec.cards

cdef struct Rec:
    int seen                        # record keys seen (KEY_* bits)
    Py_ssize_t game_a, game_n, opts_a, opts_b
    long long dealer
    int n_hands
    int hand_at[MAX_SEATS + 1]      # into cards; [n_hands] = the end
    int blind_at, n_blind
    int n_cards
    int8_t cards[MAX_CARDS]
    int n_acts
    Act acts[MAX_ACTS]

cdef enum:
    KEY_GAME = 1
    KEY_OPTIONS = 2
    KEY_DEALER = 4
    KEY_HANDS = 8
    KEY_BLIND = 16
    KEY_ACTIONS = 32

cdef int8_t RANK_OF[128]
cdef int8_t SUIT_OF[128]
for _i in range(128):
    RANK_OF[_i] = -1
    SUIT_OF[_i] = -1
for _i, _c in enumerate("ATKQJ987"):
    RANK_OF[ord(_c)] = _i
for _i, _c in enumerate("CSHD"):
    SUIT_OF[ord(_c)] = _i


cdef inline int scan_card(Scan* s) noexcept nogil:
    """A card code as its piquet index (rank + 8 * suit), -1 if it is none."""
    cdef Py_ssize_t a, n
    cdef unsigned char r, t
    if not scan_string(s, &a, &n) or n != 2:
        return -1
    r = s.p[a]
    t = s.p[a + 1]
    if RANK_OF[r] < 0 or SUIT_OF[t] < 0:
        return -1
    return RANK_OF[r] + 8 * SUIT_OF[t]


cdef bint scan_cards(Scan* s, Rec* out) noexcept nogil:
    """A list of card codes, appended to out.cards."""
    cdef int c
    if not take(s, 91):
        return False
    if take(s, 93):
        return True
    while True:
        c = scan_card(s)
        if c < 0 or out.n_cards >= MAX_CARDS:
            return False
        out.cards[out.n_cards] = <int8_t>c
        out.n_cards += 1
        if take(s, 93):
            return True
        if not take(s, 44):
            return False


cdef bint scan_hands(Scan* s, Rec* out) noexcept nogil:
    out.n_hands = 0
    if not take(s, 91):
        return False
    if take(s, 93):
        out.hand_at[0] = out.n_cards
        return True
    while True:
        if out.n_hands >= MAX_SEATS:
            return False
        out.hand_at[out.n_hands] = out.n_cards
        if not scan_cards(s, out):
            return False
        out.n_hands += 1
        if take(s, 93):
            out.hand_at[out.n_hands] = out.n_cards
            return True
        if not take(s, 44):
            return False


cdef bint scan_action(Scan* s, Act* a, Rec* rec) noexcept nogil:
    cdef Py_ssize_t ka, kn, ta, tn
    cdef int seen = 0
    a.suit_n = -1
    a.kind = -1
    a.n_cards = 0
    if not take(s, 123):
        return False
    while True:
        if not scan_string(s, &ka, &kn) or not take(s, 58):
            return False
        if span_is(s, ka, kn, "seat", 4) and not seen & 1:
            seen |= 1
            if not scan_int(s, &a.seat):
                return False
        elif span_is(s, ka, kn, "type", 4) and not seen & 2:
            seen |= 2
            if not scan_string(s, &ta, &tn):
                return False
            if span_is(s, ta, tn, "play", 4):
                a.kind = T_PLAY
            elif span_is(s, ta, tn, "bid", 3):
                a.kind = T_BID
            elif span_is(s, ta, tn, "announce", 8):
                a.kind = T_ANNOUNCE
            elif span_is(s, ta, tn, "exchange", 8):
                a.kind = T_EXCHANGE
            else:
                return False
        elif span_is(s, ka, kn, "card", 4) and not seen & 4:
            seen |= 4
            a.card = scan_card(s)
            if a.card < 0:
                return False
        elif span_is(s, ka, kn, "call", 4) and not seen & 8:
            seen |= 8
            if not scan_string(s, &a.call_a, &a.call_n):
                return False
        elif span_is(s, ka, kn, "suit", 4) and not seen & 16:
            seen |= 16
            if not scan_string(s, &a.suit_a, &a.suit_n):
                return False
        elif span_is(s, ka, kn, "cards", 5) and not seen & 32:
            seen |= 32
            a.cards_at = rec.n_cards
            if not scan_cards(s, rec):
                return False
            a.n_cards = rec.n_cards - a.cards_at
        else:
            return False
        if take(s, 125):
            break
        if not take(s, 44):
            return False
    if a.kind == T_PLAY:
        return seen == 1 | 2 | 4
    if a.kind == T_BID:
        return seen == 1 | 2 | 8 or seen == 1 | 2 | 8 | 16
    if a.kind == T_EXCHANGE:
        return seen == 1 | 2 | 8 | 32
    return a.kind == T_ANNOUNCE and seen == 1 | 2 | 8


cdef bint scan_record(Scan* s, Rec* out) noexcept nogil:
    cdef Py_ssize_t ka, kn
    cdef int key
    out.seen = 0
    out.n_acts = 0
    out.n_cards = 0
    out.n_hands = 0
    out.n_blind = 0
    if not take(s, 123):
        return False
    if take(s, 125):
        return False
    while True:
        if not scan_string(s, &ka, &kn) or not take(s, 58):
            return False
        if span_is(s, ka, kn, "game", 4):
            key = KEY_GAME
        elif span_is(s, ka, kn, "options", 7):
            key = KEY_OPTIONS
        elif span_is(s, ka, kn, "dealer", 6):
            key = KEY_DEALER
        elif span_is(s, ka, kn, "hands", 5):
            key = KEY_HANDS
        elif span_is(s, ka, kn, "blind", 5):
            key = KEY_BLIND
        elif span_is(s, ka, kn, "actions", 7):
            key = KEY_ACTIONS
        else:
            return False
        if out.seen & key:
            return False                # a duplicate key: not ours to judge
        out.seen |= key
        if key == KEY_GAME:
            if not scan_string(s, &out.game_a, &out.game_n):
                return False
        elif key == KEY_OPTIONS:
            skip_ws(s)
            out.opts_a = s.i
            if not peek(s, 123) or not scan_value(s, 0):
                return False
            out.opts_b = s.i
        elif key == KEY_DEALER:
            if not scan_int(s, &out.dealer):
                return False
        elif key == KEY_HANDS:
            if not scan_hands(s, out):
                return False
        elif key == KEY_BLIND:
            out.blind_at = out.n_cards
            if not scan_cards(s, out):
                return False
            out.n_blind = out.n_cards - out.blind_at
        else:
            if not take(s, 91):
                return False
            if not take(s, 93):
                while True:
                    if out.n_acts == MAX_ACTS:
                        return False
                    if not scan_action(s, &out.acts[out.n_acts], out):
                        return False
                    out.n_acts += 1
                    if take(s, 93):
                        break
                    if not take(s, 44):
                        return False
        if take(s, 125):
            break
        if not take(s, 44):
            return False
    return (out.seen & (KEY_GAME | KEY_DEALER | KEY_HANDS | KEY_ACTIONS)) == \
        (KEY_GAME | KEY_DEALER | KEY_HANDS | KEY_ACTIONS)


# ---- a game's tables, from its declaration ----
cdef class Tables:
    """What the codec needs of one game: its deck, calls, exchanges, entry points and names."""
    cdef const GameHooks* hooks
    cdef object game                # the Game with default options
    cdef object spec
    cdef Names names
    cdef int seats, hand_size, blind_size, faces, copies, n_calls, n_exchanges
    cdef int8_t face_of[32]         # piquet index -> the game's face index (-1: not in the deck)
    cdef bytes call_names           # the calls' names, concatenated
    cdef int call_at[MAX_CALLS]
    cdef int call_len[MAX_CALLS]
    cdef int8_t call_kind[MAX_CALLS]
    cdef char call_suit[MAX_CALLS]
    cdef bytes exchange_names
    cdef int exchange_at[MAX_EXCHANGES]
    cdef int exchange_len[MAX_EXCHANGES]
    cdef dict options               # options text -> (Options, C options bytes)

    def __init__(self, spec):
        cdef int i
        self.spec = spec
        self.game = games.get(spec.name)
        self.hooks = <const GameHooks*>PyCapsule_GetPointer(spec.rules.HOOKS, "engine_core.GameHooks")
        self.names = spec.rules.NAMES
        self.seats = spec.seats
        self.hand_size = spec.hand_size
        self.blind_size = spec.blind_size
        self.faces = len(spec.deck.faces)
        self.copies = spec.deck.copies
        self.options = {}
        for i in range(32):
            self.face_of[i] = -1
        for i, code in enumerate(spec.deck.faces):
            self.face_of["ATKQJ987".index(code[0]) + 8 * "CSHD".index(code[1])] = i
        names = b""
        if len(spec.calls) > MAX_CALLS or len(spec.exchanges) > MAX_EXCHANGES:
            raise ValueError(f"{spec.name}: too many calls for the codec")
        self.n_calls = len(spec.calls)
        for i, (kind, call, suit) in enumerate(spec.calls):
            self.call_at[i] = len(names)
            self.call_len[i] = len(call)
            self.call_kind[i] = T_BID if kind == "bid" else T_ANNOUNCE
            self.call_suit[i] = ord(suit) if suit else 0
            names += call.encode()
        self.call_names = names
        names = b""
        self.n_exchanges = len(spec.exchanges)
        for i, call in enumerate(spec.exchanges):
            self.exchange_at[i] = len(names)
            self.exchange_len[i] = len(call)
            names += call.encode()
        self.exchange_names = names

    cdef object opts_of(self, bytes text):
        """(Options, C options, hand size, cards left out, the seat that sits out as an offset from
        the dealer's left or None) of a record's options object text, None when the generic path
        must judge them."""
        found = self.options.get(text)
        if found is None:
            try:
                given = orjson.loads(text) if text else {}
                game = games.get(self.spec.name, given)
            except (StichError, orjson.JSONDecodeError, TypeError, ValueError):
                return None
            found = (game.options, self.spec.rules.c_options(game.options, None), game.hand_size,
                     game.left_out, self.spec.rules.idle_offset(game.options))
            if len(self.options) < 1024:
                self.options[text] = found
        return found

    cdef int call_code(self, const Scan* s, const Act* a) noexcept:
        """CALL_BASE + the call's number, -1 if the game has no such call."""
        cdef int i
        cdef char suit = 0
        cdef const char* names = self.call_names
        if a.suit_n >= 0:
            if a.suit_n != 1:
                return -1
            suit = <char>s.p[a.suit_a]
        for i in range(self.n_calls):
            if (self.call_kind[i] == a.kind and self.call_suit[i] == suit
                    and span_is(s, a.call_a, a.call_n, names + self.call_at[i], self.call_len[i])):
                return CALL_BASE + i
        return -1

    cdef int exchange_of(self, const Scan* s, const Act* a) noexcept:
        cdef int i
        cdef const char* names = self.exchange_names
        for i in range(self.n_exchanges):
            if span_is(s, a.call_a, a.call_n, names + self.exchange_at[i], self.exchange_len[i]):
                return i
        return -1


cdef dict TABLES = {}


cdef Tables tables_of(bytes name):
    cdef Tables t = TABLES.get(name)
    if t is None:
        try:
            spec = games.spec_of(name.decode("ascii"))
        except (StichError, UnicodeDecodeError):
            return None
        t = Tables(spec)
        TABLES[name] = t
    return t


cdef bint take_cards(Tables t, const Rec* rec, int at, int n, u64* used, u64* out) noexcept:
    """The mask of n cards of rec.cards from `at`, each the first copy not yet dealt (as
    Deck.mask_of(within=...) numbers them); False when a card is not in the deck or is dealt
    more often than the deck holds it."""
    cdef int k, f
    cdef u64 m = 0
    for k in range(at, at + n):
        f = t.face_of[rec.cards[k]]
        if f < 0:
            return False
        if (used[0] | m) >> f & 1:
            if t.copies < 2 or (used[0] | m) >> (f + t.faces) & 1:
                return False
            f += t.faces
        m |= bit(f)
    out[0] = m
    used[0] |= m
    return True


cdef object answer(const Scan* s, Rec* rec, Tables t):
    """The answer dict ({"result"} or the deal-not-finished error) of a scanned record, None when
    the generic path must answer it (anything it would judge differently or explain)."""
    cdef u64 hands[MAX_SEATS]
    cdef u64 used = 0, blind = 0, faces, twice, m
    cdef int8_t seats[MAX_ACTS]
    cdef i64 codes[MAX_ACTS]
    cdef u64 twices[MAX_ACTS]
    cdef int i, k, f, x, n, idle
    cdef char state[STATE_BYTES]
    cdef Result res
    cdef const Act* a
    cdef bytes opts_c
    if not 0 <= rec.dealer < t.seats or rec.n_hands != t.seats:
        return None
    found = t.opts_of(s.p[rec.opts_a:rec.opts_b] if rec.seen & KEY_OPTIONS else b"")
    if found is None:
        return None
    idle = -1 if found[4] is None else (rec.dealer + 1 + found[4]) % t.seats   # a seat that sits out: no cards
    for i in range(t.seats):
        n = rec.hand_at[i + 1] - rec.hand_at[i]
        if n != (0 if i == idle else found[2]) or not take_cards(t, rec, rec.hand_at[i], n, &used, &hands[i]):
            return None
    if used & <u64>found[3]:            # a card the options leave out: the generic path says so
        return None
    if rec.seen & KEY_BLIND:
        if rec.n_blind != t.blind_size or not take_cards(t, rec, rec.blind_at, rec.n_blind, &used, &blind):
            return None
    elif t.blind_size:
        return None
    opts_c = found[1]
    for i in range(rec.n_acts):
        a = &rec.acts[i]
        if not 0 <= a.seat < t.seats:
            return None
        seats[i] = <int8_t>a.seat
        twices[i] = 0
        if a.kind == T_PLAY:
            codes[i] = t.face_of[a.card]
            if codes[i] < 0:
                return None
        elif a.kind == T_EXCHANGE:
            x = t.exchange_of(s, a)
            if x < 0:
                return None
            faces = 0
            twice = 0
            for k in range(a.cards_at, a.cards_at + a.n_cards):
                f = t.face_of[rec.cards[k]]
                if f < 0 or twice >> f & 1 or (faces >> f & 1 and t.copies < 2):
                    return None
                if faces >> f & 1:
                    twice |= bit(f)
                faces |= bit(f)
            codes[i] = exchange_code(x, faces)
            twices[i] = twice
        else:
            codes[i] = t.call_code(s, a)
            if codes[i] < 0:
                return None
    if t.hooks.state_size > STATE_BYTES:
        return None
    t.hooks.init(state, <const char*>opts_c, hands, blind, <int>rec.dealer)
    if t.hooks.replay(state, <const char*>opts_c, seats, codes, twices, rec.n_acts) < rec.n_acts:
        return None
    k = t.hooks.to_act(state)
    if k >= 0:
        return {"error": {"index": rec.n_acts, "reason": f"deal not finished: seat {k} to act",
                          "reason_id": "DEAL_NOT_FINISHED"}}
    t.hooks.result(state, <const char*>opts_c, &res)
    return {"result": render(&res, t.names)}


cpdef object fast_line(line, number):
    """The answer dict of one input line through the scanner, None when it must take the
    generic path."""
    cdef const char* text
    cdef Py_ssize_t size
    if type(line) is str:
        text = PyUnicode_AsUTF8AndSize(line, &size)
    elif type(line) is bytes:
        text = <const char*>(<bytes>line)
        size = len(<bytes>line)
    else:
        return None
    return fast_text(text, size, number)


cdef object fast_text(const char* text, Py_ssize_t size, number):
    """fast_line over the line's UTF-8 bytes."""
    cdef Py_ssize_t ka, kn, ida = -1, idn = 0, start
    cdef long long id_value = 0
    cdef int id_kind = 0                # 0 absent, 1 int, 2 string
    cdef bint has_record = False
    cdef Scan sc
    cdef Rec rec
    cdef Tables t
    sc.p = <const unsigned char*>text
    sc.n = size
    sc.i = 0
    if not take(&sc, 123):
        return None
    start = sc.i - 1
    if not scan_string(&sc, &ka, &kn) or not take(&sc, 58):
        return None
    if span_is(&sc, ka, kn, "id", 2) or span_is(&sc, ka, kn, "record", 6):
        while True:                      # {"id": ..., "record": {...}}
            if span_is(&sc, ka, kn, "id", 2) and id_kind == 0:
                skip_ws(&sc)
                if sc.i < sc.n and sc.p[sc.i] == 34:
                    if not scan_string(&sc, &ida, &idn):
                        return None
                    id_kind = 2
                elif scan_int(&sc, &id_value):
                    id_kind = 1
                else:
                    return None
            elif span_is(&sc, ka, kn, "record", 6) and not has_record:
                if not scan_record(&sc, &rec):
                    return None
                has_record = True
            else:
                return None
            if take(&sc, 125):
                break
            if not take(&sc, 44) or not scan_string(&sc, &ka, &kn) or not take(&sc, 58):
                return None
        if not has_record:
            return None
    else:
        sc.i = start
        if not scan_record(&sc, &rec):
            return None
    skip_ws(&sc)
    if sc.i != sc.n:
        return None
    t = tables_of(text[rec.game_a:rec.game_a + rec.game_n])
    if t is None:
        return None
    out = answer(&sc, &rec, t)
    if out is None:
        return None
    if id_kind == 1:
        ident = id_value
    elif id_kind == 2:
        ident = text[ida:ida + idn].decode("ascii")
    else:
        ident = number
    return {"id": ident, **out}


# ---- the generic path, and the entry points ----
def generic_line(line, number, bint with_legal=False):
    """The answer dict of one input line through orjson and records.evaluate."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as err:
        return {"id": number, "error": {"index": None, "reason": f"malformed JSON: {err}",
                                        "reason_id": "MALFORMED_JSON"}}
    if isinstance(obj, dict) and "record" in obj and "game" not in obj:
        ident, record = obj.get("id", number), obj["record"]
    else:
        ident, record = number, obj
    return {"id": ident, **records.evaluate(record, with_legal)}


def evaluate_line(line, number, bint with_legal=False):
    """The answer dict for one input line (a JSON record, or {"id", "record"}); `number`
    (1-based) is the id when none is given. Never raises for bad input."""
    if not with_legal:
        out = fast_line(line, number)
        if out is not None:
            return out
    return generic_line(line, number, with_legal)


def evaluate_line_bytes(line, number, bint with_legal=False):
    """evaluate_line as one UTF-8 JSON line (no newline): what `python -m engine_core evaluate`
    writes for that input line."""
    return orjson.dumps(evaluate_line(line, number, with_legal))


_ID_HEAD = b'{"id":'


def exact_id(line, bytes answer):
    """The answer line with the input's integer id exactly as given: orjson reads an integer
    beyond 64 bits as a float (and cannot write it back), so such an id is read again with
    the standard library and its digits put in place of the float."""
    if not answer.startswith(_ID_HEAD):
        return answer
    end = answer.find(b",", len(_ID_HEAD))
    if end < 0 or not any(c in answer[len(_ID_HEAD):end] for c in b".eE"):
        return answer
    import json
    try:
        ident = json.loads(line).get("id")
    except (ValueError, AttributeError, RecursionError):
        return answer
    if type(ident) is not int:
        return answer
    return _ID_HEAD + str(ident).encode() + answer[end:]


cdef inline bint is_blank(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Only ASCII whitespace (bytes.strip() would leave nothing)."""
    cdef Py_ssize_t i
    for i in range(n):
        if not (p[i] == 32 or 9 <= p[i] <= 13):
            return False
    return True


def evaluate_block(bytes block, long long number, bint with_legal=False):
    """The output block of `python -m engine_core evaluate` for whole input lines: `block` holds
    lines ended by \\n (the last one may lack it), the first being line `number` (1-based);
    blank lines get no answer but are counted, and each line's trailing \\r\\n are not
    part of it. One answer line per other line, each as cli.evaluate_line_bytes gives it: the
    lines are cut and numbered here, in C, and only a line the scanner does not take is made a
    Python object (for the generic path)."""
    cdef const unsigned char* p = <const unsigned char*><const char*>block
    cdef Py_ssize_t n = len(block), a = 0, b, e
    cdef list out = []
    cdef object ans
    cdef const unsigned char* hit
    while a < n:
        hit = <const unsigned char*>memchr(p + a, 10, n - a)
        b = n if hit == NULL else hit - p
        e = b
        while e > a and (p[e - 1] == 10 or p[e - 1] == 13):
            e -= 1
        if not is_blank(p + a, b - a):
            ans = None if with_legal else fast_text(<const char*>p + a, e - a, number)
            if ans is not None:
                text = orjson.dumps(ans)
                if id_head_float(text):
                    text = exact_id(block[a:e], text)
            else:
                line = block[a:e]
                text = exact_id(line, orjson.dumps(generic_line(line, number, with_legal)))
            out.append(text)
        number += 1
        a = b + 1
    if not out:
        return b""
    out.append(b"")
    return b"\n".join(out)


cdef inline bint id_head_float(bytes text):
    """Whether exact_id may change the answer (its id written as a float)."""
    cdef const unsigned char* p = <const unsigned char*><const char*>text
    cdef Py_ssize_t n = len(text), i
    if n < 6 or p[0] != 123 or p[1] != 34 or p[2] != 105 or p[3] != 100 or p[4] != 34 or p[5] != 58:
        return False
    for i in range(6, n):
        if p[i] == 44:
            return False
        if p[i] == 46 or p[i] == 101 or p[i] == 69:
            return True
    return False


def cut_lines(bytes buf, Py_ssize_t start, Py_ssize_t max_lines):
    """(end, count): the offset just after the `count`-th newline from `start`, count <=
    max_lines as many as there are (end = start, count = 0 when none)."""
    cdef const char* p = <const char*>buf
    cdef Py_ssize_t n = len(buf), i = start, end = start, count = 0
    cdef const char* hit
    while count < max_lines and i < n:
        hit = <const char*>memchr(p + i, 10, n - i)
        if hit == NULL:
            break
        i = hit - p + 1
        end = i
        count += 1
    return end, count


def evaluate_record(record, bint with_legal=False):
    """records.evaluate(record, with_legal) through the codec: a dict record is encoded with
    orjson (about 1 us) and scanned like a line, so dicts and lines share one codec."""
    cdef Scan sc
    cdef Rec rec
    cdef Tables t
    cdef bytes text
    if not with_legal and type(record) is dict:
        try:
            text = orjson.dumps(record)
        except (TypeError, orjson.JSONEncodeError):
            text = None
        if text is not None:
            sc.p = <const unsigned char*><const char*>text
            sc.n = len(text)
            sc.i = 0
            if scan_record(&sc, &rec):
                t = tables_of(text[rec.game_a:rec.game_a + rec.game_n])
                if t is not None:
                    out = answer(&sc, &rec, t)
                    if out is not None:
                        return out
    return records.evaluate(record, with_legal)


def evaluate_many(recs, bint with_legal=False):
    """One records.evaluate answer per record (a dict, or a JSON text of one), in order."""
    out = []
    for rec in recs:
        if isinstance(rec, (str, bytes)):
            answer_ = evaluate_line(rec, 0, with_legal)
            del answer_["id"]
            out.append(answer_)
        else:
            out.append(evaluate_record(rec, with_legal))
    return out
