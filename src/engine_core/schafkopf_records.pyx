# cython: language_level=3
"""Schafkopf records in, results out, fast: the paths `engine_core.batch.evaluate` (dict
records) and the CLI's evaluate (JSON lines) take before the generic replay.

`evaluate_fast` encodes a dict record's actions straight to codes; `evaluate_text_fast` scans a
JSON line straight to card masks and codes (jsonscan.pxd) and writes the Result text from the C
state. Both replay through `sk_replay` and render the Result that `sk_result` decides (the rules
and the one definition of the breakdown live in schafkopf.pyx). Anything these paths do not
accept exactly (unknown keys, bad types, an illegal action...) returns None and the caller takes
the generic path, so every answer is identical to records.evaluate's.
"""
from libc.string cimport memcmp, strlen
from ._core cimport u64, i64, int8_t, CALL_BASE, popcount, bit
from .schafkopf cimport (SkState, SkOpts, SkResult, SkItem, Core, P_OVER, K_NONE, K_RUFSPIEL,
                         N_ITEM_NAMES, N_CONTRACT_NAMES, IF_COUNT, IF_VALUE, IF_FACTOR, IF_LOSERS, sk_init, sk_opts,
                         sk_result, sk_replay, result_dict, contract_has_suit, contract_has_doubling)
from .jsonscan cimport (Scan, skip_ws, take, scan_string, scan_int, span_is, scan_flat_object,
                        W, W_CAP, w_lit, w_int, w_opt_seat)

import json

from .fastjson import dumps
from .cards import SUITS
from .schafkopf import NAME, CALLS, CONTRACT_NAMES, ITEM_NAMES

# ---- options: a record's options object -> C options, cached ---------------------------------
cdef dict CALL_INDEX = {(kind, call, suit): CALL_BASE + i for i, (kind, call, suit) in enumerate(CALLS)}
cdef frozenset RECORD_KEYS = frozenset(("game", "options", "dealer", "hands", "blind", "actions"))
cdef dict OPTS_CACHE = {}
cdef dict OPTS_TEXT_CACHE = {}
cdef object _ABSENT = object()

cdef enum:
    MAX_ACTIONS = 64        # more than any deal has (4 bids, 8 announcements, 32 cards)


cdef class _Opts:
    cdef SkOpts o


cdef _Opts _options_of(object given):
    """The C options of a record's options object, cached by (name, type, value); None when
    they are not plain valid options (the generic path then names the error)."""
    cdef _Opts out
    if given is _ABSENT:
        given = {}
    elif type(given) is not dict:
        return None
    try:
        key = (tuple((<dict>given).items()), tuple(map(type, (<dict>given).values())))
        out = OPTS_CACHE.get(key)
    except Exception:               # an unhashable value: the generic path names the error
        return None
    if out is None:
        from . import games
        try:
            game = games.get(NAME, given)
        except Exception:
            return None
        out = _Opts()
        sk_opts(game.options, &out.o)
        if len(OPTS_CACHE) < 1024:
            OPTS_CACHE[key] = out
    return out


# ---- dict records (batch.evaluate) -----------------------------------------------------------
cdef extern from "Python.h":
    ctypedef struct PyObject
    PyObject* PyDict_GetItemWithError(object d, object key)
    bint PyLong_CheckExact(PyObject* o)
    bint PyUnicode_CheckExact(PyObject* o)
    long PyLong_AsLong(PyObject* o)
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    bint PyDict_Next(object d, Py_ssize_t* pos, PyObject** key, PyObject** value)
    bint PyUnicode_IS_ASCII(PyObject* o)
    Py_UCS4 PyUnicode_READ_CHAR(PyObject* o, Py_ssize_t i)
    void PyErr_Clear()

# ASCII -> rank / suit of a card code ("QC"), -1 elsewhere
cdef int8_t RANK_OF[128]
cdef int8_t SUIT_OF[128]
RANK_OF[:] = [-1] * 128
SUIT_OF[:] = [-1] * 128
for _i, _ch in enumerate("ATKQJ987"):
    RANK_OF[ord(_ch)] = _i
for _i, _ch in enumerate("CSHD"):
    SUIT_OF[ord(_ch)] = _i


