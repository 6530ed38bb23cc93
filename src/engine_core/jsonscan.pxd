# Inline helpers (declarations only: no module behind this file) for the games' fast JSON
# paths: a scanner over UTF-8 text that accepts only the plain JSON a record needs (strings
# of printable ASCII without escapes, integers, true/false/null) and reports anything else as
# a failure, so the caller falls back to the json module; and a bounded text writer for
# answers. Game-specific parts (card codes, calls, the record's shape) live in each game.

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


cdef inline bint span_is(Scan* s, Py_ssize_t a, Py_ssize_t n, const char* lit, Py_ssize_t m) noexcept nogil:
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


cdef inline bint scan_flat_object(Scan* s) noexcept nogil:
    """An object of plain values (the options): strings, integers, true, false, null."""
    cdef Py_ssize_t a, n
    cdef long long v
    if not take(s, 123):
        return False
    if take(s, 125):
        return True
    while True:
        if not scan_string(s, &a, &n) or not take(s, 58):
            return False
        skip_ws(s)
        if s.i >= s.n:
            return False
        if s.p[s.i] == 34:
            if not scan_string(s, &a, &n):
                return False
        elif s.p[s.i] == 116:
            if not scan_literal(s, "true", 4):
                return False
        elif s.p[s.i] == 102:
            if not scan_literal(s, "false", 5):
                return False
        elif s.p[s.i] == 110:
            if not scan_literal(s, "null", 4):
                return False
        elif not scan_int(s, &v):
            return False
        if take(s, 125):
            return True
        if not take(s, 44):
            return False


# ---- a bounded text writer ----
cdef enum:
    W_CAP = 8192

cdef struct W:
    char data[W_CAP]
    int n


cdef inline void w_lit(W* w, const char* s) noexcept nogil:
    cdef int k = 0
    while s[k] and w.n < W_CAP:
        w.data[w.n] = s[k]
        w.n += 1
        k += 1


cdef inline int int_digits(long long v, char* num) noexcept nogil:
    """Write v's decimal text at the end of num[24]; returns where it starts (what
    snprintf("%lld") gives, without its cost). Shared by the text writers."""
    cdef int k = 24
    cdef unsigned long long u = (<unsigned long long>0 - <unsigned long long>v) if v < 0 else <unsigned long long>v
    while True:
        k -= 1
        num[k] = <char>(48 + u % 10)
        u //= 10
        if u == 0:
            break
    if v < 0:
        k -= 1
        num[k] = 45
    return k


cdef inline void w_int(W* w, long v) noexcept nogil:
    cdef char num[24]
    cdef int k = int_digits(v, num)
    while k < 24 and w.n < W_CAP:
        w.data[w.n] = num[k]
        w.n += 1
        k += 1


cdef inline void w_opt_seat(W* w, int seat) noexcept nogil:
    """A seat, or null for -1 (Python's `x if x >= 0 else None`)."""
    if seat >= 0:
        w_int(w, seat)
    else:
        w_lit(w, "null")