cdef inline int card_of(PyObject* c) noexcept:
    """The index of a card code given as an exact 2-character str; -1 for anything else."""
    cdef Py_UCS4 r, t
    if c == NULL or not PyUnicode_CheckExact(c) or PyUnicode_GET_LENGTH(c) != 2:
        return -1
    r = PyUnicode_READ_CHAR(c, 0)
    t = PyUnicode_READ_CHAR(c, 1)
    if r >= 128 or t >= 128 or RANK_OF[r] < 0 or SUIT_OF[t] < 0:
        return -1
    return RANK_OF[r] + 8 * SUIT_OF[t]


cdef inline long small_int(PyObject* o) noexcept:
    """An exact int's value, or -1 for anything else (None, bool, str, big ints...)."""
    if o == NULL or not PyLong_CheckExact(o):
        return -1
    cdef long v = PyLong_AsLong(o)
    if v == -1:
        PyErr_Clear()
    return v


cdef enum:
    F_SEAT = 0
    F_TYPE = 1
    F_CARD = 2
    F_CALL = 3
    F_SUIT = 4


cdef bint action_fields(dict a, PyObject** f) except -1:
    """Borrowed references to an action's fields (NULL where absent), by one pass over its
    items; False for any other key. (All five names have four letters.)"""
    cdef Py_ssize_t pos = 0, n
    cdef PyObject* key
    cdef PyObject* value
    cdef const char* k
    f[0] = f[1] = f[2] = f[3] = f[4] = NULL
    while PyDict_Next(a, &pos, &key, &value):
        if not PyUnicode_CheckExact(key) or PyUnicode_GET_LENGTH(key) != 4 or not PyUnicode_IS_ASCII(key):
            return False
        k = PyUnicode_AsUTF8AndSize(<object>key, &n)     # ASCII: the string's own buffer
        if n != 4:
            return False
        if memcmp(k, b"seat", 4) == 0:
            f[F_SEAT] = value
        elif memcmp(k, b"type", 4) == 0:
            f[F_TYPE] = value
        elif memcmp(k, b"card", 4) == 0:
            f[F_CARD] = value
        elif memcmp(k, b"call", 4) == 0:
            f[F_CALL] = value
        elif memcmp(k, b"suit", 4) == 0:
            f[F_SUIT] = value
        else:
            return False
    return True


def evaluate_fast(record):
    """records.evaluate(record) for a well-formed Schafkopf record whose actions are all legal
    (a result, or the 'deal not finished' error), with actions encoded straight to codes.
    Returns None for anything else, so the caller's generic replay produces the exact error."""
    cdef _Opts opts
    cdef SkState state
    cdef u64 h[4]
    cdef u64 seen = 0, m
    cdef int8_t seats[MAX_ACTIONS]
    cdef i64 codes[MAX_ACTIONS]
    cdef int i, n, c
    cdef long dealer, seat
    cdef PyObject* f[5]
    if type(record) is not dict:
        return None
    for key in record:
        if key not in RECORD_KEYS:
            return None
    if record.get("game") != NAME:
        return None
    opts = _options_of(record.get("options", _ABSENT))
    if opts is None:
        return None
    dealer = small_int(PyDict_GetItemWithError(record, "dealer"))
    if not 0 <= dealer < 4:
        return None
    blind = record.get("blind", _ABSENT)
    if blind is not _ABSENT and not (type(blind) is list and len(<list>blind) == 0):
        return None
    hands = record.get("hands")
    if type(hands) is not list or len(<list>hands) != 4:
        return None
    for i in range(4):
        hand = (<list>hands)[i]
        if type(hand) is not list or len(<list>hand) != 8:
            return None
        m = 0
        for card_obj in <list>hand:
            c = card_of(<PyObject*>card_obj)
            if c < 0:
                return None
            m |= bit(c)
        if popcount(m) != 8 or (seen & m):
            return None
        seen |= m
        h[i] = m
    actions = record.get("actions")
    if type(actions) is not list or len(<list>actions) > MAX_ACTIONS:
        return None
    n = 0
    for a in <list>actions:
        if type(a) is not dict or not action_fields(<dict>a, f):
            return None
        seat = small_int(f[F_SEAT])
        if not 0 <= seat < 4 or f[F_TYPE] == NULL or not PyUnicode_CheckExact(f[F_TYPE]):
            return None
        seats[n] = <int8_t>seat
        kind = <object>f[F_TYPE]
        if kind == "play":
            c = card_of(f[F_CARD])
            if f[F_CALL] != NULL or f[F_SUIT] != NULL or c < 0:
                return None
            codes[n] = c
        else:
            if not (kind == "bid" or kind == "announce") or f[F_CARD] != NULL or f[F_CALL] == NULL:
                return None
            call = <object>f[F_CALL]
            suit = <object>f[F_SUIT] if f[F_SUIT] != NULL else None
            if type(call) is not str or (f[F_SUIT] != NULL and kind != "bid"):
                return None
            if suit is not None and type(suit) is not str:
                return None
            code_obj = CALL_INDEX.get((kind, call, suit))
            if code_obj is None:
                return None
            codes[n] = code_obj
        n += 1
    sk_init(&state, h, <int>dealer)
    if sk_replay(&state, &opts.o, seats, codes, n) < n:
        return None
    if state.phase == P_OVER:
        return {"result": result_dict(&state, &opts.o)}
    return {"error": {"index": n, "reason": f"deal not finished: seat {state.to_act} to act"}}


# ---- fast evaluation of a JSON line (the CLI's evaluate path) --------------------------------
# A scanner for exactly the record shape of records.md, straight from the UTF-8 text to card
# masks and action codes: no Python objects per card or action. Anything it does not accept
# (escapes, non-ASCII, floats, duplicate or unknown keys, ...) returns None and the caller takes
# the generic path (json.loads + records.evaluate), so answers stay identical.
cdef enum:
    N_CALLS = 19

cdef struct ParsedAction:
    long long seat
    int kind            # 0 play, 1 bid, 2 announce
    int card            # play: card index
    Py_ssize_t call_a, call_n, suit_a, suit_n   # spans in the text (suit_n < 0: absent)

cdef struct Parsed:
    int seen                    # record keys seen (bits in KEY_* order)
    Py_ssize_t opts_a, opts_b   # the options object's text
    long long dealer
    u64 hands[4]
    int n_actions
    ParsedAction actions[MAX_ACTIONS]

cdef enum:
    KEY_GAME = 1
    KEY_OPTIONS = 2
    KEY_DEALER = 4
    KEY_HANDS = 8
    KEY_BLIND = 16
    KEY_ACTIONS = 32
    N_KEYS = 6

# the record keys by bit (KEY_GAME = 1 << 0, ...)
cdef const char* KEY_NAMES[N_KEYS]
KEY_NAMES[:] = [b"game", b"options", b"dealer", b"hands", b"blind", b"actions"]
cdef Py_ssize_t KEY_LENS[N_KEYS]
for _i in range(N_KEYS):
    KEY_LENS[_i] = strlen(KEY_NAMES[_i])

# the CALLS table in C: kind (1 bid, 2 announce), name, suit letter (0: none)
cdef int8_t CALL_KIND[N_CALLS]
cdef char CALL_NAME[N_CALLS][16]
cdef int CALL_NAME_LEN[N_CALLS]
cdef char CALL_SUIT[N_CALLS]
assert len(CALLS) == N_CALLS
for _i, (_kind, _call, _suit) in enumerate(CALLS):
    CALL_KIND[_i] = 1 if _kind == "bid" else 2
    _b = _call.encode()
    assert len(_b) < 16
    for _j in range(len(_b)):
        CALL_NAME[_i][_j] = _b[_j]
    CALL_NAME_LEN[_i] = len(_b)
    CALL_SUIT[_i] = ord(_suit) if _suit else 0


cdef inline int scan_card(Scan* s) noexcept nogil:
    cdef Py_ssize_t a, n
    cdef unsigned char r, t
    if not scan_string(s, &a, &n) or n != 2:
        return -1
    r = s.p[a]
    t = s.p[a + 1]
    if RANK_OF[r] < 0 or SUIT_OF[t] < 0:
        return -1
    return RANK_OF[r] + 8 * SUIT_OF[t]


cdef bint scan_hands(Scan* s, Parsed* out) noexcept nogil:
    cdef int i, j, c
    cdef u64 m
    if not take(s, 91):
        return False
    for i in range(4):
        if i and not take(s, 44):
            return False
        if not take(s, 91):
            return False
        m = 0
        for j in range(8):
            if j and not take(s, 44):
                return False
            c = scan_card(s)
            if c < 0:
                return False
            m |= bit(c)
        if not take(s, 93):
            return False
        out.hands[i] = m
    return take(s, 93)


cdef inline bint scan_action(Scan* s, ParsedAction* a) noexcept nogil:
    cdef Py_ssize_t ka, kn, ta, tn
    cdef int seen = 0
    a.suit_n = -1
    a.kind = -1
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
                a.kind = 0
            elif span_is(s, ta, tn, "bid", 3):
                a.kind = 1
            elif span_is(s, ta, tn, "announce", 8):
                a.kind = 2
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
        else:
            return False
        if take(s, 125):
            break
        if not take(s, 44):
            return False
    if a.kind == 0:
        return seen == 1 | 2 | 4
    if a.kind == 1:
        return seen == 1 | 2 | 8 or seen == 1 | 2 | 8 | 16
    return a.kind == 2 and seen == 1 | 2 | 8


cdef bint scan_record(Scan* s, Parsed* out) noexcept nogil:
    cdef Py_ssize_t ka, kn, a, n
    cdef int key, i
    out.seen = 0
    out.n_actions = 0
    if not take(s, 123):
        return False
    while True:
        if not scan_string(s, &ka, &kn) or not take(s, 58):
            return False
        for i in range(N_KEYS):
            if span_is(s, ka, kn, KEY_NAMES[i], KEY_LENS[i]):
                key = 1 << i
                break
        else:
            return False
        if out.seen & key:
            return False                # duplicate key: json keeps the last; not ours to judge
        out.seen |= key
        if key == KEY_GAME:
            if not scan_string(s, &a, &n) or not span_is(s, a, n, "schafkopf", 9):
                return False
        elif key == KEY_OPTIONS:
            skip_ws(s)
            out.opts_a = s.i
            if not scan_flat_object(s):
                return False
            out.opts_b = s.i
        elif key == KEY_DEALER:
            if not scan_int(s, &out.dealer):
                return False
        elif key == KEY_HANDS:
            if not scan_hands(s, out):
                return False
        elif key == KEY_BLIND:
            if not (take(s, 91) and take(s, 93)):         # [] (records.validate: a list)
                return False
        else:
            if not take(s, 91):
                return False
            if not take(s, 93):
                while True:
                    if out.n_actions == MAX_ACTIONS:
                        return False
                    if not scan_action(s, &out.actions[out.n_actions]):
                        return False
                    out.n_actions += 1
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


cdef int call_code(Scan* s, const ParsedAction* a) noexcept nogil:
    """CALL_BASE + the CALLS index of a bid/announce action; -1 if it names none."""
    cdef int i
    cdef char suit = 0
    if a.suit_n >= 0:
        if a.suit_n != 1:
            return -1
        suit = <char>s.p[a.suit_a]
    for i in range(N_CALLS):
        if (CALL_KIND[i] == a.kind and CALL_SUIT[i] == suit
                and span_is(s, a.call_a, a.call_n, CALL_NAME[i], CALL_NAME_LEN[i])):
            return CALL_BASE + i
    return -1

# ---- the Result as JSON text, written from the C state (the CLI's fast path) ----
# Renders the SkResult that schafkopf.result_dict renders as a dict (sk_result decides both), as
# json.dumps(..., separators=(",", ":")) would, character for character; tests/test_batch.py
# compares the two on thousands of deals of every option.
cdef inline void w_card(W* w, int c) noexcept nogil:
    if w.n + 4 <= W_CAP:
        w.data[w.n] = 34
        w.data[w.n + 1] = b"ATKQJ987"[c % 8]
        w.data[w.n + 2] = b"CSHD"[c // 8]
        w.data[w.n + 3] = 34
        w.n += 4


cdef inline void w_seats(W* w, int mask) noexcept nogil:
    """The seats of a 4-bit mask as a JSON list, ascending."""
    cdef int i
    cdef bint first = True
    w_lit(w, "[")
    for i in range(4):
        if mask >> i & 1:
            if not first:
                w_lit(w, ",")
            first = False
            w_int(w, i)
    w_lit(w, "]")


# the rules module's names as C strings for the writer
cdef list _C_NAMES_KEPT = []        # the encoded names the tables point into


cdef int c_names(object names, const char** out, int n) except -1:
    assert len(names) == n
    for i, name in enumerate(names):
        encoded = name.encode()
        _C_NAMES_KEPT.append(encoded)
        out[i] = encoded
    return 0


cdef const char* ITEM_OPENINGS[N_ITEM_NAMES]          # '{"item":"game"', ... by IT_*
cdef const char* CONTRACT_C_NAMES[N_CONTRACT_NAMES]
cdef const char* SUIT_C_NAMES[4]
c_names(tuple('{"item":"%s"' % name for name in ITEM_NAMES), ITEM_OPENINGS, N_ITEM_NAMES)
c_names(CONTRACT_NAMES, CONTRACT_C_NAMES, N_CONTRACT_NAMES)
c_names(SUITS, SUIT_C_NAMES, 4)


cdef void w_item(W* w, const SkItem* it) noexcept nogil:
    w_lit(w, ITEM_OPENINGS[it.item])
    if it.fields & IF_COUNT:
        w_lit(w, ',"count":')
        w_int(w, it.count)
    if it.fields & IF_VALUE:
        w_lit(w, ',"value":')
        w_int(w, it.value)
    if it.fields & IF_FACTOR:
        w_lit(w, ',"factor":')
        w_int(w, it.factor)
    if it.fields & IF_LOSERS:
        w_lit(w, ',"losers":')
        w_seats(w, it.losers)
    w_lit(w, "}")


cdef void w_ints4(W* w, const int* v) noexcept nogil:
    cdef int i
    w_lit(w, "[")
    for i in range(4):
        if i:
            w_lit(w, ",")
        w_int(w, v[i])
    w_lit(w, "]")


cdef void write_result(const SkState* s, const SkOpts* o, W* w) noexcept nogil:
    """The Result of a finished deal, as schafkopf.result_dict renders the same SkResult."""
    cdef SkResult res
    cdef int i, t, k = s.contract
    sk_result(s, o, &res)
    w_lit(w, '{"contract":')
    if k == K_NONE:
        w_lit(w, "null")
    else:
        w_lit(w, '{"type":"')
        w_lit(w, CONTRACT_C_NAMES[k])
        w_lit(w, '","declarer":')
        w_opt_seat(w, s.declarer)
        if contract_has_suit(k):
            w_lit(w, ',"suit":"')
            w_lit(w, SUIT_C_NAMES[s.suit])
            w_lit(w, '"')
        if k == K_RUFSPIEL:
            w_lit(w, ',"partner":')
            w_int(w, s.partner)
        if contract_has_doubling(k):
            w_lit(w, ',"kontra":')
            w_opt_seat(w, s.kontra)
            w_lit(w, ',"re":')
            w_opt_seat(w, s.re)
        w_lit(w, "}")
    w_lit(w, ',"teams":[')
    for i in range(res.n_teams):
        if i:
            w_lit(w, ",")
        w_seats(w, res.teams[i])
    w_lit(w, '],"tricks":[')
    for t in range(s.trick_no):
        if t:
            w_lit(w, ",")
        w_lit(w, "[")
        w_int(w, s.trick_leader[t])
        w_lit(w, ",[")
        for i in range(4):
            if i:
                w_lit(w, ",")
            w_card(w, s.trick[t][i])
        w_lit(w, "],")
        w_int(w, s.trick_winner[t])
        w_lit(w, "]")
    w_lit(w, '],"card_points":')
    w_ints4(w, res.score.card_points)
    w_lit(w, ',"scores":')
    w_ints4(w, res.score.scores)
    w_lit(w, ',"breakdown":[')
    for i in range(res.n_items):
        if i:
            w_lit(w, ",")
        w_item(w, &res.items[i])
    w_lit(w, '],"winners":')
    w_seats(w, res.winners)
    w_lit(w, "}")


def result_json(Core core):
    """json.dumps(core.result(), separators=(",", ":")) written from the C state."""
    cdef W w
    if core.s.phase != P_OVER:
        return "null"
    w.n = 0
    write_result(&core.s, &core.o, &w)
    if w.n >= W_CAP:
        return dumps(core.result())
    return w.data[:w.n].decode("ascii")


def evaluate_text_fast(line, number):
    """The CLI's output line (without newline) for a JSON line holding a Schafkopf record (or
    {"id", "record"}), when the scanner accepts it and every action is legal; None otherwise."""
    cdef const char* text
    cdef Py_ssize_t size
    if type(line) is str:
        text = PyUnicode_AsUTF8AndSize(line, &size)     # no copy for ASCII text
    elif type(line) is bytes:
        text = <const char*>(<bytes>line)
        size = len(<bytes>line)
    else:
        return None
    cdef Scan sc
    cdef Parsed rec
    cdef Py_ssize_t ka, kn, ida = -1, idn = 0, rec_at = -1
    cdef long long id_value = 0
    cdef int id_kind = 0                # 0 absent, 1 int, 2 string
    cdef bint wrapper = False
    cdef u64 seen = 0
    cdef int i
    cdef int8_t seats[MAX_ACTIONS]
    cdef i64 codes[MAX_ACTIONS]
    cdef _Opts opts
    cdef SkState state
    cdef W w
    sc.p = <const unsigned char*>text
    sc.n = size
    sc.i = 0
    # top level: {"id": ..., "record": {...}} or the record itself
    if not take(&sc, 123):
        return None
    start = sc.i - 1
    if not scan_string(&sc, &ka, &kn) or not take(&sc, 58):
        return None
    if span_is(&sc, ka, kn, "id", 2) or span_is(&sc, ka, kn, "record", 6):
        wrapper = True
        while True:
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
            elif span_is(&sc, ka, kn, "record", 6) and rec_at < 0:
                skip_ws(&sc)
                rec_at = sc.i
                if not scan_record(&sc, &rec):
                    return None
            else:
                return None
            if take(&sc, 125):
                break
            if not take(&sc, 44) or not scan_string(&sc, &ka, &kn) or not take(&sc, 58):
                return None
        if rec_at < 0:
            return None
    else:
        sc.i = start
        if not scan_record(&sc, &rec):
            return None
    skip_ws(&sc)
    if sc.i != sc.n:
        return None
    # the record's values
    if not 0 <= rec.dealer < 4:
        return None
    for i in range(4):
        if popcount(rec.hands[i]) != 8 or (seen & rec.hands[i]):
            return None
        seen |= rec.hands[i]
    if rec.seen & KEY_OPTIONS:
        opts_text = text[rec.opts_a:rec.opts_b]        # bytes
        opts = OPTS_TEXT_CACHE.get(opts_text)
        if opts is None:
            opts = _options_of(json.loads(opts_text))
            if opts is None:
                return None
            if len(OPTS_TEXT_CACHE) < 1024:
                OPTS_TEXT_CACHE[opts_text] = opts
    else:
        opts = _options_of(_ABSENT)
    for i in range(rec.n_actions):
        if not 0 <= rec.actions[i].seat < 4:
            return None
        seats[i] = <int8_t>rec.actions[i].seat
        codes[i] = rec.actions[i].card if rec.actions[i].kind == 0 else call_code(&sc, &rec.actions[i])
        if codes[i] < 0:
            return None
    sk_init(&state, rec.hands, <int>rec.dealer)
    if sk_replay(&state, &opts.o, seats, codes, rec.n_actions) < rec.n_actions:
        return None
    if id_kind == 1:
        ident = str(id_value)
    elif id_kind == 2:
        ident = '"' + text[ida:ida + idn].decode("ascii") + '"'
    else:
        ident = str(number)
    if state.phase == P_OVER:
        w.n = 0
        write_result(&state, &opts.o, &w)
        if w.n >= W_CAP:
            return None
        return '{"id":' + ident + ',"result":' + w.data[:w.n].decode("ascii") + '}'
    return ('{"id":' + ident + ',"error":{"index":' + str(rec.n_actions)
            + ',"reason":"deal not finished: seat ' + str(state.to_act) + ' to act"}}')
